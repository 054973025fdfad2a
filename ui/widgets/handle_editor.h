#pragma once
#include <QWidget>

#include "core/rig/ik_handle.h"

class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QSpinBox;

namespace articula::ui {

class Document;
struct ChangeEvent;

// The settings of the document's selected IK handle: solver, chain (its root chosen among
// the tip's ancestors), pole (space, joint, position), weight, iterations and tolerance.
// Hidden while no handle is selected.
//
// Each edit pushes one EditHandleCommand; repeated changes of one spin box (a held arrow,
// the wheel) merge into one undo step until its editing finishes or another field is
// edited, as in JointTransformEditor. A value the rig cannot take (handleProblem) is never
// applied: the field goes back to the handle's value and the message line says why.
class HandleEditor : public QWidget {
  Q_OBJECT

 public:
  explicit HandleEditor(Document* document, QWidget* parent = nullptr);

  int handle() const { return mHandle; }  // -1 when none is shown
  QComboBox* solverBox() const { return mSolverBox; }
  QComboBox* rootBox() const { return mRootBox; }
  QLabel* chainLabel() const { return mChainLabel; }
  QComboBox* poleSpaceBox() const { return mPoleSpaceBox; }
  QComboBox* poleJointBox() const { return mPoleJointBox; }
  QDoubleSpinBox* polePositionBox(int axis) const { return mPoleBoxes[axis]; }
  QDoubleSpinBox* weightBox() const { return mWeightBox; }
  QSpinBox* iterationsBox() const { return mIterationsBox; }
  QDoubleSpinBox* toleranceBox() const { return mToleranceBox; }
  QLabel* messageLabel() const { return mMessageLabel; }

 signals:
  void problem(const QString& message);

 private:
  enum class Field { Solver, Root, PoleSpace, PoleJoint, PoleX, PoleY, PoleZ, Weight, Iterations, Tolerance, None };

  void documentChanged(const ChangeEvent& event);
  void showHandle();
  void refreshValues();
  void fieldEdited(Field field);
  void endMerge();
  const IkHandle* currentHandle() const;

  Document* const mDocument;
  QLabel* const mTitleLabel;
  QComboBox* const mSolverBox;
  QComboBox* const mRootBox;
  QLabel* const mChainLabel;
  QComboBox* const mPoleSpaceBox;
  QComboBox* const mPoleJointBox;
  QDoubleSpinBox* mPoleBoxes[3] = {};
  QDoubleSpinBox* const mWeightBox;
  QSpinBox* const mIterationsBox;
  QDoubleSpinBox* const mToleranceBox;
  QLabel* const mMessageLabel;
  int mHandle = -1;
  Field mMergeField = Field::None;
  bool mMergeUndo = false;
  bool mRefreshing = false;
};

}  // namespace articula::ui
