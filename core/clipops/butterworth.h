#pragma once
// Zero-phase Butterworth low-pass (the biomechanics standard, Winter's "Biomechanics and Motor
// Control of Human Movement" §3.4): the filter run forward then backward, so nothing lags,
// with its cutoff corrected so the two passes together are 3 dB down at the cutoff asked for.
#include <span>
#include <vector>

namespace articula {

// One second-order section, transposed direct form II, a0 = 1.
struct Biquad {
  double b0 = 1.0, b1 = 0.0, b2 = 0.0;
  double a1 = 0.0, a2 = 0.0;
};

// Highest single-pass order butterworthSections designs.
inline constexpr int kMaxButterworthOrder = 8;

// The sections of an order-`order` low-pass (1..kMaxButterworthOrder; an odd order ends with
// a first-order section, b2 = a2 = 0) whose forward-backward run is 3 dB down at `cutoffHz`
// for samples at `rateHz`. The cutoff must lie strictly between 0 and rateHz / 2.
std::vector<Biquad> butterworthSections(int order, double cutoffHz, double rateHz);

// Frames a forward-backward run needs at least: more than the 3 × (order + 1) samples each
// end is padded with (scipy's filtfilt rule).
inline int butterworthMinimumFrames(int order) { return 3 * (order + 1) + 1; }

// Filters `samples` forward and backward in place. Each end is padded with `padFrames`
// samples mirrored through the end value (odd reflection, at most samples.size() - 1), and
// each section starts in its steady state for the first padded value, so a trend runs on
// through the ends instead of drooping toward zero.
void filtfiltInPlace(const std::vector<Biquad>& sections, int padFrames, std::span<double> samples);

}  // namespace articula
