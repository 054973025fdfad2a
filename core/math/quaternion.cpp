#include "core/math/quaternion.h"

#include <cmath>

namespace articula {

Quat rotationOfAxes(const Vec3& xAxis, const Vec3& yAxis) {
  const Vec3 z = xAxis.cross(yAxis);
  if (!(xAxis.norm() > 0.0f) || !(z.norm() > 0.0f)) return Quat::Identity();
  Mat3 r;
  r.col(0) = xAxis.normalized();
  r.col(2) = z.normalized();
  r.col(1) = r.col(2).cross(r.col(0));
  return Quat(r).normalized();
}

Quat fromToRotation(const Vec3& from, const Vec3& to) {
  const float lenFrom = from.norm();
  const float lenTo = to.norm();
  if (!(lenFrom > 0.0f) || !(lenTo > 0.0f)) return Quat::Identity();
  const Vec3 a = from / lenFrom;
  const Vec3 b = to / lenTo;
  const float d = a.dot(b);
  const Vec3 c = a.cross(b);
  if (d > -0.9f) {
    // Half-way quaternion (1 + d, a × b), normalised: no trig, exact at 0°, and 1 + d is
    // far from cancellation on this side.
    Quat q(1.0f + d, c.x(), c.y(), c.z());
    q.normalize();
    return q;
  }
  // Near 180° 1 + d cancels, but a × b still carries the turning plane accurately: take
  // the angle from atan2 of the two.
  const float s = c.norm();
  if (s < 1e-7f) {
    // Antiparallel to float precision: half-turn about any axis perpendicular to `a`;
    // cross with the basis vector least aligned with `a` so the axis is well conditioned.
    const Vec3 ortho = std::abs(a.x()) < 0.577f ? Vec3::UnitX() : (std::abs(a.y()) < 0.577f ? Vec3::UnitY() : Vec3::UnitZ());
    const Vec3 axis = a.cross(ortho).normalized();
    return Quat(0.0f, axis.x(), axis.y(), axis.z());
  }
  const float halfAngle = 0.5f * std::atan2(s, d);
  const Vec3 axis = c * (std::sin(halfAngle) / s);
  return Quat(std::cos(halfAngle), axis.x(), axis.y(), axis.z());
}

SwingTwist swingTwist(const Quat& q, const Vec3& twistAxis) {
  const Vec3 v(q.x(), q.y(), q.z());
  const Vec3 proj = twistAxis * v.dot(twistAxis);
  Quat twist(q.w(), proj.x(), proj.y(), proj.z());
  const float n = twist.norm();
  if (n < 1e-6f) {
    // q is a 180° rotation about an axis perpendicular to the twist axis: no twist.
    twist = Quat::Identity();
  } else {
    // w ≥ 0 keeps the twist angle in (-π, π]; the swing absorbs the sign.
    twist.coeffs() /= twist.w() < 0.0f ? -n : n;
  }
  const Quat swing = (q * twist.conjugate()).normalized();
  return {swing, twist};
}

float twistAngle(const Quat& twist, const Vec3& axis) {
  const Vec3 v(twist.x(), twist.y(), twist.z());
  float angle = 2.0f * std::atan2(v.dot(axis), twist.w());
  if (angle > kPi) angle -= 2.0f * kPi;
  if (angle <= -kPi) angle += 2.0f * kPi;
  return angle;
}

void makeHemisphereContinuous(std::span<Quat> quats) {
  for (std::size_t i = 1; i < quats.size(); ++i) quats[i] = alignHemisphere(quats[i], quats[i - 1]);
}

Vec3 quatLog(const Quat& q) {
  const Vec3 v(q.x(), q.y(), q.z());
  const float s = v.norm();
  if (s < 1e-8f) return v;
  const float halfAngle = std::atan2(s, q.w());
  return v * (halfAngle / s);
}

Quat quatExp(const Vec3& v) {
  const float halfAngle = v.norm();
  if (halfAngle < 1e-8f) return Quat(1.0f, v.x(), v.y(), v.z()).normalized();
  const Vec3 axis = v / halfAngle;
  const float s = std::sin(halfAngle);
  return Quat(std::cos(halfAngle), axis.x() * s, axis.y() * s, axis.z() * s);
}

}  // namespace articula
