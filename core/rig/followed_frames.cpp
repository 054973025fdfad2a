#include "core/rig/followed_frames.h"

#include "core/math/quaternion.h"

namespace articula {

FollowedFrames followedFrames(Rig& rig, const Clip& clip) {
  FollowedFrames out;
  const Skeleton& skeleton = rig.skeleton();
  const auto handles = static_cast<std::size_t>(rig.handleCount());
  const int frames = clip.frameCount();
  out.targetModel.resize(handles);
  out.orientationModel.resize(handles);
  if (frames < 1 || !(clip.frameRate > 0.0)) return out;
  ClipSampler sampler(&clip);
  RigCurves curves;
  rig.findCurves(&clip, curves);
  Pose pose;
  for (int frame = 0; frame < frames; ++frame) {
    const double t = clip.startTime + frame / clip.frameRate;
    out.timesSeconds.push_back(t);
    pose.assign(skeleton.restPose().begin(), skeleton.restPose().end());
    sampler.sample(t, pose);
    const bool solved = rig.solve(pose, t, curves);
    const std::vector<Affine> model = solved ? std::vector<Affine>() : localToModel(skeleton, pose);
    const std::span<const Affine> tips = solved ? rig.modelMatrices() : std::span<const Affine>(model);
    for (std::size_t h = 0; h < handles; ++h) {
      const auto tip = static_cast<std::size_t>(rig.handle(static_cast<int>(h)).chain.back());
      out.targetModel[h].push_back(solved ? rig.reports()[h].targetModel : Vec3(tips[tip].translation()));
      const Mat3 tipLinear = tips[tip].linear();
      const Quat turn = solved ? rig.reports()[h].orientationModel : rotationOfAxes(tipLinear.col(0), tipLinear.col(1));
      std::vector<Quat>& turns = out.orientationModel[h];
      turns.push_back(turns.empty() ? turn : alignHemisphere(turn, turns.back()));
    }
  }
  return out;
}

}  // namespace articula
