#include "ui/curves/curve_edits.h"

#include <algorithm>
#include <cmath>
#include <numbers>

#include "ui/curves/euler_curve.h"

namespace articula::ui {

namespace {

bool holds(std::span<const KeyRef> keys, const KeyChannel& channel, double time) {
  for (const KeyRef& ref : keys) {
    if (ref.channel == channel && sameKeyTime(ref.time, time)) return true;
  }
  return false;
}

std::optional<std::size_t> keyIndex(const Curve& curve, double time) {
  for (std::size_t i = 0; i < curve.size(); ++i) {
    if (sameKeyTime(curve.keys()[i].time, time)) return i;
  }
  return std::nullopt;
}

bool isAutomatic(HandleType type) {
  return type == HandleType::Vector || type == HandleType::Auto || type == HandleType::AutoClamped;
}

Curve* createCurve(Clip& clip, const KeyChannel& channel) {
  if (channel.kind == KeyChannel::Kind::Curve) return &clip.curves[channel.curve];
  if (channel.kind == KeyChannel::Kind::Rotation || channel.joint < 0 || channel.component < 0 || channel.component > 2)
    return nullptr;
  Vec3Track& track = channel.kind == KeyChannel::Kind::Translation ? clip.trackFor(channel.joint).translation
                                                                   : clip.trackFor(channel.joint).scale;
  return channel.component == 0 ? &track.x : channel.component == 1 ? &track.y : &track.z;
}

}  // namespace

bool isStrideCurve(const KeyChannel& channel) {
  return channel.kind == KeyChannel::Kind::Curve && channel.curve.starts_with("contact.");
}

double snappedStrideValue(double value, double tolerance) {
  if (std::abs(value) <= tolerance) return 0.0;
  if (std::abs(value - 1.0) <= tolerance) return 1.0;
  return value;
}

Clip movedCurveKeys(Clip clip, std::span<const KeyRef> keys, double offsetSeconds, double offsetValue) {
  if (offsetValue != 0.0) {
    std::vector<KeyChannel> done;
    for (const KeyRef& ref : keys) {
      if (std::find(done.begin(), done.end(), ref.channel) != done.end()) continue;
      done.push_back(ref.channel);
      Curve* curve = findCurve(clip, ref.channel);
      if (!curve) continue;
      std::vector<CurveKey> edited = curve->keys();
      for (CurveKey& key : edited) {
        if (!holds(keys, ref.channel, key.time)) continue;
        key.value += offsetValue;
        key.left.y() += offsetValue;
        key.right.y() += offsetValue;
      }
      curve->setKeys(std::move(edited));
    }
  }
  return offsetSeconds == 0.0 ? clip : movedKeys(std::move(clip), keys, offsetSeconds);
}

namespace {

// `key` with the Euler angle about `eulerAxis` of its plotted triple (the sample of `curve`
// at its time) moved by `offsetRad`.
RotationKey turnedKey(RotationKey key, const EulerCurve& curve, RotationOrder order, int eulerAxis, double offsetRad) {
  const auto at = std::lower_bound(curve.times.begin(), curve.times.end(), key.time);
  if (at == curve.times.end()) return key;
  Vec3 anglesRad = curve.anglesRad[static_cast<std::size_t>(at - curve.times.begin())];
  anglesRad[eulerAxis] += static_cast<float>(offsetRad);
  Quat turned = eulerToQuat(anglesRad, order);
  // The sign of the old value: a spline's tangents were authored against it.
  if (turned.dot(key.value) < 0.0f) turned.coeffs() = -turned.coeffs();
  const Quat change = turned * key.value.inverse();
  key.value = turned;
  if (key.interpolation == RotationInterpolation::CubicSpline) {
    key.inControl.coeffs() = (change * key.inControl).coeffs();
    key.outControl.coeffs() = (change * key.outControl).coeffs();
  } else {
    key.inControl = (change * key.inControl).normalized();
    key.outControl = (change * key.outControl).normalized();
  }
  return key;
}

}  // namespace

Clip turnedRotationKeys(Clip clip, std::span<const KeyRef> keys, int eulerAxis, double offsetDegrees,
                        std::span<const RotationOrder> orders) {
  if (offsetDegrees == 0.0 || eulerAxis < 0 || eulerAxis > 2) return clip;
  const double offsetRad = offsetDegrees * std::numbers::pi / 180.0;
  std::vector<int> done;
  for (const KeyRef& ref : keys) {
    const int joint = ref.channel.joint;
    if (ref.channel.kind != KeyChannel::Kind::Rotation || std::find(done.begin(), done.end(), joint) != done.end())
      continue;
    done.push_back(joint);
    const RotationTrack* rotation = findRotation(clip, ref.channel);
    if (!rotation) continue;
    const auto jointIndex = static_cast<std::size_t>(joint);
    const RotationOrder order = jointIndex < orders.size() ? orders[jointIndex] : RotationOrder::XYZ;
    const EulerCurve curve = filteredEulerCurve(clip, *rotation, order);
    // Key by key: the keys not dragged keep their stored values bit for bit.
    RotationTrack& edited = clip.trackFor(joint).rotation;
    for (std::size_t index = 0; index < edited.size(); ++index) {
      const RotationKey& key = edited.keys()[index];
      if (holds(keys, ref.channel, key.time)) edited.setKey(index, turnedKey(key, curve, order, eulerAxis, offsetRad));
    }
  }
  return clip;
}

namespace {

// A stride curve means "planted" between 0 and 1: its Bézier segments stay in that band when
// every handle does (a segment lies in the hull of its control points). A handle pushed out,
// or turned out by its aligned partner, is held on the band's edge and the key's handles
// become Free, so the pair no longer drags each other back out.
void keepHandlesInStrideRange(Curve& curve, double time) {
  const std::optional<std::size_t> index = keyIndex(curve, time);
  if (!index) return;
  CurveKey key = curve.keys()[*index];
  const auto outside = [](const Vec2d& handle) { return handle.y() < 0.0 || handle.y() > 1.0; };
  if (!outside(key.left) && !outside(key.right)) return;
  key.left.y() = std::clamp(key.left.y(), 0.0, 1.0);
  key.right.y() = std::clamp(key.right.y(), 0.0, 1.0);
  key.leftType = HandleType::Free;
  key.rightType = HandleType::Free;
  curve.setKey(*index, key);
}

}  // namespace

bool handleShapesCurve(const Curve& curve, std::size_t index, bool right) {
  const std::vector<CurveKey>& keys = curve.keys();
  if (index >= keys.size()) return false;
  // The segment this handle is a side of: the key's own (to the next key) for the right
  // handle, the previous key's for the left one. At an end of the curve the outer handle
  // shapes no segment: it is shown as the pair of the inner one while the key itself is
  // Bézier, so Ctrl+1 on the last key hides it as Blender does.
  const bool outerOfLast = right && index + 1 == keys.size() && index > 0;
  if (outerOfLast)
    return keys[index].interpolation == Interpolation::Bezier && keys[index - 1].interpolation == Interpolation::Bezier;
  const std::size_t segment = right ? index : index - (index > 0 ? 1 : 0);
  return keys[segment].interpolation == Interpolation::Bezier;
}

std::optional<Clip> movedHandle(const Clip& clip, const KeyRef& key, bool right, const Vec2d& handle) {
  Clip edited = clip;
  Curve* curve = findCurve(edited, key.channel);
  if (!curve) return std::nullopt;
  const std::optional<std::size_t> index = keyIndex(*curve, key.time);
  if (!index || !handleShapesCurve(*curve, *index, right)) return std::nullopt;
  CurveKey changed = curve->keys()[*index];
  // A handle stays on its side of the key (Curve clamps the rest when it evaluates).
  const Vec2d placed(right ? std::max(handle.x(), changed.time) : std::min(handle.x(), changed.time), handle.y());
  if (right) {
    changed.right = placed;
    if (isAutomatic(changed.rightType)) changed.rightType = HandleType::Aligned;
    if (isAutomatic(changed.leftType)) changed.leftType = HandleType::Aligned;
  } else {
    changed.left = placed;
    if (isAutomatic(changed.leftType)) changed.leftType = HandleType::Aligned;
    if (isAutomatic(changed.rightType)) changed.rightType = HandleType::Aligned;
  }
  curve->setKey(*index, changed);
  if (isStrideCurve(key.channel)) keepHandlesInStrideRange(*curve, key.time);
  return edited;
}

Clip withInterpolation(Clip clip, std::span<const KeyRef> keys, Interpolation interpolation) {
  for (const KeyRef& ref : keys) {
    if (Curve* curve = findCurve(clip, ref.channel)) {
      if (const std::optional<std::size_t> index = keyIndex(*curve, ref.time)) {
        CurveKey key = curve->keys()[*index];
        key.interpolation = interpolation;
        curve->setKey(*index, key);
      }
    } else if (ref.channel.kind == KeyChannel::Kind::Rotation && clip.findTrack(ref.channel.joint)) {
      RotationTrack& track = clip.trackFor(ref.channel.joint).rotation;
      for (std::size_t i = 0; i < track.size(); ++i) {
        if (!sameKeyTime(track.keys()[i].time, ref.time)) continue;
        RotationKey key = track.keys()[i];
        // Flat controls for a key turned to Bézier: it eases in and out.
        if (interpolation == Interpolation::Bezier && key.interpolation != RotationInterpolation::Bezier) {
          key.inControl = key.value;
          key.outControl = key.value;
        }
        key.interpolation = interpolation == Interpolation::Constant ? RotationInterpolation::Step
                            : interpolation == Interpolation::Linear ? RotationInterpolation::Slerp
                                                                     : RotationInterpolation::Bezier;
        track.setKey(i, key);
      }
    }
  }
  return clip;
}

Clip withHandleType(Clip clip, std::span<const KeyRef> keys, HandleType type) {
  for (const KeyRef& ref : keys) {
    Curve* curve = findCurve(clip, ref.channel);
    if (!curve) continue;
    if (const std::optional<std::size_t> index = keyIndex(*curve, ref.time)) {
      CurveKey key = curve->keys()[*index];
      key.leftType = type;
      key.rightType = type;
      curve->setKey(*index, key);
    }
  }
  return clip;
}

Clip withKeyAdded(Clip clip, const KeyChannel& channel, double time, double value) {
  Curve* curve = createCurve(clip, channel);
  if (!curve) return clip;
  Interpolation interpolation = Interpolation::Bezier;
  for (const CurveKey& key : curve->keys()) {
    if (key.time > time) break;
    interpolation = key.interpolation;
  }
  curve->insertKey(time, value, interpolation);
  clip.startTime = std::min(clip.startTime, time);
  clip.endTime = std::max(clip.endTime, time);
  return clip;
}

}  // namespace articula::ui
