#include "core/bake/channel_fit.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace articula {
namespace {

// Largest e in (s, limit] with fits(s, e), assuming fits(s, s + 1) (a segment with no inner
// sample always fits). Gallops outwards, then bisects between the last fit and the first
// miss: O(log n) trials of O(e - s) each.
template <typename Fits>
int farthestEnd(int s, int limit, Fits&& fits) {
  int good = s + 1;
  if (good >= limit) return limit;
  int bad = -1;
  int step = 2;
  while (good < limit) {
    const int probe = std::min(s + step, limit);
    if (fits(s, probe)) {
      good = probe;
      step *= 2;
    } else {
      bad = probe;
      break;
    }
  }
  if (bad < 0) return good;
  while (bad - good > 1) {
    const int mid = good + (bad - good) / 2;
    if (fits(s, mid)) {
      good = mid;
    } else {
      bad = mid;
    }
  }
  return good;
}

// Cubic Bernstein weights at parameter u.
struct Bernstein {
  float b0, b1, b2, b3;
  explicit Bernstein(float u) {
    const float v = 1.0f - u;
    b0 = v * v * v;
    b1 = 3.0f * u * v * v;
    b2 = 3.0f * u * u * v;
    b3 = u * u * u;
  }
  template <typename V>
  V at(const V& p0, const V& c1, const V& c2, const V& p3) const {
    return b0 * p0 + b1 * c1 + b2 * c2 + b3 * p3;
  }
};

// Least-squares inner control points of the cubic through samples[s] and samples[e], with
// time linear in the parameter (u = (k - s) / (e - s)). False when fewer than two inner
// samples make it underdetermined, or the normal equations are singular.
template <typename V>
bool leastSquaresCubic(std::span<const V> samples, int s, int e, V& c1, V& c2) {
  if (e - s < 3) return false;
  const V& p0 = samples[static_cast<std::size_t>(s)];
  const V& p3 = samples[static_cast<std::size_t>(e)];
  const float inv = 1.0f / static_cast<float>(e - s);
  double a11 = 0.0, a12 = 0.0, a22 = 0.0;
  using Vd = Eigen::Matrix<double, V::RowsAtCompileTime, 1>;
  Vd r1 = Vd::Zero();
  Vd r2 = Vd::Zero();
  for (int k = s + 1; k < e; ++k) {
    const Bernstein w(static_cast<float>(k - s) * inv);
    const Vd residual = (samples[static_cast<std::size_t>(k)] - w.b0 * p0 - w.b3 * p3).template cast<double>();
    a11 += double(w.b1) * w.b1;
    a12 += double(w.b1) * w.b2;
    a22 += double(w.b2) * w.b2;
    r1 += double(w.b1) * residual;
    r2 += double(w.b2) * residual;
  }
  const double det = a11 * a22 - a12 * a12;
  if (!(std::abs(det) > 1e-12 * (a11 * a22))) return false;
  c1 = ((a22 * r1 - a12 * r2) / det).template cast<float>();
  c2 = ((a11 * r2 - a12 * r1) / det).template cast<float>();
  return c1.allFinite() && c2.allFinite();
}

// Next breakpoint after frame s.
int nextBreakpoint(std::span<const int> breakpoints, int s) {
  const auto it = std::upper_bound(breakpoints.begin(), breakpoints.end(), s);
  return it == breakpoints.end() ? breakpoints.back() : *it;
}

// 2·sin(θ/2) for the angle θ between two unit quaternions: the chord a unit lever's end
// sweeps. With φ = θ/2 the angle between the 4-vectors, |a − b| = 2·sin(φ/2) and
// |a + b| = 2·cos(φ/2), so the chord 2·sin φ is their product, either hemisphere alike. Not
// from the dot product: in float, |dot| rounds to 1 below θ ≈ 7e-4 rad, so turns that small
// would measure zero and a zero budget would still merge keys.
float chord(const Quat& a, const Quat& b) {
  return (a.coeffs() - b.coeffs()).norm() * (a.coeffs() + b.coeffs()).norm();
}

Quat toQuat(const Vec4& xyzw) { return Quat(xyzw.w(), xyzw.x(), xyzw.y(), xyzw.z()); }

// Where a normalised lerp of two unit quaternions is farthest from their slerp (and, by
// symmetry, at 1 - u): 1/2 - 1/(2√3).
constexpr float kLerpApartU = 0.21132487f;

// A LINEAR rotation key pair as Blender plays it: the components lerped, then normalised
// (a, b in one hemisphere, so the sum never vanishes).
Quat componentLerp(const Quat& a, const Quat& b, float u) {
  return toQuat(((1.0f - u) * a.coeffs() + u * b.coeffs()).normalized());
}

// Fits consecutive segments from frame 0: at each start, the farthest end a line (`fitsLine`,
// which fills the segment) reaches and, if `tryCubic`, the farthest a least-squares cubic
// (`fitsCubic`, which fills the segment) reaches; the cubic is taken only where it goes
// further.
template <typename Segment, typename FitsLine, typename FitsCubic>
void fitSegments(int last, std::span<const int> breakpoints, bool tryCubic, FitsLine&& fitsLine, FitsCubic&& fitsCubic,
                 std::vector<int>& frames, std::vector<Segment>& segments) {
  int s = 0;
  while (s < last) {
    const int limit = nextBreakpoint(breakpoints, s);
    const int lineEnd = farthestEnd(s, limit, [&](int a, int b) { return fitsLine(a, b, nullptr); });
    Segment segment;
    int end = lineEnd;
    if (tryCubic && lineEnd < limit) {
      const int cubicEnd = farthestEnd(s, limit, [&](int a, int b) { return b - a < 3 || fitsCubic(a, b, nullptr); });
      if (cubicEnd > lineEnd && fitsCubic(s, cubicEnd, &segment)) end = cubicEnd;
    }
    if (end == lineEnd) fitsLine(s, end, &segment);
    frames.push_back(end);
    segments.push_back(segment);
    s = end;
  }
}

}  // namespace

