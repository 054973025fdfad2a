#include "core/clipops/clip_splice.h"

#include <algorithm>
#include <set>

#include "core/bake/dense_clip.h"
#include "core/math/quaternion.h"

namespace articula {
namespace {

bool inRange(double time, double start, double end) {
  return time >= start - kSameKeyTimeSeconds && time <= end + kSameKeyTimeSeconds;
}

// `keys` outside [start, end] with `replacement` in their place, sorted by time.
template <typename Key>
std::vector<Key> spliced(const std::vector<Key>& keys, const std::vector<Key>& replacement, double start, double end) {
  std::vector<Key> out;
  out.reserve(keys.size() + replacement.size());
  for (const Key& key : keys) {
    if (!inRange(key.time, start, end)) out.push_back(key);
  }
  out.insert(out.end(), replacement.begin(), replacement.end());
  std::stable_sort(out.begin(), out.end(), [](const Key& a, const Key& b) { return keyTimeLess(a.time, b.time); });
  return out;
}

void spliceCurve(Curve& curve, const Curve& replacement, double start, double end) {
  if (!replacement.empty()) curve.setKeys(spliced(curve.keys(), replacement.keys(), start, end));
}

void spliceVec3(Vec3Track& track, const Vec3Track& replacement, double start, double end) {
  spliceCurve(track.x, replacement.x, start, end);
  spliceCurve(track.y, replacement.y, start, end);
  spliceCurve(track.z, replacement.z, start, end);
}

std::size_t curveKeysIn(const Curve& curve, double start, double end) {
  return static_cast<std::size_t>(std::count_if(curve.keys().begin(), curve.keys().end(),
                                                [&](const CurveKey& k) { return inRange(k.time, start, end); }));
}

std::size_t vec3KeysIn(const Vec3Track& track, double start, double end) {
  return std::max(
      {curveKeysIn(track.x, start, end), curveKeysIn(track.y, start, end), curveKeysIn(track.z, start, end)});
}

Quat negated(const Quat& q) { return Quat(-q.w(), -q.x(), -q.y(), -q.z()); }

}  // namespace

void appendKeyAt(JointTrack& track, double time, const Transform& local) {
  auto appendVec3 = [&](Vec3Track& channel, const Vec3& value) {
    if (channel.empty()) return;
    channel.x.insertKey(linearKey(time, value.x()));
    channel.y.insertKey(linearKey(time, value.y()));
    channel.z.insertKey(linearKey(time, value.z()));
  };
  appendVec3(track.translation, local.translation);
  appendVec3(track.scale, local.scale);
  if (track.rotation.empty()) return;
  RotationKey key;
  key.time = time;
  key.value = local.rotation.normalized();
  track.rotation.insertKey(key);
}

void spliceRange(Clip& clip, const std::vector<JointTrack>& rangeTracks, double start, double end) {
  for (const JointTrack& range : rangeTracks) {
    JointTrack& track = clip.trackFor(range.joint);
    spliceVec3(track.translation, range.translation, start, end);
    spliceVec3(track.scale, range.scale, start, end);
    if (!range.rotation.empty())
      track.rotation.setKeys(spliced(track.rotation.keys(), range.rotation.keys(), start, end));
  }
}

std::size_t keysInRange(const Clip& clip, const std::vector<int>& joints, double start, double end) {
  std::size_t keys = 0;
  for (const int joint : std::set<int>(joints.begin(), joints.end())) {
    const JointTrack* track = clip.findTrack(joint);
    if (track == nullptr) continue;
    keys += vec3KeysIn(track->translation, start, end) + vec3KeysIn(track->scale, start, end);
    keys += static_cast<std::size_t>(std::count_if(track->rotation.keys().begin(), track->rotation.keys().end(),
                                                   [&](const RotationKey& k) { return inRange(k.time, start, end); }));
  }
  return keys;
}

void countChannels(const Clip& clip, const std::vector<int>& joints, int& jointCount, int& channelCount) {
  jointCount = channelCount = 0;
  for (const int joint : std::set<int>(joints.begin(), joints.end())) {
    const JointTrack* track = clip.findTrack(joint);
    if (track == nullptr) continue;
    ++jointCount;
    channelCount += int(!track->translation.empty()) + int(!track->rotation.empty()) + int(!track->scale.empty());
  }
}

int unrollRotations(Clip& clip, const std::vector<int>& joints, double start, double end) {
  int flipped = 0;
  for (const int joint : std::set<int>(joints.begin(), joints.end())) {
    JointTrack* track = nullptr;
    for (JointTrack& t : clip.tracks) {
      if (t.joint == joint) track = &t;
    }
    if (track == nullptr || track->rotation.size() < 2) continue;
    std::vector<RotationKey> keys = track->rotation.keys();
    int flippedHere = 0;
    for (std::size_t i = 1; i < keys.size(); ++i) {
      if (!inRange(keys[i].time, start, end) || keys[i].value.dot(keys[i - 1].value) >= 0.0f) continue;
      keys[i].value = negated(keys[i].value);
      keys[i].inControl = negated(keys[i].inControl);
      keys[i].outControl = negated(keys[i].outControl);
      ++flippedHere;
    }
    if (flippedHere > 0) track->rotation.setKeys(std::move(keys));
    flipped += flippedHere;
  }
  return flipped;
}

bool coversEveryTrack(const Clip& clip, const std::vector<int>& joints) {
  const std::set<int> selected(joints.begin(), joints.end());
  return std::all_of(clip.tracks.begin(), clip.tracks.end(),
                     [&](const JointTrack& track) { return selected.contains(track.joint); });
}

}  // namespace articula
