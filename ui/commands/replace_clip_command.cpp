#include "ui/commands/replace_clip_command.h"

#include "ui/document/document.h"

namespace articula::ui {

ReplaceClipCommand::ReplaceClipCommand(Document* document, int clipIndex, Clip clip, const QString& text,
                                       QUndoCommand* parent)
    : ChangeValue(document, std::move(clip), text, parent), mClipIndex(clipIndex) {
  if (clipIndex < 0 || clipIndex >= static_cast<int>(document->scene().clips.size())) setObsolete(true);
}

Clip ReplaceClipCommand::exchange(Clip clip) { return document()->replaceClip({}, mClipIndex, std::move(clip)); }

}  // namespace articula::ui
