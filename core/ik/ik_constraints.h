#pragma once
// Joint limits for the IK solvers. A constraint restricts one joint's LOCAL rotation (the
// rotation part of its local transform, which maps the joint's rotation space into its
// parent's space). Every limit is written in the parent's space or about the bone axis, so
// it does not depend on where the skeleton is in the model, nor on any scale or mirroring
// above the joint.
//
// The bone axis is the direction, in the joint's rotation space (before its local rotation
// applies), from the joint towards the next joint of the chain. The solvers know it from the
// pose and pass it in; a rotation R points the bone along R * boneAxisLocal in the parent's
// space.
#include <cmath>
#include <optional>
#include <string>

#include "core/math/types.h"

namespace articula {

// The loose cone that bounds every allowed bone direction, in the parent's space. FABRIK's
// backward pass uses it between neighbouring bones, where the parent's frame is not known yet.
struct BoundingCone {
  Vec3 axisParent = Vec3::UnitX();  // unit
  float halfAngleRad = kPi;         // kPi: no bound
  float cosHalfAngle = -1.0f;
  float sinHalfAngle = 0.0f;
};

class JointConstraint {
 public:
  enum class Kind : unsigned char {
    Free,   // any rotation (a twist limit may still apply)
    Cone,   // ball-and-socket: the bone stays inside a (possibly elliptical) cone
    Hinge,  // one degree of freedom about an axis, between two angles
  };

  // Default: free, no twist limit.
  JointConstraint() = default;

  static JointConstraint free();
  // Circular cone: the bone direction, in the parent's space, stays within halfAngleRad of
  // axisParent.
  static JointConstraint cone(const Vec3& axisParent, float halfAngleRad);
  // Elliptical cone: the swing away from axisParent is limited to halfAngleXRad towards
  // ±xParent and halfAngleYRad towards ±(axisParent × xParent), with an ellipse in between
  // (in swing-angle coordinates). xParent is made perpendicular to the axis.
  static JointConstraint ellipticalCone(const Vec3& axisParent, const Vec3& xParent, float halfAngleXRad,
                                        float halfAngleYRad);
  // Hinge: the local rotation is rot(axisParent, θ) * referenceLocal with θ in
  // [minAngleRad, maxAngleRad] (θ = 0 at referenceLocal, positive by the right-hand rule
  // about axisParent in the parent's space). A hinge has no twist freedom of its own.
  static JointConstraint hinge(const Vec3& axisParent, float minAngleRad, float maxAngleRad,
                               const Quat& referenceLocal = Quat::Identity());

  // Adds a twist limit about the bone axis, measured from referenceLocal: with
  // R = referenceLocal * swing * twist (twist about the bone axis, swing perpendicular to it),
  // the twist angle stays in [minAngleRad, maxAngleRad]. Ignored by hinges.
  JointConstraint withTwistLimit(float minAngleRad, float maxAngleRad,
                                 const Quat& referenceLocal = Quat::Identity()) const;

  // nullopt when valid. Fails when: an axis is zero or not finite; a cone half-angle is not
  // in (0, π]; the elliptical cone's x direction is parallel to its axis; a hinge or twist
  // range is not finite, has min > max, or reaches outside [-π, π]; the reference rotation
  // is not a finite non-zero quaternion.
  std::optional<std::string> validate() const;
  // validate() has nothing to say. Worked out once, by the factories (a constraint does not
  // change after them), for the solvers that check their constraints at every run.
  bool isValid() const { return mValid; }

  Kind kind() const { return mKind; }
  bool hasTwistLimit() const { return mTwistLimited; }
  // True when projecting can change a rotation (anything but a free joint without twist limit).
  bool isActive() const { return mKind != Kind::Free || mTwistLimited; }

  // The allowed rotation closest to localRotation in the sense the solvers need: the bone
  // direction is moved onto the allowed set by the minimal rotation (circular cone: to the
  // nearest border point; elliptical cone: to the border along the same azimuth about the
  // axis, which is the nearest point only on the ellipse's axes; hinge: onto the arc, at
  // the nearest hinge angle), then the twist is clamped. Returns localRotation unchanged
  // when it is allowed. The result is unit length. boneAxisLocal must be unit.
  Quat project(const Quat& localRotation, const Vec3& boneAxisLocal) const;

