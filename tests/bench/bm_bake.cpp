// Bake cost per frame: the mannequin's humanoid rig (grounding on a plane) baked over the
// walk looped to N frames, single thread, key reduction included. items_per_second is
// frames per second.
//
// BM_BakeExportSize/<clip>: a clip of tests/data resampled (no rig) and reduced at the
// default tolerance (1 mm at 1.75 m), written as .glb; counters give its keys and bytes
// against a per-frame bake of the same clip, and the reduction's largest error in mm; the
// *_fewest_bytes counters the same bake fitted for the fewest bytes instead of keys;
// bytes_meshopt the reduced bake written with --compress meshopt (the same keys, lossless).
// gltfpack_bytes, where measured, is gltfpack 1.3's file of the per-frame export at
// `-af 120 -cc` (npm gltfpack, issue 36: 12-bit rotations, up to 145 mm off at 1.75 m).
//
// BM_BakeManyStillNodes/N: CesiumMan with N empty nodes beside it (the shape of issue 38's
// hostile file) baked through its humanoid rig, key-reduced and written, as `articula-cli bake`
// does after the import: linear in N, and N still nodes cost no FK per frame.
//
// BM_BakeLongTake: CMU 02_01 repeated in memory to 68,800 frames (9.5 min at 120 fps), baked
// and written; slow, so registered only when ARTICULA_BENCH_LONG_TAKE=1 is set:
//   ARTICULA_BENCH_LONG_TAKE=1 articula-bench --benchmark_filter=BM_BakeLongTake
// Its peak_rss_mb counter is the process's peak resident memory (run it alone); it includes
// the per-frame bake and file made for the comparison, so the bake's own peak is lower
// (/usr/bin/time -v articula-cli bake on the same take measures it).
#include <benchmark/benchmark.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "core/bake/bake_pipeline.h"
#include "core/bake/rig_corrector.h"
#include "core/io/gltf_export.h"
#include "core/io/import.h"
#include "core/rig/humanoid_rig.h"
#include "core/samples/mannequin.h"

