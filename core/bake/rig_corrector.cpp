#include "core/bake/rig_corrector.h"

#include <algorithm>

namespace articula {

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
