#pragma once
// KHR_draco_mesh_compression: primitives whose indices and vertex attributes live in a
// Draco-compressed buffer view (gltf-pipeline -d, Blender's export "Compression", many web
// assets), decoded by gltf_decompress before tinygltf parses the file. tinygltf's own Draco
// path indexes buffer views and Draco attributes the file names without checking them.
#include <string_view>

#include "core/io/gltf_buffers.h"

namespace articula {

inline constexpr std::string_view kDracoExtension = "KHR_draco_mesh_compression";

// Decodes every Draco-compressed primitive of `gltf` into `out`: its accessors then point at
// the decoded data, it is a triangle list, and the extension is gone from it. Returns how
// many it decoded. Fails, naming the primitive, on an index or byte range outside the file,
// Draco data that does not decode to a triangle mesh, an attribute the Draco data does not
// hold or holds with another number of components, or index and component types glTF does
// not allow.
Result<int> decodeDracoPrimitives(GltfJson& gltf, GltfBufferReader& buffers, GltfAppendedBuffer& out);

}  // namespace articula
