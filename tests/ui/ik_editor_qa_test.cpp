// The editor problems issue 35's QA pass found (qa_report P4-P13), each repeated through the
// real window (offscreen) as the QA drove it: the Rig panel's list, the handle's rotation
// fields, the History after a frame change, View ▸ Follow across clips, the outliner and the
// curve editor's legend at the editor's size, Shift held before grabbing a gizmo ring.
#include <gtest/gtest.h>

#include <QAction>
#include <QApplication>
#include <QDoubleSpinBox>
#include <QItemSelectionModel>
#include <QScrollBar>
#include <QSettings>
#include <QTest>
#include <QTreeView>
#include <QUndoStack>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numbers>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "core/bake/contact_detection.h"
#include "core/samples/mannequin.h"
#include "core/skeleton/local_to_model.h"
#include "ui/commands/clip_list_command.h"
#include "ui/commands/handle_commands.h"
#include "ui/commands/set_joint_transform_command.h"
#include "ui/curves/curve_view.h"
#include "ui/docks/curve_editor_dock.h"
#include "ui/docks/outliner_dock.h"
#include "ui/docks/properties_dock.h"
#include "ui/docks/rig_dock.h"
#include "ui/docks/timeline_dock.h"
#include "ui/document/document.h"
#include "ui/main_window.h"
#include "ui/models/rig_handle_model.h"
#include "ui/timeline/auto_key.h"
#include "ui/timeline/timeline_widget.h"
#include "ui/viewport/gizmo.h"
#include "ui/viewport/viewport.h"
#include "ui/widgets/handle_editor.h"
#include "ui_test_support.h"

namespace articula::ui {
namespace {

// The window at the size the editor opens (1280x800) with `file` (empty: the mannequin)
// open, the humanoid rig built on its first clip; shown (offscreen) when its layout is
// measured, and then the event loop must not run: it would expose the window, and the
// offscreen platform cannot draw the viewport's OpenGL.
class IkEditorQaTest : public ::testing::Test {
 protected:
  void open(const std::string& file, bool shown = false) {
    if (file.empty()) {
      window.openScene(makeMannequin(), QStringLiteral("Mannequin"));
    } else {
      ASSERT_TRUE(window.openFile(QString::fromStdString(test::dataPath(file))));
    }
    document = window.document();
    window.resize(1280, 800);
    if (shown) {
      window.show();
      QApplication::setActiveWindow(&window);
      QCoreApplication::sendPostedEvents();
    }
    window.rigDock()->buildHumanoidAction()->trigger();
    ASSERT_NE(document->boundRig(), nullptr) << document->rigError().toStdString();
  }

  int handleNamed(const char* name) const { return document->boundRig()->findHandle(name); }

