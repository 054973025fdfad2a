#pragma once
#include <QString>

#include "core/rig/rig.h"
#include "core/util/result.h"
#include "ui/commands/change_value.h"
#include "ui/document/document.h"

namespace articula::ui {

// Puts a whole new RigSet in place. The structural rig edits below are this command with
// the new set computed from the current one; rigs are a few handles, so holding a copy is
// cheap and exact. A set equal to the current one makes the command obsolete.
class RigSetCommand : public ChangeValue<RigSet> {
 public:
  RigSetCommand(Document* document, RigSet rigs, const QString& text, QUndoCommand* parent = nullptr);

 private:
  RigSet exchange(RigSet rigs) override;
};

// Adds the humanoid rig built from the skeleton (buildHumanoidRig) and makes it active; a
// rig of the same name is replaced. Build it with humanoidRig() first: it says why a
// skeleton has no humanoid rig.
class BuildHumanoidRigCommand : public RigSetCommand {
 public:
  BuildHumanoidRigCommand(Document* document, RigDefinition rig, QUndoCommand* parent = nullptr);
  static Result<RigDefinition> humanoidRig(const Document& document);
};

// Appends `handle` to the active rig (a new rig named "rig" is made active when there is
// none). Check it with validate() before pushing.
class AddHandleCommand : public RigSetCommand {
 public:
  AddHandleCommand(Document* document, IkHandle handle, QUndoCommand* parent = nullptr);

  // Why the active rig cannot take `handle` (Rig::bind's message), empty when it can.
  static QString validate(const Document& document, const IkHandle& handle);
  // A handle on the selected joints solved by `solver`: the chain runs from the selected
  // joint nearest the root down to the deepest one (the joints between them included, so
  // all selected joints must lie on one ancestor line); with a single joint selected, from
  // its grandparent down to it. Its target is the tip's current position (model space), its
  // name "ik_<tip>" made unique. Fails with a message saying what to select.
  static Result<IkHandle> handleFromSelection(const Document& document, IkSolverKind solver);
};

// Removes handle `handle` of the active rig.
class RemoveHandleCommand : public RigSetCommand {
 public:
  RemoveHandleCommand(Document* document, int handle, QUndoCommand* parent = nullptr);
};

}  // namespace articula::ui
