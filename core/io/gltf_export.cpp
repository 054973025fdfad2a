// glTF 2.0 export. The JSON is written with nlohmann::json, one object per glTF entity; key
// data never becomes JSON: each accessor's floats are appended to one binary buffer with a
// single copy, so a long baked clip costs what its bytes cost. What is written and how each
// interpolation maps onto glTF samplers is documented in gltf_export.h.
#include "core/io/gltf_export.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <nlohmann/json.hpp>
#include <numeric>
#include <span>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "core/io/atomic_file.h"
#include "core/io/gltf_export_checks.h"
#include "core/io/gltf_export_channels.h"
#include "core/io/gltf_export_extras.h"
#include "core/io/gltf_meshopt.h"
#include "core/skeleton/local_to_model.h"

namespace articula {
namespace {

namespace fs = std::filesystem;
using Json = nlohmann::ordered_json;
using Status = std::optional<std::string>;

// glTF enums (componentType and bufferView target).
constexpr int kUnsignedByte = 5121;
constexpr int kShort = 5122;
constexpr int kUnsignedShort = 5123;
constexpr int kUnsignedInt = 5125;
constexpr int kFloat = 5126;
constexpr int kArrayBuffer = 34962;
constexpr int kElementArrayBuffer = 34963;

constexpr std::uint32_t kGlbMagic = 0x46546C67;      // "glTF"
constexpr std::uint32_t kGlbJsonChunk = 0x4E4F534A;  // "JSON"
constexpr std::uint32_t kGlbBinChunk = 0x004E4942;   // "BIN\0"

static_assert(sizeof(Vec3) == 3 * sizeof(float) && sizeof(Vec2) == 2 * sizeof(float),
              "vertex streams are copied to the buffer as packed floats");
static_assert(sizeof(Mat4) == 16 * sizeof(float) && !(Mat4::Flags & Eigen::RowMajorBit),
              "inverse bind matrices are copied as column-major floats, glTF's layout");

// ---- checks before anything is written ----

bool allFinite(std::span<const Vec3> values) {
  return std::all_of(values.begin(), values.end(), [](const Vec3& v) { return v.allFinite(); });
}

Status checkMesh(const Scene& scene, std::size_t index) {
  const Mesh& mesh = scene.meshes[index];
  const std::string where = "mesh " + std::to_string(index) + (mesh.name.empty() ? "" : " ('" + mesh.name + "')");
  const std::size_t n = mesh.vertexCount();
  if (mesh.node < -1 || mesh.node >= scene.skeleton.jointCount()) return where + ": node " + std::to_string(mesh.node) + " does not exist";
  if (mesh.material < -1 || mesh.material >= static_cast<int>(scene.materials.size())) {
    return where + ": material " + std::to_string(mesh.material) + " does not exist";
  }
  if (!allFinite(mesh.positions)) return where + ": a position is not finite";
  if (!mesh.normals.empty() && (mesh.normals.size() != n || !allFinite(mesh.normals))) {
    return where + ": " + std::to_string(mesh.normals.size()) + " normals (or a non-finite one) for " + std::to_string(n) + " vertices";
  }
  if (!mesh.texCoords.empty() && mesh.texCoords.size() != n) {
    return where + ": " + std::to_string(mesh.texCoords.size()) + " texture coordinates for " + std::to_string(n) + " vertices";
  }
  if (mesh.indices.size() % 3 != 0) return where + ": " + std::to_string(mesh.indices.size()) + " indices, not whole triangles";
  for (std::size_t k = 0; k < mesh.indices.size(); ++k) {
    if (mesh.indices[k] >= n) return where + ": index " + std::to_string(mesh.indices[k]) + " at " + std::to_string(k) + " is out of range";
  }
  for (std::size_t t = 0; t < mesh.morphTargets.size(); ++t) {
    const MorphTarget& target = mesh.morphTargets[t];
    if (target.positionDeltas.size() != n || (!target.normalDeltas.empty() && target.normalDeltas.size() != n) ||
        !allFinite(target.positionDeltas) || !allFinite(target.normalDeltas)) {
      return where + ": morph target " + std::to_string(t) + " does not have one finite delta per vertex";
    }
  }
  if (!mesh.morphWeights.empty() && mesh.morphWeights.size() != mesh.morphTargets.size()) {
    return where + ": " + std::to_string(mesh.morphWeights.size()) + " default morph weights for " +
           std::to_string(mesh.morphTargets.size()) + " targets";
  }
  if (!mesh.hasSkin) return std::nullopt;
  const Skin& skin = mesh.skin;
  if (skin.joints.empty()) return where + ": the skin has no joints";
  if (skin.joints.size() > 65536) return where + ": the skin has more than 65536 joints";
  for (int joint : skin.joints) {
    if (joint < 0 || joint >= scene.skeleton.jointCount()) return where + ": skin joint " + std::to_string(joint) + " does not exist";
  }
  if (skin.inverseBindMatrices.size() != skin.joints.size()) {
    return where + ": " + std::to_string(skin.inverseBindMatrices.size()) + " inverse bind matrices for " +
           std::to_string(skin.joints.size()) + " joints";
  }
  for (const Mat4& m : skin.inverseBindMatrices) {
    if (!m.allFinite()) return where + ": an inverse bind matrix is not finite";
  }
  const std::size_t slots = n * static_cast<std::size_t>(std::max(skin.influencesPerVertex, 0));
  if (skin.influencesPerVertex <= 0 || skin.vertexJoints.size() != slots || skin.vertexWeights.size() != slots) {
    return where + ": the skin does not have influencesPerVertex joints and weights per vertex";
  }
  for (std::size_t k = 0; k < slots; ++k) {
    if (skin.vertexJoints[k] >= skin.joints.size()) return where + ": vertex " + std::to_string(k / static_cast<std::size_t>(skin.influencesPerVertex)) + " uses a joint the skin does not have";
    if (!(skin.vertexWeights[k] >= 0.0f) || !std::isfinite(skin.vertexWeights[k])) {
      return where + ": vertex " + std::to_string(k / static_cast<std::size_t>(skin.influencesPerVertex)) + " has a negative or non-finite weight";
    }
  }
  return std::nullopt;
}

Status checkScene(const Scene& scene) {
  if (auto error = scene.skeleton.validate()) return *error;
  for (std::size_t m = 0; m < scene.meshes.size(); ++m) {
    if (Status error = checkMesh(scene, m)) return error;
  }
  for (const Clip& clip : scene.clips) {
    const std::string where = "clip '" + clip.name + "'";
    if (auto error = clip.validate(scene.skeleton.jointCount())) return *error;  // names the clip itself
    std::vector<bool> animated(scene.meshes.size(), false);
    for (const MorphWeightsTrack& track : clip.morphWeights) {
      if (track.mesh < 0 || track.mesh >= static_cast<int>(scene.meshes.size())) {
        return where + ": morph weights for mesh " + std::to_string(track.mesh) + ", which does not exist";
      }
      const Mesh& mesh = scene.meshes[static_cast<std::size_t>(track.mesh)];
      if (track.weights.size() != mesh.morphTargets.size()) {
        return where + ": " + std::to_string(track.weights.size()) + " morph weight curves for mesh " +
               std::to_string(track.mesh) + ", which has " + std::to_string(mesh.morphTargets.size()) + " targets";
      }
      if (animated[static_cast<std::size_t>(track.mesh)]) return where + ": two morph weight tracks for mesh " + std::to_string(track.mesh);
      animated[static_cast<std::size_t>(track.mesh)] = true;
    }
  }
  return std::nullopt;
}

// ---- the document being built ----

std::string percentEncode(std::string_view text) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string out;
  for (unsigned char c : text) {
    if (std::isalnum(c) || c == '-' || c == '_' || c == '.' || c == '~') {
      out += static_cast<char>(c);
    } else {
      out += '%';
      out += kHex[c >> 4];
      out += kHex[c & 15];
    }
  }
  return out;
}

// Whether the chunks of a PNG (after its 8-byte signature) run whole up to IEND: each is a
// big-endian length, a type, that many bytes and a CRC. The Khronos validator rejects a cut
// or damaged stream (IMAGE_UNEXPECTED_EOS) that a file's image once was.
bool pngChunksComplete(std::span<const std::uint8_t> bytes) {
  constexpr std::size_t kChunkOverhead = 12;  // length, type and CRC
  for (std::size_t at = 8; at + kChunkOverhead <= bytes.size();) {
    const std::size_t length = (std::size_t{bytes[at]} << 24) | (std::size_t{bytes[at + 1]} << 16) |
                               (std::size_t{bytes[at + 2]} << 8) | std::size_t{bytes[at + 3]};
    if (length > bytes.size() - at - kChunkOverhead) return false;
    if (std::equal(bytes.begin() + static_cast<std::ptrdiff_t>(at + 4),
                   bytes.begin() + static_cast<std::ptrdiff_t>(at + 8), std::string_view("IEND").begin())) {
      return true;
    }
    at += kChunkOverhead + length;
  }
  return false;
}

// Whether the marker segments of a JPEG (after its start marker) run whole up to the start of
// the scan, where the validator stops reading: each is 0xFF, a marker and, but for the
// markers that stand alone, a big-endian length that counts itself.
bool jpegSegmentsComplete(std::span<const std::uint8_t> bytes) {
  constexpr std::uint8_t kStartOfScan = 0xDA;
  constexpr std::uint8_t kEndOfImage = 0xD9;
  std::size_t at = 2;
  while (at + 1 < bytes.size()) {
    if (bytes[at] != 0xFF) return false;
    const std::uint8_t marker = bytes[at + 1];
    at += 2;
    if (marker == 0xFF) {  // a fill byte before the marker
      --at;
      continue;
    }
    if (marker == kEndOfImage) return true;
    const bool standsAlone = marker == 0x01 || (marker >= 0xD0 && marker <= 0xD8);
    if (standsAlone) continue;
    if (at + 2 > bytes.size()) return false;
    const std::size_t length = (std::size_t{bytes[at]} << 8) | std::size_t{bytes[at + 1]};
    if (length < 2 || length > bytes.size() - at) return false;
    at += length;
    if (marker == kStartOfScan) return true;
  }
  return false;
}

// PNG and JPEG are the only image formats core glTF 2.0 allows; one whose chunks or segments
// do not run whole is damaged and left out like an image in another format.
const char* imageMimeType(std::span<const std::uint8_t> bytes) {
  static constexpr std::array<std::uint8_t, 8> kPng = {0x89, 'P', 'N', 'G', 0x0D, 0x0A, 0x1A, 0x0A};
  if (bytes.size() >= kPng.size() && std::equal(kPng.begin(), kPng.end(), bytes.begin())) {
    return pngChunksComplete(bytes) ? "image/png" : nullptr;
  }
  if (bytes.size() >= 3 && bytes[0] == 0xFF && bytes[1] == 0xD8 && bytes[2] == 0xFF) {
    return jpegSegmentsComplete(bytes) ? "image/jpeg" : nullptr;
  }
  return nullptr;
}

struct Image {
  std::vector<std::uint8_t> bytes;
  const char* mimeType = nullptr;
};

class Document {
 public:
  // `imagesInBuffer`: GLB keeps images in its buffer, .gltf writes them as files beside it.
  Document(const Scene& scene, const GltfExportOptions& options, bool imagesInBuffer)
      : mScene(scene), mOptions(options), mImagesInBuffer(imagesInBuffer), mHeight(scene.characterHeight()) {}

