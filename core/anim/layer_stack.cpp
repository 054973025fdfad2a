#include "core/anim/layer_stack.h"

#include <algorithm>

namespace articula {

LayeredClipSampler::LayeredClipSampler(const Clip* clip) { reset(clip); }

void LayeredClipSampler::reset(const Clip* clip) {
  mClip = clip;
  mBase.reset(clip);
  mLayers.clear();
}

void LayeredClipSampler::sample(double t, std::span<Transform> pose) {
  if (!mClip) return;
  sampleBelow(t, mClip->layers.size(), pose);
}

void LayeredClipSampler::sampleBelow(double t, std::size_t layerCount, std::span<Transform> pose) {
  if (!mClip) return;
  sampleLayers(t, layerCount, pose, [&](std::size_t i) { return layerPlays(mClip->layers, i); });
}

void LayeredClipSampler::sampleUnmuted(double t, std::size_t layerCount, std::span<Transform> pose) {
  if (!mClip) return;
  sampleLayers(t, layerCount, pose, [&](std::size_t i) { return !mClip->layers[i].muted; });
}

template <typename Plays>
void LayeredClipSampler::sampleLayers(double t, std::size_t layerCount, std::span<Transform> pose, Plays&& plays) {
  mBase.sample(t, pose);
  const std::size_t count = std::min(layerCount, mClip->layers.size());
  // Layers or tracks added since reset() get fresh cursors; cursors only speed up the search.
  if (mLayers.size() != mClip->layers.size()) mLayers.resize(mClip->layers.size());
  for (std::size_t i = 0; i < count; ++i) {
    if (plays(i)) applyLayer(i, t, pose);
  }
}

void LayeredClipSampler::applyLayer(std::size_t index, double t, std::span<Transform> pose) {
  const AnimLayer& layer = mClip->layers[index];
  const auto weight = static_cast<float>(layer.weightAt(t));
  if (!(weight > 0.0f)) return;
  LayerCursors& cursors = mLayers[index];
  if (cursors.rotation.size() != layer.tracks.size()) {
    cursors.translation.resize(layer.tracks.size());
    cursors.rotation.resize(layer.tracks.size());
    cursors.scale.resize(layer.tracks.size());
  }
  for (std::size_t i = 0; i < layer.tracks.size(); ++i) {
    const JointTrack& track = layer.tracks[i];
    if (track.joint < 0 || static_cast<std::size_t>(track.joint) >= pose.size()) continue;
    Transform& local = pose[static_cast<std::size_t>(track.joint)];
    if (!track.translation.empty()) {
      const Vec3 value =
          track.translation.evaluate(t, translationFallback(layer.mode, local.translation), cursors.translation[i]);
      local.translation = combineTranslation(layer.mode, local.translation, value, weight);
    }
    if (!track.rotation.empty()) {
      local.rotation = combineRotation(layer.mode, local.rotation, track.rotation.evaluate(t, cursors.rotation[i]), weight);
    }
    if (!track.scale.empty()) {
      const Vec3 value = track.scale.evaluate(t, scaleFallback(layer.mode, local.scale), cursors.scale[i]);
      local.scale = combineScale(layer.mode, local.scale, value, weight);
    }
  }
}

std::vector<Transform> sampleLayered(const Clip& clip, std::span<const Transform> restPose, double t) {
  std::vector<Transform> pose(restPose.begin(), restPose.end());
  LayeredClipSampler(&clip).sample(t, pose);
  return pose;
}

}  // namespace articula
