#pragma once
// The readers the fuzzers drive, one entry point each. The libFuzzer targets (fuzz_*.cpp)
// and the regression replay test (fuzz_regression_test.cpp) call the same functions, so a
// crash file kept in tests/fuzz/regressions/ fails the ordinary test suite the same way.
//
// A reader may refuse any input with a message; what it must not do is crash, hang, or
// return success with a scene that breaks the promises every other layer relies on. Each
// entry point aborts (a fuzzer finding) when a successful result does, naming what is wrong.
#include <cstdint>
#include <span>

namespace articula::fuzz {

// openProjectFromText, the project resolved as if saved in tests/data/projects, so asset
// paths the seeds name ("../gltf/...", the builtin mannequin) load for real.
void readProjectFile(std::span<const std::uint8_t> bytes);
// importBvhFromText.
void readBvh(std::span<const std::uint8_t> bytes);
// importGltfFromMemory (.glb or .gltf JSON) with external URIs resolving nowhere useful.
void readGltf(std::span<const std::uint8_t> bytes);
// importWithAssimp, the Assimp child process under small limits, on the bytes saved as .fbx
// (by their header) or .dae: every crash, hang or exhaustion must come back as one error line
// naming the file.
void readAssimp(std::span<const std::uint8_t> bytes);
// exportGltf on the scene importBvhFromText (bytes starting "HIERARCHY") or
// importGltfFromMemory reads from the bytes: the export must refuse with a message naming the
// file and leave nothing behind, or write a .glb our own glTF reader reads back with every
// value finite. (The Khronos validator takes about a second per file, too slow per input; the
// mutation run, tests/tools/mutation_run.py, validates what the CLI writes.)
void exportScene(std::span<const std::uint8_t> bytes);

}  // namespace articula::fuzz
