#pragma once
#include <QWidget>

#include "core/math/types.h"
#include "core/rig/ik_handle.h"

class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QSpinBox;

namespace articula::ui {

class Document;
struct ChangeEvent;

// The settings of the document's selected IK handle: its target's position and orientation
// as shown now (model space, the document's units, the orientation as XYZ Euler angles in
// degrees), a leg's foot roll (degrees: heel up about the ball > 0, toes up about the heel
// < 0), solver, chain (its root chosen among the tip's ancestors), pole (space, joint,
// position), weight, iterations and tolerance. Hidden while no handle is selected.
//
// Position, orientation and roll move the handle as a viewport drag does (MoveHandleCommand: an
// animated part posed for the frame, a static one offset in the clip); the other fields
// change the rig.
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
  QDoubleSpinBox* targetBox(int axis) const { return mTargetBoxes[axis]; }
  QDoubleSpinBox* orientationBox(int axis) const { return mOrientationBoxes[axis]; }
  QDoubleSpinBox* rollBox() const { return mRollBox; }
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
  enum class Field {
    Solver,
    Root,
    PoleSpace,
    PoleJoint,
    PoleX,
    PoleY,
    PoleZ,
    Weight,
    Iterations,
    Tolerance,
    TargetX,
    TargetY,
    TargetZ,
    OrientationX,
    OrientationY,
    OrientationZ,
    Roll,
    None
  };

  void documentChanged(const ChangeEvent& event);
  void showHandle();
  void refreshValues();
  void fieldEdited(Field field);
  void placementEdited(Field field);
  void refreshPlacement();
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
  QDoubleSpinBox* mTargetBoxes[3] = {};
  QDoubleSpinBox* mOrientationBoxes[3] = {};
  QDoubleSpinBox* const mRollBox;
  Vec3 mOrientationRad = Vec3::Zero();  // the angles shown, kept continuous between refreshes
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