Vec3Fit fitVec3Channel(std::span<const Vec3> samples, std::span<const int> breakpoints, float budget, bool bezier,
                       bool halfways) {
  Vec3Fit fit;
  if (samples.empty()) return fit;
  const int last = static_cast<int>(samples.size()) - 1;
  const float budget2 = budget * budget;
  fit.frames.push_back(0);
  const bool constant = std::all_of(samples.begin(), samples.end(),
                                    [&](const Vec3& v) { return (v - samples.front()).squaredNorm() <= budget2; });
  if (constant || last == 0) return fit;

  auto fitsLine = [&](int s, int e, Vec3Segment*) {
    const Vec3& a = samples[static_cast<std::size_t>(s)];
    const Vec3& b = samples[static_cast<std::size_t>(e)];
    const float inv = 1.0f / static_cast<float>(e - s);
    for (int k = s + 1; k < e; ++k) {
      const float u = static_cast<float>(k - s) * inv;
      if ((a + u * (b - a) - samples[static_cast<std::size_t>(k)]).squaredNorm() > budget2) return false;
    }
    return true;
  };
  auto fitsCubic = [&](int s, int e, Vec3Segment* segment) {
    Vec3 c1, c2;
    if (!leastSquaresCubic(samples, s, e, c1, c2)) return false;
    const Vec3& p0 = samples[static_cast<std::size_t>(s)];
    const Vec3& p3 = samples[static_cast<std::size_t>(e)];
    const float inv = 1.0f / static_cast<float>(e - s);
    auto at = [&](float frame) { return Bernstein((frame - static_cast<float>(s)) * inv).at(p0, c1, c2, p3); };
    for (int k = s; k < e; ++k) {
      const Vec3& a = samples[static_cast<std::size_t>(k)];
      if (k > s && (at(static_cast<float>(k)) - a).squaredNorm() > budget2) return false;
      const Vec3 halfway = 0.5f * (a + samples[static_cast<std::size_t>(k + 1)]);
      if (halfways && (at(static_cast<float>(k) + 0.5f) - halfway).squaredNorm() > budget2) return false;
    }
    if (segment != nullptr) *segment = Vec3Segment{true, c1, c2};
    return true;
  };
  fitSegments(last, breakpoints, bezier, fitsLine, fitsCubic, fit.frames, fit.segments);
  return fit;
}

namespace {

// Path angle from frame 0 (sum of the per-frame angles), so "less than 180° apart along the
// motion" is one subtraction.
std::vector<double> pathAngles(std::span<const Quat> samples) {
  std::vector<double> pathAngle(samples.size(), 0.0);
  for (std::size_t k = 1; k < samples.size(); ++k) {
    const double d = std::min(1.0, std::abs(static_cast<double>(samples[k - 1].dot(samples[k]))));
    pathAngle[k] = pathAngle[k - 1] + 2.0 * std::acos(d);
  }
  return pathAngle;
}

// Largest chord between samples (s, e) and the normalised cubic with Bézier control points
// p0, c1, c2, p3 on the components; infinity where the cubic passes near zero.
float cubicChordError(std::span<const Quat> samples, std::span<const Vec4> components, int s, int e, const Vec4& c1,
                      const Vec4& c2) {
  const Vec4& p0 = components[static_cast<std::size_t>(s)];
  const Vec4& p3 = components[static_cast<std::size_t>(e)];
  const float inv = 1.0f / static_cast<float>(e - s);
  float worst = 0.0f;
  for (int k = s + 1; k < e; ++k) {
    const Vec4 p = Bernstein(static_cast<float>(k - s) * inv).at(p0, c1, c2, p3);
    const float norm = p.norm();
    if (!(norm > 1e-3f)) return std::numeric_limits<float>::infinity();
    worst = std::max(worst, chord(toQuat(p / norm), samples[static_cast<std::size_t>(k)]));
  }
  return worst;
}

}  // namespace

