#include "ui/commands/set_joint_transform_command.h"

#include <QCoreApplication>

#include "ui/commands/command_ids.h"
#include "ui/document/document.h"

namespace articula::ui {

namespace {

QString commandText(SetJointTransformCommand::Channel channel, const std::string& jointName) {
  const QString name = QString::fromStdString(jointName);
  switch (channel) {
    case SetJointTransformCommand::Channel::Translate:
      return QCoreApplication::translate("SetJointTransformCommand", "Move %1").arg(name);
    case SetJointTransformCommand::Channel::Rotate:
      return QCoreApplication::translate("SetJointTransformCommand", "Rotate %1").arg(name);
    case SetJointTransformCommand::Channel::Scale:
      return QCoreApplication::translate("SetJointTransformCommand", "Scale %1").arg(name);
    case SetJointTransformCommand::Channel::Transform:
      break;
  }
  return QCoreApplication::translate("SetJointTransformCommand", "Pose %1").arg(name);
}

bool sameTransform(const Transform& a, const Transform& b) {
  return a.translation == b.translation && a.rotation.coeffs() == b.rotation.coeffs() && a.scale == b.scale;
}

}  // namespace

SetJointTransformCommand::SetJointTransformCommand(Document* document, int joint, const Transform& local,
                                                   Channel channel, QUndoCommand* parent)
    : QUndoCommand(parent), mDocument(document), mJoint(joint), mChannel(channel), mLocal(local) {
  const Skeleton& skeleton = document->scene().skeleton;
  const bool valid = joint >= 0 && joint < skeleton.jointCount();
  setText(commandText(channel, valid ? skeleton.name(joint) : std::string("?")));
  if (!valid) {
    setObsolete(true);
    return;
  }
  if (document->hasPoseOverride(joint)) mPrevious = document->poseOverrides().at(joint);
  mShownBefore = document->localPose()[static_cast<std::size_t>(joint)];
}

void SetJointTransformCommand::redo() {
  if (isObsolete()) return;
  mDocument->setPoseOverride({}, mJoint, mLocal);
}

void SetJointTransformCommand::undo() {
  if (isObsolete()) return;
  mDocument->setPoseOverride({}, mJoint, mPrevious);
}

int SetJointTransformCommand::id() const { return kSetJointTransformCommandId; }

bool SetJointTransformCommand::mergeWith(const QUndoCommand* other) {
  const auto* next = static_cast<const SetJointTransformCommand*>(other);
  if (!next->mMergeable || next->mDocument != mDocument || next->mJoint != mJoint || next->mChannel != mChannel) {
    return false;
  }
  mLocal = next->mLocal;
  updateObsolete();
  return true;
}

void SetJointTransformCommand::updateObsolete() {
  // Back where the drag started (and there was no override to restore): the stack drops
  // an obsolete command without undoing it, so put the document back ourselves.
  if (mPrevious || !sameTransform(mLocal, mShownBefore)) return;
  mDocument->setPoseOverride({}, mJoint, std::nullopt);
  setObsolete(true);
}

}  // namespace articula::ui
