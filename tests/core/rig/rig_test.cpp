#include "core/rig/rig.h"

#include <gtest/gtest.h>

#include <limits>

#include "core/ik/ccd_ik.h"
#include "core/ik/fabrik_ik.h"
#include "core/ik/two_bone_ik.h"
#include "core/samples/mannequin.h"
#include "rig_test_util.h"

namespace articula {
namespace {

using test::positionOf;

Transform joint(const Vec3& offset, float angleRad, const Vec3& axis) {
  Transform t;
  t.translation = offset;
  t.rotation = Quat(Eigen::AngleAxisf(angleRad, axis.normalized()));
  return t;
}

// A bent four-bone chain under a turned, moved base.
Skeleton chainSkeleton() {
  Skeleton s;
  s.addJoint("base", kNoParent, joint(Vec3(0.3f, 1.0f, -0.2f), 0.4f, Vec3(1.0f, 1.0f, 0.0f)));
  s.addJoint("a", 0, joint(Vec3(0.0f, 0.1f, 0.0f), 0.2f, Vec3::UnitZ()));
  s.addJoint("b", 1, joint(Vec3(0.0f, 0.4f, 0.0f), 0.6f, Vec3::UnitX()));
  s.addJoint("c", 2, joint(Vec3(0.0f, 0.35f, 0.0f), -0.5f, Vec3::UnitZ()));
  s.addJoint("d", 3, joint(Vec3(0.0f, 0.3f, 0.0f), 0.0f, Vec3::UnitX()));
  return s;
}

IkHandle handle(const std::string& name, IkSolverKind solver, std::vector<int> chain, const Vec3& target) {
  IkHandle h;
  h.name = name;
  h.solver = solver;
  h.chain = std::move(chain);
  h.targetModel = target;
  return h;
}

bool identical(const Transform& a, const Transform& b) {
  return a.translation == b.translation && a.rotation.coeffs() == b.rotation.coeffs() && a.scale == b.scale;
}

TEST(Rig, DefaultRigIsInvalid) {
  Rig rig;
  Pose pose(3);
  EXPECT_FALSE(rig.solve(pose, 0.0, nullptr));
  EXPECT_EQ(rig.handleCount(), 0);
}

TEST(Rig, BindNamesWhatIsWrong) {
  const Skeleton s = chainSkeleton();
  const Vec3 t(0.2f, 1.5f, 0.1f);
  auto expectError = [&](RigDefinition def, const std::string& expected) {
    def.name = "test";
    auto rig = Rig::bind(s, std::move(def));
    ASSERT_FALSE(rig.ok()) << expected;
    EXPECT_NE(rig.error().find(expected), std::string::npos) << rig.error();
  };
  expectError({"", {handle("bad.name", IkSolverKind::Ccd, {1, 2, 3}, t)}, {}}, "'bad.name'");
  expectError({"", {handle("h", IkSolverKind::Ccd, {1, 2, 3}, t), handle("h", IkSolverKind::Fabrik, {1, 2}, t)}, {}},
              "used by another handle");
  expectError({"", {handle("jt", IkSolverKind::JacobianTranspose, {1, 2, 3}, t)}, {}},
              "handle 'jt': solver 'jacobian_transpose' is not available yet");
  expectError({"", {handle("leg", IkSolverKind::TwoBone, {1, 2, 3, 4}, t)}, {}},
              "handle 'leg': a two-bone solver needs a chain of 3");
  expectError({"", {handle("up", IkSolverKind::Ccd, {3, 1}, t)}, {}}, "handle 'up': IK chain:");
  IkHandle limited = handle("limited", IkSolverKind::Ccd, {1, 2, 3, 4}, t);
  limited.limits = {JointLimit::free(), JointLimit::free()};
  expectError({"", {limited}, {}}, "handle 'limited': limits must be empty or one per chain joint");
  IkHandle heavy = handle("heavy", IkSolverKind::Fabrik, {1, 2, 3}, t);
  heavy.weight = 1.5f;
  expectError({"", {heavy}, {}}, "handle 'heavy': the weight is not in [0, 1]");
  IkHandle badLimit = handle("cone", IkSolverKind::Ccd, {1, 2, 3}, t);
  badLimit.limits = {JointLimit::cone(Vec3::Zero(), 1.0f), JointLimit::free(), JointLimit::free()};
  expectError({"", {badLimit}, {}}, "handle 'cone': limit of chain joint 0: cone axis is zero");
  RigDefinition grounded{"", {handle("leg", IkSolverKind::TwoBone, {1, 2, 3}, t)}, {}};
  grounded.handles[0].role = HandleRole::LeftLeg;
  grounded.grounding.enabled = true;
  expectError(grounded, "grounding: no pelvis joint");
  grounded.grounding.pelvis = 0;
  grounded.grounding.left.toe = 1;
  expectError(grounded, "grounding: left foot: the toe joint is not below the ankle");
}

// At weight 1 a handle gives exactly what its solver job gives on the same pose.
TEST(Rig, WeightOneEqualsTheSolverAndWeightZeroLeavesThePose) {
  const Skeleton s = chainSkeleton();
  const Pose input = test::restPoseOf(s);
  const std::vector<Affine> model = localToModel(s, input);
  const Vec3 target = model[4].translation() + Vec3(0.15f, -0.2f, 0.1f);
  for (const IkSolverKind kind :
       {IkSolverKind::TwoBone, IkSolverKind::TwoBoneTrigFree, IkSolverKind::Ccd, IkSolverKind::Fabrik}) {
    SCOPED_TRACE(std::string(solverKindName(kind)));
    const bool twoBone = kind == IkSolverKind::TwoBone || kind == IkSolverKind::TwoBoneTrigFree;
    std::vector<int> chain = twoBone ? std::vector<int>{2, 3, 4} : std::vector<int>{1, 2, 3, 4};
    auto rig = Rig::bind(s, {"r", {handle("h", kind, chain, target)}, {}});
    ASSERT_TRUE(rig.ok()) << rig.error();

    Pose expected = input;
    if (twoBone) {
      TwoBoneIkJob job;
      job.skeleton = &s;
      job.startJoint = 2;
      job.midJoint = 3;
      job.endJoint = 4;
      job.pose = expected;
      job.model = model;
      job.targetModel = target;
      job.poleMode = TwoBoneIkJob::PoleMode::Target;
      job.poleModel = target;
      job.soften = 1.0f;
      job.method = kind == IkSolverKind::TwoBone ? TwoBoneIkJob::Method::LawOfCosines : TwoBoneIkJob::Method::TrigFree;
      ASSERT_TRUE(job.run());
    } else {
      auto ikChain = IkChain::build(s, chain);
      ASSERT_TRUE(ikChain.ok());
      IkChainWorkspace ws(*ikChain);
      if (kind == IkSolverKind::Ccd) {
        CcdIkJob job;
        job.chain = &*ikChain;
        job.workspace = &ws;
        job.pose = expected;
        job.model = model;
        job.targetModel = target;
        job.toleranceModel = 1e-4f;
        job.maxIterations = 16;
        ASSERT_TRUE(job.run());
      } else {
        FabrikIkJob job;
        job.chain = &*ikChain;
        job.workspace = &ws;
        job.pose = expected;
        job.model = model;
        job.targetModel = target;
        job.toleranceModel = 1e-4f;
        job.maxIterations = 16;
        ASSERT_TRUE(job.run());
      }
    }
    Pose pose = input;
    ASSERT_TRUE(rig->solve(pose, 0.0, nullptr));
    for (std::size_t j = 0; j < pose.size(); ++j) EXPECT_TRUE(identical(pose[j], expected[j])) << "joint " << j;
    EXPECT_TRUE(rig->reports()[0].solved);

    // Weight 0: not one bit changes.
    rig->setWeight(0, 0.0f);
    pose = input;
    ASSERT_TRUE(rig->solve(pose, 0.0, nullptr));
    for (std::size_t j = 0; j < pose.size(); ++j) EXPECT_TRUE(identical(pose[j], input[j])) << "joint " << j;
    EXPECT_FALSE(rig->reports()[0].solved);

    // In between: each chain joint slerps from the FK rotation to the IK one.
    rig->setWeight(0, 0.3f);
    pose = input;
    ASSERT_TRUE(rig->solve(pose, 0.0, nullptr));
    for (const int j : chain) {
      const auto i = static_cast<std::size_t>(j);
      const Quat blended = input[i].rotation.slerp(0.3f, expected[i].rotation);
      EXPECT_GE(std::abs(blended.dot(pose[i].rotation)), 1.0f - 1e-6f) << "joint " << j;
    }
  }
}

TEST(Rig, OrientationTargetTurnsTheTip) {
  const Skeleton s = chainSkeleton();
  const Pose input = test::restPoseOf(s);
  const Vec3 target = positionOf(s, input, 4) + Vec3(-0.1f, -0.15f, 0.05f);
  IkHandle h = handle("h", IkSolverKind::Fabrik, {1, 2, 3, 4}, target);
  h.orientation = OrientationMode::Target;
  h.orientationModel = Quat(Eigen::AngleAxisf(0.9f, Vec3(0.2f, 1.0f, 0.3f).normalized()));
  auto rig = Rig::bind(s, {"r", {h}, {}});
  ASSERT_TRUE(rig.ok()) << rig.error();
  Pose pose = input;
  ASSERT_TRUE(rig->solve(pose, 0.0, nullptr));
  const std::vector<Affine> model = localToModel(s, pose);
  EXPECT_LE((model[4].translation() - target).norm(), 1e-3f);
  const Quat tipModel(Mat3(model[4].linear()));
  EXPECT_GE(std::abs(tipModel.dot(h.orientationModel)), 1.0f - 1e-6f);
}

// The spine solves first; the arms' targets, taken from the incoming pose, keep the hands
// where they were although the chest moved under them.
TEST(Rig, SpineBeforeArmsKeepsTheHands) {
  const Scene scene = makeMannequin();
  const Skeleton& s = scene.skeleton;
  HumanoidRigOptions options;
  options.grounding = false;
  auto def = buildHumanoidRig(s, options);
  ASSERT_TRUE(def.ok()) << def.error();
  auto rig = Rig::bind(s, *def);
  ASSERT_TRUE(rig.ok()) << rig.error();
  const Pose input = test::sampledPose(s, scene.clips.front(), 0.5);
  const int chest = s.findJoint("Spine2");
  rig->setTarget(rig->findHandle("spine"), positionOf(s, input, chest) + Vec3(0.03f, -0.02f, 0.06f));
  Pose pose = input;
  ASSERT_TRUE(rig->solve(pose, 0.0, nullptr));
  EXPECT_GT((positionOf(s, pose, chest) - positionOf(s, input, chest)).norm(), 0.05f);
  for (const char* hand : {"LeftHand", "RightHand"}) {
    const int j = s.findJoint(hand);
    EXPECT_LE((positionOf(s, pose, j) - positionOf(s, input, j)).norm(), 1e-3f * 0.54f) << hand;
  }
}

// Clip curves drive a handle's target and weight.
TEST(Rig, CurvesDriveTargetsAndWeights) {
  const Scene scene = makeMannequin();
  const Skeleton& s = scene.skeleton;
  HumanoidRigOptions options;
  options.grounding = false;
  auto def = buildHumanoidRig(s, options);
  ASSERT_TRUE(def.ok());
  auto rig = Rig::bind(s, *def);
  ASSERT_TRUE(rig.ok());
  const Pose input = test::sampledPose(s, scene.clips.front(), 0.2);
  const int hand = s.findJoint("LeftHand");
  const Vec3 target = positionOf(s, input, hand) + Vec3(0.05f, 0.12f, 0.15f);
  Clip clip = scene.clips.front();
  clip.curves["ik.left_arm.target.x"] = test::constantCurve(target.x());
  clip.curves["ik.left_arm.target.y"] = test::constantCurve(target.y());
  clip.curves["ik.left_arm.target.z"] = test::constantCurve(target.z());
  clip.curves["ik.right_arm.weight"] = test::constantCurve(0.0);
  clip.curves["ik.spine.target.y"] = test::constantCurve(positionOf(s, input, s.findJoint("Spine2")).y() - 0.02);
  clip.curves["ik.spine.weight"] = test::constantCurve(0.0);
  Pose pose = input;
  ASSERT_TRUE(rig->solve(pose, 0.2, &clip));
  const HandleReport& left = rig->reports()[static_cast<std::size_t>(rig->findHandle("left_arm"))];
  EXPECT_TRUE(left.solved);
  EXPECT_LE((left.targetModel - target).norm(), 1e-6f);
  EXPECT_LE((positionOf(s, pose, hand) - target).norm(), 1e-3f * 0.54f);
  const HandleReport& right = rig->reports()[static_cast<std::size_t>(rig->findHandle("right_arm"))];
  EXPECT_FALSE(right.solved);
  EXPECT_EQ(right.weight, 0.0f);
  for (const char* name : {"RightArm", "RightForeArm", "RightHand", "Spine", "Spine1", "Spine2"}) {
    const auto j = static_cast<std::size_t>(s.findJoint(name));
    EXPECT_TRUE(identical(pose[j], input[j])) << name;
  }
}

TEST(Rig, RefusesABadPose) {
  const Skeleton s = chainSkeleton();
  auto rig = Rig::bind(s, {"r", {handle("h", IkSolverKind::Ccd, {1, 2, 3, 4}, Vec3(0.2f, 1.5f, 0.1f))}, {}});
  ASSERT_TRUE(rig.ok());
  Pose shortPose(2);
  EXPECT_FALSE(rig->solve(shortPose, 0.0, nullptr));
  Pose pose = test::restPoseOf(s);
  pose[2].translation.x() = std::numeric_limits<float>::quiet_NaN();
  const Pose before = pose;
  EXPECT_FALSE(rig->solve(pose, 0.0, nullptr));
  EXPECT_TRUE(identical(pose[1], before[1]));
}

}  // namespace
}  // namespace articula
