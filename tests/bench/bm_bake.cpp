// Bake cost per frame: the mannequin's humanoid rig (grounding on a plane) baked over the
// walk looped to N frames, single thread, key reduction included. items_per_second is
// frames per second.
#include <benchmark/benchmark.h>

#include <cmath>
#include <string>
#include <vector>

#include "core/bake/rig_corrector.h"
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

// The walk repeated until it spans `frames` frames (each cycle starts where the last ended).
Clip loopedWalk(const Clip& walk, int frames) {
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
  const Clip clip = loopedWalk(scene.clips.front(), frames);
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
  job.options.reduction.toleranceModel = 0.001f * scene.characterHeight();
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
