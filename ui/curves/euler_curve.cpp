#include "ui/curves/euler_curve.h"

#include <algorithm>
#include <cmath>
#include <numbers>

namespace articula::ui {

namespace {

constexpr int kMaxSamples = 20000;

// Sample times over [start, end] evenly spread, with every key time of `track` inserted.
std::vector<double> sampleTimes(const RotationTrack& track, double start, double end, int sampleCount) {
  std::vector<double> times;
  times.reserve(static_cast<std::size_t>(sampleCount) + 1 + track.size());
  for (int i = 0; i <= sampleCount; ++i) times.push_back(start + (end - start) * i / sampleCount);
  for (const RotationKey& key : track.keys()) times.push_back(key.time);
  std::sort(times.begin(), times.end());
  return times;
}

}  // namespace

EulerCurve filteredEulerCurve(const Clip& clip, const RotationTrack& track, RotationOrder order) {
  const double rate = clip.frameRate > 0.0 ? clip.frameRate : 30.0;
  const double start = std::min(clip.startTime, track.empty() ? clip.startTime : track.startTime()) - 1.0;
  const double end = std::max(clip.endTime, track.empty() ? clip.endTime : track.endTime()) + 1.0;
  const auto sampleCount =
      static_cast<int>(std::clamp(std::ceil((end - start) * rate * kCurveSamplesPerFrame), 1.0, double(kMaxSamples)));
  EulerCurve curve;
  curve.times = sampleTimes(track, start, end, sampleCount);
  curve.anglesRad.reserve(curve.times.size());
  RotationCursor cursor;
  Vec3 previousRad = Vec3::Zero();  // the first triple is the one nearest no rotation
  for (const double time : curve.times) {
    previousRad = quatToEuler(track.evaluate(time, cursor), order, &previousRad);
    curve.anglesRad.push_back(previousRad);
  }
  return curve;
}

Vec3 eulerOnCurve(const EulerCurve& curve, double time, const Quat& rotation, RotationOrder order) {
  if (curve.times.empty()) {
    const Vec3 zero = Vec3::Zero();
    return quatToEuler(rotation, order, &zero);
  }
  const auto after = std::upper_bound(curve.times.begin(), curve.times.end(), time);
  const auto index = static_cast<std::size_t>(std::max<std::ptrdiff_t>(0, after - curve.times.begin() - 1));
  return quatToEuler(rotation, order, &curve.anglesRad[index]);
}

Vec3 wrappedToHalfTurn(const Vec3& anglesRad) {
  constexpr double kTwoPi = 2.0 * std::numbers::pi;
  Vec3 wrapped;
  for (int axis = 0; axis < 3; ++axis) {
    double angle = std::remainder(static_cast<double>(anglesRad[axis]), kTwoPi);  // [-π, π]
    if (angle <= -std::numbers::pi) angle += kTwoPi;
    wrapped[axis] = static_cast<float>(angle);
  }
  return wrapped;
}

}  // namespace articula::ui
