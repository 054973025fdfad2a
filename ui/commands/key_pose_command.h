#pragma once
#include <QUndoCommand>

#include <map>
#include <span>
#include <vector>

#include "core/anim/clip.h"

namespace articula::ui {

class Document;

// "Key the pose" (Maya's S, Blender's I): writes the local transforms shown at the current
// time into the current clip as keys at the current frame, for every joint posed by hand
// (pose overrides) and every selected joint, then drops the overrides, since the clip now
// gives that pose. One undo step restores both the clip and the overrides.
class KeyPoseCommand : public QUndoCommand {
 public:
  explicit KeyPoseCommand(Document* document, QUndoCommand* parent = nullptr);

  // Whether there is a clip and something to key.
  static bool canKeyPose(const Document& document);

  void redo() override;
  void undo() override;

 private:
  void swapState();

  Document* const mDocument;
  const int mClipIndex;
  Clip mClip;                           // the clip redo (or undo) puts in place
  std::map<int, Transform> mOverrides;  // the overrides redo (or undo) puts in place
};

// `clip` with keys at `time` (seconds) for `joints`, whose local transforms (each in its
// parent's space) are read from `localPose`. A new key interpolates like the key before it
// on its channel (Bézier auto-clamped, or slerp for rotations, when there is none); a key
// already at `time` is replaced. Channels without keys whose value equals the rest pose
// (`restPose`) stay unkeyed so a clip gains no constant scale tracks.
Clip keyedClip(Clip clip, double time, std::span<const int> joints, std::span<const Transform> localPose,
               std::span<const Transform> restPose);

}  // namespace articula::ui
