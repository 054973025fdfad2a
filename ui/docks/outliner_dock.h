#pragma once
#include <QDockWidget>

#include <vector>

class QAction;
class QLabel;
class QLineEdit;
class QSortFilterProxyModel;
class QTreeView;

namespace articula::ui {

class Document;
class JointTreeModel;
struct ChangeEvent;

// The node forest of the open scene as a tree, with the active rig's IK handles under the
// joints their chains end at, and a name filter above it. Selecting items selects joints
// (and the first selected handle) in the document; a selection made elsewhere (the
// viewport, the Rig panel) is mirrored here. Double-click or F2 renames a node (one undo
// step).
class OutlinerDock : public QDockWidget {
  Q_OBJECT

 public:
  explicit OutlinerDock(Document* document, QWidget* parent = nullptr);

  QTreeView* treeView() const { return mTreeView; }
  JointTreeModel* model() const { return mModel; }
  // The view shows the model through this filter (case-insensitive substring of the whole
  // name; ancestors of a match stay visible, greyed, so the tree keeps its shape; matches
  // are bold). Typing in the filter scrolls the first match into view.
  QSortFilterProxyModel* filterModel() const { return mFilterModel; }
  QLineEdit* filterEdit() const { return mFilterEdit; }
  // Under the filter, shown only when the model lists nodes flat past its depth limit, saying
  // how many.
  QLabel* depthNote() const { return mDepthNote; }
  // Checkable, in the header's context menu: shows the Kind column (hidden by default).
  QAction* showKindAction() const { return mShowKindAction; }

  // Item of the tree view showing `joint`, invalid when filtered out.
  QModelIndex viewIndexOfJoint(int joint, int column = 0) const;
  int jointOfViewIndex(const QModelIndex& index) const;
  // Item of the tree view showing handle `handle` of the active rig, invalid when there is none.
  QModelIndex viewIndexOfHandle(int handle, int column = 0) const;

 private:
  void documentChanged(const ChangeEvent& event);
  void viewSelectionChanged();
  void syncSelectionFromDocument();
  // Scrolls the tree to the first row the filter matches by its own name.
  void revealFirstMatch();
  void addKindColumnToggle();
  void updateDepthNote();
  // Narrows the tree's indentation (down to a minimum) until the deepest names fit the
  // view, so a deep hierarchy (the robot's fingers, a handle under a hand) reads whole at
  // the editor's default size instead of scrolling sideways.
  void fitIndentation();
  // Measures the widest icon and name at each depth of the tree (mWidthAtDepth).
  void measureNames();
  bool eventFilter(QObject* watched, QEvent* event) override;

  Document* const mDocument;
  JointTreeModel* const mModel;
  QSortFilterProxyModel* const mFilterModel;
  QLineEdit* const mFilterEdit;
  QTreeView* const mTreeView;
  QLabel* const mDepthNote;
  QAction* mShowKindAction = nullptr;
  // Pixels the widest icon and name need at each depth (index 1: top-level rows).
  std::vector<int> mWidthAtDepth;
  // Set while this dock writes one side of the selection, so the echo from the other side
  // does not come back as a second, partial change.
  bool mSyncing = false;
};

}  // namespace articula::ui
