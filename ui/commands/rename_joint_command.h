#pragma once
#include <QString>

#include <string>

#include "ui/commands/change_value.h"

namespace articula::ui {

// Renames one skeleton node. Names must stay non-empty and unique (exporters and rigs find
// joints by name), so check with validate() before pushing.
class RenameJointCommand : public ChangeValue<std::string> {
 public:
  RenameJointCommand(Document* document, int joint, const QString& name, QUndoCommand* parent = nullptr);

  // Why `name` cannot be given to `joint` (invalid joint, empty name, surrounding spaces,
  // a name another node has), or an empty string when it can.
  static QString validate(const Document& document, int joint, const QString& name);


 private:
  std::string exchange(std::string name) override;

  const int mJoint;
};

}  // namespace articula::ui
