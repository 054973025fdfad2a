#pragma once

namespace articula::ui {

// QUndoCommand::id() of the commands that merge; QUndoStack only tries to merge two
// commands with the same id.
enum CommandId : int {
  kSetJointTransformCommandId = 1,
  kEditKeysCommandId = 2,
  kEditHandleCommandId = 3,
  kMoveHandleCommandId = 4,
};

}  // namespace articula::ui
