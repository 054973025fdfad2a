#include "ui/docks/outliner_dock.h"

#include <QHeaderView>
#include <QItemSelectionModel>
#include <QTreeView>

#include <vector>

#include "ui/document/document.h"
#include "ui/models/joint_tree_model.h"

namespace articula::ui {

OutlinerDock::OutlinerDock(Document* document, QWidget* parent)
    : QDockWidget(tr("Outliner"), parent),
      mDocument(document),
      mModel(new JointTreeModel(document, this)),
      mTreeView(new QTreeView(this)) {
  setObjectName(QStringLiteral("OutlinerDock"));
  mTreeView->setModel(mModel);
  mTreeView->setSelectionMode(QAbstractItemView::ExtendedSelection);
  mTreeView->setSelectionBehavior(QAbstractItemView::SelectRows);
  mTreeView->setUniformRowHeights(true);
  mTreeView->setAllColumnsShowFocus(true);
  mTreeView->header()->setStretchLastSection(false);
  mTreeView->header()->setSectionResizeMode(JointTreeModel::NameColumn, QHeaderView::Stretch);
  mTreeView->header()->setSectionResizeMode(JointTreeModel::KindColumn, QHeaderView::ResizeToContents);
  mTreeView->expandAll();
  setWidget(mTreeView);

  connect(mTreeView->selectionModel(), &QItemSelectionModel::selectionChanged, this,
          &OutlinerDock::viewSelectionChanged);
  connect(mDocument, &Document::changed, this, &OutlinerDock::documentChanged);
}

void OutlinerDock::documentChanged(const ChangeEvent& event) {
  switch (event.type) {
    case ChangeEvent::Type::SceneReplaced:
      // The model has reset itself (it is connected first); show the whole hierarchy.
      mTreeView->expandAll();
      syncSelectionFromDocument();
      break;
    case ChangeEvent::Type::SelectionChanged:
      syncSelectionFromDocument();
      break;
    case ChangeEvent::Type::CurrentClipChanged:
    case ChangeEvent::Type::TimeChanged:
      break;
  }
}

void OutlinerDock::viewSelectionChanged() {
  if (mSyncing) return;
  std::vector<int> joints;
  const QModelIndexList rows = mTreeView->selectionModel()->selectedRows(JointTreeModel::NameColumn);
  joints.reserve(static_cast<std::size_t>(rows.size()));
  for (const QModelIndex& index : rows) joints.push_back(mModel->jointOfIndex(index));
  mSyncing = true;
  mDocument->setSelectedJoints(std::move(joints));
  mSyncing = false;
}

void OutlinerDock::syncSelectionFromDocument() {
  if (mSyncing) return;
  QItemSelection selection;
  for (int joint : mDocument->selectedJoints()) {
    selection.select(mModel->indexOfJoint(joint, JointTreeModel::NameColumn),
                     mModel->indexOfJoint(joint, JointTreeModel::KindColumn));
  }
  mSyncing = true;
  mTreeView->selectionModel()->select(selection, QItemSelectionModel::ClearAndSelect);
  if (!mDocument->selectedJoints().empty()) {
    const QModelIndex first = mModel->indexOfJoint(mDocument->selectedJoints().front());
    mTreeView->selectionModel()->setCurrentIndex(first, QItemSelectionModel::NoUpdate);
    mTreeView->scrollTo(first);
  }
  mSyncing = false;
}

}  // namespace articula::ui
