#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <vector>

#include "core/anim/tracks.h"

#include "core/anim/key_builders.h"

namespace articula {
namespace {

Quat axisAngle(float angleRad, const Vec3& axis) { return Quat(Eigen::AngleAxisf(angleRad, axis.normalized())); }

// Same rotation up to sign, within `tolerance` on the quaternion components.
void expectSameRotation(const Quat& a, const Quat& b, float tolerance = 1e-5f) {
  const Quat aligned = a.dot(b) < 0.0f ? Quat(-b.coeffs()) : b;
  EXPECT_NEAR((a.coeffs() - aligned.coeffs()).norm(), 0.0f, tolerance)
      << "got " << a.coeffs().transpose() << " expected " << b.coeffs().transpose();
}

Quat randomRotation(std::mt19937& rng) {
  std::normal_distribution<float> n(0.0f, 1.0f);
  return Quat(n(rng), n(rng), n(rng), n(rng)).normalized();
}

TEST(RotationTrack, EmptyTrackIsIdentity) {
  const RotationTrack track;
  EXPECT_TRUE(track.empty());
  EXPECT_TRUE(track.evaluate(1.0).coeffs().isApprox(Quat::Identity().coeffs()));
  EXPECT_EQ(track.startTime(), 0.0);
  EXPECT_EQ(track.endTime(), 0.0);
}

TEST(RotationTrack, SlerpEndpointsAreExactAndConstantOutside) {
  std::mt19937 rng(1);
  RotationTrack track;
  track.setKeys({rotationKey(0.5, randomRotation(rng), RotationInterpolation::Slerp),
                 rotationKey(1.5, randomRotation(rng), RotationInterpolation::Slerp),
                 rotationKey(2.0, randomRotation(rng), RotationInterpolation::Slerp)});
  for (const RotationKey& key : track.keys()) {
    EXPECT_EQ(track.evaluate(key.time).coeffs(), key.value.coeffs());
  }
  EXPECT_EQ(track.evaluate(-3.0).coeffs(), track.keys().front().value.coeffs());
  EXPECT_EQ(track.evaluate(7.0).coeffs(), track.keys().back().value.coeffs());
  // Approaching a key from inside the segment converges to it.
  expectSameRotation(track.evaluate(1.5 - 1e-7), track.keys()[1].value);
}

TEST(RotationTrack, SlerpIsUniformInAngle) {
  const Quat a = axisAngle(0.2f, Vec3::UnitY());
  const Quat b = axisAngle(1.4f, Vec3::UnitY());
  RotationTrack track;
  track.setKeys({rotationKey(0.0, a, RotationInterpolation::Slerp), rotationKey(2.0, b, RotationInterpolation::Slerp)});
  for (int i = 0; i <= 20; ++i) {
    const double t = 0.1 * i;
    expectSameRotation(track.evaluate(t), axisAngle(0.2f + 1.2f * static_cast<float>(t / 2.0), Vec3::UnitY()));
  }
}

TEST(RotationTrack, SlerpTakesTheShortestArcAcrossTheHemisphereBoundary) {
  const Quat a = axisAngle(0.1f, Vec3::UnitX());
  const Quat b = axisAngle(0.3f, Vec3::UnitX());
  const Quat bNegated(-b.coeffs());  // same rotation, other hemisphere
  RotationTrack track;
  track.setKeys(
      {rotationKey(0.0, a, RotationInterpolation::Slerp), rotationKey(1.0, bNegated, RotationInterpolation::Slerp)});
  // The stored key was moved into its predecessor's hemisphere.
  EXPECT_GT(track.keys()[1].value.dot(track.keys()[0].value), 0.0f);
  for (int i = 0; i <= 10; ++i) {
    const Quat q = track.evaluate(0.1 * i);
    // Never further from either key than the 0.2 rad between them (no 360° spin).
    EXPECT_LE(q.angularDistance(a), 0.2f + 1e-4f);
    EXPECT_LE(q.angularDistance(b), 0.2f + 1e-4f);
    expectSameRotation(q, axisAngle(0.1f + 0.02f * static_cast<float>(i), Vec3::UnitX()));
  }
  // insertKey keeps the hemispheres continuous too.
  track.insertKey(rotationKey(2.0, Quat(-a.coeffs()), RotationInterpolation::Slerp));
  EXPECT_GT(track.keys()[2].value.dot(track.keys()[1].value), 0.0f);
  EXPECT_LE(track.evaluate(1.5).angularDistance(axisAngle(0.2f, Vec3::UnitX())), 1e-4f);
}

TEST(RotationTrack, StepHoldsUntilTheNextKey) {
  const Quat a = axisAngle(0.5f, Vec3::UnitZ());
  const Quat b = axisAngle(-1.0f, Vec3::UnitX());
  RotationTrack track;
  track.setKeys({rotationKey(0.0, a, RotationInterpolation::Step), rotationKey(1.0, b, RotationInterpolation::Step)});
  for (double t : {0.0, 0.3, 0.999999}) EXPECT_EQ(track.evaluate(t).coeffs(), track.keys()[0].value.coeffs());
  EXPECT_EQ(track.evaluate(1.0).coeffs(), track.keys()[1].value.coeffs());
}

TEST(RotationTrack, BezierOnTheSpherePassesThroughItsKeys) {
  std::mt19937 rng(9);
  std::vector<RotationKey> keys;
  for (int i = 0; i < 6; ++i) {
    RotationKey key = rotationKey(0.4 * i, randomRotation(rng), RotationInterpolation::Bezier);
    key.inControl = randomRotation(rng);
    key.outControl = randomRotation(rng);
    keys.push_back(key);
  }
  RotationTrack track;
  track.setKeys(keys);
  for (const RotationKey& key : track.keys()) {
    expectSameRotation(track.evaluate(key.time), key.value, 0.0f);
    expectSameRotation(track.evaluate(key.time + 1e-7), key.value, 1e-4f);
    expectSameRotation(track.evaluate(key.time - 1e-7), key.value, 1e-4f);
  }
  for (int i = 0; i <= 100; ++i) EXPECT_NEAR(track.evaluate(0.02 * i).norm(), 1.0f, 1e-5f);
}

TEST(RotationTrack, BezierWithControlsOnTheGeodesicIsSlerp) {
  const Quat a = axisAngle(0.3f, Vec3(1.0f, 2.0f, 0.5f));
  const Quat b = axisAngle(-1.1f, Vec3(0.0f, 1.0f, 1.0f));
  RotationKey first = rotationKey(0.0, a, RotationInterpolation::Bezier);
  RotationKey second = rotationKey(3.0, b, RotationInterpolation::Bezier);
  first.outControl = a.slerp(1.0f / 3.0f, b);
  second.inControl = a.slerp(2.0f / 3.0f, b);
  RotationTrack track;
  track.setKeys({first, second});
  for (int i = 0; i <= 30; ++i) {
    const double t = 0.1 * i;
    expectSameRotation(track.evaluate(t), a.slerp(static_cast<float>(t / 3.0), b), 2e-5f);
  }
}

// glTF 2.0 Appendix C, written out independently in double.
Eigen::Vector4d gltfCubicSpline(const Eigen::Vector4d& p0, const Eigen::Vector4d& out0, const Eigen::Vector4d& p1,
                                const Eigen::Vector4d& in1, double t0, double t1, double t) {
  const double dt = t1 - t0;
  const double s = (t - t0) / dt;
  const Eigen::Vector4d m0 = dt * out0;
  const Eigen::Vector4d m1 = dt * in1;
  const Eigen::Vector4d p = (2 * s * s * s - 3 * s * s + 1) * p0 + (s * s * s - 2 * s * s + s) * m0 +
                            (-2 * s * s * s + 3 * s * s) * p1 + (s * s * s - s * s) * m1;
  return p.normalized();
}

TEST(RotationTrack, CubicSplineMatchesTheGltfFormulaAtAndBetweenKeys) {
  std::mt19937 rng(21);
  std::normal_distribution<float> tangent(0.0f, 0.8f);
  std::vector<RotationKey> keys;
  for (int i = 0; i < 5; ++i) {
    RotationKey key = rotationKey(0.1 + 0.7 * i, randomRotation(rng), RotationInterpolation::CubicSpline);
    key.inControl = Quat(tangent(rng), tangent(rng), tangent(rng), tangent(rng));
    key.outControl = Quat(tangent(rng), tangent(rng), tangent(rng), tangent(rng));
    keys.push_back(key);
  }
  RotationTrack track;
  track.setKeys(keys);
  // No key was flipped: the tangents are authored against the stored signs.
  for (std::size_t i = 0; i < keys.size(); ++i) {
    EXPECT_NEAR((track.keys()[i].value.coeffs() - keys[i].value.coeffs()).norm(), 0.0f, 1e-6f) << "key " << i;
  }
  for (std::size_t k = 0; k + 1 < keys.size(); ++k) {
    const RotationKey& a = keys[k];
    const RotationKey& b = keys[k + 1];
    for (int i = 0; i <= 20; ++i) {
      const double t = a.time + (b.time - a.time) * i / 20.0;
      const Eigen::Vector4d expected =
          gltfCubicSpline(a.value.coeffs().cast<double>(), a.outControl.coeffs().cast<double>(),
                          b.value.coeffs().cast<double>(), b.inControl.coeffs().cast<double>(), a.time, b.time, t);
      const Quat q = track.evaluate(t);
      EXPECT_NEAR((q.coeffs().cast<double>() - expected).norm(), 0.0, 1e-6) << "segment " << k << " t " << t;
    }
  }
}

TEST(RotationTrack, CubicSplineKeysKeepTheirSign) {
  const Quat a = axisAngle(0.1f, Vec3::UnitX());
  const Quat bNegated(-axisAngle(0.3f, Vec3::UnitX()).coeffs());
  RotationTrack track;
  track.setKeys({rotationKey(0.0, a, RotationInterpolation::CubicSpline),
                 rotationKey(1.0, bNegated, RotationInterpolation::CubicSpline)});
  EXPECT_LT(track.keys()[1].value.dot(track.keys()[0].value), 0.0f);
  // A Slerp key after a CubicSpline key is also left alone (it ends the spline segment),
  // but the key after it is aligned again.
  track.insertKey(rotationKey(2.0, Quat(-bNegated.coeffs()), RotationInterpolation::Slerp));
  track.insertKey(rotationKey(3.0, Quat(-a.coeffs()), RotationInterpolation::Slerp));
  EXPECT_GT(track.keys()[3].value.dot(track.keys()[2].value), 0.0f);
}

TEST(RotationTrack, KeysAreStoredNormalisedAndSorted) {
  RotationTrack track;
  track.setKeys({rotationKey(2.0, Quat(2.0f, 0.0f, 0.0f, 0.0f), RotationInterpolation::Slerp),
                 rotationKey(1.0, Quat(0.0f, 0.0f, 3.0f, 0.0f), RotationInterpolation::Slerp),
                 rotationKey(2.0 + 1e-12, Quat(0.0f, 0.0f, 0.0f, 5.0f), RotationInterpolation::Slerp)});
  ASSERT_EQ(track.size(), 2u);
  EXPECT_EQ(track.startTime(), 1.0);
  EXPECT_NEAR(track.keys()[0].value.norm(), 1.0f, 1e-6f);
  expectSameRotation(track.keys()[1].value, Quat(0.0f, 0.0f, 0.0f, 1.0f), 0.0f);  // last one given wins
  const std::size_t index = track.setKey(1, rotationKey(0.5, Quat::Identity(), RotationInterpolation::Step));
  EXPECT_EQ(index, 0u);
  track.removeKey(0);
  ASSERT_EQ(track.size(), 1u);
  EXPECT_EQ(track.endTime(), 1.0);
}

TEST(RotationTrack, CursorGivesTheSameValuesInAnyOrder) {
  std::mt19937 rng(4);
  std::vector<RotationKey> keys;
  const RotationInterpolation kinds[] = {RotationInterpolation::Slerp, RotationInterpolation::Bezier,
                                         RotationInterpolation::Step, RotationInterpolation::CubicSpline};
  for (int i = 0; i < 24; ++i) {
    RotationKey key = rotationKey(0.3 * i, randomRotation(rng), kinds[i % 4]);
    key.inControl = randomRotation(rng);
    key.outControl = randomRotation(rng);
    keys.push_back(key);
  }
  RotationTrack track;
  track.setKeys(keys);
  std::vector<double> times;
  for (int i = -10; i <= 760; ++i) times.push_back(0.01 * i);
  RotationCursor forward;
  RotationCursor backward;
  for (std::size_t i = 0; i < times.size(); ++i) {
    EXPECT_EQ(track.evaluate(times[i], forward).coeffs(), track.evaluate(times[i]).coeffs());
    const std::size_t j = times.size() - 1 - i;
    EXPECT_EQ(track.evaluate(times[j], backward).coeffs(), track.evaluate(times[j]).coeffs());
  }
}

TEST(Vec3Track, EvaluatesEachComponentWithFallback) {
  Vec3Track track;
  EXPECT_TRUE(track.empty());
  track.x.insertKey(0.0, 1.0, Interpolation::Linear);
  track.x.insertKey(1.0, 3.0, Interpolation::Linear);
  track.z.insertKey(0.0, -2.0, Interpolation::Constant);
  EXPECT_FALSE(track.empty());
  const Vec3 fallback(10.0f, 20.0f, 30.0f);
  const Vec3 v = track.evaluate(0.5, fallback);
  EXPECT_FLOAT_EQ(v.x(), 2.0f);
  EXPECT_FLOAT_EQ(v.y(), 20.0f);
  EXPECT_FLOAT_EQ(v.z(), -2.0f);
  Vec3TrackCursor cursor;
  EXPECT_EQ(track.evaluate(0.25, fallback, cursor), track.evaluate(0.25, fallback));
}

}  // namespace
}  // namespace articula
