#include "ui/models/rig_handle_model.h"

#include <QBrush>
#include <QColor>
#include <QUndoStack>

#include "ui/commands/handle_commands.h"
#include "ui/document/document.h"

namespace articula::ui {

QString solverLabel(IkSolverKind kind) {
  switch (kind) {
    case IkSolverKind::TwoBone:
      return RigHandleModel::tr("Two-bone (law of cosines)");
    case IkSolverKind::TwoBoneTrigFree:
      return RigHandleModel::tr("Two-bone (trig-free)");
    case IkSolverKind::Ccd:
      return RigHandleModel::tr("CCD");
    case IkSolverKind::Fabrik:
      return RigHandleModel::tr("FABRIK");
    case IkSolverKind::JacobianTranspose:
      return RigHandleModel::tr("Jacobian transpose");
    case IkSolverKind::JacobianPseudoInverse:
      return RigHandleModel::tr("Jacobian pseudo-inverse");
    case IkSolverKind::DampedLeastSquares:
      return RigHandleModel::tr("Damped least squares");
    case IkSolverKind::SelectivelyDampedLeastSquares:
      return RigHandleModel::tr("Selectively damped least squares");
  }
  return QString::fromLatin1(solverKindName(kind).data(), static_cast<int>(solverKindName(kind).size()));
}

RigHandleModel::RigHandleModel(Document* document, QObject* parent) : QAbstractTableModel(parent), mDocument(document) {
  const RigDefinition* rig = mDocument->activeRig();
  mRows = rig ? static_cast<int>(rig->handles.size()) : 0;
  connect(mDocument, &Document::changed, this, &RigHandleModel::documentChanged);
}

void RigHandleModel::documentChanged(const ChangeEvent& event) {
  switch (event.type) {
    case ChangeEvent::Type::SceneReplaced:
    case ChangeEvent::Type::RigChanged: {
      beginResetModel();
      const RigDefinition* rig = mDocument->activeRig();
      mRows = rig ? static_cast<int>(rig->handles.size()) : 0;
      endResetModel();
      break;
    }
    case ChangeEvent::Type::HandleEdited:
      if (event.handle >= 0 && event.handle < mRows) {
        emit dataChanged(index(event.handle, 0), index(event.handle, ColumnCount - 1));
      }
      // Every handle solves after the edited one moved the pose: their states may change.
      if (mRows > 0) emit dataChanged(index(0, StateColumn), index(mRows - 1, StateColumn));
      break;
    case ChangeEvent::Type::CurrentClipChanged:
    case ChangeEvent::Type::TimeChanged:
    case ChangeEvent::Type::PoseEdited:
    case ChangeEvent::Type::ClipEdited:
    case ChangeEvent::Type::RigEnabledChanged:
      if (mRows > 0) emit dataChanged(index(0, StateColumn), index(mRows - 1, StateColumn));
      break;
    case ChangeEvent::Type::SelectionChanged:
    case ChangeEvent::Type::JointRenamed:
    case ChangeEvent::Type::ActiveLayerChanged:
    case ChangeEvent::Type::RolesChanged:
      break;
  }
}

const IkHandle* RigHandleModel::handleAt(int row) const { return mDocument->activeHandle(row); }

int RigHandleModel::rowCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : mRows; }

int RigHandleModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : ColumnCount; }

QString RigHandleModel::stateText(int handle) const {
  const IkHandle* ikHandle = handleAt(handle);
  if (!ikHandle) return {};
  if (!mDocument->rigEnabled()) return tr("rig off");
  const Rig* rig = mDocument->boundRig();
  if (!rig) return tr("not bound");
  if (!mDocument->rigSolved() || handle >= static_cast<int>(rig->reports().size())) return tr("not solved");
  const HandleReport& report = rig->reports()[static_cast<std::size_t>(handle)];
  if (!report.solved) return ikHandle->enabled ? tr("idle") : tr("off");
  if (report.reached) return tr("reached");
  return tr("missed by %1").arg(static_cast<double>(report.errorModel), 0, 'g', 3);
}

QVariant RigHandleModel::data(const QModelIndex& index, int role) const {
  const IkHandle* handle = handleAt(index.row());
  if (!handle || !index.isValid()) return {};
  switch (index.column()) {
    case NameColumn:
      if (role == Qt::DisplayRole || role == Qt::EditRole) return QString::fromStdString(handle->name);
      if (role == Qt::CheckStateRole) return handle->enabled ? Qt::Checked : Qt::Unchecked;
      if (role == Qt::ToolTipRole) return tr("Checked: the handle solves. Unchecked: its chain keeps the FK pose.");
      break;
    case SolverColumn:
      if (role == Qt::DisplayRole || role == Qt::ToolTipRole) return solverLabel(handle->solver);
      break;
    case StateColumn: {
      const QString text = stateText(index.row());
      if (role == Qt::DisplayRole || role == Qt::ToolTipRole) return text;
      if (role == Qt::ForegroundRole) {
        if (text == tr("reached")) return QBrush(QColor(40, 150, 60));
        if (text.startsWith(tr("missed"))) return QBrush(QColor(200, 60, 40));
      }
      break;
    }
    default:
      break;
  }
  return {};
}

QVariant RigHandleModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
  switch (section) {
    case NameColumn:
      return tr("Handle");
    case SolverColumn:
      return tr("Solver");
    case StateColumn:
      return tr("State");
    default:
      return {};
  }
}

Qt::ItemFlags RigHandleModel::flags(const QModelIndex& index) const {
  Qt::ItemFlags itemFlags = QAbstractTableModel::flags(index);
  if (index.isValid() && index.column() == NameColumn) itemFlags |= Qt::ItemIsUserCheckable;
  return itemFlags;
}

bool RigHandleModel::setData(const QModelIndex& index, const QVariant& value, int role) {
  const IkHandle* handle = handleAt(index.row());
  if (!handle || role != Qt::CheckStateRole || index.column() != NameColumn) return false;
  IkHandle edited = *handle;
  edited.enabled = static_cast<Qt::CheckState>(value.toInt()) == Qt::Checked;
  if (edited == *handle) return false;
  const QString text = edited.enabled ? tr("Enable IK Handle %1") : tr("Disable IK Handle %1");
  // The command's HandleEdited event emits dataChanged.
  mDocument->undoStack()->push(
      new EditHandleCommand(mDocument, index.row(), std::move(edited), text.arg(QString::fromStdString(handle->name))));
  return true;
}

}  // namespace articula::ui
