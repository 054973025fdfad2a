#include "core/ik/ccd_ik.h"

#include <gtest/gtest.h>

#include <limits>

#include "core/ik/allocation_counter.h"
#include "core/ik/ik_test_util.h"

namespace articula {
namespace {

using test::ChainRig;

struct CcdSetup {
  IkChain chain;
  IkChainWorkspace workspace;
};

CcdIkJob makeJob(ChainRig& rig, CcdSetup& setup, const Vec3& targetModel) {
  auto chain = IkChain::build(rig.skeleton, rig.chainJoints);
  EXPECT_TRUE(chain.ok()) << chain.error();
  setup.chain = *chain;
  setup.workspace.resize(setup.chain);
  CcdIkJob job;
  job.chain = &setup.chain;
  job.workspace = &setup.workspace;
  job.pose = rig.pose;
  job.model = rig.model;
  job.targetModel = targetModel;
  job.toleranceModel = 5e-5f * rig.lengthModel();
  job.maxIterations = 2000;
  return job;
}

TEST(CcdIk, DefaultJobIsInvalid) {
  CcdIkJob job;
  ASSERT_TRUE(job.validate().has_value());
  EXPECT_EQ(*job.validate(), "CCD IK: no chain");
  EXPECT_FALSE(job.run());
}

TEST(CcdIk, ReachesRandomTargetsUnderEveryFrame) {
  for (const auto& frame : test::framesOfReference()) {
    for (const float innerScale : {1.0f, -1.3f}) {
      std::mt19937 rng(3);
      for (int trial = 0; trial < 20; ++trial) {
        ChainRig rig = test::makeChain(frame.parentModel, {.bones = 5, .twistJoint = true, .innerScale = innerScale});
        const Vec3 target = test::randomReachableTargetModel(rig, rng, 0.8f);
        const float length = rig.lengthModel();
        CcdSetup setup;
        CcdIkJob job = makeJob(rig, setup, target);
        IkReport report;
        job.report = &report;
        ASSERT_FALSE(job.validate().has_value()) << frame.name << ": " << *job.validate();
        ASSERT_TRUE(job.run());
        rig.fk();
        const float error = (rig.tipModel() - target).norm();
        EXPECT_LE(error, 1e-4f * length) << frame.name << " trial " << trial << " iterations " << report.iterations;
        EXPECT_TRUE(report.reached) << frame.name << " trial " << trial << " iterations " << report.iterations;
        EXPECT_NEAR(report.errorModel, error, 1e-4f * length);
        EXPECT_GE(report.iterations, 1);
      }
    }
  }
}

TEST(CcdIk, UnreachableTargetGivesAStraightChainTowardsIt) {
  for (const auto& frame : test::framesOfReference()) {
    ChainRig rig = test::makeChain(frame.parentModel, {.bones = 4});
    const Vec3 target = rig.rootModel() + frame.parentModel.linear() * Vec3(-2.0f, 6.0f, 3.0f);
    CcdSetup setup;
    CcdIkJob job = makeJob(rig, setup, target);
    IkReport report;
    job.report = &report;
    ASSERT_TRUE(job.run());
    rig.fk();
    EXPECT_FALSE(report.reached);
    EXPECT_LE(test::straightnessRad(rig, target), 1e-3f) << frame.name;
    EXPECT_TRUE(test::poseIsFinite(rig.pose));
  }
}

TEST(CcdIk, ConstraintsHoldAfterEverySolve) {
  for (const auto& frame : test::framesOfReference()) {
    std::mt19937 rng(5);
    for (int trial = 0; trial < 20; ++trial) {
      // Joint 1 scales by -1.2 (a mirror).
      ChainRig rig = test::makeChain(frame.parentModel, {.bones = 4, .innerScale = -1.2f});
      const Vec3 target = test::randomReachableTargetModel(rig, rng, 2.0f);
      std::vector<JointConstraint> constraints(5);
      constraints[0] = JointConstraint::hinge(test::boneAxisLocal(rig, 0).unitOrthogonal(), -0.3f, 1.2f);
      constraints[1] = JointConstraint::cone(test::boneAxisLocal(rig, 1), 0.6f).withTwistLimit(-0.1f, 0.3f);
      constraints[2] = JointConstraint::ellipticalCone(test::boneAxisLocal(rig, 2), Vec3::UnitZ(), 0.3f, 0.8f);
      constraints[3] = JointConstraint::free().withTwistLimit(-0.1f, 0.4f);
      CcdSetup setup;
      CcdIkJob job = makeJob(rig, setup, target);
      job.constraints = constraints;
      job.maxIterations = 30;
      ASSERT_TRUE(job.run());
      for (std::size_t k = 0; k < 4; ++k) {
        const Quat r = rig.pose[static_cast<std::size_t>(rig.chainJoints[k])].rotation;
        EXPECT_LE(test::constraintViolationRad(constraints[k], r, test::boneAxisLocal(rig, k)), 1e-4f)
            << frame.name << " trial " << trial << " joint " << k;
      }
      EXPECT_TRUE(test::poseIsFinite(rig.pose));
    }
  }
}

TEST(CcdIk, DampingBoundsTheTurnOfEachJointPerSweep) {
  ChainRig rig = test::makeChain(Affine::Identity(), {.bones = 4});
  const Pose before = rig.pose;
  CcdSetup setup;
  CcdIkJob job = makeJob(rig, setup, rig.rootModel() + Vec3(-1.0f, -2.0f, 0.5f));
  job.maxIterations = 1;
  job.maxAngleStepRad = 0.1f;
  ASSERT_TRUE(job.run());
  for (std::size_t k = 0; k < 4; ++k) {
    const auto j = static_cast<std::size_t>(rig.chainJoints[k]);
    EXPECT_LE(rig.pose[j].rotation.angularDistance(before[j].rotation), 0.1f + 1e-5f) << k;
    EXPECT_GT(rig.pose[j].rotation.angularDistance(before[j].rotation), 0.05f) << k;
  }
}

TEST(CcdIk, DegenerateInputsFailWithAMessage) {
  ChainRig rig = test::makeChain(Affine::Identity(), {.bones = 3});
  CcdSetup setup;
  CcdIkJob job = makeJob(rig, setup, Vec3(std::numeric_limits<float>::quiet_NaN(), 0.0f, 0.0f));
  EXPECT_EQ(job.validate().value_or(""), "CCD IK: the target is not finite");
  EXPECT_FALSE(job.run());
  job.targetModel = Vec3(0.0f, std::numeric_limits<float>::infinity(), 0.0f);
  EXPECT_EQ(job.validate().value_or(""), "CCD IK: the target is not finite");
  job.targetModel = Vec3::Ones();
  job.maxAngleStepRad = 0.0f;
  EXPECT_EQ(job.validate().value_or(""), "CCD IK: maxAngleStepRad is not in (0, pi]");
  job.maxAngleStepRad = 0.5f;
  const std::vector<JointConstraint> bad = {JointConstraint::cone(Vec3::Zero(), 0.5f), {}, {}, {}};
  job.constraints = bad;
  EXPECT_EQ(job.validate().value_or(""), "CCD IK: constraint of chain joint 0: cone axis is zero or not finite");
  job.constraints = {};

  ChainRig zero = rig;
  zero.pose[2].translation = Vec3::Zero();
  zero.fk();
  CcdSetup zeroSetup;
  CcdIkJob zeroJob = makeJob(zero, zeroSetup, Vec3::Ones());
  EXPECT_EQ(zeroJob.validate().value_or(""), "IK: zero-length bone from joint 1 'joint1' to joint 2 'joint2'");

  // Target exactly at the root: a defined, finite result.
  ChainRig atRoot = rig;
  CcdSetup rootSetup;
  CcdIkJob rootJob = makeJob(atRoot, rootSetup, atRoot.rootModel());
  ASSERT_TRUE(rootJob.run());
  EXPECT_TRUE(test::poseIsFinite(atRoot.pose));
}

TEST(CcdIk, TrackingAMovingTargetHasNoFlips) {
  ChainRig rig = test::makeChain(test::framesOfReference()[2].parentModel, {.bones = 6});
  const Vec3 root = rig.rootModel();
  const float length = rig.lengthModel();
  CcdSetup setup;
  for (int frame = 0; frame < 1000; ++frame) {
    const float t = static_cast<float>(frame) * 0.01f;
    const Vec3 target = root + length * Vec3(0.5f + 0.2f * std::cos(t), 0.3f * std::sin(t), 0.2f * std::sin(0.7f * t));
    const Pose before = rig.pose;
    CcdIkJob job = makeJob(rig, setup, target);
    job.maxIterations = 64;
    job.maxAngleStepRad = 0.2f;
    ASSERT_TRUE(job.run());
    // Frame 0 is a cold solve from the rest pose; from then on every frame starts from the last.
    for (std::size_t k = 0; frame > 0 && k + 1 < rig.chainJoints.size(); ++k) {
      const auto j = static_cast<std::size_t>(rig.chainJoints[k]);
      EXPECT_LE(rig.pose[j].rotation.angularDistance(before[j].rotation), 10.0f * kPi / 180.0f)
          << "frame " << frame << " joint " << k;
    }
    rig.fk();
  }
}

TEST(CcdIk, RunAllocatesNothing) {
  ChainRig rig = test::makeChain(Affine::Identity(), {.bones = 6, .twistJoint = true});
  std::vector<JointConstraint> constraints(7);
  constraints[1] = JointConstraint::cone(test::boneAxisLocal(rig, 1), 0.8f).withTwistLimit(-0.3f, 0.3f);
  constraints[2] = JointConstraint::hinge(test::boneAxisLocal(rig, 2).unitOrthogonal(), -1.0f, 1.0f);
  CcdSetup setup;
  CcdIkJob job = makeJob(rig, setup, rig.rootModel() + Vec3(1.0f, 2.0f, -0.5f));
  for (const bool withConstraints : {false, true}) {
    job.constraints =
        withConstraints ? std::span<const JointConstraint>(constraints) : std::span<const JointConstraint>();
    test::armAllocationCounter();
    const bool ran = job.run();
    const int allocations = test::disarmAllocationCounter();
    EXPECT_TRUE(ran);
    EXPECT_EQ(allocations, 0) << "constraints " << withConstraints;
  }
}

}  // namespace
}  // namespace articula
