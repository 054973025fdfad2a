#pragma once
#include <QDockWidget>

class QUndoView;

namespace articula::ui {

class Document;

// The document's undo stack as a list (QUndoView): clicking an entry undoes or redoes up
// to it.
class HistoryDock : public QDockWidget {
  Q_OBJECT

 public:
  explicit HistoryDock(Document* document, QWidget* parent = nullptr);

  QUndoView* undoView() const { return mUndoView; }

 private:
  QUndoView* const mUndoView;
};

}  // namespace articula::ui
