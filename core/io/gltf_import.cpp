// Lossless glTF 2.0 import: tinygltf parses the JSON/GLB container and loads buffers; this
// file checks every index and byte range itself before reading (tinygltf does not) and maps
// the glTF data onto the Scene without resampling anything.
//
// Decisions worth knowing:
// - Node order: depth-first pre-order from the scene roots (the default scene, else the roots
//   of every scene, else every parentless node), so parents come before children. Nodes
//   outside those trees are not imported; animation channels that target them are skipped.
// - Every triangle primitive becomes its own Mesh (primitives keep their own material and
//   morph targets; merging would have to re-index both). Strips and fans are triangulated;
//   point and line primitives are skipped, because the editor draws and skins triangles only.
// - A vertex whose weights are all zero follows the skin's first joint with weight 1.
// - Morph targets keep POSITION and NORMAL deltas; TANGENT/TEXCOORD/COLOR deltas have no
//   place in Mesh and are dropped.
#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstring>
#include <exception>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <limits>
#include <new>
#include <optional>
#include <stdexcept>
#include <string_view>
#include <unordered_set>

#include "core/io/frame_rate.h"
#include "core/io/gltf_accessor.h"
#include "core/io/gltf_decompress.h"
#include "core/io/gltf_draco.h"
#include "core/io/gltf_meshopt_decode.h"
#include "core/io/gltf_export_extras.h"
#include "core/io/gltf_tinygltf.h"
#include "core/io/import.h"
#include "core/util/message_text.h"

namespace articula {

namespace {

// An error text without the file name; the entry points prefix it.
using Status = std::optional<std::string>;

constexpr std::size_t kGlbHeaderBytes = 12;
constexpr std::size_t kGlbFirstChunkOffset = kGlbHeaderBytes + 8;  // header + JSON chunk header
constexpr std::uint32_t kGlbJsonChunkType = 0x4E4F534A;            // "JSON" little-endian
constexpr std::size_t kMaxSkinJoints = std::size_t{std::numeric_limits<std::uint16_t>::max()} + 1;
// Channels may share a sampler's data, so a small file can animate the same keys thousands of
// times (CesiumMan's walk listed 2,004 times: 34 MB that became 3.9 GB, then bad_alloc). Each
// key value read costs a curve key (about 64 bytes) against a float stored: the reads are held
// to this many per value the buffers store, above a floor no ordinary file reaches.
constexpr std::size_t kReadsPerStoredValue = 8;
constexpr std::size_t kKeyValueFloor = 1'000'000;

enum class SamplerKind { Step, Linear, CubicSpline };

std::uint32_t readU32(std::span<const std::uint8_t> bytes, std::size_t offset) {
  std::uint32_t value = 0;
  std::memcpy(&value, bytes.data() + offset, sizeof(value));  // GLB is little-endian, like the hosts we build for
  return value;
}

// The GLB header and JSON chunk header, checked against the real byte count so that a
// truncated file is reported as such rather than as tinygltf's generic "Invalid glTF binary".
Status checkGlbHeader(std::span<const std::uint8_t> bytes) {
  if (bytes.size() < kGlbHeaderBytes) {
    return "truncated GLB: " + std::to_string(bytes.size()) + " bytes, shorter than the 12-byte header";
  }
  const std::uint32_t version = readU32(bytes, 4);
  if (version != 2) return "GLB container version " + std::to_string(version) + " is not supported (only 2)";
  const std::uint32_t length = readU32(bytes, 8);
  if (length > bytes.size()) {
    return "truncated GLB: the header says " + std::to_string(length) + " bytes, but the file has " +
           std::to_string(bytes.size());
  }
  if (length < kGlbFirstChunkOffset) return "GLB has no JSON chunk (total length " + std::to_string(length) + ")";
  const std::uint32_t jsonLength = readU32(bytes, 12);
  if (readU32(bytes, 16) != kGlbJsonChunkType) return "the first GLB chunk is not JSON";
  if (jsonLength > length - kGlbFirstChunkOffset) {
    return "truncated GLB: the JSON chunk of " + std::to_string(jsonLength) + " bytes runs past the end (" +
           std::to_string(length) + " bytes)";
  }
  return std::nullopt;
}

// tinygltf copies the parsed JSON into its own Value tree recursively (ParseJsonAsValue), one
// stack frame per level: extras nested 20,000 deep overflow the stack. Real files nest a few
// dozen levels; the limit leaves room for any extras a tool writes.
constexpr int kMaxJsonDepth = 512;

// Refuses JSON nested deeper than kMaxJsonDepth, counting brackets outside strings, before
// anything recursive sees it.
Status checkJsonDepth(std::string_view json) {
  int depth = 0;
  bool inString = false;
  bool escaped = false;
  for (std::size_t i = 0; i < json.size(); ++i) {
    const char c = json[i];
    if (inString) {
      if (escaped) {
        escaped = false;
      } else if (c == '\\') {
        escaped = true;
      } else if (c == '"') {
        inString = false;
      }
    } else if (c == '"') {
      inString = true;
    } else if (c == '[' || c == '{') {
      if (++depth > kMaxJsonDepth) {
        return "the JSON nests deeper than the limit of " + std::to_string(kMaxJsonDepth) + " levels (at byte " +
               std::to_string(i) + ")";
      }
    } else if (c == ']' || c == '}') {
      --depth;
    }
  }
  return std::nullopt;
}

// The JSON text of a .gltf or of a GLB's JSON chunk (whose header checkGlbHeader accepted).
std::string_view jsonText(std::span<const std::uint8_t> bytes, bool isGlb) {
  const auto* text = reinterpret_cast<const char*>(bytes.data());
  if (!isGlb) return {text, bytes.size()};
  return {text + kGlbFirstChunkOffset, readU32(bytes, 12)};
}

std::string oneLine(std::string text) {
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back()))) text.pop_back();
  std::string out;
  for (char c : text) {
    if (c == '\n') {
      out += "; ";
    } else if (c != '\r') {
      out += c;
    }
  }
  return out;
}

// tinygltf's image callback. Images stay encoded. Data-URI images arrive here already
// decoded from base64 and are kept; bufferView images are read later through
// gltfBufferViewBytes, because the pointer tinygltf passes for them was never range-checked.
bool keepEncodedImage(tinygltf::Image* image, const int /*imageIndex*/, std::string* /*err*/, std::string* /*warn*/,
                      int /*requestedWidth*/, int /*requestedHeight*/, const unsigned char* bytes, int size,
                      void* /*userData*/) {
  if (image->bufferView < 0 && bytes != nullptr && size > 0) image->image.assign(bytes, bytes + size);
  image->as_is = true;
  return true;
}

