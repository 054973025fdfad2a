#pragma once
#include <QString>

#include <string>
#include <vector>

#include "core/skeleton/skeleton.h"
#include "ui/commands/change_value.h"

namespace articula::ui {

// Sets the humanoid characterisation: the role label of every joint at once (Skeleton::role),
// so an assignment, a clear or a map file read is one undo step. Labels equal to the
// document's make an obsolete command.
class SetRolesCommand : public ChangeValue<std::vector<std::string>> {
 public:
  SetRolesCommand(Document* document, std::vector<std::string> roles, const QString& text,
                  QUndoCommand* parent = nullptr);

  // The skeleton's labels, one per joint.
  static std::vector<std::string> rolesOf(const Skeleton& skeleton);

 private:
  std::vector<std::string> exchange(std::vector<std::string> roles) override;
};

}  // namespace articula::ui
