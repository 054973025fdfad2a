#pragma once
// A clip as one sample per frame and channel: what a bake produces and key reduction
// consumes. Flat arrays instead of keys, so a 60,000-frame bake of a humanoid holds tens of
// megabytes, not the gigabyte its keys would.
#include <span>
#include <vector>

#include "core/anim/clip.h"
#include "core/skeleton/skeleton.h"

namespace articula {

// Samples of one joint's local channels, each in its parent's space, one per frame for the
// channels it animates (the flags); the pose keeps its own value of the others.
struct DenseTrack {
  int joint = -1;
  bool translates = false;
  bool rotates = false;
  bool scales = false;
  std::vector<Vec3> translation;
  std::vector<Quat> rotation;  // unit, each in the hemisphere of the previous one
  std::vector<Vec3> scale;
};

// The rate players step a glTF clip at (and the shared judge by default): a clip sampled more
// slowly plays the line between its samples at steps a viewer sees.
constexpr double kPlaybackRate = 120.0;

struct DenseClip {
  double startTime = 0.0;  // time of frame 0, seconds
  double frameRate = 30.0;
  int frames = 0;
  std::vector<DenseTrack> tracks;

  double timeOf(int frame) const { return startTime + static_cast<double>(frame) / frameRate; }
  // Writes frame `frame` of every animated channel into `pose` (others keep their values).
  void samplePose(int frame, std::span<Transform> pose) const;
  // Appends one frame of every track's animated channels read from `pose` (local
  // transforms), keeping each rotation in the hemisphere of its previous sample.
  void appendFrame(std::span<const Transform> pose);
  // Replaces the samples strictly between frames `from` and `to` by what plays between keys
  // at those two: linear translation and scale, slerped rotation.
  void interpolateBetween(int from, int to);
};

// A linear key at (time, value), its handles on the key.
CurveKey linearKey(double time, double value);

// One key per frame (no reduction): linear translation and scale, slerped rotation, each
// track for the same joint and channels as its dense track.
std::vector<JointTrack> perFrameTracks(const DenseClip& dense);

// Frames [firstFrame, lastFrame] of `clip` (frame f at clip.startTime + f / frameRate),
// channels as the clip animates them. The range must lie within [0, clip.frameCount() - 1].
DenseClip sampleDense(const Skeleton& skeleton, const Clip& clip, int firstFrame, int lastFrame);

}  // namespace articula
