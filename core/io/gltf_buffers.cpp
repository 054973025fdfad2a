#include "core/io/gltf_buffers.h"

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>

namespace articula {
namespace {

constexpr std::size_t kGlbHeaderBytes = 12;
constexpr std::size_t kChunkHeaderBytes = 8;
constexpr std::uint32_t kGlbMagic = 0x46546C67;  // "glTF"
constexpr std::uint32_t kJsonChunk = 0x4E4F534A;  // "JSON"
constexpr std::uint32_t kBinChunk = 0x004E4942;   // "BIN\0"
constexpr std::string_view kBase64Alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

std::uint32_t readU32(std::span<const std::uint8_t> bytes, std::size_t offset) {
  std::uint32_t v = 0;
  std::memcpy(&v, bytes.data() + offset, 4);
  return v;
}

void appendU32(GltfBytes& out, std::uint32_t v) {
  const std::size_t at = out.size();
  out.resize(at + 4);
  std::memcpy(out.data() + at, &v, 4);
}

}  // namespace

GlbChunks glbChunks(std::span<const std::uint8_t> bytes) {
  GlbChunks chunks;
  const std::size_t length = std::min<std::size_t>(readU32(bytes, 8), bytes.size());
  const std::size_t jsonLength = readU32(bytes, kGlbHeaderBytes);
  const std::size_t jsonStart = kGlbHeaderBytes + kChunkHeaderBytes;
  chunks.json = std::string_view(reinterpret_cast<const char*>(bytes.data() + jsonStart), jsonLength);
  const std::size_t binHeader = jsonStart + ((jsonLength + 3) & ~std::size_t{3});
  if (binHeader + kChunkHeaderBytes <= length && readU32(bytes, binHeader + 4) == kBinChunk) {
    const std::size_t binLength = readU32(bytes, binHeader);
    if (binLength <= length - binHeader - kChunkHeaderBytes)
      chunks.bin = bytes.subspan(binHeader + kChunkHeaderBytes, binLength);
  }
  return chunks;
}

GltfBytes glbWith(const std::string& json, std::span<const std::uint8_t> bin) {
  GltfBytes out;
  const std::size_t jsonPadded = (json.size() + 3) & ~std::size_t{3};
  const std::size_t binPadded = (bin.size() + 3) & ~std::size_t{3};
  const std::size_t total =
      kGlbHeaderBytes + kChunkHeaderBytes + jsonPadded + (bin.empty() ? 0 : kChunkHeaderBytes + binPadded);
  appendU32(out, kGlbMagic);
  appendU32(out, 2);
  appendU32(out, static_cast<std::uint32_t>(total));
  appendU32(out, static_cast<std::uint32_t>(jsonPadded));
  appendU32(out, kJsonChunk);
  out.insert(out.end(), json.begin(), json.end());
  out.resize(out.size() + jsonPadded - json.size(), ' ');
  if (!bin.empty()) {
    appendU32(out, static_cast<std::uint32_t>(binPadded));
    appendU32(out, kBinChunk);
    out.insert(out.end(), bin.begin(), bin.end());
    out.resize(out.size() + binPadded - bin.size(), 0);
  }
  return out;
}

std::string base64Encoded(std::span<const std::uint8_t> bytes) {
  std::string out;
  out.reserve((bytes.size() + 2) / 3 * 4);
  for (std::size_t i = 0; i < bytes.size(); i += 3) {
    const std::size_t n = std::min<std::size_t>(3, bytes.size() - i);
    std::uint32_t group = std::uint32_t{bytes[i]} << 16;
    if (n > 1) group |= std::uint32_t{bytes[i + 1]} << 8;
    if (n > 2) group |= bytes[i + 2];
    for (std::size_t k = 0; k < 4; ++k) out.push_back(k <= n ? kBase64Alphabet[(group >> (18 - 6 * k)) & 63] : '=');
  }
  return out;
}

GltfBytes base64Decoded(std::string_view text) {
  GltfBytes out;
  out.reserve(text.size() / 4 * 3);
  std::uint32_t group = 0;
  int bits = 0;
  for (const char c : text) {
    const std::size_t v = kBase64Alphabet.find(c);
    if (v == std::string_view::npos) continue;
    group = (group << 6) | static_cast<std::uint32_t>(v);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out.push_back(static_cast<std::uint8_t>((group >> bits) & 0xFF));
    }
  }
  return out;
}

