#include <benchmark/benchmark.h>

#include <random>
#include <vector>

#include "core/anim/curve.h"

namespace articula {
namespace {

// Random-access evaluation of a 64-key Bézier curve (auto-clamped handles): the segment
// search is a binary search and every call solves the cubic for its parameter, so this is
// the curve editor's and the scrubbing timeline's cost per channel, not playback's.
void BM_CurveEvaluateBezier(benchmark::State& state) {
  std::mt19937 rng(1234);
  std::uniform_real_distribution<double> value(-1.0, 1.0);
  std::uniform_real_distribution<double> gap(0.02, 0.2);
  std::vector<CurveKey> keys;
  double time = 0.0;
  for (int i = 0; i < 64; ++i) {
    CurveKey key;
    key.time = time;
    key.value = value(rng);
    keys.push_back(key);
    time += gap(rng);
  }
  const Curve curve(std::move(keys));

  constexpr std::size_t kTimeCount = 4096;  // pre-generated so the RNG is not measured
  std::uniform_real_distribution<double> at(curve.startTime(), curve.endTime());
  std::vector<double> times(kTimeCount);
  for (double& t : times) t = at(rng);

  std::size_t i = 0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(curve.evaluate(times[i]));
    i = (i + 1) % kTimeCount;
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_CurveEvaluateBezier);

}  // namespace
}  // namespace articula
