#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <assimp/Importer.hpp>
#include <assimp/config.h>
#include <assimp/postprocess.h>
#include <assimp/scene.h>

#include <algorithm>

#include "core/anim/clip.h"
#include "core/bake/contact_detection.h"
#include "core/io/import.h"
#include "core/rig/humanoid_rig.h"

namespace articula {
namespace {

const std::string kDataDir = std::string(ARTICULA_TEST_DATA_DIR) + "/";

Vec3 toVec3(const aiVector3D& v) { return Vec3(v.x, v.y, v.z); }

Affine toAffine(const aiMatrix4x4& m) {
  Mat4 out;
  for (int r = 0; r < 4; ++r) {
    for (int c = 0; c < 4; ++c) out(r, c) = m[static_cast<unsigned>(r)][static_cast<unsigned>(c)];
  }
  return Affine(out);
}

Affine globalOf(const aiNode* node) {
  Affine model = toAffine(node->mTransformation);
  for (const aiNode* n = node->mParent; n != nullptr; n = n->mParent) model = toAffine(n->mTransformation) * model;
  return model;
}

const aiNode* nodeHoldingMesh(const aiNode* node, unsigned int mesh) {
  for (unsigned int i = 0; i < node->mNumMeshes; ++i) {
    if (node->mMeshes[i] == mesh) return node;
  }
  for (unsigned int c = 0; c < node->mNumChildren; ++c) {
    if (const aiNode* found = nodeHoldingMesh(node->mChildren[c], mesh)) return found;
  }
  return nullptr;
}

// Skins every vertex with our imported rest pose (Σ w · model(joint) · inverseBind · v) and
// compares it with Assimp's own reading of the same file: Σ w · global(bone node) · offset · v
// over its raw node tree, $AssimpFbx$ pivot helpers included, and global(mesh node) · v for
// unweighted vertices. This checks the hierarchy, pivot folding, inverse bind matrices and
// weights at once. (It does not assume rest = bind: in animation_with_skeleton.fbx, Bone.005
// and Bone.006 rest away from their bind pose, and box_nested_animation.dae has a
// bind-shape matrix.) A transposed or mis-ordered matrix fails this by whole units.
void expectRestSkinningMatchesAssimp(const Scene& scene, const std::string& path, float tolerance) {
  Assimp::Importer importer;
  importer.SetPropertyBool(AI_CONFIG_IMPORT_FBX_PRESERVE_PIVOTS, true);
  importer.SetPropertyBool(AI_CONFIG_IMPORT_REMOVE_EMPTY_BONES, false);
  importer.SetPropertyInteger(AI_CONFIG_PP_SBP_REMOVE, aiPrimitiveType_POINT | aiPrimitiveType_LINE);
  const aiScene* raw = importer.ReadFile(path, aiProcess_Triangulate | aiProcess_SortByPType |
                                                   aiProcess_JoinIdenticalVertices | aiProcess_GenSmoothNormals |
                                                   aiProcess_ValidateDataStructure | aiProcess_FlipUVs);
  ASSERT_NE(raw, nullptr) << importer.GetErrorString();

  const auto model = localToModel(scene.skeleton, scene.skeleton.restPose());
  int skinned = 0;
  for (unsigned int m = 0; m < raw->mNumMeshes; ++m) {
    const aiMesh& source = *raw->mMeshes[m];
    if (source.mNumBones == 0) continue;
    const auto ours = std::find_if(scene.meshes.begin(), scene.meshes.end(), [&](const Mesh& mesh) {
      return mesh.hasSkin && mesh.name == source.mName.C_Str() && mesh.vertexCount() == source.mNumVertices;
    });
    ASSERT_NE(ours, scene.meshes.end()) << source.mName.C_Str();
    ++skinned;

    std::vector<Vec3> reference(source.mNumVertices, Vec3::Zero());
    std::vector<float> referenceWeight(source.mNumVertices, 0.0f);
    for (unsigned int b = 0; b < source.mNumBones; ++b) {
      const aiBone& bone = *source.mBones[b];
      const aiNode* boneNode = raw->mRootNode->FindNode(bone.mName);
      ASSERT_NE(boneNode, nullptr) << bone.mName.C_Str();
      const Affine skinning = globalOf(boneNode) * toAffine(bone.mOffsetMatrix);
      for (unsigned int w = 0; w < bone.mNumWeights; ++w) {
        const aiVertexWeight& weight = bone.mWeights[w];
        reference[weight.mVertexId] += weight.mWeight * (skinning * toVec3(source.mVertices[weight.mVertexId]));
        referenceWeight[weight.mVertexId] += weight.mWeight;
      }
    }
    const Affine meshGlobal = globalOf(nodeHoldingMesh(raw->mRootNode, m));

    const Mesh& mesh = *ours;
    const Skin& skin = mesh.skin;
    ASSERT_EQ(skin.joints.size(), skin.inverseBindMatrices.size());
    const auto n = static_cast<std::size_t>(skin.influencesPerVertex);
    ASSERT_GE(n, 1u);
    ASSERT_EQ(skin.vertexWeights.size(), mesh.vertexCount() * n);
    for (std::size_t v = 0; v < mesh.vertexCount(); ++v) {
      Vec3 skinnedPosition = Vec3::Zero();
      float weightSum = 0.0f;
      for (std::size_t k = 0; k < n; ++k) {
        const float w = skin.vertexWeights[v * n + k];
        const std::size_t s = skin.vertexJoints[v * n + k];
        ASSERT_LT(s, skin.joints.size());
        weightSum += w;
        const Affine jointModel = model[static_cast<std::size_t>(skin.joints[s])];
        skinnedPosition += w * (jointModel * Affine(skin.inverseBindMatrices[s]) * mesh.positions[v]);
      }
      ASSERT_NEAR(weightSum, 1.0f, 1e-5f);
      const Vec3 expected = referenceWeight[v] > 0.0f ? Vec3(reference[v] / referenceWeight[v])
                                                       : Vec3(meshGlobal * toVec3(source.mVertices[v]));
      ASSERT_LT((skinnedPosition - expected).norm(), tolerance) << mesh.name << " vertex " << v;
    }
  }
  EXPECT_GT(skinned, 0);
}

void expectNoPivotHelpers(const Scene& scene) {
  for (const std::string& name : scene.skeleton.names()) EXPECT_EQ(name.find("$AssimpFbx$"), std::string::npos) << name;
}

TEST(AssimpImport, FbxAnimationWithSkeleton) {
  const Result<Scene> scene = importWithAssimp(kDataDir + "fbx/assimp/animation_with_skeleton.fbx");
  ASSERT_TRUE(scene) << scene.error();
  const Skeleton& s = scene->skeleton;
  EXPECT_FALSE(s.validate().has_value());
  expectNoPivotHelpers(*scene);
  // Bone, Bone.001 … Bone.013: 14 aiBones that all weight vertices (the README's 13 counts
  // differently; the file's mesh lists 14 deformers). Blender's "_end" leaf bones are tips.
  EXPECT_EQ(s.boneCount(), 14);
  EXPECT_EQ(scene->skeletonCount(), 1);
  EXPECT_EQ(s.kind(s.findJoint("Bone.006_end")), NodeKind::Tip);
  EXPECT_EQ(s.kind(s.findJoint("Armature")), NodeKind::Transform);
  EXPECT_EQ(s.kind(s.findJoint("Cube")), NodeKind::Transform);
  EXPECT_TRUE(scene->rotationOrders.empty());

  ASSERT_EQ(scene->meshes.size(), 1u);
  const Mesh& mesh = scene->meshes[0];
  EXPECT_EQ(mesh.vertexCount(), 2464u);
  EXPECT_EQ(mesh.node, s.findJoint("Cube"));
  EXPECT_EQ(mesh.normals.size(), mesh.vertexCount());
  EXPECT_EQ(mesh.indices.size() % 3, 0u);
  ASSERT_TRUE(mesh.hasSkin);
  EXPECT_EQ(mesh.skin.joints.size(), 14u);
  ASSERT_EQ(mesh.material, 0);
  ASSERT_EQ(scene->materials.size(), 1u);
  EXPECT_EQ(scene->materials[0].name, "Material");
  EXPECT_TRUE(scene->materials[0].baseColor.isApprox(Vec4(0.8f, 0.8f, 0.8f, 1.0f), 1e-3f));
  expectRestSkinningMatchesAssimp(*scene, kDataDir + "fbx/assimp/animation_with_skeleton.fbx", 1e-3f * scene->characterHeight());

  ASSERT_EQ(scene->clips.size(), 1u);
  const Clip& clip = scene->clips[0];
  EXPECT_EQ(clip.name, "Armature|ArmatureAction");
  EXPECT_DOUBLE_EQ(clip.frameRate, 24.0);
  EXPECT_NEAR(clip.duration(), 20.0 / 24.0, 1e-6);
  EXPECT_EQ(clip.tracks.size(), 15u);
  EXPECT_FALSE(clip.validate(s.jointCount()).has_value());
  const JointTrack* animated = clip.findTrack(s.findJoint("Bone.005"));
  ASSERT_NE(animated, nullptr);
  EXPECT_EQ(animated->rotation.size(), 14u);
  EXPECT_EQ(animated->rotation.keys()[0].interpolation, RotationInterpolation::Slerp);
  EXPECT_EQ(animated->translation.x.keys()[0].interpolation, Interpolation::Linear);
}

TEST(AssimpImport, FbxHuesitos) {
  const Result<Scene> scene = importScene(kDataDir + "fbx/assimp/huesitos.fbx");
  ASSERT_TRUE(scene) << scene.error();
  const Skeleton& s = scene->skeleton;
  EXPECT_FALSE(s.validate().has_value());
  expectNoPivotHelpers(*scene);
  EXPECT_EQ(s.boneCount(), 9);
  EXPECT_EQ(s.kind(s.findJoint("Bone.005")), NodeKind::Joint);  // weights nothing, still a bone
  EXPECT_EQ(s.kind(s.findJoint("Bone.008_end")), NodeKind::Tip);
  EXPECT_EQ(scene->materials.size(), 1u);
  expectRestSkinningMatchesAssimp(*scene, kDataDir + "fbx/assimp/huesitos.fbx", 1e-3f * scene->characterHeight());

  ASSERT_EQ(scene->clips.size(), 1u);
  const Clip& clip = scene->clips[0];
  EXPECT_EQ(clip.name, "Armature|Action");
  EXPECT_DOUBLE_EQ(clip.frameRate, 25.0);
  EXPECT_NEAR(clip.duration(), 1.56, 1e-6);
  EXPECT_EQ(clip.tracks.size(), 10u);

  // The animation moves the bones: some joint's model position changes over the clip.
  ClipSampler sampler(&clip);
  Pose start(s.restPose().begin(), s.restPose().end());
  Pose middle = start;
  sampler.sample(0.0, start);
  sampler.sample(0.8, middle);
  const auto startModel = localToModel(s, start);
  const auto middleModel = localToModel(s, middle);
  float largestMove = 0.0f;
  for (int j = 0; j < s.jointCount(); ++j) {
    largestMove = std::max(largestMove, (startModel[static_cast<std::size_t>(j)].translation() -
                                         middleModel[static_cast<std::size_t>(j)].translation()).norm());
  }
  EXPECT_GT(largestMove, 0.01f * scene->characterHeight());
}

TEST(AssimpImport, ColladaBoxNestedAnimation) {
  const Result<Scene> scene = importScene(kDataDir + "collada/assimp/box_nested_animation.dae");
  ASSERT_TRUE(scene) << scene.error();
  const Skeleton& s = scene->skeleton;
  EXPECT_FALSE(s.validate().has_value());
  EXPECT_EQ(s.boneCount(), 1);
  EXPECT_EQ(s.kind(s.findJoint("Armature_Bone")), NodeKind::Joint);
  ASSERT_EQ(scene->meshes.size(), 1u);
  expectRestSkinningMatchesAssimp(*scene, kDataDir + "collada/assimp/box_nested_animation.dae", 1e-4f);

  ASSERT_EQ(scene->clips.size(), 1u);
  const Clip& clip = scene->clips[0];
  // Collada counts ticks in milliseconds; the clip starts at 0 like Assimp's mDuration. The
  // frame rate is the keys' own: Blender wrote them 1/24 s apart (it was 30, the default for
  // a file that does not say, before the keys were asked).
  EXPECT_NEAR(clip.duration(), 1.6667, 1e-3);
  EXPECT_DOUBLE_EQ(clip.frameRate, 24.0);
  const JointTrack* bone = clip.findTrack(s.findJoint("Armature_Bone"));
  ASSERT_NE(bone, nullptr);
  EXPECT_EQ(bone->rotation.size(), 40u);
  EXPECT_NEAR(bone->rotation.startTime(), 1.0 / 24.0, 1e-4);
}

// Assimp 5.2 has no aiAnimInterpolation (it arrived in 5.3): the STEP sampler of this file
// comes through as plain keys, imported as Linear. The key times are exact.
TEST(AssimpImport, ColladaCtsStepAndBezier) {
  struct Case {
    const char* file;
    std::vector<double> times;
  };
  for (const Case& c : {Case{"animation_interpolation_step.dae", {0.0, 0.7, 1.6, 2.5}},
                        Case{"animation_interpolation_bezier.dae", {0.0, 0.8, 2.5}}}) {
    const Result<Scene> scene = importScene(kDataDir + "collada/khronos-cts/" + c.file);
    ASSERT_TRUE(scene) << scene.error();
    const Skeleton& s = scene->skeleton;
    EXPECT_EQ(s.boneCount(), 0) << c.file;  // rigid scene
    EXPECT_EQ(scene->skeletonCount(), 0);
    const int prop = s.findJoint("prop");
    ASSERT_NE(prop, -1);
    EXPECT_EQ(s.kind(prop), NodeKind::Transform);
    ASSERT_EQ(scene->meshes.size(), 1u);
    EXPECT_FALSE(scene->meshes[0].hasSkin);
    EXPECT_EQ(scene->meshes[0].node, prop);

    ASSERT_EQ(scene->clips.size(), 1u);
    const Clip& clip = scene->clips[0];
    EXPECT_NEAR(clip.duration(), 2.5, 1e-9) << c.file;
    const JointTrack* track = clip.findTrack(prop);
    ASSERT_NE(track, nullptr);
    const auto& keys = track->translation.x.keys();
    ASSERT_EQ(keys.size(), c.times.size()) << c.file;
    for (std::size_t k = 0; k < keys.size(); ++k) {
      // Assimp's Collada reader parses key times as float: exact to float precision.
      EXPECT_NEAR(keys[k].time, c.times[k], 1e-6) << c.file;
      EXPECT_EQ(keys[k].interpolation, Interpolation::Linear);
    }
    EXPECT_NEAR(keys.front().value, -50.0, 1e-6);
    EXPECT_NEAR(keys.back().value, 50.0, 1e-6);
  }
}

// A Collada mocap take weights no mesh and Assimp keeps no node type, so its bones are the
// nodes its animation moves; before, Assimp's made-up skeleton mesh (pyramids) came in as the
// file's mesh and its root bone as a plain node. Blender wrote it from CMU 02_01's BVH, so
// joints, frames and steps are the BVH's.
TEST(AssimpImport, ColladaMocapArmatureIsASkeleton) {
  const Result<Scene> scene = importScene(kDataDir + "collada/cmu-blender/02_01_armature.dae");
  ASSERT_TRUE(scene) << scene.error();
  const Result<Scene> bvh = importScene(kDataDir + "bvh/cmu-mb-2010/02_01.bvh");
  ASSERT_TRUE(bvh) << bvh.error();
  const Skeleton& s = scene->skeleton;
  EXPECT_FALSE(s.validate().has_value());
  EXPECT_TRUE(scene->meshes.empty());
  EXPECT_EQ(s.boneCount(), bvh->skeleton.boneCount());
  EXPECT_EQ(s.kind(s.findJoint("_2_01_Hips")), NodeKind::Joint);
  EXPECT_EQ(s.kind(s.findJoint("_2_01_LeftToeBase")), NodeKind::Joint);

  ASSERT_EQ(scene->clips.size(), 1u);
  Clip clip = scene->clips.front();
  EXPECT_DOUBLE_EQ(clip.frameRate, 120.0);  // from the keys: Collada counts ticks in milliseconds
  EXPECT_NEAR(clip.frameCount(), bvh->clips.front().frameCount(), 2);

  const Result<RigDefinition> rig = buildHumanoidRig(s);
  ASSERT_TRUE(rig) << rig.error();
  const Result<std::vector<FootJoints>> feet = humanoidFeet(s);
  ASSERT_TRUE(feet) << feet.error();
  ContactDetectionOptions options;
  options.upModel = rig->grounding.upModel;
  const Result<ContactDetection> contacts = detectContacts(*scene, clip, *feet, options);
  ASSERT_TRUE(contacts) << contacts.error();
  ASSERT_EQ(contacts->feet.size(), 2u);
  EXPECT_EQ(contacts->feet[0].foot.size(), 3u);  // the steps DetectContacts.CmuWalkFindsEachStep counts
  EXPECT_EQ(contacts->feet[1].foot.size(), 3u);
}

TEST(AssimpImportErrors, LibraryAnimationClipsFailsWithAssimpsMessage) {
  const std::string path = kDataDir + "collada/assimp/library_animation_clips.dae";
  const Result<Scene> scene = importScene(path);
  ASSERT_FALSE(scene);
  EXPECT_EQ(scene.error().rfind(path + ": ", 0), 0u) << scene.error();
  EXPECT_NE(scene.error().find("Cannot parse string"), std::string::npos) << scene.error();
}

TEST(AssimpImportErrors, TruncatedFbx) {
  const std::filesystem::path dir = std::filesystem::path(ARTICULA_BINARY_DIR) / "test_io_assimp_tmp";
  std::filesystem::create_directories(dir);
  std::ifstream in(kDataDir + "fbx/assimp/huesitos.fbx", std::ios::binary);
  const std::string bytes{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  for (const std::size_t keep : {std::size_t{0}, std::size_t{20}, std::size_t{5000}, bytes.size() / 2}) {
    const std::string path = (dir / ("truncated_" + std::to_string(keep) + ".fbx")).string();
    std::ofstream(path, std::ios::binary).write(bytes.data(), static_cast<std::streamsize>(keep));
    const Result<Scene> scene = importScene(path);
    ASSERT_FALSE(scene) << keep;
    EXPECT_EQ(scene.error().rfind(path + ": ", 0), 0u) << scene.error();
    EXPECT_GT(scene.error().size(), path.size() + 2) << "no reason given";
  }
  std::filesystem::remove_all(dir);
}

TEST(AssimpImportErrors, MissingFile) {
  const std::string path = kDataDir + "fbx/assimp/no_such_file.fbx";
  const Result<Scene> direct = importWithAssimp(path);
  ASSERT_FALSE(direct);
  EXPECT_EQ(direct.error().rfind(path + ": ", 0), 0u) << direct.error();
  const Result<Scene> dispatched = importScene(path);
  ASSERT_FALSE(dispatched);
  EXPECT_NE(dispatched.error().find(path), std::string::npos);
}

}  // namespace
}  // namespace articula
