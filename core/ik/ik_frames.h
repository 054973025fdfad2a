#pragma once
// Helpers shared inside core/ik: finiteness checks cheap enough for every run() (plain loops
// the compiler inlines), the split of a uniform, possibly mirroring, scale into a signed scale
// and a rotation, the shortest-arc rotation between unit vectors, and the frame above a skeleton root.
#include <cmath>

#include "core/math/quaternion.h"
#include "core/math/transform.h"

namespace articula::ik {

inline bool allFinite(const float* values, int count) {
  bool finite = true;
  for (int i = 0; i < count; ++i) finite = finite && std::isfinite(values[i]);
  return finite;
}
inline bool isFinite(const Vec3& v) { return allFinite(v.data(), 3); }
inline bool isFinite(const Mat3& m) { return allFinite(m.data(), 9); }
inline bool isFinite(const Transform& t) {
  return isFinite(t.translation) && allFinite(t.rotation.coeffs().data(), 4) && isFinite(t.scale);
}

// |sx|, |sy|, |sz| equal to 1e-4 relatively (signs may differ: mirrors are uniform too).
inline bool isUniform(const Vec3& s) {
  const Vec3 a = s.cwiseAbs();
  const float hi = a.maxCoeff();
  return hi - a.minCoeff() <= 1e-4f * hi;
}

// A uniform scale diag(sx, sy, sz) as signedScale * rotation: the sign matrix
// diag(sx, sy, sz) / signedScale has determinant +1, so it is the identity or a half-turn
// about the one axis whose sign matches signedScale's.
struct SignedScale {
  float scale = 1.0f;
  Quat rotation = Quat::Identity();
};
inline SignedScale decomposeUniform(const Vec3& s) {
  SignedScale r;
  const float magnitude = (std::abs(s.x()) + std::abs(s.y()) + std::abs(s.z())) * (1.0f / 3.0f);
  const bool negative = ((s.x() < 0.0f) + (s.y() < 0.0f) + (s.z() < 0.0f)) % 2 == 1;
  r.scale = negative ? -magnitude : magnitude;
  const bool px = (s.x() < 0.0f) == negative;
  const bool py = (s.y() < 0.0f) == negative;
  const bool pz = (s.z() < 0.0f) == negative;
  if (px && py && pz) return r;
  r.rotation = px ? Quat(0.0f, 1.0f, 0.0f, 0.0f) : (py ? Quat(0.0f, 0.0f, 1.0f, 0.0f) : Quat(0.0f, 0.0f, 0.0f, 1.0f));
  return r;
}

// Shortest-arc rotation between unit vectors: the half-way quaternion (1 + a·b, a × b) where
// it is well conditioned (one square root), fromToRotation's careful path near 180°.
inline Quat fromToUnit(const Vec3& a, const Vec3& b) {
  const float d = a.dot(b);
  if (d < -0.9f) return fromToRotation(a, b);
  const Vec3 c = a.cross(b);
  Quat q(1.0f + d, c.x(), c.y(), c.z());
  q.coeffs() *= 1.0f / q.coeffs().norm();
  return q;
}

// The model matrix above a skeleton root (its parent space), from the root's model matrix
// and local transform; the local rotation as the rotation it stands for (toAffine assumes a
// unit quaternion).
inline Affine frameAboveRoot(const Affine& rootModel, Transform rootLocal) {
  rootLocal.rotation.normalize();
  return rootModel * rootLocal.toAffine().inverse(Eigen::Affine);
}

}  // namespace articula::ik
