// Rig solve cost per frame: the mannequin's humanoid rig (FABRIK spine, two-bone legs, CCD
// arms) with foot grounding on a slope, on the walk, with the spine and hand targets moving.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cmath>

#include "core/rig/humanoid_rig.h"
#include "core/samples/mannequin.h"

namespace articula {
namespace {

void BM_HumanoidRigSolve(benchmark::State& state) {
  const Scene scene = makeMannequin();
  const Skeleton& skeleton = scene.skeleton;
  const Clip& walk = scene.clips.front();
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
  rig->setGround(*Ground::plane(Vec3(0.0f, 0.02f, 0.0f), Vec3(0.0f, 1.0f, -0.08f)));

  // One walk cycle at 30 fps: the sampled poses and targets that drift around the animated
  // chest and hands (reachable, so every solver works for its answer).
  constexpr int kFrames = 30;
  struct Frame {
    double time;
    Pose pose;
    Vec3 spine, leftHand, rightHand;
  };
  std::vector<Frame> frames;
  ClipSampler sampler(&walk);
  const int chest = skeleton.findJoint("Spine2");
  const int leftHand = skeleton.findJoint("LeftHand");
  const int rightHand = skeleton.findJoint("RightHand");
  for (int f = 0; f < kFrames; ++f) {
    Frame frame;
    frame.time = f / 30.0;
    frame.pose.assign(skeleton.restPose().begin(), skeleton.restPose().end());
    sampler.sample(frame.time, frame.pose);
    const std::vector<Affine> model = localToModel(skeleton, frame.pose);
    const float phase = 2.0f * kPi * static_cast<float>(frame.time);
    const auto at = [&](int j) { return Vec3(model[static_cast<std::size_t>(j)].translation()); };
    frame.spine = at(chest) + Vec3(0.02f * std::sin(phase), -0.01f, 0.03f);
    frame.leftHand = at(leftHand) + Vec3(0.0f, 0.08f + 0.04f * std::sin(phase), 0.12f);
    frame.rightHand = at(rightHand) + Vec3(-0.03f, 0.10f, 0.10f + 0.05f * std::cos(phase));
    frames.push_back(std::move(frame));
  }
  const int spine = rig->findHandle("spine");
  const int leftArm = rig->findHandle("left_arm");
  const int rightArm = rig->findHandle("right_arm");
  Pose pose = frames.front().pose;
  // The walk's curves found once, as a bake and a playback do.
  RigCurves curves;
  rig->findCurves(&walk, curves);
  std::size_t f = 0;
  for (auto _ : state) {
    const Frame& frame = frames[f];
    std::copy(frame.pose.begin(), frame.pose.end(), pose.begin());
    rig->setTarget(spine, frame.spine);
    rig->setTarget(leftArm, frame.leftHand);
    rig->setTarget(rightArm, frame.rightHand);
    rig->solve(pose, frame.time, curves);
    benchmark::DoNotOptimize(pose.data());
    benchmark::ClobberMemory();
    f = f + 1 == frames.size() ? 0 : f + 1;
  }
  int reached = 0;
  for (const HandleReport& r : rig->reports()) reached += r.reached ? 1 : 0;
  state.counters["handles_reached"] = reached;
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_HumanoidRigSolve);

}  // namespace
}  // namespace articula
