#pragma once
// A bit-for-bit record of the pose data a solver derived its rigid data from (pinocchio's
// Data kept for a Model), so a workspace re-derives only when that data changed: the joints
// of a path, their translations and scales, the rotations of the joints not being solved,
// and the chain's frame. Used by IkChainWorkspace and TwoBoneIkWorkspace.
#include <cstddef>
#include <cstring>
#include <vector>

#include "core/math/transform.h"

namespace articula {

class IkInputRecord {
 public:
  // Room for a path of this many joints, so that recording allocates nothing.
  void reserve(std::size_t pathJoints);
  // Forgets the record: the next comparison reports a change.
  void invalidate() { mValid = false; }

  // A comparison that also records: begin(), add() per path joint in a fixed order, then
  // finish() — true when anything differs from the last valid record (or there is none),
  // which also leaves the record invalid until markValid().
  void begin() {
    mChanged = !mValid;
    mJointCount = 0;
    mKeyCount = 0;
  }
  // `withRotation`: whether the joint's rotation is part of what the data came from (false
  // for the solved joints, read at every run).
  void add(int joint, const Transform& local, bool withRotation) {
    if (mJointCount < mJoints.size()) {
      mChanged = mChanged || mJoints[mJointCount] != joint;
      mJoints[mJointCount] = joint;
    } else {
      mJoints.push_back(joint);
      mChanged = true;
    }
    ++mJointCount;
    static constexpr float kNoRotation[4] = {};
    record<3>(local.translation.data());
    record<3>(local.scale.data());
    record<4>(withRotation ? local.rotation.coeffs().data() : kNoRotation);
  }
  bool finish(const Affine& frame);
  // The data derived from the recorded inputs is in place.
  void markValid() { mValid = true; }

 private:
  static constexpr std::size_t kFloatsPerJoint = 10;  // translation, scale, rotation
  static constexpr std::size_t kFrameFloats = 12;     // linear part, origin

  // Compares and copies a block of N floats as bits, straight from where they are stored.
  // Inline, a block at a time: it runs for every joint of every solve.
  template <std::size_t N>
  void record(const float* values) {
    if (mKeyCount + N <= mKey.size()) {
      float* slot = mKey.data() + mKeyCount;
      if (std::memcmp(slot, values, N * sizeof(float)) != 0) {
        std::memcpy(slot, values, N * sizeof(float));
        mChanged = true;
      }
    } else {
      mKey.resize(mKeyCount);
      mKey.insert(mKey.end(), values, values + N);
      mChanged = true;
    }
    mKeyCount += N;
  }

  std::vector<int> mJoints;
  std::vector<float> mKey;
  std::size_t mJointCount = 0;  // joints added since begin()
  std::size_t mKeyCount = 0;    // floats recorded since begin()
  bool mValid = false;
  bool mChanged = true;
};

}  // namespace articula
