// The Rig panel (RigDock and its handle model), the outliner's handle rows, the handle and
// joint-limit editors of the properties dock, and the bake through the active rig: every
// edit one undo step that restores the whole serialised document, refusals named.
#include <gtest/gtest.h>

#include <QAction>
#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QSignalSpy>
#include <QSlider>
#include <QSortFilterProxyModel>
#include <QSpinBox>
#include <QTableWidget>
#include <QTreeView>
#include <QUndoStack>

#include <functional>
#include <numbers>
#include <string>
#include <utility>

#include "core/bake/bake_pipeline.h"
#include "core/rig/humanoid_rig.h"
#include "core/samples/mannequin.h"
#include "core/skeleton/local_to_model.h"
#include "ui/commands/handle_commands.h"
#include "ui/commands/rig_set_command.h"
#include "ui/dialogs/shortcuts_dialog.h"
#include "ui/docks/outliner_dock.h"
#include "ui/docks/properties_dock.h"
#include "ui/docks/rig_dock.h"
#include "ui/document/document.h"
#include "ui/main_window.h"
#include "ui/models/joint_tree_model.h"
#include "ui/models/rig_handle_model.h"
#include "ui/widgets/handle_editor.h"
#include "ui/widgets/joint_limit_editor.h"
#include "ui_test_support.h"

namespace articula::ui {
namespace {

class RigPanelTest : public ::testing::Test {
 protected:
  void SetUp() override {
    document.replaceScene(makeMannequin(), QString(), QStringLiteral("Mannequin"));
    document.setFrame(4);
  }

  int joint(const char* name) const {
    const int index = document.scene().skeleton.findJoint(name);
    EXPECT_GE(index, 0) << name;
    return index;
  }

  // Pushes through `action`, checks undo restores the document and redo the result.
  void expectUndoable(const std::function<bool()>& action) {
    const std::string original = test::serializeDocument(document);
    const int steps = document.undoStack()->count();
    ASSERT_TRUE(action()) << dock.messageLabel()->text().toStdString();
    EXPECT_EQ(document.undoStack()->count(), steps + 1);
    const std::string done = test::serializeDocument(document);
    EXPECT_NE(done, original) << "the action changed nothing";
    document.undoStack()->undo();
    EXPECT_EQ(test::serializeDocument(document), original);
    document.undoStack()->redo();
    EXPECT_EQ(test::serializeDocument(document), done);
  }

