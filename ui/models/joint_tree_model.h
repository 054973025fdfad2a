#pragma once
#include <QAbstractItemModel>
#include <QIcon>

#include <vector>

namespace articula::ui {

class Document;
struct ChangeEvent;

// The document's node forest as a tree: one root item per skeleton root, children in
// skeleton index order. Each item's internal id is its skeleton node index, so views map
// between items and joints without a lookup table.
//
// Columns: the node's name (with an icon for its kind) and its kind as a word.
class JointTreeModel : public QAbstractItemModel {
  Q_OBJECT

 public:
  enum Column { NameColumn, KindColumn, ColumnCount };

  explicit JointTreeModel(Document* document, QObject* parent = nullptr);

  QModelIndex index(int row, int column, const QModelIndex& parent = QModelIndex()) const override;
  QModelIndex parent(const QModelIndex& index) const override;
  int rowCount(const QModelIndex& parent = QModelIndex()) const override;
  int columnCount(const QModelIndex& parent = QModelIndex()) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;
  // Names are editable: an edit pushes a RenameJointCommand, or is refused (renameRefused
  // says why) when the name is empty or taken.
  Qt::ItemFlags flags(const QModelIndex& index) const override;
  bool setData(const QModelIndex& index, const QVariant& value, int role = Qt::EditRole) override;

  // Item of a skeleton node (invalid for an out-of-range index) and back (-1 if invalid).
  QModelIndex indexOfJoint(int joint, int column = NameColumn) const;
  int jointOfIndex(const QModelIndex& index) const;

 signals:
  void renameRefused(const QString& message);

 private:
  void documentChanged(const ChangeEvent& event);
  void rebuild();
  const std::vector<int>& childrenOf(int joint) const;  // kNoParent: the roots

  Document* const mDocument;
  std::vector<std::vector<int>> mChildren;  // per node
  std::vector<int> mRoots;
  std::vector<int> mRowInParent;  // per node
  QIcon mJointIcon;
  QIcon mTransformIcon;
  QIcon mTipIcon;
};

}  // namespace articula::ui