std::vector<int> fitLinearChannel(std::span<const float> samples, std::size_t width, std::span<const int> breakpoints,
                                  float budget) {
  std::vector<int> frames;
  if (width == 0 || samples.size() < width) return frames;
  const int last = static_cast<int>(samples.size() / width) - 1;
  auto value = [&](int frame, std::size_t c) { return samples[static_cast<std::size_t>(frame) * width + c]; };
  frames.push_back(0);
  bool constant = true;
  for (int f = 1; f <= last && constant; ++f) {
    for (std::size_t c = 0; c < width && constant; ++c) constant = std::abs(value(f, c) - value(0, c)) <= budget;
  }
  if (constant) return frames;
  struct LinearSegment {};
  auto fitsLine = [&](int s, int e, LinearSegment*) {
    const float inv = 1.0f / static_cast<float>(e - s);
    for (int k = s + 1; k < e; ++k) {
      const float u = static_cast<float>(k - s) * inv;
      for (std::size_t c = 0; c < width; ++c) {
        if (std::abs(value(s, c) + u * (value(e, c) - value(s, c)) - value(k, c)) > budget) return false;
      }
    }
    return true;
  };
  auto neverCubic = [](int, int, LinearSegment*) { return false; };
  std::vector<LinearSegment> segments;
  fitSegments(last, breakpoints, false, fitsLine, neverCubic, frames, segments);
  return frames;
}

float componentLerpApart(const Quat& a, const Quat& b) {
  return chord(a.slerp(kLerpApartU, b), componentLerp(a, b, kLerpApartU));
}

RotationFit fitRotationChannel(std::span<const Quat> samples, std::span<const int> breakpoints, float chordBudget,
                               bool cubic) {
  RotationFit fit;
  if (samples.empty()) return fit;
  const int last = static_cast<int>(samples.size()) - 1;
  fit.frames.push_back(0);
  const bool constant = std::all_of(samples.begin(), samples.end(),
                                    [&](const Quat& q) { return chord(q, samples.front()) <= chordBudget; });
  if (constant || last == 0) return fit;

  const std::vector<double> pathAngle = pathAngles(samples);
  constexpr double kMaxSpanRad = 0.9 * 3.14159265358979323846;  // margin below 180°
  auto withinHalfTurn = [&](int s, int e) {
    return pathAngle[static_cast<std::size_t>(e)] - pathAngle[static_cast<std::size_t>(s)] < kMaxSpanRad;
  };

  auto fitsSlerp = [&](int s, int e, RotationSegment*) {
    if (!withinHalfTurn(s, e)) return false;
    const Quat& a = samples[static_cast<std::size_t>(s)];
    const Quat& b = samples[static_cast<std::size_t>(e)];
    const float inv = 1.0f / static_cast<float>(e - s);
    for (int k = s + 1; k < e; ++k) {
      const float u = static_cast<float>(k - s) * inv;
      const Quat& sample = samples[static_cast<std::size_t>(k)];
      if (chord(a.slerp(u, b), sample) > chordBudget) return false;
      if (chord(componentLerp(a, b, u), sample) > chordBudget) return false;
    }
    // Between frames (a player's 120 Hz on a 24 fps clip) the two readers part most where
    // a normalised lerp leads or trails the slerp most, at u = 1/2 ∓ 1/(2√3): held to half
    // the budget there, so Blender plays the spec's motion within the budget too.
    return componentLerpApart(a, b) <= 0.5f * chordBudget;
  };
  auto neverCubic = [](int, int, RotationSegment*) { return false; };
  fitSegments(last, breakpoints, false, fitsSlerp, neverCubic, fit.frames, fit.segments);
  if (!cubic || fit.frames.size() <= 2) return fit;

  // The cubic-spline fit, on the four components as glTF evaluates them.
  std::vector<Vec4> components(samples.size());
  for (std::size_t k = 0; k < samples.size(); ++k) components[k] = samples[k].coeffs();
  auto fitsChord = [&](int s, int e, RotationSegment* segment) {
    if (!withinHalfTurn(s, e)) return false;
    const Vec4& p0 = components[static_cast<std::size_t>(s)];
    const Vec4 third = (components[static_cast<std::size_t>(e)] - p0) / 3.0f;
    const Vec4 c1 = p0 + third;
    const Vec4 c2 = p0 + 2.0f * third;
    if (!(cubicChordError(samples, components, s, e, c1, c2) <= chordBudget)) return false;
    if (segment != nullptr) *segment = RotationSegment{true, c1, c2};
    return true;
  };
  auto fitsCubic = [&](int s, int e, RotationSegment* segment) {
    if (!withinHalfTurn(s, e)) return false;
    Vec4 c1, c2;
    if (!leastSquaresCubic<Vec4>(components, s, e, c1, c2)) return false;
    if (!(cubicChordError(samples, components, s, e, c1, c2) <= chordBudget)) return false;
    if (segment != nullptr) *segment = RotationSegment{true, c1, c2};
    return true;
  };
  RotationFit spline;
  spline.cubicSpline = true;
  spline.frames.push_back(0);
  fitSegments(last, breakpoints, true, fitsChord, fitsCubic, spline.frames, spline.segments);
  return spline.frames.size() < fit.frames.size() ? spline : fit;
}

}  // namespace articula
