#pragma once
#include <QDockWidget>

#include "core/rig/ik_handle.h"

class QAction;
class QComboBox;
class QLabel;
class QSlider;
class QTreeView;

namespace articula::ui {

class Document;
class RigHandleModel;
struct ChangeEvent;

// The Rig panel: the active rig's IK handles (name, solver, state of the last solve) and
// what an animator does with them — build the humanoid rig from the joint names, add a
// handle on the selected joints with a chosen solver, remove the selected handle, switch
// the rig on and off, blend the selected handle between FK (0) and IK (1), snap its FK
// joints to the IK result or its target and pole to the FK pose, key the pose.
// Every edit is one undo step (a weight-slider drag included). Selecting a handle row
// selects the handle in the document and a handle selected elsewhere (outliner,
// viewport) is selected here. Refusals (a selection that is not an ancestor line, a
// skeleton that is not humanoid) are shown in the panel's message line and emitted as
// problem().
class RigDock : public QDockWidget {
  Q_OBJECT

 public:
  explicit RigDock(Document* document, QWidget* parent = nullptr);

  RigHandleModel* model() const { return mModel; }
  QTreeView* handleView() const { return mHandleView; }
  QComboBox* solverBox() const { return mSolverBox; }
  QSlider* weightSlider() const { return mWeightSlider; }
  QLabel* messageLabel() const { return mMessageLabel; }
  QLabel* rigLabel() const { return mRigLabel; }
  // Shift+I (Blender's Add IK): the main window lists these in Animation ▸ Rig.
  QAction* addHandleAction() const { return mAddHandleAction; }
  QAction* removeHandleAction() const { return mRemoveHandleAction; }
  QAction* buildHumanoidAction() const { return mBuildHumanoidAction; }
  QAction* enableRigAction() const { return mEnableRigAction; }  // checkable
  QAction* keyPoseAction() const { return mKeyPoseAction; }
  QAction* snapFkToIkAction() const { return mSnapFkToIkAction; }
  QAction* snapIkToFkAction() const { return mSnapIkToFkAction; }

  IkSolverKind chosenSolver() const;
  void setChosenSolver(IkSolverKind solver);

  // The panel's buttons, callable from tests and menus. Each returns whether it changed the
  // document; on a refusal it shows and emits the reason.
  bool addHandle();  // on the selected joints with chosenSolver()
  bool removeSelectedHandle();
  bool buildHumanoidRig();
  bool keyPose();
  bool snapFkToIk();  // the selected handle's chain
  bool snapIkToFk();

 signals:
  void problem(const QString& message);
  // The user asked to map the skeleton's roles by hand (the link under a refused humanoid
  // rig): the main window shows the Characterise panel.
  void characteriseRequested();

 private:
  void documentChanged(const ChangeEvent& event);
  void viewSelectionChanged();
  void syncSelectionFromDocument();
  void refreshRigState();
  void refreshWeight();
  void refreshActions();
  void weightSliderMoved(int value);
  void showProblem(const QString& message);
  void showInfo(const QString& message);

  Document* const mDocument;
  RigHandleModel* const mModel;
  QLabel* const mRigLabel;
  QTreeView* const mHandleView;
  QComboBox* const mSolverBox;
  QSlider* const mWeightSlider;
  QLabel* const mWeightLabel;
  QLabel* const mMessageLabel;
  QAction* const mAddHandleAction;
  QAction* const mRemoveHandleAction;
  QAction* const mBuildHumanoidAction;
  QAction* const mEnableRigAction;
  QAction* const mKeyPoseAction;
  QAction* const mSnapFkToIkAction;
  QAction* const mSnapIkToFkAction;
  bool mSyncing = false;
  bool mRefreshing = false;
  // Set once a slider drag has pushed its first command: the drag's later commands merge
  // into it, so the whole drag is one undo step.
  bool mWeightDragPushed = false;
};

}  // namespace articula::ui
