#pragma once
#include <QUndoCommand>

#include <map>

#include "core/anim/clip.h"
#include "ui/document/document.h"

namespace articula::ui {

// An edit on top of the undo stack and the key Auto Key makes of it, as one undo step (a drag
// is one undo step, keyed or not: one Ctrl+Z takes back the drag and its key, as in Maya).
// replaceTopEdit() makes it while the edit's result is shown: it holds that result (the
// current clip, the pose overrides, the handle poses, all an edit of a pose can change) and a
// KeyPoseCommand of it, undoes the edit and pushes itself in the edit's place, so redo puts
// the result back and keys it, and undo takes both back.
class KeyedEditCommand : public QUndoCommand {
 public:
  // Replaces the edit on top of `document`'s stack (at its end) by it and its key; `handle`
  // is the handle keyed with the pose (KeyPoseCommand's; -1: none). Nothing happens when
  // there is no such edit or nothing to key.
  static void replaceTopEdit(Document* document, int handle);

  void redo() override;
  void undo() override;

 private:
  KeyedEditCommand(Document* document, const QString& text);
  void swapState();

  Document* const mDocument;
  const int mClipIndex;
  // What redo puts in place (after it, what undo puts back): the edit's result, or the
  // state before the edit.
  Clip mClip;
  std::map<int, Transform> mOverrides;
  std::map<int, HandlePose> mHandlePoses;
};

}  // namespace articula::ui
