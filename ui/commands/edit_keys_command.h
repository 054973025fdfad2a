#pragma once
#include <QString>

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
class EditKeysCommand : public ChangeValue<Clip> {
 public:
  enum class Scope { WholeClip, Part };

  EditKeysCommand(Document* document, int clipIndex, Clip clip, const QString& text, QUndoCommand* parent = nullptr);
  EditKeysCommand(Document* document, int clipIndex, Scope scope, Clip clipOrPart, const QString& text,
                  QUndoCommand* parent = nullptr);

  Scope scope() const { return mScope; }

  int id() const override;
  bool mergeWith(const QUndoCommand* other) override;

 private:
  Clip exchange(Clip keys) override;
  bool holdsSameChannels(const EditKeysCommand& other) const;

  const int mClipIndex;
  const Scope mScope;
};

}  // namespace articula::ui
