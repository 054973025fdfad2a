#include "ui/timeline/key_channel.h"

#include <algorithm>
#include <map>

namespace articula::ui {

namespace {

const Curve* componentOf(const Vec3Track& track, int component) {
  switch (component) {
    case 0:
      return &track.x;
    case 1:
      return &track.y;
    case 2:
      return &track.z;
    default:
      return nullptr;
  }
}

bool holds(std::span<const KeyRef> keys, const KeyChannel& channel, double time) {
  return std::any_of(keys.begin(), keys.end(),
                     [&](const KeyRef& ref) { return ref.channel == channel && sameKeyTime(ref.time, time); });
}

// Channels named in `keys`, each once.
std::vector<KeyChannel> channelsOf(std::span<const KeyRef> keys) {
  std::vector<KeyChannel> channels;
  for (const KeyRef& ref : keys) {
    if (std::find(channels.begin(), channels.end(), ref.channel) == channels.end()) channels.push_back(ref.channel);
  }
  return channels;
}

CurveKey shifted(CurveKey key, double offset) {
  key.time += offset;
  key.left.x() += offset;
  key.right.x() += offset;
  return key;
}

RotationKey shifted(RotationKey key, double offset) {
  key.time += offset;
  return key;
}

// The channel's keys with those of `refs` moved by `offset` (or dropped): a moved key
// replaces the key it lands on. Landing is sameKeyTime, not equality: 1044/120 + 5/120 is
// not 1049/120 in floating point, and a moved key sorted just before the key it lands on
// would otherwise lose to it when setKeys merges the two.
template <typename Key>
std::vector<Key> withMovedKeys(const std::vector<Key>& keys, const KeyChannel& channel, std::span<const KeyRef> refs,
                               double offset, bool drop) {
  std::vector<Key> kept;
  std::vector<Key> moved;  // in time order, as `keys` are
  for (const Key& key : keys) {
    if (!holds(refs, channel, key.time)) {
      kept.push_back(key);
    } else if (!drop) {
      moved.push_back(shifted(key, offset));
    }
  }
  std::erase_if(kept, [&moved](const Key& key) {
    const auto next = std::lower_bound(moved.begin(), moved.end(), key.time - kSameKeyTimeSeconds,
                                       [](const Key& m, double time) { return m.time < time; });
    return next != moved.end() && sameKeyTime(next->time, key.time);
  });
  kept.insert(kept.end(), moved.begin(), moved.end());
  return kept;
}

Clip editedKeys(Clip clip, std::span<const KeyRef> keys, double offset, bool drop) {
  for (const KeyChannel& channel : channelsOf(keys)) {
    if (Curve* curve = findCurve(clip, channel)) {
      curve->setKeys(withMovedKeys(curve->keys(), channel, keys, offset, drop));
    } else if (channel.kind == KeyChannel::Kind::Rotation) {
      if (const JointTrack* found = clip.findTrack(channel.joint)) {
        RotationTrack& track = clip.trackFor(found->joint).rotation;
        track.setKeys(withMovedKeys(track.keys(), channel, keys, offset, drop));
      }
    }
  }
  return clip;
}

// Grows the clip's range to hold every key (keys moved or pasted past its ends).
void includeKeyTimes(Clip& clip, std::span<const KeyRef> keys) {
  for (const KeyRef& ref : keys) {
    clip.startTime = std::min(clip.startTime, ref.time);
    clip.endTime = std::max(clip.endTime, ref.time);
  }
}

}  // namespace

const Curve* findCurve(const Clip& clip, const KeyChannel& channel) {
  if (channel.kind == KeyChannel::Kind::Curve) {
    const auto found = clip.curves.find(channel.curve);
    return found == clip.curves.end() ? nullptr : &found->second;
  }
  const JointTrack* track = clip.findTrack(channel.joint);
  if (!track) return nullptr;
  if (channel.kind == KeyChannel::Kind::Translation) return componentOf(track->translation, channel.component);
  if (channel.kind == KeyChannel::Kind::Scale) return componentOf(track->scale, channel.component);
  return nullptr;
}

Curve* findCurve(Clip& clip, const KeyChannel& channel) {
  return const_cast<Curve*>(findCurve(static_cast<const Clip&>(clip), channel));
}

const RotationTrack* findRotation(const Clip& clip, const KeyChannel& channel) {
  if (channel.kind != KeyChannel::Kind::Rotation) return nullptr;
  const JointTrack* track = clip.findTrack(channel.joint);
  return track ? &track->rotation : nullptr;
}

std::vector<double> keyTimes(const Clip& clip, const KeyChannel& channel) {
  std::vector<double> times;
  if (const Curve* curve = findCurve(clip, channel)) {
    for (const CurveKey& key : curve->keys()) times.push_back(key.time);
  } else if (const RotationTrack* rotation = findRotation(clip, channel)) {
    for (const RotationKey& key : rotation->keys()) times.push_back(key.time);
  }
  return times;
}

std::vector<KeyChannel> jointChannels(int joint) {
  std::vector<KeyChannel> channels;
  for (int component = 0; component < 3; ++component)
    channels.push_back({KeyChannel::Kind::Translation, joint, component, {}});
  channels.push_back({KeyChannel::Kind::Rotation, joint, 0, {}});
  for (int component = 0; component < 3; ++component)
    channels.push_back({KeyChannel::Kind::Scale, joint, component, {}});
  return channels;
}

std::vector<KeyChannel> keyedJointChannels(const Clip& clip, int joint) {
  std::vector<KeyChannel> channels = jointChannels(joint);
  std::erase_if(channels, [&](const KeyChannel& channel) { return keyTimes(clip, channel).empty(); });
  return channels;
}

std::vector<KeyChannel> curveChannels(const Clip& clip) {
  std::vector<KeyChannel> channels;
  for (const auto& entry : clip.curves) channels.push_back({KeyChannel::Kind::Curve, -1, 0, entry.first});
  return channels;
}

std::vector<KeyChannel> allKeyedChannels(const Clip& clip) {
  std::vector<KeyChannel> channels;
  for (const JointTrack& track : clip.tracks) {
    const std::vector<KeyChannel> keyed = keyedJointChannels(clip, track.joint);
    channels.insert(channels.end(), keyed.begin(), keyed.end());
  }
  const std::vector<KeyChannel> curves = curveChannels(clip);
  channels.insert(channels.end(), curves.begin(), curves.end());
  return channels;
}

std::optional<double> adjacentKeyTime(const Clip& clip, std::span<const KeyChannel> channels, double time,
                                      bool forward) {
  const double halfFrame = 0.5 / (clip.frameRate > 0.0 ? clip.frameRate : 30.0);
  std::optional<double> best;
  for (const KeyChannel& channel : channels) {
    for (double keyTime : keyTimes(clip, channel)) {
      const bool beyond = forward ? keyTime > time + halfFrame : keyTime < time - halfFrame;
      if (beyond && (!best || (forward ? keyTime < *best : keyTime > *best))) best = keyTime;
    }
  }
  return best;
}

std::string channelName(const KeyChannel& channel, const Skeleton& skeleton) {
  if (channel.kind == KeyChannel::Kind::Curve) return channel.curve;
  const std::string joint =
      channel.joint >= 0 && channel.joint < skeleton.jointCount() ? skeleton.name(channel.joint) : std::string("?");
  static constexpr const char* kAxes[] = {".x", ".y", ".z"};
  const char* axis = channel.component >= 0 && channel.component < 3 ? kAxes[channel.component] : "";
  switch (channel.kind) {
    case KeyChannel::Kind::Translation:
      return joint + ".translation" + axis;
    case KeyChannel::Kind::Rotation:
      return joint + ".rotation";
    case KeyChannel::Kind::Scale:
      return joint + ".scale" + axis;
    case KeyChannel::Kind::Curve:
      break;
  }
  return channel.curve;
}

Clip clipPart(const Clip& clip, std::span<const KeyChannel> channels) {
  Clip part;
  part.name = clip.name;
  part.frameRate = clip.frameRate;
  part.startTime = clip.startTime;
  part.endTime = clip.endTime;
  for (const KeyChannel& channel : channels) {
    if (channel.kind == KeyChannel::Kind::Curve) {
      if (const auto found = clip.curves.find(channel.curve); found != clip.curves.end()) part.curves.insert(*found);
    } else if (const JointTrack* track = clip.findTrack(channel.joint); track && !part.findTrack(channel.joint)) {
      part.tracks.push_back(*track);
    }
  }
  return part;
}

Clip movedKeys(Clip clip, std::span<const KeyRef> keys, double offsetSeconds) {
  clip = editedKeys(std::move(clip), keys, offsetSeconds, false);
  std::vector<KeyRef> moved(keys.begin(), keys.end());
  for (KeyRef& ref : moved) ref.time += offsetSeconds;
  includeKeyTimes(clip, moved);
  return clip;
}

Clip deletedKeys(Clip clip, std::span<const KeyRef> keys) { return editedKeys(std::move(clip), keys, 0.0, true); }

std::vector<CopiedKey> copyKeys(const Clip& clip, std::span<const KeyRef> keys) {
  std::vector<CopiedKey> copied;
  double earliest = 0.0;
  bool first = true;
  for (const KeyRef& ref : keys) {
    if (const Curve* curve = findCurve(clip, ref.channel)) {
      for (const CurveKey& key : curve->keys()) {
        if (sameKeyTime(key.time, ref.time)) copied.push_back({ref.channel, key});
      }
    } else if (const RotationTrack* rotation = findRotation(clip, ref.channel)) {
      for (const RotationKey& key : rotation->keys()) {
        if (sameKeyTime(key.time, ref.time)) copied.push_back({ref.channel, key});
      }
    } else {
      continue;
    }
    earliest = first ? ref.time : std::min(earliest, ref.time);
    first = false;
  }
  for (CopiedKey& entry : copied) {
    std::visit([earliest](auto& key) { key = shifted(key, -earliest); }, entry.key);
  }
  return copied;
}

Clip pastedKeys(Clip clip, std::span<const CopiedKey> copied, double time, std::vector<KeyRef>* pasted) {
  std::vector<KeyRef> refs;
  for (const CopiedKey& entry : copied) {
    const KeyChannel& channel = entry.channel;
    if (const auto* curveKey = std::get_if<CurveKey>(&entry.key)) {
      Curve* curve = nullptr;
      if (channel.kind == KeyChannel::Kind::Curve) {
        curve = &clip.curves[channel.curve];
      } else if (channel.joint >= 0 && channel.component >= 0 && channel.component < 3) {
        Vec3Track& track = channel.kind == KeyChannel::Kind::Translation ? clip.trackFor(channel.joint).translation
                                                                         : clip.trackFor(channel.joint).scale;
        curve = channel.component == 0 ? &track.x : channel.component == 1 ? &track.y : &track.z;
      }
      if (!curve) continue;
      const CurveKey key = shifted(*curveKey, time);
      std::vector<CurveKey> keys = curve->keys();
      keys.push_back(key);
      curve->setKeys(std::move(keys));
      refs.push_back({channel, key.time});
    } else if (const auto* rotationKey = std::get_if<RotationKey>(&entry.key)) {
      if (channel.joint < 0) continue;
      const RotationKey key = shifted(*rotationKey, time);
      clip.trackFor(channel.joint).rotation.insertKey(key);
      refs.push_back({channel, key.time});
    }
  }
  includeKeyTimes(clip, refs);
  if (pasted) *pasted = std::move(refs);
  return clip;
}

}  // namespace articula::ui
