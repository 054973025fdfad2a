#include "core/retarget/capture_convention.h"

#include <gtest/gtest.h>

#include <cmath>

#include "convention_variants.h"
#include "core/io/import.h"
#include "core/retarget/rest_pose.h"
#include "core/rig/humanoid_map.h"
#include "core/rig/humanoid_rig.h"
#include "core/skeleton/local_to_model.h"

namespace articula::test {
namespace {

Scene loadData(const std::string& relative) {
  auto scene = importScene(std::string(ARTICULA_TEST_DATA_DIR) + "/" + relative);
  EXPECT_TRUE(scene) << (scene ? "" : scene.error());
  return std::move(*scene);
}

Result<CaptureConvention> conventionOf(const Scene& scene) {
  auto map = mapHumanoid(scene.skeleton);
  if (!map) return makeError(map.error());
  return CaptureConventionJob{&scene.skeleton, &*map, scene.clips.empty() ? nullptr : &scene.clips.front(), {}}.run();
}

// The largest distance (model units) between the joints of two scenes with one skeleton
// shape over every frame of their first clips.
float maxMotionDifference(const Scene& a, const Scene& b) {
  const Clip& clipA = a.clips.front();
  const Clip& clipB = b.clips.front();
  float worst = 0.0f;
  for (int f = 0; f < clipA.frameCount(); ++f) {
    const auto modelA = localToModel(a.skeleton, poseAtFrame(a.skeleton, clipA, f));
    const auto modelB = localToModel(b.skeleton, poseAtFrame(b.skeleton, clipB, f));
    for (std::size_t j = 0; j < modelA.size(); ++j)
      worst = std::max(worst, (modelA[j].translation() - modelB[j].translation()).norm());
  }
  return worst;
}

// Upper arms' angle below horizontal (degrees) and thighs' angle from straight down, in `local`.
struct Limbs {
  float armsBelowDeg = 0.0f;
  float legsOffDownDeg = 0.0f;
};

Limbs limbsOf(const Skeleton& skeleton, const HumanoidMap& map, std::span<const Transform> local, const Vec3& up) {
  const auto model = localToModel(skeleton, local);
  auto at = [&](int j) { return Vec3(model[static_cast<std::size_t>(j)].translation()); };
  Limbs limbs;
  for (const HumanoidArm* arm : {&map.leftArm, &map.rightArm}) {
    const Vec3 d = (at(arm->forearm) - at(arm->upperArm)).normalized();
    limbs.armsBelowDeg = std::max(limbs.armsBelowDeg, std::abs(std::asin(d.dot(up))) * 180.0f / 3.14159265f);
  }
  for (const HumanoidLeg* leg : {&map.leftLeg, &map.rightLeg}) {
    const Vec3 d = (at(leg->knee) - at(leg->thigh)).normalized();
    limbs.legsOffDownDeg = std::max(limbs.legsOffDownDeg, std::acos(std::clamp(-d.dot(up), -1.0f, 1.0f)) * 180.0f / 3.14159265f);
  }
  return limbs;
}

TEST(CaptureConventionJob, DefaultIsInvalid) {
  EXPECT_TRUE(CaptureConventionJob{}.validate());
  EXPECT_FALSE(CaptureConventionJob{}.run());
  const Scene cmu = loadData("bvh/cmu-mb-2010/02_01.bvh");
  auto map = *mapHumanoid(cmu.skeleton);
  EXPECT_TRUE((CaptureConventionJob{&cmu.skeleton, nullptr, nullptr, {}}.validate()));
  EXPECT_FALSE((CaptureConventionJob{&cmu.skeleton, &map, nullptr, {}}.validate()));
  Clip empty;
  EXPECT_TRUE((CaptureConventionJob{&cmu.skeleton, &map, &empty, {}}.validate()));
}

TEST(CaptureConventionJob, CmuStandsInItsRestYUpInATPose) {
  const Scene cmu = loadData("bvh/cmu-mb-2010/02_01.bvh");
  auto c = conventionOf(cmu);
  ASSERT_TRUE(c) << c.error();
  EXPECT_EQ(c->upModel, Vec3::UnitY());
  EXPECT_EQ(c->restKind, RestPoseKind::StandingT) << c->restKindDecidedBy;
  EXPECT_NE(c->upDecidedBy.find("rest pose"), std::string::npos) << c->upDecidedBy;
  EXPECT_EQ(c->frameRate, cmu.clips.front().frameRate);
  EXPECT_TRUE(c->restToStandingModel.isApprox(Quat::Identity()));
}

TEST(CaptureConventionJob, MakeHumanIsZUp) {
  const Scene walk = loadData("bvh/makehuman/walk1.bvh");
  auto c = conventionOf(walk);
  ASSERT_TRUE(c) << c.error();
  EXPECT_EQ(c->upModel, Vec3::UnitZ());
  EXPECT_NE(c->restKind, RestPoseKind::NotStanding);
  EXPECT_EQ(c->units, "decimetres") << c->unitsDecidedBy;
}

TEST(CaptureConventionJob, ARestAlongXIsNotStandingAndTheMotionGivesTheUp) {
  const Scene cmu = loadData("bvh/cmu-mb-2010/02_01.bvh");
  const Variant lying = restAlongX(cmu);
  auto original = conventionOf(cmu);
  auto c = conventionOf(lying.scene);
  ASSERT_TRUE(c) << c.error();
  EXPECT_EQ(c->restKind, RestPoseKind::NotStanding);
  EXPECT_EQ(c->upModel, Vec3::UnitY()) << c->upDecidedBy;
  EXPECT_EQ(c->forwardModel, original->forwardModel);
  EXPECT_NE(c->upDecidedBy.find("motion"), std::string::npos) << c->upDecidedBy;
  EXPECT_NEAR(c->heightModel, original->heightModel, 1e-3f * original->heightModel);
  EXPECT_EQ(c->units, original->units);
}

TEST(CaptureConventionJob, AnAPoseRestIsStandingA) {
  const Scene cmu = loadData("bvh/cmu-mb-2010/02_01.bvh");
  auto c = conventionOf(aPoseRest(cmu).scene);
  ASSERT_TRUE(c) << c.error();
  EXPECT_EQ(c->restKind, RestPoseKind::StandingA) << c->restKindDecidedBy;
}

TEST(CaptureConventionJob, AFigureThatNeverStandsOnARestAlongXIsRefused) {
  Scene tumbling = restAlongX(loadData("bvh/cmu-mb-2010/02_01.bvh")).scene;
  // The hips tumble head over heels twice over the clip: no direction is up for long.
  Clip& clip = tumbling.clips.front();
  JointTrack& hips = clip.trackFor(mapHumanoid(tumbling.skeleton)->hips);
  std::vector<RotationKey> keys = hips.rotation.keys();
  for (RotationKey& k : keys) {
    const float turns = static_cast<float>((k.time - clip.startTime) / clip.duration());
    k.value = Quat(Eigen::AngleAxisf(4.0f * 3.14159265f * turns, Vec3::UnitZ())) * k.value;
  }
  hips.rotation.setKeys(keys);
  tumbling.sourcePath = "tumble.bvh";
  auto standing = standUpright(tumbling, 0);
  ASSERT_FALSE(standing);
  EXPECT_NE(standing.error().find("tumble.bvh: "), std::string::npos) << standing.error();
  EXPECT_NE(standing.error().find("never stands"), std::string::npos) << standing.error();
}

TEST(CaptureConventionJob, TheUsersUpFacingAndUnitsAreTakenAndSaidSo) {
  Scene cmu = loadData("bvh/cmu-mb-2010/02_01.bvh");
  const auto automatic = conventionOf(cmu);
  ASSERT_TRUE(automatic) << automatic.error();
  // The rest stands along +Y; the user says +Z is up, +X the facing, the units centimetres.
  cmu.convention = {Vec3::UnitZ(), Vec3::UnitX(), 100.0};
  auto map = *mapHumanoid(cmu.skeleton);
  auto c = conventionJobFor(cmu, map).run();
  ASSERT_TRUE(c) << c.error();
  EXPECT_EQ(c->upModel, Vec3::UnitZ());
  EXPECT_EQ(c->forwardModel, Vec3::UnitX());
  EXPECT_EQ(c->upDecidedBy, "set by the user");
  EXPECT_EQ(c->forwardDecidedBy, "set by the user");
  EXPECT_EQ(c->unitsPerMetre, 100.0);
  EXPECT_EQ(c->units, "centimetres");
  EXPECT_NE(c->unitsDecidedBy.find("set by the user"), std::string::npos) << c->unitsDecidedBy;
  // A rest that does not stand along the user's up is stood up to it, facing the user's way.
  EXPECT_EQ(c->restKind, RestPoseKind::NotStanding);
  EXPECT_TRUE((c->restToStandingModel * automatic->upModel).isApprox(Vec3::UnitZ(), 1e-5f));
  EXPECT_TRUE((c->restToStandingModel * automatic->forwardModel).isApprox(Vec3::UnitX(), 1e-5f));
  EXPECT_NEAR(c->heightModel, automatic->heightModel, 1e-4f * automatic->heightModel);
  // Only the units: up and facing stay the analysis's.
  cmu.convention = {std::nullopt, std::nullopt, 39.3701};
  c = conventionJobFor(cmu, map).run();
  ASSERT_TRUE(c) << c.error();
  EXPECT_EQ(c->upModel, automatic->upModel);
  EXPECT_EQ(c->upDecidedBy, automatic->upDecidedBy);
  EXPECT_EQ(c->units, "inches");
}

TEST(CaptureConventionJob, AFacingParallelToTheUpIsRefusedInOneLine) {
  Scene cmu = loadData("bvh/cmu-mb-2010/02_01.bvh");
  auto map = *mapHumanoid(cmu.skeleton);
  cmu.convention = {Vec3::UnitY(), -Vec3::UnitY(), std::nullopt};
  auto job = conventionJobFor(cmu, map);
  ASSERT_TRUE(job.validate());
  EXPECT_NE(job.validate()->find("the facing -Y is parallel to the up +Y"), std::string::npos) << *job.validate();
  // A facing along the up the analysis decides (the rest's +Y) is refused by run.
  cmu.convention = {std::nullopt, Vec3::UnitY(), std::nullopt};
  auto c = conventionJobFor(cmu, map).run();
  ASSERT_FALSE(c);
  EXPECT_NE(c.error().find("the facing +Y set by the user is not perpendicular to the up +Y"), std::string::npos)
      << c.error();
  cmu.convention = {Vec3(0.6f, 0.8f, 0.0f), std::nullopt, std::nullopt};
  EXPECT_TRUE(conventionJobFor(cmu, map).validate());
  cmu.convention = {std::nullopt, std::nullopt, 0.0};
  EXPECT_TRUE(conventionJobFor(cmu, map).validate());
}

TEST(CaptureConvention, AxesAndUnitsByName) {
  EXPECT_EQ(axisFromName("+X"), Vec3(Vec3::UnitX()));
  EXPECT_EQ(axisFromName("-z"), Vec3(-Vec3::UnitZ()));
  EXPECT_EQ(axisFromName("Y"), Vec3(Vec3::UnitY()));
  for (const char* bad : {"", "+", "W", "+XY", "--X", "x+"}) EXPECT_FALSE(axisFromName(bad)) << bad;
  EXPECT_EQ(unitsPerMetreFromName("cm"), 100.0);
  EXPECT_EQ(unitsPerMetreFromName("millimetres"), 1000.0);
  EXPECT_EQ(unitsPerMetreFromName("in"), 39.3701);
  EXPECT_FALSE(unitsPerMetreFromName("furlongs"));
  EXPECT_EQ(unitsName(10.0), "decimetres");
  EXPECT_EQ(unitsName(25.0), "25 units per metre");
}

TEST(RestPoseJob, DefaultIsInvalid) {
  EXPECT_TRUE(RestPoseJob{}.validate());
  EXPECT_FALSE(RestPoseJob{}.run());
  const Scene cmu = loadData("bvh/cmu-mb-2010/02_01.bvh");
  Pose shorter(cmu.skeleton.restPose().begin(), cmu.skeleton.restPose().end() - 1);
  EXPECT_TRUE((RestPoseJob{&cmu, shorter}.validate()));
  Pose zero(cmu.skeleton.restPose().begin(), cmu.skeleton.restPose().end());
  zero[3].rotation = Quat(0.0f, 0.0f, 0.0f, 0.0f);
  EXPECT_TRUE((RestPoseJob{&cmu, zero}.validate()));
}

TEST(RestPoseJob, AFrameAsTheRestKeepsEveryJointsMotion) {
  for (const Scene& scene :
       {loadData("bvh/cmu-mb-2010/02_01.bvh"), loadData("gltf/RobotExpressive/RobotExpressive.glb")}) {
    const Pose frame = poseAtFrame(scene.skeleton, scene.clips.front(), 5);
    auto rested = RestPoseJob{&scene, frame}.run();
    ASSERT_TRUE(rested) << rested.error();
    for (int j = 0; j < scene.skeleton.jointCount(); ++j)
      EXPECT_TRUE(rested->skeleton.restLocal(j).rotation.isApprox(frame[static_cast<std::size_t>(j)].rotation));
    // 0.01 mm of a 1.75 m figure.
    const float tolerance = 0.01f / 1750.0f * conventionOf(scene)->heightModel;
    for (std::size_t c = 0; c < scene.clips.size(); ++c) {
      Scene a = scene, b = *rested;
      a.clips.assign(1, scene.clips[c]);
      b.clips.assign(1, rested->clips[c]);
      EXPECT_LE(maxMotionDifference(a, b), tolerance) << scene.clips[c].name;
    }
    EXPECT_EQ(rested->meshes.size(), scene.meshes.size());
  }
}

TEST(RestPoseJob, ATPoseOfALyingRestStandsWithArmsOutAndKeepsTheMotion) {
  const Scene lying = restAlongX(loadData("bvh/cmu-mb-2010/02_01.bvh")).scene;
  auto map = *mapHumanoid(lying.skeleton);
  auto c = *conventionOf(lying);
  const Pose tpose = tPoseOf(lying.skeleton, map, standingReferencePose(lying.skeleton, map, c), c.upModel,
                             c.forwardModel);
  const Limbs limbs = limbsOf(lying.skeleton, map, tpose, c.upModel);
  EXPECT_LT(limbs.armsBelowDeg, 0.1f);
  EXPECT_LT(limbs.legsOffDownDeg, 0.1f);
  auto rested = RestPoseJob{&lying, tpose}.run();
  ASSERT_TRUE(rested) << rested.error();
  auto after = conventionOf(*rested);
  ASSERT_TRUE(after) << after.error();
  EXPECT_EQ(after->restKind, RestPoseKind::StandingT) << after->restKindDecidedBy;
  EXPECT_EQ(after->upModel, Vec3::UnitY());
  EXPECT_LE(maxMotionDifference(lying, *rested), 0.01f / 1750.0f * c.heightModel);
}

TEST(StandUpright, ALyingRestIsStoodUpAndTheMotionKept) {
  const Scene cmu = loadData("bvh/cmu-mb-2010/02_01.bvh");
  const Scene lying = restAlongX(cmu).scene;
  auto standing = standUpright(lying, 0);
  ASSERT_TRUE(standing) << standing.error();
  EXPECT_TRUE(standing->restChanged);
  auto map = *mapHumanoid(standing->scene.skeleton);
  auto frame = humanoidFrame(standing->scene.skeleton, map);
  EXPECT_EQ(frame->upModel, Vec3::UnitY());
  EXPECT_LE(maxMotionDifference(lying, standing->scene), 1e-5f * standing->convention->heightModel);
  auto untouched = standUpright(cmu, 0);
  ASSERT_TRUE(untouched);
  EXPECT_FALSE(untouched->restChanged);
}

}  // namespace
}  // namespace articula::test
