#include "core/io/gltf_export_channels.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>

#include "core/anim/short_grid.h"

namespace articula {
namespace {

constexpr std::size_t kNoSegment = std::numeric_limits<std::size_t>::max();
// Halving a segment 20 times leaves a millionth of it; a curve still outside the tolerance
// there has a vertical tangent (a handle lying on its key in time) or a 180° flip, and the
// sampled approximation is kept.
constexpr int kMaxRefineDepth = 20;
// Where, as fractions of a written segment, it is compared with the source: the middle
// catches a bulge, the quarters an S-shaped segment whose middle happens to agree.
constexpr std::array<double, 3> kCheckFractions = {0.25, 0.5, 0.75};

float floatBelow(float t) { return std::nextafter(t, -std::numeric_limits<float>::infinity()); }

// A key of the file: the float time written, and the source time the tracks are evaluated
// at for it.
struct KeyTime {
  double source = 0.0;
  float file = 0.0f;
};

KeyTime keyAtSource(double source, double offset) { return {source, fileTimeBelow(source + offset)}; }
KeyTime keyAtFile(float file, double offset) { return {static_cast<double>(file) - offset, file}; }

// The float time halfway between two keys, if one lies strictly between them.
bool fileMidpoint(const KeyTime& a, const KeyTime& b, float& mid) {
  mid = fileTimeBelow(0.5 * (static_cast<double>(a.file) + static_cast<double>(b.file)));
  return mid > a.file && mid < b.file;
}

// Appends keys to a sampler; a key whose float time equals the previous one replaces it
// (keys closer than a float step collapse, and the later one is the value from then on).
class SamplerWriter {
 public:
  SamplerWriter(GltfSamplerData& data, std::size_t floatsPerKey) : mData(data), mFloatsPerKey(floatsPerKey) {}

  float* add(float time) {
    if (!mData.times.empty() && time <= mData.times.back()) {
      return mData.values.data() + mData.values.size() - mFloatsPerKey;
    }
    mData.times.push_back(time);
    mData.values.resize(mData.values.size() + mFloatsPerKey);
    return mData.values.data() + mData.values.size() - mFloatsPerKey;
  }

 private:
  GltfSamplerData& mData;
  std::size_t mFloatsPerKey;
};

// ---- scalar curves ----

// Segment j of `curve` containing t, approached from the left (keys[j] < t <= keys[j+1]) or
// from the right (keys[j] <= t < keys[j+1]); kNoSegment outside the keys, where the curve is
// constant.
std::size_t segmentAt(const Curve& curve, double t, bool fromLeft) {
  const std::vector<CurveKey>& keys = curve.keys();
  if (keys.size() < 2) return kNoSegment;
  const auto it =
      fromLeft
          ? std::lower_bound(keys.begin(), keys.end(), t, [](const CurveKey& k, double time) { return k.time < time; })
          : std::upper_bound(keys.begin(), keys.end(), t, [](double time, const CurveKey& k) { return time < k.time; });
  if (it == keys.begin() || it == keys.end()) return kNoSegment;
  return static_cast<std::size_t>(it - keys.begin()) - 1;
}

// A Bézier segment whose inner handles sit at a third and two thirds of its time span has
// x(u) linear in u, so its value is a cubic polynomial in time: a Hermite segment with the
// end derivatives reproduces it exactly. (The importer writes glTF cubic splines this way.)
bool isCubicInTime(const Curve::BezierSegment& s) {
  const double span = s.p3.x() - s.p0.x();
  const double slack = 1e-9 * span;
  return std::abs(s.p1.x() - s.p0.x() - span / 3.0) <= slack && std::abs(s.p3.x() - s.p2.x() - span / 3.0) <= slack;
}

// dy/dt of a Bézier segment at time t (inside it).
double bezierSlope(const Curve::BezierSegment& s, double t) {
  const double u = solveBezierParameter(s.p0.x(), s.p1.x(), s.p2.x(), s.p3.x(), t);
  const double w = 1.0 - u;
  const Vec2d d = 3.0 * (w * w * (s.p1 - s.p0) + 2.0 * u * w * (s.p2 - s.p1) + u * u * (s.p3 - s.p2));
  const double span = s.p3.x() - s.p0.x();
  if (d.x() > 1e-9 * span) return d.y() / d.x();
  // x'(u) vanishes where a handle lies on its key in time; when the handle collapsed onto
  // the key (y'(u) = 0 too) the slope is the limit y''/x''.
  const Vec2d dd = 6.0 * (w * (s.p2 - 2.0 * s.p1 + s.p0) + u * (s.p3 - 2.0 * s.p2 + s.p1));
  if (std::abs(dd.x()) > 1e-9 * span) return dd.y() / dd.x();
  return 0.0;
}

// One channel's curves with the fallbacks of the empty ones.
class CurveSet {
 public:
  CurveSet(std::span<const Curve* const> curves, std::span<const double> fallback)
      : mCurves(curves), mFallback(fallback), mCursors(curves.size()) {}

