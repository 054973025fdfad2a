#include "core/ik/ik_input_record.h"

#include <algorithm>

namespace articula {

void IkInputRecord::reserve(std::size_t pathJoints) {
  mBlocks.resize(std::max(mBlocks.size(), pathJoints * kBlocksPerJoint + kFrameBlocks));
}

IkInputRecord::Pass IkInputRecord::grown(Pass pass) {
  const auto used = static_cast<std::size_t>(pass.mSlot - mBlocks.data());
  mBlocks.resize(std::max<std::size_t>(2 * mBlocks.size(), used + kBlocksPerJoint + kFrameBlocks));
  pass.mSlot = mBlocks.data() + used;
  pass.mEnd = mBlocks.data() + mBlocks.size();
  return pass;
}

bool IkInputRecord::finish(Pass pass, const Affine& frame) {
  if (pass.mEnd - pass.mSlot < static_cast<std::ptrdiff_t>(kFrameBlocks)) pass = grown(pass);
  // Column-major 4×4: the linear part's columns, then the origin, each with a bottom-row
  // entry after it, which is masked off (Eigen does not promise it for an Affine).
  const float* m = frame.data();
  for (int column = 0; column < 4; ++column) pass.put(masked3(m + 4 * column));
  const auto count = static_cast<std::size_t>(pass.mSlot - mBlocks.data());
  // No valid record, a path of another length than last time, or a block that differs.
  const bool changed = !mValid || count != mCount || anyBit(pass.mDiff);
  mCount = count;
  if (changed) mValid = false;
  return changed;
}

}  // namespace articula
