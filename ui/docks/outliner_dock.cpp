#include "ui/docks/outliner_dock.h"

#include <QAction>
#include <QBrush>
#include <QEvent>
#include <QFont>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLineEdit>
#include <QSortFilterProxyModel>
#include <QStyle>
#include <QToolTip>
#include <QTreeView>
#include <QVBoxLayout>

#include <algorithm>
#include <utility>
#include <vector>

#include "ui/document/document.h"
#include "ui/models/joint_tree_model.h"

namespace articula::ui {

namespace {

// The name filter: rows whose whole name (namespace included) contains the text, and their
// ancestors for the tree's shape. The matches are bold; the ancestors kept only for context
// are grey, so the row to click is the one that stands out.
class OutlinerFilterModel : public QSortFilterProxyModel {
 public:
  using QSortFilterProxyModel::QSortFilterProxyModel;

  QVariant data(const QModelIndex& index, int role) const override {
    if ((role != Qt::ForegroundRole && role != Qt::FontRole) || filterRegularExpression().pattern().isEmpty())
      return QSortFilterProxyModel::data(index, role);
    const bool match = matchesItself(index);
    if (role == Qt::FontRole) {
      QFont font;
      font.setBold(match);
      return font;
    }
    return match ? QSortFilterProxyModel::data(index, role) : QVariant(QBrush(QColor(128, 128, 134)));
  }

  // Whether the row at `index` (of this model) is shown for its own name, not only as the
  // ancestor of a match (that recursion is the proxy's, not filterAcceptsRow's).
  bool matchesItself(const QModelIndex& index) const {
    const QModelIndex source = mapToSource(index);
    return filterAcceptsRow(source.row(), source.parent());
  }

