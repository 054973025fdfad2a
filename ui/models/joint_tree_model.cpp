#include "ui/models/joint_tree_model.h"

#include <QBrush>
#include <QPainter>
#include <QPainterPath>
#include <QPixmap>
#include <QUndoStack>

#include "ui/commands/rename_joint_command.h"
#include "ui/document/document.h"
#include "ui/models/rig_handle_model.h"

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

// An IK handle as the viewport draws its target: an orange ring with a cross.
QIcon makeHandleIcon() {
  constexpr int kSize = 16;
  QPixmap pixmap(kSize, kSize);
  pixmap.fill(Qt::transparent);
  QPainter painter(&pixmap);
  painter.setRenderHint(QPainter::Antialiasing);
  painter.setPen(QPen(QColor(235, 140, 40), 1.6));
  painter.setBrush(Qt::NoBrush);
  painter.drawEllipse(QPointF(8, 8), 5, 5);
  painter.drawLine(QPointF(8, 1), QPointF(8, 15));
  painter.drawLine(QPointF(1, 8), QPointF(15, 8));
  return QIcon(pixmap);
}

}  // namespace

JointTreeModel::JointTreeModel(Document* document, QObject* parent)
    : QAbstractItemModel(parent),
      mDocument(document),
      mHandleIcon(makeHandleIcon()),
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
  if (event.type == ChangeEvent::Type::HandleEdited) {
    // A handle whose chain now ends elsewhere moves in the tree; otherwise only its texts.
    if (event.handle >= 0 && event.handle < static_cast<int>(mHandleTip.size()) &&
        tipOfHandle(event.handle) == mHandleTip[static_cast<std::size_t>(event.handle)]) {
      emit dataChanged(indexOfHandle(event.handle), indexOfHandle(event.handle, KindColumn));
      return;
    }
  } else if (event.type != ChangeEvent::Type::SceneReplaced && event.type != ChangeEvent::Type::RigChanged) {
    return;
  }
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
  mShownParent.assign(count, kNoParent);
  mFlattenedCount = 0;
  std::vector<int> shownDepth(count, 0);
  // parents[i] < i, so appending in index order yields children in index order, and a
  // parent's shown depth is known before its children's.
  for (int j = 0; j < skeleton.jointCount(); ++j) {
    int parentJoint = skeleton.parent(j);
    if (parentJoint != kNoParent && shownDepth[static_cast<std::size_t>(parentJoint)] >= kMaxShownDepth - 1) {
      parentJoint = mShownParent[static_cast<std::size_t>(parentJoint)];
      ++mFlattenedCount;
    }
    mShownParent[static_cast<std::size_t>(j)] = parentJoint;
    if (parentJoint != kNoParent)
      shownDepth[static_cast<std::size_t>(j)] = shownDepth[static_cast<std::size_t>(parentJoint)] + 1;
    auto& siblings = parentJoint == kNoParent ? mRoots : mChildren[static_cast<std::size_t>(parentJoint)];
    mRowInParent[static_cast<std::size_t>(j)] = static_cast<int>(siblings.size());
    siblings.push_back(j);
  }
  mHandlesAtTip.assign(count, {});
  const RigDefinition* rig = mDocument->activeRig();
  const int handles = rig ? static_cast<int>(rig->handles.size()) : 0;
  mHandleTip.assign(static_cast<std::size_t>(handles), -1);
  mHandleRow.assign(static_cast<std::size_t>(handles), 0);
  for (int h = 0; h < handles; ++h) {
    const int tip = tipOfHandle(h);
    if (tip < 0) continue;
    auto& atTip = mHandlesAtTip[static_cast<std::size_t>(tip)];
    mHandleTip[static_cast<std::size_t>(h)] = tip;
    mHandleRow[static_cast<std::size_t>(h)] =
        static_cast<int>(mChildren[static_cast<std::size_t>(tip)].size() + atTip.size());
    atTip.push_back(h);
  }
  findNamePrefix();
}

void JointTreeModel::findNamePrefix() {
  const QString before = mNamePrefix;
  mNamePrefix.clear();
  const Skeleton& skeleton = mDocument->scene().skeleton;
  // The namespace of the first namespaced name, kept when at least half of all names have it.
  int withPrefix = 0;
  for (int joint = 0; joint < skeleton.jointCount(); ++joint) {
    const std::string& name = skeleton.name(joint);
    const std::size_t colon = name.find(':');
    if (colon == std::string::npos || colon + 1 == name.size()) continue;
    const QString prefix = QString::fromStdString(name.substr(0, colon + 1));
    if (mNamePrefix.isEmpty()) mNamePrefix = prefix;
    if (prefix == mNamePrefix) ++withPrefix;
  }
  if (2 * withPrefix < skeleton.jointCount()) mNamePrefix.clear();
  if (mNamePrefix != before) emit headerDataChanged(Qt::Horizontal, NameColumn, NameColumn);
}

QString JointTreeModel::displayName(int joint) const {
  const QString name = QString::fromStdString(mDocument->scene().skeleton.name(joint));
  if (mNamePrefix.isEmpty() || !name.startsWith(mNamePrefix) || name.size() == mNamePrefix.size()) return name;
  return name.mid(mNamePrefix.size());
}

int JointTreeModel::tipOfHandle(int handle) const {
  const IkHandle* ikHandle = mDocument->activeHandle(handle);
  if (!ikHandle) return -1;
  const auto& chain = ikHandle->chain;
  if (chain.empty() || chain.back() < 0 || chain.back() >= jointCount()) return -1;
  return chain.back();
}

