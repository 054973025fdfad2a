// FBX, Collada and the other formats Assimp 5.2 reads, turned into a Scene.
#include <assimp/Importer.hpp>
#include <assimp/config.h>
#include <assimp/postprocess.h>
#include <assimp/scene.h>

#include <algorithm>
#include <cmath>
#include <exception>
#include <limits>
#include <new>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "core/io/frame_rate.h"
#include "core/io/import.h"
#include "core/math/quaternion.h"

namespace articula {

namespace {

// Assimp's FBX reader expresses FBX pivots, offsets and pre/post rotations as extra nodes
// named "<node>_$AssimpFbx$_<component>" above (and, for geometric transforms, below) the
// real node. We fold them away so the editor shows the artist's joints.
constexpr std::string_view kPivotMarker = "_$AssimpFbx$_";
// aiAnimation::mTicksPerSecond is 0 when the file does not say; Assimp documents 25 then.
constexpr double kDefaultTicksPerSecond = 25.0;
// FBX puts the scene's frame rate in mTicksPerSecond (24, 30, ...); Collada and glTF count
// in milliseconds (1000) or seconds (1), which are not frame rates.
constexpr double kMinFrameRate = 2.0;
constexpr double kMaxFrameRate = 240.0;
constexpr double kSameTimeSeconds = 1e-9;
constexpr std::string_view kTooLarge = "too large: reading it needs more memory than the import may use";

// Post-processing, chosen step by step:
//  Triangulate + SortByPType (with PP_SBP_REMOVE of points and lines): Mesh holds triangles only.
//  JoinIdenticalVertices: FBX and Collada readers emit one vertex per face corner; joining
//    gives indexed meshes and one set of influences per real vertex.
//  GenSmoothNormals: only fills meshes that have no normals.
//  ValidateDataStructure: inconsistent files (indices or weights past the vertex count)
//    become an error message instead of out-of-range reads here.
//  FlipUVs: texture coordinates in the glTF convention (origin at the top left), the one
//    the glTF reader and exporter use.
// Deliberately not: LimitBoneWeights (every influence is kept), PreTransformVertices,
// OptimizeGraph, OptimizeMeshes and Debone (they drop or merge the nodes we animate),
// FindInvalidData (it deletes animation keys it finds redundant), MakeLeftHanded.
constexpr unsigned int kPostProcess = aiProcess_Triangulate | aiProcess_SortByPType | aiProcess_JoinIdenticalVertices |
                                      aiProcess_GenSmoothNormals | aiProcess_ValidateDataStructure | aiProcess_FlipUVs;

// aiMatrix4x4 is stored row-major but, like Eigen, maps column vectors (translation in
// a4, b4, c4): element (r, c) is the same in both.
Mat4 toMat4(const aiMatrix4x4& m) {
  Mat4 out;
  for (unsigned int r = 0; r < 4; ++r) {
    for (unsigned int c = 0; c < 4; ++c) out(r, c) = m[r][c];
  }
  return out;
}

Vec3 toVec3(const aiVector3D& v) { return Vec3(v.x, v.y, v.z); }
Quat toQuat(const aiQuaternion& q) { return Quat(q.w, q.x, q.y, q.z); }

std::string_view nameOf(const aiString& s) { return std::string_view(s.data, s.length); }

// Every key time of the clip's tracks, in seconds.
std::vector<double> keyTimes(const Clip& clip) {
  std::vector<double> times;
  for (const JointTrack& track : clip.tracks) {
    for (const Curve* curve : {&track.translation.x, &track.translation.y, &track.translation.z, &track.scale.x,
                               &track.scale.y, &track.scale.z}) {
      for (const CurveKey& key : curve->keys()) times.push_back(key.time);
    }
    for (const RotationKey& key : track.rotation.keys()) times.push_back(key.time);
  }
  return times;
}

bool isPivotHelper(const aiNode* node) {
  // Assimp 5.2 attaches geometry to the real node at the end of the chain; a node holding
  // meshes is kept whatever its name so no mesh loses its placement.
  return node->mNumMeshes == 0 && nameOf(node->mName).find(kPivotMarker) != std::string_view::npos;
}

// Linear interpolation of Assimp vector keys at `ticks`, constant outside the keys.
Vec3 sampleVectorKeys(const aiVectorKey* keys, unsigned int count, double ticks, const Vec3& fallback) {
  if (count == 0) return fallback;
  const aiVectorKey* end = keys + count;
  const aiVectorKey* next =
      std::upper_bound(keys, end, ticks, [](double t, const aiVectorKey& key) { return t < key.mTime; });
  if (next == keys) return toVec3(keys[0].mValue);
  if (next == end) return toVec3(keys[count - 1].mValue);
  const aiVectorKey& prev = *(next - 1);
  const double span = next->mTime - prev.mTime;
  const float u = span > 0.0 ? static_cast<float>((ticks - prev.mTime) / span) : 0.0f;
  return toVec3(prev.mValue) + u * (toVec3(next->mValue) - toVec3(prev.mValue));
}

Quat sampleQuatKeys(const aiQuatKey* keys, unsigned int count, double ticks, const Quat& fallback) {
  if (count == 0) return fallback;
  const aiQuatKey* end = keys + count;
  const aiQuatKey* next =
      std::upper_bound(keys, end, ticks, [](double t, const aiQuatKey& key) { return t < key.mTime; });
  if (next == keys) return toQuat(keys[0].mValue).normalized();
  if (next == end) return toQuat(keys[count - 1].mValue).normalized();
  const aiQuatKey& prev = *(next - 1);
  const double span = next->mTime - prev.mTime;
  const float u = span > 0.0 ? static_cast<float>((ticks - prev.mTime) / span) : 0.0f;
  // Eigen's slerp takes the shortest arc, as Assimp's own aiQuaternion::Interpolate does.
  return toQuat(prev.mValue).normalized().slerp(u, toQuat(next->mValue).normalized()).normalized();
}

// Local matrix of `node` at `ticks` (in its parent's space): the channel's keys where it has
// some, the node's own transform for components without keys.
Mat4 localAt(const aiNode* node, const aiNodeAnim* channel, double ticks) {
  if (channel == nullptr) return toMat4(node->mTransformation);
  const Transform rest = Transform::fromMatrix(toMat4(node->mTransformation));
  Transform t;
  t.translation = sampleVectorKeys(channel->mPositionKeys, channel->mNumPositionKeys, ticks, rest.translation);
  t.rotation = sampleQuatKeys(channel->mRotationKeys, channel->mNumRotationKeys, ticks, rest.rotation);
  t.scale = sampleVectorKeys(channel->mScalingKeys, channel->mNumScalingKeys, ticks, rest.scale);
  return t.toMatrix();
}

// Appends a key, or replaces the previous one when both fall on the same time (Curve keeps
// one key per time).
void appendCurveKey(std::vector<CurveKey>& keys, double time, double value) {
  CurveKey key;
  key.time = time;
  key.value = value;
  key.interpolation = Interpolation::Linear;  // Assimp 5.2 keys carry no interpolation
  if (!keys.empty() && std::abs(keys.back().time - time) < kSameTimeSeconds) {
    keys.back() = key;
  } else {
    keys.push_back(key);
  }
}

void appendRotationKey(std::vector<RotationKey>& keys, double time, const Quat& value) {
  RotationKey key;
  key.time = time;
  key.value = value.normalized();
  key.interpolation = RotationInterpolation::Slerp;
  if (!keys.empty()) key.value = alignHemisphere(key.value, keys.back().value);
  if (!keys.empty() && std::abs(keys.back().time - time) < kSameTimeSeconds) {
    keys.back() = key;
  } else {
    keys.push_back(key);
  }
}

struct Vec3Keys {
  std::vector<CurveKey> x, y, z;

