#pragma once
// A capture's calibration frame: CMU's takes start with one frame of the rest pose (a T-pose)
// that the take then jumps from. A bake that holds feet or eases into contacts leaves it as
// it is: it is no part of the motion.
#include "core/anim/clip.h"
#include "core/skeleton/skeleton.h"

namespace articula {

// Whether `clip` starts with a pose it holds for one frame only to jump from it: on its first
// frame at least half of the rotated joints are at their rest rotation (within 1°; CMU holds
// the rest at its zero pose, with the legs, neck and upper arms 5-21° off it), and from there
// to the second frame some joint turns more than 10° and ten times as far as the clip's
// joints typically turn in one frame (the median over its frames of the largest turn). Clips
// of fewer than three frames have no typical turn: false. The bake, the retarget and Make
// Loop leave such a frame out.
bool leadsWithRestFrame(const Skeleton& skeleton, const Clip& clip);

}  // namespace articula