  std::size_t size() const { return mCurves.size(); }
  const Curve& curve(std::size_t c) const { return *mCurves[c]; }

  // Value at t; right-continuous, like Curve::evaluate.
  double value(std::size_t c, double t) {
    return mCurves[c]->empty() ? mFallback[c] : mCurves[c]->evaluate(t, mCursors[c]);
  }

  // Limit from the left at t: differs from value() where a Constant segment ends on a key
  // with another value.
  double leftValue(std::size_t c, double t) {
    const Curve& curve = *mCurves[c];
    if (curve.empty()) return mFallback[c];
    const std::size_t j = segmentAt(curve, t, true);
    if (j != kNoSegment && curve.keys()[j].interpolation == Interpolation::Constant) return curve.keys()[j].value;
    return curve.evaluate(t, mCursors[c]);
  }

  // Derivative (per second) at t from the left or the right.
  double slope(std::size_t c, double t, bool fromLeft) const {
    const Curve& curve = *mCurves[c];
    const std::size_t j = segmentAt(curve, t, fromLeft);
    if (j == kNoSegment) return 0.0;
    const CurveKey& a = curve.keys()[j];
    const CurveKey& b = curve.keys()[j + 1];
    switch (a.interpolation) {
      case Interpolation::Constant:
        return 0.0;
      case Interpolation::Linear:
        return (b.value - a.value) / (b.time - a.time);
      case Interpolation::Bezier:
        break;
    }
    return bezierSlope(curve.bezierSegment(j), t);
  }

  // True when curve c is, between times a and b (inside one of its segments), a Bézier that
  // is not a cubic in time, so a Hermite segment only approximates it.
  bool needsCheck(std::size_t c, double a, double b) const {
    const Curve& curve = *mCurves[c];
    const std::size_t j = segmentAt(curve, 0.5 * (a + b), false);
    if (j == kNoSegment || curve.keys()[j].interpolation != Interpolation::Bezier) return false;
    return !isCubicInTime(curve.bezierSegment(j));
  }

  bool jumpsAt(double t) {
    for (std::size_t c = 0; c < size(); ++c) {
      if (leftValue(c, t) != value(c, t)) return true;
    }
    return false;
  }