  // nullopt when built; otherwise the first value that came out of encoding beyond the float
  // range (findUnwritableValue checks the scene's own values, not what is derived from them).
  Status build() {
    writeNodes();
    writeMaterials();
    writeMeshes();
    writeSkeletonSkins();
    noteChannelsOfEveryClip();
    for (const Clip& clip : mScene.clips) writeAnimation(clip);
    scaleToMetres();
    turnUpOntoY();
    return mUnwritable;
  }

  const GltfExportReport& report() const { return mReport; }

  // glTF is in metres: a scene in other units goes under a node that scales it to metres,
  // last, so every node index written above stays as it is.
  void scaleToMetres() {
    const double perMetre = mOptions.unitsPerMetre;
    if (!std::isfinite(perMetre) || !(perMetre > 0.0) || std::abs(perMetre - 1.0) < 1e-9 || mSceneRoots.empty())
      return;
    const double scale = 1.0 / perMetre;
    Json node;
    node["name"] = "metres";
    node["scale"] = {scale, scale, scale};
    node["children"] = mSceneRoots;
    mSceneRoots = {static_cast<int>(mNodes.size())};
    mNodes.push_back(std::move(node));
  }

  // glTF is +Y up: a scene standing along another axis goes under a node that turns that
  // axis onto +Y, last, so every node index written above stays as it is.
  void turnUpOntoY() {
    const Vec3 up = mOptions.upModel.normalized();
    if (!up.allFinite() || (up - Vec3::UnitY()).norm() < 1e-6f || mSceneRoots.empty()) return;
    const Quat turn = Quat::FromTwoVectors(up, Vec3::UnitY()).normalized();
    Json node;
    node["name"] = "Y up";
    node["rotation"] = {turn.x(), turn.y(), turn.z(), turn.w()};
    node["children"] = mSceneRoots;
    mSceneRoots = {static_cast<int>(mNodes.size())};
    mNodes.push_back(std::move(node));
  }

