#include "ui/commands/transient_edits.h"

#include <QTimer>
#include <QUndoStack>

#include "ui/commands/handle_commands.h"
#include "ui/commands/ik_fk_snap_command.h"
#include "ui/commands/pose_commands.h"
#include "ui/commands/set_joint_transform_command.h"
#include "ui/document/document.h"

namespace articula::ui {

bool isTransientEdit(const QUndoCommand* command) {
  if (dynamic_cast<const SetJointTransformCommand*>(command)) return true;
  if (const auto* move = dynamic_cast<const MoveHandleCommand*>(command)) return move->poses();
  // Parents that only run their children: transient when every child is.
  const bool poseParent = dynamic_cast<const PoseJointsCommand*>(command) ||
                          dynamic_cast<const SnapFkToIkCommand*>(command) ||
                          dynamic_cast<const SnapIkToFkCommand*>(command);
  if (!poseParent || command->childCount() == 0) return false;
  for (int child = 0; child < command->childCount(); ++child) {
    if (!isTransientEdit(command->child(child))) return false;
  }
  return true;
}

TransientEdits::TransientEdits(Document* document, QObject* parent) : QObject(parent), mDocument(document) {
  connect(mDocument, &Document::changed, this, &TransientEdits::documentChanged);
}

void TransientEdits::documentChanged(const ChangeEvent& event) {
  // The time never changes inside a command; a clip change may come from a command's redo
  // (a clip deleted), so the stack is changed once that is done.
  if (event.type == ChangeEvent::Type::TimeChanged) dropDeadEdits();
  if (event.type != ChangeEvent::Type::CurrentClipChanged || mQueued) return;
  mQueued = true;
  QTimer::singleShot(0, this, [this] {
    mQueued = false;
    dropDeadEdits();
  });
}

void TransientEdits::dropDeadEdits() {
  if (!mDocument->poseOverrides().empty() || !mDocument->handlePoses().empty()) return;
  QUndoStack* stack = mDocument->undoStack();
  while (stack->index() > 0 && stack->index() == stack->count()) {
    auto* top = const_cast<QUndoCommand*>(stack->command(stack->index() - 1));
    if (!isTransientEdit(top)) return;
    // QUndoStack::undo removes an obsolete command without undoing it.
    top->setObsolete(true);
    stack->undo();
  }
}

}  // namespace articula::ui