 private:
  std::span<const Curve* const> mCurves;
  std::span<const double> mFallback;
  std::vector<CurveCursor> mCursors;
};

// Sorted union of the curves' key times (keys within the Curve's same-time tolerance are one).
std::vector<double> unionKeyTimes(std::span<const Curve* const> curves) {
  const Curve* first = nullptr;
  bool identical = true;
  for (const Curve* curve : curves) {
    if (curve->empty()) continue;
    if (!first) {
      first = curve;
      continue;
    }
    identical = identical && curve->size() == first->size() &&
                std::equal(curve->keys().begin(), curve->keys().end(), first->keys().begin(),
                           [](const CurveKey& a, const CurveKey& b) { return a.time == b.time; });
  }
  std::vector<double> times;
  if (!first) return times;
  if (identical) {  // the usual case (every bake, every imported file): no sort needed
    times.reserve(first->size());
    for (const CurveKey& key : first->keys()) times.push_back(key.time);
    return times;
  }
  for (const Curve* curve : curves) {
    for (const CurveKey& key : curve->keys()) times.push_back(key.time);
  }
  std::sort(times.begin(), times.end());
  times.erase(std::unique(times.begin(), times.end(), sameKeyTime), times.end());
  return times;
}

// Key times of a LINEAR or CUBICSPLINE channel: every union time, preceded by a hold key one
// float step earlier where some component jumps (a Constant segment ending on another value).
std::vector<KeyTime> keyTimesWithHolds(const std::vector<double>& times, CurveSet& set, double offset) {
  std::vector<KeyTime> keys;
  keys.reserve(times.size());
  for (std::size_t i = 0; i < times.size(); ++i) {
    const KeyTime key = keyAtSource(times[i], offset);
    if (i > 0 && set.jumpsAt(times[i])) {
      const float hold = floatBelow(key.file);
      if (hold > keys.back().file) keys.push_back(keyAtFile(hold, offset));
    }
    keys.push_back(key);
  }
  return keys;
}

// A CUBICSPLINE key of a curve channel: per component in-tangent, value, out-tangent.
struct CubicKey {
  KeyTime time;
  std::vector<double> in, value, out;
};

CubicKey cubicKeyAt(CurveSet& set, const KeyTime& time) {
  const std::size_t n = set.size();
  CubicKey key{time, std::vector<double>(n), std::vector<double>(n), std::vector<double>(n)};
  for (std::size_t c = 0; c < n; ++c) {
    key.value[c] = set.value(c, time.source);
    if (set.curve(c).empty()) continue;  // tangents stay 0
    key.in[c] = set.slope(c, time.source, true);
    key.out[c] = set.slope(c, time.source, false);
  }
  return key;
}

// glTF's cubic Hermite segment at fraction s, tangents per second (scaled by the span).
double hermite(double v0, double out0, double v1, double in1, double span, double s) {
  const double s2 = s * s;
  const double s3 = s2 * s;
  return (2.0 * s3 - 3.0 * s2 + 1.0) * v0 + (s3 - 2.0 * s2 + s) * span * out0 + (-2.0 * s3 + 3.0 * s2) * v1 +
         (s3 - s2) * span * in1;
}

class CubicCurveEncoder {
 public:
  CubicCurveEncoder(CurveSet& set, const GltfChannelSettings& settings, GltfSamplerData& data)
      : mSet(set), mSettings(settings), mWriter(data, 3 * set.size()), mCheck(set.size()) {}

  void run(const std::vector<KeyTime>& times) {
    CubicKey previous = cubicKeyAt(mSet, times.front());
    emit(previous);
    for (std::size_t i = 1; i < times.size(); ++i) {
      CubicKey next = cubicKeyAt(mSet, times[i]);
      bool anyCheck = false;
      for (std::size_t c = 0; c < mSet.size(); ++c) {
        mCheck[c] = mSet.needsCheck(c, previous.time.source, next.time.source);
        anyCheck = anyCheck || mCheck[c];
      }
      if (anyCheck) refine(previous, next, 0);
      emit(next);
      previous = std::move(next);
    }
  }

 private:
  void emit(const CubicKey& key) {
    const std::size_t n = mSet.size();
    float* out = mWriter.add(key.time.file);
    for (std::size_t c = 0; c < n; ++c) {
      out[c] = static_cast<float>(key.in[c]);
      out[n + c] = static_cast<float>(key.value[c]);
      out[2 * n + c] = static_cast<float>(key.out[c]);
    }
  }

  // Emits the keys needed strictly between a and b for the checked components to follow
  // their Bézier within the tolerance.
  void refine(const CubicKey& a, const CubicKey& b, int depth) {
    const double span = b.time.source - a.time.source;
    double error = 0.0;
    for (std::size_t c = 0; c < mSet.size(); ++c) {
      if (!mCheck[c]) continue;
      for (double s : kCheckFractions) {
        const double written = hermite(a.value[c], a.out[c], b.value[c], b.in[c], span, s);
        error = std::max(error, std::abs(written - mSet.value(c, a.time.source + s * span)));
      }
    }
    float mid = 0.0f;
    if (!(error > mSettings.tolerance) || depth >= kMaxRefineDepth || !fileMidpoint(a.time, b.time, mid)) return;
    const CubicKey middle = cubicKeyAt(mSet, keyAtFile(mid, mSettings.timeOffset));
    refine(a, middle, depth + 1);
    emit(middle);
    refine(middle, b, depth + 1);
  }