// External image uris are URI-encoded ("my%20skin.png"); Material::textureUri is a path.
std::string percentDecode(const std::string& uri) {
  auto hex = [](char c) -> int {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
  };
  std::string out;
  for (std::size_t i = 0; i < uri.size(); ++i) {
    if (uri[i] == '%' && i + 2 < uri.size() && hex(uri[i + 1]) >= 0 && hex(uri[i + 2]) >= 0) {
      out += static_cast<char>(hex(uri[i + 1]) * 16 + hex(uri[i + 2]));
      i += 2;
    } else {
      out += uri[i];
    }
  }
  return out;
}

// Required extensions this importer honours. KHR_mesh_quantization only widens the component
// types of attributes, which readGltfAccessor decodes; the KHR_materials_* extensions add
// shading on top of the metallic-roughness base colour, the only material data imported.
// (KHR_materials_pbrSpecularGlossiness replaces that base colour, so it is not honoured.)
bool isHonouredExtension(const std::string& name) {
  // Compressed primitives and views were decoded before tinygltf parsed the file (gltf_decompress.h).
  if (name == "KHR_mesh_quantization" || name == kDracoExtension || name == kMeshoptExtension) return true;
  return name.rfind("KHR_materials_", 0) == 0 && name != "KHR_materials_pbrSpecularGlossiness";
}

const char* typeName(int type) {
  switch (type) {
    case TINYGLTF_TYPE_SCALAR: return "SCALAR";
    case TINYGLTF_TYPE_VEC2: return "VEC2";
    case TINYGLTF_TYPE_VEC3: return "VEC3";
    case TINYGLTF_TYPE_VEC4: return "VEC4";
    case TINYGLTF_TYPE_MAT2: return "MAT2";
    case TINYGLTF_TYPE_MAT3: return "MAT3";
    case TINYGLTF_TYPE_MAT4: return "MAT4";
    default: return "unknown";
  }
}

bool allFinite(const std::vector<double>& values) {
  return std::all_of(values.begin(), values.end(), [](double v) { return std::isfinite(v); });
}

bool isUnsignedIntegerType(int componentType) {
  return componentType == TINYGLTF_COMPONENT_TYPE_UNSIGNED_BYTE ||
         componentType == TINYGLTF_COMPONENT_TYPE_UNSIGNED_SHORT ||
         componentType == TINYGLTF_COMPONENT_TYPE_UNSIGNED_INT;
}

// Sampler output of one channel: `width` numbers per element (3 for translation, 4 for
// rotation, the target count for weights); CUBICSPLINE stores in-tangent, value, out-tangent
// per key.
struct SamplerOutput {
  const std::vector<double>& values;
  std::size_t width = 0;
  bool cubic = false;

  double value(std::size_t key, std::size_t c) const { return values[((cubic ? 3 * key + 1 : key) * width) + c]; }
  double inTangent(std::size_t key, std::size_t c) const { return values[(3 * key) * width + c]; }
  double outTangent(std::size_t key, std::size_t c) const { return values[(3 * key + 2) * width + c]; }
};

// One scalar channel as a Curve. CUBICSPLINE keys become Bézier keys with Free handles a third
// of the segment away in time and tangent·dt/3 away in value: the Bézier's time is then linear
// in its parameter, so it traces exactly the glTF Hermite segment (tangents are per second).
// The first key's left and the last key's right handle use the neighbouring segment's length.
Curve scalarCurve(const std::vector<double>& times, const SamplerOutput& output, std::size_t component,
                  SamplerKind kind) {
  const std::size_t n = times.size();
  std::vector<CurveKey> keys(n);
  for (std::size_t k = 0; k < n; ++k) {
    CurveKey& key = keys[k];
    key.time = times[k];
    key.value = output.value(k, component);
    switch (kind) {
      case SamplerKind::Step:
        key.interpolation = Interpolation::Constant;
        break;
      case SamplerKind::Linear:
        key.interpolation = Interpolation::Linear;
        break;
      case SamplerKind::CubicSpline: {
        key.interpolation = Interpolation::Bezier;
        key.leftType = HandleType::Free;
        key.rightType = HandleType::Free;
        const double before = k > 0 ? times[k] - times[k - 1] : (n > 1 ? times[1] - times[0] : 0.0);
        const double after = k + 1 < n ? times[k + 1] - times[k] : (n > 1 ? times[k] - times[k - 1] : 0.0);
        key.left = Vec2d(key.time - before / 3.0, key.value - output.inTangent(k, component) * before / 3.0);
        key.right = Vec2d(key.time + after / 3.0, key.value + output.outTangent(k, component) * after / 3.0);
        break;
      }
    }
  }
  Curve curve;
  curve.setKeys(std::move(keys));
  return curve;
}

Quat quatFromOutput(const SamplerOutput& output, std::size_t element) {
  // glTF stores (x, y, z, w); Eigen's constructor takes (w, x, y, z).
  const auto at = [&](std::size_t c) { return static_cast<float>(output.values[element * 4 + c]); };
  return Quat(at(3), at(0), at(1), at(2));
}

class GltfConverter {
 public:
  explicit GltfConverter(const tinygltf::Model& model) : mModel(model) {}

  Status run(Scene& scene) {
    if (Status e = checkExtensions()) return e;
    if (Status e = buildSkeleton(scene)) return e;
    if (Status e = convertMaterials(scene)) return e;
    if (Status e = convertMeshes(scene)) return e;
    return convertAnimations(scene);
  }

 private:
  std::string nodeLabel(int node) const {
    const std::string& name = mModel.nodes[static_cast<std::size_t>(node)].name;
    return "node " + std::to_string(node) + (name.empty() ? std::string() : " ('" + shortName(name) + "')");
  }

  // Reads an accessor and checks its type; `usage` names its role in error messages.
  Result<GltfAccessorData> readTyped(int accessor, int type, const std::string& usage) const {
    auto data = readGltfAccessor(mModel, accessor);
    if (!data) return makeError(usage + ": " + data.error());
    if (data->type != type) {
      return makeError(usage + ": accessor " + std::to_string(accessor) + " is " + typeName(data->type) +
                       ", expected " + typeName(type));
    }
    return data;
  }

  Status checkExtensions() const {
    for (const std::string& name : mModel.extensionsRequired) {
      if (!isHonouredExtension(name)) return "requires extension " + name + ", which this importer cannot decode";
    }
    return std::nullopt;
  }

