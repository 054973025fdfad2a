// Finding things in the real window, offscreen, on a CMU capture: the outliner's filter
// reveals its first match, and the wheel zooms time in the dope sheet and the curve editor
// around the frame under the mouse.
#include <gtest/gtest.h>

#include <QApplication>
#include <QLineEdit>
#include <QScrollBar>
#include <QSettings>
#include <QTest>
#include <QTreeView>
#include <QWheelEvent>

#include <string>
#include <utility>

#include "ui/curves/curve_view.h"
#include "ui/docks/curve_editor_dock.h"
#include "ui/docks/outliner_dock.h"
#include "ui/docks/timeline_dock.h"
#include "ui/document/document.h"
#include "ui/main_window.h"
#include "ui/timeline/dope_sheet.h"
#include "ui/timeline/time_axis.h"
#include "ui/timeline/timeline_widget.h"
#include "ui/viewport/viewport.h"
#include "ui_test_support.h"

namespace articula::ui {
namespace {

// A shown window on CMU 02_01 (31 joints, six deep to a toe), at the size the editor opens.
class NavigationTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(window.openFile(QString::fromStdString(test::dataPath("bvh/cmu-mb-2010/02_01.bvh"))));
    window.show();
    // Activated directly: running the event loop would expose the window, and the offscreen
    // platform cannot draw the viewport's OpenGL.
    QApplication::setActiveWindow(&window);
    QCoreApplication::sendPostedEvents();
  }

  static void wheel(QWidget* widget, QPointF at, int notches, Qt::KeyboardModifiers modifiers) {
    QWheelEvent event(at, widget->mapToGlobal(at), QPoint(), QPoint(0, 120 * notches), Qt::NoButton, modifiers,
                      Qt::NoScrollPhase, false);
    QApplication::sendEvent(widget, &event);
  }

  // Zooms with the wheel at a few places off the middle of `widget`, in and out, and checks
  // that the time under the mouse (read from `axis` before and after) stays under it.
  static void expectWheelZoomKeepsTheTimeUnderTheMouse(QWidget* widget, const TimeAxis& axis,
                                                       Qt::KeyboardModifiers modifiers) {
    for (const double share : {0.2, 0.7, 0.9}) {
      const QPointF at(axis.left() + share * (axis.right() - axis.left()), widget->height() * 0.4);
      for (const int notches : {2, 1, -1, 3, -2}) {
        const double timeUnderMouse = axis.pixelToTime(at.x());
        const double spanBefore = axis.endTime() - axis.startTime();
        wheel(widget, at, notches, modifiers);
        ASSERT_NE(axis.endTime() - axis.startTime(), spanBefore) << "the wheel zoomed time";
        EXPECT_NEAR(axis.timeToPixel(timeUnderMouse), at.x(), 1.0)
            << "at " << share << " of the width, " << notches << " notches";
      }
    }
  }

  MainWindow window;
};

// "LeftToe" narrows the tree to the left leg's chain; "Thumb" keeps both arms, ten rows deep
// each, and its first match (the left thumb) lies past the bottom of the outliner's view.
TEST_F(NavigationTest, TheOutlinerFilterRevealsItsFirstMatch) {
  OutlinerDock& outliner = *window.outlinerDock();
  QTreeView& tree = *outliner.treeView();
  const Skeleton& skeleton = window.document()->scene().skeleton;
  for (const auto& [filter, firstMatch] : {std::pair{"LeftToe", "LeftToeBase"}, std::pair{"Thumb", "LThumb"}}) {
    for (const bool fromBottom : {false, true}) {
      SCOPED_TRACE(std::string(filter) + (fromBottom ? ", typed with the view at the bottom" : ", at the top"));
      outliner.filterEdit()->clear();
      // Where the user was looking, scrolled sideways, with the left leg collapsed.
      tree.collapse(outliner.viewIndexOfJoint(skeleton.findJoint("LeftUpLeg")));
      if (fromBottom) {
        tree.scrollToBottom();
        ASSERT_GT(tree.verticalScrollBar()->value(), 0) << "the tree is taller than its view";
      } else {
        tree.scrollToTop();
      }
      tree.horizontalScrollBar()->setValue(tree.horizontalScrollBar()->maximum());

      QTest::keyClicks(outliner.filterEdit(), QString::fromLatin1(filter));
      const QModelIndex match = outliner.viewIndexOfJoint(skeleton.findJoint(firstMatch));
      ASSERT_TRUE(match.isValid());
      const QRect shown = tree.visualRect(match);  // the row's name, right of its indentation
      ASSERT_FALSE(shown.isEmpty()) << "its ancestors are expanded";
      EXPECT_TRUE(tree.viewport()->rect().contains(shown.topLeft())) << "the name starts inside the view";
      EXPECT_TRUE(tree.viewport()->rect().contains(shown.bottomLeft()));
      EXPECT_EQ(tree.indexAt(shown.center()), match);
      EXPECT_TRUE(window.document()->selectedJoints().empty()) << "revealing selects nothing";
    }
  }
}

