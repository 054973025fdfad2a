#pragma once
// Helpers shared inside core/ik: finiteness checks cheap enough for every run() (plain loops
// the compiler inlines), the split of a uniform, possibly mirroring, scale into a signed scale
// and a rotation, the shortest-arc rotation between unit vectors, a vector rotated by an
// unnormalised quaternion, and the per-CPU clones of hot functions.
#include <cmath>

#include "core/math/quaternion.h"
#include "core/math/transform.h"

// The hot functions of a solve, compiled twice where the loader can pick per CPU (x86-64
// ELF): for CPUs with AVX and for any x86-64. AVX's three-operand encoding saves most of the
// register copies of scalar float code; the operations are the same IEEE ones in the same
// order (no FMA: the IK sources build with -ffp-contract=off), so the clones write the same
// bits. GCC does not inline the default-target helpers (Eigen's among them) into the AVX
// clone unless the clones are flattened; clang inlines them and refuses flatten on clones. A
// function's clones must be on its first declaration or definition in the file (clang).
// ARTICULA_IK_HOT_WIDE adds a clone for x86-64-v4 (AVX-512): its 32 vector registers hold
// the two-bone solve's live values, which spill to the stack with AVX's 16. The chain
// solvers' functions measured slower with that clone, so they keep ARTICULA_IK_HOT.
#if defined(__x86_64__) && defined(__ELF__) && defined(__GNUC__) && !defined(ARTICULA_NO_TARGET_CLONES)
#if defined(__clang__)
#define ARTICULA_IK_CLONES(...) __attribute__((target_clones(__VA_ARGS__)))
#else
#define ARTICULA_IK_CLONES(...) __attribute__((target_clones(__VA_ARGS__), flatten))
#endif
#define ARTICULA_IK_HOT ARTICULA_IK_CLONES("avx", "default")
#define ARTICULA_IK_HOT_WIDE ARTICULA_IK_CLONES("arch=x86-64-v4", "avx", "default")
#else
#define ARTICULA_IK_HOT
#define ARTICULA_IK_HOT_WIDE
#endif

// A hot function's conditions that nearly never hold (RARE) or nearly always (USUAL), for
// GCC and clang's block layout and register allocation: with the frequencies known, GCC keeps
// the common path's values in registers and saves them only around the rare branches' calls
// (every vector register is caller-saved), where without them it spilled about 20 of them
// to the stack on the common path of the two-bone solve.
#if defined(__GNUC__)
#define ARTICULA_IK_RARE(condition) __builtin_expect(static_cast<bool>(condition), 0)
#define ARTICULA_IK_USUAL(condition) __builtin_expect(static_cast<bool>(condition), 1)
#else
#define ARTICULA_IK_RARE(condition) static_cast<bool>(condition)
#define ARTICULA_IK_USUAL(condition) static_cast<bool>(condition)
#endif

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

// Shortest-arc rotation from `a` to `b`, non-zero vectors with |a|·|b| = normProduct (one of
// them unit, typically), without normalising either: the half-way quaternion
// (|a||b| + a·b, a × b), normalised once; fromToRotation's careful path near 180°.
inline Quat fromToScaled(const Vec3& a, const Vec3& b, float normProduct) {
  const float d = a.dot(b);
  if (d < -0.9f * normProduct) return fromToRotation(a, b);
  const Vec3 c = a.cross(b);
  Quat q(normProduct + d, c.x(), c.y(), c.z());
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

// q v q* for any non-zero q: v rotated by q / |q| and scaled by |q|², the homogeneous form of
// the rotation, which needs no normalised q (Eigen's product assumes a unit q). With
// t = 2 u × v: |q|² v + w t + u × t.
inline Vec3 rotateScaled(const Quat& q, const Vec3& v) {
  const Vec3 t = 2.0f * q.vec().cross(v);
  return q.squaredNorm() * v + q.w() * t + q.vec().cross(t);
}

}  // namespace articula::ik