  void append(double time, const Vec3& v) {
    appendCurveKey(x, time, v.x());
    appendCurveKey(y, time, v.y());
    appendCurveKey(z, time, v.z());
  }
  void moveInto(Vec3Track& track) {
    if (x.empty()) return;
    track.x.setKeys(std::move(x));
    track.y.setKeys(std::move(y));
    track.z.setKeys(std::move(z));
  }
};

std::string mimeFromHint(std::string_view hint) {
  if (hint == "png") return "image/png";
  if (hint == "jpg" || hint == "jpeg") return "image/jpeg";
  return {};
}

class AssimpSceneReader {
 public:
  AssimpSceneReader(const aiScene& ai, std::string path) : mAi(ai), mPath(std::move(path)) {}

  Result<Scene> run() {
    mScene.sourcePath = mPath;
    readNodes();
    markJoints();
    readMaterials();
    if (auto error = readMeshes()) return *error;
    readAnimations();
    if (auto problem = mScene.skeleton.validate()) return makeError(mPath + ": " + *problem);
    for (const Clip& clip : mScene.clips) {
      if (auto problem = clip.validate(mScene.skeleton.jointCount())) {
        return makeError(mPath + ": animation '" + clip.name + "': " + *problem);
      }
    }
    return std::move(mScene);
  }

