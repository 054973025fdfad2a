#include "ui/timeline/auto_key.h"

#include <QGuiApplication>
#include <QMouseEvent>
#include <QTimer>
#include <QUndoStack>

#include <optional>

#include "ui/commands/handle_commands.h"
#include "ui/commands/ik_fk_snap_command.h"
#include "ui/commands/key_pose_command.h"
#include "ui/commands/keyed_edit_command.h"
#include "ui/commands/pose_commands.h"
#include "ui/commands/set_joint_transform_command.h"
#include "ui/document/document.h"

namespace articula::ui {

namespace {

// The handle a handle move or an IK/FK snap on top of the stack posed; nullopt for any
// other command (or one that changed nothing).
std::optional<int> handleEditedBy(const QUndoCommand* command) {
  if (command->isObsolete()) return std::nullopt;
  if (const auto* move = dynamic_cast<const MoveHandleCommand*>(command)) return move->handle();
  if (const auto* snap = dynamic_cast<const SnapFkToIkCommand*>(command)) return snap->handle();
  if (const auto* snap = dynamic_cast<const SnapIkToFkCommand*>(command)) return snap->handle();
  return std::nullopt;
}

}  // namespace

AutoKey::AutoKey(Document* document, QObject* parent) : QObject(parent), mDocument(document) {
  connect(mDocument, &Document::changed, this, &AutoKey::documentChanged);
}

void AutoKey::setEnabled(bool enabled) {
  if (enabled == mEnabled) return;
  mEnabled = enabled;
  mPending = false;
  if (mEnabled) {
    QGuiApplication::instance()->installEventFilter(this);
  } else {
    QGuiApplication::instance()->removeEventFilter(this);
  }
  emit enabledChanged(mEnabled);
}

void AutoKey::documentChanged(const ChangeEvent& event) {
  if (!mEnabled) return;
  const bool jointPosed = event.type == ChangeEvent::Type::PoseEdited && !mDocument->poseOverrides().empty();
  const bool handleMoved = event.type == ChangeEvent::Type::HandleEdited;
  if (!jointPosed && !handleMoved) return;
  mPending = true;
  // Never push from inside another command's redo: wait until the stack is done.
  if (QGuiApplication::mouseButtons() == Qt::NoButton) scheduleKey();
}

void AutoKey::scheduleKey() {
  if (mKeyQueued) return;
  mKeyQueued = true;
  QTimer::singleShot(0, this, [this] {
    mKeyQueued = false;
    keyPendingEdit();
  });
}

bool AutoKey::eventFilter(QObject* watched, QEvent* event) {
  if (mPending && event->type() == QEvent::MouseButtonRelease) scheduleKey();
  return QObject::eventFilter(watched, event);
}

void AutoKey::keyPendingEdit() {
  if (!mEnabled || !mPending) return;
  mPending = false;
  QUndoStack* stack = mDocument->undoStack();
  // Only a joint edit or a handle move just pushed (on top, nothing to redo) is keyed: a
  // pose that undo brought back leaves a command to redo, and keying it would drop the redo
  // history. A handle move or an IK/FK snap keys the pose shown and that handle's target.
  const int index = stack->index();
  if (index == 0 || index != stack->count()) return;
  const QUndoCommand* top = stack->command(index - 1);
  // The edit and its key become one undo step.
  if (const std::optional<int> handle = handleEditedBy(top)) {
    KeyedEditCommand::replaceTopEdit(mDocument, *handle);
    return;
  }
  if (!dynamic_cast<const SetJointTransformCommand*>(top) && !dynamic_cast<const PoseJointsCommand*>(top)) return;
  if (!KeyPoseCommand::canKeyPose(*mDocument) || mDocument->poseOverrides().empty()) return;
  KeyedEditCommand::replaceTopEdit(mDocument, mDocument->selectedHandle());
}

}  // namespace articula::ui
