#include "core/rig/humanoid_rig.h"

#include <gtest/gtest.h>

#include "core/io/import.h"
#include "core/rig/humanoid_map.h"
#include "core/samples/mannequin.h"
#include "rig_test_util.h"

namespace articula {
namespace {

using test::chainLength;
using test::handleNamed;
using test::positionOf;

// Builds the humanoid rig, checks that it found every limb, moves every target away from
// the pose and checks that the rig solve reaches them.
void expectRigFindsLimbsAndReaches(const Skeleton& skeleton, const Pose& input) {
  auto map = mapHumanoid(skeleton);
  ASSERT_TRUE(map.ok()) << map.error();
  HumanoidRigOptions options;
  options.grounding = false;
  auto definition = buildHumanoidRig(skeleton, options);
  ASSERT_TRUE(definition.ok()) << definition.error();
  ASSERT_EQ(definition->handles.size(), 5u);

  const IkHandle& spine = handleNamed(*definition, "spine");
  const IkHandle& leftLeg = handleNamed(*definition, "left_leg");
  const IkHandle& rightLeg = handleNamed(*definition, "right_leg");
  const IkHandle& leftArm = handleNamed(*definition, "left_arm");
  const IkHandle& rightArm = handleNamed(*definition, "right_arm");
  EXPECT_EQ(spine.solver, IkSolverKind::Fabrik);
  ASSERT_GE(spine.chain.size(), 2u);
  EXPECT_EQ(spine.chain.back(), map->chest);
  EXPECT_EQ(leftLeg.solver, IkSolverKind::TwoBone);
  EXPECT_EQ(leftLeg.chain, (std::vector<int>{map->leftLeg.thigh, map->leftLeg.knee, map->leftLeg.legTip}));
  EXPECT_EQ(rightLeg.chain, (std::vector<int>{map->rightLeg.thigh, map->rightLeg.knee, map->rightLeg.legTip}));
  EXPECT_EQ(leftArm.solver, IkSolverKind::Ccd);
  EXPECT_EQ(leftArm.chain, (std::vector<int>{map->leftArm.upperArm, map->leftArm.forearm, map->leftArm.hand}));
  EXPECT_EQ(rightArm.chain, (std::vector<int>{map->rightArm.upperArm, map->rightArm.forearm, map->rightArm.hand}));
  ASSERT_EQ(leftArm.limits.size(), 3u);
  EXPECT_EQ(leftArm.limits[0].kind, JointLimit::Kind::Cone);
  EXPECT_EQ(leftArm.limits[1].kind, JointLimit::Kind::Hinge);
  EXPECT_EQ(leftArm.limits[2].kind, JointLimit::Kind::Cone);
  EXPECT_EQ(definition->grounding.pelvis, map->hips);
  EXPECT_EQ(definition->grounding.left.toe, map->leftLeg.toe);

  auto frame = humanoidFrame(skeleton, *map);
  ASSERT_TRUE(frame.ok()) << frame.error();
  const Vec3 up = frame->upModel;
  const Vec3 forward = frame->forwardModel;
  auto rig = Rig::bind(skeleton, *definition);
  ASSERT_TRUE(rig.ok()) << rig.error();

  struct Goal {
    std::string handle;
    Vec3 targetModel;
    float length;
  };
  std::vector<Goal> goals;
  auto addGoal = [&](const IkHandle& h, const Vec3& offsetPerLength) {
    const float length = chainLength(skeleton, input, h.chain);
    const Vec3 target = positionOf(skeleton, input, h.chain.back()) + offsetPerLength * length;
    goals.push_back({h.name, target, length});
    rig->setTarget(rig->findHandle(h.name), target);
  };
  // Feet lifted and moved forward, chest bent forward, hands raised to the front.
  addGoal(leftLeg, 0.15f * up + 0.12f * forward);
  addGoal(rightLeg, 0.08f * up - 0.10f * forward);
  // The chest bent 15° forward about the spine chain's root: reachable by any spine, even
  // the single bone of the Khronos samples.
  {
    const Vec3 root = positionOf(skeleton, input, spine.chain.front());
    const Vec3 chest = positionOf(skeleton, input, spine.chain.back());
    const Vec3 target = root + Eigen::AngleAxisf(0.26f, up.cross(forward).normalized()) * (chest - root);
    goals.push_back({spine.name, target, chainLength(skeleton, input, spine.chain)});
    rig->setTarget(rig->findHandle(spine.name), target);
  }
  addGoal(leftArm, 0.35f * forward + 0.25f * up);
  addGoal(rightArm, 0.30f * forward + 0.10f * up);

  Pose pose = input;
  ASSERT_TRUE(rig->solve(pose, 0.0, nullptr));
  const std::vector<Affine> model = localToModel(skeleton, pose);
  for (const Goal& g : goals) {
    const IkHandle& h = handleNamed(rig->definition(), g.handle);
    const float error = (model[static_cast<std::size_t>(h.chain.back())].translation() - g.targetModel).norm();
    const float tolerance =
        (h.role == HandleRole::LeftLeg || h.role == HandleRole::RightLeg ? 1e-4f : 1e-3f) * g.length;
    EXPECT_LE(error, tolerance) << g.handle;
    const HandleReport& report = rig->reports()[static_cast<std::size_t>(rig->findHandle(g.handle))];
    EXPECT_TRUE(report.solved) << g.handle;
    EXPECT_NEAR(report.errorModel, error, 1e-5f * g.length) << g.handle;
  }
  // The knees bend forward, towards the pole in front of them.
  for (const IkHandle* leg : {&leftLeg, &rightLeg}) {
    const auto at = [&](int j) { return Vec3(model[static_cast<std::size_t>(j)].translation()); };
    const Vec3 hip = at(leg->chain[0]);
    const Vec3 ankle = at(leg->chain[2]);
    EXPECT_GT((at(leg->chain[1]) - 0.5f * (hip + ankle)).dot(forward), 0.0f) << leg->name;
  }
  // The chest kept its model-space orientation (KeepPose), and so did the feet.
  const std::vector<Affine> before = localToModel(skeleton, input);
  for (const int j : {spine.chain.back(), leftLeg.chain.back(), rightLeg.chain.back()}) {
    const Mat3 a = before[static_cast<std::size_t>(j)].linear();
    const Mat3 b = model[static_cast<std::size_t>(j)].linear();
    EXPECT_LE((a - b).norm(), 1e-4f * a.norm()) << skeleton.name(j);
  }
}

TEST(HumanoidRig, MannequinFindsEveryLimbAndReachesTargets) {
  const Scene scene = makeMannequin();
  expectRigFindsLimbsAndReaches(scene.skeleton, test::sampledPose(scene.skeleton, scene.clips.front(), 0.3));
}

TEST(HumanoidRig, CmuBvhFindsEveryLimbAndReachesTargets) {
  auto scene = importScene(std::string(ARTICULA_TEST_DATA_DIR) + "/bvh/cmu-mb-2010/02_01.bvh");
  ASSERT_TRUE(scene.ok()) << scene.error();
  ASSERT_FALSE(scene->clips.empty());
  expectRigFindsLimbsAndReaches(scene->skeleton, test::sampledPose(scene->skeleton, scene->clips.front(), 0.5));
}

TEST(HumanoidRig, KhronosSamplesFindEveryLimbAndReachTargets) {
  for (const char* file : {"/gltf/CesiumMan/CesiumMan.glb", "/gltf/RiggedFigure/RiggedFigure.glb"}) {
    SCOPED_TRACE(file);
    auto scene = importScene(std::string(ARTICULA_TEST_DATA_DIR) + file);
    ASSERT_TRUE(scene.ok()) << scene.error();
    ASSERT_FALSE(scene->clips.empty());
    expectRigFindsLimbsAndReaches(scene->skeleton, test::sampledPose(scene->skeleton, scene->clips.front(), 0.4));
  }
}

// MakeHuman: Z-up, decimetres, Root beside Hips carrying legs and spine.
TEST(HumanoidRig, MakeHumanFindsEveryLimbAndReachesTargets) {
  auto scene = importScene(std::string(ARTICULA_TEST_DATA_DIR) + "/bvh/makehuman/walk1.bvh");
  ASSERT_TRUE(scene.ok()) << scene.error();
  ASSERT_FALSE(scene->clips.empty());
  expectRigFindsLimbsAndReaches(scene->skeleton, test::sampledPose(scene->skeleton, scene->clips.front(), 0.3));
}

// RobotExpressive: the feet are IK bones beside the legs; each leg handle ends at its shin's
// tail, the node the animated foot sits on, and the rig binds with grounding set up.
TEST(HumanoidRig, RobotExpressiveLegsEndWhereTheFeetAre) {
  auto scene = importScene(std::string(ARTICULA_TEST_DATA_DIR) + "/gltf/RobotExpressive/RobotExpressive.glb");
  ASSERT_TRUE(scene.ok()) << scene.error();
  auto map = mapHumanoid(scene->skeleton);
  ASSERT_TRUE(map.ok()) << map.error();
  auto definition = buildHumanoidRig(scene->skeleton, *map);
  ASSERT_TRUE(definition.ok()) << definition.error();
  EXPECT_EQ(handleNamed(*definition, "left_leg").chain.back(), map->leftLeg.legTip);
  EXPECT_EQ(handleNamed(*definition, "right_leg").chain.back(), map->rightLeg.legTip);
  EXPECT_EQ(definition->grounding.left.toe, -1);
  auto rig = Rig::bind(scene->skeleton, *definition);
  ASSERT_TRUE(rig.ok()) << rig.error();
}

// Targets that follow the incoming pose ask for nothing: the rig leaves the motion as it
// is, even where the captured arms break the rig's joint limits.
TEST(HumanoidRig, TargetsFollowingThePoseLeaveItAlone) {
  auto scene = importScene(std::string(ARTICULA_TEST_DATA_DIR) + "/bvh/cmu-mb-2010/02_01.bvh");
  ASSERT_TRUE(scene.ok()) << scene.error();
  const Skeleton& s = scene->skeleton;
  HumanoidRigOptions options;
  options.grounding = false;
  auto def = buildHumanoidRig(s, options);
  ASSERT_TRUE(def.ok());
  auto rig = Rig::bind(s, *def);
  ASSERT_TRUE(rig.ok());
  for (const double t : {0.2, 0.9, 1.6}) {
    const Pose input = test::sampledPose(s, scene->clips.front(), t);
    Pose pose = input;
    ASSERT_TRUE(rig->solve(pose, t, &scene->clips.front()));
    const std::vector<Affine> before = localToModel(s, input);
    const std::vector<Affine> after = localToModel(s, pose);
    for (int j = 0; j < s.jointCount(); ++j) {
      const auto i = static_cast<std::size_t>(j);
      EXPECT_LE((after[i].translation() - before[i].translation()).norm(), 1e-4f) << s.name(j) << " at " << t;
      EXPECT_GE(std::abs(input[i].rotation.dot(pose[i].rotation)), 1.0f - 1e-6f) << s.name(j) << " at " << t;
    }
  }
}

TEST(HumanoidRig, FrameOfTheMannequin) {
  const Skeleton skeleton = makeMannequinSkeleton();
  auto map = mapHumanoid(skeleton);
  ASSERT_TRUE(map.ok());
  auto frame = humanoidFrame(skeleton, *map);
  ASSERT_TRUE(frame.ok());
  EXPECT_EQ(frame->upModel, Vec3::UnitY());
  EXPECT_EQ(frame->forwardModel, Vec3::UnitZ());
  auto rig = buildHumanoidRig(skeleton);
  ASSERT_TRUE(rig.ok());
  // The mannequin stands on y = 0, its ankles 8 cm above it.
  EXPECT_NEAR(rig->grounding.left.ankleHeight, 0.08f, 1e-6f);
  EXPECT_NEAR(rig->grounding.right.ankleHeight, 0.08f, 1e-6f);
  EXPECT_TRUE(rig->grounding.enabled);
}

TEST(HumanoidRig, MissingLimbIsReported) {
  Skeleton s;
  s.addJoint("Hips", kNoParent, Transform{});
  auto rig = buildHumanoidRig(s);
  ASSERT_FALSE(rig.ok());
  // Both legs missing are said once.
  EXPECT_NE(rig.error().find("no legs: no foot or ankle"), std::string::npos) << rig.error();
}

}  // namespace
}  // namespace articula
