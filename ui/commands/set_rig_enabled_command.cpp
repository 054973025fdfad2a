#include "ui/commands/set_rig_enabled_command.h"

#include <QCoreApplication>

#include "ui/document/document.h"

namespace articula::ui {

SetRigEnabledCommand::SetRigEnabledCommand(Document* document, bool enabled, QUndoCommand* parent)
    : ChangeValue(document, enabled,
                  enabled ? QCoreApplication::translate("SetRigEnabledCommand", "Enable Rig")
                          : QCoreApplication::translate("SetRigEnabledCommand", "Disable Rig"),
                  parent) {
  if (document->rigEnabled() == enabled) setObsolete(true);
}

bool SetRigEnabledCommand::exchange(bool enabled) { return document()->setRigEnabled({}, enabled); }

}  // namespace articula::ui
