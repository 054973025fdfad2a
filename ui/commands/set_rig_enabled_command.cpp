#include "ui/commands/set_rig_enabled_command.h"

#include <QCoreApplication>

#include "ui/document/document.h"

namespace articula::ui {

SetRigEnabledCommand::SetRigEnabledCommand(Document* document, bool enabled, QUndoCommand* parent)
    : QUndoCommand(enabled ? QCoreApplication::translate("SetRigEnabledCommand", "Enable Rig")
                           : QCoreApplication::translate("SetRigEnabledCommand", "Disable Rig"),
                   parent),
      mDocument(document),
      mEnabled(enabled) {
  if (document->rigEnabled() == enabled) setObsolete(true);
}

void SetRigEnabledCommand::redo() {
  if (!isObsolete()) mDocument->setRigEnabled({}, mEnabled);
}

void SetRigEnabledCommand::undo() {
  if (!isObsolete()) mDocument->setRigEnabled({}, !mEnabled);
}

}  // namespace articula::ui
