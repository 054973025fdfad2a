#include "core/ik/ik_constraints.h"

#include <gtest/gtest.h>

#include <limits>
#include <random>

#include "core/ik/ik_test_util.h"

namespace articula {
namespace {

Quat randomRotation(std::mt19937& rng) {
  std::normal_distribution<float> n(0.0f, 1.0f);
  return Quat(n(rng), n(rng), n(rng), n(rng)).normalized();
}

TEST(JointConstraint, DefaultIsFreeAndValid) {
  const JointConstraint c;
  EXPECT_EQ(c.kind(), JointConstraint::Kind::Free);
  EXPECT_FALSE(c.isActive());
  EXPECT_FALSE(c.validate().has_value());
}

TEST(JointConstraint, ValidateNamesTheProblem) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  EXPECT_EQ(JointConstraint::cone(Vec3::Zero(), 0.5f).validate().value_or(""), "cone axis is zero or not finite");
  EXPECT_EQ(JointConstraint::cone(Vec3::UnitX(), 0.0f).validate().value_or(""), "cone half-angle is not in (0, pi]");
  EXPECT_EQ(JointConstraint::ellipticalCone(Vec3::UnitX(), Vec3::UnitX(), 0.3f, 0.5f).validate().value_or(""),
            "elliptical cone x direction is parallel to its axis");
  EXPECT_EQ(JointConstraint::hinge(Vec3::UnitZ(), 1.0f, -1.0f).validate().value_or(""), "hinge range has min > max");
  EXPECT_EQ(JointConstraint::hinge(Vec3::UnitZ(), nan, 1.0f).validate().value_or(""), "hinge range is not finite");
  EXPECT_EQ(JointConstraint::free().withTwistLimit(-4.0f, 0.0f).validate().value_or(""),
            "twist range reaches outside [-pi, pi]");
}

TEST(JointConstraint, EveryFactoryRecordsWhetherItIsValid) {
  // The solvers check isValid() at every run and ask validate() only for the message.
  const std::vector<JointConstraint> constraints = {
      JointConstraint(),
      JointConstraint::cone(Vec3::UnitX(), 0.5f),
      JointConstraint::cone(Vec3::Zero(), 0.5f),
      JointConstraint::ellipticalCone(Vec3::UnitX(), Vec3::UnitY(), 0.3f, 0.5f),
      JointConstraint::ellipticalCone(Vec3::UnitX(), Vec3::UnitX(), 0.3f, 0.5f),
      JointConstraint::hinge(Vec3::UnitZ(), -1.0f, 1.0f),
      JointConstraint::hinge(Vec3::UnitZ(), 1.0f, -1.0f),
      JointConstraint::cone(Vec3::UnitX(), 0.5f).withTwistLimit(-0.2f, 0.2f),
      JointConstraint::cone(Vec3::UnitX(), 0.5f).withTwistLimit(-4.0f, 0.0f),
      JointConstraint::cone(Vec3::UnitX(), 0.5f).withTwistLimit(-4.0f, 0.0f).withTwistLimit(-0.2f, 0.2f),
      JointConstraint::free().withTwistLimit(0.0f, 0.0f, Quat(0.0f, 0.0f, 0.0f, 0.0f)),
  };
  for (std::size_t i = 0; i < constraints.size(); ++i)
    EXPECT_EQ(constraints[i].isValid(), !constraints[i].validate().has_value()) << "constraint " << i;
}

TEST(JointConstraint, ProjectionLandsInsideAndKeepsAllowedRotations) {
  std::mt19937 rng(23);
  const Vec3 bone = Vec3(1.0f, 0.2f, -0.1f).normalized();
  const std::vector<JointConstraint> constraints = {
      JointConstraint::cone(Vec3(0.3f, 1.0f, 0.0f), 0.5f),
      JointConstraint::cone(Vec3::UnitX(), 2.8f).withTwistLimit(-0.4f, 0.1f),
      JointConstraint::ellipticalCone(Vec3::UnitY(), Vec3::UnitZ(), 0.2f, 1.1f),
      JointConstraint::hinge(Vec3(0.0f, 0.2f, 1.0f), -0.5f, 1.5f, Quat(Eigen::AngleAxisf(0.3f, Vec3::UnitY()))),
      JointConstraint::hinge(bone, -0.5f, 0.5f),
      JointConstraint::free().withTwistLimit(0.2f, 0.6f, Quat(Eigen::AngleAxisf(0.4f, Vec3::UnitZ()))),
  };
  for (std::size_t i = 0; i < constraints.size(); ++i) {
    const JointConstraint& c = constraints[i];
    ASSERT_FALSE(c.validate().has_value());
    for (int trial = 0; trial < 500; ++trial) {
      const Quat r = randomRotation(rng);
      const Quat p = c.project(r, bone);
      EXPECT_NEAR(p.norm(), 1.0f, 1e-5f);
      EXPECT_LE(test::constraintViolationRad(c, p, bone), 1e-4f) << "constraint " << i << " trial " << trial;
      // Idempotent: an allowed rotation is kept.
      EXPECT_LE(c.project(p, bone).angularDistance(p), 1e-4f) << "constraint " << i << " trial " << trial;
      // The bounding cone holds every allowed bone direction.
      const BoundingCone cone = c.boundingCone(bone);
      const Vec3 dir = p * bone;
      EXPECT_GE(dir.dot(cone.axisParent), cone.cosHalfAngle - 1e-4f) << "constraint " << i;
    }
  }
}

TEST(JointConstraint, CircularConeMovesTheBoneByTheShortestArc) {
  const JointConstraint c = JointConstraint::cone(Vec3::UnitY(), 0.5f);
  const Quat r(Eigen::AngleAxisf(0.3f, Vec3::UnitZ()));  // bone X → π/2 − 0.3 rad from the axis Y
  const Quat p = c.project(r, Vec3::UnitX());
  const Vec3 dir = p * Vec3::UnitX();
  EXPECT_NEAR(std::acos(std::clamp(dir.dot(Vec3::UnitY()), -1.0f, 1.0f)), 0.5f, 1e-5f);
  EXPECT_NEAR(dir.z(), 0.0f, 1e-6f);  // stays in the plane of the bone and the axis
}

TEST(IkMath, RotationFromCosSinMatchesAngleAxis) {
  for (float angle = -3.1f; angle <= 3.1f; angle += 0.05f) {
    const Vec3 axis = Vec3(1.0f, 2.0f, 3.0f).normalized();
    const Quat a = rotationFromCosSin(axis, std::cos(angle), std::sin(angle));
    const Quat b(Eigen::AngleAxisf(angle, axis));
    EXPECT_LE(a.angularDistance(b), 1e-5f) << angle;
  }
  EXPECT_NEAR(clampAngleCircular(-3.12f, -1.57f, 2.96f), 2.96f, 1e-6f);
  EXPECT_NEAR(clampAngleCircular(-2.0f, -1.57f, 2.96f), -1.57f, 1e-6f);
  EXPECT_NEAR(clampAngleCircular(0.3f, -1.57f, 2.96f), 0.3f, 1e-6f);
}

}  // namespace
}  // namespace articula
