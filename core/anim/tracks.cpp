#include "core/anim/tracks.h"

#include <algorithm>
#include <cmath>
#include <utility>

#include "core/math/quaternion.h"

namespace articula {
namespace {

// A zero or non-finite quaternion is left as given so Clip::validate() can name it.
Quat normalizedOrSame(const Quat& q) {
  const float norm = q.norm();
  return norm > 0.0f && std::isfinite(norm) ? Quat(q.coeffs() / norm) : q;
}

RotationKey normalizedKey(RotationKey key) {
  key.value = normalizedOrSame(key.value);
  // CubicSpline controls are tangents (derivatives of the 4 components), not rotations.
  if (key.interpolation == RotationInterpolation::Bezier) {
    key.inControl = normalizedOrSame(key.inControl);
    key.outControl = normalizedOrSame(key.outControl);
  }
  return key;
}

std::size_t insertionIndex(const std::vector<RotationKey>& keys, double time) {
  const auto it = std::partition_point(keys.begin(), keys.end(), [time](const RotationKey& k) {
    return keyTimeLess(k.time, time) && !sameKeyTime(k.time, time);
  });
  return static_cast<std::size_t>(it - keys.begin());
}

// Bézier on the sphere: De Casteljau's construction with slerp in place of lerp. Eigen's
// slerp takes the shortest arc, so the result does not depend on the controls' signs.
Quat bezierOnSphere(const Quat& q0, const Quat& q1, const Quat& q2, const Quat& q3, float s) {
  const Quat a = q0.slerp(s, q1);
  const Quat b = q1.slerp(s, q2);
  const Quat c = q2.slerp(s, q3);
  const Quat d = a.slerp(s, b);
  const Quat e = b.slerp(s, c);
  return d.slerp(s, e).normalized();
}

// glTF 2.0 CUBICSPLINE (Appendix C): Hermite on the four components with the tangents scaled
// by the segment duration, evaluated in double and then normalised.
Quat cubicSpline(const RotationKey& a, const RotationKey& b, double s) {
  const double span = b.time - a.time;
  const Eigen::Vector4d p0 = a.value.coeffs().cast<double>();
  const Eigen::Vector4d p1 = b.value.coeffs().cast<double>();
  const Eigen::Vector4d m0 = span * a.outControl.coeffs().cast<double>();
  const Eigen::Vector4d m1 = span * b.inControl.coeffs().cast<double>();
  const double s2 = s * s;
  const double s3 = s2 * s;
  const Eigen::Vector4d p =
      (2.0 * s3 - 3.0 * s2 + 1.0) * p0 + (s3 - 2.0 * s2 + s) * m0 + (-2.0 * s3 + 3.0 * s2) * p1 + (s3 - s2) * m1;
  const double norm = p.norm();
  if (!(norm > 0.0) || !std::isfinite(norm)) return a.value;
  // Eigen's coeffs() order is (x, y, z, w), like glTF's.
  const Eigen::Vector4d unit = p / norm;
  return Quat(static_cast<float>(unit.w()), static_cast<float>(unit.x()), static_cast<float>(unit.y()),
              static_cast<float>(unit.z()));
}

}  // namespace

Vec3 Vec3Track::evaluate(double t, const Vec3& fallback) const {
  Vec3TrackCursor cursor;
  return evaluate(t, fallback, cursor);
}

Vec3 Vec3Track::evaluate(double t, const Vec3& fallback, Vec3TrackCursor& cursor) const {
  return Vec3(x.empty() ? fallback.x() : static_cast<float>(x.evaluate(t, cursor.x)),
              y.empty() ? fallback.y() : static_cast<float>(y.evaluate(t, cursor.y)),
              z.empty() ? fallback.z() : static_cast<float>(z.evaluate(t, cursor.z)));
}

std::size_t RotationTrack::insertKey(const RotationKey& key) {
  const std::size_t index = insertionIndex(mKeys, key.time);
  if (index < mKeys.size() && sameKeyTime(mKeys[index].time, key.time)) {
    const double keptTime = mKeys[index].time;
    mKeys[index] = normalizedKey(key);
    mKeys[index].time = keptTime;
  } else {
    mKeys.insert(mKeys.begin() + static_cast<std::ptrdiff_t>(index), normalizedKey(key));
  }
  makeHemispheresContinuous();
  return index;
}

void RotationTrack::removeKey(std::size_t index) {
  if (index >= mKeys.size()) return;
  mKeys.erase(mKeys.begin() + static_cast<std::ptrdiff_t>(index));
  makeHemispheresContinuous();
}

std::size_t RotationTrack::setKey(std::size_t index, const RotationKey& key) {
  if (index >= mKeys.size()) return mKeys.size();
  mKeys.erase(mKeys.begin() + static_cast<std::ptrdiff_t>(index));
  return insertKey(key);
}

void RotationTrack::setKeys(std::vector<RotationKey> keys) {
  std::stable_sort(keys.begin(), keys.end(),
                   [](const RotationKey& a, const RotationKey& b) { return keyTimeLess(a.time, b.time); });
  mKeys.clear();
  mKeys.reserve(keys.size());
  for (const RotationKey& key : keys) {
    if (!mKeys.empty() && sameKeyTime(mKeys.back().time, key.time)) {
      mKeys.back() = normalizedKey(key);
    } else {
      mKeys.push_back(normalizedKey(key));
    }
  }
  makeHemispheresContinuous();
}

void RotationTrack::makeHemispheresContinuous() {
  for (std::size_t i = 1; i < mKeys.size(); ++i) {
    const bool cubicSpline = mKeys[i - 1].interpolation == RotationInterpolation::CubicSpline ||
                             mKeys[i].interpolation == RotationInterpolation::CubicSpline;
    if (!cubicSpline) mKeys[i].value = alignHemisphere(mKeys[i].value, mKeys[i - 1].value);
  }
}

Quat RotationTrack::evaluate(double t) const {
  RotationCursor cursor;
  return evaluate(t, cursor);
}

Quat RotationTrack::evaluate(double t, RotationCursor& cursor) const {
  if (mKeys.empty()) return Quat::Identity();
  if (!(t > mKeys.front().time)) return mKeys.front().value;
  if (t >= mKeys.back().time) return mKeys.back().value;
  const std::size_t i =
      findSegmentIndex(mKeys.size(), t, cursor.segment, [this](std::size_t k) { return mKeys[k].time; });
  const RotationKey& a = mKeys[i];
  const RotationKey& b = mKeys[i + 1];
  const double s = (t - a.time) / (b.time - a.time);
  switch (a.interpolation) {
    case RotationInterpolation::Step:
      return a.value;
    case RotationInterpolation::Slerp:
      return a.value.slerp(static_cast<float>(s), b.value);
    case RotationInterpolation::Bezier:
      return bezierOnSphere(a.value, a.outControl, b.inControl, b.value, static_cast<float>(s));
    case RotationInterpolation::CubicSpline:
      break;
  }
  return cubicSpline(a, b, s);
}

double RotationTrack::startTime() const { return mKeys.empty() ? 0.0 : mKeys.front().time; }

double RotationTrack::endTime() const { return mKeys.empty() ? 0.0 : mKeys.back().time; }

}  // namespace articula
