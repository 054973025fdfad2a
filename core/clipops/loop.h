#pragma once
// Loops: how far a clip's end is from its start (the seam a player shows when it wraps), and
// Make Cyclic, which blends the end into the start.
#include <optional>
#include <string>
#include <vector>

#include "core/clipops/travel.h"

namespace articula {

// A clip's seam, in millimetres for a character 1.75 m tall and in degrees. Positions are
// those of every joint and tip that travels (under the travel joint, travelJoint of the
// frame's hips, or a joint carriedJoints finds beside it) in model space, relative to the
// travel joint's ground point, so the travel itself is no seam; its step is compared too.
// A seamless loop that keeps its duplicate end frame scores about 0 in pose; one that drops
// it, one frame's step.
struct SeamScore {
  int frames = 0;
  double poseMm = 0.0;       // largest distance of a joint between the last frame and the first
  double rotationDeg = 0.0;  // largest angle of a joint's local rotation, last frame to first
  // Largest difference (mm per frame) between a joint's velocity at the last frame and at
  // the first, each estimated from its own side (second-order differences): how much the
  // velocity jumps at the wrap; the travel joint's ground velocity included.
  double velocityMm = 0.0;
  double medianStepMm = 0.0;            // the median over frames of the largest joint step
  double medianVelocityChangeMm = 0.0;  // the median over frames of the largest step change
  double travelMm = 0.0;                // the travel joint's ground distance, first frame to last (per cycle)
};

// The seam of `clip`; an error when it has fewer than three frames (no velocity at its ends)
// or does not validate against `skeleton`.
Result<SeamScore> seamScore(const Skeleton& skeleton, const Clip& clip, const TravelFrame& frame);

// Blends the end of the clip into its start over the last `blendSeconds`: each animated
// channel gets a cubic offset (rotations as a rotation vector) that is zero with zero slope
// where the span begins and at the last frame brings the value to the first frame's and its
// velocity (second-order differences, as seamScore measures them) to the first frame's, so
// position and velocity run on across the wrap. A clip whose end does not repeat its start
// (a loop that dropped its duplicate end frame) first gets that frame, one last step on. The
// travel joint's ground translation is travel: its value is kept (the next cycle starts where
// this one ends) and only its velocity is matched, so the travel per cycle is continuous too;
// the joints `carried` beside it (IK feet under the same parent) end one cycle's travel on
// from their start, so they stay where they were relative to it. Every animated channel is
// keyed at every frame (linear, slerp). With keepEndFrame false the duplicate end frame is
// dropped, as engines that wrap from the last frame to the first expect.
struct MakeCyclicJob {
  const Skeleton* skeleton = nullptr;
  const Clip* clip = nullptr;
  double blendSeconds = 0.0;
  int travelJoint = -1;             // -1: none
  std::vector<int> carried{};       // translated joints with travelJoint's parent
  Mat3 groundModel = Mat3::Zero();  // columns x, y (up), z in model space, with travelJoint
  bool keepEndFrame = true;
  bool endRepeatsStart = true;  // see endRepeatsStart(SeamScore)

  // nullopt when valid; else why not: no skeleton or clip, a clip that does not validate or
  // has fewer than five frames, a span shorter than three frames or longer than the clip
  // less its first two frames (which give the start's velocity), a travel joint out of range
  // or without a ground frame, a carried joint not beside the travel joint.
  std::optional<std::string> validate() const;
  Result<Clip> run() const;
};

// True when a clip's last frame already repeats its first: its pose seam is within a tenth
// of its median step (RobotExpressive's cycles), where a loop that drops the duplicate
// (MakeHuman's walk1) ends a whole step from its start.
bool endRepeatsStart(const SeamScore& seam);

}  // namespace articula
