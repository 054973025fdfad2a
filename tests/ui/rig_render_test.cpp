// The rig in the viewport, drawn by OpenGL under Xvfb: handles show, and dragging a target
// with the mouse solves the rig live in one undo step.
#include <gtest/gtest.h>

#include <QAction>
#include <QApplication>
#include <QTest>
#include <QUndoStack>

#include "core/bake/contact_detection.h"
#include "core/rig/humanoid_map.h"
#include "core/rig/humanoid_roles.h"
#include "core/samples/mannequin.h"
#include "ui/commands/handle_commands.h"
#include "ui/commands/rename_joint_command.h"
#include "ui/commands/replace_clip_command.h"
#include "ui/commands/rig_set_command.h"
#include "ui/commands/set_rig_enabled_command.h"
#include "ui/commands/set_roles_command.h"
#include "ui/document/document.h"
#include "ui/main_window.h"
#include "ui/viewport/viewport.h"
#include "ui_test_support.h"

namespace articula::ui {
namespace {

// Pixels of the reached handles' green: nothing else in the viewport is green (the grid's
// axes are red and blue, the mesh and bones grey, the selection orange).
int handlePixels(const QImage& image, const QRect& region) {
  int count = 0;
  for (int y = region.top(); y <= region.bottom(); ++y) {
    for (int x = region.left(); x <= region.right(); ++x) {
      const QColor c = image.pixelColor(x, y);
      if (c.green() > c.red() + 60 && c.green() > c.blue() + 40) ++count;
    }
  }
  return count;
}

// Pixels of the selected handle's yellow.
int selectedHandlePixels(const QImage& image, const QRect& region) {
  int count = 0;
  for (int y = region.top(); y <= region.bottom(); ++y) {
    for (int x = region.left(); x <= region.right(); ++x) {
      const QColor c = image.pixelColor(x, y);
      if (c.red() > 200 && c.green() > 170 && c.blue() < 110) ++count;
    }
  }
  return count;
}

QPoint screenOf(const Viewport& viewport, const Vec3& pointModel) {
  const Vec4 clip = viewport.viewProjection() * pointModel.homogeneous();
  const Vec3 ndc = clip.head<3>() / clip.w();
  return QPoint(static_cast<int>(std::lround((ndc.x() * 0.5f + 0.5f) * viewport.width())),
                static_cast<int>(std::lround((0.5f - ndc.y() * 0.5f) * viewport.height())));
}

class RigRenderTest : public ::testing::Test {
 protected:
  void SetUp() override {
    window.openScene(makeMannequin(), QStringLiteral("Mannequin"));
    window.document()->setFrame(6);
    window.resize(1280, 800);
    window.show();
    std::string error;
    ASSERT_TRUE(test::waitForRenderedFrame(*window.viewport(), &error)) << error;
    QApplication::processEvents();
    viewportRect = QRect(window.viewport()->mapTo(&window, QPoint(0, 0)), window.viewport()->size());
  }

  void buildHumanoid() {
    auto rig = BuildHumanoidRigCommand::humanoidRig(*window.document());
    ASSERT_TRUE(rig) << rig.error();
    window.document()->undoStack()->push(new BuildHumanoidRigCommand(window.document(), std::move(rig).value()));
    ASSERT_TRUE(window.viewport()->renderFrameNow());
    QApplication::processEvents();
  }

  // A square of `half` pixels around `point` (viewport coordinates), in window coordinates.
  QRect around(const QPoint& point, int half) const {
    return QRect(viewportRect.topLeft() + point - QPoint(half, half), QSize(2 * half + 1, 2 * half + 1))
        .intersected(viewportRect);
  }

  QImage redrawn() {
    EXPECT_TRUE(window.viewport()->renderFrameNow());
    QApplication::processEvents();
    return window.grab().toImage();
  }

