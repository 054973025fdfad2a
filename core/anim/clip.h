#pragma once
#include <map>
#include <optional>
#include <span>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/anim/anim_layer.h"
#include "core/anim/tracks.h"
#include "core/skeleton/local_to_model.h"

namespace articula {

// Morph-target weights of a mesh, kept as data (one curve per target).
struct MorphWeightsTrack {
  int mesh = -1;
  std::vector<Curve> weights;
};

// An editable clip. Times in seconds; `frameRate` says how the editor steps and bakes.
struct Clip {
  std::string name;
  double frameRate = 30.0;
  double startTime = 0.0;
  double endTime = 0.0;
  std::vector<JointTrack> tracks;
  // Named scalar curves: stride curves (`contact.left_foot`, 1 = planted), handle weights,
  // anything a rig reads.
  std::map<std::string, Curve> curves;
  std::vector<MorphWeightsTrack> morphWeights;
  // Layers played on top of the tracks above (the base), bottom first (anim_layer.h).
  // ClipSampler samples the base alone; LayeredClipSampler (layer_stack.h) what plays.
  std::vector<AnimLayer> layers;

  double duration() const { return endTime - startTime; }
  // Frames from start to end inclusive at frameRate: round(duration * frameRate) + 1, so a
  // single-pose clip (zero length, with keys) has 1 frame and a blank clip with a range has
  // frames to key. 0 for a clip with no keys and zero length (nothing to play), a negative
  // or non-finite range, or a frame rate that is not positive.
  int frameCount() const;
  // Time of frame `frame` (seconds): startTime + frame / frameRate.
  double timeOf(int frame) const { return startTime + static_cast<double>(frame) / frameRate; }
  // Track of a joint, or nullptr.
  const JointTrack* findTrack(int joint) const;
  JointTrack& trackFor(int joint);  // creates it when missing
  // Sets startTime/endTime to the span of every key in the clip; unchanged when it has none.
  void updateRange();
  std::size_t keyCount() const;  // keys over every channel and curve of the base
  // nullopt when valid; otherwise names the joint/curve at fault (joint out of range or with
  // two tracks, non-finite key or handle, zero-length rotation, unsorted keys, frameRate <= 0,
  // non-finite or reversed time range, negative morph mesh index; and in a layer: a joint out of
  // range or with two tracks, a bad key, a weight key outside [0, 1]).
  std::optional<std::string> validate(int jointCount) const;
};

// `base`, or "base 2", "base 3", ... when `clips` already has a clip of that name.
std::string uniqueClipName(const std::vector<Clip>& clips, const std::string& base);

// Finds or creates the tracks of a clip (or of one of its layers) by joint in O(1) while a
// reader builds them: Clip::trackFor scans the tracks for a joint it has not seen, so a reader
// creating one track per node through it is quadratic (a glTF with 100,000 animated sibling
// nodes took 31 s). Indexes the tracks there already are; while the index lives, only it may
// add tracks.
class ClipTrackIndex {
 public:
  explicit ClipTrackIndex(std::vector<JointTrack>& tracks);
  JointTrack* find(int joint);      // nullptr when the joint has no track
  JointTrack& trackFor(int joint);  // creates it when missing

 private:
  std::vector<JointTrack>& mTracks;
  std::unordered_map<int, std::size_t> mTrackOfJoint;  // joint -> index into mClip.tracks
};

// Samples a clip's base (its tracks, no layers) into local poses: what clip operations
// (filters, loops, root motion) read and rewrite, leaving the layers on top. Holds one cursor per channel so sampling at increasing
// times (playback, bake) costs amortised O(1) per channel; random access still works.
class ClipSampler {
 public:
  ClipSampler() = default;
  explicit ClipSampler(const Clip* clip);
  void reset(const Clip* clip);

  // Writes the animated channels of every track into `pose`; joints and channels the clip
  // does not animate keep the values already in `pose` (start from the rest pose). Tracks
  // whose joint lies outside `pose` are skipped.
  void sample(double t, std::span<Transform> pose);

 private:
  const Clip* mClip = nullptr;
  std::vector<Vec3TrackCursor> mTranslation;
  std::vector<RotationCursor> mRotation;
  std::vector<Vec3TrackCursor> mScale;
};

}  // namespace articula
