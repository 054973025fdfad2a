#pragma once
#include <QString>
#include <QUndoCommand>

#include "core/anim/clip.h"

namespace articula::ui {

class Document;

// Replaces one clip of the scene with an edited copy: the generic edit behind bake, key
// edits and anything that rewrites a clip's keys. Holds a whole clip, which is cheap next
// to what an animator expects undo to remember, and exact (no diff to get wrong).
class ReplaceClipCommand : public QUndoCommand {
 public:
  ReplaceClipCommand(Document* document, int clipIndex, Clip clip, const QString& text, QUndoCommand* parent = nullptr);

  void redo() override;
  void undo() override;

 private:
  void swapClip();

  Document* const mDocument;
  const int mClipIndex;
  Clip mClip;  // the clip redo (or undo) puts in place
};

}  // namespace articula::ui
