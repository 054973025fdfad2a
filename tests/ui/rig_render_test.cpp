// The rig in the viewport, drawn by OpenGL under Xvfb: handles show, and dragging a target
// with the mouse solves the rig live in one undo step.
#include <gtest/gtest.h>

#include <QApplication>
#include <QTest>
#include <QUndoStack>

#include "core/samples/mannequin.h"
#include "ui/commands/handle_commands.h"
#include "ui/commands/rig_set_command.h"
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

  MainWindow window;
  QRect viewportRect;
};

TEST_F(RigRenderTest, ScreenshotShowsTheHandles) {
  const QImage plain = window.grab().toImage();
  EXPECT_LT(handlePixels(plain, viewportRect), 20) << "handle colours before there is a rig";
  buildHumanoid();
  EXPECT_EQ(window.viewport()->handleMarkers().size(), 5u);
  const QImage rigged = window.grab().toImage();
  rigged.save(QStringLiteral("rig_handles_screenshot.png"));
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
  const IkHandle& handle = document->activeRig()->handles[static_cast<std::size_t>(arm)];
  EXPECT_EQ(handle.targetSource, TargetSource::Handle);
  EXPECT_GT((handle.targetModel - targetBefore).norm(), 0.05f) << "the target followed the mouse";
  // Solved at the last mouse move already, not only on release.
  EXPECT_LT((handAtMove - handle.targetModel).norm(), 0.02f);
  document->undoStack()->undo();
  EXPECT_EQ(document->activeRig()->handles[static_cast<std::size_t>(arm)].targetSource, TargetSource::InputPose);
}

TEST_F(RigRenderTest, SelectedJointShowsItsLimitAndTrail) {
  buildHumanoid();
  const QImage before = window.grab().toImage();
  window.document()->setSelectedJoints({window.document()->scene().skeleton.findJoint("LeftForeArm")});
  ASSERT_TRUE(window.viewport()->renderFrameNow());
  QApplication::processEvents();
  ASSERT_EQ(window.viewport()->trails().size(), 1u);
  EXPECT_EQ(static_cast<int>(window.viewport()->trails().front().size()), window.document()->frameCount());
  EXPECT_GT(test::changedPixelFraction(before, window.grab().toImage(), viewportRect), 0.002);
}

}  // namespace
}  // namespace articula::ui
