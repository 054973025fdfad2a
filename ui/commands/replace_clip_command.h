#pragma once
#include <QString>

#include "core/anim/clip.h"
#include "ui/commands/change_value.h"

namespace articula::ui {

// Replaces one clip of the scene with an edited copy: the generic edit behind bake, key
// edits and anything that rewrites a clip's keys. Holds a whole clip, which is cheap next
// to what an animator expects undo to remember, and exact (no diff to get wrong).
class ReplaceClipCommand : public ChangeValue<Clip> {
 public:
  ReplaceClipCommand(Document* document, int clipIndex, Clip clip, const QString& text, QUndoCommand* parent = nullptr);

 private:
  Clip exchange(Clip clip) override;

  const int mClipIndex;
};

}  // namespace articula::ui
