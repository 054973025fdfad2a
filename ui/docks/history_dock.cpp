#include "ui/docks/history_dock.h"

#include <QUndoView>

#include "ui/document/document.h"

namespace articula::ui {

HistoryDock::HistoryDock(Document* document, QWidget* parent)
    : QDockWidget(tr("History"), parent), mUndoView(new QUndoView(document->undoStack(), this)) {
  setObjectName(QStringLiteral("HistoryDock"));
  mUndoView->setEmptyLabel(tr("<opened>"));
  setWidget(mUndoView);
}

}  // namespace articula::ui
