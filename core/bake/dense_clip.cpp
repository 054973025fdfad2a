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

void DenseClip::interpolateBetween(int from, int to) {
  const auto a = static_cast<std::size_t>(from);
  const auto b = static_cast<std::size_t>(to);
  for (DenseTrack& track : tracks) {
    for (std::size_t f = a + 1; f < b; ++f) {
      const float x = static_cast<float>(f - a) / static_cast<float>(b - a);
      if (track.translates)
        track.translation[f] = track.translation[a] + (track.translation[b] - track.translation[a]) * x;
      if (track.scales) track.scale[f] = track.scale[a] + (track.scale[b] - track.scale[a]) * x;
      if (track.rotates) track.rotation[f] = track.rotation[a].slerp(x, track.rotation[b]).normalized();
    }
  }
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

CurveKey linearKey(double time, double value) {
  CurveKey key;
  key.time = time;
  key.value = value;
  key.interpolation = Interpolation::Linear;
  key.leftType = key.rightType = HandleType::Free;
  key.left = key.right = Vec2d(time, value);
  return key;
}

std::vector<JointTrack> perFrameTracks(const DenseClip& dense) {
  std::vector<JointTrack> tracks(dense.tracks.size());
  auto vec3Keys = [&](const std::vector<Vec3>& samples, Vec3Track& track) {
    std::vector<CurveKey> keys[3];
    for (int f = 0; f < dense.frames; ++f) {
      for (int c = 0; c < 3; ++c) keys[c].push_back(linearKey(dense.timeOf(f), samples[static_cast<std::size_t>(f)][c]));
    }
    track.x.setKeys(std::move(keys[0]));
    track.y.setKeys(std::move(keys[1]));
    track.z.setKeys(std::move(keys[2]));
  };
  for (std::size_t i = 0; i < dense.tracks.size(); ++i) {
    const DenseTrack& source = dense.tracks[i];
    JointTrack& track = tracks[i];
    track.joint = source.joint;
    if (source.translates) vec3Keys(source.translation, track.translation);
    if (source.scales) vec3Keys(source.scale, track.scale);
    if (source.rotates) {
      std::vector<RotationKey> keys(static_cast<std::size_t>(dense.frames));
      for (int f = 0; f < dense.frames; ++f) {
        keys[static_cast<std::size_t>(f)].time = dense.timeOf(f);
        keys[static_cast<std::size_t>(f)].value = source.rotation[static_cast<std::size_t>(f)];
      }
      track.rotation.setKeys(std::move(keys));
    }
  }
  return tracks;
}

}  // namespace articula
