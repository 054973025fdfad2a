#include "core/ik/ik_input_record.h"

namespace articula {

void IkInputRecord::reserve(std::size_t pathJoints) {
  mJoints.reserve(pathJoints);
  mKey.reserve(pathJoints * kFloatsPerJoint + kFrameFloats);
}

bool IkInputRecord::finish(const Affine& frame) {
  const Mat3 linear = frame.linear();
  const Vec3 origin = frame.translation();
  const float values[kFrameFloats] = {linear(0, 0), linear(1, 0), linear(2, 0), linear(0, 1),
                                      linear(1, 1), linear(2, 1), linear(0, 2), linear(1, 2),
                                      linear(2, 2), origin.x(),   origin.y(),   origin.z()};
  record(values);
  // A shorter path than last time.
  if (mJointCount != mJoints.size() || mKeyCount != mKey.size()) {
    mJoints.resize(mJointCount);
    mKey.resize(mKeyCount);
    mChanged = true;
  }
  if (mChanged) mValid = false;
  return mChanged;
}

}  // namespace articula
