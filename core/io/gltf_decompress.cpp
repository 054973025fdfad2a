#include "core/io/gltf_decompress.h"

#include <algorithm>

#include "core/io/gltf_buffers.h"
#include "core/io/gltf_draco.h"
#include "core/io/gltf_meshopt_decode.h"

namespace articula {
namespace {

void dropExtensionName(GltfJson& gltf, const char* list, std::string_view name) {
  if (!gltf.contains(list) || !gltf[list].is_array()) return;
  GltfJson& names = gltf[list];
  names.erase(std::remove(names.begin(), names.end(), GltfJson(std::string(name))), names.end());
  if (names.empty()) gltf.erase(list);
}

}  // namespace

bool mentionsCompression(std::string_view json) {
  return json.find(kDracoExtension) != std::string_view::npos || json.find(kMeshoptExtension) != std::string_view::npos;
}

Result<std::vector<std::uint8_t>> decompressGltf(std::span<const std::uint8_t> bytes, bool isGlb,
                                                 const std::string& baseDir) {
  const GlbChunks chunks =
      isGlb ? glbChunks(bytes) : GlbChunks{std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size()), {}};
  GltfJson gltf = GltfJson::parse(chunks.json, nullptr, false);
  if (gltf.is_discarded() || !gltf.is_object()) return GltfBytes(bytes.begin(), bytes.end());
  if (!gltf.contains("buffers")) gltf["buffers"] = GltfJson::array();
  if (!gltf.contains("bufferViews")) gltf["bufferViews"] = GltfJson::array();
  if (!gltf["buffers"].is_array() || !gltf["bufferViews"].is_array()) return GltfBytes(bytes.begin(), bytes.end());
  // The reader refers to gltf["buffers"]: buffers change only once every decoder has read.
  GltfBufferReader buffers(gltf["buffers"], chunks.bin, baseDir);
  GltfAppendedBuffer dracoData;
  dracoData.index = static_cast<long long>(gltf["buffers"].size());
  auto primitives = decodeDracoPrimitives(gltf, buffers, dracoData);
  if (!primitives) return makeError(primitives.error());
  auto views = decodeMeshoptViews(gltf, buffers);
  if (!views) return makeError(views.error());
  if (*primitives == 0 && *views == 0) return GltfBytes(bytes.begin(), bytes.end());
  if (*primitives > 0) {
    GltfJson buffer = GltfJson::object();
    buffer["byteLength"] = dracoData.bytes.size();
    buffer["uri"] = "data:application/octet-stream;base64," + base64Encoded(dracoData.bytes);
    gltf["buffers"].push_back(std::move(buffer));
    dropExtensionName(gltf, "extensionsUsed", kDracoExtension);
    dropExtensionName(gltf, "extensionsRequired", kDracoExtension);
  }
  if (*views > 0) {
    dropExtensionName(gltf, "extensionsUsed", kMeshoptExtension);
    dropExtensionName(gltf, "extensionsRequired", kMeshoptExtension);
  }
  const std::string json = gltf.dump();
  if (isGlb) return glbWith(json, chunks.bin);
  return GltfBytes(json.begin(), json.end());
}

}  // namespace articula
