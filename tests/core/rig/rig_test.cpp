#include "core/rig/rig.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>

#include "core/frames_of_reference.h"
#include "core/ik/ccd_ik.h"
#include "core/ik/fabrik_ik.h"
#include "core/ik/two_bone_ik.h"
#include "core/project/rig_json.h"
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
  expectError({"", {handle("odd", static_cast<IkSolverKind>(kIkSolverKindCount), {1, 2, 3}, t)}, {}},
              "handle 'odd': solver 'unknown' is not available");
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

// A straight FABRIK chain (the mannequin's rest spine) reaching targets close to full
// extension, where FABRIK alone needs hundreds of passes: the rig's seed gets there in few.
TEST(Rig, NearlyStraightFabrikChainReachesTargets) {
  const Skeleton s = makeMannequinSkeleton();
  const std::vector<int> chain = {s.findJoint("Spine"), s.findJoint("Spine1"), s.findJoint("Spine2")};
  IkHandle h = handle("spine", IkSolverKind::Fabrik, chain, Vec3::Zero());
  h.maxIterations = 16;
  h.toleranceModel = 1e-4f * 0.25f;
  auto rig = Rig::bind(s, {"r", {h}, {}});
  ASSERT_TRUE(rig.ok()) << rig.error();
  const Pose input = test::restPoseOf(s);
  const Vec3 root = positionOf(s, input, chain.front());
  for (const float fraction : {0.9f, 0.97f, 0.995f}) {
    for (const Vec3& direction : {Vec3(0.0f, 1.0f, 0.3f), Vec3(0.2f, 1.0f, -0.1f), Vec3(0.0f, 1.0f, 0.0f)}) {
      const Vec3 target = root + direction.normalized() * (fraction * 0.25f);
      rig->setTarget(0, target);
      Pose pose = input;
      ASSERT_TRUE(rig->solve(pose, 0.0, nullptr));
      EXPECT_LE((positionOf(s, pose, chain.back()) - target).norm(), 1e-4f * 0.25f) << fraction;
      EXPECT_LE(rig->reports()[0].iterations, 12) << fraction;
    }
  }
}

// The tip's limit holds whenever the handle moves the chain, and is not imposed on a pose
// whose tip is already on its target.
TEST(Rig, TipLimitAppliesOnlyWhenTheChainMoves) {
  const Skeleton s = chainSkeleton();
  IkHandle h = handle("h", IkSolverKind::Ccd, {1, 2, 3, 4}, Vec3::Zero());
  h.targetSource = TargetSource::InputPose;
  h.limits = {JointLimit::free(), JointLimit::free(), JointLimit::free(), JointLimit::cone(Vec3::UnitX(), 0.2f)};
  auto rig = Rig::bind(s, {"r", {h}, {}});
  ASSERT_TRUE(rig.ok()) << rig.error();
  const Pose input = test::restPoseOf(s);
  Pose pose = input;
  ASSERT_TRUE(rig->solve(pose, 0.0, nullptr));
  EXPECT_GE(std::abs(pose[4].rotation.dot(input[4].rotation)), 1.0f - 1e-7f);
  rig->setTarget(0, positionOf(s, input, 4) + Vec3(0.1f, -0.1f, 0.05f));
  pose = input;
  ASSERT_TRUE(rig->solve(pose, 0.0, nullptr));
  // The tip's bone (continuing the incoming bone, +Y in its rotation space) now lies in the
  // cone of 0.2 rad about +X of its parent.
  const Vec3 boneParent = pose[4].rotation * Vec3::UnitY();
  EXPECT_LE(std::acos(std::clamp(boneParent.dot(Vec3::UnitX()), -1.0f, 1.0f)), 0.2f + 1e-4f);
}