  Result<Transform> nodeTransform(int index) const {
    const tinygltf::Node& node = mModel.nodes[static_cast<std::size_t>(index)];
    const std::string label = nodeLabel(index);
    Transform t;
    if (!node.matrix.empty()) {
      if (node.matrix.size() != 16) return makeError(label + ": matrix has " + std::to_string(node.matrix.size()) + " numbers, expected 16");
      if (!allFinite(node.matrix)) return makeError(label + ": matrix is not finite");
      Mat4 m;
      for (int c = 0; c < 4; ++c) {
        for (int r = 0; r < 4; ++r) m(r, c) = static_cast<float>(node.matrix[static_cast<std::size_t>(c * 4 + r)]);
      }
      if (!m.row(3).isApprox(Eigen::RowVector4f(0, 0, 0, 1))) return makeError(label + ": matrix is not affine");
      t = Transform::fromMatrix(m);
      if (!t.isFinite()) return makeError(label + ": matrix cannot be split into translation, rotation and scale");
      return withInvertibleScale(t, label);
    }
    if ((!node.translation.empty() && node.translation.size() != 3) || (!node.scale.empty() && node.scale.size() != 3) ||
        (!node.rotation.empty() && node.rotation.size() != 4)) {
      return makeError(label + ": translation/scale need 3 numbers and rotation 4");
    }
    if (!allFinite(node.translation) || !allFinite(node.rotation) || !allFinite(node.scale)) {
      return makeError(label + ": translation, rotation or scale is not finite");
    }
    if (!node.translation.empty()) {
      t.translation = Vec3d(node.translation[0], node.translation[1], node.translation[2]).cast<float>();
    }
    if (!node.rotation.empty()) {
      const Quat q(static_cast<float>(node.rotation[3]), static_cast<float>(node.rotation[0]),
                   static_cast<float>(node.rotation[1]), static_cast<float>(node.rotation[2]));
      if (!std::isfinite(q.norm()) || q.norm() < 0.5f) return makeError(label + ": rotation is not a unit quaternion");
      t.rotation = q.normalized();
    }
    if (!node.scale.empty()) t.scale = Vec3d(node.scale[0], node.scale[1], node.scale[2]).cast<float>();
    return withInvertibleScale(t, label);
  }

  // glTF allows a zero scale (a hidden node), but a joint's rest transform must be
  // invertible (Skeleton::validate): such a file is refused by node, not imported broken. A
  // scale too small for a float counts as zero.
  static Result<Transform> withInvertibleScale(const Transform& t, const std::string& label) {
    if (t.scale.cwiseAbs().minCoeff() == 0.0f) return makeError(label + ": scale has a zero component");
    return t;
  }

  Status buildSkeleton(Scene& scene) {
    const std::size_t n = mModel.nodes.size();
    const auto count = [](std::size_t size, const char* what) { return "the file has " + std::to_string(size) + " " + what; };
    std::vector<int> parent(n, -1);
    for (std::size_t i = 0; i < n; ++i) {
      const int self = static_cast<int>(i);
      for (int child : mModel.nodes[i].children) {
        if (child < 0 || static_cast<std::size_t>(child) >= n) {
          return nodeLabel(self) + " has child " + std::to_string(child) + ", but " + count(n, "nodes");
        }
        if (child == self) return "the node hierarchy has a cycle: " + nodeLabel(self) + " is its own child";
        int& p = parent[static_cast<std::size_t>(child)];
        if (p != -1) return nodeLabel(child) + " has two parents, " + nodeLabel(p) + " and " + nodeLabel(self);
        p = self;
      }
    }
    // With one parent per node, a cycle is a parent chain that never reaches a root.
    enum : std::uint8_t { kUnknown, kOnChain, kReachesRoot };
    std::vector<std::uint8_t> state(n, kUnknown);
    for (std::size_t start = 0; start < n; ++start) {
      std::vector<int> chain;
      int v = static_cast<int>(start);
      while (v != -1 && state[static_cast<std::size_t>(v)] == kUnknown) {
        state[static_cast<std::size_t>(v)] = kOnChain;
        chain.push_back(v);
        v = parent[static_cast<std::size_t>(v)];
      }
      if (v != -1 && state[static_cast<std::size_t>(v)] == kOnChain) {
        return "the node hierarchy has a cycle through " + nodeLabel(v);
      }
      for (int c : chain) state[static_cast<std::size_t>(c)] = kReachesRoot;
    }

    std::vector<int> roots;
    if (mModel.defaultScene >= 0) {
      if (static_cast<std::size_t>(mModel.defaultScene) >= mModel.scenes.size()) {
        return "default scene " + std::to_string(mModel.defaultScene) + " does not exist (" +
               count(mModel.scenes.size(), "scenes") + ")";
      }
      roots = mModel.scenes[static_cast<std::size_t>(mModel.defaultScene)].nodes;
    } else if (!mModel.scenes.empty()) {
      for (const tinygltf::Scene& s : mModel.scenes) roots.insert(roots.end(), s.nodes.begin(), s.nodes.end());
    } else {
      for (std::size_t i = 0; i < n; ++i) {
        if (parent[i] == -1) roots.push_back(static_cast<int>(i));
      }
    }
    std::vector<bool> visited(n, false);
    std::vector<int> order;
    for (int root : roots) {
      if (root < 0 || static_cast<std::size_t>(root) >= n) {
        return "scene root " + std::to_string(root) + " does not exist (" + count(n, "nodes") + ")";
      }
      if (parent[static_cast<std::size_t>(root)] != -1) {
        return "scene root " + nodeLabel(root) + " is a child of " + nodeLabel(parent[static_cast<std::size_t>(root)]);
      }
      if (visited[static_cast<std::size_t>(root)]) continue;  // listed by two scenes
      std::vector<int> stack = {root};
      while (!stack.empty()) {
        const int v = stack.back();
        stack.pop_back();
        visited[static_cast<std::size_t>(v)] = true;
        order.push_back(v);
        const std::vector<int>& children = mModel.nodes[static_cast<std::size_t>(v)].children;
        stack.insert(stack.end(), children.rbegin(), children.rend());
      }
    }

    std::vector<bool> isJoint(n, false);
    for (std::size_t s = 0; s < mModel.skins.size(); ++s) {
      const std::vector<int>& joints = mModel.skins[s].joints;
      for (std::size_t k = 0; k < joints.size(); ++k) {
        if (joints[k] < 0 || static_cast<std::size_t>(joints[k]) >= n) {
          return "skin " + std::to_string(s) + " joint " + std::to_string(k) + " is node " + std::to_string(joints[k]) +
                 ", but " + count(n, "nodes");
        }
        isJoint[static_cast<std::size_t>(joints[k])] = true;
      }
    }

    mNodeToJoint.assign(n, -1);
    mJointToNode = order;
    std::unordered_set<std::string> usedNames;
    for (int v : order) {
      const std::string& given = mModel.nodes[static_cast<std::size_t>(v)].name;
      const std::string base = given.empty() ? "node_" + std::to_string(v) : given;
      std::string name = base;
      for (int suffix = 2; usedNames.contains(name); ++suffix) name = base + "_" + std::to_string(suffix);
      usedNames.insert(name);
      auto rest = nodeTransform(v);
      if (!rest) return rest.error();
      const int p = parent[static_cast<std::size_t>(v)];
      const int parentJoint = p == -1 ? kNoParent : mNodeToJoint[static_cast<std::size_t>(p)];
      mNodeToJoint[static_cast<std::size_t>(v)] = scene.skeleton.addJoint(
          std::move(name), parentJoint, *rest, isJoint[static_cast<std::size_t>(v)] ? NodeKind::Joint : NodeKind::Transform);
    }
    // Every other importer ends with the same check: what validate() refuses never leaves here.
    return scene.skeleton.validate();
  }

