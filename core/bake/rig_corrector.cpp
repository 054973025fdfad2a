#include "core/bake/rig_corrector.h"

#include <algorithm>

namespace articula {
namespace {

// A handle's "enabled" channel among its curves (Rig::kHandleCurves of them, in the order
// weight, enabled, target, pole, orientation).
constexpr std::size_t kEnabledChannel = 1;

}  // namespace

void RigPoseCorrector::begin(const Clip& clip) {
  mRig->findCurves(&clip, mCurves);
  mCurvesClip = &clip;
}

bool RigPoseCorrector::correct(std::span<Transform> pose, double timeSeconds, const Clip& clip) {
  if (&clip == mCurvesClip) return mRig->solve(pose, timeSeconds, mCurves);
  return mRig->solve(pose, timeSeconds, &clip);
}

std::vector<int> RigPoseCorrector::rotatedJoints() const {
  std::vector<int> joints;
  for (int i = 0; i < mRig->handleCount(); ++i) {
    // A handle that is off and has no curve to switch it on moves nothing: its joints keep
    // their animation (a bake would otherwise key them at every contact start and end).
    const auto enabledCurve = static_cast<std::size_t>(i) * Rig::kHandleCurves + kEnabledChannel;
    const bool mayRun =
        mRig->handle(i).enabled || (enabledCurve < mCurves.curves.size() && mCurves.curves[enabledCurve] != nullptr);
    if (!mayRun) continue;
    const std::vector<int>& chain = mRig->handle(i).chain;
    joints.insert(joints.end(), chain.begin(), chain.end());
  }
  const GroundingSetup& grounding = mRig->definition().grounding;
  for (const int toe : {grounding.left.toe, grounding.right.toe}) {
    if (toe >= 0) joints.push_back(toe);
  }
  std::sort(joints.begin(), joints.end());
  joints.erase(std::unique(joints.begin(), joints.end()), joints.end());
  return joints;
}

std::vector<int> RigPoseCorrector::translatedJoints() const {
  const int pelvis = mRig->definition().grounding.pelvis;
  if (pelvis < 0) return {};
  return {pelvis};
}

void RigPoseCorrector::unreachedHandles(std::vector<int>& handles) const {
  const auto reports = mRig->reports();
  for (std::size_t i = 0; i < reports.size(); ++i) {
    if (reports[i].solved && !reports[i].reached) handles.push_back(static_cast<int>(i));
  }
}

std::string RigPoseCorrector::handleName(int handle) const {
  if (handle < 0 || handle >= mRig->handleCount()) return "handle " + std::to_string(handle);
  return mRig->handle(handle).name;
}

}  // namespace articula