// Every solver path of the rig (two-bone, CCD with the hinge seed, FABRIK with the bend
// seed) under a base joint that moves, turns, scales (also non-uniformly) and mirrors the
// chains: targets picked in the base's space, where the chains are rigid, are reached.
TEST(Rig, HandlesReachTargetsInEveryFrameOfReference) {
  for (const auto& frame : test::framesOfReference()) {
    SCOPED_TRACE(frame.name);
    Skeleton s = chainSkeleton();
    const Mat4 m = frame.parentModel.matrix();
    s.setRestLocal(0, Transform::fromMatrix(m));
    // A fifth, straight chain for FABRIK's nearly straight case.
    const int e = s.addJoint("e", 0, joint(Vec3(0.5f, 0.0f, 0.0f), 0.0f, Vec3::UnitX()));
    const int f = s.addJoint("f", e, joint(Vec3(0.3f, 0.0f, 0.0f), 0.0f, Vec3::UnitX()));
    const int g = s.addJoint("g", f, joint(Vec3(0.3f, 0.0f, 0.0f), 0.0f, Vec3::UnitX()));
    const Pose input = test::restPoseOf(s);
    const std::vector<Affine> model = localToModel(s, input);
    const Affine& base = model[0];
    auto inBase = [&](int j) {
      return Vec3(base.inverse(Eigen::Affine) * model[static_cast<std::size_t>(j)].translation());
    };

    IkHandle legLike = handle("two_bone", IkSolverKind::TwoBone, {2, 3, 4}, Vec3::Zero());
    IkHandle armLike = handle("ccd", IkSolverKind::Ccd, {1, 2, 3}, Vec3::Zero());
    armLike.maxIterations = 32;
    // Hinge about the bend axis of b (its parent a's space), cones wide open around the bones.
    armLike.limits = {JointLimit::cone(Vec3::UnitY(), 2.0f),
                      JointLimit::hinge(Vec3::UnitX(), -1.5f, 1.5f, input[2].rotation),
                      JointLimit::cone(Vec3::UnitY(), 2.0f)};
    IkHandle straight = handle("fabrik", IkSolverKind::Fabrik, {e, f, g}, Vec3::Zero());
    // Targets in the base's space: the two-bone end pulled in, the CCD tip moved in the
    // hinge's plane, the straight chain leaned and shortened to 96 %.
    const Vec3 twoBoneTarget = inBase(2) + 0.8f * (inBase(4) - inBase(2));
    const Vec3 ccdTarget = inBase(1) + Eigen::AngleAxisf(0.3f, Vec3::UnitX()) * (0.9f * (inBase(3) - inBase(1)));
    const Vec3 straightTarget = inBase(e) + Eigen::AngleAxisf(0.4f, Vec3::UnitZ()) * (0.96f * (inBase(g) - inBase(e)));
    legLike.targetModel = base * twoBoneTarget;
    armLike.targetModel = base * ccdTarget;
    straight.targetModel = base * straightTarget;
    for (IkHandle* h : {&legLike, &armLike, &straight}) h->toleranceModel = 1e-5f;
    for (const IkHandle& h : {legLike, armLike, straight}) {
      SCOPED_TRACE(h.name);
      auto rig = Rig::bind(s, {"r", {h}, {}});
      ASSERT_TRUE(rig.ok()) << rig.error();
      Pose pose = input;
      ASSERT_TRUE(rig->solve(pose, 0.0, nullptr));
      const Vec3 tipBase = base.inverse(Eigen::Affine) * positionOf(s, pose, h.chain.back());
      const Vec3 targetBase = base.inverse(Eigen::Affine) * h.targetModel;
      EXPECT_LE((tipBase - targetBase).norm(), 1e-4f) << "iterations " << rig->reports()[0].iterations;
    }
  }
}

constexpr std::array<IkSolverKind, 4> kJacobianKinds = {
    IkSolverKind::JacobianTranspose, IkSolverKind::JacobianPseudoInverse, IkSolverKind::DampedLeastSquares,
    IkSolverKind::SelectivelyDampedLeastSquares};

// The mannequin's left arm (upper arm, forearm, hand) with its hand moved forward, up and in,
// well inside its reach.
IkHandle mannequinArmHandle(const Skeleton& s, IkSolverKind kind) {
  const std::vector<int> chain = {s.findJoint("LeftArm"), s.findJoint("LeftForeArm"), s.findJoint("LeftHand")};
  const Pose rest = test::restPoseOf(s);
  const float length = test::chainLength(s, rest, chain);
  IkHandle h = handle("arm", kind, chain, positionOf(s, rest, chain[2]) + length * Vec3(-0.15f, 0.2f, 0.3f));
  h.role = HandleRole::LeftArm;
  h.maxIterations = 200;
  h.toleranceModel = 1e-4f * length;
  return h;
}