  // The glTF JSON; `bufferUri` empty for GLB (the BIN chunk), else the .bin file's uri;
  // `imageUris` name the image files when the images are not in the buffer.
  Json json(const std::string& bufferUri, const std::vector<std::string>& imageUris) const {
    Json gltf;
    gltf["asset"] = {{"version", "2.0"}, {"generator", "Articula"}};
    if (!mSceneRoots.empty()) {
      gltf["scene"] = 0;
      gltf["scenes"] = Json::array({{{"nodes", mSceneRoots}}});
    }
    const auto put = [&gltf](const char* name, const std::vector<Json>& items) {
      if (!items.empty()) gltf[name] = items;
    };
    put("nodes", mNodes);
    put("meshes", mMeshes);
    put("skins", mSkins);
    put("materials", mMaterials);
    put("textures", mTextures);
    if (!mImages.empty()) {
      Json images = Json::array();
      for (std::size_t i = 0; i < mImages.size(); ++i) {
        if (mImagesInBuffer) {
          images.push_back({{"bufferView", mImageViews[i]}, {"mimeType", mImages[i].mimeType}});
        } else {
          images.push_back({{"uri", imageUris[i]}});
        }
      }
      gltf["images"] = std::move(images);
    }
    put("animations", mAnimations);
    if (!mBin.empty()) {
      Json buffer = {{"byteLength", mBin.size()}};
      if (!bufferUri.empty()) buffer["uri"] = bufferUri;
      gltf["buffers"] = Json::array({buffer});
      if (mFallbackBytes > 0) {
        Json fallback = {{"byteLength", mFallbackBytes}};
        fallback["extensions"][kMeshoptExtension] = {{"fallback", true}};
        gltf["buffers"].push_back(std::move(fallback));
        gltf["extensionsUsed"] = Json::array({kMeshoptExtension});
        gltf["extensionsRequired"] = Json::array({kMeshoptExtension});
      }
      put("bufferViews", mBufferViews);
      put("accessors", mAccessors);
    }
    return gltf;
  }

  const std::vector<std::uint8_t>& bin() const { return mBin; }
  const std::vector<Image>& images() const { return mImages; }

 private:
  // ---- buffer, views, accessors ----

  int addBufferView(const void* data, std::size_t bytes, int target) {
    mBin.resize((mBin.size() + 3) & ~std::size_t{3}, 0);  // every view starts 4-byte aligned
    const std::size_t offset = mBin.size();
    mBin.resize(offset + bytes);
    std::memcpy(mBin.data() + offset, data, bytes);
    Json view = {{"buffer", 0}, {"byteOffset", offset}, {"byteLength", bytes}};
    if (target != 0) view["target"] = target;
    mBufferViews.push_back(std::move(view));
    return static_cast<int>(mBufferViews.size()) - 1;
  }

  int addAccessor(int view, int componentType, std::size_t count, const char* type, Json min = nullptr,
                  Json max = nullptr) {
    Json accessor = {{"bufferView", view}, {"componentType", componentType}, {"count", count}, {"type", type}};
    if (!min.is_null()) {
      accessor["min"] = std::move(min);
      accessor["max"] = std::move(max);
    }
    mAccessors.push_back(std::move(accessor));
    return static_cast<int>(mAccessors.size()) - 1;
  }

  // `components` floats per element; with bounds, min/max per component (required for
  // POSITION and animation inputs).
  int addFloats(std::span<const float> values, int components, const char* type, bool bounds, int target) {
    const int view = addBufferView(values.data(), values.size_bytes(), target);
    const std::size_t count = values.size() / static_cast<std::size_t>(components);
    if (!bounds) return addAccessor(view, kFloat, count, type);
    std::vector<float> lo(values.begin(), values.begin() + components);
    std::vector<float> hi = lo;
    for (std::size_t i = 0; i < values.size(); ++i) {
      const std::size_t c = i % static_cast<std::size_t>(components);
      lo[c] = std::min(lo[c], values[i]);
      hi[c] = std::max(hi[c], values[i]);
    }
    return addAccessor(view, kFloat, count, type, Json(lo), Json(hi));
  }

  int addVec3s(std::span<const Vec3> values, bool bounds) {
    return addFloats(std::span<const float>(values.data()->data(), values.size() * 3), 3, "VEC3", bounds, kArrayBuffer);
  }

  // ---- nodes ----

  void writeNodes() {
    const Skeleton& skeleton = mScene.skeleton;
    mNodes.resize(static_cast<std::size_t>(skeleton.jointCount()));
    for (int j = 0; j < skeleton.jointCount(); ++j) {
      Json& node = mNodes[static_cast<std::size_t>(j)];
      node["name"] = skeleton.name(j);
      const Transform& rest = skeleton.restLocal(j);
      if (rest.translation != Vec3::Zero()) node["translation"] = {rest.translation.x(), rest.translation.y(), rest.translation.z()};
      const Quat q = rest.rotation.normalized();
      if (q.coeffs() != Quat::Identity().coeffs()) node["rotation"] = {q.x(), q.y(), q.z(), q.w()};
      if (rest.scale != Vec3::Ones()) node["scale"] = {rest.scale.x(), rest.scale.y(), rest.scale.z()};
      const int parent = skeleton.parent(j);
      if (parent == kNoParent) {
        mSceneRoots.push_back(j);
      } else {
        mNodes[static_cast<std::size_t>(parent)]["children"].push_back(j);
      }
    }
  }

  // ---- materials and images ----

  // Index into mImages of the material's texture, or -1 when it cannot be written.
  int imageFor(const Material& material) {
    std::vector<std::uint8_t> bytes = material.textureData;
    if (bytes.empty() && !material.textureUri.empty()) {
      fs::path file(material.textureUri);
      if (file.is_relative() && !mScene.sourcePath.empty()) file = fs::path(mScene.sourcePath).parent_path() / file;
      std::ifstream in(file, std::ios::binary);
      if (in) bytes.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    }
    const char* mimeType = imageMimeType(bytes);
    if (!mimeType) return -1;
    for (std::size_t i = 0; i < mImages.size(); ++i) {
      if (mImages[i].bytes == bytes) return static_cast<int>(i);
    }
    mImages.push_back({std::move(bytes), mimeType});
    return static_cast<int>(mImages.size()) - 1;
  }

  void writeMaterials() {
    for (const Material& material : mScene.materials) {
      Json pbr;
      const Vec4 color = material.baseColor.cwiseMax(0.0f).cwiseMin(1.0f);
      if (color != Vec4::Ones()) pbr["baseColorFactor"] = {color.x(), color.y(), color.z(), color.w()};
      const int image = imageFor(material);
      if (image >= 0) {
        const auto it = std::find_if(mTextures.begin(), mTextures.end(), [image](const Json& t) { return t["source"] == image; });
        const std::size_t texture = static_cast<std::size_t>(it - mTextures.begin());
        if (it == mTextures.end()) mTextures.push_back({{"source", image}});
        pbr["baseColorTexture"] = {{"index", texture}};
      }
      pbr["metallicFactor"] = 0.0;
      Json out;
      if (!material.name.empty()) out["name"] = material.name;
      out["pbrMetallicRoughness"] = std::move(pbr);
      mMaterials.push_back(std::move(out));
    }
    if (mImagesInBuffer) {
      for (const Image& image : mImages) mImageViews.push_back(addBufferView(image.bytes.data(), image.bytes.size(), 0));
    }
  }

