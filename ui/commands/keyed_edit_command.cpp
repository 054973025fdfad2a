#include "ui/commands/keyed_edit_command.h"

#include <QCoreApplication>
#include <QUndoStack>

#include "ui/commands/key_pose_command.h"

namespace articula::ui {

KeyedEditCommand::KeyedEditCommand(Document* document, const QString& text)
    : QUndoCommand(text),
      mDocument(document),
      mClipIndex(document->currentClipIndex()),
      mClip(*document->currentClip()),
      mOverrides(document->poseOverrides()),
      mHandlePoses(document->handlePoses()) {}

void KeyedEditCommand::replaceTopEdit(Document* document, int handle) {
  QUndoStack* stack = document->undoStack();
  const int index = stack->index();
  if (index == 0 || index != stack->count() || !document->currentClip()) return;
  auto* keyed = new KeyedEditCommand(
      document, QCoreApplication::translate("KeyedEditCommand", "%1 (keyed)").arg(stack->text(index - 1)));
  const auto* key = new KeyPoseCommand(document, handle, keyed);
  if (key->isObsolete()) {
    delete keyed;
    return;
  }
  stack->undo();
  stack->push(keyed);
}

void KeyedEditCommand::redo() {
  swapState();
  QUndoCommand::redo();
}

void KeyedEditCommand::undo() {
  QUndoCommand::undo();
  swapState();
}

void KeyedEditCommand::swapState() {
  // Clip first, then overrides and handle poses, as KeyPoseCommand swaps them.
  mClip = mDocument->replaceClip({}, mClipIndex, std::move(mClip));
  mOverrides = mDocument->setPoseOverrides({}, std::move(mOverrides));
  mHandlePoses = mDocument->setHandlePoses({}, std::move(mHandlePoses));
}

}  // namespace articula::ui
