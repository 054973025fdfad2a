#pragma once
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "core/scene/scene.h"
#include "core/util/result.h"

namespace articula {

// Imports any supported file: .gltf/.glb through the lossless glTF reader, .bvh through our
// own BVH reader, everything else (FBX, Collada, OBJ, ...) through Assimp. Errors name the
// file and what is wrong.
Result<Scene> importScene(const std::string& path);

// glTF 2.0 (.gltf with external or data-URI buffers, .glb), read with tinygltf so
// CUBICSPLINE tangents and STEP keys stay as authored.
Result<Scene> importGltf(const std::string& path);
// The same from bytes in memory (fuzzing, drag and drop); `baseDir` resolves external URIs.
Result<Scene> importGltfFromMemory(std::span<const std::uint8_t> bytes, const std::string& baseDir,
                                   const std::string& nameForMessages);

// FBX, Collada and every other format Assimp 5.2 opens.
Result<Scene> importWithAssimp(const std::string& path);

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
