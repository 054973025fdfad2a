#pragma once
// Putting a filter's keys into a clip over a time range, touching nothing else: keys of the
// rewritten channels inside the range are replaced, keys outside it stay as they are.
#include <vector>

#include "core/anim/clip.h"

namespace articula {

// Appends a key at `time` (after the track's last key) to each channel `track` animates:
// linear translation and scale, slerped rotation, values from `local`.
void appendKeyAt(JointTrack& track, double time, const Transform& local);

// For each track of `rangeTracks` and each channel it keys: the clip's keys of that joint
// and channel within [start, end] (seconds, ends included) are replaced by the range track's.
void spliceRange(Clip& clip, const std::vector<JointTrack>& rangeTracks, double start, double end);

// Keys within [start, end] of the channels `clip` animates of `joints`, as glTF counts them
// (a translation key is one key).
std::size_t keysInRange(const Clip& clip, const std::vector<int>& joints, double start, double end);

// Joints of `joints` that `clip` animates, and their animated channels.
void countChannels(const Clip& clip, const std::vector<int>& joints, int& jointCount, int& channelCount);

// Puts each rotation key of `joints` within [start, end] in the hemisphere of the key before
// it (a cubic-spline key's tangents flipped with it, so its segments play continuously);
// returns the keys flipped.
int unrollRotations(Clip& clip, const std::vector<int>& joints, double start, double end);

// True when every track of `clip` is the track of one of `joints`.
bool coversEveryTrack(const Clip& clip, const std::vector<int>& joints);

}  // namespace articula
