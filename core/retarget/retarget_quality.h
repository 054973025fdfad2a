#pragma once
// How faithfully a retargeted clip plays its source, measured on the two characters'
// skeletons (issue 24, point 3): the direction of every mapped bone against the source's,
// and the hips' travel against the source's scaled by the leg-length ratio.
#include <string>

#include "core/anim/clip.h"
#include "core/rig/humanoid_map.h"
#include "core/skeleton/skeleton.h"

namespace articula {

struct RetargetQuality {
  // Largest angle, over every frame and mapped bone, between the bone's model-space
  // direction on the target and the source's carried into the target's model space (the
  // change of facing, up axis and units removed). The bones are mappedBones' longer than
  // 1 % of the legs at rest in both characters. A leg's bones are left out on the
  // frames its stride curve (`contact.left_foot` / `contact.right_foot`) gives the leg IK
  // any weight: there the IK holds the foot, not the source's angles; so are the upper arms
  // and forearms when the hands reach by IK (`handsReach`).
  float maxBoneAngleDeg = 0.0f;
  std::string worstBone;  // the target joint the worst bone starts at
  int worstFrame = -1;
  float legLengthRatio = 1.0f;  // target leg length / source leg length, at rest
  // The hips' horizontal travel (across each character's ground normal, groundFrame), target
  // and source scaled by legLengthRatio: the distance from the first frame to the last and
  // the path length, in the target's model units.
  float hipDistance = 0.0f, hipDistanceExpected = 0.0f;
  float hipPath = 0.0f, hipPathExpected = 0.0f;
  // The larger of |distance − expected| and |path − expected path|, over the expected path:
  // a straight walk's distance is about its path, and an in-place cycle, whose distance is
  // near zero, is judged against how far its hips sway.
  float hipTravelRatioError = 0.0f;
};

// `result` (a clip of `target`) measured against `sourceClip` (of `source`), both sampled at
// the result's frames, the source `sourceOffsetSeconds` later (one source frame for a result
// retargeted without the source's first frame). Both maps must be complete
// (RetargetJob::validate).
RetargetQuality measureRetarget(const Skeleton& source, const HumanoidMap& sourceMap, const Clip& sourceClip,
                                const Skeleton& target, const HumanoidMap& targetMap, const Clip& result,
                                bool handsReach = false, double sourceOffsetSeconds = 0.0);

}  // namespace articula
