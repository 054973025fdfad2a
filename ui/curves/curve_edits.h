#pragma once
#include <optional>
#include <span>

#include "core/anim/clip.h"
#include "core/math/euler.h"
#include "ui/timeline/key_channel.h"

namespace articula::ui {

// Key edits of the curve editor as plain functions on a Clip (Qt-free, tested directly and
// through the view). Times in seconds; values in the channel's own unit (metres in the
// parent's space for translation, a factor for scale, 0..1 for stride curves).

// Stride curves (`contact.*`: 1 = foot planted) live between 0 and 1.
bool isStrideCurve(const KeyChannel& channel);
// `value` pulled onto 0 or 1 when within `tolerance` of it.
double snappedStrideValue(double value, double tolerance);

// `clip` with the scalar keys among `keys` moved by `offsetSeconds` in time and
// `offsetValue` in value (handles with them). Rotation keys move in time only here; their
// values change through turnedRotationKeys.
Clip movedCurveKeys(Clip clip, std::span<const KeyRef> keys, double offsetSeconds, double offsetValue);

// `clip` with the Euler angle about `eulerAxis` (0, 1, 2 = x, y, z) of each rotation key
// among `keys` moved by `offsetDegrees`: the key's quaternion is rebuilt from the triple the
// curve editor plots at it (filteredEulerCurve, in the joint's order from `orders`, XYZ past
// its end) with that angle changed. Bézier controls and spline tangents turn with their key
// (multiplied on the left by the key's change), so the shape around it keeps its bend.
Clip turnedRotationKeys(Clip clip, std::span<const KeyRef> keys, int eulerAxis, double offsetDegrees,
                        std::span<const RotationOrder> orders);

// Whether the left (or right) handle of key `index` shapes `curve`: it is a side of a Bézier
// segment (a constant or linear segment ignores its handles), or at an end of the curve, the
// outer handle of a Bézier key whose one segment is Bézier (its pair, turned with it).
bool handleShapesCurve(const Curve& curve, std::size_t index, bool right);

// `clip` with the left (or right) handle of scalar key `key` at `handle` (time, value).
// Automatic handles (Vector, Auto, AutoClamped) a user drags become Aligned, as in
// Blender, and the other handle of the key turns with them; Free handles move alone. On a
// stride curve both handles of the key stay within 0..1 (held on the edge, made Free), so
// the curve cannot leave 0..1. nullopt when `key` names no scalar key or the handle shapes
// nothing (handleShapesCurve).
std::optional<Clip> movedHandle(const Clip& clip, const KeyRef& key, bool right, const Vec2d& handle);

// `clip` with every scalar key of `keys` interpolating as `interpolation` (rotation keys:
// Constant → Step, Linear → Slerp, Bézier → Bézier on the sphere).
Clip withInterpolation(Clip clip, std::span<const KeyRef> keys, Interpolation interpolation);
// `clip` with both handles of every scalar key of `keys` of type `type`, handles recomputed.
Clip withHandleType(Clip clip, std::span<const KeyRef> keys, HandleType type);

// `clip` with a key at `time` on scalar channel `channel` (created when missing), holding
// `value`; interpolates like the key before it (Bézier auto-clamped when none).
Clip withKeyAdded(Clip clip, const KeyChannel& channel, double time, double value);

}  // namespace articula::ui