  MainWindow window;
  QRect viewportRect;
};

TEST_F(RigRenderTest, ScreenshotShowsTheHandles) {
  const QImage plain = window.grab().toImage();
  EXPECT_LT(handlePixels(plain, viewportRect), 20) << "handle colours before there is a rig";
  buildHumanoid();
  EXPECT_EQ(window.viewport()->handleMarkers().size(), 5u);
  const QImage rigged = window.grab().toImage();
  EXPECT_GT(handlePixels(rigged, viewportRect), 150) << "the five handles (diamonds, crosses, poles) are drawn";
  EXPECT_GT(test::luminanceVariance(rigged, viewportRect), 600.0) << "and the character still is";
}

TEST_F(RigRenderTest, DraggingATargetSolvesLiveInOneUndoStep) {
  buildHumanoid();
  Document* document = window.document();
  Viewport* viewport = window.viewport();
  const int arm = document->boundRig()->findHandle("left_arm");
  ASSERT_GE(arm, 0);
  const int hand = document->activeRig()->handles[static_cast<std::size_t>(arm)].chain.back();
  const Vec3 targetBefore = viewport->handleMarkers()[static_cast<std::size_t>(arm)].targetModel;
  const QPoint start = screenOf(*viewport, targetBefore);
  const int steps = document->undoStack()->count();
  QTest::mousePress(viewport, Qt::LeftButton, Qt::NoModifier, start);
  Vec3 handAtMove = Vec3::Zero();
  for (int move = 1; move <= 20; ++move) {
    QTest::mouseMove(viewport, start + QPoint(-move, -2 * move));
    handAtMove = document->modelPose()[static_cast<std::size_t>(hand)].translation();
  }
  QTest::mouseRelease(viewport, Qt::LeftButton, Qt::NoModifier, start + QPoint(-20, -40));
  EXPECT_EQ(document->undoStack()->count(), steps + 1);
  // The arm's target follows the clip: the drag poses it at this frame, the rig stays as it was.
  EXPECT_EQ(document->activeRig()->handles[static_cast<std::size_t>(arm)].targetSource, TargetSource::InputPose);
  ASSERT_TRUE(document->isHandlePosed(arm));
  const Vec3 posedModel = *document->handlePoses().at(arm).targetModel;
  EXPECT_GT((posedModel - targetBefore).norm(), 0.05f) << "the target followed the mouse";
  // Solved at the last mouse move already, not only on release.
  EXPECT_LT((handAtMove - posedModel).norm(), 0.02f);
  document->undoStack()->undo();
  EXPECT_FALSE(document->isHandlePosed(arm));
}

// Issue 35: a foot's handle lifts off the ground along its gizmo's Y arrow, in the front,
// the side and the perspective view, and a hand moves in depth along Z in the side view; each
// drag is one undo step and poses the handle for this frame (it follows the clip). With Shift
// held the same mouse motion moves a tenth as far.
TEST_F(RigRenderTest, HandleArrowsLiftAFootAndMoveAHandInDepth) {
  buildHumanoid();
  Document* document = window.document();
  Viewport* viewport = window.viewport();
  window.findChild<QAction*>(QStringLiteral("actionMoveTool"))->trigger();
  ASSERT_EQ(viewport->gizmoMode(), GizmoMode::Translate);
  // Drags `handle`'s arrow `axis`, grabbed two thirds along it, 2 pixels a move along
  // `direction` with `keys` held; returns how far the handle's tip moved, model space, and
  // sets how far its target moved.
  Vec3 targetMoved = Vec3::Zero();
  const auto dragArrow = [&](int handle, int axis, const QPoint& direction, Qt::KeyboardModifiers keys) {
    document->setSelectedJoints({});
    document->setSelectedHandle(handle);
    EXPECT_TRUE(viewport->renderFrameNow());
    EXPECT_EQ(viewport->gizmoHandle(), handle);
    const auto frame = viewport->gizmoFrame();
    EXPECT_TRUE(frame.has_value());
    if (!frame) return Vec3(Vec3::Zero());
    const int tip = document->activeRig()->handles[static_cast<std::size_t>(handle)].chain.back();
    const Vec3 before = document->modelPose()[static_cast<std::size_t>(tip)].translation();
    const QPoint start = screenOf(*viewport, frame->originModel + 0.66f * frame->sizeModel * frame->axesModel.col(axis));
    EXPECT_EQ(pickGizmoAxis(GizmoMode::Translate, *frame, viewport->gizmoView(), Vec2(start.x(), start.y())), axis);
    const int steps = document->undoStack()->index();
    QTest::mousePress(viewport, Qt::LeftButton, Qt::NoModifier, start);
    for (int move = 1; move <= 20; ++move) {
      const QPointF at = start + 2 * move * direction;
      QMouseEvent event(QEvent::MouseMove, at, viewport->mapToGlobal(at), Qt::NoButton, Qt::LeftButton, keys);
      QApplication::sendEvent(viewport, &event);
    }
    QTest::mouseRelease(viewport, Qt::LeftButton, keys, start + 40 * direction);
    EXPECT_EQ(document->undoStack()->index(), steps + 1) << "one drag, one undo step";
    const auto posed = document->handlePoses().find(handle);
    targetMoved = posed == document->handlePoses().end() || !posed->second.targetModel
                      ? Vec3(Vec3::Zero())
                      : Vec3(*posed->second.targetModel - frame->originModel);
    return Vec3(document->modelPose()[static_cast<std::size_t>(tip)].translation() - before);
  };
  const int leg = document->boundRig()->findHandle("right_leg");
  for (const auto view : {OrbitCamera::NamedView::Front, OrbitCamera::NamedView::Side,
                          OrbitCamera::NamedView::Perspective}) {
    viewport->setNamedView(view);
    const Vec3 lifted = dragArrow(leg, 1, QPoint(0, -1), Qt::NoModifier);
    EXPECT_GT(lifted.y(), 0.05f) << "40 px up lifts the foot off the ground";
    EXPECT_LT(Vec2(lifted.x(), lifted.z()).norm(), 1e-3f) << "straight up";
    EXPECT_TRUE(document->isHandlePosed(leg)) << "the leg follows the clip: posed for this frame";
    document->undoStack()->undo();
  }
  const int arm = document->boundRig()->findHandle("left_arm");
  viewport->setNamedView(OrbitCamera::NamedView::Side);
  const Vec3 deeper = dragArrow(arm, 2, QPoint(-1, 0), Qt::NoModifier);
  const Vec3 targetDeeper = targetMoved;
  document->undoStack()->undo();
  EXPECT_GT(std::abs(deeper.z()), 0.05f) << "the hand moves in depth";
  EXPECT_LT(std::abs(deeper.x()), 0.1f * std::abs(deeper.z())) << "along the arrow (the arm's CCD within its limits)";
  dragArrow(arm, 2, QPoint(-1, 0), Qt::ShiftModifier);
  EXPECT_NEAR(targetMoved.z() / targetDeeper.z(), 0.1f, 0.01f) << "Shift: the target goes a tenth as far";
}

TEST_F(RigRenderTest, TrailsToggleFromTheViewMenu) {
  buildHumanoid();
  window.document()->setSelectedJoints({window.document()->scene().skeleton.findJoint("LeftForeArm")});
  const QImage before = redrawn();
  auto* trailsAction = window.findChild<QAction*>(QStringLiteral("actionTrails"));
  ASSERT_NE(trailsAction, nullptr);
  trailsAction->trigger();
  EXPECT_TRUE(window.viewport()->showTrails());
  const QImage after = redrawn();
  ASSERT_EQ(window.viewport()->trails().size(), 1u);
  EXPECT_EQ(static_cast<int>(window.viewport()->trails().front().size()), window.document()->frameCount());
  EXPECT_GT(test::changedPixelFraction(before, after, viewportRect), 0.001) << "the trail is drawn";
  trailsAction->trigger();
  EXPECT_LT(test::changedPixelFraction(before, redrawn(), viewportRect), 0.0001) << "and gone again";
}

TEST_F(RigRenderTest, ClickingATargetSelectsItsHandleAndAJointClearsIt) {
  buildHumanoid();
  Document* document = window.document();
  Viewport* viewport = window.viewport();
  const int leg = document->boundRig()->findHandle("right_leg");
  const HandleMarker& marker = viewport->handleMarkers()[static_cast<std::size_t>(leg)];
  const int steps = document->undoStack()->count();
  QTest::mouseClick(viewport, Qt::LeftButton, Qt::NoModifier, screenOf(*viewport, marker.targetModel));
  EXPECT_EQ(document->selectedHandle(), leg);
  EXPECT_EQ(document->undoStack()->count(), steps) << "a click without a move edits nothing";
  const QImage selected = redrawn();
  EXPECT_GT(selectedHandlePixels(selected, around(screenOf(*viewport, marker.targetModel), 14)), 10)
      << "the selected handle is drawn in its highlight";
  // The pole picks the same handle; a joint away from every handle clears it.
  ASSERT_TRUE(marker.hasPole);
  document->setSelectedHandle(-1);
  QTest::mouseClick(viewport, Qt::LeftButton, Qt::NoModifier, screenOf(*viewport, marker.poleModel));
  EXPECT_EQ(document->selectedHandle(), leg);
  const int head = document->scene().skeleton.findJoint("Head");
  QTest::mouseClick(viewport, Qt::LeftButton, Qt::NoModifier,
                    screenOf(*viewport, document->modelPose()[static_cast<std::size_t>(head)].translation()));
  EXPECT_EQ(document->selectedHandle(), -1);
  EXPECT_EQ(document->selectedJoints(), std::vector<int>{head});
}

TEST_F(RigRenderTest, ADragBackToItsStartLeavesNoUndoStep) {
  buildHumanoid();
  Document* document = window.document();
  Viewport* viewport = window.viewport();
  const int leg = document->boundRig()->findHandle("left_leg");
  const std::string before = test::serializeDocument(*document);
  const int steps = document->undoStack()->count();
  for (const bool pole : {false, true}) {
    const HandleMarker& marker = viewport->handleMarkers()[static_cast<std::size_t>(leg)];
    const QPoint start = screenOf(*viewport, pole ? marker.poleModel : marker.targetModel);
    QTest::mousePress(viewport, Qt::LeftButton, Qt::NoModifier, start);
    for (int move = 1; move <= 10; ++move) QTest::mouseMove(viewport, start + QPoint(3 * move, move));
    EXPECT_EQ(document->undoStack()->count(), steps + 1) << "the drag is one step while it goes on";
    QTest::mouseMove(viewport, start);
    QTest::mouseRelease(viewport, Qt::LeftButton, Qt::NoModifier, start);
    EXPECT_EQ(document->undoStack()->count(), steps) << (pole ? "pole" : "target");
    EXPECT_EQ(test::serializeDocument(*document), before);
  }
}

TEST_F(RigRenderTest, ContactRingsShowUnderAPlantedFoot) {
  buildHumanoid();
  Document* document = window.document();
  // The pose must not depend on the stride curve here: only the rings may change.
  document->undoStack()->push(new SetRigEnabledCommand(document, false));
  const int foot = document->scene().skeleton.findJoint("LeftFoot");
  const Vec3 ankle = document->modelPose()[static_cast<std::size_t>(foot)].translation();
  const QRect ring = around(screenOf(*window.viewport(), Vec3(ankle.x(), 0.0f, ankle.z())), 40);
  // The walk has stride curves already: the left foot's is replaced by a flat 0, then 1.
  Clip clip = *document->currentClip();
  clip.curves["contact.left_foot"] = Curve();
  clip.curves["contact.left_foot"].insertKey(0.0, 0.0, Interpolation::Constant);
  document->undoStack()->push(
      new ReplaceClipCommand(document, document->currentClipIndex(), clip, QStringLiteral("Free")));
  const QImage free = redrawn();
  clip.curves["contact.left_foot"].insertKey(0.0, 1.0, Interpolation::Constant);
  document->undoStack()->push(
      new ReplaceClipCommand(document, document->currentClipIndex(), clip, QStringLiteral("Planted")));
  const QImage planted = redrawn();
  EXPECT_GT(test::changedPixelFraction(free, planted, ring), 0.01) << "a ring under the planted foot";
  EXPECT_LT(test::changedPixelFraction(free, planted, viewportRect.adjusted(0, 0, 0, -viewportRect.height() / 2)),
            0.0005)
      << "nothing else changed (the upper half of the view)";
}

TEST_F(RigRenderTest, ContactFeetFollowTheHumanoidMap) {
  // Without a rig the ringed feet are the humanoid's, found through its map: a rename and a
  // characterisation by hand must reach them, as they reach everything else.
  Document* document = window.document();
  const Viewport& viewport = *window.viewport();
  const auto ringed = [&] {
    std::vector<std::pair<int, std::string>> feet;
    for (const ContactFoot& foot : viewport.contactFeet()) feet.emplace_back(foot.joint, foot.curve);
    return feet;
  };
  const auto byMap = [&] {
    std::vector<std::pair<int, std::string>> feet;
    if (auto found = humanoidFeet(document->scene().skeleton)) {
      for (const FootJoints& foot : *found) feet.emplace_back(foot.ankle, foot.curveName);
    }
    return feet;
  };
  const auto before = ringed();
  ASSERT_EQ(before.size(), 2u);
  EXPECT_EQ(before, byMap());
  const int foot = document->scene().skeleton.findJoint("LeftFoot");
  document->undoStack()->push(new RenameJointCommand(document, foot, QStringLiteral("Blob")));
  EXPECT_EQ(ringed(), byMap());
  document->undoStack()->undo();

  // The user says left is right: the rings swap their stride curves.
  Skeleton mirrored = document->scene().skeleton;
  auto map = mapHumanoid(mirrored);
  ASSERT_TRUE(map.ok());
  std::swap(map->leftLeg, map->rightLeg);
  std::swap(map->leftArm, map->rightArm);
  labelRoles(mirrored, *map);
  document->undoStack()->push(
      new SetRolesCommand(document, SetRolesCommand::rolesOf(mirrored), QStringLiteral("Mirror Roles")));
  EXPECT_NE(byMap(), before) << "the roles must matter to the humanoid's feet";
  EXPECT_EQ(ringed(), byMap());
  document->undoStack()->undo();
  EXPECT_EQ(ringed(), before);
}

// The picture an animator sees with everything on: handles (the right arm's selected),
// the elbow's hinge arc (the gizmo hidden), trails of the elbow and the right hand, a ring
// under the planted left foot. Saved to $ARTICULA_SCREENSHOT_DIR/rig_overlay.png when that is set.
TEST_F(RigRenderTest, EverythingTogether) {
  buildHumanoid();
  Document* document = window.document();
  document->setFrame(0);  // the walk's left foot is planted, its right foot is not
  window.viewport()->setShowTrails(true);
  window.viewport()->setGizmoMode(GizmoMode::None);  // the elbow's arc, not the gizmo's rings
  document->setSelectedJoints({document->scene().skeleton.findJoint("LeftForeArm")});
  document->setSelectedHandle(document->boundRig()->findHandle("right_arm"));
  const QImage image = redrawn();
  if (const QString dir = qEnvironmentVariable("ARTICULA_SCREENSHOT_DIR"); !dir.isEmpty()) {
    image.save(dir + QStringLiteral("/rig_overlay.png"));
  }
  ASSERT_EQ(window.viewport()->trails().size(), 2u);
  const HandleMarker& arm =
      window.viewport()->handleMarkers()[static_cast<std::size_t>(document->boundRig()->findHandle("right_arm"))];
  EXPECT_GT(selectedHandlePixels(image, around(screenOf(*window.viewport(), arm.targetModel), 14)), 10);
  int cyan = 0;
  for (int y = viewportRect.top(); y <= viewportRect.bottom(); ++y) {
    for (int x = viewportRect.left(); x <= viewportRect.right(); ++x) {
      const QColor c = image.pixelColor(x, y);
      if (c.blue() > 170 && c.green() > 170 && c.red() < 130) ++cyan;
    }
  }
  EXPECT_GT(cyan, 100) << "the trails";
}

}  // namespace
}  // namespace articula::ui
