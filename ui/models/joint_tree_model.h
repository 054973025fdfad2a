#pragma once
#include <QAbstractItemModel>
#include <QIcon>

#include <vector>

namespace articula::ui {

class Document;
struct ChangeEvent;

// The document's node forest as a tree: one root item per skeleton root, children in
// skeleton index order, and after a joint's children the active rig's IK handles whose
// chain ends at that joint (their tip). A joint item's internal id is its skeleton node
// index and a handle item's is the joint count plus the handle's index in the active rig,
// so views map between items, joints and handles without a lookup table.
//
// Columns: the name (with an icon for the node's kind, or the handle's target glyph) and
// the kind as a word ("Joint", "IK handle (CCD)"). A namespace most names share (Mixamo's
// `mixamorig:`) is shown once, in the header, and left out of the displayed names so deep
// trees show what tells joints apart; the edit role and the tooltip keep the whole name.
//
// Nodes deeper than kMaxShownDepth levels are listed flat, side by side under their ancestor
// at level kMaxShownDepth - 1 (their tooltip names their real parent): Qt's tree view lays
// out expanded levels by recursion, and a glTF chain 40,000 nodes deep overflowed the stack.
class JointTreeModel : public QAbstractItemModel {
  Q_OBJECT

 public:
  enum Column { NameColumn, KindColumn, ColumnCount };
  // Levels shown as a tree: far more than any character's skeleton (fingertips of a Mixamo
  // rig sit at level 12), far fewer than overflow a view's recursion.
  static constexpr int kMaxShownDepth = 100;

  explicit JointTreeModel(Document* document, QObject* parent = nullptr);

  QModelIndex index(int row, int column, const QModelIndex& parent = QModelIndex()) const override;
  QModelIndex parent(const QModelIndex& index) const override;
  int rowCount(const QModelIndex& parent = QModelIndex()) const override;
  int columnCount(const QModelIndex& parent = QModelIndex()) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;
  // Joint names are editable: an edit pushes a RenameJointCommand, or is refused
  // (renameRefused says why) when the name is empty or taken. Handle rows are not.
  Qt::ItemFlags flags(const QModelIndex& index) const override;
  bool setData(const QModelIndex& index, const QVariant& value, int role = Qt::EditRole) override;

  // Item of a skeleton node (invalid for an out-of-range index) and back (-1 if invalid).
  QModelIndex indexOfJoint(int joint, int column = NameColumn) const;
  int jointOfIndex(const QModelIndex& index) const;  // -1 for a handle item too
  // Item of handle `handle` of the active rig (invalid when there is none) and back (-1 for
  // a joint item or an invalid index).
  QModelIndex indexOfHandle(int handle, int column = NameColumn) const;
  int handleOfIndex(const QModelIndex& index) const;
  // The shared namespace left out of the displayed names ("mixamorig:"), empty for none.
  const QString& namePrefix() const { return mNamePrefix; }
  // Nodes listed flat because they lie deeper than kMaxShownDepth levels.
  int flattenedCount() const { return mFlattenedCount; }

 signals:
  void renameRefused(const QString& message);

 private:
  void documentChanged(const ChangeEvent& event);
  void rebuild();
  QVariant handleData(int handle, int column, int role) const;
  const std::vector<int>& childrenOf(int joint) const;  // kNoParent: the roots
  int tipOfHandle(int handle) const;                    // -1 when the handle has no chain
  int jointCount() const { return static_cast<int>(mRowInParent.size()); }
  void findNamePrefix();
  QString displayName(int joint) const;

  Document* const mDocument;
  std::vector<std::vector<int>> mChildren;  // per node: its children as shown
  std::vector<int> mShownParent;            // per node: the skeleton's parent, or the
                                            // ancestor it is listed under when flattened
  int mFlattenedCount = 0;
  std::vector<int> mRoots;
  std::vector<int> mRowInParent;                // per node
  std::vector<std::vector<int>> mHandlesAtTip;  // per node: active-rig handles ending there
  std::vector<int> mHandleTip;                  // per handle: its tip joint, -1 for none
  std::vector<int> mHandleRow;                  // per handle: its row under the tip
  QString mNamePrefix;
  QIcon mHandleIcon;
  QIcon mJointIcon;
  QIcon mTransformIcon;
  QIcon mTipIcon;
};

}  // namespace articula::ui
