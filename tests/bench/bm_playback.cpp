// Playback costs: sampling a clip into a pose and forward kinematics, per frame.
#include <benchmark/benchmark.h>

#include <string>

#include "core/io/import.h"
#include "core/skeleton/local_to_model.h"

namespace articula {
namespace {

// Loaded on first use, not at registration, so filtering other benchmarks costs nothing.
const Scene* cesiumMan(benchmark::State& state) {
  static const Result<Scene> scene = importScene(std::string(ARTICULA_TEST_DATA_DIR) + "/gltf/CesiumMan/CesiumMan.glb");
  if (!scene) {
    state.SkipWithError(scene.error().c_str());
    return nullptr;
  }
  return &scene.value();
}

// One playback frame at 60 fps after another, looping: the cursor path playback uses.
void BM_SampleClip(benchmark::State& state, const Scene* (*load)(benchmark::State&)) {
  const Scene* loaded = load(state);
  if (loaded == nullptr) return;
  const Scene& scene = *loaded;
  const Clip& clip = scene.clips.front();
  ClipSampler sampler(&clip);
  Pose pose(scene.skeleton.restPose().begin(), scene.skeleton.restPose().end());
  double t = clip.startTime;
  for (auto _ : state) {
    sampler.sample(t, pose);
    benchmark::DoNotOptimize(pose.data());
    t += 1.0 / 60.0;
    if (t > clip.endTime) t = clip.startTime;
  }
  state.SetItemsProcessed(state.iterations());
  state.counters["joints"] = static_cast<double>(scene.skeleton.jointCount());
}
BENCHMARK_CAPTURE(BM_SampleClip, CesiumMan, &cesiumMan);

void BM_LocalToModel(benchmark::State& state, const Scene* (*load)(benchmark::State&)) {
  const Scene* loaded = load(state);
  if (loaded == nullptr) return;
  const Scene& scene = *loaded;
  const Pose pose(scene.skeleton.restPose().begin(), scene.skeleton.restPose().end());
  std::vector<Affine> model(pose.size(), Affine::Identity());
  LocalToModelJob job;
  job.skeleton = &scene.skeleton;
  job.local = pose;
  job.model = model;
  for (auto _ : state) {
    job.run();
    benchmark::DoNotOptimize(model.data());
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(state.iterations());
  state.counters["joints"] = static_cast<double>(scene.skeleton.jointCount());
}
BENCHMARK_CAPTURE(BM_LocalToModel, CesiumMan, &cesiumMan);

}  // namespace
}  // namespace articula
