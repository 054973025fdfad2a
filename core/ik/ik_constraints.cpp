#include "core/ik/ik_constraints.h"

#include <algorithm>
#include <cmath>

#include "core/ik/ik_frames.h"
#include "core/math/quaternion.h"

namespace articula {

namespace {

float wrapAngle(float angleRad) {
  float a = std::remainder(angleRad, 2.0f * kPi);
  if (a <= -kPi) a += 2.0f * kPi;
  return a;
}

Vec3 normalizedOr(const Vec3& v, const Vec3& fallback) {
  const float n = v.norm();
  return n > 0.0f && std::isfinite(n) ? Vec3(v / n) : fallback;
}

bool isFiniteNonZero(const Vec3& v) { return v.allFinite() && v.squaredNorm() > 0.0f; }

std::optional<std::string> checkRange(const char* what, float minRad, float maxRad) {
  if (!std::isfinite(minRad) || !std::isfinite(maxRad)) return std::string(what) + " range is not finite";
  if (minRad > maxRad) return std::string(what) + " range has min > max";
  if (minRad < -kPi - 1e-6f || maxRad > kPi + 1e-6f) return std::string(what) + " range reaches outside [-pi, pi]";
  return std::nullopt;
}

}  // namespace

float clampAngleCircular(float angleRad, float minRad, float maxRad) {
  if (angleRad >= minRad && angleRad <= maxRad) return angleRad;
  const float toMin = std::abs(wrapAngle(minRad - angleRad));
  const float toMax = std::abs(wrapAngle(angleRad - maxRad));
  return toMin <= toMax ? minRad : maxRad;
}

JointConstraint JointConstraint::free() { return JointConstraint(); }

JointConstraint JointConstraint::cone(const Vec3& axisParent, float halfAngleRad) {
  JointConstraint c;
  c.mKind = Kind::Cone;
  c.mAxisParent = normalizedOr(axisParent, Vec3::Zero());
  c.mXParent = normalizedOr(c.mAxisParent.unitOrthogonal(), Vec3::UnitY());
  c.mHalfAngleXRad = halfAngleRad;
  c.mHalfAngleYRad = halfAngleRad;
  c.mCosHalfAngle = std::cos(halfAngleRad);
  c.mSinHalfAngle = std::sin(halfAngleRad);
  return c.checked();
}

JointConstraint JointConstraint::ellipticalCone(const Vec3& axisParent, const Vec3& xParent, float halfAngleXRad,
                                                float halfAngleYRad) {
  JointConstraint c = cone(axisParent, std::max(halfAngleXRad, halfAngleYRad));
  c.mHalfAngleXRad = halfAngleXRad;
  c.mHalfAngleYRad = halfAngleYRad;
  const Vec3 x = xParent - c.mAxisParent * xParent.dot(c.mAxisParent);
  c.mXParent = normalizedOr(x, Vec3::Zero());
  return c.checked();
}

JointConstraint JointConstraint::hinge(const Vec3& axisParent, float minAngleRad, float maxAngleRad,
                                       const Quat& referenceLocal) {
  JointConstraint c;
  c.mKind = Kind::Hinge;
  c.mAxisParent = normalizedOr(axisParent, Vec3::Zero());
  c.mMinRad = minAngleRad;
  c.mMaxRad = maxAngleRad;
  c.mReferenceLocal = referenceLocal.norm() > 0.0f ? referenceLocal.normalized() : referenceLocal;
  return c.checked();
}

JointConstraint JointConstraint::withTwistLimit(float minAngleRad, float maxAngleRad,
                                                const Quat& referenceLocal) const {
  JointConstraint c = *this;
  c.mTwistLimited = true;
  c.mTwistMinRad = minAngleRad;
  c.mTwistMaxRad = maxAngleRad;
  c.mTwistReferenceLocal = referenceLocal.norm() > 0.0f ? referenceLocal.normalized() : referenceLocal;
  return c.checked();
}

std::optional<std::string> JointConstraint::validate() const {
  if (mKind == Kind::Cone) {
    if (!isFiniteNonZero(mAxisParent)) return std::string("cone axis is zero or not finite");
    for (const float h : {mHalfAngleXRad, mHalfAngleYRad}) {
      if (!std::isfinite(h) || !(h > 0.0f) || h > kPi + 1e-6f) return std::string("cone half-angle is not in (0, pi]");
    }
    if (!isFiniteNonZero(mXParent)) return std::string("elliptical cone x direction is parallel to its axis");
  } else if (mKind == Kind::Hinge) {
    if (!isFiniteNonZero(mAxisParent)) return std::string("hinge axis is zero or not finite");
    if (auto e = checkRange("hinge", mMinRad, mMaxRad)) return e;
    if (!mReferenceLocal.coeffs().allFinite() || mReferenceLocal.coeffs().squaredNorm() == 0.0f)
      return std::string("hinge reference rotation is not a finite non-zero quaternion");
  }
  if (mTwistLimited) {
    if (auto e = checkRange("twist", mTwistMinRad, mTwistMaxRad)) return e;
    if (!mTwistReferenceLocal.coeffs().allFinite() || mTwistReferenceLocal.coeffs().squaredNorm() == 0.0f)
      return std::string("twist reference rotation is not a finite non-zero quaternion");
  }
  return std::nullopt;
}

Vec3 JointConstraint::projectConeDirection(const Vec3& dirParent) const {
  const float cosSwing = dirParent.dot(mAxisParent);
  if (mHalfAngleXRad == mHalfAngleYRad && cosSwing >= mCosHalfAngle) return dirParent;
  const Vec3 perp = dirParent - mAxisParent * cosSwing;
  const float perpNorm = perp.norm();
  if (perpNorm < 1e-7f && cosSwing > 0.0f) return dirParent;  // on the axis: always allowed
  // Straight behind the axis every side is as near: take the x side, deterministically.
  const Vec3 side = perpNorm < 1e-7f ? mXParent : Vec3(perp / perpNorm);
  if (mHalfAngleXRad == mHalfAngleYRad) return mAxisParent * mCosHalfAngle + side * mSinHalfAngle;
  // Elliptical: limit on the swing angle along this azimuth, (θx/αx)² + (θy/αy)² = 1.
  const float swingRad = std::atan2(perpNorm, cosSwing);
  const float ex = side.dot(mXParent);
  const float ey = side.dot(mAxisParent.cross(mXParent));
  const float ax = mHalfAngleXRad;
  const float ay = mHalfAngleYRad;
  const float limitRad = ax * ay / std::sqrt(ay * ay * ex * ex + ax * ax * ey * ey);
  if (swingRad <= limitRad) return dirParent;
  return mAxisParent * std::cos(limitRad) + side * std::sin(limitRad);
}

Vec3 JointConstraint::projectHingeDirection(const Vec3& dirParent, const Vec3& boneAxisLocal) const {
  // Allowed directions: rot(axis, θ) * r0 with r0 the bone at the reference rotation — an
  // arc of the circle of constant height c along the axis.
  const Vec3 r0 = mReferenceLocal * boneAxisLocal;
  const float c = r0.dot(mAxisParent);
  const Vec3 radial = r0 - mAxisParent * c;
  const float rho = radial.norm();
  if (rho < 1e-6f) return r0;  // the bone lies on the hinge axis: the hinge cannot move it
  const Vec3 e1 = radial / rho;
  const Vec3 e2 = mAxisParent.cross(e1);
  const float angleRad = clampAngleCircular(std::atan2(dirParent.dot(e2), dirParent.dot(e1)), mMinRad, mMaxRad);
  return mAxisParent * c + (e1 * std::cos(angleRad) + e2 * std::sin(angleRad)) * rho;
}

Vec3 JointConstraint::projectDirection(const Vec3& dirParent, const Vec3& boneAxisLocal) const {
  switch (mKind) {
    case Kind::Cone:
      return projectConeDirection(dirParent);
    case Kind::Hinge:
      return projectHingeDirection(dirParent, boneAxisLocal);
    case Kind::Free:
      break;
  }
  return dirParent;
}

BoundingCone JointConstraint::boundingCone(const Vec3& boneAxisLocal) const {
  switch (mKind) {
    case Kind::Cone:
      // The circular cone's cosine and sine are cached (the elliptical one's are those of
      // its larger half-angle).
      return {mAxisParent, std::max(mHalfAngleXRad, mHalfAngleYRad), mCosHalfAngle, mSinHalfAngle};
    case Kind::Hinge: {
      // Every arc direction is within half the range of the arc's middle.
      const float middleRad = 0.5f * (mMinRad + mMaxRad);
      const Vec3 middle = Eigen::AngleAxisf(middleRad, mAxisParent) * (mReferenceLocal * boneAxisLocal);
      const float halfRad = 0.5f * (mMaxRad - mMinRad);
      return {middle, halfRad, std::cos(halfRad), std::sin(halfRad)};
    }
    case Kind::Free:
      break;
  }
  return {};
}

Quat JointConstraint::clampTwist(const Quat& localRotation, const Vec3& boneAxisLocal) const {
  const SwingTwist st = swingTwist(mTwistReferenceLocal.conjugate() * localRotation, boneAxisLocal);
  const float twistRad = twistAngle(st.twist, boneAxisLocal);
  const float clampedRad = clampAngleCircular(twistRad, mTwistMinRad, mTwistMaxRad);
  if (clampedRad == twistRad) return localRotation;
  return (mTwistReferenceLocal * st.swing * Quat(Eigen::AngleAxisf(clampedRad, boneAxisLocal))).normalized();
}

Quat JointConstraint::project(const Quat& localRotation, const Vec3& boneAxisLocal) const {
  switch (mKind) {
    case Kind::Free:
      return mTwistLimited ? clampTwist(localRotation, boneAxisLocal) : localRotation;
    case Kind::Cone: {
      const Vec3 dir = localRotation * boneAxisLocal;
      const Vec3 allowed = projectConeDirection(dir);
      Quat r = localRotation;
      // dir and allowed are unit vectors.
      if (allowed != dir) r = (ik::fromToUnit(dir, allowed) * localRotation).normalized();
      return mTwistLimited ? clampTwist(r, boneAxisLocal) : r;
    }
    case Kind::Hinge: {
      const Vec3 r0 = mReferenceLocal * boneAxisLocal;
      const Vec3 radial = r0 - mAxisParent * r0.dot(mAxisParent);
      const float rho = radial.norm();
      float angleRad;
      if (rho < 1e-6f) {
        // The bone lies on the axis: the bone direction says nothing about θ; take the
        // rotation's own component about the axis.
        const SwingTwist st = swingTwist(localRotation * mReferenceLocal.conjugate(), mAxisParent);
        angleRad = twistAngle(st.twist, mAxisParent);
      } else {
        const Vec3 e1 = radial / rho;
        const Vec3 dir = localRotation * boneAxisLocal;
        angleRad = std::atan2(dir.dot(mAxisParent.cross(e1)), dir.dot(e1));
      }
      angleRad = clampAngleCircular(angleRad, mMinRad, mMaxRad);
      return (Quat(Eigen::AngleAxisf(angleRad, mAxisParent)) * mReferenceLocal).normalized();
    }
  }
  return localRotation;
}

}  // namespace articula
