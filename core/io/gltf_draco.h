#pragma once
// KHR_draco_mesh_compression: primitives whose indices and vertex attributes live in a
// Draco-compressed buffer view (gltf-pipeline -d, Blender's export "Compression", many web
// assets). They are decoded before tinygltf parses the file, into a plain glTF whose
// accessors point at the decoded data, so the importer reads and checks them like any other.
// tinygltf's own Draco path indexes buffer views and Draco attributes the file names without
// checking them; here every index and byte range is checked first.
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/util/result.h"

namespace articula {

inline constexpr std::string_view kDracoExtension = "KHR_draco_mesh_compression";

// `json` (the file's JSON text) names the extension: a cheap test before decoding.
bool mentionsDraco(std::string_view json);

// The same file with every Draco-compressed primitive decoded: a GLB stays a GLB (its binary
// chunk kept as it is), a .gltf stays JSON; the decoded data is one new buffer (a data URI),
// the extension is gone from the primitives and from extensionsUsed/extensionsRequired, and
// the primitives are triangle lists. `baseDir`: where a buffer's relative uri is read from.
// Fails, naming the primitive or buffer, on an index or byte range outside the file, Draco
// data that does not decode to a triangle mesh, an attribute the Draco data does not hold or
// holds with another number of components, or index and component types glTF does not allow.
// Input that is not JSON is returned unchanged, for tinygltf to refuse in its words.
Result<std::vector<std::uint8_t>> decodeDracoPrimitives(std::span<const std::uint8_t> bytes, bool isGlb,
                                                        const std::string& baseDir);

}  // namespace articula
