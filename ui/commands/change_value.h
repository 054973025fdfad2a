#pragma once
#include <QString>
#include <QUndoCommand>

#include <utility>

namespace articula::ui {

class Document;

// A command that changes one value of the document (Tiled's changevalue.h): redo and undo
// both swap the value the command holds with the document's, through one of the
// Document's edit entry points (each returns the value it replaced). So a command holds
// one value, never a copy of "before" and "after".
//
// Drags are one undo step: the view marks every command after the first of a drag
// mergeable, and the subclass's mergeWith folds it in with foldDrag.
template <typename Value>
class ChangeValue : public QUndoCommand {
 public:
  void setMergeable(bool mergeable) { mMergeable = mergeable; }

  void redo() override { swapValue(); }
  void undo() override { swapValue(); }

 protected:
  // `value` is what redo puts in place.
  ChangeValue(Document* document, Value value, const QString& text, QUndoCommand* parent)
      : QUndoCommand(text, parent), mDocument(document), mValue(std::move(value)) {}

  // Puts `value` in place in the document and returns the value it replaced.
  virtual Value exchange(Value value) = 0;

  Document* document() const { return mDocument; }
  // Before the first redo, what redo puts in place; after it, what undo puts back.
  const Value& value() const { return mValue; }

  // Folds `next`, a later command of the same drag, into this one. The stack has already
  // run `next`, so the document holds the drag's latest value and this command still holds
  // the one from before the drag: nothing to copy. A drag back to where it began (`current`
  // equal to that value) leaves an obsolete command, which the stack drops without undoing.
  bool foldDrag(const ChangeValue& next, const Value& current) {
    if (!canFold(next)) return false;
    setObsolete(current == mValue);
    return true;
  }
  // Whether `next` is a later command of the same drag on the same document.
  bool canFold(const ChangeValue& next) const {
    return next.mMergeable && next.mDocument == mDocument && !next.isObsolete() && !isObsolete();
  }

 private:
  void swapValue() {
    if (!isObsolete()) mValue = exchange(std::move(mValue));
  }

  Document* const mDocument;
  Value mValue;
  bool mMergeable = false;
};

}  // namespace articula::ui
