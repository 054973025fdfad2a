#pragma once
#include <QAbstractTableModel>
#include <QString>

#include "core/rig/ik_handle.h"

namespace articula::ui {

class Document;
struct ChangeEvent;

// The solver's name as the Rig panel and the properties show it ("Two-bone (law of
// cosines)", "CCD", "Damped least squares", …).
QString solverLabel(IkSolverKind kind);

// The active rig's IK handles, one row per handle in the rig's order (row = handle index).
// Columns: the name (checkable: the handle's enabled flag, toggled by one EditHandleCommand),
// the solver, and the state of the last solve (reached, missed by how much, off).
class RigHandleModel : public QAbstractTableModel {
  Q_OBJECT

 public:
  enum Column { NameColumn, SolverColumn, StateColumn, ColumnCount };

  explicit RigHandleModel(Document* document, QObject* parent = nullptr);

  int rowCount(const QModelIndex& parent = QModelIndex()) const override;
  int columnCount(const QModelIndex& parent = QModelIndex()) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;
  Qt::ItemFlags flags(const QModelIndex& index) const override;
  bool setData(const QModelIndex& index, const QVariant& value, int role = Qt::EditRole) override;

  // The state column's text for handle `handle` ("reached", "missed by 0.12", "off", …).
  QString stateText(int handle) const;

 private:
  void documentChanged(const ChangeEvent& event);
  const IkHandle* handleAt(int row) const;

  Document* const mDocument;
  int mRows = 0;  // handles the view was last told about
};

}  // namespace articula::ui
