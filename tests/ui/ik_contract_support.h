#pragma once
// What the IK control contract tests share: a handle drag as the viewport makes it, the
// largest distance between two sets of joint positions, and the span of frames a key
// inserted into a clip's joint curves changes.
#include <algorithm>
#include <limits>
#include <utility>
#include <vector>

#include <QUndoStack>

#include "core/anim/clip.h"
#include "ui/commands/handle_commands.h"
#include "ui/document/document.h"

namespace articula::ui::test {

// Drags `part` of `handle` by `offset` from where it is solved now, as the viewport does: one
// mergeable command per mouse move.
inline void drag(Document& document, int handle, MoveHandleCommand::Part part, const Vec3& offset) {
  const IkHandle shown = *document.shownHandle(handle);
  const Vec3 start = part == MoveHandleCommand::Part::Target ? shown.targetModel : shown.pole.position;
  constexpr int kMoves = 4;
  for (int move = 1; move <= kMoves; ++move) {
    auto* command = new MoveHandleCommand(&document, handle, part, Vec3(start + offset * (float(move) / kMoves)));
    command->setMergeable(move > 1);
    document.undoStack()->push(command);
  }
}

// The largest distance between the same joint on the same frame of `a` and `b` (infinite
// when their frame counts differ).
inline float largestDistance(const std::vector<std::vector<Vec3>>& a, const std::vector<std::vector<Vec3>>& b) {
  float largest = a.size() == b.size() ? 0.0f : std::numeric_limits<float>::infinity();
  for (std::size_t f = 0; f < std::min(a.size(), b.size()); ++f) {
    for (std::size_t j = 0; j < std::min(a[f].size(), b[f].size()); ++j)
      largest = std::max(largest, (a[f][j] - b[f][j]).norm());
  }
  return largest;
}

// The times around `time` where joint keys inserted at `time` change the motion: from the
// latest key before it to the earliest key after it, over the channels of `original` that
// have a key at `time` in `keyed` and none in `original` (a new key changes the lines to its
// neighbours only).
inline std::pair<double, double> neighbouringKeys(const Clip& original, const Clip& keyed, double time) {
  double before = time, after = time;
  const auto at = [&](const std::vector<double>& times) {
    return std::any_of(times.begin(), times.end(), [&](double t) { return sameKeyTime(t, time); });
  };
  const auto widen = [&](const std::vector<double>& oldTimes, const std::vector<double>& newTimes) {
    if (!at(newTimes) || at(oldTimes)) return;
    const auto next = std::upper_bound(oldTimes.begin(), oldTimes.end(), time);
    if (next != oldTimes.begin()) before = std::min(before, *std::prev(next));
    if (next != oldTimes.end()) after = std::max(after, *next);
  };
  const auto channels = [](const JointTrack& track) {
    std::vector<std::vector<double>> times(4);
    for (const RotationKey& key : track.rotation.keys()) times[0].push_back(key.time);
    const Curve* curves[] = {&track.translation.x, &track.translation.y, &track.translation.z};
    for (std::size_t c = 0; c < 3; ++c) {
      for (const CurveKey& key : curves[c]->keys()) times[c + 1].push_back(key.time);
    }
    return times;
  };
  for (const JointTrack& track : keyed.tracks) {
    const auto old = std::find_if(original.tracks.begin(), original.tracks.end(),
                                  [&](const JointTrack& t) { return t.joint == track.joint; });
    const std::vector<std::vector<double>> newTimes = channels(track);
    const std::vector<std::vector<double>> oldTimes =
        old == original.tracks.end() ? std::vector<std::vector<double>>(4) : channels(*old);
    for (std::size_t c = 0; c < 4; ++c) widen(oldTimes[c], newTimes[c]);
  }
  return {before, after};
}

}  // namespace articula::ui::test
