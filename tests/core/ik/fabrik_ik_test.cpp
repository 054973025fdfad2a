#include "core/ik/fabrik_ik.h"

#include <gtest/gtest.h>

#include <limits>
#include <random>
#include <span>
#include <string>
#include <vector>

#include "core/ik/allocation_counter.h"
#include "core/ik/ik_test_util.h"

namespace articula {
namespace {

using test::ChainRig;

struct FabrikSetup {
  IkChain chain;
  IkChainWorkspace workspace;
};

FabrikIkJob makeJob(ChainRig& rig, FabrikSetup& setup, const Vec3& targetModel) {
  auto chain = IkChain::build(rig.skeleton, rig.chainJoints);
  EXPECT_TRUE(chain.ok()) << chain.error();
  setup.chain = *chain;
  setup.workspace.resize(setup.chain);
  FabrikIkJob job;
  job.chain = &setup.chain;
  job.workspace = &setup.workspace;
  job.pose = rig.pose;
  job.model = rig.model;
  job.targetModel = targetModel;
  job.toleranceModel = 5e-5f * rig.lengthModel();
  job.maxIterations = 200;
  return job;
}

// A copy of `rest` solved towards `target` with these limits, seeded or not.
struct Solved {
  ChainRig rig;
  IkReport report;
  float toleranceModel = 0.0f;
};
Solved solveCopy(const ChainRig& rest, const Vec3& target, std::span<const JointConstraint> constraints, bool seed) {
  Solved solved{rest, {}, 0.0f};
  FabrikSetup setup;
  FabrikIkJob job = makeJob(solved.rig, setup, target);
  job.constraints = constraints;
  job.seedStraightChains = seed;
  job.report = &solved.report;
  EXPECT_TRUE(job.run());
  solved.toleranceModel = job.toleranceModel;
  return solved;
}

TEST(FabrikIk, DefaultJobIsInvalid) {
  FabrikIkJob job;
  ASSERT_TRUE(job.validate().has_value());
  EXPECT_EQ(*job.validate(), "FABRIK IK: no chain");
  EXPECT_FALSE(job.run());
}

TEST(FabrikIk, ReachesRandomTargetsUnderEveryFrameWithAFixedRoot) {
  for (const auto& frame : test::framesOfReference()) {
    for (const float innerScale : {1.0f, -1.3f}) {
      std::mt19937 rng(13);
      for (int trial = 0; trial < 20; ++trial) {
        ChainRig rig = test::makeChain(frame.parentModel, {.bones = 5, .twistJoint = true, .innerScale = innerScale});
        const Vec3 root = rig.rootModel();
        const Vec3 target = test::randomReachableTargetModel(rig, rng, 0.8f);
        const float length = rig.lengthModel();
        FabrikSetup setup;
        FabrikIkJob job = makeJob(rig, setup, target);
        IkReport report;
        job.report = &report;
        ASSERT_FALSE(job.validate().has_value()) << frame.name << ": " << *job.validate();
        ASSERT_TRUE(job.run());
        rig.fk();
        const float error = (rig.tipModel() - target).norm();
        EXPECT_LE(error, 1e-4f * length) << frame.name << " trial " << trial << " iterations " << report.iterations;
        EXPECT_TRUE(report.reached) << frame.name << " " << innerScale << " trial " << trial << " error "
                                    << report.errorModel << " iterations " << report.iterations;
        EXPECT_NEAR(report.errorModel, error, 1e-4f * length);
        EXPECT_LE((rig.rootModel() - root).norm(), 1e-5f * length);
      }
    }
  }
}

TEST(FabrikIk, ALongChainCurledUpReachesWithUnitRotations) {
  // 64 bones brought to a tenth of their length from the root turn far at many joints: the
  // frame carried from joint to joint unnormalised (ik_chain.cpp) takes the norm of each
  // joint's turn, |(1 + cos θ, sin θ n)| = 2 cos(θ/2), and rounding must not compound along
  // the chain; the written rotations stay unit and FK of them ends on the target.
  for (const auto& frame : {test::framesOfReference()[0], test::framesOfReference()[5]}) {
    ChainRig rig = test::makeChain(frame.parentModel, {.bones = 64, .bent = true, .innerScale = -1.1f});
    const float length = rig.lengthModel();
    const Vec3 target = rig.rootModel() + 0.1f * length * Vec3(0.3f, 0.8f, -0.5f).normalized();
    FabrikSetup setup;
    FabrikIkJob job = makeJob(rig, setup, target);
    job.toleranceModel = 1e-4f * length;
    IkReport report;
    job.report = &report;
    ASSERT_TRUE(job.run());
    rig.fk();
    EXPECT_TRUE(report.reached) << frame.name << " error " << report.errorModel;
    EXPECT_NEAR(report.errorModel, (rig.tipModel() - target).norm(), 1e-4f * length) << frame.name;
    for (std::size_t k = 0; k + 1 < rig.chainJoints.size(); ++k) {
      const Quat& r = rig.pose[static_cast<std::size_t>(rig.chainJoints[k])].rotation;
      EXPECT_NEAR(r.norm(), 1.0f, 1e-5f) << frame.name << " joint " << k;
    }
  }
}

TEST(FabrikIk, MovingRootReachesTargetsAndWritesTheRootTranslation) {
  for (const auto& frame : test::framesOfReference()) {
    ChainRig rig = test::makeChain(frame.parentModel, {.bones = 4});
    const Vec3 target = rig.rootModel() + frame.parentModel.linear() * Vec3(8.0f, -3.0f, 1.0f);
    FabrikSetup setup;
    FabrikIkJob job = makeJob(rig, setup, target);
    job.rootMode = FabrikIkJob::RootMode::Moving;
    IkReport report;
    job.report = &report;
    ASSERT_TRUE(job.run());
    rig.fk();
    EXPECT_TRUE(report.reached) << frame.name;
    EXPECT_LE((rig.tipModel() - target).norm(), 1e-4f * rig.lengthModel()) << frame.name;
  }
}

TEST(FabrikIk, UnreachableTargetGivesAStraightChainTowardsIt) {
  for (const auto& frame : test::framesOfReference()) {
    ChainRig rig = test::makeChain(frame.parentModel, {.bones = 4});
    const Vec3 target = rig.rootModel() + frame.parentModel.linear() * Vec3(-2.0f, 6.0f, 3.0f);
    FabrikSetup setup;
    FabrikIkJob job = makeJob(rig, setup, target);
    IkReport report;
    job.report = &report;
    ASSERT_TRUE(job.run());
    rig.fk();
    EXPECT_FALSE(report.reached);
    EXPECT_LE(test::straightnessRad(rig, target), 1e-3f) << frame.name;
  }
}

TEST(FabrikIk, KeepsTheInputTwistAboutEachBone) {
  // Unconstrained: each joint's rotation is its input turned by the minimal rotation of its
  // bone, so the twist about the bone (swing–twist about the input bone) is unchanged.
  ChainRig rig = test::makeChain(test::framesOfReference()[4].parentModel, {.bones = 4});
  const Pose before = rig.pose;
  std::vector<Vec3> axes;
  for (std::size_t k = 0; k < 4; ++k) axes.push_back(test::boneAxisLocal(rig, k));
  FabrikSetup setup;
  FabrikIkJob job = makeJob(rig, setup, rig.rootModel() + Vec3(1.0f, 2.0f, 0.5f));
  ASSERT_TRUE(job.run());
  for (std::size_t k = 0; k < 4; ++k) {
    const auto j = static_cast<std::size_t>(rig.chainJoints[k]);
    const Vec3 inputBone = before[j].rotation * axes[k];
    const Vec3 solvedBone = rig.pose[j].rotation * axes[k];
    const Quat turn = rig.pose[j].rotation * before[j].rotation.conjugate();
    // The turn is the shortest arc between the bone directions: no component about them.
    EXPECT_NEAR(turn.vec().dot(inputBone), 0.0f, 1e-5f) << k;
    EXPECT_NEAR(turn.vec().dot(solvedBone), 0.0f, 1e-5f) << k;
  }
}

TEST(FabrikIk, ConeAndHingeConstraintsHoldAfterEverySolve) {
  for (const auto& frame : test::framesOfReference()) {
    std::mt19937 rng(17);
    for (int trial = 0; trial < 20; ++trial) {
      // Joint 1 scales by -1.2 (a mirror).
      ChainRig rig = test::makeChain(frame.parentModel, {.bones = 4, .innerScale = -1.2f});
      const Vec3 target = test::randomReachableTargetModel(rig, rng, 1.5f);
      std::vector<JointConstraint> constraints(5);
      constraints[0] = JointConstraint::hinge(test::boneAxisLocal(rig, 0).unitOrthogonal(), -1.0f, 0.2f);
      constraints[1] = JointConstraint::cone(test::boneAxisLocal(rig, 1), 0.7f).withTwistLimit(-0.1f, 0.3f);
      constraints[2] = JointConstraint::cone(test::boneAxisLocal(rig, 2), 0.5f).withTwistLimit(-0.3f, 0.3f);
      constraints[3] = JointConstraint::ellipticalCone(test::boneAxisLocal(rig, 3), Vec3::UnitY(), 0.9f, 0.4f);
      FabrikSetup setup;
      FabrikIkJob job = makeJob(rig, setup, target);
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

TEST(FabrikIk, LooseConesStillReachTheTarget) {
  for (const float innerScale : {1.0f, -1.2f}) {
    std::mt19937 rng(19);
    for (int trial = 0; trial < 20; ++trial) {
      ChainRig rig = test::makeChain(Affine::Identity(), {.bones = 6, .innerScale = innerScale});
      const Vec3 target = test::randomReachableTargetModel(rig, rng, 0.5f);
      std::vector<JointConstraint> constraints(7);
      for (std::size_t k = 0; k < 6; ++k) constraints[k] = JointConstraint::cone(test::boneAxisLocal(rig, k), 1.0f);
      FabrikSetup setup;
      FabrikIkJob job = makeJob(rig, setup, target);
      job.constraints = constraints;
      IkReport report;
      job.report = &report;
      ASSERT_TRUE(job.run());
      EXPECT_TRUE(report.reached) << "scale " << innerScale << " trial " << trial << " error " << report.errorModel;
    }
  }
}

// The direction of bone k - 1 in chain joint k's parent space: the axis of a cone that limits
// the angle between the two bones.
Vec3 previousBoneAxis(const ChainRig& rig, std::size_t k) {
  auto chain = IkChain::build(rig.skeleton, rig.chainJoints);
  IkChainWorkspace ws(*chain);
  EXPECT_FALSE(ws.load(*chain, rig.pose, rig.model).has_value());
  const IkChainJoint& above = ws.joints[k - 1];
  const Vec3 previous = above.linkRotation.conjugate() * above.boneAxisLocal;
  return above.linkScale < 0.0f ? Vec3(-previous) : previous;
}

TEST(FabrikIk, ConesAboutThePreviousBoneSolveAsWhenRecoveredEveryPass) {
  // Cones about the previous bone (and a tilted one at the root) are angles between
  // neighbouring bones, which FABRIK honours on positions, recovering rotations once. A twist
  // limit over the whole circle changes nothing allowed but makes every pass recover and
  // project rotations: both must reach the same targets with the same rotations.
  for (const auto& frame : test::framesOfReference()) {
    for (const float innerScale : {1.0f, -1.2f}) {
      std::mt19937 rng(23);
      for (int trial = 0; trial < 20; ++trial) {
        const ChainRig rest = test::makeChain(frame.parentModel, {.bones = 6, .bent = false, .innerScale = innerScale});
        const Vec3 target = test::randomReachableTargetModel(rest, rng, 0.5f);
        std::vector<JointConstraint> onPositions(7);
        std::vector<JointConstraint> everyPass(7);
        for (std::size_t k = 0; k < 6; ++k) {
          const Vec3 axis = k == 0 ? Vec3(test::boneAxisLocal(rest, 0) + Vec3(0.0f, 0.2f, 0.1f)).normalized()
                                   : previousBoneAxis(rest, k);
          onPositions[k] = JointConstraint::cone(axis, 0.6f);
          everyPass[k] = onPositions[k].withTwistLimit(-kPi, kPi);
        }
        // The straight rest chain would be seeded on positions only.
        const Solved solvedA = solveCopy(rest, target, onPositions, false);
        const Solved solvedB = solveCopy(rest, target, everyPass, true);
        const ChainRig& a = solvedA.rig;
        const ChainRig& b = solvedB.rig;
        const IkReport& reportA = solvedA.report;
        const IkReport& reportB = solvedB.report;
        const std::string where =
            frame.name + " scale " + std::to_string(innerScale) + " trial " + std::to_string(trial);
        // Rounding apart, the passes are the same; where the limits leave the target out of
        // reach (the mirror folds the rest chain back at joint 1, against its cone), the
        // stall rule may stop a pass earlier or later.
        EXPECT_EQ(reportA.reached, reportB.reached) << where;
        EXPECT_LE(std::abs(reportA.iterations - reportB.iterations), 1) << where;
        if (!reportA.reached) {
          EXPECT_NEAR(reportA.errorModel, reportB.errorModel, 0.01f * reportB.errorModel) << where;
        }
        for (std::size_t k = 0; k < 6; ++k) {
          const Quat r = a.pose[static_cast<std::size_t>(a.chainJoints[k])].rotation;
          EXPECT_LE(test::constraintViolationRad(onPositions[k], r, test::boneAxisLocal(rest, k)), 1e-4f)
              << where << " joint " << k;
          if (reportA.reached) {
            EXPECT_LE(r.angularDistance(b.pose[static_cast<std::size_t>(b.chainJoints[k])].rotation), 1e-3f)
                << where << " joint " << k;
          }
        }
      }
    }
  }
}

TEST(FabrikIk, ASeededStraightChainReachesWhatFabrikReachesInFewerPasses) {
  // A straight chain is bent into an arc towards the target before the passes; where that
  // misses, the solve starts again from the input pose. So every target FABRIK alone
  // reaches is still reached, in fewer passes overall, and limits hold, under every frame.
  for (const bool limited : {false, true}) {
    int seededPasses = 0;
    int plainPasses = 0;
    for (const auto& frame : test::framesOfReference()) {
      for (const float innerScale : {1.0f, -1.2f}) {
        std::mt19937 rng(31);
        std::uniform_real_distribution<float> unit(-1.0f, 1.0f);
        const ChainRig rest =
            test::makeChain(frame.parentModel, {.bones = 10, .bent = false, .innerScale = innerScale});
        std::vector<JointConstraint> constraints;
        if (limited) {
          constraints.resize(11);
          for (std::size_t k = 0; k < 10; ++k)
            constraints[k] = JointConstraint::cone(
                k == 0 ? test::boneAxisLocal(rest, 0) : previousBoneAxis(rest, k), 0.25f * kPi);
        }
        for (int trial = 0; trial < 24; ++trial) {
          // Uniform in the ball of 0.9 times the chain's length about the root, model space.
          Vec3 offset(unit(rng), unit(rng), unit(rng));
          while (offset.squaredNorm() > 1.0f) offset = Vec3(unit(rng), unit(rng), unit(rng));
          const Vec3 target = rest.rootModel() + 0.9f * rest.lengthModel() * offset;
          Solved seeded = solveCopy(rest, target, constraints, true);
          const Solved plain = solveCopy(rest, target, constraints, false);
          const IkReport& seededReport = seeded.report;
          const IkReport& plainReport = plain.report;
          const std::string where = frame.name + " scale " + std::to_string(innerScale) + " limited " +
                                    std::to_string(limited) + " trial " + std::to_string(trial);
          EXPECT_TRUE(seededReport.reached || !plainReport.reached) << where;
          seeded.rig.fk();
          EXPECT_TRUE(!seededReport.reached ||
                      (seeded.rig.tipModel() - target).norm() <= 1.01f * seeded.toleranceModel)
              << where;
          for (std::size_t k = 0; k < constraints.size(); ++k) {
            const Quat r = seeded.rig.pose[static_cast<std::size_t>(seeded.rig.chainJoints[k])].rotation;
            EXPECT_LE(test::constraintViolationRad(constraints[k], r, test::boneAxisLocal(rest, k)), 1e-4f)
                << where << " joint " << k;
          }
          seededPasses += seededReport.iterations;
          plainPasses += plainReport.iterations;
        }
      }
    }
    EXPECT_LT(seededPasses, plainPasses) << "limited " << limited;
  }
}

TEST(FabrikIk, DegenerateInputsFailWithAMessage) {
  ChainRig rig = test::makeChain(Affine::Identity(), {.bones = 3});
  FabrikSetup setup;
  FabrikIkJob job = makeJob(rig, setup, Vec3(std::numeric_limits<float>::quiet_NaN(), 0.0f, 0.0f));
  EXPECT_EQ(job.validate().value_or(""), "FABRIK IK: the target is not finite");
  EXPECT_FALSE(job.run());
  job.targetModel = Vec3(0.0f, -std::numeric_limits<float>::infinity(), 0.0f);
  EXPECT_EQ(job.validate().value_or(""), "FABRIK IK: the target is not finite");
  job.targetModel = Vec3::Ones();
  job.maxIterations = 0;
  EXPECT_EQ(job.validate().value_or(""), "FABRIK IK: maxIterations must be at least 1");

  ChainRig zero = rig;
  zero.pose[3].translation = Vec3::Zero();
  zero.fk();
  FabrikSetup zeroSetup;
  FabrikIkJob zeroJob = makeJob(zero, zeroSetup, Vec3::Ones());
  EXPECT_EQ(zeroJob.validate().value_or(""), "IK: zero-length bone from joint 2 'joint2' to joint 3 'joint3'");

  ChainRig scaled = rig;
  scaled.pose[1].scale = Vec3(1.0f, 2.0f, 1.0f);
  scaled.fk();
  FabrikSetup scaledSetup;
  FabrikIkJob scaledJob = makeJob(scaled, scaledSetup, Vec3::Ones());
  EXPECT_EQ(scaledJob.validate().value_or(""),
            "IK: joint 1 'joint1' has a non-uniform scale inside the chain (bones would not be rigid)");

  ChainRig atRoot = rig;
  FabrikSetup rootSetup;
  FabrikIkJob rootJob = makeJob(atRoot, rootSetup, atRoot.rootModel());
  ASSERT_TRUE(rootJob.run());
  EXPECT_TRUE(test::poseIsFinite(atRoot.pose));
}

TEST(FabrikIk, TrackingAMovingTargetHasNoFlips) {
  ChainRig rig = test::makeChain(test::framesOfReference()[5].parentModel, {.bones = 6});
  const Vec3 root = rig.rootModel();
  const float length = rig.lengthModel();
  FabrikSetup setup;
  for (int frame = 0; frame < 1000; ++frame) {
    const float t = static_cast<float>(frame) * 0.01f;
    const Vec3 target = root + length * Vec3(0.5f + 0.2f * std::cos(t), 0.3f * std::sin(t), 0.2f * std::sin(0.7f * t));
    const Pose before = rig.pose;
    FabrikIkJob job = makeJob(rig, setup, target);
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

TEST(FabrikIk, AReusedWorkspaceTracksAsAFreshOne) {
  // Tracking from its own last result, a reused workspace must end each frame as a fresh
  // workspace solving the same input.
  for (const bool limited : {false, true}) {
    ChainRig rig = test::makeChain(test::framesOfReference()[5].parentModel, {.bones = 6, .twistJoint = true});
    std::vector<JointConstraint> constraints;
    if (limited) constraints.assign(7, JointConstraint::cone(Vec3::UnitX(), 1.2f));
    const Vec3 root = rig.rootModel();
    const float length = rig.lengthModel();
    FabrikSetup reused;
    FabrikIkJob job = makeJob(rig, reused, root);
    job.constraints = constraints;
    for (int frame = 0; frame < 300; ++frame) {
      const float t = static_cast<float>(frame) * 0.02f;
      job.targetModel =
          root + length * Vec3(0.5f + 0.2f * std::cos(t), 0.3f * std::sin(t), 0.2f * std::sin(0.7f * t));
      ChainRig alone = rig;
      IkReport report;
      job.report = &report;
      ASSERT_TRUE(job.run());
      FabrikSetup freshSetup;
      FabrikIkJob fresh = makeJob(alone, freshSetup, job.targetModel);
      fresh.constraints = constraints;
      IkReport freshReport;
      fresh.report = &freshReport;
      ASSERT_TRUE(fresh.run());
      EXPECT_EQ(report.reached, freshReport.reached) << "limited " << limited << " frame " << frame;
      EXPECT_NEAR(report.errorModel, freshReport.errorModel, 2.0f * job.toleranceModel)
          << "limited " << limited << " frame " << frame;
      for (std::size_t k = 0; k + 1 < rig.chainJoints.size(); ++k) {
        const auto j = static_cast<std::size_t>(rig.chainJoints[k]);
        EXPECT_LE(rig.pose[j].rotation.angularDistance(alone.pose[j].rotation), 1e-3f)
            << "limited " << limited << " frame " << frame << " joint " << k;
      }
    }
  }
}

TEST(FabrikIk, RunAllocatesNothing) {
  ChainRig rig = test::makeChain(Affine::Identity(), {.bones = 6, .twistJoint = true});
  std::vector<JointConstraint> constraints(7);
  constraints[1] = JointConstraint::cone(test::boneAxisLocal(rig, 1), 0.8f).withTwistLimit(-0.3f, 0.3f);
  constraints[2] = JointConstraint::hinge(test::boneAxisLocal(rig, 2).unitOrthogonal(), -1.0f, 1.0f);
  FabrikSetup setup;
  FabrikIkJob job = makeJob(rig, setup, rig.rootModel() + Vec3(1.0f, 2.0f, -0.5f));
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