  CurveSet& mSet;
  const GltfChannelSettings& mSettings;
  SamplerWriter mWriter;
  std::vector<bool> mCheck;
};

// ---- rotations ----

using Quatd = Eigen::Quaterniond;

Quatd toDouble(const Quat& q) { return q.cast<double>(); }

// Angle in radians between two rotations (either sign of either quaternion).
double angleBetween(const Quatd& a, const Quatd& b) {
  const Quatd r = a.conjugate() * b;
  return 2.0 * std::atan2(r.vec().norm(), std::abs(r.w()));
}

// Most parts a slerp segment is cut into for readers that lerp components.
constexpr int kMaxLerpParts = 8;

class LinearRotationEncoder {
 public:
  LinearRotationEncoder(const RotationTrack& track, const GltfChannelSettings& settings)
      : mTrack(track), mSettings(settings) {}

  void run(GltfSamplerData& data) {
    const std::vector<RotationKey>& keys = mTrack.keys();
    for (std::size_t k = 0; k < keys.size(); ++k) {
      const KeyTime time = keyAtSource(keys[k].time, mSettings.timeOffset);
      const Quatd value = toDouble(keys[k].value).normalized();
      if (k > 0) finishSegment(keys[k - 1], time, value);
      push(time, value);
    }
    // One hemisphere from key to key, so slerp and component-wise readers agree on the arc.
    SamplerWriter writer(data, 4);
    for (std::size_t i = 0; i < mValues.size(); ++i) {
      if (i > 0 && mValues[i].dot(mValues[i - 1]) < 0.0) mValues[i].coeffs() = -mValues[i].coeffs();
      const Eigen::Vector4f q = mValues[i].coeffs().cast<float>();  // (x, y, z, w), glTF's order
      std::copy(q.data(), q.data() + 4, writer.add(mTimes[i].file));
    }
  }

 private:
  void push(const KeyTime& time, const Quatd& value) {
    mTimes.push_back(time);
    mValues.push_back(value);
  }

  // Keys strictly inside the segment that starts at `from` (already pushed) and ends at
  // `end`, whose value is `endValue`.
  void finishSegment(const RotationKey& from, const KeyTime& end, const Quatd& endValue) {
    switch (from.interpolation) {
      case RotationInterpolation::Slerp:
        return cutForComponentLerp(end, endValue);
      case RotationInterpolation::Step: {
        const float hold = floatBelow(end.file);
        if (angleBetween(mValues.back(), endValue) > 0.0 && hold > mTimes.back().file) {
          push(keyAtFile(hold, mSettings.timeOffset), mValues.back());
        }
        return;
      }
      case RotationInterpolation::Bezier:
      case RotationInterpolation::CubicSpline:
        break;
    }
    // Sampled at every frame inside the segment, then refined between the samples.
    if (mSettings.frameRate > 0.0 && std::isfinite(mSettings.frameRate)) {
      const double first = std::floor((from.time - mSettings.frameStart) * mSettings.frameRate) + 1.0;
      for (double i = first;; i += 1.0) {
        const KeyTime frame = keyAtSource(mSettings.frameStart + i / mSettings.frameRate, mSettings.timeOffset);
        if (!(frame.source < end.source) || frame.file >= end.file) break;
        if (frame.file <= mTimes.back().file) continue;
        const KeyTime sample = keyAtFile(frame.file, mSettings.timeOffset);
        const Quatd value = evaluate(sample.source);
        refine(mTimes.back(), mValues.back(), sample, value, 0);
        push(sample, value);
      }
    }
    refine(mTimes.back(), mValues.back(), end, endValue, 0);
  }

  Quatd evaluate(double t) { return toDouble(mTrack.evaluate(t, mCursor)).normalized(); }

