#pragma once
#include "ui/commands/change_value.h"

namespace articula::ui {

// Switches the active rig's solve on or off (off: the pose is the clip and the overrides,
// pure FK). Obsolete when the rig already is in that state.
class SetRigEnabledCommand : public ChangeValue<bool> {
 public:
  SetRigEnabledCommand(Document* document, bool enabled, QUndoCommand* parent = nullptr);

 private:
  bool exchange(bool enabled) override;
};

}  // namespace articula::ui