  // ---- meshes and skins ----

  // A new node for a mesh whose node is missing or taken (see gltf_export.h).
  int addMeshNode(const Mesh& mesh) {
    Json node;
    if (!mesh.name.empty()) node["name"] = mesh.name;
    const int index = static_cast<int>(mNodes.size());
    mNodes.push_back(std::move(node));
    if (mesh.hasSkin || mesh.node < 0) {
      mSceneRoots.push_back(index);
    } else {
      mNodes[static_cast<std::size_t>(mesh.node)]["children"].push_back(index);
    }
    return index;
  }

  void writeMeshes() {
    std::vector<bool> taken(mNodes.size(), false);
    mMeshNodes.assign(mScene.meshes.size(), -1);
    for (std::size_t m = 0; m < mScene.meshes.size(); ++m) {
      const Mesh& mesh = mScene.meshes[m];
      if (mesh.positions.empty()) continue;  // nothing to draw; glTF accessors need elements
      int node = mesh.node;
      if (node < 0 || taken[static_cast<std::size_t>(node)]) {
        node = addMeshNode(mesh);
      } else {
        taken[static_cast<std::size_t>(node)] = true;
      }
      mMeshNodes[m] = node;
      Json& target = mNodes[static_cast<std::size_t>(node)];
      target["mesh"] = writeMesh(mesh);
      if (mesh.hasSkin) target["skin"] = skinFor(mesh.skin);
    }
  }

  int writeMesh(const Mesh& mesh) {
    const std::size_t n = mesh.vertexCount();
    Json attributes;
    attributes["POSITION"] = addVec3s(mesh.positions, true);
    if (!mesh.normals.empty()) {
      std::vector<Vec3> normals(mesh.normals);
      for (Vec3& v : normals) {
        const float length = v.norm();
        v = length > 0.0f ? Vec3(v / length) : Vec3::UnitY();
      }
      attributes["NORMAL"] = addVec3s(normals, false);
    }
    if (!mesh.texCoords.empty()) {
      attributes["TEXCOORD_0"] =
          addFloats(std::span<const float>(mesh.texCoords.data()->data(), n * 2), 2, "VEC2", false, kArrayBuffer);
    }
    if (mesh.hasSkin) writeInfluences(mesh, attributes);

    Json primitive = {{"attributes", std::move(attributes)}};
    if (!mesh.indices.empty()) primitive["indices"] = writeIndices(mesh);
    if (mesh.material >= 0) primitive["material"] = mesh.material;

    Json out;
    if (!mesh.name.empty()) out["name"] = mesh.name;
    if (!mesh.morphTargets.empty()) {
      const bool normalDeltas = !mesh.normals.empty() &&
                                std::any_of(mesh.morphTargets.begin(), mesh.morphTargets.end(),
                                            [](const MorphTarget& t) { return !t.normalDeltas.empty(); });
      Json targets = Json::array();
      Json names = Json::array();
      for (const MorphTarget& morph : mesh.morphTargets) {
        Json target = {{"POSITION", addVec3s(morph.positionDeltas, true)}};
        if (normalDeltas) {
          target["NORMAL"] = morph.normalDeltas.empty() ? addVec3s(std::vector<Vec3>(n, Vec3::Zero()), false)
                                                        : addVec3s(morph.normalDeltas, false);
        }
        targets.push_back(std::move(target));
        names.push_back(morph.name);
      }
      primitive["targets"] = std::move(targets);
      std::vector<float> weights = mesh.morphWeights;
      weights.resize(mesh.morphTargets.size(), 0.0f);
      out["weights"] = weights;
      out["extras"] = {{"targetNames", std::move(names)}};
    }
    out["primitives"] = Json::array({std::move(primitive)});
    mMeshes.push_back(std::move(out));
    return static_cast<int>(mMeshes.size()) - 1;
  }

  int writeIndices(const Mesh& mesh) {
    // 65535 is the primitive-restart value of UNSIGNED_SHORT, so it may not be an index.
    if (mesh.vertexCount() <= 65535) {
      const std::vector<std::uint16_t> indices(mesh.indices.begin(), mesh.indices.end());
      const int view = addBufferView(indices.data(), indices.size() * sizeof(std::uint16_t), kElementArrayBuffer);
      return addAccessor(view, kUnsignedShort, indices.size(), "SCALAR");
    }
    const int view = addBufferView(mesh.indices.data(), mesh.indices.size() * sizeof(std::uint32_t), kElementArrayBuffer);
    return addAccessor(view, kUnsignedInt, mesh.indices.size(), "SCALAR");
  }

  // JOINTS_n/WEIGHTS_n: per vertex, the non-zero influences with repeated joints merged,
  // heaviest first, renormalised; unused slots are joint 0 with weight 0.
  void writeInfluences(const Mesh& mesh, Json& attributes) {
    const Skin& skin = mesh.skin;
    const std::size_t n = mesh.vertexCount();
    const std::size_t per = static_cast<std::size_t>(skin.influencesPerVertex);
    std::vector<std::pair<std::uint16_t, double>> influences;  // per vertex, reused
    std::vector<std::uint16_t> joints;
    std::vector<double> weights;
    std::vector<std::size_t> counts(n);
    std::size_t widest = 1;
    for (std::size_t v = 0; v < n; ++v) {
      influences.clear();
      for (std::size_t k = v * per; k < (v + 1) * per; ++k) {
        if (!(skin.vertexWeights[k] > 0.0f)) continue;
        const auto same = std::find_if(influences.begin(), influences.end(),
                                       [&](const auto& i) { return i.first == skin.vertexJoints[k]; });
        if (same != influences.end()) {
          same->second += skin.vertexWeights[k];
        } else {
          influences.emplace_back(skin.vertexJoints[k], skin.vertexWeights[k]);
        }
      }
      if (influences.empty()) influences.emplace_back(0, 1.0);  // no weight: follow the first joint
      std::stable_sort(influences.begin(), influences.end(), [](const auto& a, const auto& b) { return a.second > b.second; });
      counts[v] = influences.size();
      widest = std::max(widest, influences.size());
      for (const auto& [joint, weight] : influences) {
        joints.push_back(joint);
        weights.push_back(weight);
      }
    }
    const std::size_t sets = (widest + 3) / 4;
    const std::size_t slots = 4 * sets;
    std::vector<std::uint16_t> jointSlots(n * slots, 0);
    std::vector<float> weightSlots(n * slots, 0.0f);
    std::size_t next = 0;
    for (std::size_t v = 0; v < n; ++v) {
      const std::size_t count = counts[v];
      const double sum = std::accumulate(weights.begin() + static_cast<std::ptrdiff_t>(next),
                                         weights.begin() + static_cast<std::ptrdiff_t>(next + count), 0.0);
      double rest = 0.0;  // the float weights after the heaviest, so that the total is 1 in float
      for (std::size_t k = 1; k < count; ++k) {
        weightSlots[v * slots + k] = static_cast<float>(weights[next + k] / sum);
        rest += weightSlots[v * slots + k];
      }
      weightSlots[v * slots] = static_cast<float>(1.0 - rest);
      for (std::size_t k = 0; k < count; ++k) jointSlots[v * slots + k] = joints[next + k];
      next += count;
    }
    const bool bytes = skin.joints.size() <= 256;
    for (std::size_t s = 0; s < sets; ++s) {
      // Set s holds slots 4s..4s+3 of every vertex: gather them into their own stream.
      std::vector<float> setWeights(n * 4);
      std::vector<std::uint16_t> setJoints(n * 4);
      for (std::size_t v = 0; v < n; ++v) {
        for (std::size_t c = 0; c < 4; ++c) {
          setWeights[v * 4 + c] = weightSlots[v * slots + 4 * s + c];
          setJoints[v * 4 + c] = jointSlots[v * slots + 4 * s + c];
        }
      }
      int view = 0;
      if (bytes) {
        const std::vector<std::uint8_t> narrow(setJoints.begin(), setJoints.end());
        view = addBufferView(narrow.data(), narrow.size(), kArrayBuffer);
      } else {
        view = addBufferView(setJoints.data(), setJoints.size() * sizeof(std::uint16_t), kArrayBuffer);
      }
      attributes["JOINTS_" + std::to_string(s)] = addAccessor(view, bytes ? kUnsignedByte : kUnsignedShort, n, "VEC4");
      attributes["WEIGHTS_" + std::to_string(s)] = addFloats(setWeights, 4, "VEC4", false, kArrayBuffer);
    }
  }

