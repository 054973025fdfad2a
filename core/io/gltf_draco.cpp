#include "core/io/gltf_draco.h"

#include <draco/compression/decode.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <map>
#include <nlohmann/json.hpp>

#include "core/io/gltf_tinygltf.h"

namespace articula {
namespace {

using Json = nlohmann::json;
const std::string kDracoName(kDracoExtension);
using Bytes = std::vector<std::uint8_t>;

constexpr std::size_t kGlbHeaderBytes = 12;
constexpr std::size_t kChunkHeaderBytes = 8;
constexpr std::uint32_t kGlbMagic = 0x46546C67;  // "glTF"
constexpr std::uint32_t kJsonChunk = 0x4E4F534A;  // "JSON"
constexpr std::uint32_t kBinChunk = 0x004E4942;   // "BIN\0"
// The decoded data of one file: a Draco buffer of a few kilobytes can declare millions of
// points, and the decoded attributes are held twice (bytes, then base64) before tinygltf.
constexpr std::size_t kMaxDecodedBytes = std::size_t{512} << 20;

std::uint32_t readU32(std::span<const std::uint8_t> bytes, std::size_t offset) {
  std::uint32_t v = 0;
  std::memcpy(&v, bytes.data() + offset, 4);
  return v;
}

void appendU32(Bytes& out, std::uint32_t v) {
  const auto* p = reinterpret_cast<const std::uint8_t*>(&v);
  out.insert(out.end(), p, p + 4);
}

// A GLB's JSON text and binary chunk (empty when it has none); the header and the JSON
// chunk were checked by the importer before (checkGlbHeader).
struct GlbChunks {
  std::string_view json;
  std::span<const std::uint8_t> bin;
};

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

constexpr std::string_view kBase64Alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

// RFC 4648 base64 of `bytes`, padded.
std::string base64Encoded(const Bytes& bytes) {
  std::string out;
  out.reserve((bytes.size() + 2) / 3 * 4);
  for (std::size_t i = 0; i < bytes.size(); i += 3) {
    const std::size_t n = std::min<std::size_t>(3, bytes.size() - i);
    std::uint32_t group = std::uint32_t{bytes[i]} << 16;
    if (n > 1) group |= std::uint32_t{bytes[i + 1]} << 8;
    if (n > 2) group |= bytes[i + 2];
    for (std::size_t k = 0; k < 4; ++k)
      out.push_back(k <= n ? kBase64Alphabet[(group >> (18 - 6 * k)) & 63] : '=');
  }
  return out;
}

// The bytes of base64 `text`; characters outside the alphabet (padding, line breaks) are skipped.
Bytes base64Decoded(std::string_view text) {
  Bytes out;
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

int componentCount(const std::string& type) {
  static const std::map<std::string, int> counts = {{"SCALAR", 1}, {"VEC2", 2}, {"VEC3", 3}, {"VEC4", 4}};
  const auto it = counts.find(type);
  return it == counts.end() ? 0 : it->second;
}

int componentBytes(int componentType) {
  switch (componentType) {
    case TINYGLTF_COMPONENT_TYPE_BYTE:
    case TINYGLTF_COMPONENT_TYPE_UNSIGNED_BYTE: return 1;
    case TINYGLTF_COMPONENT_TYPE_SHORT:
    case TINYGLTF_COMPONENT_TYPE_UNSIGNED_SHORT: return 2;
    case TINYGLTF_COMPONENT_TYPE_UNSIGNED_INT:
    case TINYGLTF_COMPONENT_TYPE_FLOAT: return 4;
    default: return 0;
  }
}

// An integer of `json` at `key`, or -1 when it is missing or not a non-negative integer.
long long indexAt(const Json& json, const char* key) {
  if (!json.is_object() || !json.contains(key) || !json[key].is_number_integer()) return -1;
  const long long v = json[key].get<long long>();
  return v < 0 ? -1 : v;
}

// The file's buffers as bytes, read once each: the GLB binary chunk, a base64 data URI, or a
// file relative to the glTF's folder.
class BufferReader {
 public:
  BufferReader(const Json& buffers, std::span<const std::uint8_t> glbBin, std::string baseDir)
      : mBuffers(buffers), mGlbBin(glbBin), mBaseDir(std::move(baseDir)) {}

  Result<std::span<const std::uint8_t>> read(long long index) {
    if (index < 0 || !mBuffers.is_array() || static_cast<std::size_t>(index) >= mBuffers.size())
      return makeError("buffer " + std::to_string(index) + " does not exist");
    const auto cached = mRead.find(index);
    if (cached != mRead.end()) return std::span<const std::uint8_t>(cached->second);
    const Json& buffer = mBuffers[static_cast<std::size_t>(index)];
    const std::string self = "buffer " + std::to_string(index);
    if (!buffer.is_object() || !buffer.contains("uri")) {
      if (index != 0 || mGlbBin.empty()) return makeError(self + " has no uri and is not a GLB's binary chunk");
      return mGlbBin;
    }
    if (!buffer["uri"].is_string()) return makeError(self + ": uri is not a string");
    const std::string uri = buffer["uri"].get<std::string>();
    Bytes& bytes = mRead[index];
    if (uri.rfind("data:", 0) == 0) {
      const std::size_t comma = uri.find(";base64,");
      if (comma == std::string::npos) return makeError(self + ": a data uri that is not base64");
      bytes = base64Decoded(std::string_view(uri).substr(comma + 8));
    } else {
      const std::filesystem::path path = std::filesystem::path(mBaseDir) / uri;
      std::ifstream in(path, std::ios::binary);
      if (!in) return makeError(self + ": cannot read '" + uri + "'");
      bytes.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    }
    return std::span<const std::uint8_t>(bytes);
  }

 private:
  const Json& mBuffers;
  std::span<const std::uint8_t> mGlbBin;
  std::string mBaseDir;
  std::map<long long, Bytes> mRead;
};

// The decoded data, appended view by view to one new buffer.
struct DecodedBuffer {
  long long index = 0;  // its index among the file's buffers
  Bytes bytes;

  // A new buffer view over `data` (4-byte aligned, as accessors need); its index.
  long long addView(Json& bufferViews, const Bytes& data) {
    while (bytes.size() % 4 != 0) bytes.push_back(0);
    Json view = Json::object();
    view["buffer"] = index;
    view["byteOffset"] = bytes.size();
    view["byteLength"] = data.size();
    bufferViews.push_back(std::move(view));
    bytes.insert(bytes.end(), data.begin(), data.end());
    return static_cast<long long>(bufferViews.size()) - 1;
  }
};

template <typename T>
bool convertAttribute(const draco::Mesh& mesh, const draco::PointAttribute& attribute, int components, Bytes& out) {
  T value[4] = {};
  out.resize(static_cast<std::size_t>(mesh.num_points()) * static_cast<std::size_t>(components) * sizeof(T));
  std::uint8_t* at = out.data();
  for (draco::PointIndex p(0); p < mesh.num_points(); ++p) {
    if (!attribute.ConvertValue<T>(attribute.mapped_index(p), static_cast<std::int8_t>(components), value)) return false;
    std::memcpy(at, value, sizeof(T) * static_cast<std::size_t>(components));
    at += sizeof(T) * static_cast<std::size_t>(components);
  }
  return true;
}

bool convertAttribute(int componentType, const draco::Mesh& mesh, const draco::PointAttribute& attribute,
                      int components, Bytes& out) {
  switch (componentType) {
    case TINYGLTF_COMPONENT_TYPE_BYTE: return convertAttribute<std::int8_t>(mesh, attribute, components, out);
    case TINYGLTF_COMPONENT_TYPE_UNSIGNED_BYTE: return convertAttribute<std::uint8_t>(mesh, attribute, components, out);
    case TINYGLTF_COMPONENT_TYPE_SHORT: return convertAttribute<std::int16_t>(mesh, attribute, components, out);
    case TINYGLTF_COMPONENT_TYPE_UNSIGNED_SHORT: return convertAttribute<std::uint16_t>(mesh, attribute, components, out);
    case TINYGLTF_COMPONENT_TYPE_UNSIGNED_INT: return convertAttribute<std::uint32_t>(mesh, attribute, components, out);
    case TINYGLTF_COMPONENT_TYPE_FLOAT: return convertAttribute<float>(mesh, attribute, components, out);
    default: return false;
  }
}

// The mesh's faces as indices of `componentType`, or an error when a point index does not fit.
Result<Bytes> faceIndices(const draco::Mesh& mesh, int componentType) {
  const int size = componentBytes(componentType);
  if (componentType != TINYGLTF_COMPONENT_TYPE_UNSIGNED_BYTE && componentType != TINYGLTF_COMPONENT_TYPE_UNSIGNED_SHORT &&
      componentType != TINYGLTF_COMPONENT_TYPE_UNSIGNED_INT)
    return makeError("indices are not of an unsigned integer type");
  const std::uint64_t largest = size == 4 ? std::numeric_limits<std::uint32_t>::max() : (std::uint64_t{1} << (8 * size)) - 1;
  if (mesh.num_points() > 0 && static_cast<std::uint64_t>(mesh.num_points() - 1) > largest)
    return makeError(std::to_string(mesh.num_points()) + " points do not fit its " + std::to_string(8 * size) + "-bit indices");
  Bytes out(static_cast<std::size_t>(mesh.num_faces()) * 3 * static_cast<std::size_t>(size));
  std::uint8_t* at = out.data();
  for (draco::FaceIndex f(0); f < mesh.num_faces(); ++f) {
    for (int corner = 0; corner < 3; ++corner) {
      const std::uint32_t v = mesh.face(f)[corner].value();
      std::memcpy(at, &v, static_cast<std::size_t>(size));  // little-endian: the low bytes
      at += size;
    }
  }
  return out;
}

// The Draco mesh of a primitive's extension object, its buffer view checked against its buffer.
Result<std::unique_ptr<draco::Mesh>> decodeMesh(const Json& extension, const Json& bufferViews, BufferReader& buffers) {
  const long long view = indexAt(extension, "bufferView");
  if (view < 0 || !bufferViews.is_array() || static_cast<std::size_t>(view) >= bufferViews.size())
    return makeError("its Draco bufferView does not exist");
  const Json& bufferView = bufferViews[static_cast<std::size_t>(view)];
  auto buffer = buffers.read(indexAt(bufferView, "buffer"));
  if (!buffer) return makeError("bufferView " + std::to_string(view) + ": " + buffer.error());
  const long long offset = bufferView.is_object() && bufferView.contains("byteOffset") ? indexAt(bufferView, "byteOffset") : 0;
  const long long length = indexAt(bufferView, "byteLength");
  if (offset < 0 || length < 0 || static_cast<std::size_t>(offset) > buffer->size() ||
      static_cast<std::size_t>(length) > buffer->size() - static_cast<std::size_t>(offset))
    return makeError("bufferView " + std::to_string(view) + " lies outside its buffer");
  draco::DecoderBuffer data;
  data.Init(reinterpret_cast<const char*>(buffer->data()) + offset, static_cast<std::size_t>(length));
  const auto kind = draco::Decoder::GetEncodedGeometryType(&data);
  if (!kind.ok() || kind.value() != draco::TRIANGULAR_MESH) return makeError("its Draco data is not a triangle mesh");
  draco::Decoder decoder;
  auto mesh = decoder.DecodeMeshFromBuffer(&data);
  if (!mesh.ok()) return makeError("its Draco data does not decode: " + mesh.status().error_msg_string());
  return std::move(mesh).value();
}

// Decodes one primitive's extension into `out`, pointing its accessors at the decoded data.
std::optional<std::string> decodePrimitive(Json& gltf, Json& primitive, BufferReader& buffers, DecodedBuffer& out) {
  auto mesh = decodeMesh(primitive["extensions"][kDracoName], gltf["bufferViews"], buffers);
  if (!mesh) return mesh.error();
  Json& accessors = gltf["accessors"];
  const auto accessorAt = [&](long long index) -> Json* {
    if (index < 0 || !accessors.is_array() || static_cast<std::size_t>(index) >= accessors.size()) return nullptr;
    Json& accessor = accessors[static_cast<std::size_t>(index)];
    return accessor.is_object() ? &accessor : nullptr;
  };
  const Json& attributes = primitive["extensions"][kDracoName]["attributes"];
  if (!attributes.is_object() || !primitive.contains("attributes") || !primitive["attributes"].is_object())
    return std::string("its Draco attributes are not an object");
  for (const auto& [name, id] : attributes.items()) {
    Json* accessor = accessorAt(indexAt(primitive["attributes"], name.c_str()));
    if (accessor == nullptr) return "Draco attribute " + name + " has no accessor among the primitive's attributes";
    if (!id.is_number_integer()) return "Draco attribute " + name + " has no integer id";
    const draco::PointAttribute* attribute = (*mesh)->GetAttributeByUniqueId(id.get<std::uint32_t>());
    if (attribute == nullptr) return "the Draco data has no attribute " + std::to_string(id.get<long long>()) + " (" + name + ")";
    const int components = componentCount(accessor->value("type", std::string()));
    const int componentType = accessor->value("componentType", 0);
    if (components == 0 || components != attribute->num_components())
      return "Draco attribute " + name + " has " + std::to_string(attribute->num_components()) +
             " components where its accessor's type has " + std::to_string(components);
    const std::size_t decodedBytes = static_cast<std::size_t>((*mesh)->num_points()) * static_cast<std::size_t>(components) *
                                     static_cast<std::size_t>(componentBytes(componentType));
    if (decodedBytes > kMaxDecodedBytes - std::min(kMaxDecodedBytes, out.bytes.size()))
      return "its decoded vertices pass " + std::to_string(kMaxDecodedBytes >> 20) + " MB";
    Bytes data;
    if (!convertAttribute(componentType, **mesh, *attribute, components, data))
      return "Draco attribute " + name + " does not convert to its accessor's component type";
    (*accessor)["bufferView"] = out.addView(gltf["bufferViews"], data);
    (*accessor)["byteOffset"] = 0;
    (*accessor)["count"] = (*mesh)->num_points();
  }
  Json* indices = accessorAt(indexAt(primitive, "indices"));
  if (indices == nullptr) {
    Json accessor = Json::object();
    accessor["componentType"] = TINYGLTF_COMPONENT_TYPE_UNSIGNED_INT;
    accessor["type"] = "SCALAR";
    accessors.push_back(std::move(accessor));
    primitive["indices"] = accessors.size() - 1;
    indices = &accessors.back();
  }
  auto faces = faceIndices(**mesh, indices->value("componentType", 0));
  if (!faces) return "indices: " + faces.error();
  (*indices)["bufferView"] = out.addView(gltf["bufferViews"], *faces);
  (*indices)["byteOffset"] = 0;
  (*indices)["count"] = static_cast<std::size_t>((*mesh)->num_faces()) * 3;
  primitive["mode"] = TINYGLTF_MODE_TRIANGLES;
  primitive["extensions"].erase(kDracoName);
  if (primitive["extensions"].empty()) primitive.erase("extensions");
  return std::nullopt;
}

void dropExtensionName(Json& gltf, const char* list) {
  if (!gltf.contains(list) || !gltf[list].is_array()) return;
  Json& names = gltf[list];
  names.erase(std::remove(names.begin(), names.end(), Json(kDracoName)), names.end());
  if (names.empty()) gltf.erase(list);
}

Bytes glbWith(const std::string& json, std::span<const std::uint8_t> bin) {
  Bytes out;
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

}  // namespace

bool mentionsDraco(std::string_view json) { return json.find(kDracoExtension) != std::string_view::npos; }

Result<std::vector<std::uint8_t>> decodeDracoPrimitives(std::span<const std::uint8_t> bytes, bool isGlb,
                                                        const std::string& baseDir) {
  const GlbChunks chunks = isGlb ? glbChunks(bytes) : GlbChunks{std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size()), {}};
  Json gltf = Json::parse(chunks.json, nullptr, false);
  if (gltf.is_discarded() || !gltf.is_object() || !gltf.contains("meshes") || !gltf["meshes"].is_array())
    return Bytes(bytes.begin(), bytes.end());
  if (!gltf.contains("buffers")) gltf["buffers"] = Json::array();
  if (!gltf.contains("bufferViews")) gltf["bufferViews"] = Json::array();
  if (!gltf["buffers"].is_array() || !gltf["bufferViews"].is_array()) return Bytes(bytes.begin(), bytes.end());
  BufferReader buffers(gltf["buffers"], chunks.bin, baseDir);
  DecodedBuffer decoded;
  int primitivesDecoded = 0;
  decoded.index = static_cast<long long>(gltf["buffers"].size());
  for (std::size_t m = 0; m < gltf["meshes"].size(); ++m) {
    Json& mesh = gltf["meshes"][m];
    if (!mesh.is_object() || !mesh.contains("primitives") || !mesh["primitives"].is_array()) continue;
    for (std::size_t p = 0; p < mesh["primitives"].size(); ++p) {
      Json& primitive = mesh["primitives"][p];
      if (!primitive.is_object() || !primitive.contains("extensions") || !primitive["extensions"].is_object() ||
          !primitive["extensions"].contains(kDracoName))
        continue;
      if (auto error = decodePrimitive(gltf, primitive, buffers, decoded))
        return makeError("mesh " + std::to_string(m) + " primitive " + std::to_string(p) + ": " + *error);
      ++primitivesDecoded;
    }
  }
  if (primitivesDecoded == 0) return Bytes(bytes.begin(), bytes.end());
  // The buffer reader refers to gltf["buffers"]: it is done before the list grows.
  Json buffer = Json::object();
  buffer["byteLength"] = decoded.bytes.size();
  buffer["uri"] = "data:application/octet-stream;base64," + base64Encoded(decoded.bytes);
  gltf["buffers"].push_back(std::move(buffer));
  dropExtensionName(gltf, "extensionsUsed");
  dropExtensionName(gltf, "extensionsRequired");
  const std::string json = gltf.dump();
  if (isGlb) return glbWith(json, chunks.bin);
  return Bytes(json.begin(), json.end());
}

}  // namespace articula
