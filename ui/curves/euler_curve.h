#pragma once
#include <vector>

#include "core/anim/clip.h"
#include "core/math/euler.h"

namespace articula::ui {

// The Euler angles an animator reads for a rotation track, one definition for the curve
// editor (which plots them) and Properties (which shows the current frame's): the track
// sampled over its clip's range and a second beyond each end, several samples per frame and
// one at every key, each triple (radians, indexed by axis x, y, z, in `order`) the
// equivalent one nearest the sample before it (Maya's Euler filter), the first one with each
// angle in [-180°, 180°] and the smaller of the two twins (a, b, c) / (a+180°, 180°-b, c+180°).
// So a curve never jumps by 360° nor flips to the twin, and its branch depends on the track
// and the clip's range only, not on what the view shows.
struct EulerCurve {
  std::vector<double> times;    // seconds, increasing
  std::vector<Vec3> anglesRad;  // one triple per time
};

// Samples per frame of every plotted curve, so Bézier shapes and constant steps show.
inline constexpr int kCurveSamplesPerFrame = 4;

EulerCurve filteredEulerCurve(const Clip& clip, const RotationTrack& track, RotationOrder order);

// The triple of `rotation` on the branch `curve` follows at `time`: nearest the last sample
// at or before it. How Properties picks the angles of the pose it shows.
Vec3 eulerOnCurve(const EulerCurve& curve, double time, const Quat& rotation, RotationOrder order);

// Each angle moved by a whole number of turns into (-π, π].
Vec3 wrappedToHalfTurn(const Vec3& anglesRad);

}  // namespace articula::ui