  // The closest common ancestor of the skin's joints (the glTF `skeleton`), or -1 when
  // they lie in different trees of the forest.
  int commonAncestor(const std::vector<int>& joints) const {
    const Skeleton& skeleton = mScene.skeleton;
    int ancestor = joints.front();
    for (int joint : joints) {
      while (ancestor != kNoParent && !skeleton.isAncestorOrSelf(ancestor, joint)) ancestor = skeleton.parent(ancestor);
      if (ancestor == kNoParent) return -1;
    }
    return ancestor;
  }

  int skinFor(const Skin& skin) {
    for (std::size_t s = 0; s < mSkinSources.size(); ++s) {
      const Skin& other = *mSkinSources[s];
      if (other.joints == skin.joints && other.inverseBindMatrices == skin.inverseBindMatrices) return static_cast<int>(s);
    }
    mSkinSources.push_back(&skin);
    return addSkin(skin.name, skin.joints, skin.inverseBindMatrices);
  }

  int addSkin(const std::string& name, const std::vector<int>& joints, std::span<const Mat4> inverseBindMatrices) {
    std::vector<float> matrices(joints.size() * 16);
    for (std::size_t k = 0; k < joints.size(); ++k) {
      std::memcpy(matrices.data() + 16 * k, inverseBindMatrices[k].data(), 16 * sizeof(float));
    }
    Json out;
    if (!name.empty()) out["name"] = name;
    out["inverseBindMatrices"] = addFloats(matrices, 16, "MAT4", false, 0);
    out["joints"] = joints;
    const int root = commonAncestor(joints);
    if (root >= 0) out["skeleton"] = root;
    mSkins.push_back(std::move(out));
    return static_cast<int>(mSkins.size()) - 1;
  }

  // Importers build a skeleton from skins only (Blender an armature, three.js bones); joints
  // outside every skin come in as animated empties. So each tree of the forest whose joints
  // skin no mesh (BVH, mocap FBX or Collada) gets a skin of its own, attached to no node, as
  // Blender's exporter writes an armature without a mesh: its Joint nodes in index order
  // (parents first), bound at the rest pose. Trees a mesh skins keep their mesh skins alone,
  // so no joint lands in two armatures.
  void writeSkeletonSkins() {
    const Skeleton& skeleton = mScene.skeleton;
    std::vector<int> treeRoot(static_cast<std::size_t>(skeleton.jointCount()));
    for (int j = 0; j < skeleton.jointCount(); ++j) {
      const int parent = skeleton.parent(j);
      treeRoot[static_cast<std::size_t>(j)] = parent == kNoParent ? j : treeRoot[static_cast<std::size_t>(parent)];
    }
    std::vector<bool> skinnedTree(treeRoot.size(), false);
    for (const Skin* skin : mSkinSources) {
      for (int joint : skin->joints)
        skinnedTree[static_cast<std::size_t>(treeRoot[static_cast<std::size_t>(joint)])] = true;
    }
    // Joints of each tree in index order, gathered in one pass: a scan of every node per root
    // was quadratic in a file with 100,000 empty roots.
    std::vector<std::vector<int>> treeJoints(treeRoot.size());
    for (int j = 0; j < skeleton.jointCount(); ++j) {
      if (skeleton.kind(j) == NodeKind::Joint)
        treeJoints[static_cast<std::size_t>(treeRoot[static_cast<std::size_t>(j)])].push_back(j);
    }
    std::vector<Affine> restModel;
    for (int root = 0; root < skeleton.jointCount(); ++root) {
      if (skeleton.parent(root) != kNoParent || skinnedTree[static_cast<std::size_t>(root)]) continue;
      const std::vector<int>& joints = treeJoints[static_cast<std::size_t>(root)];
      if (joints.empty()) continue;
      if (restModel.empty()) restModel = localToModel(skeleton, skeleton.restPose());
      std::vector<Mat4> inverseBind;
      for (int joint : joints) {
        inverseBind.push_back(restModel[static_cast<std::size_t>(joint)].inverse().matrix());
        // Rest offsets near the float limit add up past it along a chain.
        if (!inverseBind.back().allFinite()) {
          noteUnwritable("node '" + skeleton.name(joint) + "': its rest pose in model space is beyond the float range");
        }
      }
      addSkin(skeleton.name(root), joints, inverseBind);
    }
  }

  // ---- animations ----

  // An accessor of the animation being written: its bytes follow the animation's earlier
  // ones of its group, and finishAnimationData gives each group one bufferView, so a clip of
  // many channels costs no JSON per channel beyond its accessor and sampler. One group holds
  // every accessor, or with meshopt compression one per element size (the codec encodes a
  // view of equal-sized elements). Every accessor starts 4-byte aligned.
  int addAnimationAccessor(const void* data, std::size_t bytes, int componentType, std::size_t count, const char* type,
                           bool normalized = false, Json min = nullptr, Json max = nullptr) {
    const std::size_t elementBytes = bytes / count;
    const bool meshopt = mOptions.compression == GltfCompression::Meshopt && meshoptStrideSupported(elementBytes);
    AnimationGroup& group = mAnimationGroups[meshopt ? elementBytes : 0];
    group.bytes.resize((group.bytes.size() + 3) & ~std::size_t{3}, 0);
    const std::size_t offset = group.bytes.size();
    group.bytes.resize(offset + bytes);
    std::memcpy(group.bytes.data() + offset, data, bytes);
    const int accessor = addAccessor(-1, componentType, count, type, std::move(min), std::move(max));
    Json& written = mAccessors.back();
    if (offset != 0) written["byteOffset"] = offset;
    if (normalized) written["normalized"] = true;
    group.accessors.push_back(accessor);
    return accessor;
  }

