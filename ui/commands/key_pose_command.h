#pragma once
#include <QUndoCommand>

#include <map>
#include <set>
#include <span>
#include <vector>

#include "core/anim/clip.h"
#include "ui/document/document.h"

namespace articula::ui {

// "Key the pose" (Maya's S, Blender's I): what you see is what you key. Writes the local
// transforms shown at the current time into the current clip as keys at the current frame,
// for every joint posed by hand (pose overrides), every selected joint and, while the rig
// solves, every joint the solve moved (its chains, a grounded pelvis and feet), so turning
// the rig off afterwards shows the same pose. Every posed handle (Document::handlePoses) and
// the given one (the selected one by default) is keyed too, as the curves ik.<handle>.* the
// rig reads: target (model space), pole (when it has one), weight and an orientation target, at the values it is
// solved with (a target that follows the clip, keyed the first time, is then its curves'
// as any control keyed once). Then drops the overrides and the handle poses, since the clip now gives that
// pose. One undo step restores the clip, the overrides and the handle poses. With a layer
// active (Document::activeLayer) the joints' keys go to that layer (keyedLayer, on the stack
// below it); a locked layer takes none.
class KeyPoseCommand : public QUndoCommand {
 public:
  // What is keyed: what differs from the clip and the selection (S), or every joint and
  // every handle of the active rig (Key All Controls, Maya's character set).
  enum class Scope { Changed, AllControls };

  explicit KeyPoseCommand(Document* document, Scope scope = Scope::Changed, QUndoCommand* parent = nullptr);
  // Keys handle `handle` of the active rig (-1: none) instead of the selected one.
  KeyPoseCommand(Document* document, int handle, QUndoCommand* parent = nullptr);

  // Whether there is a clip and something to key.
  static bool canKeyPose(const Document& document);
  // Whether there is a clip to key every control in.
  static bool canKeyAll(const Document& document);

  void redo() override;
  void undo() override;

 private:
  KeyPoseCommand(Document* document, Scope scope, int handle, QUndoCommand* parent);
  void swapState();

  Document* const mDocument;
  const int mClipIndex;
  Clip mClip;                              // the clip redo (or undo) puts in place
  std::map<int, Transform> mOverrides;     // the overrides redo (or undo) puts in place
  std::map<int, HandlePose> mHandlePoses;  // the handle poses redo (or undo) puts in place
};

// Joints whose local transform the document's rig changed in its last solve (more than
// float noise), ascending; empty when no rig solved.
std::vector<int> jointsMovedByRig(const Document& document);

// `clip` with keys at `time` for the inputs handle `handle` of the active rig is solved with
// at the document's time (Document::shownHandle: its definition, curves and pose; the target
// where the rig solved it, shownTargetModel): target.x|y|z (model space), pole.x|y|z (a pole
// posed, animated or in model space), weight, roll (when rolled) and, for an orientation
// target, orientation.w|x|y|z. Unchanged for a bad index.
Clip keyedHandleClip(const Document& document, Clip clip, double time, int handle);

// A handle that follows the clip counts as animated, so its first key must not pin it over
// the whole clip (one key makes a constant curve). The rule: the first key of a target that
// follows the clip (TargetSource::InputPose) starts its curves from the target the rig
// solves it with on every frame of `clip` (followedFrames: after grounding), linear between
// frames; the key then replaces its own frame's value, with lines to the neighbouring
// frames' as a key inserted into a capture's dense curves in Maya, and every other frame
// shows what it showed. The same for the first orientation key of a handle whose tip's turn
// follows the clip (KeepPose or Free, turned by hand now): its curves start from the turn the
// rig aimed the tip at on every frame (HandleReport::orientationModel). `clip` with those
// curves for `handles` of the active rig; a target or orientation that has curves already is
// left as it is.
Clip followCurvesSeeded(const Document& document, Clip clip, const std::set<int>& handles);

// `clip` with keys at `time` (seconds) for `joints`, whose local transforms (each in its
// parent's space) are read from `localPose`. A new key interpolates like the key before it
// on its channel (Bézier auto-clamped, or slerp for rotations, when there is none); a key
// already at `time` is replaced. Channels without keys whose value equals the rest pose
// (`restPose`) stay unkeyed so a clip gains no constant scale tracks.
Clip keyedClip(Clip clip, double time, std::span<const int> joints, std::span<const Transform> localPose,
               std::span<const Transform> restPose);

// `layer` with keys at `time` for `joints` such that, at weight 1, it turns `belowPose` into
// `localPose` (local transforms): the difference for an additive layer, the value for an
// override. Channels without keys that the layer would leave as below stay unkeyed.
AnimLayer keyedLayer(AnimLayer layer, double time, std::span<const int> joints, std::span<const Transform> localPose,
                     std::span<const Transform> belowPose);

}  // namespace articula::ui