TEST(Rig, JacobianHandlesReachAnArmTarget) {
  const Skeleton s = makeMannequinSkeleton();
  const Pose input = test::restPoseOf(s);
  for (const IkSolverKind kind : kJacobianKinds) {
    SCOPED_TRACE(std::string(solverKindName(kind)));
    EXPECT_TRUE(isSolverAvailable(kind));
    const IkHandle h = mannequinArmHandle(s, kind);
    auto rig = Rig::bind(s, {"r", {h}, {}});
    ASSERT_TRUE(rig.ok()) << rig.error();
    Pose pose = input;
    ASSERT_TRUE(rig->solve(pose, 0.0, nullptr));
    const HandleReport& report = rig->reports()[0];
    EXPECT_TRUE(report.solved);
    EXPECT_TRUE(report.reached) << "error " << report.errorModel << ", iterations " << report.iterations;
    EXPECT_LE((positionOf(s, pose, h.chain.back()) - h.targetModel).norm(), h.toleranceModel);
    EXPECT_GT(report.iterations, 0);
    // Only the chain's rotations changed.
    for (std::size_t j = 0; j < pose.size(); ++j) {
      if (std::find(h.chain.begin(), h.chain.end(), static_cast<int>(j)) != h.chain.end()) continue;
      EXPECT_TRUE(identical(pose[j], input[j])) << "joint " << j;
    }
  }
}

TEST(Rig, JacobianHandlesTakeAnOrientationTargetAndLimits) {
  const Skeleton s = makeMannequinSkeleton();
  const Pose input = test::restPoseOf(s);
  for (const IkSolverKind kind : kJacobianKinds) {
    SCOPED_TRACE(std::string(solverKindName(kind)));
    IkHandle h = mannequinArmHandle(s, kind);
    h.orientation = OrientationMode::Target;
    h.orientationModel = Quat(Eigen::AngleAxisf(0.6f, Vec3(0.3f, 1.0f, -0.2f).normalized()));
    // A shoulder cone about the rest upper arm (the mannequin's rest rotations are the
    // identity, so the bone's rest direction is the same in its parent and rotation spaces).
    const Vec3 upperRest = input[static_cast<std::size_t>(h.chain[1])].translation.normalized();
    h.limits = {JointLimit::cone(upperRest, 1.5f), JointLimit::free(), JointLimit::free()};
    auto rig = Rig::bind(s, {"r", {h}, {}});
    ASSERT_TRUE(rig.ok()) << rig.error();
    Pose pose = input;
    ASSERT_TRUE(rig->solve(pose, 0.0, nullptr));
    EXPECT_TRUE(rig->reports()[0].reached) << "error " << rig->reports()[0].errorModel;
    const std::vector<Affine> model = localToModel(s, pose);
    const Quat handModel(Mat3(model[static_cast<std::size_t>(h.chain[2])].linear()));
    EXPECT_GE(std::abs(handModel.dot(h.orientationModel)), 1.0f - 1e-5f);
    // The shoulder stays in its cone (the upper arm's direction in the shoulder's parent space).
    const Vec3 upperNow = pose[static_cast<std::size_t>(h.chain[0])].rotation * upperRest;
    EXPECT_LE(std::acos(std::clamp(upperNow.dot(upperRest), -1.0f, 1.0f)), 1.5f + 1e-3f);
  }
}

TEST(Rig, JacobianHandleAtWeightZeroLeavesThePose) {
  const Skeleton s = makeMannequinSkeleton();
  Pose input = test::restPoseOf(s);
  input[static_cast<std::size_t>(s.findJoint("LeftForeArm"))].rotation =
      Quat(Eigen::AngleAxisf(0.7f, Vec3(0.0f, 1.0f, 0.2f).normalized()));
  for (const IkSolverKind kind : kJacobianKinds) {
    SCOPED_TRACE(std::string(solverKindName(kind)));
    IkHandle h = mannequinArmHandle(s, kind);
    h.weight = 0.0f;
    auto rig = Rig::bind(s, {"r", {h}, {}});
    ASSERT_TRUE(rig.ok()) << rig.error();
    Pose pose = input;
    ASSERT_TRUE(rig->solve(pose, 0.0, nullptr));
    for (std::size_t j = 0; j < pose.size(); ++j) EXPECT_TRUE(identical(pose[j], input[j])) << "joint " << j;
    EXPECT_FALSE(rig->reports()[0].solved);
    // The same handle at weight 1 does move the arm (the comparison can fail).
    rig->setWeight(0, 1.0f);
    ASSERT_TRUE(rig->solve(pose, 0.0, nullptr));
    EXPECT_FALSE(identical(pose[static_cast<std::size_t>(h.chain[0])], input[static_cast<std::size_t>(h.chain[0])]));
  }
}

