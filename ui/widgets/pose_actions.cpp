#include "ui/widgets/pose_actions.h"

#include <QAction>
#include <QMenu>
#include <QUndoStack>

#include "ui/commands/key_pose_command.h"
#include "ui/commands/pose_commands.h"
#include "ui/document/document.h"

namespace articula::ui {

PoseActions::PoseActions(Document* document, QObject* parent)
    : QObject(parent),
      mDocument(document),
      mCopyAction(new QAction(tr("&Copy Pose"), this)),
      mPasteAction(new QAction(tr("&Paste Pose"), this)),
      mMirrorAction(new QAction(tr("&Mirror Pose"), this)),
      mFlipAction(new QAction(tr("&Flip Pose"), this)),
      mSelectMirrorAction(new QAction(tr("Select Mi&rror Joints"), this)),
      mKeyAllAction(new QAction(tr("&Key All Controls"), this)) {
  const struct {
    QAction* action;
    const char* name;
    QKeySequence keys;
    QString tip;
  } actions[] = {
      {mCopyAction, "actionCopyPose", QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_C),
       tr("Copy the shown pose of the selected joints (none selected: all)")},
      {mPasteAction, "actionPastePose", QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_V),
       tr("Pose the copied joints as copied, at this frame and clip")},
      {mMirrorAction, "actionMirrorPose", QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_M),
       tr("Mirror the selected joints' pose onto the other side (none selected: left onto right)")},
      {mFlipAction, "actionFlipPose", QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_F),
       tr("Swap left and right of the pose across the character's symmetry plane")},
      {mSelectMirrorAction, "actionSelectMirrorJoints", QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_X),
       tr("Select the joints on the other side instead")},
      {mKeyAllAction, "actionKeyAllControls", QKeySequence(Qt::SHIFT | Qt::Key_S),
       tr("Key every joint and IK handle of the character at this frame")},
  };
  for (const auto& entry : actions) {
    entry.action->setObjectName(QLatin1String(entry.name));
    entry.action->setShortcut(entry.keys);
    entry.action->setToolTip(entry.tip);
  }
  connect(mCopyAction, &QAction::triggered, this, &PoseActions::copyPose);
  connect(mPasteAction, &QAction::triggered, this, &PoseActions::pastePose);
  connect(mMirrorAction, &QAction::triggered, this, [this] { mirrorPose(false); });
  connect(mFlipAction, &QAction::triggered, this, [this] { mirrorPose(true); });
  connect(mSelectMirrorAction, &QAction::triggered, this, &PoseActions::selectMirror);
  connect(mKeyAllAction, &QAction::triggered, this, &PoseActions::keyAllControls);
  connect(mDocument, &Document::changed, this, [this](const ChangeEvent& event) {
    // Another skeleton: the copied joint indices mean nothing there.
    if (event.type == ChangeEvent::Type::SceneReplaced) mCopied.clear();
    refreshActions();
  });
  refreshActions();
}

void PoseActions::addTo(QMenu* menu) const {
  menu->addAction(mCopyAction);
  menu->addAction(mPasteAction);
  menu->addSeparator();
  menu->addAction(mMirrorAction);
  menu->addAction(mFlipAction);
  menu->addAction(mSelectMirrorAction);
  menu->addSeparator();
  menu->addAction(mKeyAllAction);
}

void PoseActions::refreshActions() {
  const bool hasJoints = mDocument->scene().skeleton.jointCount() > 0;
  mCopyAction->setEnabled(hasJoints);
  mPasteAction->setEnabled(!mCopied.empty());
  mMirrorAction->setEnabled(hasJoints);
  mFlipAction->setEnabled(hasJoints);
  mSelectMirrorAction->setEnabled(!mDocument->selectedJoints().empty());
  mKeyAllAction->setEnabled(KeyPoseCommand::canKeyAll(*mDocument));
}

bool PoseActions::keyAllControls() {
  if (!KeyPoseCommand::canKeyAll(*mDocument)) {
    emit problem(tr("Nothing to key: the character has no clip."));
    return false;
  }
  auto* command = new KeyPoseCommand(mDocument, KeyPoseCommand::Scope::AllControls);
  const bool changes = !command->isObsolete();
  mDocument->undoStack()->push(command);
  return changes;
}

bool PoseActions::copyPose() {
  mCopied = articula::ui::copiedPose(*mDocument, poseToolJoints(*mDocument));
  refreshActions();
  return !mCopied.empty();
}

bool PoseActions::pastePose() {
  if (mCopied.empty()) {
    emit problem(tr("Nothing to paste: copy a pose first."));
    return false;
  }
  auto* command = new PoseJointsCommand(mDocument, mCopied, tr("Paste Pose"));
  const bool changes = !command->isObsolete();
  mDocument->undoStack()->push(command);
  return changes;
}

bool PoseActions::mirrorPose(bool flip) {
  QString error;
  const auto overrides = mirroredOverrides(*mDocument, flip, &error);
  if (!overrides) {
    emit problem(tr("Cannot %1 the pose: %2").arg(flip ? tr("flip") : tr("mirror"), error));
    return false;
  }
  auto* command = new PoseJointsCommand(mDocument, *overrides, flip ? tr("Flip Pose") : tr("Mirror Pose"));
  const bool changes = !command->isObsolete();
  mDocument->undoStack()->push(command);
  return changes;
}

bool PoseActions::selectMirror() {
  const std::vector<int> before = mDocument->selectedJoints();
  mDocument->setSelectedJoints(mirrorSelection(*mDocument));
  return mDocument->selectedJoints() != before;
}

}  // namespace articula::ui