  Status convertMaterials(Scene& scene) const {
    for (std::size_t i = 0; i < mModel.materials.size(); ++i) {
      const tinygltf::Material& source = mModel.materials[i];
      const std::string where = "material " + std::to_string(i);
      Material material;
      material.name = source.name;
      const std::vector<double>& factor = source.pbrMetallicRoughness.baseColorFactor;
      if (factor.size() != 4 || !allFinite(factor)) return where + ": baseColorFactor needs 4 finite numbers";
      material.baseColor = Eigen::Vector4d(factor[0], factor[1], factor[2], factor[3]).cast<float>();
      const int texture = source.pbrMetallicRoughness.baseColorTexture.index;
      if (texture >= 0) {
        if (static_cast<std::size_t>(texture) >= mModel.textures.size()) {
          return where + ": baseColorTexture is texture " + std::to_string(texture) + ", but the file has " +
                 std::to_string(mModel.textures.size()) + " textures";
        }
        const int imageIndex = mModel.textures[static_cast<std::size_t>(texture)].source;
        if (imageIndex >= 0) {  // no source: the image comes from an extension we do not read
          if (static_cast<std::size_t>(imageIndex) >= mModel.images.size()) {
            return "texture " + std::to_string(texture) + ": source is image " + std::to_string(imageIndex) +
                   ", but the file has " + std::to_string(mModel.images.size()) + " images";
          }
          const tinygltf::Image& image = mModel.images[static_cast<std::size_t>(imageIndex)];
          material.textureMimeType = image.mimeType;
          if (image.bufferView >= 0) {
            auto bytes = gltfBufferViewBytes(mModel, image.bufferView);
            if (!bytes) return "image " + std::to_string(imageIndex) + ": " + bytes.error();
            material.textureData.assign(bytes->begin(), bytes->end());
          } else if (!image.uri.empty()) {
            material.textureUri = percentDecode(image.uri);  // tinygltf keeps uri only for external files
          } else {
            material.textureData = image.image;  // data URI, base64-decoded by tinygltf
          }
        }
      }
      scene.materials.push_back(std::move(material));
    }
    return std::nullopt;
  }

  Status convertMeshes(Scene& scene) {
    mNodeMeshes.assign(mModel.nodes.size(), {});
    for (int node : mJointToNode) {
      const tinygltf::Node& source = mModel.nodes[static_cast<std::size_t>(node)];
      if (source.mesh < 0) continue;
      if (static_cast<std::size_t>(source.mesh) >= mModel.meshes.size()) {
        return nodeLabel(node) + " refers to mesh " + std::to_string(source.mesh) + ", but the file has " +
               std::to_string(mModel.meshes.size()) + " meshes";
      }
      if (source.skin >= 0 && static_cast<std::size_t>(source.skin) >= mModel.skins.size()) {
        return nodeLabel(node) + " refers to skin " + std::to_string(source.skin) + ", but the file has " +
               std::to_string(mModel.skins.size()) + " skins";
      }
      const tinygltf::Mesh& mesh = mModel.meshes[static_cast<std::size_t>(source.mesh)];
      for (std::size_t p = 0; p < mesh.primitives.size(); ++p) {
        if (Status e = convertPrimitive(scene, node, p)) return e;
      }
    }
    return std::nullopt;
  }

