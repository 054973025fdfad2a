#include "core/ik/ik_input_record.h"

namespace articula {

void IkInputRecord::reserve(std::size_t pathJoints) { mBlocks.reserve(pathJoints * kBlocksPerJoint + kFrameBlocks); }

bool IkInputRecord::finish(const Affine& frame) {
  // Column-major 4×4: the linear part's columns, then the origin; the bottom row is not read.
  const float* m = frame.data();
  const Lanes blocks[kFrameBlocks] = {load3(m, 0u), load3(m + 4, 0u), load3(m + 8, 0u), load3(m + 12, 0u)};
  put(blocks);
  // A shorter path than last time.
  if (mCount != mBlocks.size()) {
    mBlocks.resize(mCount);
    mChanged = true;
  }
  mChanged = mChanged || anyBit(mDiff);
  if (mChanged) mValid = false;
  return mChanged;
}

}  // namespace articula
