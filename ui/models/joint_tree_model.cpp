#include "ui/models/joint_tree_model.h"

#include <QPainter>
#include <QPainterPath>
#include <QPixmap>
#include <QUndoStack>

#include "ui/commands/rename_joint_command.h"
#include "ui/document/document.h"

namespace articula::ui {

namespace {

// Small glyphs in the viewport's own vocabulary: a bone-coloured diamond for joints (the
// octahedron seen from the side), a hollow square for plain transform nodes, a dot for the
// tip that ends a chain.
QIcon makeKindIcon(NodeKind kind) {
  constexpr int kSize = 16;
  QPixmap pixmap(kSize, kSize);
  pixmap.fill(Qt::transparent);
  QPainter painter(&pixmap);
  painter.setRenderHint(QPainter::Antialiasing);
  switch (kind) {
    case NodeKind::Joint: {
      QPainterPath diamond;
      diamond.moveTo(8, 1.5);
      diamond.lineTo(12.5, 6);
      diamond.lineTo(8, 14.5);
      diamond.lineTo(3.5, 6);
      diamond.closeSubpath();
      painter.setPen(QPen(QColor(40, 40, 48), 1.0));
      painter.setBrush(QColor(190, 195, 210));
      painter.drawPath(diamond);
      break;
    }
    case NodeKind::Transform:
      painter.setPen(QPen(QColor(150, 170, 200), 1.5));
      painter.setBrush(Qt::NoBrush);
      painter.drawRect(QRectF(3.5, 3.5, 9, 9));
      break;
    case NodeKind::Tip:
      painter.setPen(Qt::NoPen);
      painter.setBrush(QColor(160, 160, 170));
      painter.drawEllipse(QPointF(8, 8), 3, 3);
      break;
  }
  return QIcon(pixmap);
}

}  // namespace

JointTreeModel::JointTreeModel(Document* document, QObject* parent)
    : QAbstractItemModel(parent),
      mDocument(document),
      mJointIcon(makeKindIcon(NodeKind::Joint)),
      mTransformIcon(makeKindIcon(NodeKind::Transform)),
      mTipIcon(makeKindIcon(NodeKind::Tip)) {
  rebuild();
  connect(mDocument, &Document::changed, this, &JointTreeModel::documentChanged);
}

void JointTreeModel::documentChanged(const ChangeEvent& event) {
  if (event.type == ChangeEvent::Type::JointRenamed) {
    const QModelIndex item = indexOfJoint(event.joint);
    if (item.isValid()) emit dataChanged(item, item, {Qt::DisplayRole, Qt::EditRole});
    return;
  }
  if (event.type != ChangeEvent::Type::SceneReplaced) return;
  beginResetModel();
  rebuild();
  endResetModel();
}

void JointTreeModel::rebuild() {
  const Skeleton& skeleton = mDocument->scene().skeleton;
  const auto count = static_cast<std::size_t>(skeleton.jointCount());
  mChildren.assign(count, {});
  mRoots.clear();
  mRowInParent.assign(count, 0);
  // parents[i] < i, so appending in index order yields children in index order.
  for (int j = 0; j < skeleton.jointCount(); ++j) {
    const int parentJoint = skeleton.parent(j);
    auto& siblings = parentJoint == kNoParent ? mRoots : mChildren[static_cast<std::size_t>(parentJoint)];
    mRowInParent[static_cast<std::size_t>(j)] = static_cast<int>(siblings.size());
    siblings.push_back(j);
  }
}

const std::vector<int>& JointTreeModel::childrenOf(int joint) const {
  return joint == kNoParent ? mRoots : mChildren[static_cast<std::size_t>(joint)];
}

QModelIndex JointTreeModel::index(int row, int column, const QModelIndex& parent) const {
  if (column < 0 || column >= ColumnCount) return {};
  if (parent.isValid() && parent.column() != NameColumn) return {};
  const auto& siblings = childrenOf(jointOfIndex(parent));
  if (row < 0 || row >= static_cast<int>(siblings.size())) return {};
  return createIndex(row, column, static_cast<quintptr>(siblings[static_cast<std::size_t>(row)]));
}

QModelIndex JointTreeModel::parent(const QModelIndex& index) const {
  const int joint = jointOfIndex(index);
  if (joint < 0) return {};
  const int parentJoint = mDocument->scene().skeleton.parent(joint);
  if (parentJoint == kNoParent) return {};
  return indexOfJoint(parentJoint);
}

int JointTreeModel::rowCount(const QModelIndex& parent) const {
  if (parent.isValid() && parent.column() != NameColumn) return 0;
  return static_cast<int>(childrenOf(jointOfIndex(parent)).size());
}

int JointTreeModel::columnCount(const QModelIndex&) const { return ColumnCount; }

QVariant JointTreeModel::data(const QModelIndex& index, int role) const {
  const int joint = jointOfIndex(index);
  if (joint < 0) return {};
  const Skeleton& skeleton = mDocument->scene().skeleton;
  const NodeKind kind = skeleton.kind(joint);
  if (role == Qt::EditRole && index.column() == NameColumn) return QString::fromStdString(skeleton.name(joint));
  if (role == Qt::DisplayRole || role == Qt::ToolTipRole) {
    if (index.column() == NameColumn) return QString::fromStdString(skeleton.name(joint));
    switch (kind) {
      case NodeKind::Joint:
        return tr("Joint");
      case NodeKind::Transform:
        return tr("Transform");
      case NodeKind::Tip:
        return tr("Tip");
    }
  }
  if (role == Qt::DecorationRole && index.column() == NameColumn) {
    switch (kind) {
      case NodeKind::Joint:
        return mJointIcon;
      case NodeKind::Transform:
        return mTransformIcon;
      case NodeKind::Tip:
        return mTipIcon;
    }
  }
  return {};
}

QVariant JointTreeModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
  return section == NameColumn ? tr("Name") : tr("Kind");
}

Qt::ItemFlags JointTreeModel::flags(const QModelIndex& index) const {
  Qt::ItemFlags itemFlags = QAbstractItemModel::flags(index);
  if (index.isValid() && index.column() == NameColumn) itemFlags |= Qt::ItemIsEditable;
  return itemFlags;
}

bool JointTreeModel::setData(const QModelIndex& index, const QVariant& value, int role) {
  const int joint = jointOfIndex(index);
  if (role != Qt::EditRole || index.column() != NameColumn || joint < 0) return false;
  const QString name = value.toString();
  if (name == QString::fromStdString(mDocument->scene().skeleton.name(joint))) return false;
  const QString problem = RenameJointCommand::validate(*mDocument, joint, name);
  if (!problem.isEmpty()) {
    emit renameRefused(problem);
    return false;
  }
  // The command's JointRenamed event emits dataChanged.
  mDocument->undoStack()->push(new RenameJointCommand(mDocument, joint, name));
  return true;
}

QModelIndex JointTreeModel::indexOfJoint(int joint, int column) const {
  if (joint < 0 || joint >= static_cast<int>(mRowInParent.size())) return {};
  return createIndex(mRowInParent[static_cast<std::size_t>(joint)], column, static_cast<quintptr>(joint));
}

int JointTreeModel::jointOfIndex(const QModelIndex& index) const {
  if (!index.isValid() || index.model() != this) return kNoParent;
  return static_cast<int>(index.internalId());
}

}  // namespace articula::ui
