#include "core/ik/ik_input_record.h"

#include <algorithm>

namespace articula {

void IkInputRecord::reserve(std::size_t pathJoints) {
  mBlocks.resize(std::max(mBlocks.size(), pathJoints * kBlocksPerJoint + kFrameBlocks));
}

void IkInputRecord::grow(std::size_t blocks) { mBlocks.resize(std::max(2 * mBlocks.size(), blocks)); }

}  // namespace articula
