#include "ui/dialogs/clip_preview.h"

#include <QUndoStack>

#include "ui/commands/replace_clip_command.h"
#include "ui/document/document.h"

namespace articula::ui {

ClipPreview::ClipPreview(Document* document) : mDocument(document) {}

ClipPreview::~ClipPreview() { drop(); }

void ClipPreview::show(std::unique_ptr<ReplaceClipCommand> edit) {
  drop();
  mShown = std::move(edit);
  mShown->redo();
}

void ClipPreview::drop() {
  if (mShown == nullptr) return;
  mShown->undo();
  mShown.reset();
}

void ClipPreview::apply() {
  if (mShown == nullptr) return;
  // Back to the clip as the user left it, then the same edit again through the stack.
  mShown->undo();
  mDocument->undoStack()->push(mShown.release());
}

}  // namespace articula::ui
