#pragma once
#include <QUndoCommand>

#include <span>

#include "core/rig/ik_handle.h"
#include "core/skeleton/local_to_model.h"

namespace articula::ui {

class Document;

// IK/FK snap and match per handle, both ways (Maya's "match FK to IK" and "match IK to FK",
// Unity Animation Rigging's two-bone match): switching between the IK result and the FK
// pose under it, or blending the handle's weight, then shows no pop. Each is one undo step;
// Auto Key keys it like the edit it stands for.

// Snap FK to IK: the chain joints of handle `handle` of the active rig are posed (pose
// overrides, one SetJointTransformCommand child per joint) where the rig's solve put them,
// so the FK pose under the rig is the IK result.
class SnapFkToIkCommand : public QUndoCommand {
 public:
  SnapFkToIkCommand(Document* document, int handle, QUndoCommand* parent = nullptr);

  // The handle exists and the rig solved the pose shown.
  static bool canSnap(const Document& document, int handle);

  int handle() const { return mHandle; }

 private:
  const int mHandle;
};

// Snap IK to FK: the target of handle `handle` goes where the chain's FK rotations (the
// rig's input) put its tip on the body as the rig solved it (a spine solved before an arm
// moves the arm's root), in model space, so the solve finds the tip on it and leaves the FK
// chain exactly; and its pole (when it has one) where it keeps the FK
// pose's bend, and an orientation target (OrientationMode::Target, or set by curves or a pose)
// where the FK tip is turned. Its children, MoveHandleCommands for the target, the pole and
// the orientation, move them as a drag does: an animated part is posed for this frame, a
// static one offset in this clip.
class SnapIkToFkCommand : public QUndoCommand {
 public:
  SnapIkToFkCommand(Document* document, int handle, QUndoCommand* parent = nullptr);

  // The handle exists in the active rig.
  static bool canSnap(const Document& document, int handle);

  int handle() const { return mHandle; }

 private:
  const int mHandle;
};

// Handle `ik` matched to the FK pose `fkModel` (model-space joint matrices): see
// SnapIkToFkCommand. A straight chain keeps its pole (no bend to keep).
IkHandle handleMatchedToFk(IkHandle ik, std::span<const Affine> fkModel);

}  // namespace articula::ui
