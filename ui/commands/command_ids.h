#pragma once

namespace articula::ui {

// QUndoCommand::id() of the commands that merge; QUndoStack only tries to merge two
// commands with the same id.
enum CommandId : int {
  kSetJointTransformCommandId = 1,
  kEditHandleCommandId = 2,
  kMoveHandleCommandId = 3,
};

}  // namespace articula::ui