  void finishAnimationData() {
    for (auto& [stride, group] : mAnimationGroups) {
      const int view = stride == 0 ? addBufferView(group.bytes.data(), group.bytes.size(), 0)
                                   : addMeshoptView(group.bytes, stride);
      for (int accessor : group.accessors) mAccessors[static_cast<std::size_t>(accessor)]["bufferView"] = view;
    }
    mAnimationGroups.clear();
  }

  // A bufferView of `stride`-byte elements stored with EXT_meshopt_compression: the encoded
  // stream in the buffer, the view itself in the fallback buffer, which holds no data (so
  // the extension is required).
  int addMeshoptView(const std::vector<std::uint8_t>& bytes, std::size_t stride) {
    const std::vector<std::uint8_t> encoded = meshoptEncodeAttributes(bytes, stride);
    mBin.resize((mBin.size() + 3) & ~std::size_t{3}, 0);
    const std::size_t offset = mBin.size();
    mBin.insert(mBin.end(), encoded.begin(), encoded.end());
    Json view = {{"buffer", 1}, {"byteOffset", mFallbackBytes}, {"byteLength", bytes.size()}};
    view["extensions"][kMeshoptExtension] = {{"buffer", 0},          {"byteOffset", offset},
                                             {"byteLength", encoded.size()}, {"byteStride", stride},
                                             {"count", bytes.size() / stride}, {"mode", "ATTRIBUTES"}};
    mFallbackBytes += (bytes.size() + 3) & ~std::size_t{3};
    mBufferViews.push_back(std::move(view));
    return static_cast<int>(mBufferViews.size()) - 1;
  }

  // Input accessor of these times, shared by every sampler of the animation with the same keys.
  int timesAccessor(const std::vector<float>& times) {
    std::string bytes(reinterpret_cast<const char*>(times.data()), times.size() * sizeof(float));
    const auto found = mTimeAccessors.find(bytes);
    if (found != mTimeAccessors.end()) return found->second;
    const auto [lo, hi] = std::minmax_element(times.begin(), times.end());
    const int accessor = addAnimationAccessor(times.data(), bytes.size(), kFloat, times.size(), "SCALAR", false,
                                              Json::array({*lo}), Json::array({*hi}));
    mTimeAccessors.emplace(std::move(bytes), accessor);
    return accessor;
  }

  // Output accessor: rotations on glTF's normalised 16-bit grid as SHORT (half the bytes,
  // decoded to the same rotations; see rotationOutputsAsShorts), anything else as floats.
  int outputAccessor(const GltfSamplerData& data, const char* path) {
    const bool weights = std::strcmp(path, "weights") == 0;
    const char* type = weights ? "SCALAR" : (data.width == 4 ? "VEC4" : "VEC3");
    const std::size_t count = data.values.size() / (weights ? 1 : data.width);
    if (std::strcmp(path, "rotation") == 0) {
      const std::vector<std::int16_t> shorts = rotationOutputsAsShorts(data);
      if (!shorts.empty()) {
        return addAnimationAccessor(shorts.data(), shorts.size() * sizeof(std::int16_t), kShort, count, type, true);
      }
    }
    return addAnimationAccessor(data.values.data(), data.values.size() * sizeof(float), kFloat, count, type);
  }

  void addChannel(const GltfSamplerData& data, int node, const char* path, Json& samplers, Json& channels) {
    if (data.times.empty()) return;
    // Keys within the float range can still have a slope beyond it (a jump of 1e38 within a
    // frame): the tangents a CUBICSPLINE sampler stores per second.
    const auto finite = [](float v) { return std::isfinite(v); };
    if (!std::all_of(data.values.begin(), data.values.end(), finite)) {
      noteUnwritable("clip '" + mClip->name + "', node '" + mScene.skeleton.name(node) + "' " + path +
                     ": a tangent or value beyond the float range");
    }
    static constexpr std::array<const char*, 3> kNames = {"STEP", "LINEAR", "CUBICSPLINE"};
    mReport.keys += data.times.size();
    switch (data.interpolation) {
      case GltfInterpolation::Step:
        ++mReport.stepChannels;
        break;
      case GltfInterpolation::Linear:
        ++mReport.linearChannels;
        break;
      case GltfInterpolation::CubicSpline:
        ++mReport.cubicChannels;
        break;
    }
    const int input = timesAccessor(data.times);
    const int output = outputAccessor(data, path);
    channels.push_back({{"sampler", samplers.size()}, {"target", {{"node", node}, {"path", path}}}});
    samplers.push_back({{"input", input}, {"output", output},
                        {"interpolation", kNames[static_cast<std::size_t>(data.interpolation)]}});
  }

  static void noteStart(double start, double& earliest) { earliest = std::min(earliest, start); }