  // The allowed bone direction (parent space, unit) closest to dirParent (unit): inside the
  // cone, or on the hinge's arc. Twist does not move the bone and is not considered.
  Vec3 projectDirection(const Vec3& dirParent, const Vec3& boneAxisLocal) const;

  // A cone, in the parent's space, containing every direction the bone may take.
  BoundingCone boundingCone(const Vec3& boneAxisLocal) const;

  // Parameters, as given to the factories (axes normalised).
  const Vec3& axisParent() const { return mAxisParent; }
  float halfAngleXRad() const { return mHalfAngleXRad; }
  float halfAngleYRad() const { return mHalfAngleYRad; }
  float minAngleRad() const { return mMinRad; }
  float maxAngleRad() const { return mMaxRad; }
  float twistMinRad() const { return mTwistMinRad; }
  float twistMaxRad() const { return mTwistMaxRad; }
  const Quat& referenceLocal() const { return mReferenceLocal; }
  const Quat& twistReferenceLocal() const { return mTwistReferenceLocal; }
  const Vec3& xParent() const { return mXParent; }
  // A circular cone (both half-angles equal), and the cosine of its half-angle, cached.
  bool isCircularCone() const { return mKind == Kind::Cone && mHalfAngleXRad == mHalfAngleYRad; }
  float cosHalfAngle() const { return mCosHalfAngle; }

 private:
  Vec3 projectConeDirection(const Vec3& dirParent) const;
  Vec3 projectHingeDirection(const Vec3& dirParent, const Vec3& boneAxisLocal) const;
  Quat clampTwist(const Quat& localRotation, const Vec3& boneAxisLocal) const;
  // The factories' last step: records validate()'s verdict.
  JointConstraint checked() {
    mValid = !validate().has_value();
    return *this;
  }

  Kind mKind = Kind::Free;
  // Cone axis or hinge axis, unit, in the parent's space.
  Vec3 mAxisParent = Vec3::UnitX();
  // Cone: the direction of the x half-angle, unit, perpendicular to the axis.
  Vec3 mXParent = Vec3::UnitY();
  float mHalfAngleXRad = kPi;
  float mHalfAngleYRad = kPi;
  // Cached for the circular cone, so the solvers' inner loops need no trigonometry.
  float mCosHalfAngle = -1.0f;
  float mSinHalfAngle = 0.0f;
  // Hinge range and the rotation at θ = 0.
  float mMinRad = -kPi;
  float mMaxRad = kPi;
  Quat mReferenceLocal = Quat::Identity();
  // Twist limit.
  bool mTwistLimited = false;
  float mTwistMinRad = -kPi;
  float mTwistMaxRad = kPi;
  Quat mTwistReferenceLocal = Quat::Identity();
  bool mValid = true;
};

// Rotation about a unit axis given the cosine and sine of its angle, without trigonometry
// (half-angle identities). Exact at 0 and ±π. Inline: it sits on the two-bone solver's
// critical path.
inline Quat rotationFromCosSin(const Vec3& axisUnit, float cosAngle, float sinAngle) {
  // (cos θ/2, sin θ/2) is proportional to (1 + c, s) and to (s, 1 - c); use the better
  // conditioned one, with w ≥ 0.
  float w;
  float v;
  if (cosAngle >= 0.0f) {
    w = 1.0f + cosAngle;
    v = sinAngle;
  } else {
    w = std::abs(sinAngle);
    v = std::copysign(1.0f - cosAngle, sinAngle);
  }
  const float inv = 1.0f / std::sqrt(w * w + v * v);
  const Vec3 xyz = axisUnit * (v * inv);
  return Quat(w * inv, xyz.x(), xyz.y(), xyz.z());
}

// Clamps an angle into [minRad, maxRad]; outside the range it goes to the nearer bound,
// measuring around the circle (so -179° with a range of [-90°, 170°] goes to 170°).
float clampAngleCircular(float angleRad, float minRad, float maxRad);

}  // namespace articula
