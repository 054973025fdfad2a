#pragma once
// Root motion: a character's travel moved from its hips onto a root joint above them (what
// engines read to move the character), and folded back again.
#include <optional>
#include <string>

#include "core/clipops/travel.h"

namespace articula {

// Moves the hips' travel onto `root`, their parent. At every frame the root takes the hips'
// position on the chosen axes (and their facing about up with `axes.yaw`), in the space of
// the root's parent, its other axes and its rotation kept at its rest; the hips and every
// other child of the root are re-expressed under it, so no joint moves in model space. The
// root's scale stays as the clip has it. Output: `clip` with the root's and its children's
// translation and rotation keyed at every frame (linear, slerp); other tracks untouched.
struct RootMotionJob {
  const Skeleton* skeleton = nullptr;
  const Clip* clip = nullptr;
  int hips = -1;
  int root = -1;
  Mat3 groundModel = Mat3::Zero();  // columns x, y (up), z in model space (TravelFrame)
  TravelAxes axes;

  // nullopt when valid; else why not: no skeleton or clip, hips or root out of range, the
  // root not the hips' parent, a ground frame that is not a rotation, no axis chosen, a
  // clip of fewer than two frames (no travel), a clip that does not validate.
  std::optional<std::string> validate() const;
  // Validates first.
  Result<Clip> run() const;
};

// The inverse: `root`'s motion folded into each of its children, the root left at its rest
// pose with no track; no joint moves in model space.
struct FoldRootMotionJob {
  const Skeleton* skeleton = nullptr;
  const Clip* clip = nullptr;
  int root = -1;

  // nullopt when valid; else why not: no skeleton or clip, root out of range or without
  // children, a clip with no frame, a clip that does not validate.
  std::optional<std::string> validate() const;
  Result<Clip> run() const;
};

// nullopt when `ground`'s columns are unit and orthogonal (a rotation, or a mirror).
std::optional<std::string> checkGround(const Mat3& ground);

}  // namespace articula
