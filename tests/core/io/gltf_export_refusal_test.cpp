// exportGltf refuses values a glTF file cannot hold, naming where they are, and writes
// nothing: ±Infinity values, inverse bind matrices that are not invertible and a key time
// of 1e308 were all written once, as files the Khronos validator rejects, with exit 0.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <limits>
#include <string>
#include <utility>

#include "core/io/gltf_export.h"
#include "core/io/import.h"

namespace articula {
namespace {

namespace fs = std::filesystem;

Scene cesiumMan() {
  Result<Scene> scene = importScene(std::string(ARTICULA_TEST_DATA_DIR) + "/gltf/CesiumMan/CesiumMan.glb");
  EXPECT_TRUE(scene) << scene.error();
  return scene ? std::move(scene.value()) : Scene();
}

class ExportRefusal : public testing::Test {
 protected:
  void SetUp() override {
    mPath = (fs::temp_directory_path() / ("articula_refusal_" + std::to_string(::getpid()) + ".glb")).string();
    fs::remove(mPath);
    ASSERT_FALSE(mScene.clips.empty());
    ASSERT_FALSE(mScene.meshes.empty());
    ASSERT_TRUE(mScene.meshes[0].hasSkin);
  }
  void TearDown() override { fs::remove(mPath); }

  // Exports the damaged scene: refused with a message that starts with the file and holds
  // `expected`, and no file written.
  void expectRefused(const std::string& expected) {
    const std::optional<std::string> error = exportGltf(mScene, mPath);
    ASSERT_NE(error, std::nullopt) << "exported";
    EXPECT_EQ(error->rfind(mPath + ": cannot export: ", 0), 0u) << *error;
    EXPECT_NE(error->find(expected), std::string::npos) << *error;
    EXPECT_LT(error->size(), kMaxImportErrorLength) << "one line under 300 characters: " << *error;
    EXPECT_FALSE(fs::exists(mPath));
  }

  Scene mScene = cesiumMan();
  std::string mPath;
};

TEST_F(ExportRefusal, TheUndamagedSceneIsWritten) { EXPECT_EQ(exportGltf(mScene, mPath), std::nullopt); }

TEST_F(ExportRefusal, TranslationBeyondFloatRange) {
  JointTrack& track = mScene.clips[0].tracks[0];
  Curve& x = track.translation.x;
  ASSERT_FALSE(x.empty());
  CurveKey key = x.keys()[0];
  key.value = 1e300;  // finite as a double, +Infinity as the file's float
  x.setKey(0, key);
  expectRefused("clip '" + mScene.clips[0].name + "', node '" + mScene.skeleton.name(track.joint) +
                "' translation key 0: a value or handle beyond the float range");
}

// Found by the mutation run: a BVH position of -1e38 in one frame of a take baked into Bézier
// keys whose slopes (1.2e40 per second) were written as ±Infinity CUBICSPLINE tangents.
TEST_F(ExportRefusal, TangentBeyondFloatRange) {
  JointTrack& track = mScene.clips[0].tracks[0];
  Curve jump;
  for (const auto& [time, value] : {std::pair{0.0, 0.0}, {1.0 / 120.0, -1e38}, {2.0 / 120.0, -2e38}}) {
    jump.insertKey(time, value, Interpolation::Bezier);
  }
  track.translation.x = jump;
  expectRefused("clip '" + mScene.clips[0].name + "', node '" + mScene.skeleton.name(track.joint) +
                "' translation: a tangent or value beyond the float range");
}

// A rest offset of 3e38 twice along a chain is beyond float range in model space, where the
// inverse bind matrices of a skeleton without a mesh are taken.
TEST_F(ExportRefusal, RestPoseBeyondFloatRangeInModelSpace) {
  Scene skeletonOnly;
  Skeleton& skeleton = skeletonOnly.skeleton;
  Transform far;
  far.translation = Vec3(3e38f, 0.0f, 0.0f);
  const int hips = skeleton.addJoint("hips", kNoParent, Transform(), NodeKind::Joint);
  const int spine = skeleton.addJoint("spine", hips, far, NodeKind::Joint);
  skeleton.addJoint("head", spine, far, NodeKind::Joint);
  mScene = std::move(skeletonOnly);
  expectRefused("node 'head': its rest pose in model space is beyond the float range");
}

TEST_F(ExportRefusal, KeyTimeOutsideTheSaneRange) {
  JointTrack& track = mScene.clips[0].tracks[0];
  RotationTrack& rotation = track.rotation;
  ASSERT_FALSE(rotation.empty());
  RotationKey key = rotation.keys().back();
  key.time = 1e308;
  rotation.insertKey(key);
  expectRefused("node '" + mScene.skeleton.name(track.joint) + "' rotation key " + std::to_string(rotation.size() - 1) +
                ": time 1e+308 s is outside +-86400 s");
}

// Found by the mutation run: the clip's own check names the clip, and the export named it a
// second time ("clip 'walk': clip 'walk': joint 18 rotation key 6: ...").
TEST_F(ExportRefusal, ZeroLengthRotationNamesTheClipOnce) {
  JointTrack& track = mScene.clips[0].tracks[0];
  ASSERT_GT(track.rotation.size(), 1u);
  RotationKey key = track.rotation.keys()[1];
  key.value = Quat(0.0f, 0.0f, 0.0f, 0.0f);
  track.rotation.insertKey(key);
  const std::string clip = "clip '" + mScene.clips[0].name + "': ";
  expectRefused(": cannot export: " + clip + "joint " + std::to_string(track.joint) +
                " rotation key 1: zero-length rotation");
}

TEST_F(ExportRefusal, SingularInverseBindMatrix) {
  Skin& skin = mScene.meshes[0].skin;
  skin.inverseBindMatrices[1].topLeftCorner<3, 3>().setZero();
  expectRefused("the inverse bind matrix of node '" + mScene.skeleton.name(skin.joints[1]) + "' is not invertible");
}

TEST_F(ExportRefusal, InverseBindMatrixWithProjectiveLastRow) {
  Skin& skin = mScene.meshes[0].skin;
  skin.inverseBindMatrices[2](3, 0) = 0.5f;
  expectRefused("the inverse bind matrix of node '" + mScene.skeleton.name(skin.joints[2]) +
                "' has a last row other than (0 0 0 1)");
}

TEST_F(ExportRefusal, InfiniteTextureCoordinate) {
  ASSERT_FALSE(mScene.meshes[0].texCoords.empty());
  mScene.meshes[0].texCoords[5].x() = std::numeric_limits<float>::infinity();
  expectRefused("a texture coordinate is not finite");
}

TEST_F(ExportRefusal, NonFiniteBaseColour) {
  ASSERT_FALSE(mScene.materials.empty());
  mScene.materials[0].baseColor.x() = std::numeric_limits<float>::quiet_NaN();
  expectRefused("the base colour is not finite");
}

}  // namespace
}  // namespace articula
