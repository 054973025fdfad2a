#include "ui/commands/set_convention_command.h"

#include "ui/document/document.h"

namespace articula::ui {

SetConventionCommand::SetConventionCommand(Document* document, ConventionOverride convention, const QString& text,
                                           QUndoCommand* parent)
    : ChangeValue(document, std::move(convention), text, parent) {
  if (value() == document->scene().convention) setObsolete(true);
}

ConventionOverride SetConventionCommand::exchange(ConventionOverride convention) {
  return document()->setConvention({}, std::move(convention));
}

}  // namespace articula::ui