  Status convertPrimitive(Scene& scene, int node, std::size_t primitiveIndex) {
    const tinygltf::Node& sourceNode = mModel.nodes[static_cast<std::size_t>(node)];
    const tinygltf::Mesh& sourceMesh = mModel.meshes[static_cast<std::size_t>(sourceNode.mesh)];
    const tinygltf::Primitive& primitive = sourceMesh.primitives[primitiveIndex];
    const std::string where = "mesh " + std::to_string(sourceNode.mesh) +
                              (sourceMesh.name.empty() ? std::string() : " ('" + shortName(sourceMesh.name) + "')") +
                              " primitive " + std::to_string(primitiveIndex);
    const int mode = primitive.mode < 0 ? TINYGLTF_MODE_TRIANGLES : primitive.mode;
    if (mode == TINYGLTF_MODE_POINTS || mode == TINYGLTF_MODE_LINE || mode == TINYGLTF_MODE_LINE_LOOP ||
        mode == TINYGLTF_MODE_LINE_STRIP) {
      return std::nullopt;  // no surface (see the file comment)
    }
    if (mode != TINYGLTF_MODE_TRIANGLES && mode != TINYGLTF_MODE_TRIANGLE_STRIP && mode != TINYGLTF_MODE_TRIANGLE_FAN) {
      return where + ": unknown mode " + std::to_string(mode);
    }
    const auto attribute = [&primitive](const std::string& name) {
      const auto it = primitive.attributes.find(name);
      return it == primitive.attributes.end() ? -1 : it->second;
    };

    Mesh mesh;
    const std::string meshName = sourceMesh.name.empty() ? "mesh_" + std::to_string(sourceNode.mesh) : sourceMesh.name;
    mesh.name = sourceMesh.primitives.size() > 1 ? meshName + "_" + std::to_string(primitiveIndex) : meshName;
    mesh.node = mNodeToJoint[static_cast<std::size_t>(node)];
    if (primitive.material >= 0 && static_cast<std::size_t>(primitive.material) >= mModel.materials.size()) {
      return where + ": material " + std::to_string(primitive.material) + " does not exist (the file has " +
             std::to_string(mModel.materials.size()) + " materials)";
    }
    mesh.material = primitive.material;

    if (attribute("POSITION") < 0) return where + ": has no POSITION attribute";
    auto positions = readTyped(attribute("POSITION"), TINYGLTF_TYPE_VEC3, where + " POSITION");
    if (!positions) return positions.error();
    const std::size_t vertexCount = positions->count;
    if (vertexCount > std::numeric_limits<std::uint32_t>::max()) return where + ": too many vertices";
    mesh.positions.resize(vertexCount);
    for (std::size_t v = 0; v < vertexCount; ++v) {
      mesh.positions[v] = Vec3d(positions->at(v, 0), positions->at(v, 1), positions->at(v, 2)).cast<float>();
    }
    const auto readPerVertex = [&](const char* name, int type) -> Result<GltfAccessorData> {
      auto data = readTyped(attribute(name), type, where + " " + name);
      if (data && data->count != vertexCount) {
        return makeError(where + " " + name + ": " + std::to_string(data->count) + " elements for " +
                         std::to_string(vertexCount) + " vertices");
      }
      return data;
    };
    if (attribute("NORMAL") >= 0) {
      auto normals = readPerVertex("NORMAL", TINYGLTF_TYPE_VEC3);
      if (!normals) return normals.error();
      mesh.normals.resize(vertexCount);
      for (std::size_t v = 0; v < vertexCount; ++v) {
        mesh.normals[v] = Vec3d(normals->at(v, 0), normals->at(v, 1), normals->at(v, 2)).cast<float>();
      }
    }
    if (attribute("TEXCOORD_0") >= 0) {
      auto uvs = readPerVertex("TEXCOORD_0", TINYGLTF_TYPE_VEC2);
      if (!uvs) return uvs.error();
      mesh.texCoords.resize(vertexCount);
      for (std::size_t v = 0; v < vertexCount; ++v) mesh.texCoords[v] = Vec2d(uvs->at(v, 0), uvs->at(v, 1)).cast<float>();
    }

    std::vector<std::uint32_t> indices;
    if (primitive.indices >= 0) {
      auto data = readTyped(primitive.indices, TINYGLTF_TYPE_SCALAR, where + " indices");
      if (!data) return data.error();
      if (!isUnsignedIntegerType(data->componentType) || data->normalized) {
        return where + " indices: accessor " + std::to_string(primitive.indices) + " is not of an unsigned integer type";
      }
      indices.resize(data->count);
      for (std::size_t k = 0; k < data->count; ++k) {
        if (data->values[k] >= static_cast<double>(vertexCount)) {
          return where + " indices: index " + std::to_string(static_cast<std::uint64_t>(data->values[k])) + " at " +
                 std::to_string(k) + " is out of range (" + std::to_string(vertexCount) + " vertices)";
        }
        indices[k] = static_cast<std::uint32_t>(data->values[k]);
      }
    } else {
      indices.resize(vertexCount);
      for (std::size_t v = 0; v < vertexCount; ++v) indices[v] = static_cast<std::uint32_t>(v);
    }
    // Triangle lists as they are; strips and fans with the glTF 2.0 vertex order of triangle i.
    if (mode == TINYGLTF_MODE_TRIANGLES) {
      if (indices.size() % 3 != 0) return where + ": " + std::to_string(indices.size()) + " indices, not whole triangles";
      mesh.indices = std::move(indices);
    } else {
      for (std::size_t i = 0; i + 2 < indices.size(); ++i) {
        if (mode == TINYGLTF_MODE_TRIANGLE_STRIP) {
          mesh.indices.insert(mesh.indices.end(),
                              {indices[i], indices[i + 1 + i % 2], indices[i + 2 - i % 2]});
        } else {
          mesh.indices.insert(mesh.indices.end(), {indices[i + 1], indices[i + 2], indices[0]});
        }
      }
    }

    if (sourceNode.skin >= 0) {
      mesh.hasSkin = true;
      if (Status e = convertSkin(primitive, sourceNode.skin, vertexCount, where, mesh.skin)) return e;
    }
    if (Status e = convertMorphTargets(sourceNode, sourceMesh, primitive, vertexCount, where, mesh)) return e;

    mNodeMeshes[static_cast<std::size_t>(node)].push_back(static_cast<int>(scene.meshes.size()));
    scene.meshes.push_back(std::move(mesh));
    return std::nullopt;
  }

