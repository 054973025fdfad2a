#include "core/bake/dense_clip.h"

#include "core/math/quaternion.h"

namespace articula {

void DenseClip::samplePose(int frame, std::span<Transform> pose) const {
  const auto f = static_cast<std::size_t>(frame);
  for (const DenseTrack& track : tracks) {
    Transform& local = pose[static_cast<std::size_t>(track.joint)];
    if (track.translates) local.translation = track.translation[f];
    if (track.rotates) local.rotation = track.rotation[f];
    if (track.scales) local.scale = track.scale[f];
  }
}

void DenseClip::appendFrame(std::span<const Transform> pose) {
  for (DenseTrack& track : tracks) {
    const Transform& local = pose[static_cast<std::size_t>(track.joint)];
    if (track.translates) track.translation.push_back(local.translation);
    if (track.scales) track.scale.push_back(local.scale);
    if (track.rotates) {
      const Quat q = local.rotation.normalized();
      track.rotation.push_back(track.rotation.empty() ? q : alignHemisphere(q, track.rotation.back()));
    }
  }
  ++frames;
}

DenseClip sampleDense(const Skeleton& skeleton, const Clip& clip, int firstFrame, int lastFrame) {
  DenseClip dense;
  dense.frameRate = clip.frameRate;
  dense.startTime = clip.startTime + static_cast<double>(firstFrame) / clip.frameRate;
  const auto frames = static_cast<std::size_t>(lastFrame - firstFrame + 1);
  for (const JointTrack& track : clip.tracks) {
    DenseTrack& out = dense.tracks.emplace_back();
    out.joint = track.joint;
    out.translates = !track.translation.empty();
    out.rotates = !track.rotation.empty();
    out.scales = !track.scale.empty();
    if (out.translates) out.translation.reserve(frames);
    if (out.rotates) out.rotation.reserve(frames);
    if (out.scales) out.scale.reserve(frames);
  }
  ClipSampler sampler(&clip);
  Pose pose(skeleton.restPose().begin(), skeleton.restPose().end());
  for (int f = firstFrame; f <= lastFrame; ++f) {
    sampler.sample(clip.startTime + static_cast<double>(f) / clip.frameRate, pose);
    dense.appendFrame(pose);
  }
  return dense;
}

}  // namespace articula
