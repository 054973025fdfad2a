#pragma once
#include <QDockWidget>

class QItemSelection;
class QTreeView;

namespace articula::ui {

class Document;
class JointTreeModel;
struct ChangeEvent;

// The node forest of the open scene as a tree. Selecting items selects joints in the
// document; a selection made elsewhere (the viewport) is mirrored here.
class OutlinerDock : public QDockWidget {
  Q_OBJECT

 public:
  explicit OutlinerDock(Document* document, QWidget* parent = nullptr);

  QTreeView* treeView() const { return mTreeView; }
  JointTreeModel* model() const { return mModel; }

 private:
  void documentChanged(const ChangeEvent& event);
  void viewSelectionChanged();
  void syncSelectionFromDocument();

  Document* const mDocument;
  JointTreeModel* const mModel;
  QTreeView* const mTreeView;
  // Set while this dock writes one side of the selection, so the echo from the other side
  // does not come back as a second, partial change.
  bool mSyncing = false;
};

}  // namespace articula::ui
