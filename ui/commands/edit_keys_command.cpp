#include "ui/commands/edit_keys_command.h"

#include "ui/commands/command_ids.h"

namespace articula::ui {

EditKeysCommand::EditKeysCommand(Document* document, int clipIndex, Clip clip, const QString& text,
                                 QUndoCommand* parent)
    : ReplaceClipCommand(document, clipIndex, std::move(clip), text, parent), mClipIndex(clipIndex) {}

int EditKeysCommand::id() const { return kEditKeysCommandId; }

bool EditKeysCommand::mergeWith(const QUndoCommand* other) {
  const auto* next = dynamic_cast<const EditKeysCommand*>(other);
  // The stack has already run `next`, so the document holds the clip of the latest mouse
  // move; this command keeps the clip from before the drag for undo.
  return next && next->mClipIndex == mClipIndex && canFold(*next);
}

}  // namespace articula::ui
