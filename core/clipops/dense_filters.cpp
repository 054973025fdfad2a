#include "core/clipops/dense_filters.h"

#include <algorithm>
#include <cmath>

#include "core/clipops/butterworth.h"
#include "core/math/quaternion.h"

namespace articula {
namespace {

// Filters one scalar component of `values` (read and written through `component`).
template <typename T, typename Component>
void filterComponent(std::vector<T>& values, const std::vector<Biquad>& sections, int padFrames, Component component) {
  std::vector<double> x(values.size());
  for (std::size_t f = 0; f < values.size(); ++f) x[f] = static_cast<double>(component(values[f]));
  filtfiltInPlace(sections, padFrames, x);
  for (std::size_t f = 0; f < values.size(); ++f) component(values[f]) = static_cast<float>(x[f]);
}

void filterVec3(std::vector<Vec3>& values, const std::vector<Biquad>& sections, int padFrames) {
  for (int c = 0; c < 3; ++c) filterComponent(values, sections, padFrames, [c](Vec3& v) -> float& { return v[c]; });
}

// How far each frame is from its neighbours' midpoint, as a vector (model units, or a
// rotation vector in radians); zero at the ends.
template <typename T, typename Offset>
std::vector<Vec3> midpointOffsets(const std::vector<T>& values, Offset offset) {
  std::vector<Vec3> out(values.size(), Vec3::Zero());
  for (std::size_t f = 1; f + 1 < values.size(); ++f) out[f] = offset(values[f - 1], values[f], values[f + 1]);
  return out;
}

double median(std::vector<double> values) {
  if (values.empty()) return 0.0;
  const auto middle = values.begin() + static_cast<std::ptrdiff_t>(values.size() / 2);
  std::nth_element(values.begin(), middle, values.end());
  return *middle;
}

// A spike at f pushes its neighbours' offsets half as far the other way; a fast motion's
// offsets (its acceleration) point alike from frame to frame.
bool isSpike(const std::vector<Vec3>& offset, std::size_t f, double threshold) {
  const double size = static_cast<double>(offset[f].norm());
  if (!(size > threshold)) return false;
  for (const std::size_t n : {f - 1, f + 1}) {
    if (n == 0 || n + 1 == offset.size()) continue;  // an end frame has no offset of its own
    if (offset[n].dot(offset[f]) >= 0.0f || 1.5 * static_cast<double>(offset[n].norm()) > size) return false;
  }
  return true;
}

// Replaces the spikes of one channel in [first, last] by `midpoint` of their neighbours.
template <typename T, typename Offset, typename Midpoint>
int removeSpikes(std::vector<T>& values, int first, int last, double factor, Offset offset, Midpoint midpoint) {
  constexpr double kTinyOffset = 1e-6;  // below float noise on unit rotations and joint offsets
  const std::vector<Vec3> offsets = midpointOffsets(values, offset);
  std::vector<double> sizes;
  for (const Vec3& o : offsets) sizes.push_back(static_cast<double>(o.norm()));
  const double threshold = std::max(factor * median(sizes), kTinyOffset);
  std::vector<std::size_t> spikes;
  const int to = std::min(last, static_cast<int>(values.size()) - 2);
  for (int f = std::max(first, 1); f <= to; ++f) {
    if (isSpike(offsets, static_cast<std::size_t>(f), threshold)) spikes.push_back(static_cast<std::size_t>(f));
  }
  for (const std::size_t f : spikes) values[f] = midpoint(values[f - 1], values[f + 1]);
  return static_cast<int>(spikes.size());
}

Vec3 vec3Offset(const Vec3& a, const Vec3& b, const Vec3& c) { return b - (a + c) * 0.5f; }

Quat quatMidpoint(const Quat& a, const Quat& c) { return a.slerp(0.5f, c).normalized(); }

Vec3 quatOffset(const Quat& a, const Quat& b, const Quat& c) {
  return 2.0f * quatLog(alignHemisphere(quatMidpoint(a, c).conjugate() * b, Quat::Identity()));
}

}  // namespace

void butterworthDense(DenseClip& dense, int order, double cutoffHz, int padFrames) {
  const std::vector<Biquad> sections = butterworthSections(order, cutoffHz, dense.frameRate);
  for (DenseTrack& track : dense.tracks) {
    if (track.translates) filterVec3(track.translation, sections, padFrames);
    if (track.scales) filterVec3(track.scale, sections, padFrames);
    if (!track.rotates) continue;
    filterComponent(track.rotation, sections, padFrames, [](Quat& q) -> float& { return q.w(); });
    filterComponent(track.rotation, sections, padFrames, [](Quat& q) -> float& { return q.x(); });
    filterComponent(track.rotation, sections, padFrames, [](Quat& q) -> float& { return q.y(); });
    filterComponent(track.rotation, sections, padFrames, [](Quat& q) -> float& { return q.z(); });
    for (Quat& q : track.rotation) q.normalize();
  }
}

int removePeaksDense(DenseClip& dense, int firstFrame, int lastFrame, double factor) {
  const auto vec3Midpoint = [](const Vec3& a, const Vec3& c) -> Vec3 { return (a + c) * 0.5f; };
  int replaced = 0;
  for (DenseTrack& track : dense.tracks) {
    if (track.translates)
      replaced += removeSpikes(track.translation, firstFrame, lastFrame, factor, vec3Offset, vec3Midpoint);
    if (track.scales) replaced += removeSpikes(track.scale, firstFrame, lastFrame, factor, vec3Offset, vec3Midpoint);
    if (track.rotates)
      replaced += removeSpikes(track.rotation, firstFrame, lastFrame, factor, quatOffset, quatMidpoint);
  }
  return replaced;
}

}  // namespace articula
