#include "core/anim/clip.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>
#include <set>
#include "core/util/message_text.h"

namespace articula {
namespace {

// Calls visit(curve, describe) for every scalar curve of the clip. describe() names the
// curve for error messages; it is a callable so counting keys builds no strings.
template <typename Visit>
void forEachCurve(const Clip& clip, Visit&& visit) {
  static constexpr const char* kChannels[] = {"translation.x", "translation.y", "translation.z",
                                              "scale.x",       "scale.y",       "scale.z"};
  for (const JointTrack& track : clip.tracks) {
    const Curve* curves[] = {&track.translation.x, &track.translation.y, &track.translation.z,
                             &track.scale.x,       &track.scale.y,       &track.scale.z};
    for (std::size_t c = 0; c < 6; ++c) {
      visit(*curves[c], [&] { return "joint " + std::to_string(track.joint) + " " + kChannels[c]; });
    }
  }
  for (const auto& entry : clip.curves) visit(entry.second, [&] { return "curve '" + entry.first + "'"; });
  for (const MorphWeightsTrack& morph : clip.morphWeights) {
    for (std::size_t target = 0; target < morph.weights.size(); ++target) {
      visit(morph.weights[target],
            [&] { return "mesh " + std::to_string(morph.mesh) + " morph weight " + std::to_string(target); });
    }
  }
}

bool isFinite(const Vec2d& v) { return v.allFinite(); }

std::optional<std::string> validateCurve(const Curve& curve) {
  const auto& keys = curve.keys();
  for (std::size_t i = 0; i < keys.size(); ++i) {
    const CurveKey& key = keys[i];
    const std::string where = "key " + std::to_string(i);
    if (!std::isfinite(key.time) || !std::isfinite(key.value)) return where + ": non-finite time or value";
    if (i > 0 && !(key.time > keys[i - 1].time)) return where + ": keys not sorted by time";
  }
  // Handles last: automatic handles next to a bad key are computed from it, and the message
  // should name the key the user has to fix.
  for (std::size_t i = 0; i < keys.size(); ++i) {
    if (!isFinite(keys[i].left) || !isFinite(keys[i].right)) return "key " + std::to_string(i) + ": non-finite handle";
  }
  return std::nullopt;
}

std::optional<std::string> validateRotation(const RotationTrack& track) {
  const auto& keys = track.keys();
  for (std::size_t i = 0; i < keys.size(); ++i) {
    const RotationKey& key = keys[i];
    const std::string where = "key " + std::to_string(i);
    if (!std::isfinite(key.time)) return where + ": non-finite time";
    if (!key.value.coeffs().allFinite()) return where + ": non-finite rotation";
    if (!(key.value.norm() > 0.5f)) return where + ": zero-length rotation";
    if (!key.inControl.coeffs().allFinite() || !key.outControl.coeffs().allFinite()) {
      return where + ": non-finite control or tangent";
    }
    if (i > 0 && !(key.time > keys[i - 1].time)) return where + ": keys not sorted by time";
  }
  return std::nullopt;
}

// Joint range, one track per joint, and every key of a layer; a weight key outside [0, 1].
std::optional<std::string> validateLayer(const AnimLayer& layer, int jointCount) {
  const std::string prefix = "layer '" + shortName(layer.name) + "': ";
  std::set<int> seenJoints;
  for (const JointTrack& track : layer.tracks) {
    const std::string joint = "joint " + std::to_string(track.joint);
    if (track.joint < 0 || track.joint >= jointCount) {
      return prefix + joint + " out of range (skeleton has " + std::to_string(jointCount) + " joints)";
    }
    if (!seenJoints.insert(track.joint).second) return prefix + joint + " has more than one track";
    if (auto error = validateRotation(track.rotation)) return prefix + joint + " rotation " + *error;
    const Curve* curves[] = {&track.translation.x, &track.translation.y, &track.translation.z,
                             &track.scale.x,       &track.scale.y,       &track.scale.z};
    for (const Curve* curve : curves) {
      if (auto error = validateCurve(*curve)) return prefix + joint + " " + *error;
    }
  }
  if (auto error = validateCurve(layer.weight)) return prefix + "weight " + *error;
  for (const CurveKey& key : layer.weight.keys()) {
    if (key.value < 0.0 || key.value > 1.0) {
      return prefix + "weight " + std::to_string(key.value) + " at " + std::to_string(key.time) +
             " s is outside 0..1";
    }
  }
  return std::nullopt;
}

}  // namespace

int Clip::frameCount() const {
  if (!(frameRate > 0.0) || !std::isfinite(frameRate)) return 0;
  const double length = duration();
  if (!std::isfinite(length) || length < 0.0) return 0;
  // A default clip (no keys, no range) has nothing to play; a blank clip with a range still
  // has frames so the editor can step through and key it.
  if (length == 0.0 && keyCount() == 0) return 0;
  const double frames = std::round(length * frameRate) + 1.0;
  if (frames >= static_cast<double>(std::numeric_limits<int>::max())) return std::numeric_limits<int>::max();
  return static_cast<int>(frames);
}

namespace {

// The importers and the bake write one track per joint in joint order, so joint j's track is
// usually at index j, or is the last one while tracks are being appended: both are looked at
// before the scan, so finding an existing track of such a clip costs O(1) instead of O(tracks).
std::ptrdiff_t trackIndex(const std::vector<JointTrack>& tracks, int joint) {
  const auto at = static_cast<std::size_t>(joint);
  if (joint >= 0 && at < tracks.size() && tracks[at].joint == joint) return static_cast<std::ptrdiff_t>(at);
  if (!tracks.empty() && tracks.back().joint == joint) return static_cast<std::ptrdiff_t>(tracks.size() - 1);
  const auto it = std::find_if(tracks.begin(), tracks.end(), [joint](const JointTrack& t) { return t.joint == joint; });
  return it == tracks.end() ? -1 : it - tracks.begin();
}

}  // namespace

const JointTrack* Clip::findTrack(int joint) const {
  const std::ptrdiff_t index = trackIndex(tracks, joint);
  return index < 0 ? nullptr : &tracks[static_cast<std::size_t>(index)];
}

JointTrack& Clip::trackFor(int joint) {
  const std::ptrdiff_t index = trackIndex(tracks, joint);
  if (index >= 0) return tracks[static_cast<std::size_t>(index)];
  JointTrack& track = tracks.emplace_back();
  track.joint = joint;
  return track;
}

ClipTrackIndex::ClipTrackIndex(std::vector<JointTrack>& tracks) : mTracks(tracks) {
  mTrackOfJoint.reserve(tracks.size());
  // emplace keeps the first track of a joint, the one Clip::findTrack returns.
  for (std::size_t i = 0; i < tracks.size(); ++i) mTrackOfJoint.emplace(tracks[i].joint, i);
}

JointTrack* ClipTrackIndex::find(int joint) {
  const auto it = mTrackOfJoint.find(joint);
  return it == mTrackOfJoint.end() ? nullptr : &mTracks[it->second];
}

JointTrack& ClipTrackIndex::trackFor(int joint) {
  const auto [it, added] = mTrackOfJoint.emplace(joint, mTracks.size());
  if (!added) return mTracks[it->second];
  JointTrack& track = mTracks.emplace_back();
  track.joint = joint;
  return track;
}

void Clip::updateRange() {
  double first = std::numeric_limits<double>::infinity();
  double last = -std::numeric_limits<double>::infinity();
  auto extend = [&](double start, double end) {
    first = std::min(first, start);
    last = std::max(last, end);
  };
  forEachCurve(*this, [&](const Curve& curve, const auto&) {
    if (!curve.empty()) extend(curve.startTime(), curve.endTime());
  });
  for (const JointTrack& track : tracks) {
    if (!track.rotation.empty()) extend(track.rotation.startTime(), track.rotation.endTime());
  }
  if (first > last) return;
  startTime = first;
  endTime = last;
}

std::size_t Clip::keyCount() const {
  std::size_t count = 0;
  forEachCurve(*this, [&count](const Curve& curve, const auto&) { count += curve.size(); });
  for (const JointTrack& track : tracks) count += track.rotation.size();
  return count;
}

std::optional<std::string> Clip::validate(int jointCount) const {
  const std::string prefix = "clip '" + shortName(name) + "': ";
  if (!(frameRate > 0.0) || !std::isfinite(frameRate)) {
    return prefix + "frame rate must be positive (got " + std::to_string(frameRate) + ")";
  }
  if (!std::isfinite(startTime) || !std::isfinite(endTime) || endTime < startTime) {
    return prefix + "invalid time range [" + std::to_string(startTime) + ", " + std::to_string(endTime) + "]";
  }
  std::set<int> seenJoints;
  for (const JointTrack& track : tracks) {
    const std::string joint = "joint " + std::to_string(track.joint);
    if (track.joint < 0 || track.joint >= jointCount) {
      return prefix + joint + " out of range (skeleton has " + std::to_string(jointCount) + " joints)";
    }
    if (!seenJoints.insert(track.joint).second) return prefix + joint + " has more than one track";
    if (auto error = validateRotation(track.rotation)) return prefix + joint + " rotation " + *error;
  }
  for (const MorphWeightsTrack& morph : morphWeights) {
    if (morph.mesh < 0) return prefix + "morph weights of mesh " + std::to_string(morph.mesh) + ": invalid mesh index";
  }
  std::optional<std::string> failure;
  forEachCurve(*this, [&](const Curve& curve, const auto& describe) {
    if (failure) return;
    if (auto error = validateCurve(curve)) failure = prefix + describe() + " " + *error;
  });
  if (failure) return failure;
  for (const AnimLayer& layer : layers) {
    if (auto error = validateLayer(layer, jointCount)) return prefix + *error;
  }
  return std::nullopt;
}

ClipSampler::ClipSampler(const Clip* clip) { reset(clip); }

void ClipSampler::reset(const Clip* clip) {
  mClip = clip;
  const std::size_t count = clip ? clip->tracks.size() : 0;
  mTranslation.assign(count, Vec3TrackCursor{});
  mRotation.assign(count, RotationCursor{});
  mScale.assign(count, Vec3TrackCursor{});
}

void ClipSampler::sample(double t, std::span<Transform> pose) {
  if (!mClip) return;
  // Tracks added to the clip since reset() get fresh cursors; cursors only speed up the
  // search, so stale ones are harmless.
  if (mTranslation.size() != mClip->tracks.size()) {
    mTranslation.resize(mClip->tracks.size());
    mRotation.resize(mClip->tracks.size());
    mScale.resize(mClip->tracks.size());
  }
  for (std::size_t i = 0; i < mClip->tracks.size(); ++i) {
    const JointTrack& track = mClip->tracks[i];
    if (track.joint < 0 || static_cast<std::size_t>(track.joint) >= pose.size()) continue;
    Transform& local = pose[static_cast<std::size_t>(track.joint)];
    if (!track.translation.empty())
      local.translation = track.translation.evaluate(t, local.translation, mTranslation[i]);
    if (!track.rotation.empty()) local.rotation = track.rotation.evaluate(t, mRotation[i]);
    if (!track.scale.empty()) local.scale = track.scale.evaluate(t, local.scale, mScale[i]);
  }
}

std::string uniqueClipName(const std::vector<Clip>& clips, const std::string& base) {
  auto taken = [&](const std::string& name) {
    return std::any_of(clips.begin(), clips.end(), [&](const Clip& clip) { return clip.name == name; });
  };
  std::string name = base;
  for (int suffix = 2; taken(name); ++suffix) name = base + " " + std::to_string(suffix);
  return name;
}

}  // namespace articula
