#pragma once
// Retargeting: a clip of one humanoid (the source) played by another (the target), through
// the humanoid role maps of both. Each mapped target joint turns in model space as its
// source joint turns from its rest pose, carried from the source's model frame into the
// target's (up axis, facing, units may differ); the hips travel as the source's hips,
// scaled by the ratio of leg lengths.
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/anim/clip.h"
#include "core/bake/dense_clip.h"
#include "core/retarget/feet_on_floor.h"
#include "core/rig/humanoid_map.h"
#include "core/skeleton/skeleton.h"
#include "core/util/result.h"

namespace articula {

// Source joint → target joint of every role both maps have: hips, spine (by position
// along each chain when their lengths differ), neck, head, and per side thigh, knee, ankle,
// toe, clavicle, upper arm, forearm, hand.
std::vector<std::pair<int, int>> pairRoles(const HumanoidMap& source, const HumanoidMap& target);

struct RetargetJob {
  const Skeleton* sourceSkeleton = nullptr;
  const Clip* sourceClip = nullptr;
  const HumanoidMap* sourceMap = nullptr;
  const Skeleton* targetSkeleton = nullptr;
  const HumanoidMap* targetMap = nullptr;
  // Frames per second of the result; 0 keeps the source's.
  double frameRate = 0.0;
  // Each hand reaches, by two-bone IK on its arm (the elbow kept in its bend plane, the
  // hand's model rotation kept), for the source's hand position relative to the source's
  // hips, carried into the target's model space and scaled by the arm-length ratio, from
  // the target's hips. Arms the maps lack are left as they are.
  bool handsReach = false;
  // The source clip's first frame is left out (a capture's calibration T-pose, see
  // leadsWithRestFrame): the result starts at the source's start time with its second
  // frame and is one source frame shorter; the source's floor is read without it too.
  bool skipFirstFrame = false;
  // When given, the target's feet stand on its floor (standOnFloor): where the source plants
  // a foot (plantedFrames) its sole is on the floor, and no foot goes below it.
  const CharacterSoles* targetSoles = nullptr;

  // nullopt when the job can run; otherwise what is missing or invalid (a skeleton, the
  // clip, a map, an empty clip, a map that lacks a role retargeting needs (hips, chest,
  // spine, thighs, knees, the legs' tips) or names a joint not in its skeleton — every such
  // role named as `articula-cli map` names it —, a leg of zero
  // length, a frame rate that is negative or not finite, a first frame to skip in a clip of
  // one frame).
  std::optional<std::string> validate() const;
  // Frames from the source clip's start to its end at `frameRate` (the source's frames when
  // 0; else its last frame is within half a frame of the source's end): the target's hips translate and
  // every mapped target joint rotates (a foot that is an IK bone beside the leg also
  // translates, to stay at the shin's tail); other joints keep their rest pose.
  Result<DenseClip> run() const;
};

}  // namespace articula
