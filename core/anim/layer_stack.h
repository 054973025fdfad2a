#pragma once
// Sampling a clip's layer stack: its base, then each layer that plays, bottom first. What the
// editor shows and plays, and what bake and export evaluate (they merge the layers first,
// core/bake/layer_merge.h).
#include <cstddef>
#include <span>
#include <vector>

#include "core/anim/clip.h"

namespace articula {

class LayeredClipSampler {
 public:
  LayeredClipSampler() = default;
  explicit LayeredClipSampler(const Clip* clip);
  void reset(const Clip* clip);

  // The base then every playing layer (layerPlays) at time t into `pose` (local transforms,
  // start from the rest pose). With no layer playing the pose is the base's, bit for bit.
  void sample(double t, std::span<Transform> pose);
  // The base then the playing layers among the first `layerCount`: what the layer at index
  // `layerCount` plays on top of.
  void sampleBelow(double t, std::size_t layerCount, std::span<Transform> pose);
  // The base then layers [0, layerCount) that are not muted, solo ignored: what Merge Down
  // bakes, whatever the user soloes to look at.
  void sampleUnmuted(double t, std::size_t layerCount, std::span<Transform> pose);

 private:
  struct LayerCursors {
    std::vector<Vec3TrackCursor> translation;
    std::vector<RotationCursor> rotation;
    std::vector<Vec3TrackCursor> scale;
  };
  template <typename Plays>
  void sampleLayers(double t, std::size_t layerCount, std::span<Transform> pose, Plays&& plays);
  void applyLayer(std::size_t index, double t, std::span<Transform> pose);

  const Clip* mClip = nullptr;
  ClipSampler mBase;
  std::vector<LayerCursors> mLayers;
};

// Samples the stack of `clip` at time t starting from `restPose`: a one-off (no cursors kept).
std::vector<Transform> sampleLayered(const Clip& clip, std::span<const Transform> restPose, double t);

}  // namespace articula
