#include "core/io/gltf_draco.h"

#include <draco/compression/decode.h>

#include <algorithm>
#include <cstring>
#include <limits>
#include <map>

#include "core/io/gltf_tinygltf.h"

namespace articula {
namespace {

const std::string kDracoName(kDracoExtension);

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

template <typename T>
bool convertAttribute(const draco::Mesh& mesh, const draco::PointAttribute& attribute, int components, GltfBytes& out) {
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
                      int components, GltfBytes& out) {
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
Result<GltfBytes> faceIndices(const draco::Mesh& mesh, int componentType) {
  const int size = componentBytes(componentType);
  if (componentType != TINYGLTF_COMPONENT_TYPE_UNSIGNED_BYTE && componentType != TINYGLTF_COMPONENT_TYPE_UNSIGNED_SHORT &&
      componentType != TINYGLTF_COMPONENT_TYPE_UNSIGNED_INT)
    return makeError("indices are not of an unsigned integer type");
  const std::uint64_t largest = size == 4 ? std::numeric_limits<std::uint32_t>::max() : (std::uint64_t{1} << (8 * size)) - 1;
  if (mesh.num_points() > 0 && static_cast<std::uint64_t>(mesh.num_points() - 1) > largest)
    return makeError(std::to_string(mesh.num_points()) + " points do not fit its " + std::to_string(8 * size) + "-bit indices");
  GltfBytes out(static_cast<std::size_t>(mesh.num_faces()) * 3 * static_cast<std::size_t>(size));
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
Result<std::unique_ptr<draco::Mesh>> decodeMesh(const GltfJson& extension, const GltfJson& bufferViews,
                                                GltfBufferReader& buffers) {
  auto bytes = buffers.view(bufferViews, gltfIndexAt(extension, "bufferView"));
  if (!bytes) return makeError("its Draco " + bytes.error());
  draco::DecoderBuffer data;
  data.Init(reinterpret_cast<const char*>(bytes->data()), bytes->size());
  const auto kind = draco::Decoder::GetEncodedGeometryType(&data);
  if (!kind.ok() || kind.value() != draco::TRIANGULAR_MESH) return makeError("its Draco data is not a triangle mesh");
  draco::Decoder decoder;
  auto mesh = decoder.DecodeMeshFromBuffer(&data);
  if (!mesh.ok()) return makeError("its Draco data does not decode: " + mesh.status().error_msg_string());
  return std::move(mesh).value();
}

// Decodes one primitive's extension into `out`, pointing its accessors at the decoded data.
std::optional<std::string> decodePrimitive(GltfJson& gltf, GltfJson& primitive, GltfBufferReader& buffers, GltfAppendedBuffer& out) {
  auto mesh = decodeMesh(primitive["extensions"][kDracoName], gltf["bufferViews"], buffers);
  if (!mesh) return mesh.error();
  GltfJson& accessors = gltf["accessors"];
  const auto accessorAt = [&](long long index) -> GltfJson* {
    if (index < 0 || !accessors.is_array() || static_cast<std::size_t>(index) >= accessors.size()) return nullptr;
    GltfJson& accessor = accessors[static_cast<std::size_t>(index)];
    return accessor.is_object() ? &accessor : nullptr;
  };
  const GltfJson& attributes = primitive["extensions"][kDracoName]["attributes"];
  if (!attributes.is_object() || !primitive.contains("attributes") || !primitive["attributes"].is_object())
    return std::string("its Draco attributes are not an object");
  for (const auto& [name, id] : attributes.items()) {
    GltfJson* accessor = accessorAt(gltfIndexAt(primitive["attributes"], name.c_str()));
    if (accessor == nullptr) return "Draco attribute " + name + " has no accessor among the primitive's attributes";
    if (!id.is_number_integer()) return "Draco attribute " + name + " has no integer id";
    const draco::PointAttribute* attribute = (*mesh)->GetAttributeByUniqueId(id.get<std::uint32_t>());
    if (attribute == nullptr) return "the Draco data has no attribute " + std::to_string(id.get<long long>()) + " (" + name + ")";
    const int components = componentCount(accessor->value("type", std::string()));
    const int componentType = accessor->value("componentType", 0);
    if (components == 0 || components != attribute->num_components())
      return "Draco attribute " + name + " has " + std::to_string(attribute->num_components()) +
             " components where its accessor's type has " + std::to_string(components);
    const std::size_t decodedGltfBytes = static_cast<std::size_t>((*mesh)->num_points()) * static_cast<std::size_t>(components) *
                                     static_cast<std::size_t>(componentBytes(componentType));
    if (decodedGltfBytes > kMaxDecodedGltfBytes - std::min(kMaxDecodedGltfBytes, out.bytes.size()))
      return "its decoded vertices pass " + std::to_string(kMaxDecodedGltfBytes >> 20) + " MB";
    GltfBytes data;
    if (!convertAttribute(componentType, **mesh, *attribute, components, data))
      return "Draco attribute " + name + " does not convert to its accessor's component type";
    (*accessor)["bufferView"] = out.addView(gltf["bufferViews"], data);
    (*accessor)["byteOffset"] = 0;
    (*accessor)["count"] = (*mesh)->num_points();
  }
  GltfJson* indices = accessorAt(gltfIndexAt(primitive, "indices"));
  if (indices == nullptr) {
    GltfJson accessor = GltfJson::object();
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

}  // namespace

Result<int> decodeDracoPrimitives(GltfJson& gltf, GltfBufferReader& buffers, GltfAppendedBuffer& out) {
  if (!gltf.contains("meshes") || !gltf["meshes"].is_array()) return 0;
  int decoded = 0;
  for (std::size_t m = 0; m < gltf["meshes"].size(); ++m) {
    GltfJson& mesh = gltf["meshes"][m];
    if (!mesh.is_object() || !mesh.contains("primitives") || !mesh["primitives"].is_array()) continue;
    for (std::size_t p = 0; p < mesh["primitives"].size(); ++p) {
      GltfJson& primitive = mesh["primitives"][p];
      if (!primitive.is_object() || !primitive.contains("extensions") || !primitive["extensions"].is_object() ||
          !primitive["extensions"].contains(kDracoName))
        continue;
      if (auto error = decodePrimitive(gltf, primitive, buffers, out))
        return makeError("mesh " + std::to_string(m) + " primitive " + std::to_string(p) + ": " + *error);
      ++decoded;
    }
  }
  return decoded;
}

}  // namespace articula
