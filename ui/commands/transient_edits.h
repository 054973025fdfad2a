#pragma once
#include <QObject>

class QUndoCommand;

namespace articula::ui {

class Document;
struct ChangeEvent;

// Whether `command` only posed the current frame (Document::poseOverrides, handlePoses): a
// joint edit, a move of an animated handle part, a pose tool or an IK/FK snap made of those.
// Such a pose is not animation: the next frame drops it.
bool isTransientEdit(const QUndoCommand* command);

// Keeps the History free of steps that do nothing (issue 35's contract: an un-keyed move of
// an animated control is a transient offset of its frame). When the time or the clip
// changes and the frame's poses are gone, the transient edits on top of the undo stack are
// removed from it: their undo and redo would only change a pose nobody sees any more.
// Edits under a later step, and undone ones (the redo side), stay.
class TransientEdits : public QObject {
  Q_OBJECT

 public:
  explicit TransientEdits(Document* document, QObject* parent = nullptr);

 private:
  void documentChanged(const ChangeEvent& event);
  void dropDeadEdits();

  Document* const mDocument;
  bool mQueued = false;
};

}  // namespace articula::ui