  Status convertSkin(const tinygltf::Primitive& primitive, int skinIndex, std::size_t vertexCount,
                     const std::string& where, Skin& skin) const {
    const tinygltf::Skin& source = mModel.skins[static_cast<std::size_t>(skinIndex)];
    const std::string self = "skin " + std::to_string(skinIndex);
    skin.name = source.name;
    if (source.joints.empty()) return self + " has no joints";
    if (source.joints.size() > kMaxSkinJoints) return self + " has more than 65536 joints";
    const std::size_t jointCount = source.joints.size();
    for (std::size_t k = 0; k < jointCount; ++k) {
      const int joint = mNodeToJoint[static_cast<std::size_t>(source.joints[k])];
      if (joint < 0) return self + " joint " + std::to_string(k) + " is " + nodeLabel(source.joints[k]) + ", which is not in the imported scene";
      skin.joints.push_back(joint);
    }
    skin.inverseBindMatrices.assign(jointCount, Mat4::Identity());
    if (source.inverseBindMatrices >= 0) {
      auto matrices = readTyped(source.inverseBindMatrices, TINYGLTF_TYPE_MAT4, self + " inverseBindMatrices");
      if (!matrices) return matrices.error();
      if (matrices->count < jointCount) {
        return self + " inverseBindMatrices: " + std::to_string(matrices->count) + " matrices for " +
               std::to_string(jointCount) + " joints";
      }
      for (std::size_t k = 0; k < jointCount; ++k) {
        for (int c = 0; c < 4; ++c) {
          for (int r = 0; r < 4; ++r) skin.inverseBindMatrices[k](r, c) = static_cast<float>(matrices->at(k, c * 4 + r));
        }
      }
    }

    const auto has = [&primitive](const std::string& name) { return primitive.attributes.contains(name); };
    std::size_t sets = 0;
    while (has("JOINTS_" + std::to_string(sets)) || has("WEIGHTS_" + std::to_string(sets))) {
      if (!has("JOINTS_" + std::to_string(sets)) || !has("WEIGHTS_" + std::to_string(sets))) {
        return where + ": JOINTS_" + std::to_string(sets) + " and WEIGHTS_" + std::to_string(sets) + " must come together";
      }
      ++sets;
    }
    for (const auto& entry : primitive.attributes) {
      const std::string& name = entry.first;
      for (const char* prefix : {"JOINTS_", "WEIGHTS_"}) {
        if (name.rfind(prefix, 0) == 0) {
          const std::string digits = name.substr(std::strlen(prefix));
          const bool numbered = !digits.empty() && std::all_of(digits.begin(), digits.end(), [](char c) { return c >= '0' && c <= '9'; });
          if (!numbered || digits.size() > 6 || std::stoul(digits) >= sets) {
            return where + ": " + name + " is not part of a JOINTS_n/WEIGHTS_n sequence numbered from 0";
          }
        }
      }
    }
    if (sets == 0) return where + " is skinned by " + self + " but has no JOINTS_0/WEIGHTS_0";

    const std::size_t perVertex = 4 * sets;
    skin.influencesPerVertex = static_cast<int>(perVertex);
    std::vector<double> jointSlots(vertexCount * perVertex, 0.0);
    skin.vertexWeights.assign(vertexCount * perVertex, 0.0f);
    for (std::size_t s = 0; s < sets; ++s) {
      const std::string jointsName = "JOINTS_" + std::to_string(s);
      const std::string weightsName = "WEIGHTS_" + std::to_string(s);
      auto joints = readTyped(primitive.attributes.at(jointsName), TINYGLTF_TYPE_VEC4, where + " " + jointsName);
      if (!joints) return joints.error();
      if (joints->componentType != TINYGLTF_COMPONENT_TYPE_UNSIGNED_BYTE &&
          joints->componentType != TINYGLTF_COMPONENT_TYPE_UNSIGNED_SHORT) {
        return where + " " + jointsName + ": joint indices must be unsigned bytes or shorts";
      }
      auto weights = readTyped(primitive.attributes.at(weightsName), TINYGLTF_TYPE_VEC4, where + " " + weightsName);
      if (!weights) return weights.error();
      if (weights->componentType != TINYGLTF_COMPONENT_TYPE_FLOAT && !weights->normalized) {
        return where + " " + weightsName + ": weights must be floats or normalized unsigned bytes/shorts";
      }
      if (joints->count != vertexCount || weights->count != vertexCount) {
        return where + ": " + jointsName + "/" + weightsName + " have " + std::to_string(joints->count) + "/" +
               std::to_string(weights->count) + " elements for " + std::to_string(vertexCount) + " vertices";
      }
      for (std::size_t v = 0; v < vertexCount; ++v) {
        for (std::size_t c = 0; c < 4; ++c) {
          jointSlots[v * perVertex + 4 * s + c] = joints->at(v, static_cast<int>(c));
          skin.vertexWeights[v * perVertex + 4 * s + c] = static_cast<float>(weights->at(v, static_cast<int>(c)));
        }
      }
    }

    skin.vertexJoints.assign(vertexCount * perVertex, 0);
    for (std::size_t v = 0; v < vertexCount; ++v) {
      float sum = 0.0f;
      for (std::size_t k = v * perVertex; k < (v + 1) * perVertex; ++k) {
        const float w = skin.vertexWeights[k];
        if (w < 0.0f) return where + ": vertex " + std::to_string(v) + " has a negative weight";
        if (w == 0.0f) continue;  // unused slot: joint 0 (Skin's convention), whatever the file says
        if (jointSlots[k] >= static_cast<double>(jointCount)) {
          return where + ": vertex " + std::to_string(v) + " uses joint " +
                 std::to_string(static_cast<std::uint64_t>(jointSlots[k])) + ", but " + self + " has " +
                 std::to_string(jointCount) + " joints";
        }
        skin.vertexJoints[k] = static_cast<std::uint16_t>(jointSlots[k]);
        sum += w;
      }
      if (sum > 0.0f) {
        for (std::size_t k = v * perVertex; k < (v + 1) * perVertex; ++k) skin.vertexWeights[k] /= sum;
      } else {
        skin.vertexWeights[v * perVertex] = 1.0f;  // no influence at all: follow the first skin joint
      }
    }
    return std::nullopt;
  }

  Status convertMorphTargets(const tinygltf::Node& node, const tinygltf::Mesh& sourceMesh,
                             const tinygltf::Primitive& primitive, std::size_t vertexCount, const std::string& where,
                             Mesh& mesh) const {
    if (primitive.targets.empty()) return std::nullopt;
    // Target names are not part of glTF; exporters agree on mesh.extras.targetNames.
    std::vector<std::string> names;
    if (sourceMesh.extras.IsObject() && sourceMesh.extras.Has("targetNames")) {
      const tinygltf::Value& list = sourceMesh.extras.Get("targetNames");
      if (list.IsArray()) {
        for (std::size_t k = 0; k < list.ArrayLen(); ++k) {
          const tinygltf::Value& name = list.Get(static_cast<int>(k));
          names.push_back(name.IsString() ? name.Get<std::string>() : std::string());
        }
      }
    }
    for (std::size_t t = 0; t < primitive.targets.size(); ++t) {
      MorphTarget target;
      target.name = t < names.size() && !names[t].empty() ? names[t] : "target_" + std::to_string(t);
      const std::string self = where + " morph target " + std::to_string(t);
      for (const auto& [attributeName, accessor] : primitive.targets[t]) {
        if (attributeName != "POSITION" && attributeName != "NORMAL") continue;  // no such stream in Mesh
        auto deltas = readTyped(accessor, TINYGLTF_TYPE_VEC3, self + " " + attributeName);
        if (!deltas) return deltas.error();
        if (deltas->count != vertexCount) {
          return self + " " + attributeName + ": " + std::to_string(deltas->count) + " elements for " +
                 std::to_string(vertexCount) + " vertices";
        }
        std::vector<Vec3>& out = attributeName == "POSITION" ? target.positionDeltas : target.normalDeltas;
        out.resize(vertexCount);
        for (std::size_t v = 0; v < vertexCount; ++v) {
          out[v] = Vec3d(deltas->at(v, 0), deltas->at(v, 1), deltas->at(v, 2)).cast<float>();
        }
      }
      if (target.positionDeltas.empty()) target.positionDeltas.assign(vertexCount, Vec3::Zero());
      mesh.morphTargets.push_back(std::move(target));
    }
    // The node's weights override the mesh's for this instance; absent, they are zero.
    const std::vector<double>& weights = node.weights.empty() ? sourceMesh.weights : node.weights;
    if (weights.empty()) {
      mesh.morphWeights.assign(primitive.targets.size(), 0.0f);
    } else {
      if (weights.size() != primitive.targets.size() || !allFinite(weights)) {
        return where + ": " + std::to_string(weights.size()) + " default morph weights for " +
               std::to_string(primitive.targets.size()) + " targets";
      }
      for (double w : weights) mesh.morphWeights.push_back(static_cast<float>(w));
    }
    return std::nullopt;
  }

