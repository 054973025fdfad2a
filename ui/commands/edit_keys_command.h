#pragma once
#include <QString>

#include <functional>
#include <utility>

#include "core/anim/clip.h"
#include "ui/commands/change_value.h"

namespace articula::ui {

// A key edit made in the dope sheet or the curve editor. Two kinds:
// - a whole clip (delete, paste, interpolation, an added key): the clip as it should be;
// - a part of the clip (a drag): the dragged channels' tracks and curves and the clip's
//   range as they should be after this mouse move (Document::swapClipPart), so a mouse
//   move on a 1,000-frame clip swaps a few tracks instead of copying the clip.
// Like SetJointTransformCommand, the view marks every command after the first of a drag
// mergeable; a mergeable part folds into the previous one when both hold the same tracks
// and curves of the same clip, so the stack keeps what the drag started from and the whole
// drag is one undo step (Tiled's object drag).
// With `layer` >= 0 the clip or part holds the keys of that layer of the clip
// (Document::editedKeys, layerKeysOf) and goes back into that layer alone
// (Document::swapLayerKeys): the base and the other layers are never touched. On a locked
// layer the command is obsolete: it changes nothing.
class EditKeysCommand : public ChangeValue<Clip> {
 public:
  enum class Scope { WholeClip, Part };

  EditKeysCommand(Document* document, int clipIndex, Clip clip, const QString& text, QUndoCommand* parent = nullptr);
  EditKeysCommand(Document* document, int clipIndex, Scope scope, Clip clipOrPart, const QString& text,
                  QUndoCommand* parent = nullptr);
  EditKeysCommand(Document* document, int clipIndex, int layer, Scope scope, Clip clipOrPart, const QString& text,
                  QUndoCommand* parent = nullptr);

  Scope scope() const { return mScope; }
  int layer() const { return mLayer; }  // -1: the base

  // Puts back the key selection that goes with the keys, in the view that made the edit:
  // called with true after each undo, with false after each redo that follows an undo (on
  // the push the view selects for itself). The first of a drag's merged commands keeps its
  // own, so undoing the drag selects the keys where the drag found them.
  using SelectionRestore = std::function<void(bool undone)>;
  void setSelectionRestore(SelectionRestore restore) { mSelectionRestore = std::move(restore); }

  void redo() override;
  void undo() override;

  int id() const override;
  bool mergeWith(const QUndoCommand* other) override;

 private:
  Clip exchange(Clip keys) override;
  bool holdsSameChannels(const EditKeysCommand& other) const;

  const int mClipIndex;
  const int mLayer;
  const Scope mScope;
  SelectionRestore mSelectionRestore;
  bool mPushed = false;  // the first redo is the push
};

}  // namespace articula::ui
