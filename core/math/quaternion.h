#pragma once
#include <span>

#include "core/math/types.h"

namespace articula {

// Rotation taking unit-ish direction `from` onto `to` by the shortest arc. Exact at 0° and
// at 180°, where any axis perpendicular to `from` is valid and one is chosen
// deterministically. Zero-length inputs give the identity.
Quat fromToRotation(const Vec3& from, const Vec3& to);

// The rotation whose X axis is along `xAxis` and whose Y axis is `yAxis` made perpendicular
// to it (Gram-Schmidt; lengths and a mirroring scale are ignored): what a model matrix's first
// two columns say its joint's turn is. Identity when the axes are zero or parallel.
Quat rotationOfAxes(const Vec3& xAxis, const Vec3& yAxis);

// q = swing * twist, with twist a rotation about `twistAxis` (unit) and swing a rotation
// about an axis perpendicular to it. Both are unit quaternions; when q is a pure 180° swing
// the twist is the identity.
struct SwingTwist {
  Quat swing;
  Quat twist;
};
SwingTwist swingTwist(const Quat& q, const Vec3& twistAxis);

// Signed twist angle in radians, in (-π, π], of a twist quaternion about `axis`.
float twistAngle(const Quat& twist, const Vec3& axis);

// Flips each quaternion into the hemisphere of its predecessor (dot ≥ 0), so that
// component-wise interpolation of the sequence follows the shortest arc.
void makeHemisphereContinuous(std::span<Quat> quats);

// Same rotation, sign chosen so that dot(q, reference) ≥ 0.
inline Quat alignHemisphere(const Quat& q, const Quat& reference) {
  return q.dot(reference) < 0.0f ? Quat(-q.w(), -q.x(), -q.y(), -q.z()) : q;
}

// Quaternion logarithm / exponential for unit quaternions (pure-vector part, half angle).
Vec3 quatLog(const Quat& q);
Quat quatExp(const Vec3& v);

}  // namespace articula
