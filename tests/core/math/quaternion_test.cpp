#include "core/math/quaternion.h"

#include <gtest/gtest.h>

#include <random>
#include <vector>

namespace articula {
namespace {

Vec3 randomUnit(std::mt19937& rng) {
  std::normal_distribution<float> n;
  return Vec3(n(rng), n(rng), n(rng)).normalized();
}

// A model matrix's first two columns, scaled non-uniformly and with its Y axis leaning
// towards X, give back the joint's turn.
TEST(RotationOfAxes, GivesTheTurnOfScaledAndShearedAxes) {
  std::mt19937 rng(3);
  for (int i = 0; i < 1000; ++i) {
    const Quat turn = Quat(Eigen::AngleAxisf(2.0f * randomUnit(rng).x() * 3.14159f, randomUnit(rng))).normalized();
    const Mat3 r = turn.toRotationMatrix();
    const Vec3 x = 2.5f * r.col(0);
    const Vec3 y = 0.3f * r.col(1) + 0.1f * r.col(0);
    EXPECT_LE(rotationOfAxes(x, y).angularDistance(turn), 1e-5f);
  }
}

TEST(RotationOfAxes, ZeroOrParallelAxesGiveIdentity) {
  EXPECT_TRUE(rotationOfAxes(Vec3::Zero(), Vec3::UnitY()).isApprox(Quat::Identity()));
  EXPECT_TRUE(rotationOfAxes(Vec3::UnitX(), Vec3(2.0f, 0.0f, 0.0f)).isApprox(Quat::Identity()));
}

TEST(FromToRotation, RotatesFromOntoTo) {
  std::mt19937 rng(1);
  for (int i = 0; i < 1000; ++i) {
    const Vec3 a = randomUnit(rng);
    const Vec3 b = randomUnit(rng);
    const Quat q = fromToRotation(a * 2.0f, b * 0.5f);
    EXPECT_NEAR(q.norm(), 1.0f, 1e-6f);
    EXPECT_LT((q * a - b).norm(), 1e-5f);
  }
}

TEST(FromToRotation, ExactAtZeroDegrees) {
  const Vec3 a = Vec3(0.3f, -0.2f, 0.9f).normalized();
  const Quat q = fromToRotation(a, a);
  EXPECT_EQ(q.w(), 1.0f);
  EXPECT_EQ(q.vec().norm(), 0.0f);
}

TEST(FromToRotation, ExactAtOneHundredEightyDegrees) {
  const std::vector<Vec3> axes = {Vec3::UnitX(), Vec3::UnitY(), Vec3::UnitZ(), Vec3(1, 1, 1).normalized(),
                                  Vec3(-0.2f, 0.9f, 0.1f).normalized()};
  for (const Vec3& a : axes) {
    const Quat q = fromToRotation(a, -a);
    EXPECT_NEAR(q.norm(), 1.0f, 1e-6f);
    EXPECT_LT((q * a + a).norm(), 1e-6f) << a.transpose();
    // A half turn about an axis perpendicular to `a`.
    EXPECT_NEAR(q.w(), 0.0f, 1e-7f);
    EXPECT_NEAR(q.vec().dot(a), 0.0f, 1e-6f);
  }
}

TEST(FromToRotation, NearlyAntiparallelStaysAccurate) {
  const Vec3 a = Vec3::UnitX();
  for (float offset : {1e-2f, 1e-3f, 1e-4f, 1e-5f, 1e-6f}) {
    const Vec3 b = Vec3(-1.0f, offset, 0.0f).normalized();
    const Quat q = fromToRotation(a, b);
    EXPECT_LT((q * a - b).norm(), 1e-6f) << offset;
  }
}

TEST(FromToRotation, ZeroLengthGivesIdentity) {
  EXPECT_TRUE(fromToRotation(Vec3::Zero(), Vec3::UnitX()).isApprox(Quat::Identity()));
  EXPECT_TRUE(fromToRotation(Vec3::UnitX(), Vec3::Zero()).isApprox(Quat::Identity()));
}

TEST(SwingTwist, RecomposesAndSeparatesAxes) {
  std::mt19937 rng(2);
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  for (int i = 0; i < 1000; ++i) {
    const Quat q = Quat(u(rng), u(rng), u(rng), u(rng)).normalized();
    const Vec3 axis = randomUnit(rng);
    const auto [swing, twist] = swingTwist(q, axis);
    EXPECT_TRUE((swing * twist).isApprox(q, 1e-5f) || (swing * twist).coeffs().isApprox(-q.coeffs(), 1e-5f));
    // The twist turns about the axis only; the swing moves the axis without spinning it.
    EXPECT_LT(twist.vec().cross(axis).norm(), 1e-5f);
    EXPECT_NEAR(swing.vec().dot(axis), 0.0f, 1e-5f);
  }
}

TEST(SwingTwist, PureTwistAndPureSwing) {
  const Vec3 axis = Vec3::UnitY();
  const Quat twistOnly(Eigen::AngleAxisf(1.1f, axis));
  auto st = swingTwist(twistOnly, axis);
  EXPECT_TRUE(st.swing.isApprox(Quat::Identity(), 1e-6f));
  EXPECT_NEAR(twistAngle(st.twist, axis), 1.1f, 1e-5f);
  const Quat halfTurnSwing(Eigen::AngleAxisf(kPi, Vec3::UnitX()));
  st = swingTwist(halfTurnSwing, axis);
  EXPECT_NEAR(st.twist.angularDistance(Quat::Identity()), 0.0f, 1e-6f);
  EXPECT_GE(st.twist.w(), 0.0f);
}

TEST(HemisphereContinuity, FlipsIntoPredecessorHemisphere) {
  std::vector<Quat> seq;
  for (int i = 0; i < 50; ++i) {
    Quat q(Eigen::AngleAxisf(0.1f * static_cast<float>(i), Vec3::UnitZ()));
    if (i % 3 == 0) q.coeffs() = -q.coeffs();
    seq.push_back(q);
  }
  const std::vector<Quat> original = seq;
  makeHemisphereContinuous(seq);
  for (std::size_t i = 1; i < seq.size(); ++i) {
    EXPECT_GE(seq[i].dot(seq[i - 1]), 0.0f);
    EXPECT_NEAR(std::abs(seq[i].dot(original[i])), 1.0f, 1e-6f);  // same rotation
  }
}

TEST(QuatLogExp, RoundTrip) {
  std::mt19937 rng(4);
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  for (int i = 0; i < 200; ++i) {
    Quat q = Quat(u(rng), u(rng), u(rng), u(rng)).normalized();
    EXPECT_TRUE(quatExp(quatLog(q)).isApprox(q, 1e-5f));
  }
  EXPECT_TRUE(quatExp(quatLog(Quat::Identity())).isApprox(Quat::Identity()));
}

}  // namespace
}  // namespace articula
