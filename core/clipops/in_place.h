#pragma once
// In place: a clip's travel taken away, as on a treadmill, for engines that move the
// character themselves.
#include <optional>
#include <string>
#include <vector>

#include "core/clipops/travel.h"

namespace articula {

// Takes `joint`'s travel out of the clip on the chosen axes: the straight line from its
// first frame to its last at constant speed (the treadmill's) is subtracted, so it ends
// where it starts, and a ground axis also loses its start so the character stays over the
// origin; height keeps its start. With `axes.yaw` the steady turn from the first frame's
// facing to the last's is taken out too, about up through the origin. What the joint does
// within a stride (its sway and bob) stays, so a foot planted in the source moves at the
// treadmill's constant speed. Output: `clip` with `joint`'s translation and rotation keyed
// at every frame, and so are the carried joints'.
struct InPlaceJob {
  const Skeleton* skeleton = nullptr;
  const Clip* clip = nullptr;
  int joint = -1;  // the travel joint (travelJoint)
  // Joints under the same parent moved by the same shift and turn (IK feet beside the legs,
  // which travel with the body); may be empty.
  std::vector<int> carried;
  Mat3 groundModel = Mat3::Zero();  // columns x, y (up), z in model space (TravelFrame)
  TravelAxes axes;

  // nullopt when valid; else why not: no skeleton or clip, joint out of range, a carried
  // joint out of range or not under the joint's parent, a ground
  // frame that is not a rotation, no axis chosen, a clip of fewer than two frames or that
  // does not validate.
  std::optional<std::string> validate() const;
  Result<Clip> run() const;
};

}  // namespace articula
