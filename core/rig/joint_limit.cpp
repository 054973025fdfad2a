#include "core/rig/joint_limit.h"

namespace articula {

JointLimit JointLimit::cone(const Vec3& axisParentIn, float halfAngleRad) {
  JointLimit l;
  l.kind = Kind::Cone;
  l.axisParent = axisParentIn;
  l.xParent = axisParentIn.unitOrthogonal();
  l.halfAngleXRad = halfAngleRad;
  l.halfAngleYRad = halfAngleRad;
  return l;
}

JointLimit JointLimit::hinge(const Vec3& axisParentIn, float minRad, float maxRad, const Quat& reference) {
  JointLimit l;
  l.kind = Kind::Hinge;
  l.axisParent = axisParentIn;
  l.minAngleRad = minRad;
  l.maxAngleRad = maxRad;
  l.referenceLocal = reference;
  return l;
}

JointConstraint JointLimit::toConstraint() const {
  JointConstraint c;
  switch (kind) {
    case Kind::Free:
      break;
    case Kind::Cone:
      c = halfAngleXRad == halfAngleYRad
              ? JointConstraint::cone(axisParent, halfAngleXRad)
              : JointConstraint::ellipticalCone(axisParent, xParent, halfAngleXRad, halfAngleYRad);
      break;
    case Kind::Hinge:
      c = JointConstraint::hinge(axisParent, minAngleRad, maxAngleRad, referenceLocal);
      break;
  }
  return twistLimited ? c.withTwistLimit(twistMinRad, twistMaxRad, twistReferenceLocal) : c;
}

std::optional<std::string> JointLimit::validate() const { return toConstraint().validate(); }

bool JointLimit::operator==(const JointLimit& o) const {
  return kind == o.kind && axisParent == o.axisParent && xParent == o.xParent && halfAngleXRad == o.halfAngleXRad &&
         halfAngleYRad == o.halfAngleYRad && minAngleRad == o.minAngleRad && maxAngleRad == o.maxAngleRad &&
         referenceLocal.coeffs() == o.referenceLocal.coeffs() && twistLimited == o.twistLimited &&
         twistMinRad == o.twistMinRad && twistMaxRad == o.twistMaxRad &&
         twistReferenceLocal.coeffs() == o.twistReferenceLocal.coeffs();
}

}  // namespace articula
