#pragma once
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/scene/scene.h"
#include "core/util/result.h"

namespace articula {

// Imports any supported file: .gltf/.glb through the lossless glTF reader, .bvh through our
// own BVH reader, everything else (FBX, Collada, OBJ, ...) through Assimp. Errors name the
// file and what is wrong. Meshes are repaired as mesh_repair.h says (zero-length normals,
// skins listing a joint twice); `repairs`, when given, receives one line per repair.
Result<Scene> importScene(const std::string& path, std::vector<std::string>* repairs = nullptr);

// glTF 2.0 (.gltf with external or data-URI buffers, .glb), read with tinygltf so
// CUBICSPLINE tangents and STEP keys stay as authored.
Result<Scene> importGltf(const std::string& path);
// The same from bytes in memory (fuzzing, drag and drop); `baseDir` resolves external URIs.
Result<Scene> importGltfFromMemory(std::span<const std::uint8_t> bytes, const std::string& baseDir,
                                   const std::string& nameForMessages);

// What an Assimp import in its child process may use before it is stopped.
struct AssimpImportLimits {
  // Address space the child may add to what it inherits (RLIMIT_AS): a corrupted count in a
  // file makes Assimp allocate until the machine swaps.
  std::size_t memoryBytes = std::size_t{4} << 30;
  // Processor time (RLIMIT_CPU) and wall-clock time: a runaway loop is killed.
  int cpuSeconds = 120;
  int wallSeconds = 180;
  // A child that neither answers nor uses the processor for this long is waiting on
  // something that will not come: a lock another thread held at the fork, or a file that
  // never delivers its data (a named pipe). It is stopped and started again, at most
  // stuckAttempts times in all.
  int stuckSeconds = 10;
  int stuckAttempts = 3;
};

// FBX, Collada and every other format Assimp 5.2 opens, read in a child process under
// `limits`: Assimp aborts on some corrupted files (ai_assert), overflows its stack on deep
// nesting and allocates without bound, and none of that may take the editor down. A child
// that crashes, runs out of memory or time becomes one error line naming the file; the
// scene comes back through a pipe (import_scene_binary.h), exactly as read.
Result<Scene> importWithAssimp(const std::string& path, const AssimpImportLimits& limits = {});
// The same in this process: what the child runs. Only for callers that are themselves
// disposable (the child, fuzzers).
Result<Scene> importWithAssimpInProcess(const std::string& path);

// "<path>: <reason>" on one line, printable (message_text.h), a JSON library's report in our
// words, the reason shortened with "..." so the whole stays under kMaxImportErrorLength
// characters: Assimp's Collada reader puts whole XML elements in its messages, tinygltf
// whole data URIs.
inline constexpr std::size_t kMaxImportErrorLength = 300;
std::string importErrorLine(const std::string& path, std::string_view reason);

// BVH motion capture, read by our own parser: Assimp turns the Euler channels into
// quaternions (losing each joint's channel order) and reports errors without line numbers.
// Joints become NodeKind::Joint, End Sites NodeKind::Tip nodes named "<parent>_End";
// Scene::rotationOrders keeps each joint's CHANNELS order; one clip named after the file.
Result<Scene> importBvh(const std::string& path);
// The same from text in memory (fuzzing); `nameForMessages` starts every error message and
// its stem names the clip.
Result<Scene> importBvhFromText(std::string_view text, const std::string& nameForMessages);

// File extensions (lower case, with the dot) that importScene accepts.
std::span<const char* const> importableExtensions();

}  // namespace articula
