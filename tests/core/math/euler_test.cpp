#include "core/math/euler.h"

#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <random>

namespace articula {
namespace {

constexpr std::array<RotationOrder, 6> kOrders = {RotationOrder::XYZ, RotationOrder::XZY, RotationOrder::YXZ,
                                                  RotationOrder::YZX, RotationOrder::ZXY, RotationOrder::ZYX};

// Same rotation whatever the quaternion's sign.
float rotationDistance(const Quat& a, const Quat& b) { return 1.0f - std::abs(a.normalized().dot(b.normalized())); }

int axisIndex(char axis) { return axis - 'X'; }

TEST(Euler, NamesRoundTrip) {
  for (const RotationOrder order : kOrders) {
    const auto parsed = rotationOrderFromString(toString(order));
    ASSERT_TRUE(parsed.has_value());
    EXPECT_EQ(*parsed, order);
  }
  EXPECT_FALSE(rotationOrderFromString("XXY").has_value());
  EXPECT_FALSE(rotationOrderFromString("xyz").has_value());
  EXPECT_FALSE(rotationOrderFromString("").has_value());
}

// The BVH convention, built independently: R = R_first * R_second * R_third in written order.
TEST(Euler, MatchesProductInWrittenOrder) {
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> angle(-kPi, kPi);
  for (const RotationOrder order : kOrders) {
    const std::string_view name = toString(order);
    for (int trial = 0; trial < 50; ++trial) {
      const Vec3 anglesRad(angle(rng), angle(rng), angle(rng));
      Mat3 expected = Mat3::Identity();
      for (const char axis : name) {
        const int a = axisIndex(axis);
        expected = expected * Eigen::AngleAxisf(anglesRad[a], Vec3::Unit(a)).toRotationMatrix();
      }
      EXPECT_LT(rotationDistance(eulerToQuat(anglesRad, order), Quat(expected)), 1e-6f) << name;
    }
  }
}

TEST(Euler, ZyxIsZThenYThenX) {
  // R_z(90°) R_y(90°): R_y turns x onto -z, which R_z then leaves in place.
  const Vec3 anglesRad(0.0f, kPi / 2, kPi / 2);  // x, y, z
  const Quat q = eulerToQuat(anglesRad, RotationOrder::ZYX);
  const Quat expected = Quat(Eigen::AngleAxisf(kPi / 2, Vec3::UnitZ())) * Quat(Eigen::AngleAxisf(kPi / 2, Vec3::UnitY()));
  EXPECT_LT(rotationDistance(q, expected), 1e-6f);
  EXPECT_TRUE((q * Vec3::UnitX()).isApprox(-Vec3::UnitZ(), 1e-5f));
}

TEST(Euler, RoundTripAllOrdersAtRandomAngles) {
  std::mt19937 rng(11);
  std::uniform_real_distribution<float> outer(-kPi + 1e-3f, kPi - 1e-3f);
  std::uniform_real_distribution<float> middle(-kPi / 2 + 1e-2f, kPi / 2 - 1e-2f);
  for (const RotationOrder order : kOrders) {
    const std::string_view name = toString(order);
    const int middleAxis = axisIndex(name[1]);
    for (int trial = 0; trial < 200; ++trial) {
      Vec3 anglesRad(outer(rng), outer(rng), outer(rng));
      anglesRad[middleAxis] = middle(rng);
      const Quat q = eulerToQuat(anglesRad, order);
      const Vec3 back = quatToEuler(q, order);
      // Away from gimbal lock the decomposition is unique with the middle in [-π/2, π/2].
      EXPECT_TRUE(back.isApprox(anglesRad, 1e-3f)) << name << " " << anglesRad.transpose() << " -> " << back.transpose();
      EXPECT_LT(rotationDistance(eulerToQuat(back, order), q), 1e-6f) << name;
      // Random unit quaternions too: the angles reproduce the rotation.
      Quat r(outer(rng), outer(rng), outer(rng), outer(rng));
      r.normalize();
      const Vec3 rAngles = quatToEuler(r, order);
      EXPECT_LE(std::abs(rAngles[middleAxis]), kPi / 2 + 1e-5f);
      EXPECT_LT(rotationDistance(eulerToQuat(rAngles, order), r), 1e-6f) << name;
    }
  }
}

TEST(Euler, GimbalLockKeepsRotationAndZeroesThirdAngle) {
  for (const RotationOrder order : kOrders) {
    const std::string_view name = toString(order);
    const int first = axisIndex(name[0]);
    const int middle = axisIndex(name[1]);
    const int third = axisIndex(name[2]);
    for (const float sign : {1.0f, -1.0f}) {
      Vec3 anglesRad = Vec3::Zero();
      anglesRad[first] = 0.4f;
      anglesRad[middle] = sign * kPi / 2;
      anglesRad[third] = 0.3f;
      const Quat q = eulerToQuat(anglesRad, order);
      const Vec3 back = quatToEuler(q, order);
      EXPECT_TRUE(back.allFinite());
      EXPECT_NEAR(back[third], 0.0f, 1e-6f) << name;
      EXPECT_NEAR(back[middle], sign * kPi / 2, 2e-3f) << name;
      EXPECT_LT(rotationDistance(eulerToQuat(back, order), q), 1e-6f) << name;

      // With a previous frame, the third angle is kept where it was and the first absorbs
      // the rest: no jump when a curve passes through the lock.
      const Vec3 previous = anglesRad;
      const Vec3 continued = quatToEuler(q, order, &previous);
      EXPECT_TRUE(continued.isApprox(anglesRad, 2e-3f)) << name << " " << continued.transpose();
    }
  }
}

TEST(Euler, ContinuityFilterAvoidsTwoPiJumps) {
  for (const RotationOrder order : kOrders) {
    const std::string_view name = toString(order);
    const int first = axisIndex(name[0]);
    const int middle = axisIndex(name[1]);
    // A sweep of the first angle well past ±180° with the middle near, and beyond, 90°.
    Vec3 previous = Vec3::Zero();
    for (int step = 0; step <= 720; ++step) {
      Vec3 anglesRad(0.2f, -0.1f, 0.3f);
      anglesRad[first] = static_cast<float>(step) * (kPi / 180.0f);  // 0 → 4π
      anglesRad[middle] = 1.2f;
      const Quat q = eulerToQuat(anglesRad, order);
      const Vec3 filtered = quatToEuler(q, order, step == 0 ? nullptr : &previous);
      EXPECT_LT(rotationDistance(eulerToQuat(filtered, order), q), 1e-6f) << name;
      if (step > 0) {
        EXPECT_LT((filtered - previous).cwiseAbs().maxCoeff(), 0.1f) << name << " at step " << step;
      }
      previous = filtered;
    }
    // The unwrapped first angle followed the sweep to 4π instead of wrapping.
    EXPECT_NEAR(previous[first], 4.0f * kPi, 1e-3f) << name;

    // The flipped solution (middle beyond 90°) is chosen when it is the continuous one.
    Vec3 beyond(0.0f, 0.0f, 0.0f);
    beyond[first] = 0.5f;
    beyond[middle] = kPi / 2 + 0.3f;
    const Quat qBeyond = eulerToQuat(beyond, order);
    const Vec3 near = quatToEuler(qBeyond, order, &beyond);
    EXPECT_TRUE(near.isApprox(beyond, 1e-3f)) << name << " " << near.transpose();
  }
}

}  // namespace
}  // namespace articula
