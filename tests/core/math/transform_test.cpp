#include "core/math/transform.h"

#include <gtest/gtest.h>

#include <random>

namespace articula {
namespace {

Transform randomTransform(std::mt19937& rng, bool uniformScale) {
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  std::uniform_real_distribution<float> s(0.3f, 2.0f);
  Transform t;
  t.translation = Vec3(u(rng), u(rng), u(rng)) * 3.0f;
  t.rotation = Quat(u(rng), u(rng), u(rng), u(rng)).normalized();
  const float k = s(rng);
  t.scale = uniformScale ? Vec3(k, k, k) : Vec3(s(rng), s(rng), s(rng));
  return t;
}

TEST(Transform, DefaultIsIdentity) {
  const Transform t;
  EXPECT_TRUE(t.toMatrix().isApprox(Mat4::Identity()));
  EXPECT_TRUE(t.isFinite());
}

TEST(Transform, MatrixAppliesScaleThenRotationThenTranslation) {
  Transform t;
  t.translation = Vec3(1, 2, 3);
  t.rotation = Quat(Eigen::AngleAxisf(kPi / 2, Vec3::UnitZ()));
  t.scale = Vec3(2, 1, 1);
  // x axis scaled to 2, rotated onto +y, then translated.
  const Vec3 p = (t.toMatrix() * Vec4(1, 0, 0, 1)).head<3>();
  EXPECT_NEAR((p - Vec3(1, 4, 3)).norm(), 0.0f, 1e-6f);
  EXPECT_NEAR((t.transformPoint(Vec3(1, 0, 0)) - p).norm(), 0.0f, 1e-6f);
}

TEST(Transform, ComposeMatchesMatrixProductForUniformScale) {
  std::mt19937 rng(7);
  for (int i = 0; i < 200; ++i) {
    const Transform a = randomTransform(rng, true);
    const Transform b = randomTransform(rng, true);
    EXPECT_TRUE((a * b).toMatrix().isApprox(a.toMatrix() * b.toMatrix(), 1e-4f));
  }
}

TEST(Transform, InverseUndoesTransformForUniformScale) {
  std::mt19937 rng(11);
  for (int i = 0; i < 200; ++i) {
    const Transform a = randomTransform(rng, true);
    EXPECT_TRUE((a.inverse() * a).toMatrix().isApprox(Mat4::Identity(), 1e-4f));
    EXPECT_TRUE(a.inverse().toMatrix().isApprox(a.toMatrix().inverse(), 1e-4f));
  }
}

TEST(Transform, FromMatrixRoundTripsIncludingNonUniformScaleAndMirroring) {
  std::mt19937 rng(3);
  for (int i = 0; i < 200; ++i) {
    Transform a = randomTransform(rng, false);
    if (i % 2 == 1) a.scale.x() = -a.scale.x();
    const Transform b = Transform::fromMatrix(a.toMatrix());
    EXPECT_TRUE(b.toMatrix().isApprox(a.toMatrix(), 1e-4f)) << i;
  }
}

TEST(Transform, BlendEndpointsAndShortestArc) {
  Transform a;
  Transform b;
  b.translation = Vec3(2, 0, 0);
  b.rotation = Quat(Eigen::AngleAxisf(0.2f, Vec3::UnitY()));
  // Same rotation stored in the opposite hemisphere must still blend the short way.
  Transform bFlipped = b;
  bFlipped.rotation.coeffs() = -b.rotation.coeffs();
  EXPECT_TRUE(blend(a, b, 0.0f).toMatrix().isApprox(a.toMatrix()));
  EXPECT_TRUE(blend(a, b, 1.0f).toMatrix().isApprox(b.toMatrix(), 1e-5f));
  const Transform mid = blend(a, bFlipped, 0.5f);
  EXPECT_NEAR(mid.rotation.angularDistance(Quat::Identity()), 0.1f, 1e-5f);
  EXPECT_NEAR(mid.translation.x(), 1.0f, 1e-6f);
}

TEST(Transform, NonFiniteIsDetected) {
  Transform t;
  t.translation.x() = std::numeric_limits<float>::quiet_NaN();
  EXPECT_FALSE(t.isFinite());
}

}  // namespace
}  // namespace articula
