#include "ui/timeline/auto_key.h"

#include <QGuiApplication>
#include <QMouseEvent>
#include <QTimer>
#include <QUndoStack>

#include "ui/commands/key_pose_command.h"
#include "ui/commands/set_joint_transform_command.h"
#include "ui/document/document.h"

namespace articula::ui {

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
  if (!mEnabled || event.type != ChangeEvent::Type::PoseEdited || mDocument->poseOverrides().empty()) return;
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
  // Only a joint edit just pushed (on top, nothing to redo) is keyed: a pose override that
  // undo brought back leaves a command to redo, and keying it would drop the redo history.
  const int index = stack->index();
  if (index == 0 || index != stack->count()) return;
  if (!dynamic_cast<const SetJointTransformCommand*>(stack->command(index - 1))) return;
  if (!KeyPoseCommand::canKeyPose(*mDocument) || mDocument->poseOverrides().empty()) return;
  stack->push(new KeyPoseCommand(mDocument));
}

}  // namespace articula::ui