const std::vector<int>& JointTreeModel::childrenOf(int joint) const {
  return joint == kNoParent ? mRoots : mChildren[static_cast<std::size_t>(joint)];
}

QModelIndex JointTreeModel::index(int row, int column, const QModelIndex& parent) const {
  if (column < 0 || column >= ColumnCount || row < 0) return {};
  if (parent.isValid() && (parent.column() != NameColumn || handleOfIndex(parent) >= 0)) return {};
  const int parentJoint = jointOfIndex(parent);
  const auto& siblings = childrenOf(parentJoint);
  if (row < static_cast<int>(siblings.size())) {
    return createIndex(row, column, static_cast<quintptr>(siblings[static_cast<std::size_t>(row)]));
  }
  if (parentJoint < 0) return {};
  const auto& handles = mHandlesAtTip[static_cast<std::size_t>(parentJoint)];
  const auto handleRow = static_cast<std::size_t>(row) - siblings.size();
  if (handleRow >= handles.size()) return {};
  return createIndex(row, column, static_cast<quintptr>(jointCount() + handles[handleRow]));
}

QModelIndex JointTreeModel::parent(const QModelIndex& index) const {
  const int handle = handleOfIndex(index);
  if (handle >= 0) return indexOfJoint(mHandleTip[static_cast<std::size_t>(handle)]);
  const int joint = jointOfIndex(index);
  if (joint < 0) return {};
  const int parentJoint = mShownParent[static_cast<std::size_t>(joint)];
  if (parentJoint == kNoParent) return {};
  return indexOfJoint(parentJoint);
}

int JointTreeModel::rowCount(const QModelIndex& parent) const {
  if (parent.isValid() && (parent.column() != NameColumn || handleOfIndex(parent) >= 0)) return 0;
  const int joint = jointOfIndex(parent);
  const std::size_t handles = joint >= 0 ? mHandlesAtTip[static_cast<std::size_t>(joint)].size() : 0;
  return static_cast<int>(childrenOf(joint).size() + handles);
}

int JointTreeModel::columnCount(const QModelIndex&) const { return ColumnCount; }

QVariant JointTreeModel::handleData(int handle, int column, int role) const {
  const IkHandle& ikHandle = mDocument->activeRig()->handles[static_cast<std::size_t>(handle)];
  const QString name = QString::fromStdString(ikHandle.name);
  if (role == Qt::DisplayRole) {
    // The solver is in the tooltip: a long solver name would squeeze the name column.
    return column == NameColumn ? name : tr("IK handle");
  }
  // The outliner's filter reads whole names through the edit role (not editable here).
  if (role == Qt::EditRole && column == NameColumn) return name;
  if (role == Qt::ToolTipRole) {
    const Skeleton& skeleton = mDocument->scene().skeleton;
    return tr("IK handle %1: %2 → %3, %4")
        .arg(name, QString::fromStdString(skeleton.name(ikHandle.chain.front())),
             QString::fromStdString(skeleton.name(ikHandle.chain.back())), solverLabel(ikHandle.solver));
  }
  if (role == Qt::DecorationRole && column == NameColumn) return mHandleIcon;
  if (role == Qt::ForegroundRole) return QBrush(QColor(215, 125, 30));
  return {};
}

QVariant JointTreeModel::data(const QModelIndex& index, int role) const {
  const int handle = handleOfIndex(index);
  if (handle >= 0) return handleData(handle, index.column(), role);
  const int joint = jointOfIndex(index);
  if (joint < 0) return {};
  const Skeleton& skeleton = mDocument->scene().skeleton;
  const NodeKind kind = skeleton.kind(joint);
  if (role == Qt::EditRole && index.column() == NameColumn) return QString::fromStdString(skeleton.name(joint));
  if (role == Qt::DisplayRole && index.column() == NameColumn) return displayName(joint);
  if (role == Qt::ToolTipRole && index.column() == NameColumn &&
      mShownParent[static_cast<std::size_t>(joint)] != skeleton.parent(joint)) {
    return tr("%1 (child of %2; listed flat: deeper than %3 levels)")
        .arg(QString::fromStdString(skeleton.name(joint)),
             QString::fromStdString(skeleton.name(skeleton.parent(joint))))
        .arg(kMaxShownDepth);
  }
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
  if (section != NameColumn) return tr("Kind");
  return mNamePrefix.isEmpty() ? tr("Name") : tr("Name (%1…)").arg(mNamePrefix);
}

Qt::ItemFlags JointTreeModel::flags(const QModelIndex& index) const {
  Qt::ItemFlags itemFlags = QAbstractItemModel::flags(index);
  if (index.isValid() && index.column() == NameColumn && handleOfIndex(index) < 0) itemFlags |= Qt::ItemIsEditable;
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
  const auto id = static_cast<int>(index.internalId());
  return id < jointCount() ? id : kNoParent;
}

QModelIndex JointTreeModel::indexOfHandle(int handle, int column) const {
  if (handle < 0 || handle >= static_cast<int>(mHandleTip.size()) || mHandleTip[static_cast<std::size_t>(handle)] < 0)
    return {};
  return createIndex(mHandleRow[static_cast<std::size_t>(handle)], column,
                     static_cast<quintptr>(jointCount() + handle));
}

int JointTreeModel::handleOfIndex(const QModelIndex& index) const {
  if (!index.isValid() || index.model() != this) return -1;
  const int handle = static_cast<int>(index.internalId()) - jointCount();
  return handle >= 0 && handle < static_cast<int>(mHandleTip.size()) ? handle : -1;
}

}  // namespace articula::ui