  Status convertAnimations(Scene& scene) {
    for (std::size_t a = 0; a < mModel.animations.size(); ++a) {
      const tinygltf::Animation& animation = mModel.animations[a];
      Clip clip;
      clip.name = animation.name.empty() ? "animation_" + std::to_string(a) : animation.name;
      // Channels may target the nodes in any order and several per node: found by index.
      ClipTrackIndex tracks(clip.tracks);
      std::vector<double> allTimes;
      for (std::size_t c = 0; c < animation.channels.size(); ++c) {
        const tinygltf::AnimationChannel& channel = animation.channels[c];
        const std::string where = "animation " + std::to_string(a) +
                                  (animation.name.empty() ? std::string() : " ('" + shortName(animation.name) + "')") +
                                  " channel " + std::to_string(c);
        if (channel.sampler < 0 || static_cast<std::size_t>(channel.sampler) >= animation.samplers.size()) {
          return where + ": sampler " + std::to_string(channel.sampler) + " does not exist (the animation has " +
                 std::to_string(animation.samplers.size()) + " samplers)";
        }
        if (channel.target_node < 0) continue;  // target defined by an extension (e.g. KHR_animation_pointer)
        if (static_cast<std::size_t>(channel.target_node) >= mModel.nodes.size()) {
          return where + ": target node " + std::to_string(channel.target_node) + " does not exist (the file has " +
                 std::to_string(mModel.nodes.size()) + " nodes)";
        }
        const int joint = mNodeToJoint[static_cast<std::size_t>(channel.target_node)];
        if (joint < 0) continue;  // node outside the imported scene
        const std::string& path = channel.target_path;
        if (path != "translation" && path != "rotation" && path != "scale" && path != "weights") continue;

        const tinygltf::AnimationSampler& sampler = animation.samplers[static_cast<std::size_t>(channel.sampler)];
        SamplerKind kind = SamplerKind::Linear;
        if (sampler.interpolation == "STEP") {
          kind = SamplerKind::Step;
        } else if (sampler.interpolation == "CUBICSPLINE") {
          kind = SamplerKind::CubicSpline;
        } else if (sampler.interpolation != "LINEAR") {
          return where + ": unknown interpolation '" + sampler.interpolation + "'";
        }

        std::size_t width = path == "rotation" ? 4 : 3;
        int outputType = path == "rotation" ? TINYGLTF_TYPE_VEC4 : TINYGLTF_TYPE_VEC3;
        const std::vector<int>* morphMeshes = nullptr;
        if (path == "weights") {
          morphMeshes = &mNodeMeshes[static_cast<std::size_t>(channel.target_node)];
          if (morphMeshes->empty() || scene.meshes[static_cast<std::size_t>(morphMeshes->front())].morphTargets.empty()) {
            continue;  // nothing to drive: the node has no (triangle) mesh with morph targets
          }
          width = scene.meshes[static_cast<std::size_t>(morphMeshes->front())].morphTargets.size();
          outputType = TINYGLTF_TYPE_SCALAR;
        }

        auto input = readTyped(sampler.input, TINYGLTF_TYPE_SCALAR, where + " input");
        if (!input) return input.error();
        const std::vector<double>& times = input->values;
        for (std::size_t k = 1; k < times.size(); ++k) {
          if (!(times[k] > times[k - 1])) {
            return where + ": key times are not increasing at key " + std::to_string(k) + " (" +
                   std::to_string(times[k - 1]) + " then " + std::to_string(times[k]) + ")";
          }
        }
        auto output = readTyped(sampler.output, outputType, where + " output");
        if (!output) return output.error();
        if (Status e = countKeyValues(output->values.size())) return where + ": " + *e;
        const bool cubic = kind == SamplerKind::CubicSpline;
        const std::size_t expected = times.size() * width * (cubic ? 3 : 1);
        if (output->values.size() != expected) {
          return where + ": output has " + std::to_string(output->values.size()) + " numbers, expected " +
                 std::to_string(expected) + " (" + std::to_string(times.size()) + " keys of " + std::to_string(width) +
                 (cubic ? ", times 3 for CUBICSPLINE)" : ")");
        }
        const SamplerOutput values{output->values, width, cubic};

        if (path == "translation" || path == "scale") {
          Vec3Track track{scalarCurve(times, values, 0, kind), scalarCurve(times, values, 1, kind),
                          scalarCurve(times, values, 2, kind)};
          (path == "translation" ? tracks.trackFor(joint).translation : tracks.trackFor(joint).scale) = std::move(track);
        } else if (path == "rotation") {
          auto track = rotationTrack(times, values, kind, where);
          if (!track) return track.error();
          tracks.trackFor(joint).rotation = std::move(*track);
        } else {
          // All primitives of a glTF mesh share the node's weights, so each of its Meshes gets them.
          for (int meshIndex : *morphMeshes) {
            if (scene.meshes[static_cast<std::size_t>(meshIndex)].morphTargets.size() != width) {
              return where + ": the primitives of " + nodeLabel(channel.target_node) +
                     "'s mesh have different morph target counts";
            }
            MorphWeightsTrack track;
            track.mesh = meshIndex;
            for (std::size_t t = 0; t < width; ++t) track.weights.push_back(scalarCurve(times, values, t, kind));
            clip.morphWeights.push_back(std::move(track));
          }
        }
        allTimes.insert(allTimes.end(), times.begin(), times.end());
      }
      if (!allTimes.empty()) {
        // A glTF animation's timeline starts at 0 (viewers hold the first key until it), so
        // the clip does too; key times are kept as authored, never shifted.
        clip.startTime = std::min(0.0, *std::min_element(allTimes.begin(), allTimes.end()));
        clip.endTime = *std::max_element(allTimes.begin(), allTimes.end());
      }
      clip.frameRate = inferFrameRate(std::move(allTimes));
      if (Status e = readClipExtras(animation, a, clip)) return e;
      scene.clips.push_back(std::move(clip));
    }
    return std::nullopt;
  }

  // Clip data only Articula's exporter writes, in the animation's extras (frame rate, time
  // range, named curves such as stride curves; format in gltf_export_extras.h). Files from
  // other tools have no such extras and keep what their keys say.
  static Status readClipExtras(const tinygltf::Animation& animation, std::size_t index, Clip& clip) {
    if (auto error = readArticulaExtras(animation.extras, clip)) {
      return "animation " + std::to_string(index) + " ('" + shortName(clip.name) + "'): " + *error;
    }
    return std::nullopt;
  }

