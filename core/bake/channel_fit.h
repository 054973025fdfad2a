#pragma once
// Greedy segment fitting of one densely sampled channel (one sample per frame), used by key
// reduction. Each function keeps the fewest frames it can find such that interpolating
// between them reproduces every sample within a budget, and never drops a breakpoint.
#include <span>
#include <vector>

#include "core/math/types.h"

namespace articula {

// A segment between two kept frames of a translation or scale channel. For a Bézier
// segment, `control1` and `control2` are the values of the inner control points, placed
// at 1/3 and 2/3 of the segment in time (so the curve's time is linear in its parameter).
struct Vec3Segment {
  bool bezier = false;
  Vec3 control1 = Vec3::Zero();
  Vec3 control2 = Vec3::Zero();
};

struct Vec3Fit {
  std::vector<int> frames;            // kept frames, ascending, first and last included
  std::vector<Vec3Segment> segments;  // frames.size() - 1 entries (empty for one frame)
};

// `samples`: one value per frame. `breakpoints`: frames that must be kept, ascending,
// including 0 and samples.size() - 1. `budget`: largest distance (same units as the
// samples) between a sample and the fitted value at its frame. With `bezier`, a segment is
// a least-squares cubic where that spans more frames than a line. With `halfways`, a cubic
// also stays within `budget` of the line halfway between consecutive samples (what a
// per-frame bake plays there), so it cannot swing past a sharp turn between frames (a foot
// striking the floor). A channel whose samples all lie within `budget` of the first keeps
// one frame.
Vec3Fit fitVec3Channel(std::span<const Vec3> samples, std::span<const int> breakpoints, float budget, bool bezier,
                       bool halfways);

// Kept frames of a channel of `width` values per frame (samples[frame * width + c], e.g. a
// mesh's morph weights) interpolated linearly between them: every value within `budget` of
// its line. Same rules for breakpoints and a constant channel as fitVec3Channel.
std::vector<int> fitLinearChannel(std::span<const float> samples, std::size_t width, std::span<const int> breakpoints,
                                  float budget);

// A segment between two kept frames of a rotation channel: a slerp, or a glTF cubic spline
// (Hermite on the quaternion's four components, normalised) whose Bézier control points
// `control1` and `control2` (x, y, z, w) sit at 1/3 and 2/3 of the segment. The glTF
// tangents follow: out = 3 (control1 - start) / duration, in = 3 (end - control2) / duration.
struct RotationSegment {
  bool cubic = false;
  Vec4 control1 = Vec4::Zero();
  Vec4 control2 = Vec4::Zero();
};

// glTF gives one interpolation to a whole sampler, so a channel is fitted either with slerps
// only (written LINEAR) or with cubic splines only (written CUBICSPLINE): there, a "line" is
// the spline with its control points on the chord, which evaluates as a normalised lerp of
// the components, and is measured as one.
struct RotationFit {
  std::vector<int> frames;
  std::vector<RotationSegment> segments;  // frames.size() - 1 entries, all cubic or none
  bool cubicSpline = false;               // every segment is a glTF cubic spline
};

// `samples`: unit quaternions, each in the hemisphere of the previous one. `chordBudget`
// bounds 2·sin(θ/2) for the angle θ between a sample and the fitted rotation at its frame
// (the distance a unit lever's end moves). A slerp segment holds it both as a slerp (the
// spec) and as a normalised lerp of the components (what Blender plays for LINEAR keys), so
// either reader plays the channel within the budget. With `cubic`, the channel is also fitted as
// cubic splines (least-squares cubics where those span more frames than a chord) and that
// fit is kept when it needs fewer keys than the slerp fit. Consecutive kept frames are less
// than 180° apart along the samples' own path, so a fast spin is never merged the wrong way
// round. A channel whose samples all lie within the budget of the first keeps one frame.
// How far apart (chord, as above) a slerp from a to b and the normalised lerp of their
// components (Blender's LINEAR rotation) get: at their farthest, u = 1/2 ∓ 1/(2√3). Grows
// with the cube of the angle between a and b, so a segment cut in n parts is n³ times closer.
float componentLerpApart(const Quat& a, const Quat& b);

RotationFit fitRotationChannel(std::span<const Quat> samples, std::span<const int> breakpoints, float chordBudget,
                               bool cubic);

}  // namespace articula
