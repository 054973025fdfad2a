// Prints a hash of every bit the two-bone job writes over a fixed set of runs that takes each
// branch of the solve: both methods, both pole modes, a collinear pole, straight and bent
// limbs, a twist joint, targets in reach, beyond it and at the start joint, softening,
// twist, blending, with and without a workspace, under every frame of reference.
//
// Built twice (CMakeLists.txt): once against articula_core, which runs the packed SSE2 form
// of ik_simd.h, and once with its own copy of two_bone_ik.cpp built with ARTICULA_IK_SCALAR,
// the plain-array form other CPUs run. The test two_bone_scalar_bits runs both and requires
// the same hash: the two forms must write the same bits, and only this check sees the second.
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <random>

#include "core/frames_of_reference.h"
#include "core/ik/ik_test_util.h"
#include "core/ik/two_bone_ik.h"

namespace articula {
namespace {

// FNV-1a over raw bytes.
struct Hash {
  std::uint64_t value = 1469598103934665603ull;
  void add(const void* data, std::size_t size) {
    const auto* bytes = static_cast<const unsigned char*>(data);
    for (std::size_t i = 0; i < size; ++i) value = (value ^ bytes[i]) * 1099511628211ull;
  }
};

int run() {
  Hash hash;
  int runs = 0;
  for (const auto& frame : test::framesOfReference()) {
    for (const bool twistJoint : {false, true}) {
      for (const bool bent : {true, false}) {
        test::ChainRig rig = test::makeChain(frame.parentModel, {.bones = 2, .bent = bent, .twistJoint = twistJoint});
        std::mt19937 rng(11);
        const Vec3 start = rig.rootModel();
        const float length = rig.lengthModel();
        TwoBoneIkWorkspace workspace;
        for (int trial = 0; trial < 48; ++trial) {
          Vec3 target = test::randomReachableTargetModel(rig, rng);
          if (trial % 8 == 5) target = start + (target - start) * 3.0f;  // beyond reach
          if (trial % 16 == 7) target = start;                           // at the start joint
          IkReport report;
          TwoBoneIkJob job = test::makeTwoBoneJob(rig, target);
          job.method = trial % 2 == 0 ? TwoBoneIkJob::Method::LawOfCosines : TwoBoneIkJob::Method::TrigFree;
          if (trial % 3 == 0) {
            job.poleMode = TwoBoneIkJob::PoleMode::Target;
            job.poleModel = start + frame.parentModel.linear() * Vec3(0.2f, 1.0f, 0.4f) * length;
          }
          if (trial % 12 == 4) {  // on the start–target axis: no usable pole
            job.poleMode = TwoBoneIkJob::PoleMode::Vector;
            job.poleModel = target - start;
          }
          job.soften = trial % 4 == 1 ? 0.97f : 1.0f;
          job.weight = trial % 5 == 2 ? 0.6f : 1.0f;
          job.twistAngleRad = trial % 7 == 3 ? 0.4f : 0.0f;
          job.toleranceModel = 1e-3f * length;
          job.workspace = trial % 2 == 1 ? &workspace : nullptr;
          job.report = &report;
          const bool ran = job.run();
          ++runs;
          hash.add(&ran, sizeof ran);
          for (const int j : {job.startJoint, job.midJoint})
            hash.add(rig.pose[static_cast<std::size_t>(j)].rotation.coeffs().data(), 4 * sizeof(float));
          hash.add(&report.errorModel, sizeof report.errorModel);
          hash.add(&report.reached, sizeof report.reached);
          // The next run starts from this one's result, as a rig that holds the pose does.
          rig.fk();
        }
      }
    }
  }
  std::printf("%d runs, hash %016llx\n", runs, static_cast<unsigned long long>(hash.value));
  return 0;
}

}  // namespace
}  // namespace articula

int main() { return articula::run(); }
