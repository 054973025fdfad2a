#pragma once
#include "ui/commands/replace_clip_command.h"

namespace articula::ui {

// A filter's result in place of the clip it filtered (Animation ▸ Filter…). The dialog
// pushes one as its preview; a change of settings or Cancel undoes it for good
// (dropOnUndo: the stack deletes it once undone, so Redo cannot bring a cancelled preview
// back), and OK keeps the last one: one undo step.
class FilterClipCommand : public ReplaceClipCommand {
 public:
  using ReplaceClipCommand::ReplaceClipCommand;

  void dropOnUndo() { mDropOnUndo = true; }
  void undo() override;

 private:
  bool mDropOnUndo = false;
};

}  // namespace articula::ui
