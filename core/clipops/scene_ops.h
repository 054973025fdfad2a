#pragma once
// The clip operations on a whole scene, as articula-cli and the editor run them: the
// skeleton's root joint added where missing, then one job per clip. Each checks every clip
// before it changes any, so a scene it refuses is left as it was; the error is one line
// naming the clip or joint at fault (callers add the file).
#include <optional>
#include <string>

#include "core/clipops/travel.h"
#include "core/scene/scene.h"

namespace articula {

struct RootMotionOptions {
  std::string rootName = "root";  // the joint above the hips that takes the travel
  TravelAxes axes;
  std::string clip;  // one clip by name; empty: every clip
};

// Moves each clip's travel onto the hips' parent named rootName, adding it (a joint at the
// hips' parent's origin, in every skin the hips are in) when the hips' parent is not it. A
// root name that another joint already has is refused, as is a hips' parent that is a plain
// node (not a bone) and a skeleton with no humanoid.
// Adding the root renumbers the joints after it (and gives every joint a new stable id).
std::optional<std::string> extractRootMotion(Scene& scene, const RootMotionOptions& options);

// Folds the motion of the hips' parent named rootName back into its children.
std::optional<std::string> foldRootMotion(Scene& scene, const std::string& rootName, const std::string& clip);

// Takes the travel out of each clip (InPlaceJob on travelJoint of the humanoid's hips,
// carrying the translated joints beside it: IK feet under the same root).
std::optional<std::string> makeInPlace(Scene& scene, const TravelAxes& axes, const std::string& clip);

struct CyclicOptions {
  double blendSeconds = 0.25;
  bool keepEndFrame = true;
  std::string clip;  // empty: every clip
};

// MakeCyclicJob on each clip; the travel joint is found as seamScore finds it (a skeleton
// with no humanoid still loops, with no travel), whether the end repeats the start by the
// clip's seam (endRepeatsStart), and a capture's calibration T-pose first frame
// (leadsWithRestFrame: CMU's) is left out of the cycle.
std::optional<std::string> makeCyclic(Scene& scene, const CyclicOptions& options);

// Adds a joint named `name` as the parent of `child` (under `child`'s old parent, at its
// origin), renumbering everything in the scene that refers to joints: meshes, skins (the new
// joint joins every skin `child` is in), Euler orders and every clip's tracks. Returns the
// new joint's index.
Result<int> insertParentJoint(Scene& scene, int child, const std::string& name);

}  // namespace articula