  void selectRigRow(int handle) {
    RigDock* dock = window.rigDock();
    dock->handleView()->selectionModel()->select(dock->model()->index(handle, RigHandleModel::NameColumn),
                                                 QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
  }

  // Drags the target of `handle` by `offsetModel`, as the viewport does: one mergeable
  // command per mouse move.
  void dragTarget(int handle, const Vec3& offsetModel) {
    const Vec3 start = *shownTargetModel(*document, handle);
    constexpr int kMoves = 4;
    for (int move = 1; move <= kMoves; ++move) {
      auto* command = new MoveHandleCommand(document, handle, MoveHandleCommand::Part::Target,
                                            Vec3(start + offsetModel * (static_cast<float>(move) / kMoves)));
      command->setMergeable(move > 1);
      document->undoStack()->push(command);
    }
  }

  Vec3 orientationFieldsDeg(const HandleEditor& editor) const {
    return {static_cast<float>(editor.orientationBox(0)->value()),
            static_cast<float>(editor.orientationBox(1)->value()),
            static_cast<float>(editor.orientationBox(2)->value())};
  }

  MainWindow window;
  Document* document = nullptr;
};

// P4: a row click in the Rig panel selects the handle alone, so the gizmo goes to it (it sat
// on the joint selected before, and a drag moved that joint).
TEST_F(IkEditorQaTest, ARigPanelRowPutsTheGizmoOnItsHandle) {
  open("gltf/RobotExpressive/RobotExpressive.glb");
  document->setFrame(12);
  const int abdomen = document->scene().skeleton.findJoint("Abdomen");
  ASSERT_GE(abdomen, 0);
  document->setSelectedJoints({abdomen});
  ASSERT_EQ(window.viewport()->gizmoJoint(), abdomen);
  const int rightArm = handleNamed("right_arm");
  selectRigRow(rightArm);
  EXPECT_EQ(document->selectedHandle(), rightArm);
  EXPECT_TRUE(document->selectedJoints().empty()) << "the handle alone, as a click on it in the viewport";
  EXPECT_EQ(window.viewport()->gizmoJoint(), -1);
  EXPECT_EQ(window.viewport()->gizmoHandle(), rightArm);
  EXPECT_EQ(window.propertiesDock()->handleEditor()->handle(), rightArm);
}

// P5: lifting a foot's handle leaves its Target rotation fields as they were (on the robot
// -161.25 became -149.57). On the mannequin's walk, at the frame where grounding turns the
// planted left foot most from the clip's, lifted 0.24 of the height.
TEST_F(IkEditorQaTest, MovingAFootHandleLeavesItsRotationFields) {
  open("");
  const int leftLeg = handleNamed("left_leg");
  const int ankle = document->activeHandle(leftLeg)->chain.back();
  int planted = -1;
  float turnRad = 0.0f;
  for (int frame = 0; frame < document->frameCount(); ++frame) {
    document->setFrame(frame);
    const auto tip = static_cast<std::size_t>(ankle);
    const float turn =
        Quat(document->modelPose()[tip].rotation()).angularDistance(Quat(document->inputModelPose()[tip].rotation()));
    if (turn > turnRad) std::tie(planted, turnRad) = std::pair(frame, turn);
  }
  ASSERT_GT(turnRad, 0.01f) << "grounding turns the planted foot";
  document->setFrame(planted);
  selectRigRow(leftLeg);
  const HandleEditor& editor = *window.propertiesDock()->handleEditor();
  ASSERT_EQ(editor.handle(), leftLeg);
  const Vec3 before = orientationFieldsDeg(editor);
  const float height = document->scene().characterHeight();
  dragTarget(leftLeg, Vec3(0.0f, 0.24f * height, 0.0f));
  ASSERT_GT(std::abs(editor.targetBox(1)->value() - static_cast<double>(before.y())), 0.0) << "the fields refreshed";
  const Vec3 after = orientationFieldsDeg(editor);
  EXPECT_LE((after - before).cwiseAbs().maxCoeff(), 0.01f)
      << "before " << before.transpose() << ", after " << after.transpose();
  // Auto Key keys the target and not the orientation: what the fields show plays back.
  window.timelineDock()->timeline()->autoKeyAction()->setChecked(true);
  dragTarget(leftLeg, Vec3(0.0f, 0.05f * height, 0.0f));
  window.timelineDock()->timeline()->autoKey()->keyPendingEdit();  // as the mouse release does
  window.timelineDock()->timeline()->autoKeyAction()->setChecked(false);
  document->setFrame(planted + 1);
  document->setFrame(planted);
  EXPECT_LE((orientationFieldsDeg(editor) - before).cwiseAbs().maxCoeff(), 0.01f);
}

// P13: rotation fields read angles in (-180°, 180°]: a hand turned round and round about Y
// (the ring dragged on) reads 60°, not 420°, and no field of any handle over the walk
// reaches 360°.
TEST_F(IkEditorQaTest, RotationFieldsShowAnglesWithinHalfATurn) {
  open("");
  const int leftArm = handleNamed("left_arm");
  selectRigRow(leftArm);
  const HandleEditor& editor = *window.propertiesDock()->handleEditor();
  for (int degrees = 60; degrees <= 420; degrees += 60) {
    const float angleRad = static_cast<float>(degrees) * std::numbers::pi_v<float> / 180.0f;
    document->undoStack()->push(
        new MoveHandleCommand(document, leftArm, Quat(Eigen::AngleAxisf(angleRad, Vec3::UnitY()))));
    const double shown = editor.orientationBox(1)->value();
    EXPECT_TRUE(shown > -180.0 && shown <= 180.0) << degrees << "° shows as " << shown;
  }
  EXPECT_NEAR(editor.orientationBox(0)->value(), 0.0, 0.01);
  EXPECT_NEAR(editor.orientationBox(1)->value(), 60.0, 0.01);
  for (const char* name : {"left_arm", "right_arm", "left_leg", "right_leg", "spine"}) {
    selectRigRow(handleNamed(name));
    for (int frame = 0; frame < document->frameCount(); frame += 3) {
      document->setFrame(frame);
      for (int axis = 0; axis < 3; ++axis) {
        const double shown = editor.orientationBox(axis)->value();
        EXPECT_TRUE(shown > -180.0 && shown <= 180.0)
            << name << " frame " << frame << " axis " << axis << ": " << shown;
      }
    }
  }
}

// P8: an un-keyed drag of an animated handle, then another frame: the drag is gone, and so
// is its History entry (its undo and redo did nothing visible). A joint pose the same.
TEST_F(IkEditorQaTest, AnUnkeyedPoseLeavesTheHistoryWithItsFrame) {
  open("gltf/RobotExpressive/RobotExpressive.glb");
  document->setFrame(2);
  QUndoStack* stack = document->undoStack();
  const int steps = stack->count();
  const std::string atFrame2 = test::serializeDocument(*document);
  dragTarget(handleNamed("left_leg"), Vec3(0.0f, 0.3f, 0.2f));
  ASSERT_TRUE(document->isHandlePosed(handleNamed("left_leg")));
  ASSERT_EQ(stack->count(), steps + 1);
  const int abdomen = document->scene().skeleton.findJoint("Abdomen");
  Transform turned = document->localPose()[static_cast<std::size_t>(abdomen)];
  turned.rotation = Quat(Eigen::AngleAxisf(0.3f, Vec3::UnitX())) * turned.rotation;
  stack->push(new SetJointTransformCommand(document, abdomen, turned, SetJointTransformCommand::Channel::Rotate));
  ASSERT_EQ(stack->count(), steps + 2);
  document->setFrame(3);
  EXPECT_EQ(stack->count(), steps) << "both poses died with their frame";
  document->setFrame(2);
  EXPECT_EQ(test::serializeDocument(*document), atFrame2);
  EXPECT_EQ(stack->text(stack->count() - 1), QStringLiteral("Build Humanoid Rig")) << "Ctrl+Z undoes the rig";

  // An edit the clip keeps stays: a posed drag keyed with S, then another frame.
  dragTarget(handleNamed("left_leg"), Vec3(0.0f, 0.3f, 0.2f));
  window.findChild<QAction*>(QStringLiteral("actionKeyPose"))->trigger();
  const int keyed = stack->count();
  document->setFrame(5);
  EXPECT_EQ(stack->count(), keyed);
  // An undone pose waits on the redo side; a frame change leaves it there.
  document->setFrame(2);
  dragTarget(handleNamed("left_leg"), Vec3(0.0f, 0.2f, 0.0f));
  stack->undo();
  document->setFrame(4);
  EXPECT_EQ(stack->count(), keyed + 1);
  EXPECT_TRUE(stack->canRedo());
}

// P9: View ▸ Follow puts the character in the middle of the view again after a clip switch
// (it kept the last clip's offset: CMU 02_01 walks 4 m, the other clip starts where it
// began).
TEST_F(IkEditorQaTest, FollowCentresTheCharacterAfterAClipSwitch) {
  struct ForgetToggles {
    ~ForgetToggles() { QSettings().remove(QStringLiteral("preferences")); }
  } forget;
  open("bvh/cmu-mb-2010/02_01.bvh");
  window.timelineDock()->timeline()->duplicateCurrentClip();
  ASSERT_EQ(document->scene().clips.size(), 2u);
  document->setCurrentClip(0);
  Viewport* viewport = window.viewport();
  const int hips = viewport->followedJoint();
  ASSERT_GE(hips, 0);
  QAction* follow = window.findChild<QAction*>(QStringLiteral("actionFollow"));
  if (!viewport->follows()) follow->trigger();
  ASSERT_TRUE(viewport->follows());
  document->setFrame(document->frameCount() - 1);
  const float height = viewport->camera().target().y();
  document->setCurrentClip(1);
  const Vec3 hipsModel = document->modelPose()[static_cast<std::size_t>(hips)].translation();
  const Vec3 target = viewport->camera().target();
  EXPECT_NEAR(target.x(), hipsModel.x(), 1e-4f);
  EXPECT_NEAR(target.z(), hipsModel.z(), 1e-4f);
  EXPECT_EQ(target.y(), height) << "the view does not bob";
  document->setFrame(40);
  const Vec3 travel = document->modelPose()[static_cast<std::size_t>(hips)].translation() - hipsModel;
  EXPECT_NEAR(viewport->camera().target().x(), hipsModel.x() + travel.x(), 1e-4f) << "and follows on from there";
}

// P7: at 1280x800 the robot's deepest rows (a handle under a hand) read whole without
// scrolling sideways: the tree's indentation narrows instead.
TEST_F(IkEditorQaTest, TheOutlinerShowsTheRobotsDeepNamesWithoutScrolling) {
  open("gltf/RobotExpressive/RobotExpressive.glb", true);
  OutlinerDock* outliner = window.outlinerDock();
  QTreeView* tree = outliner->treeView();
  selectRigRow(handleNamed("left_arm"));
  QCoreApplication::sendPostedEvents();
  tree->doItemsLayout();
  EXPECT_EQ(tree->horizontalScrollBar()->maximum(), 0) << "indentation " << tree->indentation();
  EXPECT_EQ(tree->horizontalScrollBar()->value(), 0);
  const QModelIndex row = outliner->viewIndexOfHandle(handleNamed("left_arm"));
  ASSERT_TRUE(row.isValid());
  const QRect shown = tree->visualRect(row);
  EXPECT_GE(shown.left(), 0);
  EXPECT_LE(shown.right(), tree->viewport()->width());
  EXPECT_GE(shown.width(), tree->fontMetrics().horizontalAdvance(row.data().toString()));
}

// P12: the selected handle's curves are named in the legend without "ik.<handle>.", so the
// legend beside the plot is no wider than the stride curves' names need (the QA's eight
// channels of a turned hand took 170 px of the curve editor).
TEST_F(IkEditorQaTest, TheLegendNamesAHandlesCurvesByChannel) {
  open("", true);
  const int leftArm = handleNamed("left_arm");
  selectRigRow(leftArm);
  document->setFrame(6);
  document->undoStack()->push(new MoveHandleCommand(document, leftArm, Quat(Eigen::AngleAxisf(0.5f, Vec3::UnitX()))));
  window.findChild<QAction*>(QStringLiteral("actionKeyPose"))->trigger();
  CurveView* view = window.curveEditorDock()->curveView();
  const QString longest = QStringLiteral("ik.left_arm.orientation.w");
  ASSERT_NE(view->findEntry(longest), nullptr);
  ASSERT_NE(view->findEntry(QStringLiteral("contact.right_foot")), nullptr);
  const QRectF legendRow = view->legendRect(longest);
  ASSERT_FALSE(legendRow.isEmpty());
  EXPECT_LT(legendRow.width(), view->fontMetrics().horizontalAdvance(longest))
      << "a row holds its line sample and a shorter name than this one's";
}

// P10: Shift held before the press on a ring grabs the ring at the fine rate (it picked
// joints instead and nothing turned).
TEST_F(IkEditorQaTest, ShiftHeldBeforeGrabbingARingTurnsItFinely) {
  open("", true);
  Viewport* viewport = window.viewport();
  const int joint = document->scene().skeleton.findJoint("LeftArm");
  document->setSelectedJoints({joint});
  viewport->setGizmoMode(GizmoMode::Rotate);
  const std::optional<GizmoFrame> frame = viewport->gizmoFrame();
  ASSERT_TRUE(frame.has_value());
  const GizmoView view = viewport->gizmoView();
  const auto toPixels = [&](const Vec3& pointModel) {
    const Vec4 clip = view.viewProjection * pointModel.homogeneous();
    return Vec2((clip.x() / clip.w() * 0.5f + 0.5f) * view.width, (0.5f - clip.y() / clip.w() * 0.5f) * view.height);
  };
  const Vec2 centre = toPixels(frame->originModel);
  Vec2 start = Vec2::Zero();
  bool found = false;
  for (int step = 0; step < 16 && !found; ++step) {
    const float angleRad = 0.39f * static_cast<float>(step);
    start = toPixels(frame->originModel + frame->sizeModel * (std::cos(angleRad) * frame->axesModel.col(0) +
                                                              std::sin(angleRad) * frame->axesModel.col(1)))
                .array()
                .round()
                .matrix();
    found = (start - centre).norm() > 30.0f;
    for (int dy = -2; dy <= 2; ++dy) {
      for (int dx = -2; dx <= 2; ++dx)
        found = found && pickGizmoAxis(GizmoMode::Rotate, *frame, view, start + Vec2(dx, dy)) == 2;
    }
  }
  ASSERT_TRUE(found) << "no point of the Z ring is pickable on screen";
  const auto toPoint = [](const Vec2& pixel) {
    return QPoint(static_cast<int>(std::lround(pixel.x())), static_cast<int>(std::lround(pixel.y())));
  };
  const Quat before = document->localPose()[static_cast<std::size_t>(joint)].rotation;
  const int steps = document->undoStack()->count();
  // Shift down first, then the press and 150 px along the ring: 60° at the plain rate.
  QTest::mousePress(viewport, Qt::LeftButton, Qt::ShiftModifier, toPoint(start));
  const Vec2 arm = start - centre;
  const Vec2 tangent = Vec2(-arm.y(), arm.x()).normalized();
  QPoint last = toPoint(start);
  for (int move = 1; move <= 50; ++move) {
    last = toPoint(start + tangent * (3.0f * static_cast<float>(move)));
    QMouseEvent event(QEvent::MouseMove, QPointF(last), viewport->mapToGlobal(QPointF(last)), Qt::NoButton,
                      Qt::LeftButton, Qt::ShiftModifier);
    QApplication::sendEvent(viewport, &event);
  }
  QTest::mouseRelease(viewport, Qt::LeftButton, Qt::ShiftModifier, last);
  EXPECT_EQ(document->undoStack()->count(), steps + 1) << "the ring was grabbed";
  EXPECT_EQ(document->selectedJoints(), std::vector<int>{joint}) << "no joint was added to the selection";
  const float turnedRad = document->localPose()[static_cast<std::size_t>(joint)].rotation.angularDistance(before);
  EXPECT_NEAR(turnedRad, std::numbers::pi / 30.0, 0.01) << "a tenth of 60°";
}

// P6: building the humanoid rig on a clip without stride curves moves nothing (RobotExpressive
// Walking: the shoes were flattened, a toe went 0.06 under the floor, the hips dropped 0.10),
// in the viewport on every frame and in the exported file; Detect Contacts then grounds it.
TEST_F(IkEditorQaTest, ARigOnAClipWithoutStrideCurvesMovesNothing) {
  open("gltf/RobotExpressive/RobotExpressive.glb");
  for (int clip = static_cast<int>(document->scene().clips.size()) - 1; clip >= 0; --clip) {
    if (document->scene().clips[static_cast<std::size_t>(clip)].name != "Walking")
      document->undoStack()->push(ClipListCommand::remove(document, clip));
  }
  ASSERT_EQ(document->currentClip()->name, "Walking");
  ASSERT_FALSE(document->currentClip()->curves.contains("contact.left_foot"));
  const float height = document->scene().characterHeight();
  std::vector<std::vector<Vec3>> keyed;
  float moved = 0.0f;
  for (int frame = 0; frame < document->frameCount(); ++frame) {
    document->setFrame(frame);
    ASSERT_TRUE(document->rigSolved());
    std::vector<Vec3>& positions = keyed.emplace_back();
    for (std::size_t joint = 0; joint < document->modelPose().size(); ++joint) {
      positions.push_back(document->inputModelPose()[joint].translation());
      moved = std::max(moved, (document->modelPose()[joint].translation() - positions.back()).norm());
    }
  }
  EXPECT_LE(moved, 1e-4f * height) << "the rig moved a joint on screen";

  const auto exported = test::exportedThroughTheWindow(window, "articula_qa_rig_untouched");
  ASSERT_TRUE(exported.ok()) << exported.error();
  ASSERT_EQ(exported->clips.size(), 1u);
  const Skeleton& skeleton = exported->skeleton;
  ClipSampler sampler(&exported->clips[0]);
  float exportedMoved = 0.0f;
  for (int frame = 0; frame < static_cast<int>(keyed.size()); ++frame) {
    Pose local(skeleton.restPose().begin(), skeleton.restPose().end());
    sampler.sample(document->timeOfFrame(frame), local);
    std::vector<Affine> model(local.size());
    LocalToModelJob fk;
    fk.skeleton = &skeleton;
    fk.local = local;
    fk.model = model;
    ASSERT_TRUE(fk.run());
    for (int joint = 0; joint < skeleton.jointCount(); ++joint) {
      const int shown = document->scene().skeleton.findJoint(skeleton.name(joint));
      if (shown < 0) continue;
      exportedMoved = std::max(exportedMoved, (model[static_cast<std::size_t>(joint)].translation() -
                                               keyed[static_cast<std::size_t>(frame)][static_cast<std::size_t>(shown)])
                                                  .norm());
    }
  }
  EXPECT_LE(exportedMoved, 2e-3f * height) << "the file holds the clip as keyed (within the bake's reduction)";
  std::printf("RobotExpressive Walking, rig built: largest joint move %.6f on screen, %.6f in the file (height %.3f)\n",
              moved, exportedMoved, height);

  ASSERT_TRUE(window.detectContacts(ContactDetectionOptions{}));
  ASSERT_TRUE(document->currentClip()->curves.contains("contact.left_foot"));
  EXPECT_TRUE(document->boundRig()->ground().has_value()) << "stride curves: the feet stand on the ground";
}

}  // namespace
}  // namespace articula::ui