TEST(Rig, JacobianHandleSurvivesAJsonRoundTripAndBinds) {
  const Skeleton s = makeMannequinSkeleton();
  for (const IkSolverKind kind : kJacobianKinds) {
    SCOPED_TRACE(std::string(solverKindName(kind)));
    const RigDefinition original{"jacobian", {mannequinArmHandle(s, kind)}, {}};
    const std::string text = rigToJson(original, s);
    EXPECT_NE(text.find(std::string("\"").append(solverKindName(kind)).append("\"")), std::string::npos);
    auto parsed = rigFromJson(text, s);
    ASSERT_TRUE(parsed.ok()) << parsed.error();
    EXPECT_TRUE(*parsed == original);
    auto rig = Rig::bind(s, *parsed);
    ASSERT_TRUE(rig.ok()) << rig.error();
    Pose pose = test::restPoseOf(s);
    ASSERT_TRUE(rig->solve(pose, 0.0, nullptr));
    EXPECT_TRUE(rig->reports()[0].reached);
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

// A handle near the root of a long chain moves every joint below it: the rig's FK after the
// handle covers the chain root's sub-tree, and the model matrices it leaves match full FK.
TEST(Rig, FkAfterAHandleCoversEveryJointBelowItsRoot) {
  Skeleton s;
  for (int j = 0; j < 2000; ++j)
    s.addJoint("j" + std::to_string(j), j - 1, joint(Vec3(0.0f, 0.1f, 0.0f), 0.01f, Vec3::UnitZ()));
  RigDefinition def;
  def.name = "long";
  def.handles.push_back(handle("leg", IkSolverKind::TwoBone, {1, 2, 3}, Vec3(0.05f, 0.25f, 0.05f)));
  auto rig = Rig::bind(s, def);
  ASSERT_TRUE(rig) << rig.error();
  Pose pose(s.restPose().begin(), s.restPose().end());
  ASSERT_TRUE(rig->solve(pose, 0.0, nullptr));
  ASSERT_TRUE(rig->reports()[0].solved);
  EXPECT_TRUE(rig->reports()[0].reached);
  const std::vector<Affine> expected = localToModel(s, pose);
  for (const int j : {0, 1, 2, 3, 1000, 1999}) {
    EXPECT_TRUE(rig->modelMatrices()[static_cast<std::size_t>(j)].matrix().isApprox(
        expected[static_cast<std::size_t>(j)].matrix(), 1e-5f))
        << j;
  }
}

// Curves found once give the solve that finding them by name gives, and curves found for
// another rig are refused.
TEST(Rig, CurvesFoundOnceSolveAsCurvesFoundByName) {
  const Skeleton s = chainSkeleton();
  RigDefinition def;
  def.name = "curves";
  def.handles.push_back(handle("arm", IkSolverKind::Ccd, {1, 2, 3, 4}, Vec3(0.2f, 1.6f, 0.1f)));
  auto rig = Rig::bind(s, def);
  ASSERT_TRUE(rig) << rig.error();
  Clip clip;
  clip.endTime = 1.0;
  Curve x;
  x.setKeys({CurveKey{0.0, 0.1, Interpolation::Linear}, CurveKey{1.0, 0.4, Interpolation::Linear}});
  clip.curves[handleCurveName("arm", "target.x")] = x;
  RigCurves curves;
  rig->findCurves(&clip, curves);
  Pose byName(s.restPose().begin(), s.restPose().end());
  Pose found = byName;
  ASSERT_TRUE(rig->solve(byName, 0.5, &clip));
  const Vec3 targetByName = rig->reports()[0].targetModel;
  ASSERT_TRUE(rig->solve(found, 0.5, curves));
  EXPECT_EQ(rig->reports()[0].targetModel, targetByName);
  EXPECT_NEAR(targetByName.x(), 0.25f, 1e-5f);
  for (std::size_t j = 0; j < byName.size(); ++j) EXPECT_TRUE(identical(byName[j], found[j])) << j;
  RigCurves other;
  Rig empty;
  empty.findCurves(&clip, other);
  EXPECT_FALSE(rig->solve(found, 0.5, other));
}

}  // namespace
}  // namespace articula
