#include "ui/commands/replace_clip_command.h"

#include "ui/document/document.h"

namespace articula::ui {

ReplaceClipCommand::ReplaceClipCommand(Document* document, int clipIndex, Clip clip, const QString& text,
                                       QUndoCommand* parent)
    : QUndoCommand(text, parent), mDocument(document), mClipIndex(clipIndex), mClip(std::move(clip)) {
  if (clipIndex < 0 || clipIndex >= static_cast<int>(document->scene().clips.size())) setObsolete(true);
}

void ReplaceClipCommand::redo() { swapClip(); }
void ReplaceClipCommand::undo() { swapClip(); }

void ReplaceClipCommand::swapClip() {
  if (isObsolete()) return;
  mClip = mDocument->replaceClip({}, mClipIndex, std::move(mClip));
}

}  // namespace articula::ui
