// Runs the Khronos glTF validator (npm package gltf-validator) on every .glb and .gltf file
// under a folder, in one node process, and prints one line per file with errors and a count.
// The ctest test validate_written_gltf runs it over the files the test suite wrote (see
// tests/tools/written_gltf.h). Exit status: 0 when no file has errors, 1 when some file has,
// 2 when the validator cannot be loaded.
//
//   node validate_gltf_folder.mjs <gltf-validator package folder> <folder>
import { readdir, readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';

async function* gltfFiles(folder) {
  let entries = [];
  try {
    entries = await readdir(folder, { withFileTypes: true });
  } catch (error) {
    if (error.code !== 'ENOENT') throw error;
  }
  for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
    const full = path.join(folder, entry.name);
    if (entry.isDirectory()) yield* gltfFiles(full);
    else if (/\.(glb|gltf)$/i.test(entry.name)) yield full;
  }
}

async function main() {
  const [validatorDir, folder] = process.argv.slice(2);
  if (!validatorDir || !folder) {
    console.error('usage: node validate_gltf_folder.mjs <gltf-validator package folder> <folder>');
    return 2;
  }
  let validator;
  try {
    validator = createRequire(import.meta.url)(path.resolve(validatorDir));
  } catch (error) {
    console.error(`cannot load the glTF validator from ${validatorDir} (run scripts/setup.sh): ${error.message}`);
    return 2;
  }
  let files = 0;
  let failed = 0;
  for await (const file of gltfFiles(folder)) {
    ++files;
    const directory = path.dirname(file);
    const report = await validator.validateBytes(new Uint8Array(await readFile(file)), {
      uri: path.basename(file),
      maxIssues: 0,
      externalResourceFunction: (uri) =>
        readFile(path.resolve(directory, decodeURIComponent(uri))).then((data) => new Uint8Array(data)),
    });
    if (report.issues.numErrors === 0) continue;
    ++failed;
    const first = report.issues.messages.find((m) => m.severity === 0);
    console.log(`${file}: ${report.issues.numErrors} errors, first ${first.code} at ${first.pointer ?? '-'}: ${first.message}`);
  }
  console.log(`validated ${files} glTF files written by the tests under ${folder}: ${failed} with errors`);
  return failed > 0 ? 1 : 0;
}

main().then(
  (status) => process.exit(status),
  (error) => {
    console.error(`validation failed: ${error?.message ?? error}`);
    process.exit(2);
  },
);
