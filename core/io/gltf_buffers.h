#pragma once
// The byte-level pieces the glTF decompression (gltf_decompress.h) shares between its Draco
// and meshopt decoders: a GLB's chunks, a file's buffers read once each with every index and
// range checked, base64, and a buffer the decoded data is appended to. core/io only.
#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/util/result.h"

namespace articula {

using GltfJson = nlohmann::json;
using GltfBytes = std::vector<std::uint8_t>;

// Most bytes one file's decompression produces: a compressed stream of a few kilobytes can
// declare millions of elements, and the decoded data is held twice (bytes, then base64)
// before tinygltf reads it.
inline constexpr std::size_t kMaxDecodedGltfBytes = std::size_t{512} << 20;

// A GLB's JSON text and binary chunk (empty when it has none); the header and the JSON chunk
// must have been checked (the importer's checkGlbHeader).
struct GlbChunks {
  std::string_view json;
  std::span<const std::uint8_t> bin;
};
GlbChunks glbChunks(std::span<const std::uint8_t> bytes);

// A GLB of `json` (padded with spaces) and `bin` (its binary chunk, left out when empty).
GltfBytes glbWith(const std::string& json, std::span<const std::uint8_t> bin);

// RFC 4648 base64, padded; decoding skips characters outside the alphabet.
std::string base64Encoded(std::span<const std::uint8_t> bytes);
GltfBytes base64Decoded(std::string_view text);

// The integer of `json` at `key`, or -1 when it is missing, not an integer or negative.
long long gltfIndexAt(const GltfJson& json, const char* key);

// The file's buffers as bytes, read once each: the GLB binary chunk, a base64 data URI, or a
// file relative to the glTF's folder. Keeps a reference to the JSON's buffer list: it must
// not change while the reader is used.
class GltfBufferReader {
 public:
  GltfBufferReader(const GltfJson& buffers, std::span<const std::uint8_t> glbBin, std::string baseDir);

  Result<std::span<const std::uint8_t>> buffer(long long index);
  // The bytes of buffer view `index` of `bufferViews`, its range checked against its buffer.
  Result<std::span<const std::uint8_t>> view(const GltfJson& bufferViews, long long index);
  // The bytes `placement` (an object with buffer, byteOffset and byteLength) names, checked
  // against its buffer; `label` names it in errors.
  Result<std::span<const std::uint8_t>> range(const GltfJson& placement, const std::string& label);

 private:
  const GltfJson& mBuffers;
  std::span<const std::uint8_t> mGlbBin;
  std::string mBaseDir;
  std::map<long long, GltfBytes> mRead;
};

// A new buffer the decoded data is appended to, view by view (4-byte aligned).
struct GltfAppendedBuffer {
  long long index = 0;  // its index among the file's buffers once added
  GltfBytes bytes;

  // A new buffer view over `data`, added to `bufferViews`; its index.
  long long addView(GltfJson& bufferViews, std::span<const std::uint8_t> data);
};

}  // namespace articula
