#include "core/io/frame_rate.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>

namespace articula {
namespace {

// Frame rates tried, smallest first, when the keys of a clip sit on a frame grid.
constexpr std::array<double, 9> kCommonFrameRates = {24, 25, 30, 48, 50, 60, 90, 100, 120};

}  // namespace

double inferFrameRate(std::vector<double> times) {
  std::sort(times.begin(), times.end());
  times.erase(std::unique(times.begin(), times.end(), [](double a, double b) { return b - a < 1e-9; }), times.end());
  if (times.size() < 2) return kDefaultFrameRate;
  auto onGrid = [&times](double rate) {
    return std::all_of(times.begin(), times.end(), [rate](double t) {
      const double frame = t * rate;
      // Key times are floats in the file: allow their rounding, relative to the frame number.
      return std::abs(frame - std::round(frame)) <= 1e-3 + 1e-6 * std::abs(frame);
    });
  };
  for (double rate : kCommonFrameRates) {
    if (onGrid(rate)) return rate;
  }
  const double spacing = times[1] - times[0];
  for (std::size_t k = 2; k < times.size(); ++k) {
    if (std::abs(times[k] - times[k - 1] - spacing) > 1e-6 + 1e-4 * spacing) return kDefaultFrameRate;
  }
  double rate = 1.0 / spacing;
  if (std::abs(rate - std::round(rate)) < 1e-3 * rate) rate = std::round(rate);
  return rate >= 1.0 && rate <= 1000.0 ? rate : kDefaultFrameRate;
}

}  // namespace articula