  // A slerp is exact in glTF, but Blender lerps a LINEAR quaternion's components: where that
  // parts from the slerp by more than the tolerance (at u = 1/2 ∓ 1/(2√3), where it parts
  // most), slerp keys cut the segment into n parts, each n³ times closer (RobotExpressive's
  // 24 fps Running: 2.9 mm at 1.75 m in Blender uncut).
  void cutForComponentLerp(const KeyTime& end, const Quatd& endValue) {
    const double tolerance = mSettings.componentLerpTolerance;
    if (!(tolerance > 0.0)) return;
    const Quatd start = mValues.back();
    Quatd target = endValue;
    if (start.dot(target) < 0.0) target.coeffs() = -target.coeffs();
    constexpr double kApartU = 0.21132486540518713;
    Quatd lerped;
    lerped.coeffs() = ((1.0 - kApartU) * start.coeffs() + kApartU * target.coeffs()).normalized();
    const double apart = angleBetween(start.slerp(kApartU, target), lerped);
    int parts = 1;
    while (parts < kMaxLerpParts && apart > tolerance * parts * parts * parts) ++parts;
    const KeyTime from = mTimes.back();
    for (int m = 1; m < parts; ++m) {
      const double u = static_cast<double>(m) / parts;
      const KeyTime cut = keyAtSource(from.source + u * (end.source - from.source), mSettings.timeOffset);
      if (cut.file <= mTimes.back().file || cut.file >= end.file) continue;
      push(cut, start.slerp(u, target));
    }
  }

  void refine(const KeyTime& a, const Quatd& qa, const KeyTime& b, const Quatd& qb, int depth) {
    const double span = b.source - a.source;
    double error = 0.0;
    for (double s : kCheckFractions)
      error = std::max(error, angleBetween(qa.slerp(s, qb), evaluate(a.source + s * span)));
    float mid = 0.0f;
    if (!(error > mSettings.tolerance) || depth >= kMaxRefineDepth || !fileMidpoint(a, b, mid)) return;
    const KeyTime middle = keyAtFile(mid, mSettings.timeOffset);
    const Quatd qm = evaluate(middle.source);
    refine(a, qa, middle, qm, depth + 1);
    push(middle, qm);
    refine(middle, qm, b, qb, depth + 1);
  }

  const RotationTrack& mTrack;
  const GltfChannelSettings& mSettings;
  RotationCursor mCursor;
  std::vector<KeyTime> mTimes;
  std::vector<Quatd> mValues;
};

void writeQuat(const Quat& q, float* out) { std::copy(q.coeffs().data(), q.coeffs().data() + 4, out); }

// A rotation channel of glTF cubic splines (a bake's reduced keys, an imported CUBICSPLINE
// sampler) that may also hold Slerp and Step segments (a bake spliced into a clip's keys):
// written as one CUBICSPLINE sampler. Spline segments keep their tangents as authored; a
// Step segment becomes a hold key with zero tangents one float step before the next key; a
// Slerp segment becomes splines with tangents on the chord (a normalised lerp), halved
// until each is within the tolerance of the slerp.
class CubicRotationEncoder {
 public:
  CubicRotationEncoder(const RotationTrack& track, const GltfChannelSettings& settings, GltfSamplerData& data)
      : mTrack(track), mSettings(settings), mWriter(data, 12) {}

  // False when a Slerp segment joins keys of opposite signs: a spline through the stored
  // signs would take the long way round, so the caller writes the channel LINEAR instead.
  bool run() {
    const std::vector<RotationKey>& keys = mTrack.keys();
    const Quat zero(0.0f, 0.0f, 0.0f, 0.0f);
    for (std::size_t k = 0; k < keys.size(); ++k) {
      const RotationKey& key = keys[k];
      const KeyTime time = keyAtSource(key.time, mSettings.timeOffset);
      Quat in = zero;
      if (k > 0) {
        const RotationKey& previous = keys[k - 1];
        switch (previous.interpolation) {
          case RotationInterpolation::CubicSpline:
            in = key.inControl;
            break;
          case RotationInterpolation::Slerp:
            if (previous.value.dot(key.value) < 0.0f) return false;
            in = writeSlerp(previous, key, time);
            break;
          case RotationInterpolation::Step:
            writeHold(previous, time);
            break;
          case RotationInterpolation::Bezier:
            return false;
        }
      }
      mLast = time;
      write(time.file, in, key.value, outTangent(keys, k));
    }
    return true;
  }