  // The first row, in the tree's top-to-bottom order, that matches by its own name, under
  // `parent`; invalid when none does.
  QModelIndex firstMatch(const QModelIndex& parent = {}) const {
    for (int row = 0; row < rowCount(parent); ++row) {
      const QModelIndex item = index(row, 0, parent);
      if (matchesItself(item)) return item;
      if (const QModelIndex below = firstMatch(item); below.isValid()) return below;
    }
    return {};
  }
};

}  // namespace

OutlinerDock::OutlinerDock(Document* document, QWidget* parent)
    : QDockWidget(tr("Outliner"), parent),
      mDocument(document),
      mModel(new JointTreeModel(document, this)),
      mFilterModel(new OutlinerFilterModel(this)),
      mFilterEdit(new QLineEdit(this)),
      mTreeView(new QTreeView(this)),
      mDepthNote(new QLabel(this)) {
  setObjectName(QStringLiteral("OutlinerDock"));
  mFilterModel->setSourceModel(mModel);
  mFilterModel->setFilterKeyColumn(JointTreeModel::NameColumn);
  // The whole name: typing the namespace the tree leaves out still matches.
  mFilterModel->setFilterRole(Qt::EditRole);
  mFilterModel->setFilterCaseSensitivity(Qt::CaseInsensitive);
  mFilterModel->setRecursiveFilteringEnabled(true);
  mFilterEdit->setPlaceholderText(tr("Filter by name"));
  mFilterEdit->setClearButtonEnabled(true);
  connect(mFilterEdit, &QLineEdit::textChanged, this, [this](const QString& text) {
    // Filtering hides rows, which the view reports as deselection; the document keeps its
    // selection (a hidden joint stays selected).
    mSyncing = true;
    mFilterModel->setFilterFixedString(text);
    mSyncing = false;
    mTreeView->expandAll();
    syncSelectionFromDocument();
    if (!text.isEmpty()) revealFirstMatch();
  });
  connect(mModel, &JointTreeModel::renameRefused, this, [this](const QString& message) {
    QToolTip::showText(mTreeView->mapToGlobal(mTreeView->visualRect(mTreeView->currentIndex()).bottomLeft()), message,
                       mTreeView);
  });
  mTreeView->setModel(mFilterModel);
  mTreeView->setEditTriggers(QAbstractItemView::DoubleClicked | QAbstractItemView::EditKeyPressed);
  mTreeView->setSelectionMode(QAbstractItemView::ExtendedSelection);
  mTreeView->setSelectionBehavior(QAbstractItemView::SelectRows);
  mTreeView->setUniformRowHeights(true);
  mTreeView->setAllColumnsShowFocus(true);
  // Names whole: the column is as wide as the longest (the view scrolls sideways), and a
  // name squeezed by hand loses its middle, not the end that tells Left from Right.
  mTreeView->setTextElideMode(Qt::ElideMiddle);
  mTreeView->header()->setStretchLastSection(false);
  mTreeView->header()->setSectionResizeMode(JointTreeModel::NameColumn, QHeaderView::ResizeToContents);
  mTreeView->header()->setSectionResizeMode(JointTreeModel::KindColumn, QHeaderView::ResizeToContents);
  addKindColumnToggle();
  mTreeView->expandAll();
  auto* content = new QWidget(this);
  auto* layout = new QVBoxLayout(content);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->setSpacing(2);
  layout->addWidget(mFilterEdit);
  mDepthNote->setWordWrap(true);
  layout->addWidget(mDepthNote);
  updateDepthNote();
  layout->addWidget(mTreeView);
  setWidget(content);

  connect(mTreeView->selectionModel(), &QItemSelectionModel::selectionChanged, this,
          &OutlinerDock::viewSelectionChanged);
  // A new scene, a rig change or a handle moved to another tip resets the model: show the
  // whole hierarchy again with the document's selection.
  connect(mModel, &QAbstractItemModel::modelReset, this, [this] {
    updateDepthNote();
    mTreeView->expandAll();
    measureNames();
    fitIndentation();
    syncSelectionFromDocument();
  });
  connect(mModel, &QAbstractItemModel::dataChanged, this,
          [this](const QModelIndex&, const QModelIndex&, const QList<int>& roles) {
            if (!roles.contains(Qt::EditRole)) return;  // a joint renamed; a handle drag is not
            measureNames();
            fitIndentation();
          });
  mTreeView->viewport()->installEventFilter(this);
  measureNames();
  fitIndentation();
  connect(mDocument, &Document::changed, this, &OutlinerDock::documentChanged);
}

// The icon already tells a joint from a transform or a handle: the Kind column is optional,
// hidden by default, shown from the header's context menu.
void OutlinerDock::addKindColumnToggle() {
  mShowKindAction = new QAction(tr("Show Kind Column"), this);
  mShowKindAction->setObjectName(QStringLiteral("actionShowKindColumn"));
  mShowKindAction->setCheckable(true);
  connect(mShowKindAction, &QAction::toggled, this,
          [this](bool shown) { mTreeView->setColumnHidden(JointTreeModel::KindColumn, !shown); });
  mTreeView->setColumnHidden(JointTreeModel::KindColumn, true);
  mTreeView->header()->setContextMenuPolicy(Qt::ActionsContextMenu);
  mTreeView->header()->addAction(mShowKindAction);
}

// As Maya's and Blender's outliners do: the row the filter found is in view (the view keeps
// its scroll position otherwise, which a short filtered tree may leave past the match). The
// selection stays the document's.
void OutlinerDock::revealFirstMatch() {
  const QModelIndex match = static_cast<const OutlinerFilterModel*>(mFilterModel)->firstMatch();
  if (match.isValid()) mTreeView->scrollTo(match);
}

bool OutlinerDock::eventFilter(QObject* watched, QEvent* event) {
  if (watched == mTreeView->viewport() && event->type() == QEvent::Resize) fitIndentation();
  return QDockWidget::eventFilter(watched, event);
}

void OutlinerDock::measureNames() {
  mWidthAtDepth.clear();
  const int iconWidth =
      mTreeView->iconSize().isValid() ? mTreeView->iconSize().width() : style()->pixelMetric(QStyle::PM_SmallIconSize);
  const int padding = iconWidth + 4 * style()->pixelMetric(QStyle::PM_FocusFrameHMargin) + 8;
  const QFontMetrics metrics = mTreeView->fontMetrics();
  // Top-level rows sit one indentation in (the root decoration).
  std::vector<std::pair<QModelIndex, std::size_t>> pending{{QModelIndex(), 0}};
  while (!pending.empty()) {
    const auto [parent, depth] = pending.back();
    pending.pop_back();
    for (int row = 0; row < mModel->rowCount(parent); ++row) {
      const QModelIndex index = mModel->index(row, JointTreeModel::NameColumn, parent);
      if (mWidthAtDepth.size() <= depth + 1) mWidthAtDepth.resize(depth + 2, 0);
      mWidthAtDepth[depth + 1] =
          std::max(mWidthAtDepth[depth + 1], metrics.horizontalAdvance(index.data().toString()) + padding);
      pending.emplace_back(index, depth + 1);
    }
  }
}

void OutlinerDock::fitIndentation() {
  constexpr int kWidestIndentation = 20;  // Qt's default
  constexpr int kNarrowestIndentation = 8;
  const int available = mTreeView->viewport()->width();
  const auto fits = [&](int step) {
    for (std::size_t depth = 1; depth < mWidthAtDepth.size(); ++depth) {
      if (static_cast<int>(depth) * step + mWidthAtDepth[depth] > available) return false;
    }
    return true;
  };
  int indentation = kWidestIndentation;
  while (indentation > kNarrowestIndentation && !fits(indentation)) --indentation;
  if (mTreeView->indentation() != indentation) mTreeView->setIndentation(indentation);
}

void OutlinerDock::updateDepthNote() {
  const int flattened = mModel->flattenedCount();
  mDepthNote->setText(tr("%L1 nodes deeper than %2 levels are listed flat under their level-%3 ancestor")
                          .arg(flattened)
                          .arg(JointTreeModel::kMaxShownDepth)
                          .arg(JointTreeModel::kMaxShownDepth - 1));
  mDepthNote->setVisible(flattened > 0);
}

QModelIndex OutlinerDock::viewIndexOfJoint(int joint, int column) const {
  return mFilterModel->mapFromSource(mModel->indexOfJoint(joint, column));
}

int OutlinerDock::jointOfViewIndex(const QModelIndex& index) const {
  return mModel->jointOfIndex(mFilterModel->mapToSource(index));
}

QModelIndex OutlinerDock::viewIndexOfHandle(int handle, int column) const {
  return mFilterModel->mapFromSource(mModel->indexOfHandle(handle, column));
}

void OutlinerDock::documentChanged(const ChangeEvent& event) {
  switch (event.type) {
    case ChangeEvent::Type::SelectionChanged:
      syncSelectionFromDocument();
      break;
    case ChangeEvent::Type::SceneReplaced:
      // Another character: a filter typed for the last one would hide this one's joints. The
      // model's reset re-expands and re-selects.
      mFilterEdit->clear();
      break;
    case ChangeEvent::Type::CurrentClipChanged:
    case ChangeEvent::Type::TimeChanged:
    case ChangeEvent::Type::PoseEdited:
    case ChangeEvent::Type::JointRenamed:  // the model updates its own item
    case ChangeEvent::Type::ClipEdited:
    case ChangeEvent::Type::RigChanged:
    case ChangeEvent::Type::HandleEdited:
    case ChangeEvent::Type::RigEnabledChanged:
    case ChangeEvent::Type::ActiveLayerChanged:
    case ChangeEvent::Type::RolesChanged:
      break;
  }
}

void OutlinerDock::viewSelectionChanged() {
  if (mSyncing) return;
  std::vector<int> joints;
  int handle = -1;
  const QModelIndexList rows = mTreeView->selectionModel()->selectedRows(JointTreeModel::NameColumn);
  joints.reserve(static_cast<std::size_t>(rows.size()));
  for (const QModelIndex& index : rows) {
    const QModelIndex source = mFilterModel->mapToSource(index);
    const int rowHandle = mModel->handleOfIndex(source);
    if (rowHandle < 0) {
      joints.push_back(mModel->jointOfIndex(source));
    } else if (handle < 0) {
      handle = rowHandle;
    }
  }
  mSyncing = true;
  mDocument->setSelectedJoints(std::move(joints));
  mDocument->setSelectedHandle(handle);
  mSyncing = false;
}

void OutlinerDock::syncSelectionFromDocument() {
  if (mSyncing) return;
  QItemSelection selection;
  for (int joint : mDocument->selectedJoints()) {
    const QModelIndex first = viewIndexOfJoint(joint, JointTreeModel::NameColumn);
    if (first.isValid()) selection.select(first, viewIndexOfJoint(joint, JointTreeModel::KindColumn));
  }
  const int handle = mDocument->selectedHandle();
  const QModelIndex handleItem = viewIndexOfHandle(handle, JointTreeModel::NameColumn);
  if (handleItem.isValid()) selection.select(handleItem, viewIndexOfHandle(handle, JointTreeModel::KindColumn));
  mSyncing = true;
  mTreeView->selectionModel()->select(selection, QItemSelectionModel::ClearAndSelect);
  QModelIndex first = handleItem;
  for (std::size_t i = 0; !first.isValid() && i < mDocument->selectedJoints().size(); ++i)
    first = viewIndexOfJoint(mDocument->selectedJoints()[i]);
  // With nothing selected in view (or filtered out) no row stays current: a current row
  // left from an earlier selection is drawn highlighted and takes the keyboard's edits.
  mTreeView->selectionModel()->setCurrentIndex(first, QItemSelectionModel::NoUpdate);
  if (first.isValid()) mTreeView->scrollTo(first);
  mSyncing = false;
}

}  // namespace articula::ui
