#include "core/ik/ik_chain.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "core/ik/ik_input_record.h"
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
  // load() re-derives the rigid data only when its inputs changed: after each kind of change
  // a reused workspace must agree with a fresh one, and bad input must still be refused.
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

// Positions, input rotations and input bone directions of two workspaces, bit for bit.
void expectSameLoad(const IkChainWorkspace& a, const IkChainWorkspace& b, const std::string& what) {
  for (int k = 0; k < a.size(); ++k) {
    const auto i = static_cast<std::size_t>(k);
    EXPECT_EQ(a.positions[i], b.positions[i]) << what << " joint " << k;
    EXPECT_EQ(a.joints[i].inputRotation.coeffs(), b.joints[i].inputRotation.coeffs()) << what << " joint " << k;
    EXPECT_EQ(a.joints[i].inputBoneParent, b.joints[i].inputBoneParent) << what << " joint " << k;
  }
}

TEST(IkChainWorkspace, LoadingTheStoredRotationsCarriesTheSolveOn) {
  // A solve that tracks its own result loads the rotations it stored: the workspace then
  // keeps where the solve left the joints (FK of the stored rotations within rounding)
  // instead of running FK again. Any other input is loaded as by a fresh workspace.
  for (const float innerScale : {1.0f, -1.5f}) {
    test::ChainRig rig = test::makeChain(test::framesOfReference()[3].parentModel,
                                         {.bones = 4, .twistJoint = true, .innerScale = innerScale});
    auto chain = IkChain::build(rig.skeleton, rig.chainJoints);
    ASSERT_TRUE(chain.ok());
    IkChainWorkspace ws(*chain);
    // A stand-in for a solve: turn joint 1, FK below it, store. A solve leaves positions
    // within rounding of FK; the tip's is moved further here, to see which one load keeps.
    const Vec3 tipOffset(1e-4f, 0.0f, 0.0f);
    auto solveAndStore = [&] {
      ASSERT_FALSE(ws.load(*chain, rig.pose, rig.model).has_value());
      ws.joints[1].rotation =
          Quat(Eigen::AngleAxisf(0.3f, Vec3(1.0f, -2.0f, 0.5f).normalized())) * ws.joints[1].rotation;
      ws.forward(1);
      ws.positions.back() += tipOffset;
      ws.store(*chain, rig.pose, false);
      rig.fk();
    };
    solveAndStore();
    const std::vector<Vec3> solved = ws.positions;
    ASSERT_FALSE(ws.load(*chain, rig.pose, rig.model).has_value());
    IkChainWorkspace fresh(*chain);
    ASSERT_FALSE(fresh.load(*chain, rig.pose, rig.model).has_value());
    for (int k = 0; k < chain->size(); ++k) {
      const auto i = static_cast<std::size_t>(k);
      EXPECT_EQ(ws.positions[i], solved[i]) << "joint " << k;
      const Vec3 offset = k + 1 == chain->size() ? tipOffset : Vec3(Vec3::Zero());
      EXPECT_LE((ws.positions[i] - offset - fresh.positions[i]).norm(), 1e-5f) << "joint " << k;
      EXPECT_LE((ws.joints[i].inputBoneParent - fresh.joints[i].inputBoneParent).norm(), 1e-6f) << "joint " << k;
      if (k + 1 < chain->size()) {
        EXPECT_EQ(ws.joints[i].inputRotation.coeffs(),
                  rig.pose[static_cast<std::size_t>(chain->joint(k))].rotation.coeffs())
            << "joint " << k;
      }
    }

    const auto joint2 = static_cast<std::size_t>(chain->joint(2));
    const auto tip = static_cast<std::size_t>(chain->tip());
    const std::vector<std::pair<const char*, std::function<void(test::ChainRig&)>>> changes = {
        {"a stored rotation one ulp off",
         [&](test::ChainRig& r) {
           float& x = r.pose[joint2].rotation.x();
           x = std::nextafter(x, 1.0f);
         }},
        {"a stored rotation turned",
         [&](test::ChainRig& r) {
           r.pose[joint2].rotation = Quat(Eigen::AngleAxisf(0.1f, Vec3::UnitY())) * r.pose[joint2].rotation;
         }},
        {"a bone translation", [&](test::ChainRig& r) { r.pose[tip].translation *= 1.25f; }},
        {"the frame", [](test::ChainRig& r) { r.parentModel.pretranslate(Vec3(0.5f, -0.25f, 1.0f)); }},
    };
    for (const auto& [what, change] : changes) {
      solveAndStore();
      change(rig);
      rig.fk();
      ASSERT_FALSE(ws.load(*chain, rig.pose, rig.model).has_value()) << what;
      IkChainWorkspace again(*chain);
      ASSERT_FALSE(again.load(*chain, rig.pose, rig.model).has_value()) << what;
      expectSameLoad(ws, again, what);
    }
    // Only the load right after a store carries it on.
    solveAndStore();
    ASSERT_FALSE(ws.load(*chain, rig.pose, rig.model).has_value());
    ASSERT_FALSE(ws.load(*chain, rig.pose, rig.model).has_value());
    ASSERT_FALSE(fresh.load(*chain, rig.pose, rig.model).has_value());
    expectSameLoad(ws, fresh, "loaded twice");
    // A bad tip rotation is named, as without a store.
    solveAndStore();
    test::ChainRig bad = rig;
    bad.pose[tip].rotation.coeffs() << 0.0f, 0.0f, 0.0f, 0.0f;
    EXPECT_EQ(ws.load(*chain, bad.pose, bad.model).value_or(""),
              "IK: the local rotation of " + chain->label(chain->pathIndex(chain->size() - 1)) + " is zero");
  }
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

// IkInputRecord gathers the differences block by block (packed on x86-64) and decides only in
// finish(): every recorded value, the joint, whether its rotation and its scale count, the
// frame's columns and the path's length must each make a change on its own, and nothing else
// may.
TEST(IkInputRecord, SeesEachRecordedValueAndNothingElse) {
  std::vector<Transform> path(3);
  for (std::size_t i = 0; i < path.size(); ++i) {
    const float f = static_cast<float>(i);
    path[i].translation = Vec3(0.1f * f, 1.0f, -0.5f);
    path[i].rotation = Quat(Eigen::AngleAxisf(0.3f + 0.1f * f, Vec3(1.0f, 2.0f, 3.0f).normalized()));
    path[i].scale = Vec3::Constant(1.0f + 0.1f * f);
  }
  Affine frame(Eigen::Translation3f(1.0f, 2.0f, 3.0f) * Eigen::AngleAxisf(0.7f, Vec3::UnitY()));
  IkInputRecord record;
  record.reserve(path.size());
  // Joints 7, 5, 4 (only the middle one's rotation counts, the last one's scale does not),
  // then 3 and 2 for a longer path.
  int joints[] = {7, 5, 4, 3, 2};
  bool withRotation[] = {false, true, false, true, false};
  bool withScale[] = {true, true, false, true, true};
  std::size_t length = path.size();
  auto recordPath = [&] {
    return record.pass(length, frame, [&](auto& pass) {
      for (std::size_t i = 0; i < length; ++i) pass.add(joints[i], path[i], withRotation[i], withScale[i]);
    });
  };
  auto compare = [&] {
    const bool changed = recordPath();
    record.markValid();
    return changed;
  };
  // A change reported once, then recorded.
  auto seenOnce = [&](const std::string& what) {
    EXPECT_TRUE(compare()) << what;
    EXPECT_FALSE(compare()) << what;
  };
  seenOnce("nothing recorded yet");
  record.invalidate();
  seenOnce("invalidated");

  // One value at a time, in every lane; each change is then the new record.
  for (std::size_t i = 0; i < path.size(); ++i) {
    for (int k = 0; k < 3; ++k) {
      path[i].translation[k] += 0.25f;
      seenOnce(std::string("translation ") + std::to_string(i) + " " + std::to_string(k));
      path[i].scale[k] *= -1.0f;
      EXPECT_EQ(compare(), withScale[i]) << "scale " << i << ' ' << k;
      EXPECT_FALSE(compare());
    }
    for (int k = 0; k < 4; ++k) {
      path[i].rotation.coeffs()[k] = std::nextafter(path[i].rotation.coeffs()[k], 2.0f);
      EXPECT_EQ(compare(), withRotation[i]) << "rotation " << i << ' ' << k;
      EXPECT_FALSE(compare());
    }
    ++joints[i];
    seenOnce(std::string("joint ") + std::to_string(i));
    withRotation[i] = !withRotation[i];
    seenOnce(std::string("rotation counting ") + std::to_string(i));
    withScale[i] = !withScale[i];
    seenOnce(std::string("scale counting ") + std::to_string(i));
  }
  for (int column = 0; column < 4; ++column) {
    for (int row = 0; row < 3; ++row) {
      frame.matrix()(row, column) += 0.5f;
      seenOnce(std::string("frame ") + std::to_string(row) + " " + std::to_string(column));
    }
  }
  // Bits, not values: +0 and −0 differ.
  frame.matrix()(0, 3) = 0.0f;
  compare();
  frame.matrix()(0, 3) = -0.0f;
  EXPECT_TRUE(compare());
  // A shorter path, and back.
  length = 2;
  seenOnce("shorter path");
  length = 3;
  seenOnce("path back to its length");
  // Padding is not data: the four bytes after a Transform's translation and scale, and the
  // frame's bottom row, are read with the values but never count.
  const std::uint32_t noise = 0xDEADBEEFu;
  std::memcpy(reinterpret_cast<unsigned char*>(&path[1]) + 12, &noise, sizeof noise);
  std::memcpy(reinterpret_cast<unsigned char*>(&path[2]) + 44, &noise, sizeof noise);
  frame.matrix()(3, 1) = 7.0f;
  EXPECT_FALSE(compare());
  frame.matrix()(3, 1) = 0.0f;
  // A path longer than the room reserved: the record grows, and still sees every value.
  path.resize(5, path[1]);
  length = 5;
  seenOnce("longer path than reserved");
  path[4].scale.z() += 1.0f;
  seenOnce("a scale past the reserved room");
  length = 3;
  seenOnce("path back to its length again");
  // A change not marked valid is reported again.
  path[0].translation.x() += 1.0f;
  EXPECT_TRUE(recordPath());
  seenOnce("a change not marked valid");
  // A change seen is recorded at once: going back to the value before it is another change.
  path[0].translation.x() += 1.0f;
  EXPECT_TRUE(recordPath());
  record.markValid();
  path[0].translation.x() -= 1.0f;
  EXPECT_TRUE(recordPath()) << "the value before the change differs from the record";
  record.markValid();
  EXPECT_FALSE(recordPath()) << "compares with what the last pass recorded";
}

// addValues passes a joint's values without its key, for a caller that pins the joints: every
// value that counts is still seen, and nothing else.
TEST(IkInputRecord, AddValuesSeesEveryValueThatCounts) {
  std::vector<Transform> path(2);
  path[0].translation = Vec3(0.5f, -1.0f, 2.0f);
  path[1].scale = Vec3(1.5f, 1.5f, 1.5f);
  const Affine frame(Eigen::Translation3f(1.0f, 0.0f, -1.0f));
  IkInputRecord record;
  auto compare = [&] {
    const bool changed = record.pass(path.size(), frame, [&](auto& pass) {
      pass.addValues(path[0], false, false);
      pass.addValues(path[1], true);
    });
    record.markValid();
    return changed;
  };
  EXPECT_TRUE(compare());
  EXPECT_FALSE(compare());
  for (int k = 0; k < 3; ++k) {
    path[0].translation[k] += 1.0f;
    EXPECT_TRUE(compare()) << "translation 0 " << k;
    path[0].scale[k] += 1.0f;  // not counted
    EXPECT_FALSE(compare()) << "scale 0 " << k;
    path[1].translation[k] -= 1.0f;
    EXPECT_TRUE(compare()) << "translation 1 " << k;
    path[1].scale[k] *= 2.0f;
    EXPECT_TRUE(compare()) << "scale 1 " << k;
  }
  for (int k = 0; k < 4; ++k) {
    path[0].rotation.coeffs()[k] += 0.5f;  // not counted
    EXPECT_FALSE(compare()) << "rotation 0 " << k;
    path[1].rotation.coeffs()[k] += 0.5f;
    EXPECT_TRUE(compare()) << "rotation 1 " << k;
  }
}

}  // namespace
}  // namespace articula