 private:
  static Quat outTangent(const std::vector<RotationKey>& keys, std::size_t k) {
    const bool spline = k + 1 < keys.size() && keys[k].interpolation == RotationInterpolation::CubicSpline;
    return spline ? keys[k].outControl : Quat(0.0f, 0.0f, 0.0f, 0.0f);
  }

  void write(float time, const Quat& in, const Quat& value, const Quat& out) {
    float* o = mWriter.add(time);
    writeQuat(in, o);
    writeQuat(value, o + 4);
    writeQuat(out, o + 8);
    mOut = o + 8;
  }

  void writeHold(const RotationKey& previous, const KeyTime& next) {
    const float hold = floatBelow(next.file);
    if (hold <= mLast.file) return;
    const Quat zero(0.0f, 0.0f, 0.0f, 0.0f);
    write(hold, zero, previous.value, zero);
  }

  // Chord tangent (per second) from a to b.
  static Quat chordTangent(const Quat& a, const Quat& b, double seconds) {
    return Quat((b.coeffs() - a.coeffs()) / static_cast<float>(seconds));
  }

  // Writes the keys strictly inside the Slerp segment from `from` to `to` (at `end`), sets
  // the out-tangent of the key before them, and returns the in-tangent of the key at `end`.
  Quat writeSlerp(const RotationKey& from, const RotationKey& to, const KeyTime& end) {
    mFrom = &from;
    mTo = &to;
    return refine(mLast, from.value, end, to.value, 0);
  }

  Quat slerpAt(double sourceTime) const {
    const double s = (sourceTime - mFrom->time) / (mTo->time - mFrom->time);
    return mFrom->value.slerp(static_cast<float>(s), mTo->value);
  }

  Quat refine(const KeyTime& a, const Quat& qa, const KeyTime& b, const Quat& qb, int depth) {
    const double seconds = b.source - a.source;
    double error = 0.0;
    for (double f : kCheckFractions) {
      const Quat chord(qa.coeffs() + static_cast<float>(f) * (qb.coeffs() - qa.coeffs()));
      error = std::max(error, angleBetween(toDouble(chord.normalized()), toDouble(slerpAt(a.source + f * seconds))));
    }
    float mid = 0.0f;
    if (!(error > mSettings.tolerance) || depth >= kMaxRefineDepth || !fileMidpoint(a, b, mid)) {
      const Quat tangent = chordTangent(qa, qb, seconds);
      writeQuat(tangent, mOut);
      return tangent;
    }
    const KeyTime middle = keyAtFile(mid, mSettings.timeOffset);
    const Quat qm = slerpAt(middle.source);
    const Quat in = refine(a, qa, middle, qm, depth + 1);
    write(middle.file, in, qm, Quat(0.0f, 0.0f, 0.0f, 0.0f));
    return refine(middle, qm, b, qb, depth + 1);
  }

