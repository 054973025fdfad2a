#include "core/samples/mannequin.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <tuple>

namespace articula {
namespace {

constexpr const char* kConventionalNames[] = {
    "Hips",         "Spine",         "Spine1",     "Spine2",      "Neck",        "Head",
    "LeftShoulder", "LeftArm",       "LeftForeArm", "LeftHand",   "RightShoulder", "RightArm",
    "RightForeArm", "RightHand",     "LeftUpLeg",  "LeftLeg",     "LeftFoot",    "LeftToeBase",
    "RightUpLeg",   "RightLeg",      "RightFoot",  "RightToeBase"};

class MannequinTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { scene = new Scene(makeMannequin()); }
  static void TearDownTestSuite() {
    delete scene;
    scene = nullptr;
  }

  static const Skeleton& skeleton() { return scene->skeleton; }
  static const Mesh& mesh() { return scene->meshes.front(); }
  static const Clip& walk() { return scene->clips.front(); }

  // Model-space joints of the walk at time t.
  static std::vector<Affine> walkModel(ClipSampler& sampler, double t) {
    Pose pose(skeleton().restPose().begin(), skeleton().restPose().end());
    sampler.sample(t, pose);
    return localToModel(skeleton(), pose);
  }

  static Scene* scene;
};

Scene* MannequinTest::scene = nullptr;

TEST_F(MannequinTest, SkeletonValidatesWithConventionalNames) {
  const auto error = skeleton().validate();
  EXPECT_FALSE(error.has_value()) << *error;
  for (const char* name : kConventionalNames) EXPECT_GE(skeleton().findJoint(name), 0) << name;
  EXPECT_EQ(skeleton().parent(skeleton().findJoint("Hips")), kNoParent);
  EXPECT_GE(skeleton().boneCount(), 20);
  EXPECT_LE(skeleton().boneCount(), 24);
  EXPECT_EQ(scene->skeletonCount(), 1);
  // Rest rotations are the identity: bone offsets are translations (see mannequin.h).
  for (const Transform& t : skeleton().restPose()) EXPECT_TRUE(t.rotation.isApprox(Quat::Identity()));
}

TEST_F(MannequinTest, StandsOnTheGroundFacingZWithLeftOnPlusX) {
  const auto model = localToModel(skeleton(), skeleton().restPose());
  const auto at = [&](const char* name) { return model[static_cast<std::size_t>(skeleton().findJoint(name))].translation(); };
  EXPECT_NEAR(scene->characterHeight(), 1.75f, 0.05f * 1.75f);
  EXPECT_GT(at("LeftUpLeg").x(), 0.0f);
  EXPECT_GT(at("LeftHand").x(), 0.0f);
  EXPECT_LT(at("RightHand").x(), 0.0f);
  EXPECT_GT(at("LeftToeBase").z(), at("LeftFoot").z());
  EXPECT_GE(at("LeftToeBase").y(), 0.0f);
  // A-pose: the hand hangs about 45° below the shoulder.
  const Vec3 arm = at("LeftHand") - at("LeftArm");
  EXPECT_NEAR(std::atan2(-arm.y(), arm.x()), 0.25f * kPi, 0.05f);
}

TEST_F(MannequinTest, MeshIsSkinnedWithNormalisedWeights) {
  ASSERT_EQ(scene->meshes.size(), 1u);
  const Mesh& m = mesh();
  EXPECT_EQ(m.node, -1);
  EXPECT_TRUE(m.hasSkin);
  ASSERT_EQ(scene->materials.size(), 1u);
  EXPECT_EQ(m.material, 0);
  EXPECT_TRUE(scene->materials[0].textureUri.empty());
  EXPECT_TRUE(scene->materials[0].textureData.empty());

  EXPECT_GE(m.vertexCount(), 2000u);
  EXPECT_LE(m.vertexCount(), 10000u);
  ASSERT_EQ(m.normals.size(), m.vertexCount());
  ASSERT_EQ(m.texCoords.size(), m.vertexCount());
  ASSERT_EQ(m.indices.size() % 3, 0u);
  for (std::uint32_t i : m.indices) ASSERT_LT(i, m.vertexCount());
  for (const Vec3& n : m.normals) EXPECT_NEAR(n.norm(), 1.0f, 1e-4f);
  for (const Vec2& uv : m.texCoords) {
    EXPECT_TRUE(uv.x() >= 0.0f && uv.x() <= 1.0f && uv.y() >= 0.0f && uv.y() <= 1.0f);
  }

  const Skin& skin = m.skin;
  ASSERT_EQ(skin.influencesPerVertex, 4);
  ASSERT_EQ(skin.joints.size(), skin.inverseBindMatrices.size());
  ASSERT_EQ(skin.vertexJoints.size(), 4 * m.vertexCount());
  ASSERT_EQ(skin.vertexWeights.size(), 4 * m.vertexCount());
  std::set<int> influencing;
  for (std::size_t v = 0; v < m.vertexCount(); ++v) {
    float sum = 0.0f;
    for (std::size_t k = 0; k < 4; ++k) {
      const float w = skin.vertexWeights[4 * v + k];
      ASSERT_GE(w, 0.0f);
      ASSERT_LT(skin.vertexJoints[4 * v + k], skin.joints.size());
      sum += w;
      if (w > 0.0f) influencing.insert(skin.joints[skin.vertexJoints[4 * v + k]]);
    }
    ASSERT_NEAR(sum, 1.0f, 1e-5f) << "vertex " << v;
  }
  EXPECT_LE(m.maxInfluences(), 4);
  // Joints bend smoothly: some vertices blend two or more bones.
  EXPECT_GE(m.maxInfluences(), 2);
  for (const char* name : {"Hips", "Spine2", "Head", "LeftForeArm", "RightLeg", "LeftFoot", "RightToeBase"}) {
    EXPECT_TRUE(influencing.count(skeleton().findJoint(name))) << name;
  }
}

TEST_F(MannequinTest, RestPoseSkinningReproducesTheMesh) {
  const Mesh& m = mesh();
  const auto model = localToModel(skeleton(), skeleton().restPose());
  for (std::size_t v = 0; v < m.vertexCount(); ++v) {
    Vec3 skinned = Vec3::Zero();
    for (std::size_t k = 0; k < 4; ++k) {
      const std::size_t slot = m.skin.vertexJoints[4 * v + k];
      const Mat4 skinning = model[static_cast<std::size_t>(m.skin.joints[slot])].matrix() * m.skin.inverseBindMatrices[slot];
      skinned += m.skin.vertexWeights[4 * v + k] * (skinning * m.positions[v].homogeneous()).head<3>();
    }
    ASSERT_LT((skinned - m.positions[v]).norm(), 1e-5f) << "vertex " << v;
  }
}

// Welding coincident positions, every edge is shared by exactly two triangles with opposite
// directions (closed, consistently wound), and the enclosed volume is positive (outward).
TEST_F(MannequinTest, MeshIsClosedAndOutwardFacing) {
  const Mesh& m = mesh();
  std::map<std::tuple<long, long, long>, std::uint32_t> weld;
  std::vector<std::uint32_t> welded(m.vertexCount());
  for (std::size_t v = 0; v < m.vertexCount(); ++v) {
    const Vec3 q = m.positions[v] * 1e5f;
    const auto key = std::make_tuple(std::lround(q.x()), std::lround(q.y()), std::lround(q.z()));
    welded[v] = weld.emplace(key, static_cast<std::uint32_t>(v)).first->second;
  }
  std::map<std::pair<std::uint32_t, std::uint32_t>, int> directed;
  double volume = 0.0;
  for (std::size_t i = 0; i < m.indices.size(); i += 3) {
    const std::uint32_t a = welded[m.indices[i]], b = welded[m.indices[i + 1]], c = welded[m.indices[i + 2]];
    ASSERT_TRUE(a != b && b != c && a != c) << "degenerate triangle " << i / 3;
    ++directed[{a, b}];
    ++directed[{b, c}];
    ++directed[{c, a}];
    volume += m.positions[m.indices[i]].dot(m.positions[m.indices[i + 1]].cross(m.positions[m.indices[i + 2]])) / 6.0;
  }
  for (const auto& [edge, count] : directed) {
    ASSERT_EQ(count, 1) << "edge " << edge.first << "-" << edge.second;
    const auto opposite = directed.find({edge.second, edge.first});
    ASSERT_TRUE(opposite != directed.end()) << "open edge " << edge.first << "-" << edge.second;
  }
  // A body of roughly 70 litres, counting the overlaps of the parts.
  EXPECT_GT(volume, 0.04);
  EXPECT_LT(volume, 0.15);
  RecordProperty("vertices", static_cast<int>(m.vertexCount()));
  RecordProperty("triangles", static_cast<int>(m.indices.size() / 3));
}

TEST_F(MannequinTest, WalkClipValidates) {
  ASSERT_EQ(scene->clips.size(), 1u);
  const Clip& clip = walk();
  EXPECT_EQ(clip.name, "walk");
  const auto error = clip.validate(skeleton().jointCount());
  EXPECT_FALSE(error.has_value()) << *error;
  EXPECT_DOUBLE_EQ(clip.frameRate, 30.0);
  EXPECT_GE(clip.duration(), 1.0 - 1e-9);
  EXPECT_LE(clip.duration(), 1.2 + 1e-9);
  for (const char* name : {"Hips", "Spine", "LeftUpLeg", "LeftLeg", "LeftFoot", "RightUpLeg", "RightFoot", "LeftArm",
                           "RightArm", "LeftForeArm"}) {
    const JointTrack* track = clip.findTrack(skeleton().findJoint(name));
    ASSERT_NE(track, nullptr) << name;
    ASSERT_FALSE(track->rotation.empty()) << name;
    EXPECT_EQ(track->rotation.keys().front().interpolation, RotationInterpolation::Bezier) << name;
  }
  const JointTrack* hips = clip.findTrack(skeleton().findJoint("Hips"));
  EXPECT_FALSE(hips->translation.x.empty());
  EXPECT_FALSE(hips->translation.y.empty());
  EXPECT_FALSE(hips->translation.z.empty());
  ASSERT_TRUE(clip.curves.count("contact.left_foot"));
  ASSERT_TRUE(clip.curves.count("contact.right_foot"));
}

TEST_F(MannequinTest, WalkLoopsWithRootMotion) {
  const Clip& clip = walk();
  ClipSampler sampler(&clip);
  const int hips = skeleton().findJoint("Hips");
  Pose start(skeleton().restPose().begin(), skeleton().restPose().end());
  Pose end = start;
  sampler.sample(clip.startTime, start);
  sampler.sample(clip.endTime, end);
  for (int j = 0; j < skeleton().jointCount(); ++j) {
    const auto i = static_cast<std::size_t>(j);
    EXPECT_GT(std::abs(start[i].rotation.dot(end[i].rotation)), 1.0f - 1e-6f) << skeleton().name(j);
    Vec3 travel = end[i].translation - start[i].translation;
    if (j == hips) {
      // Root motion: 1.4 m/s forward, nothing sideways or up.
      EXPECT_NEAR(travel.z() / clip.duration(), 1.4, 0.1);
      travel.z() = 0.0f;
    }
    EXPECT_LT(travel.norm(), 1e-5f) << skeleton().name(j);
  }
  for (const auto& [name, curve] : clip.curves) {
    EXPECT_NEAR(curve.evaluate(clip.startTime), curve.evaluate(clip.endTime), 1e-9) << name;
  }
}

TEST_F(MannequinTest, WalkStaysAboveTheGroundAndFeetPlant) {
  const Clip& clip = walk();
  ClipSampler sampler(&clip);
  constexpr int kSamples = 100;
  float lowest = 1.0f;
  for (int s = 0; s <= kSamples; ++s) {
    const double t = clip.startTime + clip.duration() * s / kSamples;
    const auto model = walkModel(sampler, t);
    for (const char* side : {"Left", "Right"}) {
      for (const char* part : {"Foot", "ToeBase", "Toe_End"}) {
        const int j = skeleton().findJoint(std::string(side) + part);
        lowest = std::min(lowest, model[static_cast<std::size_t>(j)].translation().y());
      }
    }
  }
  EXPECT_GE(lowest, -0.01f);
  RecordProperty("lowest_foot_joint_mm", static_cast<int>(std::lround(lowest * 1000.0f)));

  // While a foot's stride curve says planted, its ankle stays put and near its standing
  // height (model space; the root motion is in the clip, so planted means still).
  const auto rest = localToModel(skeleton(), skeleton().restPose());
  for (const char* side : {"left", "right"}) {
    const std::string joint = std::string(side) == "left" ? "LeftFoot" : "RightFoot";
    const int ankle = skeleton().findJoint(joint);
    const float restHeight = rest[static_cast<std::size_t>(ankle)].translation().y();
    const Curve& contact = clip.curves.at(std::string("contact.") + side + "_foot");
    bool planted = false;
    int plantedFrames = 0;
    Vec3 anchor = Vec3::Zero();
    float slide = 0.0f;
    float heightError = 0.0f;
    for (int s = 0; s <= kSamples; ++s) {
      const double t = clip.startTime + clip.duration() * s / kSamples;
      if (contact.evaluate(t) < 0.5) {
        planted = false;
        continue;
      }
      const Vec3 p = walkModel(sampler, t)[static_cast<std::size_t>(ankle)].translation();
      if (!planted) anchor = p;
      planted = true;
      ++plantedFrames;
      slide = std::max(slide, Vec2(p.x() - anchor.x(), p.z() - anchor.z()).norm());
      heightError = std::max(heightError, std::abs(p.y() - restHeight));
    }
    // Stance (contact above one half) covers a good third of the cycle.
    EXPECT_GE(plantedFrames, 30) << side;
    EXPECT_LT(slide, 0.03f) << side;
    EXPECT_LT(heightError, 0.02f) << side;
    RecordProperty(std::string(side) + "_ankle_slide_mm", static_cast<int>(std::lround(slide * 1000.0f)));
    RecordProperty(std::string(side) + "_ankle_height_error_mm", static_cast<int>(std::lround(heightError * 1000.0f)));
  }
}

TEST_F(MannequinTest, StrideCurvesAlternate) {
  const Clip& clip = walk();
  const Curve& left = clip.curves.at("contact.left_foot");
  const Curve& right = clip.curves.at("contact.right_foot");
  for (int f = 0; f < clip.frameCount(); ++f) {
    const double t = clip.startTime + f / clip.frameRate;
    const double l = left.evaluate(t), r = right.evaluate(t);
    EXPECT_TRUE(l >= -1e-9 && l <= 1.0 + 1e-9 && r >= -1e-9 && r <= 1.0 + 1e-9) << t;
    // Never both feet in the air at once.
    EXPECT_GT(l + r, 0.0) << t;
  }
  // The clip starts with the left foot flat under the body; half a cycle later the right.
  EXPECT_NEAR(left.evaluate(clip.startTime), 1.0, 1e-9);
  EXPECT_NEAR(right.evaluate(clip.startTime), 0.0, 1e-9);
  EXPECT_NEAR(left.evaluate(clip.startTime + 0.5 * clip.duration()), 0.0, 1e-9);
  EXPECT_NEAR(right.evaluate(clip.startTime + 0.5 * clip.duration()), 1.0, 1e-9);
}

TEST(Mannequin, IsDeterministic) {
  const Scene a = makeMannequin();
  const Scene b = makeMannequin();
  ASSERT_EQ(a.meshes[0].positions.size(), b.meshes[0].positions.size());
  for (std::size_t v = 0; v < a.meshes[0].positions.size(); ++v) ASSERT_EQ(a.meshes[0].positions[v], b.meshes[0].positions[v]);
  ASSERT_EQ(a.clips[0].keyCount(), b.clips[0].keyCount());
  const RotationTrack& ta = a.clips[0].findTrack(a.skeleton.findJoint("LeftLeg"))->rotation;
  const RotationTrack& tb = b.clips[0].findTrack(b.skeleton.findJoint("LeftLeg"))->rotation;
  for (std::size_t k = 0; k < ta.size(); ++k) ASSERT_EQ(ta.keys()[k].value.coeffs(), tb.keys()[k].value.coeffs());
}

}  // namespace
}  // namespace articula
