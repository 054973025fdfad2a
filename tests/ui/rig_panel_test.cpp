// The Rig panel (RigDock and its handle model), the outliner's handle rows, the handle and
// joint-limit editors of the properties dock, and the bake through the active rig: every
// edit one undo step that restores the whole serialised document, refusals named.
#include <gtest/gtest.h>

#include <QAction>
#include <QComboBox>
#include <QItemSelectionModel>
#include <QLabel>
#include <QMenu>
#include <QSignalSpy>
#include <QSlider>
#include <QTableWidget>
#include <QTreeView>
#include <QUndoStack>

#include <functional>
#include <string>
#include <utility>

#include "core/bake/bake_pipeline.h"
#include "core/rig/humanoid_rig.h"
#include "core/samples/mannequin.h"
#include "core/skeleton/local_to_model.h"
#include "ui/commands/handle_commands.h"
#include "ui/commands/rig_set_command.h"
#include "ui/dialogs/shortcuts_dialog.h"
#include "ui/docks/rig_dock.h"
#include "ui/document/document.h"
#include "ui/main_window.h"
#include "ui/models/rig_handle_model.h"
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
  window.close();
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
  document.undoStack()->push(new MoveHandleCommand(&document, arm, MoveHandleCommand::Part::Target, target));
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
