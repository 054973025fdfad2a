#include "core/math/transform.h"

#include <cmath>

namespace articula {

Transform Transform::fromMatrix(const Mat4& m) {
  Transform t;
  t.translation = m.block<3, 1>(0, 3);
  Mat3 basis = m.block<3, 3>(0, 0);
  t.scale = Vec3(basis.col(0).norm(), basis.col(1).norm(), basis.col(2).norm());
  // A mirrored basis cannot be a rotation: give the reflection to the x scale.
  if (basis.determinant() < 0.0f) t.scale.x() = -t.scale.x();
  for (int c = 0; c < 3; ++c) {
    if (t.scale[c] != 0.0f) basis.col(c) /= t.scale[c];
  }
  t.rotation = Quat(basis).normalized();
  return t;
}

Mat4 Transform::toMatrix() const { return toAffine().matrix(); }

Affine Transform::toAffine() const {
  Affine a = Affine::Identity();
  a.linear() = rotation.toRotationMatrix() * scale.asDiagonal();
  a.translation() = translation;
  return a;
}

Transform Transform::operator*(const Transform& child) const {
  Transform r;
  r.translation = transformPoint(child.translation);
  r.rotation = (rotation * child.rotation).normalized();
  r.scale = scale.cwiseProduct(child.scale);
  return r;
}

Transform Transform::inverse() const {
  Transform r;
  r.rotation = rotation.conjugate();
  r.scale = scale.cwiseInverse();
  // p = S⁻¹R⁻¹(p' − t); as a TRS this is exact for uniform scale, where S⁻¹R⁻¹ = R⁻¹S⁻¹.
  r.translation = -(r.scale.cwiseProduct(r.rotation * translation));
  return r;
}

bool Transform::isFinite() const {
  return translation.allFinite() && rotation.coeffs().allFinite() && scale.allFinite();
}

Transform blend(const Transform& a, const Transform& b, float weight) {
  Transform r;
  r.translation = a.translation + weight * (b.translation - a.translation);
  r.scale = a.scale + weight * (b.scale - a.scale);
  r.rotation = a.rotation.slerp(weight, b.rotation).normalized();
  return r;
}

}  // namespace articula
