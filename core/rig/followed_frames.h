#pragma once
// What the handles of a rig are solved with on each frame of a clip: where a handle whose
// target follows the clip (from the incoming pose) is, frame after frame. A first key on such
// a handle starts its curves from these values, so the key changes its frame and the
// interpolation to the neighbouring frames and the handle still follows the clip everywhere
// else (keyed once, a curve would hold the handle still over the whole clip).
#include <vector>

#include "core/anim/clip.h"
#include "core/rig/rig.h"

namespace articula {

struct FollowedFrames {
  std::vector<double> timesSeconds;  // the clip's frames: startTime + k / frameRate, k < frameCount()
  // Per handle of the rig (definition order), per frame, model space: the target its solve
  // used (after grounding).
  std::vector<std::vector<Vec3>> targetModel;
  // Per handle, per frame, model space: the tip's turn its solve aimed at
  // (HandleReport::orientationModel), each in the hemisphere of the frame before.
  std::vector<std::vector<Quat>> orientationModel;
};

// `rig` (with the ground and placement its caller gave it) solved on every frame of `clip`,
// each frame sampled over the skeleton's rest pose; on a frame the rig refuses, the incoming
// pose's tips and their turns. No frames for a clip without any (frameCount() < 1).
FollowedFrames followedFrames(Rig& rig, const Clip& clip);

}  // namespace articula
