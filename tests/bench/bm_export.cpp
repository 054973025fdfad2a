// Export cost of a long baked clip: BM_ExportGlb/<frames> writes a 24-bone skeleton with a
// key on every frame (rotation on every bone, translation on the root) to a .glb file.
#include <benchmark/benchmark.h>

#include <unistd.h>
#include <cmath>
#include <filesystem>
#include <string>

#include "core/io/gltf_export.h"

namespace articula {
namespace {

constexpr int kBones = 24;
constexpr double kFrameRate = 30.0;

// Four chains of six bones under one root, as a baked mocap clip: Slerp keys on every bone
// and Linear root translation keys, one per frame.
Scene bakedScene(int frames) {
  Scene scene;
  Transform rest;
  rest.translation = Vec3(0.0f, 1.0f, 0.0f);
  scene.skeleton.addJoint("root", kNoParent, rest);
  rest.translation = Vec3(0.0f, 0.1f, 0.0f);
  for (int j = 1; j < kBones; ++j) {
    const int parent = (j - 1) % 6 == 0 ? 0 : j - 1;
    scene.skeleton.addJoint("bone" + std::to_string(j), parent, rest);
  }
  Clip clip;
  clip.name = "baked";
  clip.frameRate = kFrameRate;
  for (int j = 0; j < kBones; ++j) {
    JointTrack& track = clip.trackFor(j);
    std::vector<RotationKey> keys(static_cast<std::size_t>(frames));
    std::vector<CurveKey> x(static_cast<std::size_t>(frames));
    for (int f = 0; f < frames; ++f) {
      const double t = f / kFrameRate;
      RotationKey& key = keys[static_cast<std::size_t>(f)];
      key.time = t;
      key.value = Quat(Eigen::AngleAxisf(static_cast<float>(std::sin(t + j)),
                                         Vec3(1.0f, 0.2f * static_cast<float>(j % 3), 0.0f).normalized()));
      key.interpolation = RotationInterpolation::Slerp;
      x[static_cast<std::size_t>(f)] = CurveKey{t, 1.4 * t, Interpolation::Linear};
    }
    track.rotation.setKeys(std::move(keys));
    if (j == 0) track.translation.z.setKeys(std::move(x));
  }
  clip.updateRange();
  scene.clips.push_back(std::move(clip));
  return scene;
}

void BM_ExportGlb(benchmark::State& state) {
  const Scene scene = bakedScene(static_cast<int>(state.range(0)));
  const std::string path =
      (std::filesystem::temp_directory_path() / ("articula_bm_export_" + std::to_string(::getpid()) + ".glb")).string();
  for (auto _ : state) {
    if (auto error = exportGltf(scene, path)) {
      state.SkipWithError(error->c_str());
      break;
    }
  }
  std::error_code ec;
  state.counters["bytes"] = static_cast<double>(std::filesystem::file_size(path, ec));
  std::filesystem::remove(path, ec);
  state.SetItemsProcessed(state.iterations() * state.range(0));
}
BENCHMARK(BM_ExportGlb)->Arg(6000)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace articula
