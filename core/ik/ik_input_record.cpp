#include "core/ik/ik_input_record.h"

namespace articula {

void IkInputRecord::reserve(std::size_t pathJoints) {
  mJoints.reserve(pathJoints);
  mKey.reserve(pathJoints * kFloatsPerJoint + kFrameFloats);
}

bool IkInputRecord::finish(const Affine& frame) {
  // Column-major 4×4: the linear part's columns, then the origin.
  const float* m = frame.data();
  for (const int column : {0, 4, 8, 12}) record<3>(m + column);
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