long long gltfIndexAt(const GltfJson& json, const char* key) {
  if (!json.is_object() || !json.contains(key) || !json[key].is_number_integer()) return -1;
  const long long v = json[key].get<long long>();
  return v < 0 ? -1 : v;
}

GltfBufferReader::GltfBufferReader(const GltfJson& buffers, std::span<const std::uint8_t> glbBin, std::string baseDir)
    : mBuffers(buffers), mGlbBin(glbBin), mBaseDir(std::move(baseDir)) {}

Result<std::span<const std::uint8_t>> GltfBufferReader::buffer(long long index) {
  if (index < 0 || !mBuffers.is_array() || static_cast<std::size_t>(index) >= mBuffers.size())
    return makeError("buffer " + std::to_string(index) + " does not exist");
  const auto cached = mRead.find(index);
  if (cached != mRead.end()) return std::span<const std::uint8_t>(cached->second);
  const GltfJson& buffer = mBuffers[static_cast<std::size_t>(index)];
  const std::string self = "buffer " + std::to_string(index);
  if (!buffer.is_object() || !buffer.contains("uri")) {
    if (index != 0 || mGlbBin.empty()) return makeError(self + " has no uri and is not a GLB's binary chunk");
    return mGlbBin;
  }
  if (!buffer["uri"].is_string()) return makeError(self + ": uri is not a string");
  const std::string uri = buffer["uri"].get<std::string>();
  GltfBytes& bytes = mRead[index];
  if (uri.rfind("data:", 0) == 0) {
    const std::size_t comma = uri.find(";base64,");
    if (comma == std::string::npos) return makeError(self + ": a data uri that is not base64");
    bytes = base64Decoded(std::string_view(uri).substr(comma + 8));
  } else {
    std::ifstream in(std::filesystem::path(mBaseDir) / uri, std::ios::binary);
    if (!in) return makeError(self + ": cannot read '" + uri + "'");
    bytes.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  }
  return std::span<const std::uint8_t>(bytes);
}

Result<std::span<const std::uint8_t>> GltfBufferReader::view(const GltfJson& bufferViews, long long index) {
  if (index < 0 || !bufferViews.is_array() || static_cast<std::size_t>(index) >= bufferViews.size())
    return makeError("bufferView " + std::to_string(index) + " does not exist");
  return range(bufferViews[static_cast<std::size_t>(index)], "bufferView " + std::to_string(index));
}

Result<std::span<const std::uint8_t>> GltfBufferReader::range(const GltfJson& placement, const std::string& label) {
  auto bytes = buffer(gltfIndexAt(placement, "buffer"));
  if (!bytes) return makeError(label + ": " + bytes.error());
  const long long offset =
      placement.is_object() && placement.contains("byteOffset") ? gltfIndexAt(placement, "byteOffset") : 0;
  const long long length = gltfIndexAt(placement, "byteLength");
  if (offset < 0 || length < 0 || static_cast<std::size_t>(offset) > bytes->size() ||
      static_cast<std::size_t>(length) > bytes->size() - static_cast<std::size_t>(offset))
    return makeError(label + " lies outside its buffer");
  return bytes->subspan(static_cast<std::size_t>(offset), static_cast<std::size_t>(length));
}

long long GltfAppendedBuffer::addView(GltfJson& bufferViews, std::span<const std::uint8_t> data) {
  while (bytes.size() % 4 != 0) bytes.push_back(0);
  GltfJson view = GltfJson::object();
  view["buffer"] = index;
  view["byteOffset"] = bytes.size();
  view["byteLength"] = data.size();
  bufferViews.push_back(std::move(view));
  bytes.insert(bytes.end(), data.begin(), data.end());
  return static_cast<long long>(bufferViews.size()) - 1;
}

}  // namespace articula
