// Runs the Khronos glTF validator (npm package gltf-validator) on one .glb or .gltf file and
// prints a JSON summary: issue counts and the first error/warning messages. Exit status: 0 when
// the file has no errors, 1 when it has errors, 2 when the validator or the file cannot be
// loaded. Files a .gltf refers to (.bin, images) are read from beside it.
//
//   node validate_gltf.mjs <gltf-validator package folder> <file>
//
// Plain ES module using only node:fs, node:path and node:module, so Node 18 (Debian 12) and
// Node 20 both run it.
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';

const kMaxMessages = 20;

async function main() {
  const [validatorDir, file] = process.argv.slice(2);
  if (!validatorDir || !file) {
    console.error('usage: node validate_gltf.mjs <gltf-validator package folder> <file>');
    return 2;
  }
  let validator;
  try {
    validator = createRequire(import.meta.url)(path.resolve(validatorDir));
  } catch (error) {
    console.error(`cannot load the glTF validator from ${validatorDir}: ${error.message}`);
    return 2;
  }
  let bytes;
  try {
    bytes = await readFile(file);
  } catch (error) {
    console.error(`cannot read ${file}: ${error.message}`);
    return 2;
  }
  const folder = path.dirname(path.resolve(file));
  const report = await validator.validateBytes(new Uint8Array(bytes), {
    uri: path.basename(file),
    maxIssues: 0,  // 0: no limit
    externalResourceFunction: (uri) => readFile(path.resolve(folder, decodeURIComponent(uri))).then((data) => new Uint8Array(data)),
  });
  const issues = report.issues;
  const summary = {
    file,
    errors: issues.numErrors,
    warnings: issues.numWarnings,
    infos: issues.numInfos,
    hints: issues.numHints,
    messages: issues.messages
      .filter((m) => m.severity <= 1)
      .slice(0, kMaxMessages)
      .map((m) => `${m.severity === 0 ? 'error' : 'warning'} ${m.code} at ${m.pointer ?? '-'}: ${m.message}`),
  };
  console.log(JSON.stringify(summary));
  return issues.numErrors > 0 ? 1 : 0;
}

main().then(
  (status) => process.exit(status),
  (error) => {
    console.error(`validation failed: ${error?.message ?? error}`);
    process.exit(2);
  },
);
