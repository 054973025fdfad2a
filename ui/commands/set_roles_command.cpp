#include "ui/commands/set_roles_command.h"

#include "ui/document/document.h"

namespace articula::ui {

SetRolesCommand::SetRolesCommand(Document* document, std::vector<std::string> roles, const QString& text,
                                 QUndoCommand* parent)
    : ChangeValue(document, std::move(roles), text, parent) {
  if (value() == rolesOf(document->scene().skeleton)) setObsolete(true);
}

std::vector<std::string> SetRolesCommand::rolesOf(const Skeleton& skeleton) {
  std::vector<std::string> roles;
  roles.reserve(static_cast<std::size_t>(skeleton.jointCount()));
  for (int joint = 0; joint < skeleton.jointCount(); ++joint) roles.push_back(skeleton.role(joint));
  return roles;
}

std::vector<std::string> SetRolesCommand::exchange(std::vector<std::string> roles) {
  return document()->setJointRoles({}, std::move(roles));
}

}  // namespace articula::ui