 private:
  std::string uniqueName(std::string base) {
    if (base.empty()) base = "node";
    if (mUsedNames.insert(base).second) return base;
    for (int n = 1;; ++n) {
      std::string candidate = base + "." + std::to_string(n);
      if (mUsedNames.insert(candidate).second) return candidate;
    }
  }

  // Depth-first, parents before children, every real node kept. Pivot helpers are folded
  // into the real nodes below them: a node's rest local transform is the product of the
  // helpers between it and its real parent, then its own, so every model-space matrix is
  // exactly Assimp's.
  void readNodes() {
    struct Pending {
      const aiNode* node;
      int parent;
      std::vector<const aiNode*> helpersAbove;
    };
    std::vector<Pending> stack;
    stack.push_back({mAi.mRootNode, kNoParent, {}});
    while (!stack.empty()) {
      Pending item = std::move(stack.back());
      stack.pop_back();
      mAiNodeByName.emplace(std::string(nameOf(item.node->mName)), item.node);
      int parentForChildren = item.parent;
      std::vector<const aiNode*> chainForChildren;
      if (isPivotHelper(item.node)) {
        chainForChildren = std::move(item.helpersAbove);
        chainForChildren.push_back(item.node);
      } else {
        Mat4 local = Mat4::Identity();
        for (const aiNode* helper : item.helpersAbove) local = local * toMat4(helper->mTransformation);
        local = local * toMat4(item.node->mTransformation);
        const int index = mScene.skeleton.addJoint(uniqueName(std::string(nameOf(item.node->mName))), item.parent,
                                                   Transform::fromMatrix(local), NodeKind::Transform);
        item.helpersAbove.push_back(item.node);
        mChains.push_back(std::move(item.helpersAbove));
        mNodeIndex.emplace(item.node, index);
        mIndexByName.emplace(std::string(nameOf(item.node->mName)), index);
        parentForChildren = index;
      }
      // Reverse, so the first child is visited first and keeps the file's sibling order.
      for (unsigned int c = item.node->mNumChildren; c-- > 0;) {
        stack.push_back({item.node->mChildren[c], parentForChildren, chainForChildren});
      }
    }
    mRestModel = localToModel(mScene.skeleton, mScene.skeleton.restPose());
  }

  // Bones named by an aiBone are joints. A node without an aiBone whose parent is a joint is
  // a joint too when it has children (an interior bone that skins nothing, e.g. a control
  // bone), and a tip when it is a leaf (Blender's "_end" leaf bones).
  void markJoints() {
    bool weighted = false;
    for (unsigned int m = 0; m < mAi.mNumMeshes; ++m) {
      const aiMesh* mesh = mAi.mMeshes[m];
      for (unsigned int b = 0; b < mesh->mNumBones; ++b) {
        const auto it = mIndexByName.find(std::string(nameOf(mesh->mBones[b]->mName)));
        if (it != mIndexByName.end()) mScene.skeleton.setKind(it->second, NodeKind::Joint);
        weighted = true;
      }
    }
    if (!weighted && !markFbxLimbNodes()) markAnimatedNodes();
    std::vector<int> childCount(static_cast<std::size_t>(mScene.skeleton.jointCount()), 0);
    for (const int parent : mScene.skeleton.parents()) {
      if (parent != kNoParent) ++childCount[static_cast<std::size_t>(parent)];
    }
    std::vector<bool> holdsMesh(childCount.size(), false);
    for (const auto& [aiNodePtr, index] : mNodeIndex) {
      if (aiNodePtr->mNumMeshes > 0) holdsMesh[static_cast<std::size_t>(index)] = true;
    }
    for (int j = 0; j < mScene.skeleton.jointCount(); ++j) {
      const int parent = mScene.skeleton.parent(j);
      if (mScene.skeleton.kind(j) != NodeKind::Transform || parent == kNoParent) continue;
      if (mScene.skeleton.kind(parent) != NodeKind::Joint || holdsMesh[static_cast<std::size_t>(j)]) continue;
      mScene.skeleton.setKind(j, childCount[static_cast<std::size_t>(j)] > 0 ? NodeKind::Joint : NodeKind::Tip);
    }
  }

