#pragma once
// Shared helpers of the rig tests.
#include <string>
#include <vector>

#include "core/anim/clip.h"
#include "core/rig/humanoid_rig.h"
#include "core/rig/rig.h"
#include "core/skeleton/local_to_model.h"

namespace articula::test {

inline Pose restPoseOf(const Skeleton& skeleton) {
  return Pose(skeleton.restPose().begin(), skeleton.restPose().end());
}

inline Pose sampledPose(const Skeleton& skeleton, const Clip& clip, double t) {
  Pose pose = restPoseOf(skeleton);
  ClipSampler sampler(&clip);
  sampler.sample(t, pose);
  return pose;
}

inline Vec3 positionOf(const Skeleton& skeleton, const Pose& pose, int joint) {
  return localToModel(skeleton, pose)[static_cast<std::size_t>(joint)].translation();
}

inline float chainLength(const Skeleton& skeleton, const Pose& pose, const std::vector<int>& chain) {
  const std::vector<Affine> model = localToModel(skeleton, pose);
  float length = 0.0f;
  for (std::size_t k = 0; k + 1 < chain.size(); ++k) {
    length += (model[static_cast<std::size_t>(chain[k + 1])].translation() -
               model[static_cast<std::size_t>(chain[k])].translation())
                  .norm();
  }
  return length;
}

inline const IkHandle& handleNamed(const RigDefinition& rig, const std::string& name) {
  for (const IkHandle& h : rig.handles) {
    if (h.name == name) return h;
  }
  static const IkHandle none;
  return none;
}

// A constant curve.
inline Curve constantCurve(double value) {
  Curve c;
  c.insertKey(0.0, value, Interpolation::Linear);
  c.insertKey(1.0, value, Interpolation::Linear);
  return c;
}

}  // namespace articula::test