  // STEP and LINEAR keys are normalised (slerp needs unit quaternions; normalized-integer
  // outputs are only approximately unit). CUBICSPLINE values and tangents stay as authored:
  // glTF runs the Hermite on the raw components and normalises only the result.
  static Result<RotationTrack> rotationTrack(const std::vector<double>& times, const SamplerOutput& output,
                                             SamplerKind kind, const std::string& where) {
    std::vector<RotationKey> keys(times.size());
    for (std::size_t k = 0; k < times.size(); ++k) {
      RotationKey& key = keys[k];
      key.time = times[k];
      key.value = quatFromOutput(output, output.cubic ? 3 * k + 1 : k);
      // NaN passes a plain `norm < 0.5` test and components near float's limit give an
      // infinite norm that normalises to zero: both would reach the clip as a zero rotation.
      const float norm = key.value.norm();
      if (!std::isfinite(norm) || norm < 0.5f) {
        return makeError(where + ": key " + std::to_string(k) + " is not a finite unit quaternion");
      }
      switch (kind) {
        case SamplerKind::Step:
          key.interpolation = RotationInterpolation::Step;
          key.value.normalize();
          break;
        case SamplerKind::Linear:
          key.interpolation = RotationInterpolation::Slerp;
          key.value.normalize();
          break;
        case SamplerKind::CubicSpline:
          key.interpolation = RotationInterpolation::CubicSpline;
          key.inControl = quatFromOutput(output, 3 * k);
          key.outControl = quatFromOutput(output, 3 * k + 2);
          if (!key.inControl.coeffs().allFinite() || !key.outControl.coeffs().allFinite()) {
            return makeError(where + ": key " + std::to_string(k) + " has a non-finite tangent");
          }
          break;
      }
    }
    RotationTrack track;
    track.setKeys(std::move(keys));
    return track;
  }

  // Key values read by every channel so far, against what the file's buffers can store.
  Status countKeyValues(std::size_t values) {
    mKeyValuesRead += values;
    if (mKeyValueBudget == 0) {
      std::size_t bufferBytes = 0;
      for (const tinygltf::Buffer& buffer : mModel.buffers) bufferBytes += buffer.data.size();
      mKeyValueBudget = kKeyValueFloor + kReadsPerStoredValue * (bufferBytes / sizeof(float));
    }
    if (mKeyValuesRead <= mKeyValueBudget) return std::nullopt;
    return "the animations read the same keys over and over: more than " + std::to_string(mKeyValueBudget) +
           " key values, " + std::to_string(kReadsPerStoredValue) +
           " times what the buffers store, the most a file may";
  }

  const tinygltf::Model& mModel;
  std::size_t mKeyValuesRead = 0;
  std::size_t mKeyValueBudget = 0;
  std::vector<int> mNodeToJoint;               // glTF node → skeleton index, -1 when not imported
  std::vector<int> mJointToNode;               // skeleton index → glTF node
  std::vector<std::vector<int>> mNodeMeshes;   // glTF node → indices into Scene::meshes
};

Result<Scene> importParsed(std::span<const std::uint8_t> bytes, const std::string& baseDir, const std::string& name) {
  if (bytes.empty()) return makeError(name + ": the file is empty");
  if (bytes.size() > std::numeric_limits<unsigned int>::max()) return makeError(name + ": larger than 4 GiB");

  tinygltf::TinyGLTF loader;
  loader.SetImageLoader(&keepEncodedImage, nullptr);
  tinygltf::Model model;
  std::string err;
  std::string warn;
  bool loaded = false;
  const bool isGlb = bytes.size() >= 4 && std::memcmp(bytes.data(), "glTF", 4) == 0;
  if (isGlb) {
    if (Status e = checkGlbHeader(bytes)) return makeError(name + ": " + *e);
  }
  std::string_view json = jsonText(bytes, isGlb);
  if (Status e = checkJsonDepth(json)) return makeError(name + ": " + *e);
  // Compressed primitives and buffer views are decoded first, into a plain file read as any other.
  std::vector<std::uint8_t> decoded;
  if (mentionsCompression(json)) {
    auto plain = decompressGltf(bytes, isGlb, baseDir);
    if (!plain) return makeError(name + ": " + plain.error());
    decoded = std::move(*plain);
    bytes = decoded;
    json = jsonText(bytes, isGlb);
  }
  if (isGlb) {
    loaded = loader.LoadBinaryFromMemory(&model, &err, &warn, bytes.data(), readU32(bytes, 8), baseDir);
  } else {
    loaded = loader.LoadASCIIFromString(&model, &err, &warn, reinterpret_cast<const char*>(bytes.data()),
                                        static_cast<unsigned int>(bytes.size()), baseDir);
  }
  if (!loaded) {
    err = oneLine(err);
    // tinygltf returns the JSON parser's exception text unchanged: importErrorLine says it in
    // our words.
    return makeError(name + ": " + (err.empty() ? std::string("not a readable glTF file") : err));
  }

  Scene scene;
  scene.sourcePath = name;
  GltfConverter converter(model);
  if (Status e = converter.run(scene)) return makeError(name + ": " + *e);
  return scene;
}

}  // namespace

Result<Scene> importGltfFromMemory(std::span<const std::uint8_t> bytes, const std::string& baseDir,
                                   const std::string& nameForMessages) {
  // tinygltf and the allocations sized by the file may throw (std::out_of_range inside
  // tinygltf on some malformed buffers, std::bad_alloc); none of that may escape core/.
  try {
    Result<Scene> scene = importParsed(bytes, baseDir, nameForMessages);
    if (scene) return scene;
    // tinygltf quotes what it could not read (a whole data URI, a JSON parser's report): the
    // reason is cut to one line under kMaxImportErrorLength characters.
    const std::string prefix = nameForMessages + ": ";
    const std::string_view reason =
        std::string_view(scene.error()).substr(scene.error().rfind(prefix, 0) == 0 ? prefix.size() : 0);
    return makeError(importErrorLine(nameForMessages, reason));
  } catch (const std::bad_alloc&) {
    return makeError(importErrorLine(nameForMessages, "too large: reading it needs more memory than is available"));
  } catch (const std::out_of_range&) {
    // tinygltf's own range checks (vector::at after a byteLength that lies) speak of its code.
    return makeError(importErrorLine(nameForMessages,
                                     "cannot be imported: an index or a byte range points past the "
                                     "data the file holds"));
  } catch (const std::exception& e) {
    return makeError(importErrorLine(nameForMessages, std::string("cannot be imported: ") + e.what()));
  }
}

Result<Scene> importGltf(const std::string& path) {
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) return makeError(path + ": the file does not exist");
  if (std::filesystem::is_directory(path, ec)) return makeError(path + ": is a folder, not a file");
  std::ifstream in(path, std::ios::binary);
  if (!in) return makeError(path + ": cannot be opened");
  std::vector<std::uint8_t> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (in.bad()) return makeError(path + ": read error");
  return importGltfFromMemory(bytes, std::filesystem::path(path).parent_path().string(), path);
}

}  // namespace articula
