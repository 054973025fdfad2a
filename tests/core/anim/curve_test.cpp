#include "core/anim/curve.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

namespace articula {
namespace {

// Bernstein form of one coordinate of a cubic Bézier, in long double for the references.
long double bezier1d(long double c0, long double c1, long double c2, long double c3, long double u) {
  const long double w = 1.0L - u;
  return w * w * w * c0 + 3.0L * u * w * w * c1 + 3.0L * u * u * w * c2 + u * u * u * c3;
}

// Brute-force reference: bisection until the bracket stops shrinking, on the Bernstein form
// of x(u) - t (differences taken first, so a segment far from time 0 loses no precision where
// x(u) is flat). Needs x(u) non-decreasing on [0, 1].
long double referenceParameter(double x0, double x1, double x2, double x3, double t) {
  const long double lt = t;
  long double lo = 0.0L;
  long double hi = 1.0L;
  for (int i = 0; i < 200; ++i) {
    const long double mid = 0.5L * (lo + hi);
    if (mid <= lo || mid >= hi) break;
    if (bezier1d(x0 - lt, x1 - lt, x2 - lt, x3 - lt, mid) < 0.0L) {
      lo = mid;
    } else {
      hi = mid;
    }
  }
  return 0.5L * (lo + hi);
}

// Value of a curve segment at time t by brute force from its (clamped) control points.
double referenceValue(const Curve::BezierSegment& seg, double t) {
  const long double u = referenceParameter(seg.p0.x(), seg.p1.x(), seg.p2.x(), seg.p3.x(), t);
  return static_cast<double>(bezier1d(seg.p0.y(), seg.p1.y(), seg.p2.y(), seg.p3.y(), u));
}

CurveKey key(double time, double value, Interpolation interpolation = Interpolation::Bezier,
             HandleType type = HandleType::AutoClamped) {
  CurveKey k;
  k.time = time;
  k.value = value;
  k.interpolation = interpolation;
  k.leftType = type;
  k.rightType = type;
  return k;
}

CurveKey freeKey(double time, double value, Vec2d left, Vec2d right) {
  CurveKey k = key(time, value, Interpolation::Bezier, HandleType::Free);
  k.left = left;
  k.right = right;
  return k;
}

TEST(Curve, EmptyCurveIsZeroEverywhere) {
  const Curve curve;
  EXPECT_TRUE(curve.empty());
  EXPECT_EQ(curve.evaluate(0.0), 0.0);
  EXPECT_EQ(curve.evaluate(12.0), 0.0);
  EXPECT_EQ(curve.startTime(), 0.0);
  EXPECT_EQ(curve.endTime(), 0.0);
  EXPECT_EQ(curve.findSegment(3.0), 0u);
}

TEST(Curve, SingleKeyIsConstant) {
  Curve curve;
  curve.insertKey(1.0, 4.5);
  EXPECT_EQ(curve.evaluate(-10.0), 4.5);
  EXPECT_EQ(curve.evaluate(1.0), 4.5);
  EXPECT_EQ(curve.evaluate(10.0), 4.5);
}

TEST(Curve, ConstantExtrapolationOutsideTheKeys) {
  const Curve curve({key(1.0, 2.0), key(2.0, 5.0), key(3.0, -1.0)});
  EXPECT_EQ(curve.evaluate(0.0), 2.0);
  EXPECT_EQ(curve.evaluate(-1e9), 2.0);
  EXPECT_EQ(curve.evaluate(3.5), -1.0);
  EXPECT_EQ(curve.evaluate(1e9), -1.0);
  EXPECT_EQ(curve.evaluate(std::nan("")), 2.0);
  EXPECT_EQ(curve.startTime(), 1.0);
  EXPECT_EQ(curve.endTime(), 3.0);
}

TEST(Curve, KeyTimesGiveKeyValuesExactly) {
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> value(-10.0, 10.0);
  std::vector<CurveKey> keys;
  const Interpolation kinds[] = {Interpolation::Constant, Interpolation::Linear, Interpolation::Bezier};
  for (int i = 0; i < 30; ++i) keys.push_back(key(0.1 * i, value(rng), kinds[i % 3]));
  const Curve curve(keys);
  for (const CurveKey& k : curve.keys()) EXPECT_EQ(curve.evaluate(k.time), k.value) << "at " << k.time;
}

TEST(Curve, ConstantInterpolationHoldsUntilTheNextKey) {
  const Curve curve({key(0.0, 1.0, Interpolation::Constant), key(1.0, 3.0, Interpolation::Constant),
                     key(2.0, -2.0, Interpolation::Constant)});
  for (double t : {0.0, 0.25, 0.5, 0.999999}) EXPECT_EQ(curve.evaluate(t), 1.0);
  for (double t : {1.0, 1.5, 1.9999999}) EXPECT_EQ(curve.evaluate(t), 3.0);
  EXPECT_EQ(curve.evaluate(2.0), -2.0);
}

TEST(Curve, LinearInterpolationIsExact) {
  const Curve curve({key(0.0, 1.0, Interpolation::Linear), key(2.0, 5.0, Interpolation::Linear),
                     key(3.0, -1.0, Interpolation::Linear)});
  for (int i = 0; i <= 100; ++i) {
    const double t = 0.02 * i;
    EXPECT_NEAR(curve.evaluate(t), 1.0 + 2.0 * t, 1e-14) << "at " << t;
  }
  for (int i = 0; i <= 100; ++i) {
    const double t = 2.0 + 0.01 * i;
    EXPECT_NEAR(curve.evaluate(t), 5.0 - 6.0 * (t - 2.0), 1e-13) << "at " << t;
  }
}

TEST(Curve, InterpolationBelongsToTheKeyLeavingTheSegment) {
  Curve curve({key(0.0, 0.0, Interpolation::Constant), key(1.0, 1.0, Interpolation::Linear), key(2.0, 3.0)});
  EXPECT_EQ(curve.evaluate(0.5), 0.0);
  EXPECT_NEAR(curve.evaluate(1.5), 2.0, 1e-15);
}

TEST(Curve, SetKeysSortsAndMergesKeysAtTheSameTime) {
  Curve curve;
  curve.setKeys({key(2.0, 20.0), key(0.0, 0.0), key(1.0, 10.0), key(1.0 + 1e-12, 11.0)});
  ASSERT_EQ(curve.size(), 3u);
  EXPECT_EQ(curve.keys()[0].time, 0.0);
  EXPECT_EQ(curve.keys()[1].value, 11.0);  // the last key given at that time wins
  EXPECT_EQ(curve.keys()[2].time, 2.0);
}

TEST(Curve, InsertKeyKeepsOrderAndReplacesAKeyAtTheSameTime) {
  Curve curve;
  EXPECT_EQ(curve.insertKey(1.0, 1.0), 0u);
  EXPECT_EQ(curve.insertKey(3.0, 3.0), 1u);
  EXPECT_EQ(curve.insertKey(2.0, 2.0), 1u);
  EXPECT_EQ(curve.insertKey(0.0, 0.0), 0u);
  EXPECT_EQ(curve.insertKey(2.0 + 5e-10, 7.0, Interpolation::Linear), 2u);
  ASSERT_EQ(curve.size(), 4u);
  EXPECT_EQ(curve.keys()[2].time, 2.0);  // the existing key's time is kept
  EXPECT_EQ(curve.keys()[2].value, 7.0);
  EXPECT_EQ(curve.keys()[2].interpolation, Interpolation::Linear);
  for (std::size_t i = 1; i < curve.size(); ++i) EXPECT_LT(curve.keys()[i - 1].time, curve.keys()[i].time);
}

TEST(Curve, RemoveKeyAndOutOfRangeIndicesAreSafe) {
  Curve curve({key(0.0, 0.0), key(1.0, 1.0), key(2.0, 0.0)});
  curve.removeKey(7);
  EXPECT_EQ(curve.size(), 3u);
  EXPECT_EQ(curve.setKey(9, key(5.0, 5.0)), 3u);
  EXPECT_EQ(curve.size(), 3u);
  curve.removeKey(1);
  ASSERT_EQ(curve.size(), 2u);
  EXPECT_EQ(curve.evaluate(1.0), 0.0);  // flat: both remaining keys are 0
}

TEST(Curve, SetKeyMovingInTimeResorts) {
  Curve curve({key(0.0, 0.0), key(1.0, 1.0), key(2.0, 2.0)});
  const std::size_t index = curve.setKey(0, key(3.0, 3.0));
  EXPECT_EQ(index, 2u);
  EXPECT_EQ(curve.keys()[0].time, 1.0);
  EXPECT_EQ(curve.keys()[2].time, 3.0);
  // Landing on another key's time replaces that key.
  EXPECT_EQ(curve.setKey(2, key(2.0, 9.0)), 1u);
  ASSERT_EQ(curve.size(), 2u);
  EXPECT_EQ(curve.keys()[1].value, 9.0);
}

// --- Bézier root solving ------------------------------------------------------------

void expectSolvedLikeReference(double x0, double x1, double x2, double x3, double t) {
  const double u = solveBezierParameter(x0, x1, x2, x3, t);
  const long double reference = referenceParameter(x0, x1, x2, x3, t);
  EXPECT_NEAR(u, static_cast<double>(reference), 1e-9)
      << "x = " << x0 << ", " << x1 << ", " << x2 << ", " << x3 << " t = " << t;
  const double span = x3 - x0;
  EXPECT_NEAR(static_cast<double>(bezier1d(x0, x1, x2, x3, u)), t, 1e-6 * span);
}

TEST(SolveBezierParameter, MatchesBisectionOverRandomMonotoneHandles) {
  std::mt19937 rng(42);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  std::uniform_real_distribution<double> logSpan(-3.0, 1.0);
  std::uniform_real_distribution<double> offset(-100.0, 100.0);
  for (int trial = 0; trial < 2000; ++trial) {
    const double x0 = offset(rng);
    const double span = std::pow(10.0, logSpan(rng));
    // Handle lengths as fractions of the span, p + q <= 1 (the monotone family); every
    // fourth case pins a handle to its key (flat or steep at that end).
    double p = unit(rng);
    double q = unit(rng) * (1.0 - p);
    if (trial % 4 == 1) p = 0.0;
    if (trial % 4 == 2) q = 0.0;
    if (trial % 8 == 3) p = q = 0.0;
    const double x3 = x0 + span;
    const double x1 = x0 + p * span;
    const double x2 = x3 - q * span;
    for (double s : {unit(rng), unit(rng), 1e-12 * unit(rng), 1.0 - 1e-12 * unit(rng), 0.5}) {
      expectSolvedLikeReference(x0, x1, x2, x3, x0 + s * span);
    }
  }
}

TEST(SolveBezierParameter, DegenerateShapes) {
  const double cases[][4] = {
      {0.0, 0.0, 1.0, 1.0},                    // both handles on their keys: slow at both ends
      {0.0, 1.0, 1.0, 1.0},                    // both handles at the end time: x = 1 - (1 - u)^3
      {0.0, 0.0, 0.0, 1.0},                    // both handles at the start time: x = u^3
      {0.0, 1.0 / 3.0, 2.0 / 3.0, 1.0},        // exactly linear
      {0.0, 0.5, 0.5, 1.0},                    // handles meeting in the middle
      {0.0, 0.3333333333, 0.6666666667, 1.0},  // nearly linear
  };
  for (const auto& c : cases) {
    for (int i = 0; i <= 1000; ++i) expectSolvedLikeReference(c[0], c[1], c[2], c[3], i / 1000.0);
    for (double t : {1e-300, 1e-30, 1e-15, 1e-9, 1.0 - 1e-9, 1.0 - 1e-15}) {
      expectSolvedLikeReference(c[0], c[1], c[2], c[3], t);
    }
  }
}

TEST(SolveBezierParameter, ClampsOutsideTimesAndBadInput) {
  EXPECT_EQ(solveBezierParameter(0.0, 0.3, 0.6, 1.0, -1.0), 0.0);
  EXPECT_EQ(solveBezierParameter(0.0, 0.3, 0.6, 1.0, 2.0), 1.0);
  EXPECT_EQ(solveBezierParameter(1.0, 1.0, 1.0, 1.0, 1.0), 0.0);  // zero-length segment
  // Handles crossing each other (non-monotone as given) are clamped first: still one root,
  // and x(u) = t holds for the clamped shape x1 = x2 = 0.5.
  const double u = solveBezierParameter(0.0, 2.0, -1.0, 1.0, 0.3);
  EXPECT_NEAR(static_cast<double>(bezier1d(0.0, 0.5, 0.5, 1.0, u)), 0.3, 1e-12);
}

// --- Curve evaluation against brute force ------------------------------------------

TEST(Curve, BezierEvaluationMatchesBruteForceIncludingFlatAndSteepSegments) {
  std::mt19937 rng(3);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  std::uniform_real_distribution<double> value(-5.0, 5.0);
  for (int trial = 0; trial < 200; ++trial) {
    std::vector<CurveKey> keys;
    double time = value(rng);
    for (int i = 0; i < 6; ++i) {
      time += 0.01 + unit(rng);
      const double v = value(rng) * (trial % 3 == 0 ? 1000.0 : 1.0);  // steep segments
      // Free handles with random lengths in time; every third trial puts them on the key's
      // time (vertical tangents), the others give random slopes.
      const double reachLeft = trial % 3 == 1 ? 0.0 : unit(rng);
      const double reachRight = trial % 3 == 1 ? 0.0 : unit(rng);
      keys.push_back(
          freeKey(time, v, {time - reachLeft, v + value(rng) * 10.0}, {time + reachRight, v + value(rng) * 10.0}));
    }
    const Curve curve(keys);
    for (std::size_t s = 0; s + 1 < curve.size(); ++s) {
      const Curve::BezierSegment seg = curve.bezierSegment(s);
      const double scale =
          1.0 + std::abs(seg.p0.y()) + std::abs(seg.p1.y()) + std::abs(seg.p2.y()) + std::abs(seg.p3.y());
      for (int i = 1; i < 50; ++i) {
        const double t = seg.p0.x() + (seg.p3.x() - seg.p0.x()) * i / 50.0;
        EXPECT_NEAR(curve.evaluate(t), referenceValue(seg, t), 1e-9 * scale) << "trial " << trial << " segment " << s;
      }
    }
  }
}

TEST(Curve, AbsurdHandlesStillGiveAFunctionOfTime) {
  // Right handle far past the next key and left handle far before the previous key; a
  // handle pointing the wrong way in time too.
  const Curve curve({freeKey(0.0, 0.0, {-1.0, 0.0}, {10.0, 50.0}), freeKey(1.0, 1.0, {-9.0, -40.0}, {0.5, 3.0}),
                     freeKey(2.0, 0.0, {2.5, 7.0}, {3.0, 0.0})});
  for (std::size_t s = 0; s + 1 < curve.size(); ++s) {
    const Curve::BezierSegment seg = curve.bezierSegment(s);
    EXPECT_GE(seg.p1.x(), seg.p0.x());
    EXPECT_LE(seg.p2.x(), seg.p3.x());
    EXPECT_LE((seg.p1.x() - seg.p0.x()) + (seg.p3.x() - seg.p2.x()), (seg.p3.x() - seg.p0.x()) * (1.0 + 1e-12));
    // x(u) is non-decreasing, so the curve is a function of time ...
    double previous = seg.p0.x();
    for (int i = 1; i <= 1000; ++i) {
      const double x = static_cast<double>(bezier1d(seg.p0.x(), seg.p1.x(), seg.p2.x(), seg.p3.x(), i / 1000.0));
      EXPECT_GE(x, previous - 1e-12);
      previous = x;
    }
    // ... and evaluation is the point of that curve at the time asked for.
    for (int i = 1; i < 100; ++i) {
      const double t = seg.p0.x() + (seg.p3.x() - seg.p0.x()) * i / 100.0;
      EXPECT_NEAR(curve.evaluate(t), referenceValue(seg, t), 1e-9);
    }
  }
  // Clamping scales toward the key and keeps the handle's direction (slope 5).
  const Curve::BezierSegment first = curve.bezierSegment(0);
  EXPECT_NEAR((first.p1.y() - first.p0.y()) / (first.p1.x() - first.p0.x()), 5.0, 1e-12);
  // The stored Free handles are untouched: only evaluation clamps them.
  EXPECT_EQ(curve.keys()[0].right, Vec2d(10.0, 50.0));
  // A handle pointing backwards collapses onto its key.
  EXPECT_EQ(curve.bezierSegment(1).p1, Vec2d(1.0, 1.0));
}

// --- Handle types ----------------------------------------------------------------

TEST(Curve, AutoClampedNeverOvershoots) {
  std::mt19937 rng(11);
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  std::uniform_real_distribution<double> value(-10.0, 10.0);
  for (int trial = 0; trial < 300; ++trial) {
    std::vector<CurveKey> keys;
    double time = 0.0;
    const int count = 2 + trial % 12;
    for (int i = 0; i < count; ++i) {
      // Mixed tiny and large gaps stress the ratio between neighbouring slopes.
      time += trial % 2 == 0 ? 0.001 + unit(rng) : std::pow(10.0, -3.0 + 4.0 * unit(rng));
      keys.push_back(key(time, trial % 5 == 0 ? std::round(value(rng) / 5.0) : value(rng)));
    }
    const Curve curve(keys);
    for (std::size_t s = 0; s + 1 < curve.size(); ++s) {
      const CurveKey& a = curve.keys()[s];
      const CurveKey& b = curve.keys()[s + 1];
      const double lo = std::min(a.value, b.value);
      const double hi = std::max(a.value, b.value);
      const double tolerance = 1e-12 * (1.0 + std::abs(lo) + std::abs(hi));
      for (int i = 0; i <= 200; ++i) {
        const double v = curve.evaluate(a.time + (b.time - a.time) * i / 200.0);
        EXPECT_GE(v, lo - tolerance) << "trial " << trial << " segment " << s;
        EXPECT_LE(v, hi + tolerance) << "trial " << trial << " segment " << s;
      }
    }
  }
}

TEST(Curve, AutoClampedIsFlatAtExtremaAndEnds) {
  const Curve curve({key(0.0, 0.0), key(1.0, 2.0), key(2.0, 1.0), key(3.0, 1.5), key(4.0, 3.0)});
  const auto& keys = curve.keys();
  for (std::size_t i : {0u, 1u, 2u, 4u}) {  // ends, a maximum, a minimum
    EXPECT_EQ(keys[i].left.y(), keys[i].value) << "key " << i;
    EXPECT_EQ(keys[i].right.y(), keys[i].value) << "key " << i;
  }
  // Key 3 lies on a rise: sloped, both handles a third of their interval away in time.
  EXPECT_GT(keys[3].right.y(), keys[3].value);
  EXPECT_NEAR(keys[3].right.x() - keys[3].time, 1.0 / 3.0, 1e-15);
  EXPECT_NEAR(keys[3].time - keys[3].left.x(), 1.0 / 3.0, 1e-15);
}

TEST(Curve, AutoHandlesUseTheMeanOfNeighbouringSlopesAndExtrapolateAtTheEnds) {
  const Curve curve({key(0.0, 0.0, Interpolation::Bezier, HandleType::Auto),
                     key(1.0, 1.0, Interpolation::Bezier, HandleType::Auto),
                     key(3.0, 5.0, Interpolation::Bezier, HandleType::Auto)});
  const auto& keys = curve.keys();
  // Middle key: secant slopes 1 and 2, mean 1.5; handles reach a third of each interval.
  EXPECT_NEAR(keys[1].left.x(), 1.0 - 1.0 / 3.0, 1e-15);
  EXPECT_NEAR(keys[1].right.x(), 1.0 + 2.0 / 3.0, 1e-15);
  EXPECT_NEAR((keys[1].right.y() - keys[1].value) / (keys[1].right.x() - keys[1].time), 1.5, 1e-12);
  EXPECT_NEAR((keys[1].left.y() - keys[1].value) / (keys[1].left.x() - keys[1].time), 1.5, 1e-12);
  // Ends point along their only segment (not flat, unlike AutoClamped).
  EXPECT_NEAR((keys[0].right.y() - keys[0].value) / (keys[0].right.x() - keys[0].time), 1.0, 1e-12);
  EXPECT_NEAR((keys[2].left.y() - keys[2].value) / (keys[2].left.x() - keys[2].time), 2.0, 1e-12);
}

TEST(Curve, VectorHandlesPointAThirdOfTheWayToTheNeighbours) {
  const Curve curve({key(0.0, 0.0, Interpolation::Bezier, HandleType::Vector),
                     key(3.0, 6.0, Interpolation::Bezier, HandleType::Vector),
                     key(6.0, 0.0, Interpolation::Bezier, HandleType::Vector)});
  const auto& keys = curve.keys();
  EXPECT_NEAR((keys[1].left - Vec2d(2.0, 4.0)).norm(), 0.0, 1e-14);
  EXPECT_NEAR((keys[1].right - Vec2d(4.0, 4.0)).norm(), 0.0, 1e-14);
  EXPECT_NEAR((keys[0].right - Vec2d(1.0, 2.0)).norm(), 0.0, 1e-14);
  // Vector handles on both sides of a segment make it a straight line.
  for (int i = 0; i <= 30; ++i) EXPECT_NEAR(curve.evaluate(0.1 * i), 2.0 * 0.1 * i, 1e-9);
}

TEST(Curve, AlignedHandlesStayCollinearAndKeepTheirLength) {
  CurveKey middle = key(1.0, 1.0, Interpolation::Bezier, HandleType::Aligned);
  middle.left = {0.5, 1.0};   // length 0.5, pointing back along time
  middle.right = {1.3, 1.4};  // length 0.5, not collinear with the left one
  Curve curve({key(0.0, 0.0), middle, key(2.0, 0.0)});
  const CurveKey& k = curve.keys()[1];
  const Vec2d point(k.time, k.value);
  // Right follows left: same length, opposite direction.
  EXPECT_NEAR((k.right - point).norm(), 0.5, 1e-12);
  EXPECT_NEAR((k.right - Vec2d(1.5, 1.0)).norm(), 0.0, 1e-12);

  // Dragging the right handle through setKey makes it lead.
  CurveKey dragged = k;
  dragged.right = {1.3, 1.4};
  curve.setKey(1, dragged);
  const CurveKey& after = curve.keys()[1];
  EXPECT_NEAR((after.right - Vec2d(1.3, 1.4)).norm(), 0.0, 1e-12);
  EXPECT_NEAR((after.left - point).norm(), 0.5, 1e-12);
  const Vec2d l = (after.left - point).normalized();
  const Vec2d r = (after.right - point).normalized();
  EXPECT_NEAR(l.dot(r), -1.0, 1e-12);

  // Aligned opposite an automatic handle follows it.
  CurveKey mixed = key(1.0, 1.0);
  mixed.leftType = HandleType::Aligned;
  mixed.rightType = HandleType::Vector;
  mixed.left = {0.0, 1.0};  // length 1
  const Curve mixedCurve({key(0.0, 0.0), mixed, key(2.0, 3.0)});
  const CurveKey& m = mixedCurve.keys()[1];
  EXPECT_NEAR((m.left - Vec2d(1.0, 1.0)).norm(), 1.0, 1e-12);
  EXPECT_NEAR((m.left - Vec2d(1.0, 1.0)).normalized().dot((m.right - Vec2d(1.0, 1.0)).normalized()), -1.0, 1e-12);
}

TEST(Curve, FreeHandlesAreKeptAsAuthored) {
  const Curve curve({freeKey(0.0, 0.0, {-0.2, 3.0}, {0.4, -1.0}), freeKey(1.0, 1.0, {0.9, 8.0}, {1.2, 1.0})});
  EXPECT_EQ(curve.keys()[0].left, Vec2d(-0.2, 3.0));
  EXPECT_EQ(curve.keys()[0].right, Vec2d(0.4, -1.0));
  EXPECT_EQ(curve.keys()[1].left, Vec2d(0.9, 8.0));
}

// --- Cursors ---------------------------------------------------------------------------

TEST(Curve, CursorGivesTheSameValuesForwardsBackwardsAndAtRandom) {
  std::mt19937 rng(5);
  std::uniform_real_distribution<double> value(-3.0, 3.0);
  std::vector<CurveKey> keys;
  const Interpolation kinds[] = {Interpolation::Bezier, Interpolation::Linear, Interpolation::Constant};
  for (int i = 0; i < 40; ++i) keys.push_back(key(0.25 * i + 0.01 * value(rng), value(rng), kinds[i % 3]));
  const Curve curve(keys);
  std::vector<double> times;
  for (int i = -20; i <= 1100; ++i) times.push_back(0.01 * i);
  std::vector<double> expected;
  for (double t : times) expected.push_back(curve.evaluate(t));

  CurveCursor forward;
  for (std::size_t i = 0; i < times.size(); ++i) EXPECT_EQ(curve.evaluate(times[i], forward), expected[i]);
  CurveCursor backward;
  for (std::size_t i = times.size(); i-- > 0;) EXPECT_EQ(curve.evaluate(times[i], backward), expected[i]);
  CurveCursor random;
  std::uniform_int_distribution<std::size_t> pick(0, times.size() - 1);
  for (int n = 0; n < 2000; ++n) {
    const std::size_t i = pick(rng);
    EXPECT_EQ(curve.evaluate(times[i], random), expected[i]);
  }
}

TEST(Curve, FindSegmentAtKeyTimesAndOutside) {
  const Curve curve({key(0.0, 0.0), key(1.0, 0.0), key(2.0, 0.0), key(3.0, 0.0)});
  CurveCursor cursor;
  EXPECT_EQ(curve.findSegment(-1.0, &cursor), 0u);
  EXPECT_EQ(curve.findSegment(0.0, &cursor), 0u);
  EXPECT_EQ(curve.findSegment(1.0, &cursor), 1u);
  EXPECT_EQ(cursor.segment, 1u);
  EXPECT_EQ(curve.findSegment(2.5, &cursor), 2u);
  EXPECT_EQ(curve.findSegment(3.0, &cursor), 2u);
  EXPECT_EQ(curve.findSegment(99.0, &cursor), 2u);
  EXPECT_EQ(curve.findSegment(0.5, &cursor), 0u);
  cursor.segment = 1000;  // a stale cursor from a longer curve is harmless
  EXPECT_EQ(curve.findSegment(1.5, &cursor), 1u);
}

}  // namespace
}  // namespace articula