namespace articula {
namespace {

std::vector<CurveKey> loopKeys(const std::vector<CurveKey>& keys, double period, int cycles) {
  std::vector<CurveKey> out;
  for (int c = 0; c < cycles; ++c) {
    for (CurveKey key : keys) {
      const double shift = c * period;
      key.time += shift;
      key.left.x() += shift;
      key.right.x() += shift;
      out.push_back(key);
    }
  }
  return out;
}

// A clip repeated until it spans `frames` frames (each cycle starts where the last ended).
Clip loopedClip(const Clip& walk, int frames) {
  const double period = walk.endTime - walk.startTime;
  const int cycles = static_cast<int>(std::ceil((frames - 1) / (period * walk.frameRate))) + 1;
  Clip clip = walk;
  auto loopCurve = [&](Curve& curve) { curve.setKeys(loopKeys(curve.keys(), period, cycles)); };
  for (JointTrack& track : clip.tracks) {
    for (Curve* curve : {&track.translation.x, &track.translation.y, &track.translation.z, &track.scale.x,
                         &track.scale.y, &track.scale.z})
      loopCurve(*curve);
    std::vector<RotationKey> keys;
    for (int c = 0; c < cycles; ++c) {
      for (RotationKey key : track.rotation.keys()) {
        key.time += c * period;
        keys.push_back(key);
      }
    }
    track.rotation.setKeys(std::move(keys));
  }
  for (auto& [name, curve] : clip.curves) loopCurve(curve);
  clip.endTime = clip.startTime + (frames - 1) / clip.frameRate;
  return clip;
}

void BM_BakeHumanoid(benchmark::State& state) {
  const auto frames = static_cast<int>(state.range(0));
  const Scene scene = makeMannequin();
  const Skeleton& skeleton = scene.skeleton;
  const Clip clip = loopedClip(scene.clips.front(), frames);
  auto definition = buildHumanoidRig(skeleton);
  if (!definition) {
    state.SkipWithError(definition.error().c_str());
    return;
  }
  auto rig = Rig::bind(skeleton, *definition);
  if (!rig) {
    state.SkipWithError(rig.error().c_str());
    return;
  }
  rig->setGround(*Ground::plane(Vec3::Zero(), Vec3::UnitY()));
  RigPoseCorrector corrector(*rig);
  BakeJob job;
  job.skeleton = &skeleton;
  job.source = &clip;
  job.corrector = &corrector;
  job.options.reduction.toleranceModel = kDefaultToleranceOfHeight * scene.characterHeight();
  Clip baked;
  job.output = &baked;
  if (auto error = job.validate()) {
    state.SkipWithError(error->c_str());
    return;
  }
  if (clip.frameCount() != frames) {
    state.SkipWithError("the looped walk does not have the frames asked for");
    return;
  }
  BakeReport report;
  for (auto _ : state) {
    auto result = job.run();
    benchmark::DoNotOptimize(baked.tracks.data());
    if (!result) {
      state.SkipWithError(result.error().c_str());
      return;
    }
    report = std::move(*result);
  }
  state.counters["keys_after"] = static_cast<double>(report.reduction.keysAfter);
  state.counters["max_error_mm"] = 1000.0 * report.reduction.maxDeviationModel;
  state.SetItemsProcessed(state.iterations() * frames);
}
BENCHMARK(BM_BakeHumanoid)->Arg(60)->Arg(6000)->Arg(60000)->Unit(benchmark::kMillisecond);

std::string dataPath(const std::string& relative) { return std::string(ARTICULA_TEST_DATA_DIR) + "/" + relative; }

std::string tempGlb(const std::string& name) {
  return (std::filesystem::temp_directory_path() /
          ("articula_bench_" + name + "_" + std::to_string(::getpid()) + ".glb"))
      .string();
}

// Keys (as glTF stores them) and bytes of `clip` written alone with `scene` to `path`.
struct Written {
  double keys = 0.0;
  double bytes = 0.0;
};

Result<Written> writeClip(const Scene& scene, const Clip& clip, const std::string& path,
                          GltfCompression compression = GltfCompression::None) {
  Scene copy = scene;
  copy.clips.assign(1, clip);
  GltfExportOptions options;
  options.compression = compression;
  if (auto error = exportGltf(copy, path, options)) return makeError(*error);
  Written written{static_cast<double>(channelKeyCount(clip)), static_cast<double>(std::filesystem::file_size(path))};
  std::filesystem::remove(path);
  return written;
}

// Bakes `clip` of `scene` (no rig: the clip as it plays) reduced at the default tolerance, or
// one key per frame.
Result<BakeReport> bakeClip(const Scene& scene, const Clip& clip, bool reduce, Clip& baked, bool fewestBytes = false) {
  BakeJob job;
  job.skeleton = &scene.skeleton;
  job.source = &clip;
  job.output = &baked;
  job.options.reduce = reduce;
  job.options.reduction.fewestBytes = fewestBytes;
  job.options.reduction.toleranceModel = kDefaultToleranceOfHeight * scene.characterHeight();
  return job.run();
}

double peakResidentMb() {
  rusage usage{};
  ::getrusage(RUSAGE_SELF, &usage);
  return static_cast<double>(usage.ru_maxrss) / 1024.0;  // kilobytes on Linux
}

// Bakes and writes `clip` every iteration; reports the reduced file against the per-frame one.
void bakeAndCompare(benchmark::State& state, const Scene& scene, const Clip& clip, const std::string& name,
                    double gltfpackBytes) {
  const std::string path = tempGlb(name);
  Written reduced;
  BakeReport report;
  Clip baked;
  for (auto _ : state) {
    auto result = bakeClip(scene, clip, true, baked);
    if (!result) {
      state.SkipWithError(result.error().c_str());
      return;
    }
    auto written = writeClip(scene, baked, path);
    if (!written) {
      state.SkipWithError(written.error().c_str());
      return;
    }
    reduced = *written;
    report = std::move(*result);
  }
  Clip dense;
  auto denseReport = bakeClip(scene, clip, false, dense);
  auto perFrame = denseReport ? writeClip(scene, dense, path) : makeError(denseReport.error());
  if (!perFrame) {
    state.SkipWithError(perFrame.error().c_str());
    return;
  }
  // The same bake fitted for the fewest bytes (BakeOptions::reduction.fewestBytes).
  Clip small;
  auto smallReport = bakeClip(scene, clip, true, small, true);
  auto smallWritten = smallReport ? writeClip(scene, small, path) : makeError(smallReport.error());
  if (!smallWritten) {
    state.SkipWithError(smallWritten.error().c_str());
    return;
  }
  auto meshopt = writeClip(scene, baked, path, GltfCompression::Meshopt);
  if (!meshopt) {
    state.SkipWithError(meshopt.error().c_str());
    return;
  }
  state.counters["bytes_meshopt"] = meshopt->bytes;
  if (gltfpackBytes > 0.0) state.counters["gltfpack_bytes"] = gltfpackBytes;
  state.counters["keys_fewest_bytes"] = smallWritten->keys;
  state.counters["bytes_fewest_bytes"] = smallWritten->bytes;
  state.counters["byte_ratio_fewest_bytes"] = perFrame->bytes / std::max(smallWritten->bytes, 1.0);
  state.counters["keys"] = reduced.keys;
  state.counters["keys_per_frame"] = perFrame->keys;
  state.counters["key_ratio"] = perFrame->keys / std::max(reduced.keys, 1.0);
  state.counters["bytes"] = reduced.bytes;
  state.counters["bytes_per_frame"] = perFrame->bytes;
  state.counters["byte_ratio"] = perFrame->bytes / std::max(reduced.bytes, 1.0);
  state.counters["max_error_mm"] =
      report.reduction.maxDeviationModel * kReferenceHeightMm / std::max(scene.characterHeight(), 1e-6f);
  state.counters["peak_rss_mb"] = peakResidentMb();
  state.SetItemsProcessed(state.iterations() * clip.frameCount());
}

void BM_BakeManyStillNodes(benchmark::State& state) {
  auto scene = importScene(dataPath("gltf/CesiumMan/CesiumMan.glb"));
  if (!scene) {
    state.SkipWithError(scene.error().c_str());
    return;
  }
  for (int i = 0; i < state.range(0); ++i)
    scene->skeleton.addJoint("still" + std::to_string(i), kNoParent, Transform{}, NodeKind::Transform);
  auto rig = buildHumanoidRig(scene->skeleton);
  if (!rig) {
    state.SkipWithError(rig.error().c_str());
    return;
  }
  BakePipelineOptions options;
  options.bake.reduction.toleranceModel = kDefaultToleranceOfHeight * scene->characterHeight();
  const std::string path = tempGlb("still_nodes");
  for (auto _ : state) {
    auto baked = bakeThroughRig(*scene, scene->clips.front(), *rig, options);
    auto written = baked ? writeClip(*scene, baked->clip, path) : makeError(baked.error());
    if (!written) {
      state.SkipWithError(written.error().c_str());
      return;
    }
    state.counters["bytes"] = written->bytes;
  }
  state.counters["peak_rss_mb"] = peakResidentMb();
}
BENCHMARK(BM_BakeManyStillNodes)->Arg(0)->Arg(100'000)->Arg(1'000'000)->Iterations(1)->Unit(benchmark::kMillisecond);

// `clipName` empty: the file's first clip. `gltfpackBytes`: 0 where not measured.
void BM_BakeExportSize(benchmark::State& state, const std::string& file, const std::string& clipName,
                       double gltfpackBytes = 0.0) {
  auto scene = importScene(dataPath(file));
  if (!scene) {
    state.SkipWithError(scene.error().c_str());
    return;
  }
  const auto clip = std::find_if(scene->clips.begin(), scene->clips.end(),
                                 [&](const Clip& c) { return clipName.empty() || c.name == clipName; });
  if (clip == scene->clips.end()) {
    state.SkipWithError(("no clip '" + clipName + "' in " + file).c_str());
    return;
  }
  bakeAndCompare(state, *scene, *clip, clip->name, gltfpackBytes);
}
BENCHMARK_CAPTURE(BM_BakeExportSize, cmu_02_01_walk, std::string("bvh/cmu-mb-2010/02_01.bvh"), std::string(),
                  29192.0)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_BakeExportSize, cmu_01_01, std::string("bvh/cmu-mb-2008/01_01.bvh"), std::string())
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_BakeExportSize, cmu_02_03_run, std::string("bvh/cmu-mb-2010/02_03.bvh"), std::string())
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_BakeExportSize, cmu_09_11_run, std::string("bvh/cmu-mb-2010/09_11.bvh"), std::string())
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_BakeExportSize, makehuman_walk1, std::string("bvh/makehuman/walk1.bvh"), std::string())
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_BakeExportSize, robot_walking, std::string("gltf/RobotExpressive/RobotExpressive.glb"),
                  std::string("Walking"))
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_BakeExportSize, robot_running, std::string("gltf/RobotExpressive/RobotExpressive.glb"),
                  std::string("Running"))
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_BakeExportSize, robot_idle, std::string("gltf/RobotExpressive/RobotExpressive.glb"),
                  std::string("Idle"))
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_BakeExportSize, robot_dance, std::string("gltf/RobotExpressive/RobotExpressive.glb"),
                  std::string("Dance"))
    ->Unit(benchmark::kMillisecond);

