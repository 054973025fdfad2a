#include "ui/commands/rename_joint_command.h"

#include <QCoreApplication>

#include "ui/document/document.h"

namespace articula::ui {

RenameJointCommand::RenameJointCommand(Document* document, int joint, const QString& name, QUndoCommand* parent)
    : ChangeValue(document, name.toStdString(), QString(), parent), mJoint(joint) {
  const QString problem = validate(*document, joint, name);
  if (!problem.isEmpty()) {
    setText(problem);
    setObsolete(true);
    return;
  }
  setText(QCoreApplication::translate("RenameJointCommand", "Rename %1 to %2")
              .arg(QString::fromStdString(document->scene().skeleton.name(joint)), name));
  // Renaming to the current name changes nothing.
  if (document->scene().skeleton.name(joint) == value()) setObsolete(true);
}

QString RenameJointCommand::validate(const Document& document, int joint, const QString& name) {
  const Skeleton& skeleton = document.scene().skeleton;
  if (joint < 0 || joint >= skeleton.jointCount()) {
    return QCoreApplication::translate("RenameJointCommand", "no joint %1 in the skeleton").arg(joint);
  }
  if (name.isEmpty()) return QCoreApplication::translate("RenameJointCommand", "a joint name cannot be empty");
  if (name.trimmed() != name) {
    return QCoreApplication::translate("RenameJointCommand", "joint name \"%1\" starts or ends with a space").arg(name);
  }
  const int other = skeleton.findJoint(name.toStdString());
  if (other >= 0 && other != joint) {
    return QCoreApplication::translate("RenameJointCommand", "another node (%1) is already named \"%2\"")
        .arg(other)
        .arg(name);
  }
  return {};
}

std::string RenameJointCommand::exchange(std::string name) {
  return document()->renameJoint({}, mJoint, std::move(name));
}

}  // namespace articula::ui