  // FBX mocap weights no mesh, so no aiBone names its bones; they are the file's LimbNodes.
  // Assimp keeps FBX's node attribute only as the "IsNull" metadata (false for a LimbNode, a
  // mesh, a camera or a light), so a node with IsNull false that holds no mesh and is no
  // camera or light is a bone; a leaf one is left to become a tip as above. False when no node
  // carries that metadata (the file is no FBX).
  bool markFbxLimbNodes() {
    const std::unordered_set<std::string> cameraOrLight = cameraAndLightNames();
    bool hasNodeAttributes = false;
    for (const auto& [aiNodePtr, index] : mNodeIndex) {
      bool isNull = true;
      if (aiNodePtr->mMetaData == nullptr || !aiNodePtr->mMetaData->Get("IsNull", isNull)) continue;
      hasNodeAttributes = true;
      if (isNull || aiNodePtr->mNumMeshes > 0 || aiNodePtr->mNumChildren == 0) continue;
      if (cameraOrLight.count(std::string(nameOf(aiNodePtr->mName))) != 0) continue;
      mScene.skeleton.setKind(index, NodeKind::Joint);
    }
    return hasNodeAttributes;
  }

  // Assimp passes on no node attribute of the other formats (Collada's type="JOINT" is
  // dropped), so in a file that weights no mesh (a Collada mocap take) the nodes its
  // animations move are its bones, unless they hold a mesh (a rigid prop) or are a camera or
  // light; the bones below them follow from their parents as above.
  void markAnimatedNodes() {
    const std::unordered_set<std::string> cameraOrLight = cameraAndLightNames();
    for (unsigned int a = 0; a < mAi.mNumAnimations; ++a) {
      const aiAnimation& animation = *mAi.mAnimations[a];
      for (unsigned int c = 0; c < animation.mNumChannels; ++c) {
        const std::string name(nameOf(animation.mChannels[c]->mNodeName));
        const auto node = mAiNodeByName.find(name);
        const auto index = mIndexByName.find(name);
        if (node == mAiNodeByName.end() || index == mIndexByName.end()) continue;
        if (node->second->mNumMeshes > 0 || cameraOrLight.count(name) != 0) continue;
        mScene.skeleton.setKind(index->second, NodeKind::Joint);
      }
    }
  }

  std::unordered_set<std::string> cameraAndLightNames() const {
    std::unordered_set<std::string> names;
    for (unsigned int c = 0; c < mAi.mNumCameras; ++c) names.emplace(nameOf(mAi.mCameras[c]->mName));
    for (unsigned int l = 0; l < mAi.mNumLights; ++l) names.emplace(nameOf(mAi.mLights[l]->mName));
    return names;
  }

  void readMaterials() {
    for (unsigned int i = 0; i < mAi.mNumMaterials; ++i) {
      const aiMaterial* source = mAi.mMaterials[i];
      Material material;
      aiString name;
      if (source->Get(AI_MATKEY_NAME, name) == AI_SUCCESS) material.name = std::string(nameOf(name));
      aiColor4D color;
      if (source->Get(AI_MATKEY_BASE_COLOR, color) == AI_SUCCESS) {
        material.baseColor = Vec4(color.r, color.g, color.b, color.a);
      } else if (source->Get(AI_MATKEY_COLOR_DIFFUSE, color) == AI_SUCCESS) {
        // Legacy materials keep transparency apart from the diffuse colour.
        float opacity = 1.0f;
        source->Get(AI_MATKEY_OPACITY, opacity);
        material.baseColor = Vec4(color.r, color.g, color.b, color.a * opacity);
      }
      aiString texturePath;
      if (source->GetTexture(aiTextureType_BASE_COLOR, 0, &texturePath) == AI_SUCCESS ||
          source->GetTexture(aiTextureType_DIFFUSE, 0, &texturePath) == AI_SUCCESS) {
        if (const aiTexture* embedded = mAi.GetEmbeddedTexture(texturePath.C_Str())) {
          // mHeight == 0 means mWidth bytes of an encoded file (PNG, JPEG), kept as they are.
          // Raw texels would need an image encoder; those textures are not imported.
          if (embedded->mHeight == 0 && embedded->pcData != nullptr) {
            const auto* bytes = reinterpret_cast<const std::uint8_t*>(embedded->pcData);
            material.textureData.assign(bytes, bytes + embedded->mWidth);
            material.textureMimeType = mimeFromHint(embedded->achFormatHint);
          }
        } else {
          material.textureUri = std::string(nameOf(texturePath));
        }
      }
      mScene.materials.push_back(std::move(material));
    }
  }

