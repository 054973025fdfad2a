// The main window rendered by OpenGL (Mesa llvmpipe under Xvfb) and grabbed like the
// --screenshot option does: the character must actually be drawn, and drawn in its pose.
#include <gtest/gtest.h>

#include <QAction>
#include <QApplication>
#include <QTest>
#include <QUndoStack>
#include <QWheelEvent>

#include <cmath>
#include <numbers>

#include "core/samples/mannequin.h"
#include "ui/docks/rig_dock.h"
#include "ui/document/document.h"
#include "ui/main_window.h"
#include "ui/viewport/gizmo.h"
#include "ui/viewport/viewport.h"
#include "ui_test_support.h"

namespace articula::ui {
namespace {

struct Grabs {
  QImage first;
  QImage later;
  QRect viewportRect;  // in window pixels
};

// Shows the window, grabs it at frame 0 and at `laterFrame` of the first clip.
Grabs grabTwoFrames(MainWindow& window, int laterFrame) {
  window.resize(1280, 800);
  window.show();
  window.viewport()->frameAll();
  std::string error;
  EXPECT_TRUE(test::waitForRenderedFrame(*window.viewport(), &error)) << error;
  QApplication::processEvents();
  Grabs grabs;
  grabs.viewportRect = QRect(window.viewport()->mapTo(&window, QPoint(0, 0)), window.viewport()->size());
  grabs.first = window.grab().toImage();
  window.document()->setFrame(laterFrame);
  QApplication::processEvents();
  grabs.later = window.grab().toImage();
  return grabs;
}

void expectCharacterDrawnAndMoving(const Grabs& grabs) {
  ASSERT_FALSE(grabs.first.isNull());
  ASSERT_FALSE(grabs.later.isNull());
  // The background gradient and the grid alone give a variance near 190 (see
  // EmptyViewportHasLowVariance); a lit character gives 1400 to 2000 (measured with Mesa
  // llvmpipe). A blank or single-colour viewport gives less than the empty one.
  EXPECT_GT(test::luminanceVariance(grabs.first, grabs.viewportRect), 600.0);
  EXPECT_GT(test::luminanceVariance(grabs.later, grabs.viewportRect), 600.0);
  // Walking moves limbs across many pixels between the two frames (11 % to 27 % measured).
  EXPECT_GT(test::changedPixelFraction(grabs.first, grabs.later, grabs.viewportRect), 0.02);
}

TEST(RenderMainWindow, MannequinIsDrawnAndItsWalkMoves) {
  MainWindow window;
  window.openScene(makeMannequin(), QStringLiteral("Mannequin"));
  ASSERT_GT(window.document()->frameCount(), 10);
  expectCharacterDrawnAndMoving(grabTwoFrames(window, window.document()->frameCount() / 2));
}

TEST(RenderMainWindow, CesiumManIsDrawnAndItsWalkMoves) {
  MainWindow window;
  ASSERT_TRUE(window.openFile(QString::fromStdString(test::dataPath("gltf/CesiumMan/CesiumMan.glb"))));
  ASSERT_GT(window.document()->frameCount(), 10);
  expectCharacterDrawnAndMoving(grabTwoFrames(window, window.document()->frameCount() / 2));
}

TEST(RenderMainWindow, EmptyViewportHasLowVariance) {
  // The "character is drawn" check above can fail: a scene without a character stays under
  // its threshold.
  MainWindow window;
  window.openScene(Scene{}, QStringLiteral("Empty"));
  window.resize(1280, 800);
  window.show();
  std::string error;
  ASSERT_TRUE(test::waitForRenderedFrame(*window.viewport(), &error)) << error;
  QApplication::processEvents();
  const QRect viewportRect(window.viewport()->mapTo(&window, QPoint(0, 0)), window.viewport()->size());
  EXPECT_LT(test::luminanceVariance(window.grab().toImage(), viewportRect), 300.0);
}

// The Rig panel docked under the outliner with the humanoid rig built and the left arm's
// handle selected: its rows, the handle's properties and the arm's limits are drawn. With
// ARTICULA_TEST_SCREENSHOT_DIR set, the window is saved there as rig_dock.png.
TEST(RenderMainWindow, RigPanelShowsTheHumanoidHandles) {
  MainWindow window;
  window.openScene(makeMannequin(), QStringLiteral("Mannequin"));
  ASSERT_TRUE(window.rigDock()->buildHumanoidRig());
  Document& document = *window.document();
  document.setSelectedJoints({document.scene().skeleton.findJoint("LeftForeArm")});
  document.setSelectedHandle(3);
  ASSERT_EQ(document.activeRig()->handles[3].name, "left_arm");
  window.resize(1280, 800);
  window.show();
  window.viewport()->frameAll();
  std::string error;
  ASSERT_TRUE(test::waitForRenderedFrame(*window.viewport(), &error)) << error;
  QApplication::processEvents();
  const QImage image = window.grab().toImage();
  const QRect dockRect(window.rigDock()->mapTo(&window, QPoint(0, 0)), window.rigDock()->size());
  ASSERT_TRUE(window.rigDock()->isVisible());
  EXPECT_GT(dockRect.height(), 150);
  // Text rows and buttons on the dock's flat background (a blank dock is near 0).
  EXPECT_GT(test::luminanceVariance(image, dockRect), 100.0);
  if (const QByteArray dir = qgetenv("ARTICULA_TEST_SCREENSHOT_DIR"); !dir.isEmpty()) {
    EXPECT_TRUE(image.save(QString::fromLocal8Bit(dir) + QStringLiteral("/rig_dock.png")));
  }
}

TEST(RenderViewport, OnionSkinDrawsGhostsAroundTheCurrentFrame) {
  MainWindow window;
  window.openScene(makeMannequin(), QStringLiteral("Mannequin"));
  window.document()->setFrame(10);
  window.resize(1280, 800);
  window.show();
  std::string error;
  ASSERT_TRUE(test::waitForRenderedFrame(*window.viewport(), &error)) << error;
  QApplication::processEvents();
  const QRect viewportRect(window.viewport()->mapTo(&window, QPoint(0, 0)), window.viewport()->size());
  const QImage plain = window.grab().toImage();
  window.viewport()->setOnionSkin(OnionSkinSettings{2, 4});
  QApplication::processEvents();
  const QImage ghosts = window.grab().toImage();
  EXPECT_GT(test::changedPixelFraction(plain, ghosts, viewportRect), 0.002);
  window.viewport()->setOnionSkin(OnionSkinSettings{});
  QApplication::processEvents();
  EXPECT_LT(test::changedPixelFraction(plain, window.grab().toImage(), viewportRect), 0.0001);
}

TEST(RenderViewport, FrameSelectedAimsAtTheSelectionAndNamedViewsLookAlongTheAxes) {
  MainWindow window;
  window.openScene(makeMannequin(), QStringLiteral("Mannequin"));
  window.resize(1280, 800);
  window.show();
  std::string error;
  ASSERT_TRUE(test::waitForRenderedFrame(*window.viewport(), &error)) << error;
  Viewport* viewport = window.viewport();
  const float framedAllDistance = viewport->camera().distance();
  const int hand = window.document()->scene().skeleton.findJoint("LeftHand");
  window.document()->setSelectedJoints({hand});
  viewport->frameSelected();
  ASSERT_TRUE(viewport->renderFrameNow());
  const Vec3 handModel = window.document()->modelPose()[static_cast<std::size_t>(hand)].translation();
  EXPECT_LT((viewport->camera().target() - handModel).norm(), 0.1f);
  EXPECT_LT(viewport->camera().distance(), 0.5f * framedAllDistance) << "a hand is framed closer than the body";

  viewport->setNamedView(OrbitCamera::NamedView::Side);
  EXPECT_TRUE(viewport->camera().isOrthographic());
  EXPECT_TRUE((viewport->camera().eye() - viewport->camera().target()).normalized().isApprox(Vec3::UnitX(), 1e-4f));
  viewport->setNamedView(OrbitCamera::NamedView::Top);
  EXPECT_GT((viewport->camera().eye() - viewport->camera().target()).normalized().y(), 0.999f);
  viewport->setNamedView(OrbitCamera::NamedView::Perspective);
  EXPECT_FALSE(viewport->camera().isOrthographic());

  // Maya's Alt+LMB orbit and Blender's MMB orbit both turn the camera; orbiting leaves an
  // orthographic view.
  viewport->setNamedView(OrbitCamera::NamedView::Front);
  const float yawBefore = viewport->camera().yawRad();
  const QPoint centre(viewport->width() / 2, viewport->height() / 2);
  QTest::mousePress(viewport, Qt::LeftButton, Qt::AltModifier, centre);
  QTest::mouseMove(viewport, centre + QPoint(40, 0));
  QTest::mouseRelease(viewport, Qt::LeftButton, Qt::AltModifier, centre + QPoint(40, 0));
  EXPECT_NE(viewport->camera().yawRad(), yawBefore);
  EXPECT_FALSE(viewport->camera().isOrthographic());
  const float yawAfterMaya = viewport->camera().yawRad();
  QTest::mousePress(viewport, Qt::MiddleButton, Qt::NoModifier, centre);
  QTest::mouseMove(viewport, centre + QPoint(40, 0));
  QTest::mouseRelease(viewport, Qt::MiddleButton, Qt::NoModifier, centre + QPoint(40, 0));
  EXPECT_NE(viewport->camera().yawRad(), yawAfterMaya);
  // Shift+MMB pans: the target moves, the angles do not.
  const Vec3 targetBefore = viewport->camera().target();
  const float yawBeforePan = viewport->camera().yawRad();
  QTest::mousePress(viewport, Qt::MiddleButton, Qt::ShiftModifier, centre);
  QTest::mouseMove(viewport, centre + QPoint(30, 20));
  QTest::mouseRelease(viewport, Qt::MiddleButton, Qt::ShiftModifier, centre + QPoint(30, 20));
  EXPECT_GT((viewport->camera().target() - targetBefore).norm(), 1e-3f);
  EXPECT_EQ(viewport->camera().yawRad(), yawBeforePan);
}

// A capture opens framed on its whole motion: every joint at every frame is inside the
// viewport (CMU 02_01 walked out of a view framed on its first frame; MakeHuman's walk1 is
// a Z-up capture).
TEST(RenderViewport, AnOpenedCaptureStaysInViewAtEveryFrame) {
  for (const char* file : {"bvh/cmu-mb-2010/02_01.bvh", "bvh/makehuman/walk1.bvh"}) {
    MainWindow window;
    ASSERT_TRUE(window.openFile(QString::fromStdString(test::dataPath(file))));
    window.resize(1280, 800);
    window.show();
    std::string error;
    ASSERT_TRUE(test::waitForRenderedFrame(*window.viewport(), &error)) << error;
    const Mat4 viewProjection = window.viewport()->viewProjection();
    Document& document = *window.document();
    float widest = 0.0f;
    for (int frame = 0; frame < document.frameCount(); frame += 5) {
      document.setFrame(frame);
      for (const Affine& joint : document.modelPose()) {
        const Vec4 clip = viewProjection * joint.translation().homogeneous();
        ASSERT_GT(clip.w(), 0.0f) << file << " frame " << frame;
        const Vec2 ndc = clip.head<2>() / clip.w();
        widest = std::max(widest, ndc.cwiseAbs().maxCoeff());
      }
    }
    EXPECT_LE(widest, 1.0f) << file << ": a joint left the view";
    EXPECT_GT(widest, 0.3f) << file << ": the motion fills the view";
  }
}

TEST(RenderViewport, MoveToolDragsTheJointAlongTheWorldAxisAndWheelZooms) {
  MainWindow window;
  window.openScene(makeMannequin(), QStringLiteral("Mannequin"));
  window.resize(1280, 800);
  window.show();
  std::string error;
  ASSERT_TRUE(test::waitForRenderedFrame(*window.viewport(), &error)) << error;
  Document* document = window.document();
  Viewport* viewport = window.viewport();
  const int hips = document->scene().skeleton.findJoint("Hips");
  document->setSelectedJoints({hips});
  // W and the world-space toggle, as a user reaches them: through the actions.
  window.findChild<QAction*>(QStringLiteral("actionMoveTool"))->trigger();
  auto* localAxes = window.findChild<QAction*>(QStringLiteral("actionLocalAxes"));
  if (localAxes->isChecked()) localAxes->trigger();
  ASSERT_EQ(viewport->gizmoMode(), GizmoMode::Translate);
  ASSERT_EQ(viewport->gizmoSpace(), GizmoSpace::World);
  const auto frame = viewport->gizmoFrame();
  ASSERT_TRUE(frame.has_value());
  const GizmoView view = viewport->gizmoView();
  const auto toPixels = [&](const Vec3& pointModel) {
    const Vec4 clip = view.viewProjection * pointModel.homogeneous();
    return QPoint(static_cast<int>(std::lround((clip.x() / clip.w() * 0.5f + 0.5f) * view.width)),
                  static_cast<int>(std::lround((0.5f - clip.y() / clip.w() * 0.5f) * view.height)));
  };
  // Grab the Y arrow two thirds of the way up and drag it up by 30 moves of 2 pixels.
  const QPoint start = toPixels(frame->originModel + 0.66f * frame->sizeModel * Vec3::UnitY());
  ASSERT_EQ(pickGizmoAxis(GizmoMode::Translate, *frame, view, Vec2(start.x(), start.y())), 1);
  const Vec3 hipsBefore = document->modelPose()[static_cast<std::size_t>(hips)].translation();
  QTest::mousePress(viewport, Qt::LeftButton, Qt::NoModifier, start);
  for (int move = 1; move <= 30; ++move) QTest::mouseMove(viewport, start - QPoint(0, 2 * move));
  QTest::mouseRelease(viewport, Qt::LeftButton, Qt::NoModifier, start - QPoint(0, 60));
  EXPECT_EQ(document->undoStack()->count(), 1);
  const Vec3 moved = document->modelPose()[static_cast<std::size_t>(hips)].translation() - hipsBefore;
  EXPECT_GT(moved.y(), 0.05f) << "60 px up moves the hips up";
  EXPECT_NEAR(moved.x(), 0.0f, 1e-4f);
  EXPECT_NEAR(moved.z(), 0.0f, 1e-4f);

  const float distanceBefore = viewport->camera().distance();
  QWheelEvent wheel(QPointF(100, 100), viewport->mapToGlobal(QPointF(100, 100)), QPoint(), QPoint(0, 120), Qt::NoButton,
                    Qt::NoModifier, Qt::NoScrollPhase, false);
  QApplication::sendEvent(viewport, &wheel);
  EXPECT_LT(viewport->camera().distance(), distanceBefore) << "wheel forward zooms in";
}

TEST(RenderViewport, ClickingAJointSelectsItAndShiftClickAdds) {
  MainWindow window;
  window.openScene(makeMannequin(), QStringLiteral("Mannequin"));
  window.resize(1280, 800);
  window.show();
  std::string error;
  ASSERT_TRUE(test::waitForRenderedFrame(*window.viewport(), &error)) << error;
  Viewport* viewport = window.viewport();
  const Document* document = window.document();
  const auto pixelOf = [&](const char* name) {
    const int joint = document->scene().skeleton.findJoint(name);
    const Vec4 clip =
        viewport->viewProjection() * document->modelPose()[static_cast<std::size_t>(joint)].translation().homogeneous();
    return QPoint(static_cast<int>(std::lround((clip.x() / clip.w() * 0.5 + 0.5) * viewport->width())),
                  static_cast<int>(std::lround((0.5 - clip.y() / clip.w() * 0.5) * viewport->height())));
  };
  const int head = document->scene().skeleton.findJoint("Head");
  const int leftHand = document->scene().skeleton.findJoint("LeftHand");
  window.viewport()->setGizmoMode(GizmoMode::None);
  QTest::mouseClick(viewport, Qt::LeftButton, Qt::NoModifier, pixelOf("Head"));
  EXPECT_EQ(document->selectedJoints(), std::vector<int>{head});
  QTest::mouseClick(viewport, Qt::LeftButton, Qt::ShiftModifier, pixelOf("LeftHand"));
  EXPECT_EQ(document->selectedJoints(), (std::vector<int>{std::min(head, leftHand), std::max(head, leftHand)}));
  QTest::mouseClick(viewport, Qt::LeftButton, Qt::NoModifier, QPoint(3, 3));
  EXPECT_TRUE(document->selectedJoints().empty());
}

TEST(RenderViewport, GizmoDragIsOneUndoStepAndRotatesTheJoint) {
  MainWindow window;
  window.openScene(makeMannequin(), QStringLiteral("Mannequin"));
  window.resize(1280, 800);
  window.show();
  std::string error;
  ASSERT_TRUE(test::waitForRenderedFrame(*window.viewport(), &error)) << error;
  Document* document = window.document();
  Viewport* viewport = window.viewport();
  const int joint = document->scene().skeleton.findJoint("LeftArm");
  document->setSelectedJoints({joint});
  viewport->setGizmoMode(GizmoMode::Rotate);
  const auto frame = viewport->gizmoFrame();
  ASSERT_TRUE(frame.has_value());
  const GizmoView view = viewport->gizmoView();

  // A point on a ring that picks that ring, and the ring's centre on screen.
  const auto toPixels = [&](const Vec3& pointModel) {
    const Vec4 clip = view.viewProjection * pointModel.homogeneous();
    return Vec2((clip.x() / clip.w() * 0.5f + 0.5f) * view.width, (0.5f - clip.y() / clip.w() * 0.5f) * view.height);
  };
  const Vec2 centre = toPixels(frame->originModel);
  Vec2 start = Vec2::Zero();
  int axis = -1;
  for (int step = 0; step < 16 && axis < 0; ++step) {
    const float angleRad = 0.39f * static_cast<float>(step);
    const Vec3 pointModel = frame->originModel + frame->sizeModel * (std::cos(angleRad) * frame->axesModel.col(0) +
                                                                     std::sin(angleRad) * frame->axesModel.col(1));
    // On the Z ring (the X and Y axes span its plane), at the whole pixel the press lands
    // on; a point a pixel or two from where another ring crosses it would pick either.
    start = toPixels(pointModel).array().round().matrix();
    bool onlyZ = (start - centre).norm() > 30.0f;
    for (int dy = -2; dy <= 2; ++dy) {
      for (int dx = -2; dx <= 2; ++dx) {
        onlyZ = onlyZ && pickGizmoAxis(GizmoMode::Rotate, *frame, view, start + Vec2(dx, dy)) == 2;
      }
    }
    if (onlyZ) axis = 2;
  }
  ASSERT_EQ(axis, 2) << "no point of the Z ring is pickable on screen";

  const std::string original = test::serializeDocument(*document);
  const Quat before = document->localPose()[static_cast<std::size_t>(joint)].rotation;
  const auto toPoint = [](const Vec2& pixel) {
    return QPoint(static_cast<int>(std::lround(pixel.x())), static_cast<int>(std::lround(pixel.y())));
  };
  // 50 mouse moves along the ring's tangent where it was grabbed, 150 px: 60° at 0.4° a pixel.
  const auto dragRing = [&] {
    QTest::mousePress(viewport, Qt::LeftButton, Qt::NoModifier, toPoint(start));
    const Vec2 arm = start - centre;
    const Vec2 tangent = Vec2(-arm.y(), arm.x()).normalized();
    QPoint last = toPoint(start);
    for (int move = 1; move <= 50; ++move) {
      last = toPoint(start + tangent * (3.0f * static_cast<float>(move)));
      QTest::mouseMove(viewport, last);
    }
    QTest::mouseRelease(viewport, Qt::LeftButton, Qt::NoModifier, last);
    QApplication::processEvents();
  };
  dragRing();

  EXPECT_EQ(document->undoStack()->count(), 1);
  const Quat after = document->localPose()[static_cast<std::size_t>(joint)].rotation;
  EXPECT_NEAR(after.angularDistance(before), std::numbers::pi / 3.0, 0.05);
  // The joint turned about the gizmo's Z axis (local space: the joint's own Z).
  const Quat turnModel =
      Quat(document->modelPose()[static_cast<std::size_t>(joint)].linear()) * Quat(frame->axesModel).conjugate();
  EXPECT_GT(std::abs(Eigen::AngleAxisf(turnModel).axis().dot(frame->axesModel.col(2))), 0.99f);
  document->undoStack()->undo();
  EXPECT_EQ(test::serializeDocument(*document), original);

  // With auto key on, the same drag ends as a key at the current frame.
  QAction* autoKey = window.findChild<QAction*>(QStringLiteral("actionAutoKey"));
  ASSERT_NE(autoKey, nullptr);
  autoKey->setChecked(true);
  const double time = document->time();
  dragRing();
  // The clip now gives the dragged rotation at this frame (60° from what it gave before).
  const RotationTrack& rotation = document->currentClip()->findTrack(joint)->rotation;
  EXPECT_NEAR(rotation.evaluate(time).angularDistance(before), std::numbers::pi / 3.0, 0.05);
  EXPECT_TRUE(rotation.evaluate(time).isApprox(document->localPose()[static_cast<std::size_t>(joint)].rotation, 1e-5f));
  EXPECT_TRUE(document->poseOverrides().empty()) << "the drag became animation";
  autoKey->setChecked(false);
}

}  // namespace
}  // namespace articula::ui
