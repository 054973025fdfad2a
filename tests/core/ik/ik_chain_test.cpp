#include "core/ik/ik_chain.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "core/ik/ik_test_util.h"

namespace articula {
namespace {

TEST(IkChain, BuildRejectsChainsThatAreNotAnAncestorLine) {
  test::ChainRig rig = test::makeChain(Affine::Identity(), {.bones = 3});
  const int branch = rig.skeleton.addJoint("branch", 1, Transform{});
  EXPECT_EQ(IkChain::build(rig.skeleton, std::vector<int>{0}).error(), "IK chain: needs at least two joints, got 1");
  EXPECT_EQ(IkChain::build(rig.skeleton, std::vector<int>{0, 9}).error(),
            "IK chain: joint index 9 is not in the skeleton");
  EXPECT_EQ(IkChain::build(rig.skeleton, std::vector<int>{0, 1, 1}).error(), "IK chain: joint 1 'joint1' is repeated");
  EXPECT_EQ(
      IkChain::build(rig.skeleton, std::vector<int>{0, 2, branch}).error(),
      "IK chain: joint 4 'branch' is not below joint 2 'joint2' (the chain must be an ancestor line, root to tip)");
  EXPECT_EQ(
      IkChain::build(rig.skeleton, std::vector<int>{2, 1}).error(),
      "IK chain: joint 1 'joint1' is not below joint 2 'joint2' (the chain must be an ancestor line, root to tip)");
}

TEST(IkChain, PathListsTheJointsBetweenChainJoints) {
  test::ChainRig rig = test::makeChain(Affine::Identity(), {.bones = 3, .twistJoint = true});
  auto chain = IkChain::build(rig.skeleton, rig.chainJoints);
  ASSERT_TRUE(chain.ok()) << chain.error();
  EXPECT_EQ(chain->size(), 4);
  EXPECT_EQ(static_cast<int>(chain->path().size()), 5);
  EXPECT_EQ(chain->pathIndex(2), 3);
}

TEST(IkChain, PartialForwardKinematicsMatchesFullFk) {
  for (const auto& frame : test::framesOfReference()) {
    test::ChainRig rig = test::makeChain(frame.parentModel, {.bones = 3, .twistJoint = true});
    auto chain = IkChain::build(rig.skeleton, rig.chainJoints);
    ASSERT_TRUE(chain.ok());
    const Affine parent = chain->parentModel(rig.pose, rig.model);
    EXPECT_LE((parent.matrix() - frame.parentModel.matrix()).cwiseAbs().maxCoeff(), 1e-5f) << frame.name;
    // New rotations on every chain joint, then FK along the path only.
    std::vector<Quat> rotations;
    for (int k = 0; k < chain->size(); ++k)
      rotations.push_back(Quat(Eigen::AngleAxisf(0.2f * static_cast<float>(k + 1), Vec3::UnitY())));
    chain->applyRotations(rotations, rig.pose);
    std::vector<Affine> partial = rig.model;
    chain->updateModel(rig.pose, parent, partial);
    rig.fk();
    std::vector<Vec3> positions(static_cast<std::size_t>(chain->size()));
    chain->gatherPositionsModel(partial, positions);
    for (int k = 0; k < chain->size(); ++k) {
      EXPECT_LE((positions[static_cast<std::size_t>(k)] - rig.positionModel(chain->joint(k))).norm(), 1e-5f)
          << frame.name;
    }
    for (const int j : chain->path()) {
      const auto i = static_cast<std::size_t>(j);
      EXPECT_LE((partial[i].matrix() - rig.model[i].matrix()).cwiseAbs().maxCoeff(), 1e-5f)
          << frame.name << " joint " << j;
    }
  }
}

TEST(IkChainWorkspace, LoadReproducesForwardKinematicsUnderEveryFrame) {
  for (const auto& frame : test::framesOfReference()) {
    for (const float innerScale : {1.0f, 0.7f, -1.5f}) {
      test::ChainRig rig =
          test::makeChain(frame.parentModel, {.bones = 4, .twistJoint = true, .innerScale = innerScale});
      auto chain = IkChain::build(rig.skeleton, rig.chainJoints);
      ASSERT_TRUE(chain.ok());
      IkChainWorkspace ws(*chain);
      ASSERT_FALSE(ws.load(*chain, rig.pose, rig.model).has_value());
      for (int k = 0; k < chain->size(); ++k) {
        const Vec3 expected = rig.positionModel(chain->joint(k));
        EXPECT_LE((ws.toModelPoint(ws.positions[static_cast<std::size_t>(k)]) - expected).norm(), 1e-5f)
            << frame.name << " scale " << innerScale << " joint " << k;
      }
      // Turning a joint in the workspace moves the positions as FK of the turned pose does.
      ws.joints[1].rotation =
          Quat(Eigen::AngleAxisf(0.7f, Vec3(1.0f, -2.0f, 0.5f).normalized())) * ws.joints[1].rotation;
      ws.forward(1);
      ws.store(*chain, rig.pose, false);
      rig.fk();
      for (int k = 0; k < chain->size(); ++k) {
        EXPECT_LE(
            (ws.toModelPoint(ws.positions[static_cast<std::size_t>(k)]) - rig.positionModel(chain->joint(k))).norm(),
            1e-5f)
            << frame.name << " scale " << innerScale << " joint " << k;
      }
    }
  }
}

// A rotation that is not unit stands for the rotation it normalises to: a chain whose root
// is a skeleton root (its frame comes from its own model matrix and local transform) loads
// to the positions of the unit pose whatever the rotations' scales and signs.
TEST(IkChainWorkspace, LoadReadsRotationsThatAreNotUnit) {
  for (const auto& frame : test::framesOfReference()) {
    const test::ChainRig unit = test::makeChain(frame.parentModel, {.bones = 4, .twistJoint = true});
    auto chain = IkChain::build(unit.skeleton, unit.chainJoints);
    ASSERT_TRUE(chain.ok());
    ASSERT_EQ(unit.skeleton.parent(chain->root()), kNoParent);
    test::ChainRig scaled = unit;
    const float scales[] = {1e-3f, -40.0f, 250.0f, -0.5f, 3.0f, 7.0f};
    for (std::size_t j = 0; j < scaled.pose.size(); ++j) scaled.pose[j].rotation.coeffs() *= scales[j % 6];
    IkChainWorkspace ws(*chain);
    ASSERT_FALSE(ws.load(*chain, scaled.pose, unit.model).has_value());
    for (int k = 0; k < chain->size(); ++k) {
      EXPECT_LE(
          (ws.toModelPoint(ws.positions[static_cast<std::size_t>(k)]) - unit.positionModel(chain->joint(k))).norm(),
          1e-5f * unit.lengthModel())
          << frame.name << " joint " << k;
    }
  }
}

TEST(IkChainWorkspace, LoadNamesTheProblem) {
  test::ChainRig rig = test::makeChain(Affine::Identity(), {.bones = 2});
  IkChain empty;
  IkChainWorkspace ws;
  EXPECT_EQ(ws.load(empty, rig.pose, rig.model).value_or(""), "IK: the chain is empty (build it with IkChain::build)");
  auto chain = IkChain::build(rig.skeleton, rig.chainJoints);
  EXPECT_EQ(ws.load(*chain, rig.pose, rig.model).value_or(""), "IK: the workspace is not sized for the chain");
  ws.resize(*chain);
  test::ChainRig singular = rig;
  singular.parentModel = Affine(Eigen::Scaling(Vec3(1.0f, 0.0f, 1.0f)));
  singular.fk();
  EXPECT_EQ(ws.load(*chain, singular.pose, singular.model).value_or(""),
            "IK: the model matrix above joint 0 'root' is singular");
  EXPECT_EQ(ws.load(*chain, std::span<const Transform>(rig.pose).first(1), rig.model).value_or(""),
            "IK: the pose has fewer joints than the skeleton");
}

TEST(IkChainWorkspace, ReloadingPicksUpEveryChangeOfTheInputs) {
  // After each kind of change a reused workspace must agree with a fresh one, and bad input
  // must still be refused.
  test::ChainRig rig = test::makeChain(test::framesOfReference()[3].parentModel, {.bones = 4, .twistJoint = true});
  auto chain = IkChain::build(rig.skeleton, rig.chainJoints);
  ASSERT_TRUE(chain.ok());
  IkChainWorkspace reused(*chain);
  ASSERT_FALSE(reused.load(*chain, rig.pose, rig.model).has_value());
  const auto twist = static_cast<std::size_t>(chain->path()[2]);  // the joint between chain joints 1 and 2
  const auto joint1 = static_cast<std::size_t>(chain->joint(1));
  const std::vector<std::pair<const char*, std::function<void(test::ChainRig&)>>> changes = {
      {"nothing", [](test::ChainRig&) {}},
      {"chain joint rotation",
       [&](test::ChainRig& r) { r.pose[joint1].rotation = Quat(Eigen::AngleAxisf(0.4f, Vec3::UnitZ())); }},
      {"bone translation", [&](test::ChainRig& r) { r.pose[twist].translation *= 1.5f; }},
      {"twist joint rotation",
       [&](test::ChainRig& r) { r.pose[twist].rotation = Quat(Eigen::AngleAxisf(0.9f, Vec3::UnitX())); }},
      {"uniform scale", [&](test::ChainRig& r) { r.pose[joint1].scale = Vec3::Constant(-0.5f); }},
      {"frame origin", [](test::ChainRig& r) { r.parentModel.pretranslate(Vec3(0.5f, -0.25f, 1.0f)); }},
      {"frame",
       [](test::ChainRig& r) {
         r.parentModel.translate(Vec3(1.0f, 2.0f, 3.0f)).rotate(Eigen::AngleAxisf(1.0f, Vec3::UnitY()));
       }},
  };
  for (const auto& [what, change] : changes) {
    change(rig);
    rig.fk();
    IkChainWorkspace fresh(*chain);
    ASSERT_FALSE(fresh.load(*chain, rig.pose, rig.model).has_value()) << what;
    ASSERT_FALSE(reused.load(*chain, rig.pose, rig.model).has_value()) << what;
    EXPECT_EQ(reused.totalLength, fresh.totalLength) << what;
    EXPECT_EQ(reused.originModel, fresh.originModel) << what;
    EXPECT_EQ(reused.chainToModel, fresh.chainToModel) << what;
    EXPECT_EQ(reused.modelToChain, fresh.modelToChain) << what;
    for (int k = 0; k < chain->size(); ++k) {
      const auto i = static_cast<std::size_t>(k);
      EXPECT_EQ(reused.positions[i], fresh.positions[i]) << what << " joint " << k;
      EXPECT_EQ(reused.joints[i].boneLength, fresh.joints[i].boneLength) << what << " joint " << k;
      EXPECT_EQ(reused.joints[i].inputBoneParent, fresh.joints[i].inputBoneParent) << what << " joint " << k;
    }
  }
  test::ChainRig bad = rig;
  bad.pose[joint1].scale = Vec3(1.0f, 2.0f, 1.0f);
  EXPECT_EQ(reused.load(*chain, bad.pose, bad.model).value_or(""),
            "IK: joint 1 'joint1' has a non-uniform scale inside the chain (bones would not be rigid)");
  ASSERT_FALSE(reused.load(*chain, rig.pose, rig.model).has_value());
  bad = rig;
  bad.pose[joint1].rotation.coeffs() << 0.0f, 0.0f, 0.0f, 0.0f;
  EXPECT_EQ(reused.load(*chain, bad.pose, bad.model).value_or(""),
            "IK: the local rotation of joint 1 'joint1' is zero");
  bad = rig;
  bad.pose[twist].translation.x() = std::nanf("");
  EXPECT_EQ(reused.load(*chain, bad.pose, bad.model).value_or(""),
            "IK: the local transform of joint 2 'twist' is not finite");
}

TEST(IkMath, ModelRotationToSpaceConjugatesByTheFrame) {
  const Vec3 axisModel = Vec3(0.3f, -1.0f, 0.4f).normalized();
  const Mat3 rotationModel = Eigen::AngleAxisf(0.8f, axisModel).toRotationMatrix();
  for (const auto& frame : test::framesOfReference()) {
    if (frame.name == "nonuniform_scaled") continue;  // not a similarity: only the axis is exact
    const Mat3 m = frame.parentModel.linear();
    const Mat3 expected = m.inverse() * rotationModel * m;
    const Mat3 actual = modelRotationToSpace(m, axisModel, 0.8f).toRotationMatrix();
    EXPECT_LE((expected - actual).cwiseAbs().maxCoeff(), 1e-5f) << frame.name;
  }
}

}  // namespace
}  // namespace articula
