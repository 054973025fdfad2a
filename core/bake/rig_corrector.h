#pragma once
// RigPoseCorrector: a bound Rig (core/rig) as the PoseCorrector a BakeJob runs on every frame.
#include <string>
#include <vector>

#include "core/bake/bake_job.h"
#include "core/rig/rig.h"

namespace articula {

// Adapts a bound rig, which it borrows (the rig must outlive it; its ground, world placement
// and handle edits are the caller's). Rotated joints: the chain joints of every handle that
// is on, or has an "enabled" curve in the clip of the last begin(), and the grounding's toes;
// translated: the grounding's pelvis (the rig lowers it so legs reach).
// A handle counts as unreached on a frame when it ran (solved) and ended farther from its
// target than its tolerance.
class RigPoseCorrector final : public PoseCorrector {
 public:
  explicit RigPoseCorrector(Rig& rig) : mRig(&rig) {}

  void begin(const Clip& clip) override;
  bool correct(std::span<Transform> pose, double timeSeconds, const Clip& clip) override;
  std::vector<int> rotatedJoints() const override;
  std::vector<int> translatedJoints() const override;
  void unreachedHandles(std::vector<int>& handles) const override;
  std::string handleName(int handle) const override;

 private:
  Rig* mRig;
  // The rig's curves in the clip of the last begin(), read by correct() for that clip.
  const Clip* mCurvesClip = nullptr;
  RigCurves mCurves;
};

}  // namespace articula