constexpr int kLongTakeFrames = 68800;

void BM_BakeLongTake(benchmark::State& state) {
  auto scene = importScene(dataPath("bvh/cmu-mb-2010/02_01.bvh"));
  if (!scene) {
    state.SkipWithError(scene.error().c_str());
    return;
  }
  const Clip take = loopedClip(scene->clips.front(), kLongTakeFrames);
  scene->clips.clear();  // only the take stays in memory
  bakeAndCompare(state, *scene, take, "long_take", 0.0);
}

[[maybe_unused]] const bool kLongTakeRegistered = [] {
  const char* wanted = std::getenv("ARTICULA_BENCH_LONG_TAKE");
  if (wanted != nullptr && std::string(wanted) == "1") {
    benchmark::RegisterBenchmark("BM_BakeLongTake", BM_BakeLongTake)->Unit(benchmark::kSecond)->Iterations(1);
  }
  return true;
}();

// Bake cost of a long chain: N joints in a line, the root turning over 60 frames, a two-bone
// handle on the first three joints holding a fixed target, so that every frame's FK below the
// handle spans the whole chain. Linear in N: items_per_second is joints × frames per second.
void BM_BakeLongChain(benchmark::State& state) {
  const auto joints = static_cast<int>(state.range(0));
  constexpr int kFrames = 60;
  Skeleton skeleton;
  Transform step;
  step.translation = Vec3(0.0f, 0.1f, 0.0f);
  for (int j = 0; j < joints; ++j) skeleton.addJoint("joint" + std::to_string(j), j - 1, step);
  Clip clip;
  clip.endTime = (kFrames - 1) / clip.frameRate;
  JointTrack& track = clip.tracks.emplace_back();
  track.joint = 0;
  track.rotation.setKeys({{0.0, Quat::Identity()}, {clip.endTime, Quat(Eigen::AngleAxisf(0.5f, Vec3::UnitZ()))}});
  IkHandle leg;
  leg.name = "leg";
  leg.solver = IkSolverKind::TwoBone;
  leg.chain = {0, 1, 2};
  leg.targetModel = Vec3(0.05f, 0.15f, 0.05f);
  RigDefinition definition;
  definition.handles.push_back(leg);
  auto rig = Rig::bind(skeleton, definition);
  if (!rig) {
    state.SkipWithError(rig.error().c_str());
    return;
  }
  RigPoseCorrector corrector(*rig);
  BakeJob job;
  job.skeleton = &skeleton;
  job.source = &clip;
  job.corrector = &corrector;
  job.options.joints = {0, 1, 2};
  Clip baked;
  job.output = &baked;
  if (auto error = job.validate()) {
    state.SkipWithError(error->c_str());
    return;
  }
  for (auto _ : state) {
    auto result = job.run();
    benchmark::DoNotOptimize(baked.tracks.data());
    if (!result) {
      state.SkipWithError(result.error().c_str());
      return;
    }
  }
  state.SetItemsProcessed(state.iterations() * kFrames * joints);
}
BENCHMARK(BM_BakeLongChain)->Arg(2500)->Arg(10000)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace articula
