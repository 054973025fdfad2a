#pragma once
#include <compare>
#include <optional>
#include <span>
#include <string>
#include <variant>
#include <vector>

#include "core/anim/clip.h"

namespace articula::ui {

// One keyed channel of a clip: a component of a joint's translation or scale, a joint's
// rotation (keyed as whole quaternions), or a named curve (`contact.left_foot`).
// Qt-free so the key edits below are plain functions on a Clip.
struct KeyChannel {
  enum class Kind { Translation, Rotation, Scale, Curve };

  Kind kind = Kind::Curve;
  int joint = -1;     // Translation, Rotation, Scale: skeleton node
  int component = 0;  // Translation, Scale: 0, 1, 2 = x, y, z (in the parent's space)
  std::string curve;  // Curve: key of Clip::curves

  auto operator<=>(const KeyChannel&) const = default;
  bool operator==(const KeyChannel&) const = default;
};

// A key named by its channel and time (seconds). Times, not indices, survive edits that
// re-sort other keys, so a selection stays valid while keys are dragged.
struct KeyRef {
  KeyChannel channel;
  double time = 0.0;

  auto operator<=>(const KeyRef&) const = default;
  bool operator==(const KeyRef&) const = default;
};

// The scalar curve behind a channel; nullptr for rotations and missing channels.
const Curve* findCurve(const Clip& clip, const KeyChannel& channel);
Curve* findCurve(Clip& clip, const KeyChannel& channel);
const RotationTrack* findRotation(const Clip& clip, const KeyChannel& channel);

// Key times of a channel, ascending; empty when the clip does not animate it.
std::vector<double> keyTimes(const Clip& clip, const KeyChannel& channel);

// Translation x/y/z, rotation, scale x/y/z of `joint`, in that order.
std::vector<KeyChannel> jointChannels(int joint);
// Every channel the clip keys for `joint`, then nothing else.
std::vector<KeyChannel> keyedJointChannels(const Clip& clip, int joint);
// One channel per named curve of the clip, in name order.
std::vector<KeyChannel> curveChannels(const Clip& clip);
// Every keyed channel of the clip: joint channels by track, then the named curves.
std::vector<KeyChannel> allKeyedChannels(const Clip& clip);

// The first key time after (`forward`) or before `time` on `channels`, farther than half a
// frame of `clip` away, so "next key" from a key's frame never lands on that same key.
std::optional<double> adjacentKeyTime(const Clip& clip, std::span<const KeyChannel> channels, double time,
                                      bool forward);

// "LeftArm.translation.x", "LeftArm.rotation", "contact.left_foot".
std::string channelName(const KeyChannel& channel, const Skeleton& skeleton);

// The part of `clip` that holds `channels`: the joint tracks and named curves they key, the
// clip's frame rate and range, nothing else (what Document::swapClipPart swaps). Key edits
// of those channels work on the part as on the whole clip. Channels the clip lacks are left
// out.
Clip clipPart(const Clip& clip, std::span<const KeyChannel> channels);

// `clip` with the keys `keys` moved by `offsetSeconds` (their handles with them). A moved
// key landing on an unmoved one replaces it, as in Blender. The clip's range grows to hold
// keys moved past its ends. Refs that name no key are ignored.
Clip movedKeys(Clip clip, std::span<const KeyRef> keys, double offsetSeconds);
// `clip` without the keys `keys`.
Clip deletedKeys(Clip clip, std::span<const KeyRef> keys);

// A copied key with its time relative to the earliest copied key.
struct CopiedKey {
  KeyChannel channel;
  std::variant<CurveKey, RotationKey> key;
};
std::vector<CopiedKey> copyKeys(const Clip& clip, std::span<const KeyRef> keys);
// `clip` with `copied` pasted so the earliest copied key lands at `time` (seconds);
// channels that do not exist yet are created. Returns the refs of the pasted keys in
// `pasted` when given.
Clip pastedKeys(Clip clip, std::span<const CopiedKey> copied, double time, std::vector<KeyRef>* pasted = nullptr);

}  // namespace articula::ui
