#include "core/io/gltf_meshopt_decode.h"

#include <meshoptimizer.h>

#include <map>
#include <optional>

namespace articula {
namespace {

const std::string kMeshoptName(kMeshoptExtension);

// What one compressed view says of itself: its stream, layout and decoder.
struct CompressedView {
  long long target = -1;  // the buffer the decoded bytes go to (the view's own)
  std::size_t targetOffset = 0, targetLength = 0;
  std::size_t count = 0, stride = 0;
  std::string mode, filter;
};

// The view's own placement and its extension's fields, checked as the extension's spec and
// meshoptimizer's decoders require (a decoder given another stride or an index size other
// than 2 or 4 asserts, or reads past its output).
Result<CompressedView> readView(const GltfJson& view, const GltfJson& extension) {
  CompressedView v;
  v.target = gltfIndexAt(view, "buffer");
  const long long offset = view.contains("byteOffset") ? gltfIndexAt(view, "byteOffset") : 0;
  const long long length = gltfIndexAt(view, "byteLength");
  const long long count = gltfIndexAt(extension, "count");
  const long long stride = gltfIndexAt(extension, "byteStride");
  if (v.target < 0 || offset < 0 || length < 0) return makeError("its own buffer, byteOffset or byteLength is missing");
  if (count < 0 || stride <= 0 || stride > 256) return makeError("its count or byteStride is missing or out of range");
  v.targetOffset = static_cast<std::size_t>(offset);
  v.targetLength = static_cast<std::size_t>(length);
  v.count = static_cast<std::size_t>(count);
  v.stride = static_cast<std::size_t>(stride);
  v.mode = extension.value("mode", std::string());
  v.filter = extension.value("filter", std::string("NONE"));
  if (v.count > kMaxDecodedGltfBytes / v.stride || v.count * v.stride > v.targetLength)
    return makeError(std::to_string(v.count) + " elements of " + std::to_string(v.stride) +
                     " bytes do not fit its byteLength " + std::to_string(v.targetLength));
  if (v.mode == "ATTRIBUTES") {
    if (v.stride % 4 != 0) return makeError("ATTRIBUTES need a byteStride divisible by 4");
  } else if (v.mode == "TRIANGLES" || v.mode == "INDICES") {
    if (v.stride != 2 && v.stride != 4) return makeError(v.mode + " need a byteStride of 2 or 4");
    if (v.mode == "TRIANGLES" && v.count % 3 != 0) return makeError("TRIANGLES need a count divisible by 3");
  } else {
    return makeError("unknown mode '" + v.mode + "'");
  }
  const bool filterFits = v.filter == "NONE" || (v.filter == "OCTAHEDRAL" && (v.stride == 4 || v.stride == 8)) ||
                          (v.filter == "QUATERNION" && v.stride == 8) ||
                          (v.filter == "EXPONENTIAL" && v.stride % 4 == 0);
  if (!filterFits || (v.filter != "NONE" && v.mode != "ATTRIBUTES"))
    return makeError("filter '" + v.filter + "' does not fit mode " + v.mode + " and byteStride " +
                     std::to_string(v.stride));
  return v;
}

// Decodes `source` as `view` says into `out` (count × stride bytes).
std::optional<std::string> decode(const CompressedView& view, std::span<const std::uint8_t> source, std::uint8_t* out) {
  int status = 0;
  if (view.mode == "ATTRIBUTES")
    status = meshopt_decodeVertexBuffer(out, view.count, view.stride, source.data(), source.size());
  else if (view.mode == "TRIANGLES")
    status = meshopt_decodeIndexBuffer(out, view.count, view.stride, source.data(), source.size());
  else
    status = meshopt_decodeIndexSequence(out, view.count, view.stride, source.data(), source.size());
  if (status != 0) return "its " + view.mode + " stream does not decode";
  if (view.filter == "OCTAHEDRAL") meshopt_decodeFilterOct(out, view.count, view.stride);
  if (view.filter == "QUATERNION") meshopt_decodeFilterQuat(out, view.count, view.stride);
  if (view.filter == "EXPONENTIAL") meshopt_decodeFilterExp(out, view.count, view.stride);
  return std::nullopt;
}

// The declared byteLength of buffer `index`, within the decoding limit.
Result<std::size_t> bufferLength(const GltfJson& buffers, long long index) {
  if (index < 0 || !buffers.is_array() || static_cast<std::size_t>(index) >= buffers.size())
    return makeError("buffer " + std::to_string(index) + " does not exist");
  const long long length = gltfIndexAt(buffers[static_cast<std::size_t>(index)], "byteLength");
  if (length < 0 || static_cast<std::size_t>(length) > kMaxDecodedGltfBytes)
    return makeError("buffer " + std::to_string(index) + " has no byteLength within " +
                     std::to_string(kMaxDecodedGltfBytes >> 20) + " MB");
  return static_cast<std::size_t>(length);
}

}  // namespace

Result<int> decodeMeshoptViews(GltfJson& gltf, GltfBufferReader& buffers) {
  if (!gltf.contains("bufferViews") || !gltf["bufferViews"].is_array()) return 0;
  std::map<long long, GltfBytes> decoded;  // target buffer -> its bytes
  int views = 0;
  for (std::size_t i = 0; i < gltf["bufferViews"].size(); ++i) {
    GltfJson& view = gltf["bufferViews"][i];
    if (!view.is_object() || !view.contains("extensions") || !view["extensions"].is_object() ||
        !view["extensions"].contains(kMeshoptName))
      continue;
    const std::string self = "bufferView " + std::to_string(i);
    const GltfJson& extension = view["extensions"][kMeshoptName];
    auto layout = readView(view, extension);
    if (!layout) return makeError(self + ": " + layout.error());
    auto source = buffers.range(extension, "its compressed stream");
    if (!source) return makeError(self + ": " + source.error());
    auto length = bufferLength(gltf["buffers"], layout->target);
    if (!length) return makeError(self + ": " + length.error());
    if (layout->targetOffset > *length || layout->targetLength > *length - layout->targetOffset)
      return makeError(self + " lies outside its buffer");
    GltfBytes& target = decoded[layout->target];
    target.resize(*length, 0);
    if (auto error = decode(*layout, *source, target.data() + layout->targetOffset)) return makeError(self + ": " + *error);
    view["extensions"].erase(kMeshoptName);
    if (view["extensions"].empty()) view.erase("extensions");
    ++views;
  }
  // The buffer reader read from these buffers above: only now may they change.
  for (auto& [index, bytes] : decoded) {
    GltfJson& buffer = gltf["buffers"][static_cast<std::size_t>(index)];
    buffer["uri"] = "data:application/octet-stream;base64," + base64Encoded(bytes);
    if (buffer.contains("extensions") && buffer["extensions"].is_object()) {
      buffer["extensions"].erase(kMeshoptName);
      if (buffer["extensions"].empty()) buffer.erase("extensions");
    }
  }
  return views;
}

}  // namespace articula
