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

}  // namespace articula