  void writeAnimation(const Clip& clip) {
    mClip = &clip;
    mTimeAccessors.clear();
    // glTF times start at 0: a clip with keys before 0 is shifted (see gltf_export.h).
    double earliest = 0.0;
    for (const JointTrack& track : clip.tracks) {
      for (const Curve* curve : {&track.translation.x, &track.translation.y, &track.translation.z, &track.scale.x,
                                 &track.scale.y, &track.scale.z}) {
        if (!curve->empty()) noteStart(curve->startTime(), earliest);
      }
      if (!track.rotation.empty()) noteStart(track.rotation.startTime(), earliest);
    }
    for (const MorphWeightsTrack& track : clip.morphWeights) {
      for (const Curve& curve : track.weights) {
        if (!curve.empty()) noteStart(curve.startTime(), earliest);
      }
    }
    const double offset = -earliest;

    GltfChannelSettings settings;
    settings.timeOffset = offset;
    settings.frameStart = clip.startTime;
    settings.frameRate = clip.frameRate;

    Json samplers = Json::array();
    Json channels = Json::array();
    for (const JointTrack& track : clip.tracks) {
      const Transform& rest = mScene.skeleton.restLocal(track.joint);
      settings.tolerance = mOptions.tolerance * mHeight;
      writeVec3Track(track.translation, rest.translation, settings, track.joint, "translation", samplers, channels);
      settings.tolerance = mOptions.tolerance;
      settings.componentLerpTolerance = mOptions.componentLerpTolerance * mHeight / rotationLever(track.joint);
      addChannel(encodeRotationChannel(track.rotation, settings), track.joint, "rotation", samplers, channels);
      settings.componentLerpTolerance = 0.0;
      settings.tolerance = mOptions.scalarTolerance;
      writeVec3Track(track.scale, rest.scale, settings, track.joint, "scale", samplers, channels);
    }
    writeRestHolds(clip, earliest, settings, samplers, channels);
    settings.tolerance = mOptions.scalarTolerance;
    for (const MorphWeightsTrack& track : clip.morphWeights) {
      const Mesh& mesh = mScene.meshes[static_cast<std::size_t>(track.mesh)];
      const int node = mMeshNodes[static_cast<std::size_t>(track.mesh)];
      if (node < 0 || mesh.morphTargets.empty()) continue;  // the mesh was not written (no vertices)
      std::vector<const Curve*> curves;
      std::vector<double> fallback;
      for (std::size_t t = 0; t < track.weights.size(); ++t) {
        curves.push_back(&track.weights[t]);
        fallback.push_back(t < mesh.morphWeights.size() ? mesh.morphWeights[t] : 0.0);
      }
      addChannel(encodeCurveChannel(curves, fallback, settings), node, "weights", samplers, channels);
    }
    if (channels.empty() && !mNodes.empty()) {
      // glTF requires a channel; a clip without keys holds the first node's rest rotation.
      RotationTrack rest;
      rest.insertKey(RotationKey{0.0, mScene.skeleton.empty() ? Quat::Identity() : mScene.skeleton.restLocal(0).rotation,
                                 RotationInterpolation::Step, Quat::Identity(), Quat::Identity()});
      addChannel(encodeRotationChannel(rest, settings), 0, "rotation", samplers, channels);
    }
    finishAnimationData();
    if (channels.empty()) return;  // a file without nodes cannot hold an animation
    Json animation;
    animation["name"] = clip.name;
    animation["channels"] = std::move(channels);
    animation["samplers"] = std::move(samplers);
    animation["extras"] = {{"articula", articulaClipExtras(clip, offset)}};
    mAnimations.push_back(std::move(animation));
  }

  // The channels (translation, rotation, scale) some clip of the scene keys, per node.
  void noteChannelsOfEveryClip() {
    mKeyedAnywhere.assign(static_cast<std::size_t>(mScene.skeleton.jointCount()), {false, false, false});
    if (mScene.clips.size() < 2) return;
    for (const Clip& clip : mScene.clips) {
      for (const JointTrack& track : clip.tracks) {
        auto& keyed = mKeyedAnywhere[static_cast<std::size_t>(track.joint)];
        keyed[0] = keyed[0] || !track.translation.empty();
        keyed[1] = keyed[1] || !track.rotation.empty();
        keyed[2] = keyed[2] || !track.scale.empty();
      }
    }
  }

  // A channel another clip keys and `clip` does not gets one STEP key at the node's rest
  // value, at the clip's first time: readers that follow the spec play the rest there anyway,
  // but Blender's importer makes an action per clip and a bone no key of the active action
  // sets keeps the pose the previous action left (RobotExpressive's Wave after Dance: 4.0 mm
  // off on its keys, Body's rotation left from Dance).
  void writeRestHolds(const Clip& clip, double firstTime, GltfChannelSettings settings, Json& samplers,
                      Json& channels) {
    std::vector<std::array<bool, 3>> keyed(mKeyedAnywhere.size(), {false, false, false});
    for (const JointTrack& track : clip.tracks) {
      keyed[static_cast<std::size_t>(track.joint)] = {!track.translation.empty(), !track.rotation.empty(),
                                                      !track.scale.empty()};
    }
    const auto holdVec3 = [&](const Vec3& rest, int node, const char* path) {
      Vec3Track track;
      for (int c = 0; c < 3; ++c) {
        Curve& curve = c == 0 ? track.x : c == 1 ? track.y : track.z;
        curve.insertKey(firstTime, rest[c], Interpolation::Constant);
      }
      writeVec3Track(track, rest, settings, node, path, samplers, channels);
    };
    for (std::size_t j = 0; j < mKeyedAnywhere.size(); ++j) {
      const int node = static_cast<int>(j);
      const Transform& rest = mScene.skeleton.restLocal(node);
      if (mKeyedAnywhere[j][0] && !keyed[j][0]) holdVec3(rest.translation, node, "translation");
      if (mKeyedAnywhere[j][1] && !keyed[j][1]) {
        RotationTrack track;
        track.insertKey(RotationKey{firstTime, rest.rotation, RotationInterpolation::Step, Quat::Identity(),
                                    Quat::Identity()});
        addChannel(encodeRotationChannel(track, settings), node, "rotation", samplers, channels);
      }
      if (mKeyedAnywhere[j][2] && !keyed[j][2]) holdVec3(rest.scale, node, "scale");
    }
  }

  // How far from a joint its rotation moves a node: the farthest node of its subtree at the
  // rest pose, or its own bone when it has none (as key reduction measures it).
  double rotationLever(int joint) {
    if (mLevers.empty()) {
      const Skeleton& skeleton = mScene.skeleton;
      const std::vector<Affine> model = localToModel(skeleton, skeleton.restPose());
      mLevers.assign(model.size(), 0.0);
      for (std::size_t j = 0; j < model.size(); ++j) {
        for (int a = skeleton.parent(static_cast<int>(j)); a != kNoParent; a = skeleton.parent(a)) {
          const auto i = static_cast<std::size_t>(a);
          mLevers[i] = std::max(mLevers[i], double((model[j].translation() - model[i].translation()).norm()));
        }
      }
      for (std::size_t j = 0; j < model.size(); ++j) {
        const int parent = skeleton.parent(static_cast<int>(j));
        if (mLevers[j] == 0.0 && parent != kNoParent)
          mLevers[j] = (model[j].translation() - model[static_cast<std::size_t>(parent)].translation()).norm();
        mLevers[j] = std::max(mLevers[j], 1e-6);
      }
    }
    return mLevers[static_cast<std::size_t>(joint)];
  }

  void writeVec3Track(const Vec3Track& track, const Vec3& rest, const GltfChannelSettings& settings, int node,
                      const char* path, Json& samplers, Json& channels) {
    if (track.empty()) return;
    const std::array<const Curve*, 3> curves = {&track.x, &track.y, &track.z};
    const std::array<double, 3> fallback = {rest.x(), rest.y(), rest.z()};
    addChannel(encodeCurveChannel(curves, fallback, settings), node, path, samplers, channels);
  }

  void noteUnwritable(const std::string& what) {
    if (!mUnwritable) mUnwritable = what;
  }

  const Scene& mScene;
  const GltfExportOptions& mOptions;
  GltfExportReport mReport;     // keys and channels written (bytes: once the files are)
  const Clip* mClip = nullptr;  // the clip writeAnimation is writing
  Status mUnwritable;           // the first value encoding could not write
  bool mImagesInBuffer = true;
  double mHeight = 1.0;  // Scene::characterHeight(), the unit of translation tolerances
  // Per node: translation, rotation, scale keyed by some clip (noteChannelsOfEveryClip).
  std::vector<std::array<bool, 3>> mKeyedAnywhere;

