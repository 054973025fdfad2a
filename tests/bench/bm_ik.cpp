// IK solver benchmarks: chains of 10 unit-length bones (two for the two-bone job) below a
// fixed parent joint. cold = from the straight rest pose to random targets uniform in the ball
// of radius 0.9 × chain length; track = from the previous solution along a smooth path moving
// about 1 % of the chain length per frame. Tolerance 1e-3 × chain length; the counters give
// the mean iterations and the mean final error over the solves timed. Cold solves include
// copying the rest pose back (12 transforms).
#include <benchmark/benchmark.h>

#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "core/ik/ccd_ik.h"
#include "core/ik/fabrik_ik.h"
#include "core/ik/jacobian_ik.h"
#include "core/ik/two_bone_ik.h"
#include "core/skeleton/local_to_model.h"

namespace articula {
namespace {

constexpr int kBones = 10;
constexpr float kLength = static_cast<float>(kBones);
constexpr float kTolerance = 1e-3f * kLength;
constexpr std::size_t kTargetCount = 256;

struct BenchChain {
  Skeleton skeleton;
  Pose rest;
  std::vector<Affine> model;
  std::vector<int> joints;  // chain joints, root..tip
};

// Joint 0 is a fixed frame above the chain (only its model matrix is read by the solvers).
BenchChain makeStraightChain(int bones) {
  BenchChain c;
  int parent = c.skeleton.addJoint("frame", kNoParent, Transform{});
  for (int k = 0; k <= bones; ++k) {
    Transform t;
    t.translation = k == 0 ? Vec3(Vec3::Zero()) : Vec3(Vec3::UnitX());
    std::string name = "j";
    parent = c.skeleton.addJoint(name.append(std::to_string(k)), parent, t);
    c.joints.push_back(parent);
  }
  c.rest.assign(c.skeleton.restPose().begin(), c.skeleton.restPose().end());
  c.model = localToModel(c.skeleton, c.rest);
  return c;
}

std::vector<Vec3> ballTargets(float radius) {
  std::mt19937 rng(1234);
  std::uniform_real_distribution<float> unit(-1.0f, 1.0f);
  std::vector<Vec3> targets;
  while (targets.size() < kTargetCount) {
    const Vec3 p(unit(rng), unit(rng), unit(rng));
    if (p.squaredNorm() <= 1.0f) targets.push_back(p * radius);
  }
  return targets;
}

// A smooth closed path inside the ball, about 1 % of the chain length per frame.
std::vector<Vec3> trackPath(float length) {
  std::vector<Vec3> path;
  const float step = 0.0125f;
  for (int i = 0; i < 4096; ++i) {
    const float t = step * static_cast<float>(i);
    path.emplace_back(length * (0.45f + 0.2f * std::cos(t)), length * 0.4f * std::sin(t),
                      length * 0.2f * std::sin(2.0f * t));
  }
  return path;
}

void setCounters(benchmark::State& state, double iterations, double error, double reached, std::int64_t solves) {
  const auto n = static_cast<double>(solves);
  state.counters["iterations"] = iterations / n;
  state.counters["errorOverL"] = error / n / static_cast<double>(kLength);
  state.counters["reached"] = reached / n;
}

void BM_TwoBoneIK(benchmark::State& state, TwoBoneIkJob::Method method) {
  BenchChain c = makeStraightChain(2);
  // A slight bend so the rest limb has a bend plane; targets in the reach of the limb.
  c.rest[static_cast<std::size_t>(c.joints[1])].rotation = Quat(Eigen::AngleAxisf(0.2f, Vec3::UnitZ()));
  const std::vector<Vec3> targets = ballTargets(1.9f);
  Pose pose = c.rest;
  IkReport report;
  TwoBoneIkJob job;
  job.skeleton = &c.skeleton;
  job.startJoint = c.joints[0];
  job.midJoint = c.joints[1];
  job.endJoint = c.joints[2];
  job.pose = pose;
  job.model = c.model;
  job.poleModel = Vec3::UnitY();
  job.soften = 1.0f;
  job.method = method;
  job.toleranceModel = 2e-3f;
  job.report = &report;
  std::size_t i = 0;
  double error = 0.0;
  std::int64_t solves = 0;
  for (auto _ : state) {
    job.targetModel = targets[i++ % kTargetCount];
    job.run();
    benchmark::DoNotOptimize(pose.data());
    error += report.errorModel;
    ++solves;
  }
  state.counters["iterations"] = 1.0;
  state.counters["errorOverL"] = error / static_cast<double>(solves) / 2.0;
}
BENCHMARK_CAPTURE(BM_TwoBoneIK, law_of_cosines, TwoBoneIkJob::Method::LawOfCosines)->Name("BM_TwoBoneIK");
BENCHMARK_CAPTURE(BM_TwoBoneIK, trig_free, TwoBoneIkJob::Method::TrigFree)->Name("BM_TwoBoneIK/trig_free");

template <typename Job>
void runChain(benchmark::State& state, Job& job, BenchChain& c, Pose& pose, bool cold) {
  const std::vector<Vec3> targets = cold ? ballTargets(0.9f * kLength) : trackPath(kLength);
  IkReport report;
  job.report = &report;
  job.toleranceModel = kTolerance;
  job.pose = pose;
  job.model = c.model;
  std::size_t i = 0;
  double iterations = 0.0;
  double error = 0.0;
  double reached = 0.0;
  std::int64_t solves = 0;
  if (!cold) {
    // Start on the path.
    job.targetModel = targets[0];
    job.run();
  }
  for (auto _ : state) {
    if (cold) {
      std::copy(c.rest.begin(), c.rest.end(), pose.begin());
      job.targetModel = targets[i++ % targets.size()];
    } else {
      job.targetModel = targets[++i % targets.size()];
    }
    job.run();
    benchmark::DoNotOptimize(pose.data());
    iterations += report.iterations;
    error += report.errorModel;
    reached += report.reached ? 1.0 : 0.0;
    ++solves;
  }
  setCounters(state, iterations, error, reached, solves);
}

void BM_FabrikChain10(benchmark::State& state, bool cold, float coneRad) {
  BenchChain c = makeStraightChain(kBones);
  auto chain = IkChain::build(c.skeleton, c.joints);
  IkChainWorkspace ws(*chain);
  std::vector<JointConstraint> constraints;
  if (coneRad > 0.0f) constraints.assign(c.joints.size(), JointConstraint::cone(Vec3::UnitX(), coneRad));
  Pose pose = c.rest;
  FabrikIkJob job;
  job.chain = &*chain;
  job.workspace = &ws;
  job.constraints = constraints;
  job.maxIterations = 64;
  runChain(state, job, c, pose, cold);
}
BENCHMARK_CAPTURE(BM_FabrikChain10, cold, true, 0.0f)->Name("BM_FabrikChain10/cold");
BENCHMARK_CAPTURE(BM_FabrikChain10, track, false, 0.0f)->Name("BM_FabrikChain10/track");
BENCHMARK_CAPTURE(BM_FabrikChain10, cone45_cold, true, 0.25f * kPi)->Name("BM_FabrikChain10Cone45/cold");

void BM_CcdChain10(benchmark::State& state, bool cold) {
  BenchChain c = makeStraightChain(kBones);
  auto chain = IkChain::build(c.skeleton, c.joints);
  IkChainWorkspace ws(*chain);
  Pose pose = c.rest;
  CcdIkJob job;
  job.chain = &*chain;
  job.workspace = &ws;
  job.maxIterations = 200;
  // Damping of 1 rad per step: from the straight rest pose it needs the fewest sweeps here
  // (0.5 rad: 44 sweeps on average, 1 rad: 12, π: 45, which often stalls).
  job.maxAngleStepRad = 1.0f;
  runChain(state, job, c, pose, cold);
}
BENCHMARK_CAPTURE(BM_CcdChain10, cold, true)->Name("BM_CcdChain10/cold");
BENCHMARK_CAPTURE(BM_CcdChain10, track, false)->Name("BM_CcdChain10/track");

void BM_JacobianChain10(benchmark::State& state, JacobianIkJob::Method method, bool cold) {
  BenchChain c = makeStraightChain(kBones);
  const IkTreeEffector effector{c.joints.back(), false};
  auto tree = IkTree::build(c.skeleton, c.joints.front(), std::span<const IkTreeEffector>(&effector, 1));
  IkTreeWorkspace ws(*tree);
  std::vector<IkEffectorTarget> target(1);
  Pose pose = c.rest;
  JacobianIkJob job;
  job.tree = &*tree;
  job.workspace = &ws;
  job.targets = target;
  job.method = method;
  job.maxIterations = 200;
  const std::vector<Vec3> targets = cold ? ballTargets(0.9f * kLength) : trackPath(kLength);
  IkReport report;
  job.report = &report;
  job.toleranceModel = kTolerance;
  job.pose = pose;
  job.model = c.model;
  std::size_t i = 0;
  double iterations = 0.0;
  double error = 0.0;
  double reached = 0.0;
  std::int64_t solves = 0;
  if (!cold) {
    target[0].positionModel = targets[0];
    job.run();
  }
  for (auto _ : state) {
    if (cold) {
      std::copy(c.rest.begin(), c.rest.end(), pose.begin());
      target[0].positionModel = targets[i++ % targets.size()];
    } else {
      target[0].positionModel = targets[++i % targets.size()];
    }
    job.run();
    benchmark::DoNotOptimize(pose.data());
    iterations += report.iterations;
    error += report.errorModel;
    reached += report.reached ? 1.0 : 0.0;
    ++solves;
  }
  setCounters(state, iterations, error, reached, solves);
}
BENCHMARK_CAPTURE(BM_JacobianChain10, dls_cold, JacobianIkJob::Method::DampedLeastSquares, true)
    ->Name("BM_DlsChain10/cold");
BENCHMARK_CAPTURE(BM_JacobianChain10, dls_track, JacobianIkJob::Method::DampedLeastSquares, false)
    ->Name("BM_DlsChain10/track");
BENCHMARK_CAPTURE(BM_JacobianChain10, sdls_cold, JacobianIkJob::Method::SelectivelyDamped, true)
    ->Name("BM_SdlsChain10/cold");

}  // namespace
}  // namespace articula
