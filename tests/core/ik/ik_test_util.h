#pragma once
// Chains and checks shared by the IK solver tests. Every chain hangs below a parent transform
// taken from frames_of_reference.h (given to FK as the skeleton root's placement), so each
// check runs under identity, translated, rotated, scaled and mirrored parents.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "core/frames_of_reference.h"
#include "core/ik/ik_chain.h"
#include "core/ik/ik_constraints.h"
#include "core/ik/two_bone_ik.h"
#include "core/math/quaternion.h"
#include "core/skeleton/local_to_model.h"
#include "core/skeleton/skeleton.h"

namespace articula::test {

struct ChainRig {
  Skeleton skeleton;
  Pose pose;
  std::vector<int> chainJoints;  // root..tip
  Affine parentModel = Affine::Identity();
  std::vector<Affine> model;

  void fk() {
    model.assign(pose.size(), Affine::Identity());
    LocalToModelJob job;
    job.skeleton = &skeleton;
    job.local = pose;
    job.model = model;
    job.root = &parentModel;
    job.run();
  }
  Vec3 positionModel(int joint) const { return model[static_cast<std::size_t>(joint)].translation(); }
  Vec3 tipModel() const { return positionModel(chainJoints.back()); }
  Vec3 rootModel() const { return positionModel(chainJoints.front()); }
  // Sum of the bone lengths measured in model space (the frame may scale them).
  float lengthModel() const {
    float length = 0.0f;
    for (std::size_t k = 0; k + 1 < chainJoints.size(); ++k)
      length += (positionModel(chainJoints[k + 1]) - positionModel(chainJoints[k])).norm();
    return length;
  }
};

struct ChainOptions {
  int bones = 4;
  bool bent = true;         // slight bends in the rest pose (else straight along the bone axes)
  bool twistJoint = false;  // an unsolved joint between chain joints 1 and 2
  float innerScale = 1.0f;  // uniform scale of chain joint 1 (negative: mirrored)
};

// Bones of lengths 1, 0.8, 1.2, ... along slightly tilted axes, below the given parent.
inline ChainRig makeChain(const Affine& parentModel, const ChainOptions& options = {}) {
  ChainRig rig;
  rig.parentModel = parentModel;
  Transform root;
  root.translation = Vec3(0.1f, 0.2f, -0.3f);
  root.rotation = Quat(Eigen::AngleAxisf(0.3f, Vec3::UnitY()));
  int parent = rig.skeleton.addJoint("root", kNoParent, root);
  rig.chainJoints.push_back(parent);
  for (int k = 0; k < options.bones; ++k) {
    const float length = k % 3 == 0 ? 1.0f : (k % 3 == 1 ? 0.8f : 1.2f);
    if (options.twistJoint && k == 1) {
      Transform twist;
      twist.translation = Vec3(0.4f * length, 0.0f, 0.0f);
      twist.rotation = Quat(Eigen::AngleAxisf(0.6f, Vec3::UnitX()));
      parent = rig.skeleton.addJoint("twist", parent, twist);
      Transform rest;
      rest.translation = Vec3(0.6f * length, 0.05f, 0.0f);
      rest.rotation = Quat(Eigen::AngleAxisf(options.bent ? 0.25f : 0.0f, Vec3(0.2f, 0.3f, 1.0f).normalized()));
      parent = rig.skeleton.addJoint("joint" + std::to_string(k + 1), parent, rest);
    } else {
      Transform rest;
      rest.translation = Vec3(length, 0.1f * length, -0.05f * length);
      if (options.bent) rest.rotation = Quat(Eigen::AngleAxisf(0.25f, Vec3(0.2f, 0.3f, 1.0f).normalized()));
      if (k == 0) rest.scale = Vec3::Constant(options.innerScale);
      parent = rig.skeleton.addJoint("joint" + std::to_string(k + 1), parent, rest);
    }
    rig.chainJoints.push_back(parent);
  }
  rig.pose.assign(rig.skeleton.restPose().begin(), rig.skeleton.restPose().end());
  rig.fk();
  return rig;
}

// A pose of the same chain with random local rotations (up to maxAngleRad per joint): its tip
// is a target the chain can reach.
// A two-bone job on the first three chain joints of a two-bone rig: the pole in front of the
// limb, no softening, a tight tolerance.
inline TwoBoneIkJob makeTwoBoneJob(ChainRig& rig, const Vec3& targetModel) {
  TwoBoneIkJob job;
  job.skeleton = &rig.skeleton;
  job.startJoint = rig.chainJoints[0];
  job.midJoint = rig.chainJoints[1];
  job.endJoint = rig.chainJoints[2];
  job.pose = rig.pose;
  job.model = rig.model;
  job.targetModel = targetModel;
  job.poleModel = rig.parentModel.linear() * Vec3(0.0f, 1.0f, 0.3f);
  job.soften = 1.0f;
  job.toleranceModel = 1e-6f;
  return job;
}

inline Vec3 randomReachableTargetModel(const ChainRig& rig, std::mt19937& rng, float maxAngleRad = 1.2f) {
  ChainRig other = rig;
  std::uniform_real_distribution<float> unit(-1.0f, 1.0f);
  std::uniform_real_distribution<float> angle(0.0f, maxAngleRad);
  for (std::size_t k = 0; k + 1 < other.chainJoints.size(); ++k) {
    Vec3 axis(unit(rng), unit(rng), unit(rng));
    if (axis.squaredNorm() < 1e-3f) axis = Vec3::UnitZ();
    Transform& t = other.pose[static_cast<std::size_t>(other.chainJoints[k])];
    t.rotation = (Quat(Eigen::AngleAxisf(angle(rng), axis.normalized())) * t.rotation).normalized();
  }
  other.fk();
  return other.tipModel();
}

inline bool poseIsFinite(const Pose& pose) {
  for (const Transform& t : pose) {
    if (!t.isFinite()) return false;
  }
  return true;
}

// How far a local rotation lies outside a constraint, radians (0 when inside).
inline float constraintViolationRad(const JointConstraint& c, const Quat& localRotation, const Vec3& boneAxisLocal) {
  float violation = 0.0f;
  const Vec3 dir = (localRotation * boneAxisLocal).normalized();
  if (c.kind() == JointConstraint::Kind::Cone) {
    const Vec3 axis = c.axisParent();
    const float swingRad = std::atan2(dir.cross(axis).norm(), dir.dot(axis));
    const Vec3 across = dir - axis * dir.dot(axis);
    float limitRad = c.halfAngleXRad();
    if (across.norm() > 1e-6f) {
      const Vec3 side = across.normalized();
      const float ex = side.dot(c.xParent());
      const float ey = side.dot(axis.cross(c.xParent()));
      const float ax = c.halfAngleXRad();
      const float ay = c.halfAngleYRad();
      limitRad = ax * ay / std::sqrt(ay * ay * ex * ex + ax * ax * ey * ey);
    }
    violation = std::max(violation, swingRad - limitRad);
  } else if (c.kind() == JointConstraint::Kind::Hinge) {
    const Quat offset = localRotation * c.referenceLocal().conjugate();
    const SwingTwist st = swingTwist(offset, c.axisParent());
    const float swingRad = 2.0f * std::atan2(st.swing.vec().norm(), std::abs(st.swing.w()));
    const float angleRad = twistAngle(st.twist, c.axisParent());
    violation = std::max({violation, swingRad, c.minAngleRad() - angleRad, angleRad - c.maxAngleRad()});
  }
  if (c.hasTwistLimit() && c.kind() != JointConstraint::Kind::Hinge) {
    const SwingTwist st = swingTwist(c.twistReferenceLocal().conjugate() * localRotation, boneAxisLocal);
    const float twistRad = twistAngle(st.twist, boneAxisLocal);
    violation = std::max({violation, c.twistMinRad() - twistRad, twistRad - c.twistMaxRad()});
  }
  return violation;
}

// Bone axis of chain joint k, in its rotation space (what the solvers pass to constraints).
inline Vec3 boneAxisLocal(const ChainRig& rig, std::size_t k) {
  IkChainWorkspace ws;
  auto chain = IkChain::build(rig.skeleton, rig.chainJoints);
  ws.resize(*chain);
  ws.load(*chain, rig.pose, rig.model);
  return ws.joints[k].boneAxisLocal;
}

// Angle between the last bone and the root→target line, and the largest angle between
// consecutive bones, model space: both ~0 when the chain lies straight towards the target.
inline float straightnessRad(const ChainRig& rig, const Vec3& targetModel) {
  const Vec3 toTarget = (targetModel - rig.rootModel()).normalized();
  float worst = 0.0f;
  for (std::size_t k = 0; k + 1 < rig.chainJoints.size(); ++k) {
    const Vec3 bone = (rig.positionModel(rig.chainJoints[k + 1]) - rig.positionModel(rig.chainJoints[k])).normalized();
    worst = std::max(worst, std::atan2(bone.cross(toTarget).norm(), bone.dot(toTarget)));
  }
  return worst;
}

}  // namespace articula::test
