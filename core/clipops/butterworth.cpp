#include "core/clipops/butterworth.h"

#include <algorithm>
#include <cmath>
#include <numbers>

namespace articula {
namespace {

// Runs one section over `x` in place, its state starting at rest on the constant x[0]
// (DC gain 1: y = x0; z2 = b2 x0 - a2 y; z1 = b1 x0 - a1 y + z2).
void runSection(const Biquad& s, std::vector<double>& x) {
  if (x.empty()) return;
  const double x0 = x.front();
  double z2 = s.b2 * x0 - s.a2 * x0;
  double z1 = s.b1 * x0 - s.a1 * x0 + z2;
  for (double& v : x) {
    const double in = v;
    const double out = s.b0 * in + z1;
    z1 = s.b1 * in - s.a1 * out + z2;
    z2 = s.b2 * in - s.a2 * out;
    v = out;
  }
}

}  // namespace

std::vector<Biquad> butterworthSections(int order, double cutoffHz, double rateHz) {
  // Two passes square the magnitude: |H|^2 = 1 / (1 + (w / wc)^(2 order)) is 1/sqrt(2) where
  // (w / wc)^(2 order) = sqrt(2) - 1, so the single pass is designed at wc = w / C.
  const double correction = std::pow(std::numbers::sqrt2 - 1.0, 1.0 / (2.0 * order));
  // Pre-warped analog cutoff for the bilinear transform s = (z - 1) / (z + 1).
  const double w = std::tan(std::numbers::pi * cutoffHz / rateHz) / correction;
  std::vector<Biquad> sections;
  for (int k = 0; k < order / 2; ++k) {
    // Analog pole pair w·exp(±iθ) in the left half plane: s^2 + a s + b.
    const double theta = std::numbers::pi * (2.0 * k + order + 1) / (2.0 * order);
    const double a = -2.0 * w * std::cos(theta);
    const double b = w * w;
    const double d0 = 1.0 + a + b;
    sections.push_back({b / d0, 2.0 * b / d0, b / d0, (2.0 * b - 2.0) / d0, (1.0 - a + b) / d0});
  }
  if (order % 2 == 1) {
    const double d0 = 1.0 + w;
    sections.push_back({w / d0, w / d0, 0.0, (w - 1.0) / d0, 0.0});
  }
  return sections;
}

void filtfiltInPlace(const std::vector<Biquad>& sections, int padFrames, std::span<double> samples) {
  const int n = static_cast<int>(samples.size());
  if (n < 2) return;
  const int pad = std::clamp(padFrames, 0, n - 1);
  std::vector<double> x;
  x.reserve(static_cast<std::size_t>(n + 2 * pad));
  const double first = samples.front();
  const double last = samples.back();
  for (int k = pad; k >= 1; --k) x.push_back(2.0 * first - samples[static_cast<std::size_t>(k)]);
  x.insert(x.end(), samples.begin(), samples.end());
  for (int k = 1; k <= pad; ++k) x.push_back(2.0 * last - samples[static_cast<std::size_t>(n - 1 - k)]);
  for (const Biquad& s : sections) runSection(s, x);
  std::reverse(x.begin(), x.end());
  for (const Biquad& s : sections) runSection(s, x);
  std::reverse(x.begin(), x.end());
  std::copy(x.begin() + pad, x.begin() + pad + n, samples.begin());
}

}  // namespace articula
