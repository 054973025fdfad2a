#include "core/anim/curve.h"

#include <cmath>
#include <utility>

namespace articula {
namespace {

// Stable sort by time; of keys at the same time the last one given wins.
void sortAndMerge(std::vector<CurveKey>& keys) {
  std::stable_sort(keys.begin(), keys.end(),
                   [](const CurveKey& a, const CurveKey& b) { return keyTimeLess(a.time, b.time); });
  std::vector<CurveKey> merged;
  merged.reserve(keys.size());
  for (CurveKey& key : keys) {
    if (!merged.empty() && sameKeyTime(merged.back().time, key.time)) {
      merged.back() = std::move(key);
    } else {
      merged.push_back(std::move(key));
    }
  }
  keys = std::move(merged);
}

// Index at which a key at `time` belongs: the first key not earlier than time - 1e-9 s.
std::size_t insertionIndex(const std::vector<CurveKey>& keys, double time) {
  const auto it = std::partition_point(keys.begin(), keys.end(), [time](const CurveKey& k) {
    return keyTimeLess(k.time, time) && !sameKeyTime(k.time, time);
  });
  return static_cast<std::size_t>(it - keys.begin());
}

// The handles of one segment as offsets from their keys in (time, value), after clamping:
// `right` leaves the segment's first key, `left` arrives at its second key.
struct SegmentHandles {
  Vec2d right;  // right.x() in [0, span]
  Vec2d left;   // left.x() in [-span, 0], right.x() - left.x() <= span
};

SegmentHandles clampHandles(const CurveKey& a, const CurveKey& b) {
  Vec2d right = a.right - Vec2d(a.time, a.value);
  Vec2d left = b.left - Vec2d(b.time, b.value);
  // A handle pointing backwards in time cannot be scaled into a monotone x(u) while keeping
  // its direction: it collapses onto its key (a vertical tangent there).
  if (!(right.x() >= 0.0) || !std::isfinite(right.x())) right.setZero();
  if (!(left.x() <= 0.0) || !std::isfinite(left.x())) left.setZero();
  // With both handle lengths in time summing to at most the span, every Bernstein
  // coefficient of x'(u) is non-negative, so x(u) is monotone (Blender's correct_bezpart).
  const double span = b.time - a.time;
  const double reach = right.x() - left.x();
  if (reach > span) {
    const double shrink = span / reach;
    right *= shrink;
    left *= shrink;
  }
  return {right, left};
}

// u and 1 - u, each computed without cancellation so y(u) is accurate at both ends.
struct BezierParameter {
  double u;
  double w;
};

// Solves x(u) = s for the normalised abscissa x(u) = 3p·u(1-u)² + 3(1-q)·u²(1-u) + u³,
// with p (first key's right handle) and q (second key's left handle) the handle lengths as
// fractions of the segment's time span, p, q >= 0 and p + q <= 1. `sRest` is 1 - s, computed
// by the caller from the segment's end time.
BezierParameter solveNormalized(double p, double q, double s, double sRest) {
  if (!(s > 0.0)) return {0.0, 1.0};
  if (!(sRest > 0.0)) return {1.0, 0.0};
  // Solve from the nearer end, in the reversed curve when past the middle. In monomial form
  // about the near end x(u) - s keeps full relative precision for small u, which matters
  // where a handle lies on its key (x'(0) = 0 or x'(1) = 0 and the root is ill-conditioned
  // in the far end's coordinates).
  const bool fromEnd = s > 0.5;
  if (fromEnd) {
    std::swap(p, q);
    s = sRest;
  }
  const double c1 = 3.0 * p;
  const double c2 = 3.0 - 3.0 * q - 6.0 * p;
  const double c3 = 3.0 * p + 3.0 * q - 2.0;
  // Safeguarded Newton: keep a bracket [lo, hi] around the root and bisect whenever the
  // Newton step would leave it (flat x'(u) near a handle lying on its key).
  constexpr int kMaxIterations = 100;
  constexpr double kStepTolerance = 1e-15;
  double lo = 0.0;
  double hi = 1.0;
  double u = s;  // exact when the handles sit at thirds (x(u) = u)
  for (int i = 0; i < kMaxIterations; ++i) {
    const double f = ((c3 * u + c2) * u + c1) * u - s;
    if (f == 0.0) break;
    if (f < 0.0) {
      lo = u;
    } else {
      hi = u;
    }
    const double df = (3.0 * c3 * u + 2.0 * c2) * u + c1;
    double next = df > 0.0 ? u - f / df : lo;
    if (!(next > lo && next < hi)) next = 0.5 * (lo + hi);
    const double step = std::abs(next - u);
    u = next;
    if (step <= kStepTolerance) break;
  }
  u = std::clamp(u, 0.0, 1.0);
  return fromEnd ? BezierParameter{1.0 - u, u} : BezierParameter{u, 1.0 - u};
}

bool isAuto(HandleType type) { return type == HandleType::Auto || type == HandleType::AutoClamped; }

// Turns `follower` (an absolute handle of the key at `keyPoint`) so it points opposite
// `leader`, keeping its length. A zero-length leader has no direction to follow.
void alignHandle(const Vec2d& keyPoint, const Vec2d& leader, Vec2d& follower) {
  const Vec2d lead = leader - keyPoint;
  const double leadLength = lead.norm();
  if (!(leadLength > 0.0)) return;
  const double length = (follower - keyPoint).norm();
  follower = keyPoint - lead * (length / leadLength);
}

// Blender's automatic and vector handles (calchandleNurb_intern for F-curves), with the
// handle reaching a third of the neighbouring interval in time so x(u) is linear in u.
void computeHandles(CurveKey& key, const CurveKey* prev, const CurveKey* next) {
  const Vec2d point(key.time, key.value);
  // Offsets to the neighbouring keys in (time, value). A missing neighbour mirrors the other
  // one, so an end key's Auto and Vector handles extrapolate its only segment.
  Vec2d toPrev = Vec2d::Zero();
  Vec2d toNext = Vec2d::Zero();
  if (prev) toPrev = Vec2d(prev->time, prev->value) - point;
  if (next) toNext = Vec2d(next->time, next->value) - point;
  if (!prev) toPrev = -toNext;
  if (!next) toNext = -toPrev;

  if (isAuto(key.leftType) || isAuto(key.rightType)) {
    // Secant slopes (value per second) of the two neighbouring intervals.
    const double slopePrev = toPrev.x() < 0.0 ? toPrev.y() / toPrev.x() : 0.0;
    const double slopeNext = toNext.x() > 0.0 ? toNext.y() / toNext.x() : 0.0;
    const double autoSlope = 0.5 * (slopePrev + slopeNext);
    // AutoClamped: flat at the ends and at local extrema; elsewhere the slope is limited so
    // each handle stays between its key's value and the neighbour's (|slope| / 3 of the
    // interval at most the secant rise), which keeps every control point of the segment
    // inside the value range of its keys: no overshoot.
    double clampedSlope = 0.0;
    if (prev && next && slopePrev * slopeNext > 0.0) {
      const double limit = 3.0 * std::min(std::abs(slopePrev), std::abs(slopeNext));
      clampedSlope = std::copysign(std::min(std::abs(autoSlope), limit), autoSlope);
    }
    const double leftSlope = key.leftType == HandleType::AutoClamped ? clampedSlope : autoSlope;
    const double rightSlope = key.rightType == HandleType::AutoClamped ? clampedSlope : autoSlope;
    if (isAuto(key.leftType)) key.left = point + Vec2d(toPrev.x(), leftSlope * toPrev.x()) / 3.0;
    if (isAuto(key.rightType)) key.right = point + Vec2d(toNext.x(), rightSlope * toNext.x()) / 3.0;
  }
  if (key.leftType == HandleType::Vector) key.left = point + toPrev / 3.0;
  if (key.rightType == HandleType::Vector) key.right = point + toNext / 3.0;

  if (key.rightType == HandleType::Aligned) {
    alignHandle(point, key.left, key.right);
  } else if (key.leftType == HandleType::Aligned) {
    alignHandle(point, key.right, key.left);
  }
}

bool handleMoved(const Vec2d& before, const Vec2d& after) {
  return (after - before).norm() > 1e-9 * (1.0 + before.norm());
}

}  // namespace

Curve::Curve(std::vector<CurveKey> keys) { setKeys(std::move(keys)); }

std::size_t Curve::insertKey(const CurveKey& key) {
  const std::size_t index = insertionIndex(mKeys, key.time);
  if (index < mKeys.size() && sameKeyTime(mKeys[index].time, key.time)) {
    const double keptTime = mKeys[index].time;
    mKeys[index] = key;
    mKeys[index].time = keptTime;
  } else {
    mKeys.insert(mKeys.begin() + static_cast<std::ptrdiff_t>(index), key);
  }
  recalculateHandles();
  return index;
}

std::size_t Curve::insertKey(double time, double value, Interpolation interpolation) {
  CurveKey key;
  key.time = time;
  key.value = value;
  key.interpolation = interpolation;
  return insertKey(key);
}

void Curve::removeKey(std::size_t index) {
  if (index >= mKeys.size()) return;
  mKeys.erase(mKeys.begin() + static_cast<std::ptrdiff_t>(index));
  recalculateHandles();
}

std::size_t Curve::setKey(std::size_t index, const CurveKey& key) {
  if (index >= mKeys.size()) return mKeys.size();
  CurveKey updated = key;
  if (updated.leftType == HandleType::Aligned && updated.rightType == HandleType::Aligned) {
    // Compare handles as offsets from their key so moving a key with its handles changes
    // neither; a dragged right handle then leads, and the left one turns to follow it.
    const CurveKey& old = mKeys[index];
    const Vec2d oldPoint(old.time, old.value);
    const Vec2d newPoint(updated.time, updated.value);
    const bool leftMoved = handleMoved(old.left - oldPoint, updated.left - newPoint);
    const bool rightMoved = handleMoved(old.right - oldPoint, updated.right - newPoint);
    if (rightMoved && !leftMoved) alignHandle(newPoint, updated.right, updated.left);
  }
  mKeys.erase(mKeys.begin() + static_cast<std::ptrdiff_t>(index));
  return insertKey(updated);
}

void Curve::setKeys(std::vector<CurveKey> keys) {
  sortAndMerge(keys);
  mKeys = std::move(keys);
  recalculateHandles();
}

void Curve::recalculateHandles() {
  const std::size_t n = mKeys.size();
  for (std::size_t i = 0; i < n; ++i) {
    computeHandles(mKeys[i], i > 0 ? &mKeys[i - 1] : nullptr, i + 1 < n ? &mKeys[i + 1] : nullptr);
  }
}

Curve::BezierSegment Curve::bezierSegment(std::size_t segment) const {
  if (mKeys.empty()) return {Vec2d::Zero(), Vec2d::Zero(), Vec2d::Zero(), Vec2d::Zero()};
  if (mKeys.size() == 1) {
    const Vec2d point(mKeys[0].time, mKeys[0].value);
    return {point, point, point, point};
  }
  const std::size_t i = std::min(segment, mKeys.size() - 2);
  const CurveKey& a = mKeys[i];
  const CurveKey& b = mKeys[i + 1];
  const SegmentHandles handles = clampHandles(a, b);
  const Vec2d p0(a.time, a.value);
  const Vec2d p3(b.time, b.value);
  return {p0, p0 + handles.right, p3 + handles.left, p3};
}

double Curve::evaluate(double t) const {
  CurveCursor cursor;
  return evaluate(t, cursor);
}

double Curve::evaluate(double t, CurveCursor& cursor) const {
  if (mKeys.empty()) return 0.0;
  // Constant extrapolation on both sides; NaN times read the first key.
  if (!(t > mKeys.front().time)) return mKeys.front().value;
  if (t >= mKeys.back().time) return mKeys.back().value;
  const std::size_t i = findSegment(t, &cursor);
  const CurveKey& a = mKeys[i];
  const CurveKey& b = mKeys[i + 1];
  const double span = b.time - a.time;
  switch (a.interpolation) {
    case Interpolation::Constant:
      return a.value;
    case Interpolation::Linear:
      return a.value + (b.value - a.value) * ((t - a.time) / span);
    case Interpolation::Bezier:
      break;
  }
  const SegmentHandles handles = clampHandles(a, b);
  const auto [u, w] =
      solveNormalized(handles.right.x() / span, -handles.left.x() / span, (t - a.time) / span, (b.time - t) / span);
  const double y1 = a.value + handles.right.y();
  const double y2 = b.value + handles.left.y();
  return w * w * w * a.value + 3.0 * u * w * (w * y1 + u * y2) + u * u * u * b.value;
}

std::size_t Curve::findSegment(double t, CurveCursor* cursor) const {
  std::size_t segment = cursor ? cursor->segment : 0;
  const std::size_t index = findSegmentIndex(mKeys.size(), t, segment, [this](std::size_t k) { return mKeys[k].time; });
  if (cursor) cursor->segment = segment;
  return index;
}

double Curve::startTime() const { return mKeys.empty() ? 0.0 : mKeys.front().time; }

double Curve::endTime() const { return mKeys.empty() ? 0.0 : mKeys.back().time; }

double solveBezierParameter(double x0, double x1, double x2, double x3, double t) {
  const double span = x3 - x0;
  if (!(span > 0.0)) return 0.0;
  double right = x1 - x0;
  double left = x3 - x2;
  if (!(right >= 0.0) || !std::isfinite(right)) right = 0.0;
  if (!(left >= 0.0) || !std::isfinite(left)) left = 0.0;
  if (right + left > span) {
    const double shrink = span / (right + left);
    right *= shrink;
    left *= shrink;
  }
  return solveNormalized(right / span, left / span, (t - x0) / span, (x3 - t) / span).u;
}

}  // namespace articula
