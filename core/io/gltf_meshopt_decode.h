#pragma once
// EXT_meshopt_compression, read: buffer views whose bytes come meshoptimizer-compressed
// (gltfpack -cc, articula-cli --compress meshopt), decoded by gltf_decompress before
// tinygltf parses the file into the fallback buffer the extension lays them out in.
#include <string_view>

#include "core/io/gltf_buffers.h"

namespace articula {

inline constexpr std::string_view kMeshoptExtension = "EXT_meshopt_compression";

// Decodes every compressed buffer view of `gltf` into its own buffer (the fallback buffer,
// whose layout the views already describe), which becomes a data URI; the extension is gone
// from views and buffers. Returns how many views it decoded. Fails, naming the view, on a
// buffer or range outside the file, a stride or count the mode or filter does not allow, a
// decoded size past the view's own, or a stream that does not decode.
Result<int> decodeMeshoptViews(GltfJson& gltf, GltfBufferReader& buffers);

}  // namespace articula
