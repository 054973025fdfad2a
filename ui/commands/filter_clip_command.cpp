#include "ui/commands/filter_clip_command.h"

namespace articula::ui {

void FilterClipCommand::undo() {
  ReplaceClipCommand::undo();
  if (mDropOnUndo) setObsolete(true);  // QUndoStack deletes a command obsolete after its undo
}

}  // namespace articula::ui
