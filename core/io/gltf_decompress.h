#pragma once
// Compressed glTF, read: Draco-compressed primitives (KHR_draco_mesh_compression,
// gltf_draco.h) and meshoptimizer-compressed buffer views (EXT_meshopt_compression,
// gltf_meshopt_decode.h) are decoded before tinygltf parses the file, into a plain glTF the
// importer then reads and checks like any other.
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/util/result.h"

namespace articula {

// `json` (the file's JSON text) names one of the extensions: a cheap test before decoding.
bool mentionsCompression(std::string_view json);

// The same file with every compressed primitive and buffer view decoded: a GLB stays a GLB
// (its binary chunk kept as it is), a .gltf stays JSON; Draco data goes to one new buffer, a
// meshopt view's to its fallback buffer, each a data URI; the extensions are gone from the
// file, its extensionsUsed and extensionsRequired. `baseDir`: where a buffer's relative uri
// is read from. Errors name the mesh and primitive, or the buffer view, and what is wrong.
// Input that is not JSON, or that compresses nothing, is returned unchanged.
Result<std::vector<std::uint8_t>> decompressGltf(std::span<const std::uint8_t> bytes, bool isGlb,
                                                 const std::string& baseDir);

}  // namespace articula
