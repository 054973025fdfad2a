#include "core/ik/jacobian_ik.h"

#include <gtest/gtest.h>

#include <limits>

#include "core/ik/allocation_counter.h"
#include "core/ik/ik_test_util.h"

namespace articula {
namespace {

using test::ChainRig;
using Method = JacobianIkJob::Method;

constexpr Method kMethods[] = {Method::Transpose, Method::PseudoInverse, Method::DampedLeastSquares,
                               Method::SelectivelyDamped};

const char* methodName(Method m) {
  switch (m) {
    case Method::Transpose:
      return "transpose";
    case Method::PseudoInverse:
      return "pseudo-inverse";
    case Method::DampedLeastSquares:
      return "DLS";
    case Method::SelectivelyDamped:
      return "SDLS";
  }
  return "";
}

struct TreeSetup {
  IkTree tree;
  IkTreeWorkspace workspace;
  std::vector<IkEffectorTarget> targets;
};

JacobianIkJob makeJob(ChainRig& rig, TreeSetup& setup, int root, std::span<const IkTreeEffector> effectors) {
  auto tree = IkTree::build(rig.skeleton, root, effectors);
  EXPECT_TRUE(tree.ok()) << tree.error();
  setup.tree = *tree;
  setup.workspace.resize(setup.tree);
  setup.targets.assign(effectors.size(), IkEffectorTarget{});
  JacobianIkJob job;
  job.tree = &setup.tree;
  job.workspace = &setup.workspace;
  job.pose = rig.pose;
  job.model = rig.model;
  job.targets = setup.targets;
  job.toleranceModel = 1e-5f * rig.lengthModel();
  job.maxIterations = 500;
  return job;
}

JacobianIkJob makeChainJob(ChainRig& rig, TreeSetup& setup, const Vec3& targetModel) {
  const IkTreeEffector effector{rig.chainJoints.back(), false};
  JacobianIkJob job = makeJob(rig, setup, rig.chainJoints.front(), std::span<const IkTreeEffector>(&effector, 1));
  setup.targets[0].positionModel = targetModel;
  return job;
}

// A spine of three joints and two arms of three joints each, below the given parent.
ChainRig makeBranchingTree(const Affine& parentModel) {
  ChainRig rig;
  rig.parentModel = parentModel;
  auto add = [&](const char* name, int parent, const Vec3& t, float angle) {
    Transform local;
    local.translation = t;
    local.rotation = Quat(Eigen::AngleAxisf(angle, Vec3(0.3f, 0.5f, 1.0f).normalized()));
    return rig.skeleton.addJoint(name, parent, local);
  };
  const int pelvis = add("pelvis", kNoParent, Vec3(0.0f, 1.0f, 0.0f), 0.0f);
  const int spine = add("spine", pelvis, Vec3(0.0f, 0.5f, 0.0f), 0.1f);
  const int chest = add("chest", spine, Vec3(0.0f, 0.5f, 0.0f), -0.1f);
  int left = add("shoulder_l", chest, Vec3(0.3f, 0.3f, 0.0f), 0.2f);
  left = add("elbow_l", left, Vec3(0.5f, 0.0f, 0.0f), 0.3f);
  left = add("hand_l", left, Vec3(0.45f, 0.0f, 0.05f), 0.0f);
  int right = add("shoulder_r", chest, Vec3(-0.3f, 0.3f, 0.0f), -0.2f);
  right = add("elbow_r", right, Vec3(-0.5f, 0.0f, 0.0f), -0.3f);
  right = add("hand_r", right, Vec3(-0.45f, 0.0f, -0.05f), 0.0f);
  rig.chainJoints = {pelvis, left, right};
  rig.pose.assign(rig.skeleton.restPose().begin(), rig.skeleton.restPose().end());
  rig.fk();
  return rig;
}

// The same rig with every joint turned randomly: its joints' positions and rotations are
// targets the rig can reach.
ChainRig randomlyPosed(const ChainRig& rig, std::mt19937& rng, float maxAngleRad) {
  ChainRig other = rig;
  std::uniform_real_distribution<float> unit(-1.0f, 1.0f);
  std::uniform_real_distribution<float> angle(0.0f, maxAngleRad);
  for (Transform& t : other.pose) {
    const Vec3 axis = Vec3(unit(rng), unit(rng), unit(rng)) + Vec3(0.0f, 0.0f, 1e-3f);
    t.rotation = (Quat(Eigen::AngleAxisf(angle(rng), axis.normalized())) * t.rotation).normalized();
  }
  other.fk();
  return other;
}

Quat modelRotation(const ChainRig& rig, int joint) {
  Mat3 linear = rig.model[static_cast<std::size_t>(joint)].linear();
  for (int c = 0; c < 3; ++c) linear.col(c).normalize();
  return Quat(linear).normalized();
}

TEST(JacobianIk, DefaultJobIsInvalid) {
  JacobianIkJob job;
  ASSERT_TRUE(job.validate().has_value());
  EXPECT_EQ(*job.validate(), "Jacobian IK: no tree");
  EXPECT_FALSE(job.run());
}

TEST(JacobianIk, ReachesRandomTargetsUnderEveryFrameWithEveryMethod) {
  for (const auto& frame : test::framesOfReference()) {
    for (const Method method : kMethods) {
      std::mt19937 rng(29);
      for (int trial = 0; trial < 10; ++trial) {
        ChainRig rig = test::makeChain(frame.parentModel, {.bones = 5, .twistJoint = true, .innerScale = -1.2f});
        const Vec3 target = test::randomReachableTargetModel(rig, rng, 0.8f);
        const float length = rig.lengthModel();
        TreeSetup setup;
        JacobianIkJob job = makeChainJob(rig, setup, target);
        job.method = method;
        job.maxIterations = method == Method::Transpose ? 20000 : 500;
        IkReport report;
        job.report = &report;
        ASSERT_FALSE(job.validate().has_value()) << frame.name << ": " << *job.validate();
        ASSERT_TRUE(job.run());
        rig.fk();
        const float error = (rig.tipModel() - target).norm();
        EXPECT_LE(error, 1e-4f * length) << frame.name << " " << methodName(method) << " trial " << trial;
        EXPECT_TRUE(report.reached) << frame.name << " " << methodName(method) << " trial " << trial;
        EXPECT_NEAR(report.errorModel, error, 1e-4f * length);
      }
    }
  }
}

TEST(JacobianIk, JacobianMatchesFiniteDifferences) {
  std::mt19937 rng(31);
  for (const auto& frame : test::framesOfReference()) {
    ChainRig rig = randomlyPosed(makeBranchingTree(frame.parentModel), rng, 0.8f);
    rig.pose[3].scale = Vec3::Constant(-1.3f);  // a mirror inside the tree
    rig.fk();
    const IkTreeEffector effectors[] = {{rig.chainJoints[1], true}, {rig.chainJoints[2], false}};
    auto tree = IkTree::build(rig.skeleton, 0, effectors);
    ASSERT_TRUE(tree.ok()) << tree.error();
    IkTreeWorkspace ws(*tree);
    ASSERT_FALSE(ws.load(*tree, rig.pose, rig.model).has_value());
    const float weight = 0.7f;
    ws.computeJacobian(*tree, weight);
    const Eigen::MatrixXf analytic = ws.jacobian;
    const float h = 1e-3f;
    for (int node = 0; node < tree->nodeCount(); ++node) {
      const int dof = tree->dofIndex(node);
      if (dof < 0) continue;
      for (int i = 0; i < 3; ++i) {
        Eigen::VectorXf plus(tree->rows());
        Eigen::VectorXf minus(tree->rows());
        for (const float sign : {1.0f, -1.0f}) {
          IkTreeWorkspace moved = ws;
          Eigen::VectorXf step = Eigen::VectorXf::Zero(tree->cols());
          step(3 * dof + i) = sign * h;
          moved.applyUpdate(*tree, step);
          moved.forward(*tree);
          Eigen::VectorXf& out = sign > 0.0f ? plus : minus;
          for (int e = 0; e < tree->effectorCount(); ++e) {
            const auto en = static_cast<std::size_t>(tree->effectorNode(e));
            out.segment<3>(tree->rowOffset(e)) = moved.position[en];
            if (tree->effectorHasOrientation(e))
              out.segment<3>(tree->rowOffset(e) + 3) =
                  weight * 2.0f *
                  quatLog(alignHemisphere(moved.orientation[en] * ws.orientation[en].conjugate(), Quat::Identity()));
          }
        }
        const Eigen::VectorXf numeric = (plus - minus) / (2.0f * h);
        EXPECT_LE((numeric - analytic.col(3 * dof + i)).cwiseAbs().maxCoeff(), 2e-3f)
            << frame.name << " node " << node << " axis " << i << "\nnumeric " << numeric.transpose() << "\nanalytic "
            << analytic.col(3 * dof + i).transpose();
      }
    }
  }
}

TEST(JacobianIk, ReachesTwoTargetsOnABranchingTree) {
  for (const auto& frame : test::framesOfReference()) {
    for (const Method method : {Method::PseudoInverse, Method::DampedLeastSquares, Method::SelectivelyDamped}) {
      std::mt19937 rng(37);
      for (int trial = 0; trial < 10; ++trial) {
        ChainRig rig = makeBranchingTree(frame.parentModel);
        const ChainRig posed = randomlyPosed(rig, rng, 0.7f);
        const IkTreeEffector effectors[] = {{rig.chainJoints[1], false}, {rig.chainJoints[2], false}};
        TreeSetup setup;
        JacobianIkJob job = makeJob(rig, setup, 0, effectors);
        setup.targets[0].positionModel = posed.positionModel(rig.chainJoints[1]);
        setup.targets[1].positionModel = posed.positionModel(rig.chainJoints[2]);
        job.method = method;
        job.toleranceModel = 1e-5f;
        IkReport report;
        job.report = &report;
        ASSERT_TRUE(job.run());
        rig.fk();
        EXPECT_LE((rig.positionModel(rig.chainJoints[1]) - setup.targets[0].positionModel).norm(), 1e-4f)
            << frame.name << " " << methodName(method) << " trial " << trial;
        EXPECT_LE((rig.positionModel(rig.chainJoints[2]) - setup.targets[1].positionModel).norm(), 1e-4f)
            << frame.name << " " << methodName(method) << " trial " << trial;
        EXPECT_TRUE(report.reached);
      }
    }
  }
}

TEST(JacobianIk, ReachesPositionAndOrientationTargets) {
  const auto frames = test::framesOfReference();
  for (std::size_t f = 0; f < 4; ++f) {  // identity, translated, rotated, uniformly scaled
    for (const Method method : {Method::PseudoInverse, Method::DampedLeastSquares, Method::SelectivelyDamped}) {
      std::mt19937 rng(41);
      for (int trial = 0; trial < 10; ++trial) {
        ChainRig rig = makeBranchingTree(frames[f].parentModel);
        const ChainRig posed = randomlyPosed(rig, rng, 0.6f);
        const IkTreeEffector effectors[] = {{rig.chainJoints[1], true}, {rig.chainJoints[2], false}};
        TreeSetup setup;
        JacobianIkJob job = makeJob(rig, setup, 0, effectors);
        setup.targets[0] = {posed.positionModel(rig.chainJoints[1]), true, modelRotation(posed, rig.chainJoints[1])};
        setup.targets[1].positionModel = posed.positionModel(rig.chainJoints[2]);
        job.method = method;
        job.toleranceModel = 1e-5f;
        job.toleranceRad = 1e-4f;
        IkReport report;
        job.report = &report;
        ASSERT_FALSE(job.validate().has_value()) << *job.validate();
        ASSERT_TRUE(job.run());
        rig.fk();
        EXPECT_LE((rig.positionModel(rig.chainJoints[1]) - setup.targets[0].positionModel).norm(), 1e-4f)
            << frames[f].name << " " << methodName(method) << " trial " << trial;
        EXPECT_LE(modelRotation(rig, rig.chainJoints[1]).angularDistance(setup.targets[0].orientationModel), 2e-4f)
            << frames[f].name << " " << methodName(method) << " trial " << trial;
        EXPECT_TRUE(report.reached) << frames[f].name << " " << methodName(method) << " trial " << trial << " "
                                    << report.errorModel << " " << report.orientationErrorRad;
      }
    }
  }
  // A mirrored frame has no model rotation to aim at: refused with a message.
  ChainRig rig = makeBranchingTree(frames[5].parentModel);
  const IkTreeEffector effectors[] = {{rig.chainJoints[1], true}};
  TreeSetup setup;
  JacobianIkJob job = makeJob(rig, setup, 0, effectors);
  setup.targets[0].hasOrientation = true;
  EXPECT_EQ(
      job.validate().value_or(""),
      "Jacobian IK: orientation targets need the frame above joint 0 'pelvis' to be a rotation and a uniform scale "
      "(no mirror, no non-uniform scale)");
}

TEST(JacobianIk, UnreachableTargetGivesAStraightChainTowardsIt) {
  for (const auto& frame : test::framesOfReference()) {
    for (const Method method : kMethods) {
      ChainRig rig = test::makeChain(frame.parentModel, {.bones = 4, .twistJoint = true});
      const Vec3 target = rig.rootModel() + frame.parentModel.linear() * Vec3(-2.0f, 6.0f, 3.0f);
      TreeSetup setup;
      JacobianIkJob job = makeChainJob(rig, setup, target);
      job.method = method;
      IkReport report;
      job.report = &report;
      ASSERT_TRUE(job.run());
      rig.fk();
      EXPECT_FALSE(report.reached);
      EXPECT_LE(test::straightnessRad(rig, target), 1e-3f) << frame.name << " " << methodName(method);
    }
  }
}

TEST(JacobianIk, ConstraintsHoldAfterEverySolve) {
  for (const Method method : kMethods) {
    std::mt19937 rng(43);
    for (int trial = 0; trial < 10; ++trial) {
      // Joint 1 scales by -1.2 (a mirror): its bone axis must carry the sign.
      ChainRig rig = test::makeChain(test::framesOfReference()[4].parentModel, {.bones = 4, .innerScale = -1.2f});
      const Vec3 target = test::randomReachableTargetModel(rig, rng, 1.5f);
      std::vector<JointConstraint> constraints(5);
      constraints[0] = JointConstraint::cone(test::boneAxisLocal(rig, 0), 0.6f);
      constraints[1] = JointConstraint::cone(test::boneAxisLocal(rig, 1), 0.5f).withTwistLimit(-0.1f, 0.3f);
      constraints[2] = JointConstraint::hinge(test::boneAxisLocal(rig, 2).unitOrthogonal(), -1.0f, 0.3f);
      constraints[3] = JointConstraint::ellipticalCone(test::boneAxisLocal(rig, 3), Vec3::UnitZ(), 0.4f, 0.9f);
      TreeSetup setup;
      JacobianIkJob job = makeChainJob(rig, setup, target);
      job.method = method;
      job.constraints = constraints;
      job.maxIterations = 100;
      ASSERT_TRUE(job.run());
      for (std::size_t k = 0; k < 4; ++k) {
        const Quat r = rig.pose[static_cast<std::size_t>(rig.chainJoints[k])].rotation;
        EXPECT_LE(test::constraintViolationRad(constraints[k], r, test::boneAxisLocal(rig, k)), 1e-4f)
            << methodName(method) << " trial " << trial << " joint " << k;
      }
      EXPECT_TRUE(test::poseIsFinite(rig.pose));
    }
  }
}

TEST(JacobianIk, DegenerateInputsFailWithAMessage) {
  ChainRig rig = test::makeChain(Affine::Identity(), {.bones = 3});
  const IkTreeEffector bad[] = {{rig.chainJoints[1], false}};
  EXPECT_EQ(
      IkTree::build(rig.skeleton, rig.chainJoints[2], bad).error(),
      "IK tree: effector joint 1 'joint1' is not below root joint 2 'joint2' (the joints must be an ancestor line)");
  EXPECT_EQ(IkTree::build(rig.skeleton, 0, {}).error(), "IK tree: needs at least one effector");

  TreeSetup setup;
  JacobianIkJob job = makeChainJob(rig, setup, Vec3(std::numeric_limits<float>::quiet_NaN(), 0.0f, 0.0f));
  EXPECT_EQ(job.validate().value_or(""), "Jacobian IK: target of effector joint 3 'joint3' is not finite");
  EXPECT_FALSE(job.run());
  setup.targets[0].positionModel = Vec3(0.0f, 0.0f, std::numeric_limits<float>::infinity());
  EXPECT_EQ(job.validate().value_or(""), "Jacobian IK: target of effector joint 3 'joint3' is not finite");
  setup.targets[0] = {Vec3::Ones(), true, Quat::Identity()};
  EXPECT_EQ(
      job.validate().value_or(""),
      "Jacobian IK: target of effector joint 3 'joint3' has an orientation but the effector was built without one");

  ChainRig zero = rig;
  zero.pose[2].translation = Vec3::Zero();
  zero.fk();
  TreeSetup zeroSetup;
  JacobianIkJob zeroJob = makeChainJob(zero, zeroSetup, Vec3::Ones());
  EXPECT_EQ(zeroJob.validate().value_or(""), "IK: zero-length bone from joint 1 'joint1' to joint 2 'joint2'");

  // No damping at a straight chain: the system is singular, the result still finite.
  ChainRig straight = test::makeChain(Affine::Identity(), {.bones = 3, .bent = false});
  TreeSetup straightSetup;
  JacobianIkJob straightJob = makeChainJob(straight, straightSetup, straight.rootModel() + Vec3(1.0f, 1.0f, 0.0f));
  straightJob.damping = 0.0f;
  ASSERT_TRUE(straightJob.run());
  EXPECT_TRUE(test::poseIsFinite(straight.pose));

  for (const Method method : kMethods) {
    ChainRig atRoot = rig;
    TreeSetup rootSetup;
    JacobianIkJob rootJob = makeChainJob(atRoot, rootSetup, atRoot.rootModel());
    rootJob.method = method;
    ASSERT_TRUE(rootJob.run());
    EXPECT_TRUE(test::poseIsFinite(atRoot.pose)) << methodName(method);
  }
}

TEST(JacobianIk, TrackingAMovingTargetHasNoFlips) {
  for (const Method method : {Method::DampedLeastSquares, Method::SelectivelyDamped}) {
    ChainRig rig = test::makeChain(test::framesOfReference()[3].parentModel, {.bones = 6});
    const Vec3 root = rig.rootModel();
    const float length = rig.lengthModel();
    TreeSetup setup;
    for (int frame = 0; frame < 1000; ++frame) {
      const float t = static_cast<float>(frame) * 0.01f;
      const Vec3 target =
          root + length * Vec3(0.5f + 0.2f * std::cos(t), 0.3f * std::sin(t), 0.2f * std::sin(0.7f * t));
      const Pose before = rig.pose;
      JacobianIkJob job = makeChainJob(rig, setup, target);
      job.method = method;
      job.toleranceModel = 1e-4f * length;
      ASSERT_TRUE(job.run());
      // Frame 0 is a cold solve from the rest pose; from then on every frame starts from the last.
      for (std::size_t k = 0; frame > 0 && k + 1 < rig.chainJoints.size(); ++k) {
        const auto j = static_cast<std::size_t>(rig.chainJoints[k]);
        EXPECT_LE(rig.pose[j].rotation.angularDistance(before[j].rotation), 10.0f * kPi / 180.0f)
            << methodName(method) << " frame " << frame << " joint " << k;
      }
      rig.fk();
    }
  }
}

TEST(JacobianIk, RunAllocatesNothing) {
  for (const Method method : kMethods) {
    ChainRig rig = makeBranchingTree(Affine::Identity());
    const IkTreeEffector effectors[] = {{rig.chainJoints[1], true}, {rig.chainJoints[2], false}};
    TreeSetup setup;
    JacobianIkJob job = makeJob(rig, setup, 0, effectors);
    setup.targets[0] = {rig.positionModel(rig.chainJoints[1]) + Vec3(0.1f, -0.2f, 0.1f), true,
                        Quat(Eigen::AngleAxisf(0.3f, Vec3::UnitX()))};
    setup.targets[1].positionModel = rig.positionModel(rig.chainJoints[2]) + Vec3(-0.1f, -0.3f, 0.2f);
    job.method = method;
    job.maxIterations = 20;
    test::armAllocationCounter();
    const bool ran = job.run();
    const int allocations = test::disarmAllocationCounter();
    EXPECT_TRUE(ran);
    EXPECT_EQ(allocations, 0) << methodName(method);
  }
}

}  // namespace
}  // namespace articula
