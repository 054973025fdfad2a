// Import costs that grow with the file: one track per animated node.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <span>
#include <string>

#include "core/io/import.h"
#include "tools/sibling_nodes.h"

namespace articula {
namespace {

// A glTF with N animated sibling nodes read from memory: creating the clip's N tracks was
// quadratic (Clip::trackFor scanned every track for each new node).
void BM_ImportGltfSiblingNodes(benchmark::State& state) {
  const std::string text = testing_tools::siblingNodesGltf(static_cast<int>(state.range(0)));
  const std::span<const std::uint8_t> bytes(reinterpret_cast<const std::uint8_t*>(text.data()), text.size());
  for (auto _ : state) {
    const Result<Scene> scene = importGltfFromMemory(bytes, ".", "siblings.gltf");
    if (!scene) {
      state.SkipWithError(scene.error().c_str());
      return;
    }
    benchmark::DoNotOptimize(scene->clips.front().tracks.data());
  }
  state.SetItemsProcessed(state.iterations() * state.range(0));
}
BENCHMARK(BM_ImportGltfSiblingNodes)->Arg(1'000)->Arg(10'000)->Arg(30'000)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace articula