  std::optional<Error> readMeshes() {
    // Depth-first over the real nodes in skeleton order, so meshes come in a stable order.
    std::vector<std::pair<int, const aiNode*>> holders;
    for (const auto& [aiNodePtr, index] : mNodeIndex) {
      if (aiNodePtr->mNumMeshes > 0) holders.emplace_back(index, aiNodePtr);
    }
    std::sort(holders.begin(), holders.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    // A mesh referenced by several nodes (instancing) becomes one Mesh per node.
    for (const auto& [nodeIndex, holder] : holders) {
      for (unsigned int k = 0; k < holder->mNumMeshes; ++k) {
        const unsigned int meshIndex = holder->mMeshes[k];
        if (meshIndex >= mAi.mNumMeshes) continue;
        auto mesh = readMesh(*mAi.mMeshes[meshIndex], nodeIndex);
        if (!mesh) return Error{mesh.error()};
        mScene.meshes.push_back(std::move(*mesh));
      }
    }
    return std::nullopt;
  }

  Result<Mesh> readMesh(const aiMesh& source, int nodeIndex) {
    Mesh mesh;
    mesh.name = std::string(nameOf(source.mName));
    mesh.node = nodeIndex;
    if (source.mMaterialIndex < mAi.mNumMaterials) mesh.material = static_cast<int>(source.mMaterialIndex);
    mesh.positions.reserve(source.mNumVertices);
    for (unsigned int v = 0; v < source.mNumVertices; ++v) mesh.positions.push_back(toVec3(source.mVertices[v]));
    if (source.HasNormals()) {
      mesh.normals.reserve(source.mNumVertices);
      for (unsigned int v = 0; v < source.mNumVertices; ++v) mesh.normals.push_back(toVec3(source.mNormals[v]));
    }
    if (source.HasTextureCoords(0)) {
      mesh.texCoords.reserve(source.mNumVertices);
      for (unsigned int v = 0; v < source.mNumVertices; ++v) {
        mesh.texCoords.emplace_back(source.mTextureCoords[0][v].x, source.mTextureCoords[0][v].y);
      }
    }
    mesh.indices.reserve(static_cast<std::size_t>(source.mNumFaces) * 3);
    for (unsigned int f = 0; f < source.mNumFaces; ++f) {
      const aiFace& face = source.mFaces[f];
      if (face.mNumIndices != 3) continue;  // SortByPType already removed points and lines
      mesh.indices.insert(mesh.indices.end(), face.mIndices, face.mIndices + 3);
    }
    if (source.HasBones()) {
      if (auto error = readSkin(source, nodeIndex, mesh)) return *error;
    }
    return mesh;
  }

  // Model-space bind matrix of every skeleton node for one mesh: from the aiBone offset
  // where there is one (offset = mesh space → bone space at bind time), else the parent's
  // bind matrix times the rest local transform, else the rest pose. Joints that skin no
  // vertex thus keep a bind pose consistent with their skinned parents.
  std::vector<Affine> bindModels(const aiMesh& source, int meshNode) const {
    const Affine meshModel = mRestModel[static_cast<std::size_t>(meshNode)];
    std::vector<std::optional<Affine>> fromBones(mRestModel.size());
    for (unsigned int b = 0; b < source.mNumBones; ++b) {
      const auto it = mIndexByName.find(std::string(nameOf(source.mBones[b]->mName)));
      if (it == mIndexByName.end()) continue;
      const Affine offset(toMat4(source.mBones[b]->mOffsetMatrix));
      fromBones[static_cast<std::size_t>(it->second)] = meshModel * offset.inverse();
    }
    std::vector<Affine> bind(mRestModel.size());
    for (std::size_t j = 0; j < bind.size(); ++j) {
      const int parent = mScene.skeleton.parent(static_cast<int>(j));
      if (fromBones[j]) {
        bind[j] = *fromBones[j];
      } else if (parent != kNoParent) {
        bind[j] = bind[static_cast<std::size_t>(parent)] * mScene.skeleton.restLocal(static_cast<int>(j)).toAffine();
      } else {
        bind[j] = mRestModel[j];
      }
    }
    return bind;
  }

  std::optional<Error> readSkin(const aiMesh& source, int meshNode, Mesh& mesh) {
    Skin& skin = mesh.skin;
    skin.name = mesh.name;
    const Affine meshModel = mRestModel[static_cast<std::size_t>(meshNode)];
    std::unordered_map<int, std::uint16_t> skinIndexOf;
    auto addSkinJoint = [&](int node, const Mat4& inverseBind) {
      skinIndexOf.emplace(node, static_cast<std::uint16_t>(skin.joints.size()));
      skin.joints.push_back(node);
      skin.inverseBindMatrices.push_back(inverseBind);
    };
    const std::size_t vertexCount = mesh.positions.size();
    std::vector<std::vector<std::pair<std::uint16_t, float>>> influences(vertexCount);
    for (unsigned int b = 0; b < source.mNumBones; ++b) {
      const aiBone& bone = *source.mBones[b];
      const auto it = mIndexByName.find(std::string(nameOf(bone.mName)));
      if (it == mIndexByName.end()) {
        return makeError(mPath + ": mesh '" + mesh.name + "': bone '" + std::string(nameOf(bone.mName)) +
                         "' names no node of the scene");
      }
      if (skinIndexOf.count(it->second) != 0) continue;  // listed twice: its weights come once
      // aiBone::mOffsetMatrix maps mesh space to the bone's space at bind time: exactly the
      // glTF inverse bind matrix of a skinned mesh (whose node transform is ignored).
      addSkinJoint(it->second, toMat4(bone.mOffsetMatrix));
      const std::uint16_t skinJoint = skinIndexOf.at(it->second);
      for (unsigned int w = 0; w < bone.mNumWeights; ++w) {
        const aiVertexWeight& weight = bone.mWeights[w];
        if (weight.mVertexId >= vertexCount || !(weight.mWeight > 0.0f) || !std::isfinite(weight.mWeight)) continue;
        influences[weight.mVertexId].emplace_back(skinJoint, weight.mWeight);
      }
    }

    // Joints of the same skeletons that this mesh does not weight (Assimp gives them no
    // aiBone) still belong to the skin, with a bind pose derived from the hierarchy.
    const std::vector<Affine> bind = bindModels(source, meshNode);
    std::vector<bool> inSkeleton(bind.size(), false);
    for (const int joint : skin.joints) {
      int root = joint;
      while (mScene.skeleton.parent(root) != kNoParent &&
             mScene.skeleton.kind(mScene.skeleton.parent(root)) == NodeKind::Joint) {
        root = mScene.skeleton.parent(root);
      }
      inSkeleton[static_cast<std::size_t>(root)] = true;
    }
    for (int j = 0; j < mScene.skeleton.jointCount(); ++j) {
      const int parent = mScene.skeleton.parent(j);
      if (parent != kNoParent && inSkeleton[static_cast<std::size_t>(parent)] &&
          mScene.skeleton.kind(j) != NodeKind::Transform) {
        inSkeleton[static_cast<std::size_t>(j)] = true;
      }
      if (!inSkeleton[static_cast<std::size_t>(j)] || mScene.skeleton.kind(j) != NodeKind::Joint) continue;
      if (skinIndexOf.count(j) != 0) continue;
      addSkinJoint(j, (bind[static_cast<std::size_t>(j)].inverse() * meshModel).matrix());
    }

    // Vertices no bone weights follow the mesh's node rigidly, as they would unskinned:
    // its inverse bind matrix is then the identity.
    const bool hasUnweighted =
        std::any_of(influences.begin(), influences.end(), [](const auto& list) { return list.empty(); });
    if (hasUnweighted) {
      if (skinIndexOf.count(meshNode) == 0) addSkinJoint(meshNode, Mat4::Identity());
      const std::uint16_t rigid = skinIndexOf.at(meshNode);
      for (auto& list : influences) {
        if (list.empty()) list.emplace_back(rigid, 1.0f);
      }
    }
    if (skin.joints.size() > std::numeric_limits<std::uint16_t>::max()) {
      return makeError(mPath + ": mesh '" + mesh.name + "' is skinned to " + std::to_string(skin.joints.size()) +
                       " joints, more than 65535");
    }

    std::size_t perVertex = 1;
    for (const auto& list : influences) perVertex = std::max(perVertex, list.size());
    skin.influencesPerVertex = static_cast<int>(perVertex);
    skin.vertexJoints.assign(vertexCount * perVertex, 0);
    skin.vertexWeights.assign(vertexCount * perVertex, 0.0f);
    for (std::size_t v = 0; v < vertexCount; ++v) {
      auto& list = influences[v];
      // Heaviest first, so a consumer that keeps only the first few keeps the ones that matter.
      std::stable_sort(list.begin(), list.end(), [](const auto& a, const auto& b) { return a.second > b.second; });
      float sum = 0.0f;
      for (const auto& entry : list) sum += entry.second;
      for (std::size_t k = 0; k < list.size(); ++k) {
        skin.vertexJoints[v * perVertex + k] = list[k].first;
        skin.vertexWeights[v * perVertex + k] = list[k].second / sum;
      }
    }
    mesh.hasSkin = true;
    return std::nullopt;
  }

  void readAnimations() {
    for (unsigned int a = 0; a < mAi.mNumAnimations; ++a) {
      const aiAnimation& animation = *mAi.mAnimations[a];
      const double ticksPerSecond = animation.mTicksPerSecond > 0.0 ? animation.mTicksPerSecond : kDefaultTicksPerSecond;
      Clip clip;
      clip.name = std::string(nameOf(animation.mName));
      if (clip.name.empty()) clip.name = "Animation " + std::to_string(a + 1);

      std::unordered_map<const aiNode*, const aiNodeAnim*> channelOf;
      for (unsigned int c = 0; c < animation.mNumChannels; ++c) {
        const aiNodeAnim* channel = animation.mChannels[c];
        // Channels naming no node animate nothing we can show (Assimp 5.2 writes some when
        // FBX pivots are not preserved, which is why we preserve them).
        const auto it = mAiNodeByName.find(std::string(nameOf(channel->mNodeName)));
        if (it != mAiNodeByName.end()) channelOf.emplace(it->second, channel);
      }
      for (int j = 0; j < mScene.skeleton.jointCount(); ++j) {
        readTrack(clip, j, channelOf, ticksPerSecond);
      }
      double lastKey = 0.0;
      double firstKey = 0.0;
      for (const JointTrack& track : clip.tracks) {
        for (const Curve* curve : {&track.translation.x, &track.translation.y, &track.translation.z, &track.scale.x,
                                   &track.scale.y, &track.scale.z}) {
          if (curve->empty()) continue;
          firstKey = std::min(firstKey, curve->startTime());
          lastKey = std::max(lastKey, curve->endTime());
        }
        if (!track.rotation.empty()) {
          firstKey = std::min(firstKey, track.rotation.startTime());
          lastKey = std::max(lastKey, track.rotation.endTime());
        }
      }
      // Collada counts ticks in milliseconds, which is no frame rate: its keys say the rate then.
      const bool ticksAreFrames = ticksPerSecond >= kMinFrameRate && ticksPerSecond <= kMaxFrameRate;
      clip.frameRate = ticksAreFrames ? ticksPerSecond : inferFrameRate(keyTimes(clip));
      // Assimp measures mDuration from tick 0, whatever the first key.
      clip.startTime = firstKey;
      clip.endTime = std::max(lastKey, animation.mDuration / ticksPerSecond);
      mScene.clips.push_back(std::move(clip));
    }
  }

  void readTrack(Clip& clip, int joint, const std::unordered_map<const aiNode*, const aiNodeAnim*>& channelOf,
                 double ticksPerSecond) {
    const std::vector<const aiNode*>& chain = mChains[static_cast<std::size_t>(joint)];
    std::vector<const aiNodeAnim*> channels(chain.size(), nullptr);
    bool animated = false;
    for (std::size_t i = 0; i < chain.size(); ++i) {
      const auto it = channelOf.find(chain[i]);
      if (it == channelOf.end()) continue;
      channels[i] = it->second;
      animated = true;
    }
    if (!animated) return;

    Vec3Keys translation;
    Vec3Keys scale;
    std::vector<RotationKey> rotation;
    if (chain.size() == 1) {
      // No pivot helpers: the keys as they are.
      const aiNodeAnim& channel = *channels[0];
      for (unsigned int k = 0; k < channel.mNumPositionKeys; ++k) {
        translation.append(channel.mPositionKeys[k].mTime / ticksPerSecond, toVec3(channel.mPositionKeys[k].mValue));
      }
      for (unsigned int k = 0; k < channel.mNumRotationKeys; ++k) {
        appendRotationKey(rotation, channel.mRotationKeys[k].mTime / ticksPerSecond,
                          toQuat(channel.mRotationKeys[k].mValue));
      }
      for (unsigned int k = 0; k < channel.mNumScalingKeys; ++k) {
        scale.append(channel.mScalingKeys[k].mTime / ticksPerSecond, toVec3(channel.mScalingKeys[k].mValue));
      }
    } else {
      // Pivot helpers fold into this joint: at every key time of any channel in the chain,
      // the joint's local transform is the product of the chain, each member at that time.
      std::vector<double> ticks;
      for (const aiNodeAnim* channel : channels) {
        if (channel == nullptr) continue;
        for (unsigned int k = 0; k < channel->mNumPositionKeys; ++k) ticks.push_back(channel->mPositionKeys[k].mTime);
        for (unsigned int k = 0; k < channel->mNumRotationKeys; ++k) ticks.push_back(channel->mRotationKeys[k].mTime);
        for (unsigned int k = 0; k < channel->mNumScalingKeys; ++k) ticks.push_back(channel->mScalingKeys[k].mTime);
      }
      std::sort(ticks.begin(), ticks.end());
      ticks.erase(std::unique(ticks.begin(), ticks.end()), ticks.end());
      for (const double tick : ticks) {
        Mat4 local = Mat4::Identity();
        for (std::size_t i = 0; i < chain.size(); ++i) local = local * localAt(chain[i], channels[i], tick);
        const Transform t = Transform::fromMatrix(local);
        const double time = tick / ticksPerSecond;
        translation.append(time, t.translation);
        appendRotationKey(rotation, time, t.rotation);
        scale.append(time, t.scale);
      }
    }
    // readAnimations visits each joint once, so each animated joint gets a new track: no look-up.
    JointTrack& track = clip.tracks.emplace_back();
    track.joint = joint;
    translation.moveInto(track.translation);
    scale.moveInto(track.scale);
    if (!rotation.empty()) track.rotation.setKeys(std::move(rotation));
  }

  const aiScene& mAi;
  std::string mPath;
  Scene mScene;
  std::unordered_set<std::string> mUsedNames;
  std::unordered_map<const aiNode*, int> mNodeIndex;
  // First real node with each name in the file (aiBone and aiNodeAnim refer by name).
  std::unordered_map<std::string, int> mIndexByName;
  // Every node of the file, helpers included, by name (animation channels target helpers).
  std::unordered_map<std::string, const aiNode*> mAiNodeByName;
  // Per skeleton node: the pivot helpers folded into it, top-down, then its own aiNode.
  std::vector<std::vector<const aiNode*>> mChains;
  std::vector<Affine> mRestModel;
};

}  // namespace

Result<Scene> importWithAssimpInProcess(const std::string& path) {
  try {
    Assimp::Importer importer;
    // Keep FBX pivots as helper nodes (the default) and fold them ourselves. Turning this
    // off is not equivalent in Assimp 5.2: nodes are collapsed, but animation channels of
    // pivoted nodes still target the helper names, so those joints would lose their motion.
    importer.SetPropertyBool(AI_CONFIG_IMPORT_FBX_PRESERVE_PIVOTS, true);
    // Bones that weight no vertex keep their aiBone and so their bind (offset) matrix.
    importer.SetPropertyBool(AI_CONFIG_IMPORT_REMOVE_EMPTY_BONES, false);
    // A file without meshes (a Collada mocap take) would get Assimp's made-up skeleton mesh,
    // pyramids skinned to the nodes, shown and exported as if the file held them.
    importer.SetPropertyBool(AI_CONFIG_IMPORT_NO_SKELETON_MESHES, true);
    importer.SetPropertyInteger(AI_CONFIG_PP_SBP_REMOVE, aiPrimitiveType_POINT | aiPrimitiveType_LINE);
    const aiScene* scene = importer.ReadFile(path, kPostProcess);
    if (scene == nullptr) {
      const std::string reason = importer.GetErrorString();
      // Assimp catches the std::bad_alloc of a runaway allocation and keeps only its what().
      if (reason.find("bad_alloc") != std::string::npos) return makeError(importErrorLine(path, kTooLarge));
      return makeError(importErrorLine(path, reason.empty() ? std::string("Assimp could not read the file") : reason));
    }
    if (scene->mRootNode == nullptr) return makeError(path + ": the file holds no node hierarchy");
    return AssimpSceneReader(*scene, path).run();
  } catch (const std::bad_alloc&) {
    return makeError(importErrorLine(path, kTooLarge));
  } catch (const std::exception& e) {
    return makeError(importErrorLine(path, e.what()));
  }
}

}  // namespace articula
