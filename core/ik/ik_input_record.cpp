#include "core/ik/ik_input_record.h"

#include <algorithm>

namespace articula {

void IkInputRecord::reserve(std::size_t pathJoints) {
  mBlocks.resize(std::max(mBlocks.size(), pathJoints * kBlocksPerJoint + kFrameBlocks));
}

IkInputRecord::Block* IkInputRecord::grown(std::size_t used) {
  mBlocks.resize(std::max<std::size_t>(2 * mBlocks.size(), used + kBlocksPerJoint + kFrameBlocks));
  return mBlocks.data();
}

}  // namespace articula
