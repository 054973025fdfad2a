#pragma once
#include <QString>
#include <QUndoCommand>

#include <optional>
#include <set>

#include "core/rig/ik_handle.h"
#include "ui/commands/change_value.h"

namespace articula::ui {

class Document;

// Changes the settings of handle `handle` of the active rig (solver, weight, iterations,
// tolerance, enabled, pole, limits, ...): the whole handle is swapped, so one command covers
// every field. Slider drags are one undo step: commands after the first of a drag are made
// mergeable and fold into the previous one when they edit the same handle.
class EditHandleCommand : public ChangeValue<IkHandle> {
 public:
  EditHandleCommand(Document* document, int handle, IkHandle value, const QString& text,
                    QUndoCommand* parent = nullptr);

  // Why handle `handle` of the active rig cannot become `value` (no rig, bad index, or
  // Rig::bind's message), empty when it can.
  static QString validate(const Document& document, int handle, const IkHandle& value);

  int id() const override;
  bool mergeWith(const QUndoCommand* other) override;

 private:
  IkHandle exchange(IkHandle value) override;

  const int mHandle;
};

// Moves the target (model space) or the pole (in the pole's space, IkPole::space) of handle
// `handle` of the active rig. Dragging solves the rig at every mouse move: the tool pushes
// one command per move, mergeable after the first (Tiled's object drag), so a drag is one
// undo step; a drag back to the start leaves an obsolete command, which the stack drops.
// A target move switches the handle to TargetSource::Handle; undo restores its source.
// The moved handle is posed (Document::posedHandles) so the move shows even where clip
// curves animate it; undo restores the posed handles too.
class MoveHandleCommand : public QUndoCommand {
 public:
  enum class Part { Target, Pole };

  MoveHandleCommand(Document* document, int handle, Part part, const Vec3& position, QUndoCommand* parent = nullptr);
  // Puts the handle back to `startValue`, what it was when the drag began (its target
  // source and its pole exactly, which a position read back through model space would
  // not give): a drag that returns to its starting point merges into no change at all.
  MoveHandleCommand(Document* document, int handle, Part part, const IkHandle& startValue,
                    QUndoCommand* parent = nullptr);

  int handle() const { return mHandle; }
  void setMergeable(bool mergeable) { mMergeable = mergeable; }
  void redo() override;
  void undo() override;
  int id() const override;
  bool mergeWith(const QUndoCommand* other) override;

 private:
  void restorePrevious();

  Document* const mDocument;
  const int mHandle;
  const Part mPart;
  bool mMergeable = false;
  IkHandle mValue;               // applied by redo
  IkHandle mPrevious;            // the handle before the first command of the drag
  std::set<int> mPreviousPosed;  // the posed handles before the first command of the drag
};

}  // namespace articula::ui