  const RotationTrack& mTrack;
  const GltfChannelSettings& mSettings;
  SamplerWriter mWriter;
  KeyTime mLast;
  float* mOut = nullptr;               // the last written key's out-tangent
  const RotationKey* mFrom = nullptr;  // the Slerp segment being written
  const RotationKey* mTo = nullptr;
};

}  // namespace

float fileTimeBelow(double seconds) {
  float t = static_cast<float>(seconds);
  if (static_cast<double>(t) > seconds) t = floatBelow(t);
  return t;
}

std::vector<std::int16_t> rotationOutputsAsShorts(const GltfSamplerData& rotation) {
  // A value that normalises to the stored key within float noise came from the grid.
  constexpr double kValueSlack = 1e-6;
  std::vector<std::int16_t> shorts(rotation.values.size());
  const bool cubic = rotation.interpolation == GltfInterpolation::CubicSpline;
  for (std::size_t at = 0; at < rotation.values.size(); at += 4) {
    const bool tangent = cubic && (at / 4) % 3 != 1;
    Eigen::Vector4d decoded;
    for (std::size_t c = 0; c < 4; ++c) {
      const double v = rotation.values[at + c];
      if (!(std::abs(v) <= 1.0)) return {};
      shorts[at + c] = static_cast<std::int16_t>(std::lround(v * kShortGridSteps));
      decoded[static_cast<Eigen::Index>(c)] = shorts[at + c] / kShortGridSteps;
      if (tangent && static_cast<float>(decoded[static_cast<Eigen::Index>(c)]) != rotation.values[at + c]) return {};
    }
    if (tangent) continue;
    const double norm = decoded.norm();
    if (!(norm > 0.5)) return {};
    for (std::size_t c = 0; c < 4; ++c) {
      if (std::abs(decoded[static_cast<Eigen::Index>(c)] / norm - rotation.values[at + c]) > kValueSlack) return {};
    }
  }
  return shorts;
}

GltfSamplerData encodeCurveChannel(std::span<const Curve* const> curves, std::span<const double> fallback,
                                   const GltfChannelSettings& settings) {
  GltfSamplerData data;
  data.width = curves.size();
  const std::vector<double> times = unionKeyTimes(curves);
  if (times.empty()) return data;

  bool constant = false;
  bool linear = false;
  bool bezier = false;
  const auto note = [&](Interpolation interpolation) {
    constant = constant || interpolation == Interpolation::Constant;
    linear = linear || interpolation == Interpolation::Linear;
    bezier = bezier || interpolation == Interpolation::Bezier;
  };
  for (const Curve* curve : curves) {
    for (std::size_t j = 0; j + 1 < curve->size(); ++j) note(curve->keys()[j].interpolation);
  }
  if (!constant && !linear && !bezier) {
    // Only single keys: no segment to reproduce; keep the keys' own kind.
    for (const Curve* curve : curves) {
      if (!curve->empty()) note(curve->keys().front().interpolation);
    }
  }

  CurveSet set(curves, fallback);
  const std::size_t n = curves.size();
  if (!linear && !bezier) {
    data.interpolation = GltfInterpolation::Step;
    SamplerWriter writer(data, n);
    for (double t : times) {
      float* out = writer.add(fileTimeBelow(t + settings.timeOffset));
      for (std::size_t c = 0; c < n; ++c) out[c] = static_cast<float>(set.value(c, t));
    }
    return data;
  }
  const std::vector<KeyTime> keys = keyTimesWithHolds(times, set, settings.timeOffset);
  if (!bezier) {
    data.interpolation = GltfInterpolation::Linear;
    SamplerWriter writer(data, n);
    for (const KeyTime& key : keys) {
      float* out = writer.add(key.file);
      for (std::size_t c = 0; c < n; ++c) out[c] = static_cast<float>(set.value(c, key.source));
    }
    return data;
  }
  data.interpolation = GltfInterpolation::CubicSpline;
  CubicCurveEncoder(set, settings, data).run(keys);
  return data;
}

GltfSamplerData encodeRotationChannel(const RotationTrack& track, const GltfChannelSettings& settings) {
  GltfSamplerData data;
  data.width = 4;
  const std::vector<RotationKey>& keys = track.keys();
  if (keys.empty()) return data;

  bool step = false;
  bool slerp = false;
  bool bezier = false;
  bool cubic = false;
  const auto note = [&](RotationInterpolation interpolation) {
    step = step || interpolation == RotationInterpolation::Step;
    slerp = slerp || interpolation == RotationInterpolation::Slerp;
    bezier = bezier || interpolation == RotationInterpolation::Bezier;
    cubic = cubic || interpolation == RotationInterpolation::CubicSpline;
  };
  for (std::size_t j = 0; j + 1 < keys.size(); ++j) note(keys[j].interpolation);
  if (keys.size() == 1) note(keys.front().interpolation);

  if (!slerp && !bezier && !cubic) {
    data.interpolation = GltfInterpolation::Step;
    SamplerWriter writer(data, 4);
    for (const RotationKey& key : keys)
      writeQuat(key.value.normalized(), writer.add(fileTimeBelow(key.time + settings.timeOffset)));
    return data;
  }
  if (cubic && !bezier) {
    data.interpolation = GltfInterpolation::CubicSpline;
    if (CubicRotationEncoder(track, settings, data).run()) return data;
    data = GltfSamplerData{};
    data.width = 4;
  }
  data.interpolation = GltfInterpolation::Linear;
  LinearRotationEncoder(track, settings).run(data);
  return data;
}

}  // namespace articula
