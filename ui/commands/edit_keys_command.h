#pragma once
#include "ui/commands/replace_clip_command.h"

namespace articula::ui {

// A key edit made by dragging in the dope sheet or the curve editor (keys moved, a handle
// turned): the clip as it should be after this mouse move. Like SetJointTransformCommand,
// the view marks every command after the first of a drag mergeable; a mergeable command
// folds into the previous one when both edit the same clip, so the stack keeps the clip
// from before the drag and the whole drag is one undo step (Tiled's object drag).
class EditKeysCommand : public ReplaceClipCommand {
 public:
  EditKeysCommand(Document* document, int clipIndex, Clip clip, const QString& text, QUndoCommand* parent = nullptr);

  int id() const override;
  bool mergeWith(const QUndoCommand* other) override;

 private:
  const int mClipIndex;
};

}  // namespace articula::ui
