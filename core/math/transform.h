#pragma once
#include "core/math/types.h"

namespace articula {

// A joint's local transform in its parent's space: scale first, then rotation, then
// translation (the glTF/ozz TRS convention). `rotation` is kept unit length.
struct Transform {
  Vec3 translation = Vec3::Zero();
  Quat rotation = Quat::Identity();
  Vec3 scale = Vec3::Ones();

  static Transform identity() { return {}; }
  static Transform fromMatrix(const Mat4& m);  // polar split; negative determinant → -x scale

  Mat4 toMatrix() const;
  Affine toAffine() const;

  // parent * child: child expressed in this transform's space. Exact when `scale` is
  // uniform; with non-uniform parent scale a TRS cannot hold shear, so use matrices
  // (localToModel does) when that matters.
  Transform operator*(const Transform& child) const;
  // Inverse such that (t.inverse() * t) is the identity for uniform scale.
  Transform inverse() const;

  Vec3 transformPoint(const Vec3& p) const { return translation + rotation * scale.cwiseProduct(p); }
  Vec3 transformVector(const Vec3& v) const { return rotation * scale.cwiseProduct(v); }

  bool isFinite() const;
};

// Blend of two transforms: lerp translation and scale, slerp rotation (shortest arc).
Transform blend(const Transform& a, const Transform& b, float weight);

}  // namespace articula
