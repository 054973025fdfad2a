#pragma once
// The editable form of a joint limit, as a rig stores and serialises it: the parameters
// exactly as authored (JointConstraint re-derives some of them, e.g. re-orthogonalises an
// elliptical cone's x direction, so it would not round-trip bit for bit). Angles in radians;
// axes in the joint's PARENT space (see core/ik/ik_constraints.h).
#include <optional>
#include <string>

#include "core/ik/ik_constraints.h"

namespace articula {

struct JointLimit {
  enum class Kind : unsigned char { Free, Cone, Hinge };

  Kind kind = Kind::Free;
  Vec3 axisParent = Vec3::UnitX();  // cone axis or hinge axis, parent space
  // Cone: swing limits towards ±xParent and ±(axisParent × xParent); equal for a circular
  // cone (then xParent is ignored).
  Vec3 xParent = Vec3::UnitY();
  float halfAngleXRad = kPi;
  float halfAngleYRad = kPi;
  // Hinge: θ range about axisParent, θ = 0 at referenceLocal.
  float minAngleRad = -kPi;
  float maxAngleRad = kPi;
  Quat referenceLocal = Quat::Identity();
  // Optional twist limit about the bone axis, measured from twistReferenceLocal.
  bool twistLimited = false;
  float twistMinRad = -kPi;
  float twistMaxRad = kPi;
  Quat twistReferenceLocal = Quat::Identity();

  static JointLimit free() { return {}; }
  static JointLimit cone(const Vec3& axisParent, float halfAngleRad);
  static JointLimit hinge(const Vec3& axisParent, float minAngleRad, float maxAngleRad,
                          const Quat& referenceLocal = Quat::Identity());

  // The solver's constraint.
  JointConstraint toConstraint() const;
  // nullopt when valid; otherwise what is wrong (the checks of JointConstraint::validate).
  std::optional<std::string> validate() const;

  // Exact, field by field (quaternions by their coefficients).
  bool operator==(const JointLimit& other) const;
};

}  // namespace articula