TEST_F(NavigationTest, TheDopeSheetWheelZoomKeepsTheFrameUnderTheMouse) {
  TimelineWidget& timeline = *window.timelineDock()->timeline();
  expectWheelZoomKeepsTheTimeUnderTheMouse(timeline.dopeSheet(), timeline.axis(), Qt::NoModifier);
  expectWheelZoomKeepsTheTimeUnderTheMouse(timeline.dopeSheet(), timeline.axis(), Qt::ControlModifier);
}

// The hips' curves span values whose tick labels change width as the values zoom or pan,
// which moves the plot's left edge: the time under the mouse must stay under it all the same.
TEST_F(NavigationTest, TheCurveEditorWheelZoomKeepsTheTimeUnderTheMouse) {
  window.document()->setSelectedJoints({window.document()->scene().skeleton.findJoint("Hips")});
  CurveView& curves = *window.curveEditorDock()->curveView();
  curves.frameAll();
  expectWheelZoomKeepsTheTimeUnderTheMouse(curves.plotWidget(), curves.axis(), Qt::NoModifier);
  curves.frameAll();
  expectWheelZoomKeepsTheTimeUnderTheMouse(curves.plotWidget(), curves.axis(), Qt::ControlModifier);

  // A middle drag down and sideways pans the values too, past other labels: the time grabbed
  // stays under the mouse.
  curves.frameAll();
  QWidget* plot = curves.plotWidget();
  const TimeAxis& axis = curves.axis();
  const QPointF from(axis.left() + 0.3 * (axis.right() - axis.left()), plot->height() * 0.3);
  const double grabbedTime = axis.pixelToTime(from.x());
  QTest::mousePress(plot, Qt::MiddleButton, Qt::NoModifier, from.toPoint());
  for (int step = 1; step <= 8; ++step) {
    const QPointF at = from + QPointF(12.0, 25.0) * step;
    QMouseEvent move(QEvent::MouseMove, at, plot->mapToGlobal(at), Qt::NoButton, Qt::MiddleButton, Qt::NoModifier);
    QApplication::sendEvent(plot, &move);
    EXPECT_NEAR(axis.timeToPixel(grabbedTime), at.x(), 1.0) << "step " << step;
  }
  QTest::mouseRelease(plot, Qt::MiddleButton, Qt::NoModifier, (from + QPointF(96.0, 200.0)).toPoint());
}

// View ▸ Follow: scrubbing the walk carries the camera along with the hips, across the floor
// only; without it the camera stays where it was.
TEST_F(NavigationTest, FollowCarriesTheCameraWithTheHipsWhileScrubbing) {
  struct ForgetToggles {
    ~ForgetToggles() { QSettings().remove(QStringLiteral("preferences")); }
  } forget;
  Viewport* viewport = window.viewport();
  Document* document = window.document();
  const int hips = document->scene().skeleton.findJoint("Hips");
  ASSERT_EQ(viewport->followedJoint(), hips);
  const Vec3 start = viewport->camera().target();
  document->setFrame(200);
  EXPECT_EQ(viewport->camera().target(), start) << "Follow is off at first";
  document->setFrame(0);
  QAction* follow = window.findChild<QAction*>(QStringLiteral("actionFollow"));
  ASSERT_NE(follow, nullptr);
  follow->trigger();
  ASSERT_TRUE(viewport->follows());
  const Vec3 hipsStart = document->modelPose()[static_cast<std::size_t>(hips)].translation();
  for (int frame : {50, 120, 200}) {
    document->setFrame(frame);
    Vec3 travel = document->modelPose()[static_cast<std::size_t>(hips)].translation() - hipsStart;
    travel.y() = 0.0f;
    EXPECT_TRUE(viewport->camera().target().isApprox(start + travel, 1e-4f)) << "frame " << frame;
  }
  EXPECT_GT((viewport->camera().target() - start).norm(), 0.5f) << "the capture walks";
  follow->trigger();
  const Vec3 left = viewport->camera().target();
  document->setFrame(0);
  EXPECT_EQ(viewport->camera().target(), left);
}

}  // namespace
}  // namespace articula::ui
