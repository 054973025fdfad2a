#include "core/math/euler.h"

#include <array>
#include <cmath>
#include <limits>

namespace articula {

namespace {

// Axis indices (0 = x, 1 = y, 2 = z) in written order, indexed by RotationOrder.
constexpr std::array<std::array<int, 3>, 6> kAxes = {{
    {0, 1, 2},  // XYZ
    {0, 2, 1},  // XZY
    {1, 0, 2},  // YXZ
    {1, 2, 0},  // YZX
    {2, 0, 1},  // ZXY
    {2, 1, 0},  // ZYX
}};
constexpr std::array<std::string_view, 6> kNames = {"XYZ", "XZY", "YXZ", "YZX", "ZXY", "ZYX"};

constexpr double kTwoPi = 6.283185307179586476925;
constexpr double kPiD = 3.141592653589793238463;
// Below this cosine of the middle angle the first and third axes are aligned to double
// precision of a float input: only their sum (or difference) is determined.
constexpr double kGimbalCos = 1e-7;

const std::array<int, 3>& axesOf(RotationOrder order) { return kAxes[static_cast<std::size_t>(order)]; }

// +1 when the written order is a cyclic permutation of xyz (XYZ, YZX, ZXY), else -1. With
// R = R_i(a) R_j(b) R_k(c) it is the sign in R(i,k) = sign * sin(b).
double paritySign(RotationOrder order) {
  const auto& a = axesOf(order);
  return (a[1] == (a[0] + 1) % 3) ? 1.0 : -1.0;
}

Eigen::Matrix3d axisRotation(int axis, double angleRad) {
  return Eigen::AngleAxisd(angleRad, Eigen::Vector3d::Unit(axis)).toRotationMatrix();
}

// `angle` shifted by a multiple of 2π to lie within π of `reference`.
double nearestEquivalent(double angle, double reference) {
  return angle + kTwoPi * std::round((reference - angle) / kTwoPi);
}

}  // namespace

std::string_view toString(RotationOrder order) { return kNames[static_cast<std::size_t>(order)]; }

std::optional<RotationOrder> rotationOrderFromString(std::string_view text) {
  for (std::size_t i = 0; i < kNames.size(); ++i) {
    if (text == kNames[i]) return static_cast<RotationOrder>(i);
  }
  return std::nullopt;
}

Quat eulerToQuat(const Vec3& anglesRad, RotationOrder order) {
  const auto& axes = axesOf(order);
  Quat q = Quat::Identity();
  // Written order: each factor multiplies on the right, so it turns about its axis in the
  // frame already rotated by the previous factors (intrinsic), equal to extrinsic in reverse.
  for (const int axis : axes) q = q * Quat(Eigen::AngleAxisf(anglesRad[axis], Vec3::Unit(axis)));
  return q.normalized();
}

Vec3 quatToEuler(const Quat& q, RotationOrder order, const Vec3* previousRad) {
  const auto& axes = axesOf(order);
  const int i = axes[0];
  const int j = axes[1];
  const int k = axes[2];
  const double s = paritySign(order);
  // Double precision: near gimbal lock the float matrix entries lose the small angles.
  const Eigen::Matrix3d m = q.cast<double>().normalized().toRotationMatrix();

  const double cosMiddle = std::hypot(m(i, i), m(i, j));
  const double middle = std::atan2(s * m(i, k), cosMiddle);
  double first = 0.0;
  double third = 0.0;
  if (cosMiddle > kGimbalCos) {
    first = std::atan2(-s * m(j, k), m(k, k));
    third = std::atan2(-s * m(i, j), m(i, i));
  } else {
    // Gimbal lock: only first ± third is known. Fix the third angle (at zero, or at its
    // previous value so a curve passing through the lock stays smooth) and solve the first
    // from M R_k(third)^T = R_i(first) R_j(middle), whose column j does not depend on middle.
    if (previousRad != nullptr) third = static_cast<double>((*previousRad)[k]);
    const Eigen::Matrix3d unthird = m * axisRotation(k, third).transpose();
    first = std::atan2(s * unthird(k, j), unthird(j, j));
  }

  if (previousRad == nullptr) {
    Vec3 out;
    out[i] = static_cast<float>(first);
    out[j] = static_cast<float>(middle);
    out[k] = static_cast<float>(third);
    return out;
  }

  // Two Euler triples give each rotation: (a, b, c) and (a + π, π - b, c + π). Move each
  // angle of both by multiples of 2π next to the previous frame and keep the closer triple.
  const Eigen::Vector3d prev = previousRad->cast<double>();
  const std::array<Eigen::Vector3d, 2> candidates = {Eigen::Vector3d(first, middle, third),
                                                     Eigen::Vector3d(first + kPiD, kPiD - middle, third + kPiD)};
  const Eigen::Vector3d prevOrdered(prev[i], prev[j], prev[k]);
  Eigen::Vector3d best = candidates[0];
  double bestDistance = std::numeric_limits<double>::max();
  for (const Eigen::Vector3d& c : candidates) {
    Eigen::Vector3d shifted;
    for (int a = 0; a < 3; ++a) shifted[a] = nearestEquivalent(c[a], prevOrdered[a]);
    const double distance = (shifted - prevOrdered).squaredNorm();
    if (distance < bestDistance) {
      bestDistance = distance;
      best = shifted;
    }
  }
  Vec3 out;
  out[i] = static_cast<float>(best[0]);
  out[j] = static_cast<float>(best[1]);
  out[k] = static_cast<float>(best[2]);
  return out;
}

}  // namespace articula
