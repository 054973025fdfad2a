#include "core/ik/two_bone_ik.h"

#include <gtest/gtest.h>

#include <cstring>
#include <functional>
#include <iterator>
#include <limits>
#include <utility>

#include "core/ik/allocation_counter.h"
#include "core/ik/ik_test_util.h"
#include "core/skeleton/local_to_model.h"

namespace articula {
namespace {

using test::ChainRig;

// Knee offset from the start–end line, model space, or the space `fromModel` maps it into.
Vec3 kneeAcrossModel(const ChainRig& rig, const Mat3& fromModel = Mat3::Identity()) {
  const Vec3 start = rig.positionModel(rig.chainJoints[0]);
  const Vec3 axis = (fromModel * (rig.positionModel(rig.chainJoints[2]) - start)).normalized();
  const Vec3 knee = fromModel * (rig.positionModel(rig.chainJoints[1]) - start);
  return knee - axis * knee.dot(axis);
}

TEST(TwoBoneIk, DefaultJobIsInvalid) {
  TwoBoneIkJob job;
  ASSERT_TRUE(job.validate().has_value());
  EXPECT_EQ(*job.validate(), "two-bone IK: no skeleton");
  EXPECT_FALSE(job.run());
}

TEST(TwoBoneIk, ReachesRandomTargetsUnderEveryFrameWithBothMethods) {
  for (const auto& frame : test::framesOfReference()) {
    for (const bool twistJoint : {false, true}) {
      std::mt19937 rng(7);
      for (int trial = 0; trial < 40; ++trial) {
        const ChainRig base = test::makeChain(frame.parentModel, {.bones = 2, .bent = true, .twistJoint = twistJoint});
        const Vec3 target = test::randomReachableTargetModel(base, rng);
        const float length = base.lengthModel();
        for (const auto method : {TwoBoneIkJob::Method::LawOfCosines, TwoBoneIkJob::Method::TrigFree}) {
          ChainRig rig = base;
          TwoBoneIkJob job = test::makeTwoBoneJob(rig, target);
          job.method = method;
          IkReport report;
          job.report = &report;
          ASSERT_FALSE(job.validate().has_value()) << frame.name << ": " << *job.validate();
          ASSERT_TRUE(job.run());
          rig.fk();
          const float error = (rig.tipModel() - target).norm();
          EXPECT_LE(error, 1e-4f * length) << frame.name << " trial " << trial;
          EXPECT_NEAR(report.errorModel, error, 1e-4f * length);
          EXPECT_EQ(report.iterations, 1);
          // The knee bends towards the pole (model space: the pole's side of the start–end line).
          EXPECT_GT(kneeAcrossModel(rig).dot(job.poleModel), 0.0f) << frame.name << " trial " << trial;
        }
      }
    }
  }
}

TEST(TwoBoneIk, TrigFreeAgreesWithLawOfCosinesWithin1e5) {
  for (const auto& frame : test::framesOfReference()) {
    std::mt19937 rng(11);
    for (int trial = 0; trial < 50; ++trial) {
      ChainRig a = test::makeChain(frame.parentModel, {.bones = 2});
      ChainRig b = a;
      const Vec3 target = test::randomReachableTargetModel(a, rng, 2.5f);
      TwoBoneIkJob jobA = test::makeTwoBoneJob(a, target);
      jobA.soften = 0.95f;
      jobA.twistAngleRad = 0.3f;
      TwoBoneIkJob jobB = test::makeTwoBoneJob(b, target);
      jobB.soften = 0.95f;
      jobB.twistAngleRad = 0.3f;
      jobB.method = TwoBoneIkJob::Method::TrigFree;
      ASSERT_TRUE(jobA.run());
      ASSERT_TRUE(jobB.run());
      for (int k = 0; k < 2; ++k) {
        const auto j = static_cast<std::size_t>(a.chainJoints[static_cast<std::size_t>(k)]);
        EXPECT_LE((a.pose[j].rotation.coeffs() - b.pose[j].rotation.coeffs()).cwiseAbs().maxCoeff(), 1e-5f)
            << frame.name << " trial " << trial << " joint " << k;
      }
    }
  }
}

TEST(TwoBoneIk, UnreachableTargetGivesAStraightLimbTowardsIt) {
  for (const auto& frame : test::framesOfReference()) {
    for (const auto method : {TwoBoneIkJob::Method::LawOfCosines, TwoBoneIkJob::Method::TrigFree}) {
      ChainRig rig = test::makeChain(frame.parentModel, {.bones = 2});
      const Vec3 target = rig.rootModel() + frame.parentModel.linear() * Vec3(3.0f, 2.0f, -1.0f);
      TwoBoneIkJob job = test::makeTwoBoneJob(rig, target);
      job.method = method;
      IkReport report;
      job.report = &report;
      ASSERT_TRUE(job.run());
      rig.fk();
      EXPECT_FALSE(report.reached);
      // The reported error is where the written rotations put the end joint.
      EXPECT_NEAR(report.errorModel, (rig.tipModel() - target).norm(), 1e-5f * rig.lengthModel()) << frame.name;
      EXPECT_LE(test::straightnessRad(rig, target), 1e-3f) << frame.name;
      EXPECT_TRUE(test::poseIsFinite(rig.pose));
    }
  }
}

// A pose may hold rotations that are not unit (a hand-edited file, a blend that skipped the
// normalisation): they are read as the rotations they stand for, so any non-zero scale,
// either sign, on the solved joints and on a twist joint between them gives the unit
// rotations, target reach and error of the unit pose — also for a straight limb (its bend
// axis comes from the mid joint's rotation) and with a blend weight.
TEST(TwoBoneIk, SolvedJointsRotationsNeedNotBeUnit) {
  for (const auto& frame : test::framesOfReference()) {
    for (const bool bent : {true, false}) {
      const ChainRig unit = test::makeChain(frame.parentModel, {.bones = 2, .bent = bent, .twistJoint = bent});
      std::mt19937 rng(5);
      for (int trial = 0; trial < 10; ++trial) {
        const Vec3 target = test::randomReachableTargetModel(unit, rng, trial % 2 == 0 ? 0.9f : 1.6f);
        for (const auto method : {TwoBoneIkJob::Method::LawOfCosines, TwoBoneIkJob::Method::TrigFree}) {
          for (const float weight : {1.0f, 0.5f}) {
            auto solve = [&](ChainRig& rig, IkReport& report) {
              TwoBoneIkJob job = test::makeTwoBoneJob(rig, target);
              job.method = method;
              job.weight = weight;
              job.report = &report;
              return job.run();
            };
            ChainRig expected = unit;
            IkReport expectedReport;
            ASSERT_TRUE(solve(expected, expectedReport));
            for (const auto& [startScale, midScale] : {std::pair{1e-3f, 250.0f}, std::pair{-40.0f, -0.02f}}) {
              ChainRig scaled = unit;
              scaled.pose[static_cast<std::size_t>(scaled.chainJoints[0])].rotation.coeffs() *= startScale;
              scaled.pose[static_cast<std::size_t>(scaled.chainJoints[1])].rotation.coeffs() *= midScale;
              if (const int twist = scaled.skeleton.findJoint("twist"); twist >= 0)
                scaled.pose[static_cast<std::size_t>(twist)].rotation.coeffs() *= 1.0f / midScale;
              IkReport report;
              ASSERT_TRUE(solve(scaled, report));
              for (int k = 0; k < 2; ++k) {
                const auto j = static_cast<std::size_t>(unit.chainJoints[static_cast<std::size_t>(k)]);
                const Quat& q = scaled.pose[j].rotation;
                EXPECT_NEAR(q.norm(), 1.0f, 1e-6f);
                // The same rotation: q and −q stand for it.
                EXPECT_GE(std::abs(q.dot(expected.pose[j].rotation)), 1.0f - 1e-6f)
                    << frame.name << " trial " << trial << " joint " << k << " weight " << weight;
              }
              EXPECT_NEAR(report.errorModel, expectedReport.errorModel, 1e-5f * unit.lengthModel());
              // FK (the test's, as the engine's) takes unit rotations.
              for (Transform& t : scaled.pose) t.rotation.normalize();
              scaled.fk();
              EXPECT_NEAR(report.errorModel, (scaled.tipModel() - target).norm(), 1e-5f * unit.lengthModel());
            }
          }
        }
      }
    }
  }
}

TEST(TwoBoneIk, SofteningKeepsTheKneeFromSnappingStraight) {
  // The target slides out through full extension: with softening, the reach grows smoothly
  // (the knee angle changes by a bounded amount per step) and never quite straightens.
  ChainRig rest = test::makeChain(Affine::Identity(), {.bones = 2});
  const Vec3 root = rest.rootModel();
  const Vec3 dir = (rest.tipModel() - root).normalized();
  float previousReach = 0.0f;
  for (int step = 0; step <= 200; ++step) {
    ChainRig rig = rest;
    const float distance = 1.5f + 0.5f * static_cast<float>(step) / 200.0f;  // 1.5 .. 2.0 (max 1.8)
    TwoBoneIkJob job = test::makeTwoBoneJob(rig, root + dir * distance);
    job.soften = 0.9f;
    ASSERT_TRUE(job.run());
    rig.fk();
    const float reach = (rig.tipModel() - root).norm();
    EXPECT_LT(reach, 1.8f - 1e-4f);
    if (step > 0) {
      EXPECT_GE(reach, previousReach - 1e-5f);
      EXPECT_LE(reach - previousReach, 0.5f / 200.0f + 1e-5f);
    }
    previousReach = reach;
  }
}

TEST(TwoBoneIk, TwistTurnsTheKneeAboutTheStartTargetAxis) {
  ChainRig a = test::makeChain(Affine::Identity(), {.bones = 2});
  ChainRig b = a;
  const Vec3 target = a.rootModel() + Vec3(1.0f, 0.8f, 0.2f);
  TwoBoneIkJob jobA = test::makeTwoBoneJob(a, target);
  TwoBoneIkJob jobB = test::makeTwoBoneJob(b, target);
  jobB.twistAngleRad = 0.5f;
  ASSERT_TRUE(jobA.run());
  ASSERT_TRUE(jobB.run());
  a.fk();
  b.fk();
  const Vec3 kneeA = kneeAcrossModel(a);
  const Vec3 kneeB = kneeAcrossModel(b);
  const Vec3 axis = (target - a.rootModel()).normalized();
  EXPECT_NEAR(std::atan2(kneeA.cross(kneeB).dot(axis), kneeA.dot(kneeB)), 0.5f, 1e-4f);
  EXPECT_LE((b.tipModel() - target).norm(), 1e-4f);
}

TEST(TwoBoneIk, DegenerateInputsFailWithAMessageOrGiveAFiniteResult) {
  ChainRig rig = test::makeChain(Affine::Identity(), {.bones = 2});
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const float inf = std::numeric_limits<float>::infinity();
  {
    TwoBoneIkJob job = test::makeTwoBoneJob(rig, Vec3(nan, 0.0f, 0.0f));
    EXPECT_EQ(job.validate().value_or(""), "two-bone IK: the target is not finite");
    const Pose before = rig.pose;
    EXPECT_FALSE(job.run());
    for (std::size_t j = 0; j < before.size(); ++j)
      EXPECT_EQ(before[j].rotation.coeffs(), rig.pose[j].rotation.coeffs());
  }
  {
    TwoBoneIkJob job = test::makeTwoBoneJob(rig, Vec3(inf, 0.0f, 0.0f));
    EXPECT_EQ(job.validate().value_or(""), "two-bone IK: the target is not finite");
  }
  {
    TwoBoneIkJob job = test::makeTwoBoneJob(rig, Vec3::Ones());
    job.poleModel = Vec3::Zero();
    EXPECT_EQ(job.validate().value_or(""), "two-bone IK: the pole vector is zero");
  }
  {
    TwoBoneIkJob job = test::makeTwoBoneJob(rig, Vec3::Ones());
    job.endJoint = job.startJoint;
    EXPECT_EQ(job.validate().value_or(""), "two-bone IK: end joint 0 'root' is not below mid joint 1 'joint1'");
  }
  {
    ChainRig zero = rig;
    zero.pose[2].translation = Vec3::Zero();
    zero.fk();
    TwoBoneIkJob job = test::makeTwoBoneJob(zero, Vec3::Ones());
    EXPECT_EQ(job.validate().value_or(""), "two-bone IK: zero-length bone from joint 1 'joint1' to joint 2 'joint2'");
  }
  {
    // The end joint's rotation and scale move nothing solved: not read, so not refused; its
    // translation is the lower bone.
    ChainRig endSpoiled = rig;
    endSpoiled.pose[2].scale = Vec3(nan, 1.0f, inf);
    endSpoiled.pose[2].rotation.coeffs().setConstant(nan);
    TwoBoneIkJob job = test::makeTwoBoneJob(endSpoiled, Vec3(0.5f, 1.0f, 0.25f));
    IkReport report;
    job.report = &report;
    EXPECT_EQ(job.validate(), std::nullopt);
    ASSERT_TRUE(job.run());
    EXPECT_TRUE(std::isfinite(endSpoiled.pose[0].rotation.w()) && std::isfinite(endSpoiled.pose[1].rotation.w()));
    EXPECT_TRUE(report.reached);
    endSpoiled.pose[2].translation.y() = nan;
    EXPECT_EQ(job.validate().value_or(""), "two-bone IK: the local transform of joint 2 'joint2' is not finite");
  }
  for (const auto method : {TwoBoneIkJob::Method::LawOfCosines, TwoBoneIkJob::Method::TrigFree}) {
    // Target exactly at the start joint: a defined, finite result (folded limb).
    ChainRig atRoot = rig;
    TwoBoneIkJob job = test::makeTwoBoneJob(atRoot, atRoot.rootModel());
    job.method = method;
    ASSERT_TRUE(job.run());
    EXPECT_TRUE(test::poseIsFinite(atRoot.pose));
    // Pole on the start–target axis: the bend plane stays defined.
    ChainRig onAxis = rig;
    const Vec3 target = onAxis.rootModel() + Vec3(1.0f, 0.5f, 0.0f);
    TwoBoneIkJob poleJob = test::makeTwoBoneJob(onAxis, target);
    poleJob.method = method;
    poleJob.poleModel = target - onAxis.rootModel();
    IkReport report;
    poleJob.report = &report;
    ASSERT_TRUE(poleJob.run());
    EXPECT_TRUE(test::poseIsFinite(onAxis.pose));
    EXPECT_TRUE(report.reached);
    // Straight input limb with the pole collinear: the fallback bend axis decides.
    ChainRig straight = test::makeChain(Affine::Identity(), {.bones = 2, .bent = false});
    const Vec3 along = straight.tipModel() - straight.rootModel();
    TwoBoneIkJob straightJob = test::makeTwoBoneJob(straight, straight.rootModel() + 0.7f * along);
    straightJob.method = method;
    straightJob.poleModel = along;
    straightJob.report = &report;
    ASSERT_TRUE(straightJob.run());
    EXPECT_TRUE(test::poseIsFinite(straight.pose));
    EXPECT_TRUE(report.reached);
  }
}

TEST(TwoBoneIk, MovingTargetNearFullExtensionNeverFlipsTheKneePlane) {
  for (const auto method : {TwoBoneIkJob::Method::LawOfCosines, TwoBoneIkJob::Method::TrigFree}) {
    for (const float soften : {1.0f, 0.97f}) {
      ChainRig rig = test::makeChain(test::framesOfReference()[5].parentModel, {.bones = 2, .bent = false});
      const Vec3 root = rig.rootModel();
      const Vec3 along = rig.tipModel() - root;
      const Vec3 side = along.unitOrthogonal();
      Vec3 previousNormal = Vec3::Zero();
      for (int frame = 0; frame < 1000; ++frame) {
        const float t = static_cast<float>(frame) * 0.02f;
        // In and out of full extension, swinging a little to the side.
        const Vec3 target = root + along * (0.98f + 0.03f * std::sin(t)) + side * (0.05f * std::sin(0.37f * t));
        TwoBoneIkJob job = test::makeTwoBoneJob(rig, target);
        job.method = method;
        job.soften = soften;
        job.poleModel = along.cross(side);
        ASSERT_TRUE(job.run());
        rig.fk();
        ASSERT_TRUE(test::poseIsFinite(rig.pose));
        const Vec3 start = rig.rootModel();
        const Vec3 normal = (rig.positionModel(rig.chainJoints[1]) - start).cross(rig.tipModel() - start);
        if (normal.norm() < 1e-6f) continue;  // straight: no plane this frame
        const Vec3 unit = normal.normalized();
        if (previousNormal.squaredNorm() > 0.0f) {
          EXPECT_LE(std::atan2(previousNormal.cross(unit).norm(), previousNormal.dot(unit)), 10.0f * kPi / 180.0f)
              << "frame " << frame;
        }
        previousNormal = unit;
      }
    }
  }
}

TEST(TwoBoneIk, AStraightOrNearlyStraightLimbBendsAboutTheAxisAcrossThePole) {
  // A knee held straight, or within a degree of it about any axis (capture noise), bends
  // about the axis across the limb and the pole, whatever the fallback axis says, and the
  // start joint only swings in the pole's plane. Bent about another axis, the knee would turn
  // about it and the start joint twist the limb back into the pole's plane: a pop in both
  // joints' local rotations between a straight frame and a bent one.
  for (const auto method : {TwoBoneIkJob::Method::LawOfCosines, TwoBoneIkJob::Method::TrigFree}) {
    for (const float noiseRad : {0.0f, 0.01f}) {
      SCOPED_TRACE(noiseRad);
      ChainRig rig = test::makeChain(Affine::Identity(), {.bones = 2, .bent = false});
      const int start = rig.chainJoints[0];
      const int mid = rig.chainJoints[1];
      const Vec3 root = rig.rootModel();
      const Vec3 along = rig.tipModel() - root;
      const Vec3 u = along.normalized();
      const Vec3 pole = u.unitOrthogonal();
      const Vec3 hingeModel = pole.cross(u);
      const Quat midParentModel(rig.model[static_cast<std::size_t>(rig.skeleton.parent(mid))].linear());
      // Bent (by the noise) about the pole's direction: sideways to the wanted bend.
      const Vec3 sidewaysMidLocal = midParentModel.conjugate() * pole;
      rig.pose[static_cast<std::size_t>(mid)].rotation = Quat(Eigen::AngleAxisf(noiseRad, sidewaysMidLocal));
      rig.fk();
      const Quat startBefore = rig.pose[static_cast<std::size_t>(start)].rotation;
      TwoBoneIkJob job = test::makeTwoBoneJob(rig, root + 0.9f * along);
      job.method = method;
      job.poleMode = TwoBoneIkJob::PoleMode::Vector;
      job.poleModel = pole;
      job.fallbackBendAxisMidLocal = sidewaysMidLocal;
      ASSERT_TRUE(job.run());
      rig.fk();
      EXPECT_GT(kneeAcrossModel(rig).dot(pole), 0.0f);
      const Vec3 kneeAxisModel = midParentModel * rig.pose[static_cast<std::size_t>(mid)].rotation.vec().normalized();
      EXPECT_GT(std::abs(kneeAxisModel.dot(hingeModel)), std::cos(2.0f * kPi / 180.0f));
      // The start joint's parent space is model space here.
      const Quat startTurn = rig.pose[static_cast<std::size_t>(start)].rotation * startBefore.conjugate();
      EXPECT_LT(std::abs(startTurn.vec().normalized().dot(u)), std::sin(2.0f * kPi / 180.0f));
    }
  }
}

TEST(TwoBoneIk, AStraightOrFoldedLimbSolvedAgainKeepsItsTwist) {
  // A rig's pole rides on the start joint (a leg's pole in front of the knee, in the thigh's
  // frame). A target beyond reach straightens the limb, one closer than |upper − lower| folds
  // it (the lower bone the longer: the end behind the start); solved again with the pole the
  // turned start joint now carries (a keyed pose played back), the limb stays as it is. The
  // folded limb twisted a half turn about its line on every solve (RobotExpressive's right
  // shin turned 180° when keyed).
  const Vec3 targetsFromRoot[] = {Vec3(-1.0f, 2.5f, 1.5f), Vec3(0.05f, -0.1f, 0.08f)};
  for (const auto method : {TwoBoneIkJob::Method::LawOfCosines, TwoBoneIkJob::Method::TrigFree}) {
    for (const auto& frame : test::framesOfReference()) {
      for (const Vec3& fromRoot : targetsFromRoot) {
        SCOPED_TRACE(frame.name + (fromRoot.norm() > 1.0f ? ", beyond reach" : ", folded"));
        ChainRig rig = test::makeChain(frame.parentModel, {.bones = 2, .innerScale = 1.5f});
        const int start = rig.chainJoints[0];
        const Vec3 poleStartLocal =
            rig.model[static_cast<std::size_t>(start)].inverse() *
            (rig.positionModel(rig.chainJoints[1]) + rig.parentModel.linear() * Vec3(0.0f, 1.0f, 0.3f));
        const Vec3 target = rig.rootModel() + frame.parentModel.linear() * fromRoot;
        Pose solved;
        for (int solve = 0; solve < 2; ++solve) {
          TwoBoneIkJob job = test::makeTwoBoneJob(rig, target);
          job.method = method;
          job.poleMode = TwoBoneIkJob::PoleMode::Target;
          job.poleModel = rig.model[static_cast<std::size_t>(start)] * poleStartLocal;
          ASSERT_TRUE(job.run());
          rig.fk();
          if (solve == 0) solved = rig.pose;
        }
        for (const int joint : {start, rig.chainJoints[1]}) {
          const auto j = static_cast<std::size_t>(joint);
          EXPECT_LE(solved[j].rotation.angularDistance(rig.pose[j].rotation), 1e-4f) << "joint " << joint;
        }
      }
    }
  }
}

TEST(TwoBoneIk, PoleTargetAndWeight) {
  for (const auto& frame : test::framesOfReference()) {
    ChainRig rig = test::makeChain(frame.parentModel, {.bones = 2});
    const Vec3 target = rig.rootModel() + frame.parentModel.linear() * Vec3(1.2f, 0.6f, 0.3f);
    const Vec3 poleTarget = rig.rootModel() + frame.parentModel.linear() * Vec3(0.5f, 0.2f, 2.0f);
    ChainRig solved = rig;
    TwoBoneIkJob job = test::makeTwoBoneJob(solved, target);
    job.poleMode = TwoBoneIkJob::PoleMode::Target;
    job.poleModel = poleTarget;
    ASSERT_TRUE(job.run());
    solved.fk();
    EXPECT_LE((solved.tipModel() - target).norm(), 1e-4f * solved.lengthModel()) << frame.name;
    EXPECT_GT(kneeAcrossModel(solved).dot(poleTarget - solved.rootModel()), 0.0f) << frame.name;
    // weight 0 keeps the input, 0.5 lies between input and solve.
    for (const float weight : {0.0f, 0.5f}) {
      ChainRig blended = rig;
      TwoBoneIkJob weighted = test::makeTwoBoneJob(blended, target);
      weighted.poleMode = TwoBoneIkJob::PoleMode::Target;
      weighted.poleModel = poleTarget;
      weighted.weight = weight;
      ASSERT_TRUE(weighted.run());
      for (int k = 0; k < 2; ++k) {
        const auto j = static_cast<std::size_t>(rig.chainJoints[static_cast<std::size_t>(k)]);
        const float full = rig.pose[j].rotation.angularDistance(solved.pose[j].rotation);
        EXPECT_NEAR(blended.pose[j].rotation.angularDistance(rig.pose[j].rotation), weight * full, 1e-4f) << frame.name;
      }
    }
  }
}

bool sameRotationBits(const Pose& a, const Pose& b) {
  for (std::size_t j = 0; j < a.size(); ++j) {
    if (std::memcmp(a[j].rotation.coeffs().data(), b[j].rotation.coeffs().data(), 4 * sizeof(float)) != 0) return false;
  }
  return true;
}

// Near a half turn the start joint's half-way quaternion cancels and the careful conversion
// (fromToRotation) must take over. Targets and poles swept round the limb, with the pole
// keeping the knee's side, turn it rigidly up to exactly 180° about each of three axes of the
// chain frame (where the limb is rigid whatever the frame's scale): across the reach and the
// knee (the bend plane stays put), along the knee's offset (the target goes behind) and along
// the reach (the target stays, the pole goes round).
TEST(TwoBoneIk, TurnsUpToHalfwayRoundOntoATargetBehind) {
  for (const auto& frame : test::framesOfReference()) {
    const Mat3 toChain = frame.parentModel.linear().inverse();
    for (const auto method : {TwoBoneIkJob::Method::LawOfCosines, TwoBoneIkJob::Method::TrigFree}) {
      const ChainRig rest = test::makeChain(frame.parentModel, {.bones = 2});
      const Vec3 root = rest.rootModel();
      const Vec3 reach = toChain * (rest.tipModel() - root);
      const Vec3 knee = kneeAcrossModel(rest, toChain);
      for (const Vec3& axis :
           {Vec3(reach.cross(knee).normalized()), Vec3(knee.normalized()), Vec3(reach.normalized())}) {
        for (const float degrees : {120.0f, 140.0f, 150.0f, 160.0f, 170.0f, 175.0f, 179.0f, 179.9f, 180.0f}) {
          const Eigen::AngleAxisf turn(degrees * kPi / 180.0f, axis);
          for (const float distance : {1.0f, 0.8f}) {  // as far as now: the whole limb turns rigidly
            ChainRig rig = rest;
            const Vec3 target = root + frame.parentModel.linear() * (turn * (distance * reach));
            TwoBoneIkJob job = test::makeTwoBoneJob(rig, target);
            job.method = method;
            job.poleModel = frame.parentModel.linear() * (turn * knee);
            IkReport report;
            job.report = &report;
            ASSERT_TRUE(job.run());
            rig.fk();
            ASSERT_TRUE(test::poseIsFinite(rig.pose));
            EXPECT_LE((rig.tipModel() - target).norm(), 1e-4f * rest.lengthModel()) << frame.name << ' ' << degrees;
            EXPECT_GT(kneeAcrossModel(rig, toChain).dot(turn * knee), 0.0f) << frame.name << ' ' << degrees;
          }
        }
      }
    }
  }
}

// After a run of the limb, every bad parameter set for the next run must be refused, write
// nothing, and read as validate() words it.
TEST(TwoBoneIk, ARunRefusesEveryBadParameter) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const float inf = std::numeric_limits<float>::infinity();
  struct Case {
    const char* message;
    std::function<void(TwoBoneIkJob&, Pose&)> spoil;
  };
  // A limb below the skeleton root: its frame does not depend on the start joint's rotation.
  const std::size_t start = 1;
  const std::size_t mid = 2;
  const Case cases[] = {
      {"the target is not finite", [&](TwoBoneIkJob& j, Pose&) { j.targetModel.y() = nan; }},
      {"the target is not finite", [&](TwoBoneIkJob& j, Pose&) { j.targetModel.z() = -inf; }},
      {"the pole is not finite", [&](TwoBoneIkJob& j, Pose&) { j.poleModel.x() = inf; }},
      {"the pole vector is zero", [](TwoBoneIkJob& j, Pose&) { j.poleModel = Vec3::Zero(); }},
      {"the fallback bend axis is zero or not finite",
       [](TwoBoneIkJob& j, Pose&) { j.fallbackBendAxisMidLocal = Vec3::Zero(); }},
      {"the fallback bend axis is zero or not finite",
       [&](TwoBoneIkJob& j, Pose&) { j.fallbackBendAxisMidLocal.z() = nan; }},
      {"the twist angle is not finite", [&](TwoBoneIkJob& j, Pose&) { j.twistAngleRad = inf; }},
      {"soften is not in [0, 1]", [](TwoBoneIkJob& j, Pose&) { j.soften = 1.5f; }},
      {"soften is not in [0, 1]", [](TwoBoneIkJob& j, Pose&) { j.soften = -0.1f; }},
      {"soften is not in [0, 1]", [&](TwoBoneIkJob& j, Pose&) { j.soften = nan; }},
      {"weight is not in [0, 1]", [](TwoBoneIkJob& j, Pose&) { j.weight = 1.01f; }},
      {"weight is not in [0, 1]", [](TwoBoneIkJob& j, Pose&) { j.weight = -0.5f; }},
      {"weight is not in [0, 1]", [&](TwoBoneIkJob& j, Pose&) { j.weight = nan; }},
      {"the tolerance is negative or not finite", [](TwoBoneIkJob& j, Pose&) { j.toleranceModel = -1e-3f; }},
      {"the tolerance is negative or not finite", [&](TwoBoneIkJob& j, Pose&) { j.toleranceModel = inf; }},
      {"the local transform of joint 1 'joint1' is not finite",
       [&](TwoBoneIkJob&, Pose& p) { p[start].rotation.w() = nan; }},
      {"the local rotation of joint 1 'joint1' is zero",
       [](TwoBoneIkJob&, Pose& p) { p[start].rotation = Quat(0.0f, 0.0f, 0.0f, 0.0f); }},
      {"the local transform of joint 2 'joint2' is not finite",
       [&](TwoBoneIkJob&, Pose& p) { p[mid].rotation.y() = -inf; }},
      {"the local rotation of joint 2 'joint2' is zero",
       [](TwoBoneIkJob&, Pose& p) { p[mid].rotation = Quat(0.0f, 0.0f, 0.0f, 0.0f); }},
      // |q|² = 6.4e-13, under the 1e-12 where a rotation counts as zero.
      {"the local rotation of joint 1 'joint1' is zero",
       [](TwoBoneIkJob&, Pose& p) { p[start].rotation = Quat(4e-7f, 4e-7f, 4e-7f, 4e-7f); }},
      {"the local transform of joint 1 'joint1' is not finite",
       [&](TwoBoneIkJob&, Pose& p) { p[start].rotation.x() = inf; }},
      // Squares that underflow to zero.
      {"the pole vector is zero", [](TwoBoneIkJob& j, Pose&) { j.poleModel = Vec3(1e-30f, 0.0f, -1e-30f); }},
      {"the fallback bend axis is zero or not finite",
       [](TwoBoneIkJob& j, Pose&) { j.fallbackBendAxisMidLocal = Vec3(0.0f, 1e-25f, 0.0f); }},
      {"the twist angle is not finite", [&](TwoBoneIkJob& j, Pose&) { j.twistAngleRad = -nan; }},
      {"the tolerance is negative or not finite", [&](TwoBoneIkJob& j, Pose&) { j.toleranceModel = nan; }},
  };
  for (const Case& c : cases) {
    ChainRig rig = test::makeChain(Affine::Identity(), {.bones = 3});
    TwoBoneIkJob job = test::makeTwoBoneJob(rig, rig.positionModel(rig.chainJoints[1]) + Vec3(0.5f, 1.0f, 0.2f));
    job.startJoint = rig.chainJoints[start];
    job.midJoint = rig.chainJoints[mid];
    job.endJoint = rig.chainJoints[3];
    ASSERT_TRUE(job.run());
    job.targetModel += Vec3(0.1f, -0.2f, 0.05f);
    c.spoil(job, rig.pose);
    const Pose before = rig.pose;
    EXPECT_FALSE(job.run()) << c.message;
    EXPECT_TRUE(sameRotationBits(before, rig.pose)) << c.message;
    EXPECT_EQ(job.validate().value_or(""), std::string("two-bone IK: ") + c.message);
  }
}

// The other side of the lines the checks draw: a rotation just above |q|² = 1e-12, a zero pole
// point (PoleMode::Target), soften and weight at 0 and 1, a zero tolerance.
TEST(TwoBoneIk, ARunAcceptsEveryValidParameterAtItsLimit) {
  struct Case {
    const char* name;
    std::function<void(TwoBoneIkJob&, Pose&)> set;
  };
  const std::size_t start = 1;
  const Case cases[] = {
      {"tiny start rotation", [](TwoBoneIkJob&, Pose& p) { p[start].rotation.coeffs() *= 2e-6f; }},
      {"zero pole point",
       [](TwoBoneIkJob& j, Pose&) {
         j.poleMode = TwoBoneIkJob::PoleMode::Target;
         j.poleModel = Vec3::Zero();
       }},
      {"soften 0, weight 0",
       [](TwoBoneIkJob& j, Pose&) {
         j.soften = 0.0f;
         j.weight = 0.0f;
       }},
      {"soften 1, weight 1, tolerance 0",
       [](TwoBoneIkJob& j, Pose&) {
         j.soften = 1.0f;
         j.weight = 1.0f;
         j.toleranceModel = 0.0f;
       }},
  };
  for (const Case& c : cases) {
    ChainRig rig = test::makeChain(Affine::Identity(), {.bones = 3});
    TwoBoneIkJob job = test::makeTwoBoneJob(rig, rig.positionModel(rig.chainJoints[1]) + Vec3(0.5f, 1.0f, 0.2f));
    job.startJoint = rig.chainJoints[start];
    job.midJoint = rig.chainJoints[2];
    job.endJoint = rig.chainJoints[3];
    ASSERT_TRUE(job.run());
    job.targetModel += Vec3(0.1f, -0.2f, 0.05f);
    c.set(job, rig.pose);
    EXPECT_FALSE(job.validate().has_value()) << c.name << ": " << job.validate().value_or("");
    EXPECT_TRUE(job.run()) << c.name;
    EXPECT_TRUE(test::poseIsFinite(rig.pose)) << c.name;
  }
}

TEST(TwoBoneIk, RunAllocatesNothing) {
  for (const auto method : {TwoBoneIkJob::Method::LawOfCosines, TwoBoneIkJob::Method::TrigFree}) {
    ChainRig rig = test::makeChain(Affine::Identity(), {.bones = 2, .twistJoint = true});
    IkReport report;
    TwoBoneIkJob job = test::makeTwoBoneJob(rig, rig.rootModel() + Vec3(0.5f, 1.0f, 0.2f));
    job.method = method;
    job.report = &report;
    test::armAllocationCounter();
    const bool ran = job.run();
    const int allocations = test::disarmAllocationCounter();
    EXPECT_TRUE(ran);
    EXPECT_EQ(allocations, 0);
  }
}

}  // namespace
}  // namespace articula