  std::vector<std::uint8_t> mBin;
  std::vector<Json> mBufferViews;
  std::vector<Json> mAccessors;
  std::vector<Json> mNodes;
  std::vector<int> mSceneRoots;
  std::vector<Json> mMeshes;
  std::vector<Json> mSkins;
  std::vector<const Skin*> mSkinSources;
  std::vector<Json> mMaterials;
  std::vector<Json> mTextures;
  std::vector<Image> mImages;
  std::vector<int> mImageViews;
  std::vector<Json> mAnimations;
  std::vector<int> mMeshNodes;  // per Scene mesh: the node holding it, -1 when not written
  std::unordered_map<std::string, int> mTimeAccessors;
  std::vector<double> mLevers;           // per node, rotationLever (computed on first use)
  // The animation being written: its accessors' bytes by group (addAnimationAccessor), and
  // the accessors, pointed at their group's view once written.
  struct AnimationGroup {
    std::vector<std::uint8_t> bytes;
    std::vector<int> accessors;
  };
  std::map<std::size_t, AnimationGroup> mAnimationGroups;
  std::size_t mFallbackBytes = 0;  // the EXT_meshopt_compression fallback buffer's length
};

// ---- files ----

// Every file goes to a temporary beside its target and is renamed into place once all are on
// disk (atomic_file.h): a kill or a full disk mid-export leaves the old files whole.
// The message starts with the exported file and names the file at fault (its .bin, say).
Status writeFiles(const fs::path& exported, std::span<const FileToWrite> files) {
  if (Status error = writeFilesAtomically(files)) return exported.string() + ": " + *error;
  return std::nullopt;
}

std::string_view textOf(std::span<const std::uint8_t> bytes) {
  return {reinterpret_cast<const char*>(bytes.data()), bytes.size()};
}

void appendU32(std::vector<std::uint8_t>& out, std::uint32_t value) {
  const std::size_t at = out.size();
  out.resize(at + 4);
  std::memcpy(out.data() + at, &value, 4);  // GLB is little-endian, like every host we build for
}

Status writeGlb(const fs::path& path, const Document& document) {
  std::string json = document.json("", {}).dump();
  json.resize((json.size() + 3) & ~std::size_t{3}, ' ');
  const std::vector<std::uint8_t>& bin = document.bin();
  const std::size_t binPadded = (bin.size() + 3) & ~std::size_t{3};
  const std::size_t total = 12 + 8 + json.size() + (bin.empty() ? 0 : 8 + binPadded);
  if (total > 0xFFFFFFFFu) return path.string() + ": larger than the 4 GiB a GLB file can hold";
  std::vector<std::uint8_t> head;
  appendU32(head, kGlbMagic);
  appendU32(head, 2);
  appendU32(head, static_cast<std::uint32_t>(total));
  appendU32(head, static_cast<std::uint32_t>(json.size()));
  appendU32(head, kGlbJsonChunk);
  std::vector<std::uint8_t> binHead;
  if (!bin.empty()) {
    appendU32(binHead, static_cast<std::uint32_t>(binPadded));
    appendU32(binHead, kGlbBinChunk);
  }
  const std::vector<std::uint8_t> padding(binPadded - bin.size(), 0);
  const FileToWrite glb{path.string(), {textOf(head), json, textOf(binHead), textOf(bin), textOf(padding)}};
  return writeFiles(path, std::span<const FileToWrite>(&glb, 1));
}

// The .bin and images first and the .gltf that names them last: the renames happen in that
// order, so the .gltf in place never names files older than itself.
Status writeGltfWithFiles(const fs::path& path, const Document& document) {
  const std::string stem = path.stem().string();
  const fs::path folder = path.parent_path();
  std::vector<FileToWrite> files;
  std::string binUri;
  if (!document.bin().empty()) {
    const std::string binName = stem + ".bin";
    files.push_back({(folder / binName).string(), {textOf(document.bin())}});
    binUri = percentEncode(binName);
  }
  std::vector<std::string> imageUris;
  for (std::size_t i = 0; i < document.images().size(); ++i) {
    const Image& image = document.images()[i];
    const std::string name = stem + "_image" + std::to_string(i) + (std::strcmp(image.mimeType, "image/png") == 0 ? ".png" : ".jpg");
    files.push_back({(folder / name).string(), {textOf(image.bytes)}});
    imageUris.push_back(percentEncode(name));
  }
  const std::string json = document.json(binUri, imageUris).dump(1);
  files.push_back({path.string(), {json}});
  return writeFiles(path, files);
}

bool hasGltfExtension(const fs::path& path) {
  std::string extension = path.extension().string();
  std::transform(extension.begin(), extension.end(), extension.begin(), [](unsigned char c) { return std::tolower(c); });
  return extension == ".gltf";
}

}  // namespace

const char* interpolationOf(const GltfExportReport& report) { return report.cubicChannels > 0 ? "cubic" : "linear"; }

const char* compressionName(GltfCompression compression) {
  return compression == GltfCompression::Meshopt ? "meshopt" : "none";
}

std::optional<GltfCompression> parseCompression(std::string_view word) {
  for (const GltfCompression compression : {GltfCompression::None, GltfCompression::Meshopt}) {
    if (word == compressionName(compression)) return compression;
  }
  return std::nullopt;
}

std::optional<std::string> exportGltf(const Scene& scene, const std::string& path, const GltfExportOptions& options,
                                      GltfExportReport* report) {
  const fs::path file(path);
  std::error_code ec;
  if (file.filename().empty()) return path + ": not a file name";
  const fs::path folder = file.parent_path();
  if (!folder.empty() && !fs::is_directory(folder, ec)) return path + ": the folder " + folder.string() + " does not exist";
  if (fs::is_directory(file, ec)) return path + ": is a folder, not a file";
  if (!(options.tolerance > 0.0) || !(options.scalarTolerance > 0.0)) return path + ": the export tolerances must be positive";
  if (Status error = checkScene(scene)) return path + ": cannot export: " + *error;
  if (Status error = findUnwritableValue(scene)) return path + ": cannot export: " + *error;

  const bool binary = options.binary.value_or(!hasGltfExtension(file));
  // Nothing may escape core/: allocation failures while building a huge file end here.
  try {
    Document document(scene, options, binary);
    if (Status error = document.build()) return path + ": cannot export: " + *error;
    if (Status error = binary ? writeGlb(file, document) : writeGltfWithFiles(file, document)) return error;
    if (report != nullptr) {
      *report = document.report();
      report->compression = options.compression;
      report->bytes = fs::file_size(file);
      if (!binary && !document.bin().empty())
        report->bytes += fs::file_size(file.parent_path() / (file.stem().string() + ".bin"));
    }
    return std::nullopt;
  } catch (const std::exception& e) {
    return path + ": cannot export: " + e.what();
  }
}

}  // namespace articula