  Document document;
  RigDock dock{&document};
};

TEST_F(RigPanelTest, BuildAddRemoveAndEnableAreUndoableFromThePanel) {
  expectUndoable([this] { return dock.buildHumanoidRig(); });
  EXPECT_EQ(dock.model()->rowCount(), 5);
  EXPECT_TRUE(dock.rigLabel()->text().contains(QStringLiteral("5"))) << dock.rigLabel()->text().toStdString();

  document.setSelectedJoints({joint("LeftForeArm"), joint("LeftHand")});
  dock.setChosenSolver(IkSolverKind::Fabrik);
  expectUndoable([this] {
    const bool added = dock.addHandle();
    EXPECT_EQ(document.selectedHandle(), 5) << "the new handle is selected";
    return added;
  });
  ASSERT_EQ(dock.model()->rowCount(), 6);
  EXPECT_EQ(document.activeRig()->handles.back().solver, IkSolverKind::Fabrik);
  EXPECT_EQ(dock.model()->index(5, RigHandleModel::SolverColumn).data().toString(), QStringLiteral("FABRIK"));

  document.setSelectedHandle(1);
  const std::string removedName = document.activeRig()->handles[1].name;
  expectUndoable([this] { return dock.removeSelectedHandle(); });
  EXPECT_EQ(dock.model()->rowCount(), 5);
  EXPECT_NE(document.activeRig()->handles[1].name, removedName);

  ASSERT_TRUE(dock.enableRigAction()->isChecked());
  expectUndoable([this] {
    dock.enableRigAction()->trigger();
    return !document.rigEnabled();
  });
  EXPECT_FALSE(dock.enableRigAction()->isChecked());
  document.undoStack()->undo();
  EXPECT_TRUE(dock.enableRigAction()->isChecked()) << "the toggle follows undo";
  EXPECT_EQ(dock.model()->index(0, RigHandleModel::StateColumn).data().toString(), QStringLiteral("reached"));
}

TEST_F(RigPanelTest, EverySolverKindCanBeAddedFromTheSelection) {
  for (int kind = 0; kind < kIkSolverKindCount; ++kind) {
    const auto solver = static_cast<IkSolverKind>(kind);
    // A three-joint limb, so the two-bone solvers take it too.
    document.setSelectedJoints({joint("RightArm"), joint("RightHand")});
    dock.setChosenSolver(solver);
    ASSERT_EQ(dock.chosenSolver(), solver);
    ASSERT_TRUE(dock.addHandle()) << solverKindName(solver) << ": " << dock.messageLabel()->text().toStdString();
    EXPECT_EQ(document.activeRig()->handles.back().solver, solver);
    EXPECT_NE(document.boundRig(), nullptr) << document.rigError().toStdString();
  }
  EXPECT_EQ(dock.model()->rowCount(), kIkSolverKindCount);
}

TEST_F(RigPanelTest, AddingOnJointsOffOneLineIsRefusedWithTheReason) {
  QSignalSpy problems(&dock, &RigDock::problem);
  document.setSelectedJoints({joint("LeftHand"), joint("RightHand")});
  EXPECT_FALSE(dock.addHandle());
  ASSERT_EQ(problems.size(), 1);
  const QString message = dock.messageLabel()->text();
  EXPECT_TRUE(message.contains(QStringLiteral("ancestor"))) << message.toStdString();
  EXPECT_TRUE(message.contains(QStringLiteral("LeftHand")) || message.contains(QStringLiteral("RightHand")))
      << message.toStdString();
  EXPECT_EQ(document.undoStack()->count(), 0);

  // A two-bone solver on a chain of four joints: Rig::bind's reason.
  document.setSelectedJoints({joint("LeftShoulder"), joint("LeftHand")});
  dock.setChosenSolver(IkSolverKind::TwoBone);
  EXPECT_FALSE(dock.addHandle());
  EXPECT_TRUE(dock.messageLabel()->text().contains(QStringLiteral("3"))) << dock.messageLabel()->text().toStdString();
  EXPECT_EQ(document.undoStack()->count(), 0);

  document.setSelectedJoints({});
  EXPECT_FALSE(dock.removeSelectedHandle());
  EXPECT_EQ(problems.size(), 3);
}

TEST_F(RigPanelTest, HandleSelectionFollowsTheDocumentBothWays) {
  ASSERT_TRUE(dock.buildHumanoidRig());
  QItemSelectionModel* selection = dock.handleView()->selectionModel();
  selection->select(dock.model()->index(2, 0), QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
  EXPECT_EQ(document.selectedHandle(), 2);
  document.setSelectedHandle(4);
  ASSERT_EQ(selection->selectedRows().size(), 1);
  EXPECT_EQ(selection->selectedRows().front().row(), 4);
  document.setSelectedHandle(-1);
  EXPECT_TRUE(selection->selectedRows().isEmpty());
  EXPECT_FALSE(dock.weightSlider()->isEnabled());
  EXPECT_FALSE(dock.removeHandleAction()->isEnabled());
}

TEST_F(RigPanelTest, AWeightSliderDragIsOneUndoStepAndBlendsTowardsFk) {
  ASSERT_TRUE(dock.buildHumanoidRig());
  // Move the left arm's target away so IK and FK differ.
  const int arm = [this] {
    for (int h = 0; h < static_cast<int>(document.activeRig()->handles.size()); ++h) {
      if (document.activeRig()->handles[static_cast<std::size_t>(h)].role == HandleRole::LeftArm) return h;
    }
    return -1;
  }();
  ASSERT_GE(arm, 0);
  const int hand = joint("LeftHand");
  const Vec3 handBefore = document.modelPose()[static_cast<std::size_t>(hand)].translation();
  const Vec3 target = handBefore + Vec3(0.0f, 0.25f, 0.1f) * document.scene().characterHeight();
  document.undoStack()->push(new MoveHandleCommand(&document, arm, MoveHandleCommand::Part::Target, target));
  const Vec3 handIk = document.modelPose()[static_cast<std::size_t>(hand)].translation();
  ASSERT_GT((handIk - handBefore).norm(), 0.05f * document.scene().characterHeight());

  document.setSelectedHandle(arm);
  ASSERT_TRUE(dock.weightSlider()->isEnabled());
  EXPECT_EQ(dock.weightSlider()->value(), dock.weightSlider()->maximum());
  const std::string before = test::serializeDocument(document);
  const int steps = document.undoStack()->count();
  dock.weightSlider()->setSliderDown(true);
  for (int i = 1; i <= 50; ++i) dock.weightSlider()->setValue(dock.weightSlider()->maximum() - i * 20);
  dock.weightSlider()->setSliderDown(false);
  EXPECT_EQ(document.undoStack()->count(), steps + 1) << "the drag is one undo step";
  EXPECT_FLOAT_EQ(document.activeRig()->handles[static_cast<std::size_t>(arm)].weight, 0.0f);
  const Vec3 handFk = document.modelPose()[static_cast<std::size_t>(hand)].translation();
  EXPECT_LT((handFk - handBefore).norm(), 1e-3f * document.scene().characterHeight()) << "weight 0 is the FK pose";
  document.undoStack()->undo();
  EXPECT_EQ(test::serializeDocument(document), before);
  EXPECT_EQ(dock.weightSlider()->value(), dock.weightSlider()->maximum()) << "the slider follows undo";

  // A drag that ends where it began changes nothing and leaves no undo step.
  dock.weightSlider()->setSliderDown(true);
  for (int value : {900, 600, dock.weightSlider()->maximum()}) dock.weightSlider()->setValue(value);
  dock.weightSlider()->setSliderDown(false);
  EXPECT_EQ(document.undoStack()->count(), steps) << "a drag back to the start is no step";
  EXPECT_EQ(test::serializeDocument(document), before);

  // Two key presses are two steps.
  dock.weightSlider()->setValue(500);
  dock.weightSlider()->setValue(400);
  EXPECT_EQ(document.undoStack()->count(), steps + 2);
}

TEST_F(RigPanelTest, KeyPoseKeysTheSelectedJoints) {
  QUndoStack* undo = document.undoStack();
  document.setSelectedJoints({});
  EXPECT_FALSE(dock.keyPose());
  document.setSelectedJoints({joint("LeftForeArm")});
  const std::string before = test::serializeDocument(document);
  ASSERT_TRUE(dock.keyPose());
  EXPECT_EQ(undo->count(), 1);
  undo->undo();
  EXPECT_EQ(test::serializeDocument(document), before);
}

// The Rig panel next to the outliner and the properties, on the mannequin with its
// humanoid rig built and the left arm reaching for a target above its hand (so the arm's
// limits shape the solved pose).
class RigViewsTest : public RigPanelTest {
 protected:
  void SetUp() override {
    RigPanelTest::SetUp();
    ASSERT_TRUE(dock.buildHumanoidRig());
    for (int h = 0; h < static_cast<int>(document.activeRig()->handles.size()); ++h) {
      if (document.activeRig()->handles[static_cast<std::size_t>(h)].name == "left_arm") arm = h;
    }
    ASSERT_GE(arm, 0);
    const Vec3 hand = document.modelPose()[static_cast<std::size_t>(joint("LeftHand"))].translation();
    document.undoStack()->push(
        new MoveHandleCommand(&document, arm, MoveHandleCommand::Part::Target,
                              hand + Vec3(0.0f, 0.2f, 0.15f) * document.scene().characterHeight()));
  }

  const IkHandle& armHandle() const { return document.activeRig()->handles[static_cast<std::size_t>(arm)]; }

  OutlinerDock outliner{&document};
  PropertiesDock properties{&document};
  int arm = -1;
};

TEST_F(RigViewsTest, OutlinerShowsHandlesUnderTheirTipAndSyncsTheirSelection) {
  JointTreeModel* model = outliner.model();
  const QModelIndex handleItem = model->indexOfHandle(arm);
  ASSERT_TRUE(handleItem.isValid());
  EXPECT_EQ(model->parent(handleItem), model->indexOfJoint(joint("LeftHand")));
  EXPECT_EQ(handleItem.data().toString(), QStringLiteral("left_arm"));
  EXPECT_TRUE(
      model->indexOfHandle(arm, JointTreeModel::KindColumn).data().toString().startsWith(QStringLiteral("IK handle")));
  EXPECT_FALSE(handleItem.data(Qt::DecorationRole).isNull());
  EXPECT_EQ(model->handleOfIndex(handleItem), arm);
  EXPECT_EQ(model->jointOfIndex(handleItem), -1);
  EXPECT_EQ(model->handleOfIndex(model->indexOfJoint(joint("LeftHand"))), -1);
  EXPECT_EQ(model->rowCount(handleItem), 0);

  // Outliner → document → Rig panel.
  outliner.treeView()->selectionModel()->select(outliner.viewIndexOfHandle(arm),
                                                QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
  EXPECT_EQ(document.selectedHandle(), arm);
  ASSERT_EQ(dock.handleView()->selectionModel()->selectedRows().size(), 1);
  EXPECT_EQ(dock.handleView()->selectionModel()->selectedRows().front().row(), arm);
  // Rig panel → document → outliner.
  const int other = arm == 0 ? 1 : 0;
  dock.handleView()->selectionModel()->select(dock.model()->index(other, 0),
                                              QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
  EXPECT_EQ(document.selectedHandle(), other);
  const QModelIndexList rows = outliner.treeView()->selectionModel()->selectedRows();
  ASSERT_EQ(rows.size(), 1);
  EXPECT_EQ(rows.front(), outliner.viewIndexOfHandle(other));
  // A joint picked in the outliner drops the handle, as a click in a tree replaces its selection.
  outliner.treeView()->selectionModel()->select(outliner.viewIndexOfJoint(joint("Hips")),
                                                QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
  EXPECT_EQ(document.selectedJoints(), std::vector<int>{joint("Hips")});
  EXPECT_EQ(document.selectedHandle(), -1);

  // Undoing the rig takes the handle rows away (the mannequin's hand has no child joint).
  EXPECT_EQ(model->rowCount(model->indexOfJoint(joint("LeftHand"))), 1);
  while (document.undoStack()->canUndo()) document.undoStack()->undo();
  EXPECT_FALSE(model->indexOfHandle(0).isValid());
  EXPECT_EQ(model->rowCount(model->indexOfJoint(joint("LeftHand"))), 0);
}

TEST_F(RigViewsTest, OutlinerFilterFindsHandlesAndRenamesOnlyJoints) {
  outliner.filterEdit()->setText(QStringLiteral("left_a"));
  EXPECT_TRUE(outliner.viewIndexOfHandle(arm).isValid());
  EXPECT_FALSE(outliner.viewIndexOfJoint(joint("RightHand")).isValid());
  outliner.filterEdit()->setText(QStringLiteral("forearm"));
  EXPECT_TRUE(outliner.viewIndexOfJoint(joint("LeftForeArm")).isValid());
  EXPECT_FALSE(outliner.viewIndexOfHandle(arm).isValid());
  outliner.filterEdit()->clear();

  JointTreeModel* model = outliner.model();
  const QModelIndex handleItem = model->indexOfHandle(arm);
  EXPECT_FALSE(model->flags(handleItem).testFlag(Qt::ItemIsEditable));
  EXPECT_FALSE(model->setData(handleItem, QStringLiteral("renamed")));
  const QModelIndex jointItem = model->indexOfJoint(joint("LeftForeArm"));
  ASSERT_TRUE(model->setData(jointItem, QStringLiteral("LeftElbow")));
  EXPECT_EQ(document.scene().skeleton.findJoint("LeftElbow"), jointItem.internalId());
  EXPECT_TRUE(model->indexOfHandle(arm).isValid()) << "the handle row stays after a rename";
}

TEST_F(RigViewsTest, HandlePropertiesShowTheSelectedHandleAndEditItAsUndoSteps) {
  HandleEditor* editor = properties.handleEditor();
  document.setSelectedHandle(-1);
  EXPECT_TRUE(editor->isHidden());
  document.setSelectedHandle(arm);
  EXPECT_FALSE(editor->isHidden());
  EXPECT_EQ(editor->solverBox()->currentText(), solverLabel(armHandle().solver));
  EXPECT_EQ(editor->chainLabel()->text(), QStringLiteral("LeftArm → LeftForeArm → LeftHand"));
  EXPECT_EQ(editor->rootBox()->currentText(), QStringLiteral("LeftArm"));
  EXPECT_EQ(editor->iterationsBox()->value(), armHandle().maxIterations);

  // Spin-box steps of one field merge into one undo step until editing finishes.
  QUndoStack* undo = document.undoStack();
  const std::string before = test::serializeDocument(document);
  const int steps = undo->index();
  for (double weight : {0.9, 0.8, 0.7, 0.6}) editor->weightBox()->setValue(weight);
  EXPECT_EQ(undo->index(), steps + 1);
  EXPECT_FLOAT_EQ(armHandle().weight, 0.6f);
  emit editor->weightBox()->editingFinished();
  editor->iterationsBox()->setValue(40);
  EXPECT_EQ(undo->index(), steps + 2);
  EXPECT_EQ(armHandle().maxIterations, 40);
  undo->undo();
  undo->undo();
  EXPECT_TRUE(test::serializeDocument(document) == before) << "undo restores the document";
  EXPECT_DOUBLE_EQ(editor->weightBox()->value(), 1.0) << "the editor follows undo";

  // The solver and the chain root, each one step; the chain keeps the limits by joint.
  editor->solverBox()->setCurrentIndex(editor->solverBox()->findData(static_cast<int>(IkSolverKind::Fabrik)));
  EXPECT_EQ(armHandle().solver, IkSolverKind::Fabrik);
  const JointLimit elbow = armHandle().limits[1];
  editor->rootBox()->setCurrentIndex(editor->rootBox()->findText(QStringLiteral("LeftShoulder")));
  ASSERT_EQ(armHandle().chain.size(), 4u);
  EXPECT_EQ(armHandle().chain.front(), joint("LeftShoulder"));
  EXPECT_EQ(armHandle().limits[2], elbow);
  EXPECT_EQ(undo->index(), steps + 2);
  undo->undo();
  undo->undo();
  EXPECT_TRUE(test::serializeDocument(document) == before) << "undo restores the document";
}

TEST_F(RigViewsTest, HandleEnabledCheckAndPoleEditsAreUndoSteps) {
  // The check box of a handle row switches the handle; its chain goes back to FK.
  const int hand = joint("LeftHand");
  const Vec3 handIk = document.modelPose()[static_cast<std::size_t>(hand)].translation();
  const std::string before = test::serializeDocument(document);
  ASSERT_TRUE(
      dock.model()->setData(dock.model()->index(arm, RigHandleModel::NameColumn), Qt::Unchecked, Qt::CheckStateRole));
  EXPECT_FALSE(armHandle().enabled);
  EXPECT_EQ(dock.model()->index(arm, RigHandleModel::StateColumn).data().toString(), QStringLiteral("off"));
  EXPECT_GT((document.modelPose()[static_cast<std::size_t>(hand)].translation() - handIk).norm(),
            0.05f * document.scene().characterHeight());
  document.undoStack()->undo();
  EXPECT_TRUE(test::serializeDocument(document) == before) << "undo restores the document";

  // A model-space pole: space, then three coordinate steps merged into one.
  HandleEditor* editor = properties.handleEditor();
  document.setSelectedHandle(arm);
  const int steps = document.undoStack()->index();
  editor->poleSpaceBox()->setCurrentIndex(editor->poleSpaceBox()->findData(static_cast<int>(IkPole::Space::Model)));
  EXPECT_EQ(armHandle().pole.space, IkPole::Space::Model);
  EXPECT_TRUE(editor->polePositionBox(0)->isEnabled());
  for (double z : {0.1, 0.2, 0.3}) editor->polePositionBox(2)->setValue(z);
  EXPECT_FLOAT_EQ(armHandle().pole.position.z(), 0.3f);
  EXPECT_EQ(document.undoStack()->index(), steps + 2);
  editor->poleSpaceBox()->setCurrentIndex(editor->poleSpaceBox()->findData(static_cast<int>(IkPole::Space::Joint)));
  EXPECT_EQ(armHandle().pole.joint, joint("LeftArm")) << "a joint-space pole starts on the chain's root";
  EXPECT_TRUE(editor->poleJointBox()->isEnabled());
  while (document.undoStack()->index() > steps) document.undoStack()->undo();
  EXPECT_TRUE(test::serializeDocument(document) == before) << "undo restores the document";
}

TEST_F(RigViewsTest, BadHandleValuesAreRefusedWithAMessageAndNeverApplied) {
  HandleEditor* editor = properties.handleEditor();
  document.setSelectedHandle(arm);
  QSignalSpy problems(editor, &HandleEditor::problem);
  const std::string before = test::serializeDocument(document);
  const int steps = document.undoStack()->index();
  editor->iterationsBox()->setValue(0);
  ASSERT_EQ(problems.size(), 1);
  EXPECT_TRUE(editor->messageLabel()->text().contains(QStringLiteral("iterations")))
      << editor->messageLabel()->text().toStdString();
  EXPECT_EQ(editor->iterationsBox()->value(), armHandle().maxIterations) << "the field goes back";
  editor->toleranceBox()->setValue(0.0);
  EXPECT_EQ(problems.size(), 2);
  EXPECT_TRUE(editor->messageLabel()->text().contains(QStringLiteral("tolerance")));
  // The two-bone solvers need a chain of exactly three joints: Rig::bind's reason.
  editor->rootBox()->setCurrentIndex(editor->rootBox()->findText(QStringLiteral("LeftShoulder")));
  ASSERT_EQ(document.undoStack()->index(), steps + 1);
  editor->solverBox()->setCurrentIndex(editor->solverBox()->findData(static_cast<int>(IkSolverKind::TwoBone)));
  EXPECT_EQ(problems.size(), 3);
  EXPECT_NE(armHandle().solver, IkSolverKind::TwoBone);
  EXPECT_EQ(editor->solverBox()->currentData().toInt(), static_cast<int>(armHandle().solver));
  document.undoStack()->undo();
  EXPECT_EQ(document.undoStack()->index(), steps);
  EXPECT_TRUE(test::serializeDocument(document) == before) << "undo restores the document";
}

TEST_F(RigViewsTest, AConstraintEditChangesTheSolvedPoseAndUndoes) {
  JointLimitEditor* limits = properties.limitEditor();
  document.setSelectedHandle(arm);
  document.setSelectedJoints({joint("LeftForeArm")});
  EXPECT_FALSE(limits->isHidden());
  EXPECT_EQ(limits->joint(), joint("LeftForeArm")) << "the selected chain joint is shown";
  ASSERT_EQ(limits->kindBox()->currentData().toInt(), static_cast<int>(JointLimit::Kind::Hinge));
  const int elbow = joint("LeftForeArm");
  const Quat elbowBefore = document.localPose()[static_cast<std::size_t>(elbow)].rotation;
  const std::string before = test::serializeDocument(document);
  const int steps = document.undoStack()->index();

  // Lock the elbow near straight: the arm can no longer bend to the target.
  const double minimum = limits->angleBox(JointLimitEditor::HingeMin)->value();
  limits->angleBox(JointLimitEditor::HingeMax)->setValue(minimum + 2.0);
  EXPECT_EQ(document.undoStack()->index(), steps + 1);
  EXPECT_NEAR(armHandle().limits[1].maxAngleRad, (minimum + 2.0) * std::numbers::pi / 180.0, 1e-4);
  const Quat elbowAfter = document.localPose()[static_cast<std::size_t>(elbow)].rotation;
  EXPECT_GT(elbowBefore.angularDistance(elbowAfter), 0.05f) << "the solved pose moved";
  document.undoStack()->undo();
  EXPECT_TRUE(test::serializeDocument(document) == before) << "undo restores the document";

  // A cone on the shoulder picked from the joint box, then a twist limit: one step each.
  limits->setJoint(joint("LeftArm"));
  ASSERT_EQ(limits->kindBox()->currentData().toInt(), static_cast<int>(JointLimit::Kind::Cone));
  limits->angleBox(JointLimitEditor::ConeX)->setValue(10.0);
  EXPECT_NEAR(armHandle().limits[0].halfAngleXRad, 10.0 * std::numbers::pi / 180.0, 1e-4);
  emit limits->angleBox(JointLimitEditor::ConeX)->editingFinished();
  limits->twistBox()->setChecked(true);
  EXPECT_TRUE(armHandle().limits[0].twistLimited) << limits->messageLabel()->text().toStdString();
  EXPECT_EQ(document.undoStack()->index(), steps + 2);
  document.undoStack()->undo();
  document.undoStack()->undo();
  EXPECT_TRUE(test::serializeDocument(document) == before) << "undo restores the document";
}

TEST_F(RigViewsTest, BadLimitsAreRefusedWithAMessageAndNeverApplied) {
  JointLimitEditor* limits = properties.limitEditor();
  document.setSelectedHandle(arm);
  document.setSelectedJoints({joint("LeftForeArm")});
  QSignalSpy problems(limits, &JointLimitEditor::problem);
  const std::string before = test::serializeDocument(document);
  const int steps = document.undoStack()->index();

  const double maximum = limits->angleBox(JointLimitEditor::HingeMax)->value();
  limits->angleBox(JointLimitEditor::HingeMin)->setValue(maximum + 10.0);
  ASSERT_EQ(problems.size(), 1);
  EXPECT_TRUE(limits->messageLabel()->text().contains(QStringLiteral("above its maximum")))
      << limits->messageLabel()->text().toStdString();
  EXPECT_LT(limits->angleBox(JointLimitEditor::HingeMin)->value(), maximum) << "the field goes back";

  limits->setJoint(joint("LeftArm"));
  limits->angleBox(JointLimitEditor::ConeX)->setValue(-20.0);
  ASSERT_EQ(problems.size(), 2);
  EXPECT_TRUE(limits->messageLabel()->text().contains(QStringLiteral("cone angle")))
      << limits->messageLabel()->text().toStdString();
  limits->setJoint(joint("LeftForeArm"));
  limits->angleBox(JointLimitEditor::HingeMax)->setValue(200.0);
  ASSERT_EQ(problems.size(), 3);
  EXPECT_TRUE(limits->messageLabel()->text().contains(QStringLiteral("outside")))
      << limits->messageLabel()->text().toStdString();
  EXPECT_EQ(document.undoStack()->index(), steps);
  EXPECT_TRUE(test::serializeDocument(document) == before) << "nothing was applied";
}

TEST(RigPanelWindow, BuildingOnANonHumanoidNamesTheMissingLimbs) {
  MainWindow window;
  ASSERT_TRUE(window.openFile(QStringLiteral(ARTICULA_TEST_DATA_DIR "/gltf/RiggedSimple/RiggedSimple.glb")));
  QSignalSpy problems(window.rigDock(), &RigDock::problem);
  EXPECT_FALSE(window.rigDock()->buildHumanoidRig());
  ASSERT_EQ(problems.size(), 1);
  const QString message = problems[0][0].toString();
  EXPECT_TRUE(message.contains(QStringLiteral("humanoid"))) << message.toStdString();
  EXPECT_TRUE(message.contains(QStringLiteral("leg"), Qt::CaseInsensitive)) << message.toStdString();
  EXPECT_EQ(window.rigDock()->messageLabel()->text(), message);
  EXPECT_EQ(window.document()->undoStack()->count(), 0);
}

TEST(RigPanelWindow, TheDockIsInTheWindowMenusShortcutsAndLayoutReset) {
  MainWindow window;
  window.show();
  ASSERT_NE(window.rigDock(), nullptr);
  EXPECT_EQ(window.dockWidgetArea(window.rigDock()), Qt::LeftDockWidgetArea);
  auto* viewMenu = window.findChild<QMenu*>(QStringLiteral("menuView"));
  ASSERT_NE(viewMenu, nullptr);
  EXPECT_TRUE(viewMenu->actions().contains(window.rigDock()->toggleViewAction()));
  auto* rigMenu = window.findChild<QMenu*>(QStringLiteral("menuRig"));
  ASSERT_NE(rigMenu, nullptr);
  EXPECT_TRUE(rigMenu->actions().contains(window.rigDock()->addHandleAction()));
  ShortcutsDialog dialog(&window);
  const QTableWidget& table = *dialog.table();
  bool listed = false;
  for (int row = 0; row < table.rowCount(); ++row) {
    listed |= table.item(row, 0)->text() == QStringLiteral("Animation ▸ Rig ▸ Add IK Handle") &&
              table.item(row, 1)->text() == QKeySequence(Qt::SHIFT | Qt::Key_I).toString(QKeySequence::NativeText);
  }
  EXPECT_TRUE(listed) << "Shift+I is in Help ▸ Keyboard Shortcuts";
  window.rigDock()->hide();
  window.findChild<QAction*>(QStringLiteral("actionResetLayout"))->trigger();
  EXPECT_TRUE(window.rigDock()->isVisible());
  // Shift+I with nothing selected while the panel is closed: the panel opens with the reason.
  window.rigDock()->hide();
  window.document()->setSelectedJoints({});
  window.rigDock()->addHandleAction()->trigger();
  EXPECT_TRUE(window.rigDock()->isVisible());
  EXPECT_TRUE(window.rigDock()->messageLabel()->text().contains(QStringLiteral("select")))
      << window.rigDock()->messageLabel()->text().toStdString();
  window.close();
}

TEST(RigPanelWindow, AClosedRigPanelStaysClosedInTheNextSession) {
  {
    MainWindow window;
    window.show();
    window.rigDock()->hide();
    window.close();  // saves the layout
  }
  MainWindow reopened;
  reopened.show();
  EXPECT_FALSE(reopened.rigDock()->isVisible());
  reopened.findChild<QAction*>(QStringLiteral("actionResetLayout"))->trigger();
  EXPECT_TRUE(reopened.rigDock()->isVisible());
  EXPECT_EQ(reopened.dockWidgetArea(reopened.rigDock()), Qt::LeftDockWidgetArea);
  reopened.close();
}

// The bake follows the rig the animator set up: with the left arm's target moved, the baked
// left arm reaches for it (the humanoid rig built from the names would leave it), and the
// clip is exactly what the core pipeline gives for the active rig.
TEST(RigPanelWindow, BakeRunsThroughTheActiveRig) {
  MainWindow window;
  window.openScene(makeMannequin(), QStringLiteral("Mannequin"));
  Document& document = *window.document();
  ASSERT_TRUE(window.rigDock()->buildHumanoidRig());
  int arm = -1;
  for (int h = 0; h < static_cast<int>(document.activeRig()->handles.size()); ++h) {
    if (document.activeRig()->handles[static_cast<std::size_t>(h)].role == HandleRole::LeftArm) arm = h;
  }
  ASSERT_GE(arm, 0);
  const Scene& scene = document.scene();
  const int hand = scene.skeleton.findJoint("LeftHand");
  const Vec3 target = document.modelPose()[static_cast<std::size_t>(hand)].translation() +
                      Vec3(0.0f, 0.3f, 0.2f) * scene.characterHeight();
  // The rig set up to hold the hand there (a drag would pose the animated target for one
  // frame only).
  IkHandle pinned = *document.activeHandle(arm);
  pinned.targetSource = TargetSource::Handle;
  pinned.targetModel = target;
  document.undoStack()->push(new EditHandleCommand(&document, arm, pinned, QStringLiteral("Pin")));
  const RigDefinition active = *document.activeRig();

  ProjectBakeSettings settings;
  settings.toleranceRelative = 1e-3f;
  ASSERT_TRUE(window.bake(settings));
  ASSERT_EQ(scene.clips.size(), 2u);
  const Clip& baked = scene.clips[1];

  BakePipelineOptions options;
  options.bake.reduction.toleranceModel = 1e-3f * scene.characterHeight();
  const auto expected = bakeThroughRig(scene, scene.clips[0], active, options);
  ASSERT_TRUE(expected.ok()) << expected.error();
  const auto humanoid = buildHumanoidRig(scene.skeleton);
  ASSERT_TRUE(humanoid.ok()) << humanoid.error();
  const auto autoBake = bakeThroughRig(scene, scene.clips[0], *humanoid, options);
  ASSERT_TRUE(autoBake.ok()) << autoBake.error();

  const auto handAt = [&scene, hand](const Clip& clip, double time) {
    Pose local(scene.skeleton.restPose().begin(), scene.skeleton.restPose().end());
    ClipSampler(&clip).sample(time, local);
    std::vector<Affine> model(local.size());
    LocalToModelJob job;
    job.skeleton = &scene.skeleton;
    job.local = local;
    job.model = model;
    EXPECT_TRUE(job.run());
    return Vec3(model[static_cast<std::size_t>(hand)].translation());
  };
  const float height = scene.characterHeight();
  for (int f = 0; f < baked.frameCount(); f += 5) {
    const double time = baked.timeOf(f);
    EXPECT_LT((handAt(baked, time) - handAt(expected->clip, time)).norm(), 1e-5f * height) << "frame " << f;
    EXPECT_GT((handAt(baked, time) - handAt(autoBake->clip, time)).norm(), 0.05f * height) << "frame " << f;
  }
}

}  // namespace
}  // namespace articula::ui
