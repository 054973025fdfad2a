// The main window as an animator sees it, drawn under Xvfb: the dope sheet shows the
// selected joint's keys and the curve editor draws both stride curves in their colours.
#include <gtest/gtest.h>

#include <QApplication>
#include <QDir>
#include <QTest>

#include "core/project/project_file.h"
#include "core/samples/mannequin.h"
#include "ui/curves/curve_view.h"
#include "ui/docks/curve_editor_dock.h"
#include "ui/docks/timeline_dock.h"
#include "ui/document/document.h"
#include "ui/main_window.h"
#include "ui/timeline/dope_sheet.h"
#include "ui/timeline/timeline_widget.h"
#include "ui/viewport/viewport.h"
#include "ui_test_support.h"

namespace articula::ui {
namespace {

// Pixels of `image` inside `region` within `tolerance` (per channel) of `colour`.
int pixelsNear(const QImage& image, const QRect& region, const QColor& colour, int tolerance) {
  int count = 0;
  const QRect clipped = region.intersected(image.rect());
  for (int y = clipped.top(); y <= clipped.bottom(); ++y) {
    for (int x = clipped.left(); x <= clipped.right(); ++x) {
      const QColor pixel = image.pixelColor(x, y);
      if (std::abs(pixel.red() - colour.red()) <= tolerance && std::abs(pixel.green() - colour.green()) <= tolerance &&
          std::abs(pixel.blue() - colour.blue()) <= tolerance)
        ++count;
    }
  }
  return count;
}

QRect rectIn(const QWidget& window, const QWidget& widget) {
  return {widget.mapTo(&window, QPoint(0, 0)), widget.size()};
}

TEST(RenderCurves, TimelineShowsKeysAndTheCurveEditorBothStrideCurves) {
  MainWindow window;
  window.openScene(makeMannequin(), QStringLiteral("Mannequin"));
  window.resize(1280, 800);
  window.show();
  std::string error;
  ASSERT_TRUE(test::waitForRenderedFrame(*window.viewport(), &error)) << error;
  CurveView* curves = window.curveEditorDock()->curveView();
  QApplication::processEvents();
  const QImage strides = window.grab().toImage();
  ASSERT_FALSE(strides.isNull());
  const QRect curveRect = rectIn(window, *curves);
  ASSERT_GT(curveRect.width(), 300);
  ASSERT_GT(curveRect.height(), 150);
  const DopeSheet* sheet = window.timelineDock()->timeline()->dopeSheet();
  const QColor diamond(170, 175, 185);

  // Without a selection only the stride curves are plotted, filling the value axis: each
  // one 1.6 px wide, up and down across the plot (590 and 620 pixels measured under
  // Xvfb at this size; a missing curve leaves only its legend line, under 40).
  for (const char* name : {"contact.left_foot", "contact.right_foot"}) {
    const CurveView::Entry* entry = curves->findEntry(QLatin1String(name));
    ASSERT_NE(entry, nullptr) << name;
    const int pixels = pixelsNear(strides, curveRect, entry->colour, 30);
    EXPECT_GT(pixels, 400) << name;
  }
  const int strideDiamonds = pixelsNear(strides, rectIn(window, *sheet), diamond, 8);

  // With the hips selected the dope sheet gains their translation and rotation rows.
  const int hips = window.document()->scene().skeleton.findJoint("Hips");
  window.document()->setSelectedJoints({hips});
  QApplication::processEvents();
  const QImage withHips = window.grab().toImage();
  const int hipDiamonds = pixelsNear(withHips, rectIn(window, *sheet), diamond, 8);
  // 737 then 1797 pixels measured.
  EXPECT_GT(strideDiamonds, 100);
  EXPECT_GT(hipDiamonds, strideDiamonds + 100);
  const CurveView::Entry* bob = curves->findEntry(QStringLiteral("Hips.rotation.y (°)"));
  ASSERT_NE(bob, nullptr);
  EXPECT_GT(pixelsNear(withHips, curveRect, bob->colour, 30), 200);
}

// Issue 6's picture: a CMU walk baked with contact detection from the window; the baked
// clip's stride curves in the curve editor and their keys in the dope sheet (nothing
// selected, so the 0..1 curves fill the plot). The image is kept as articula_baked_walk.png
// in the temporary folder (README's docs/images/baked_walk.png).
TEST(RenderCurves, ABakedCmuWalkShowsItsKeysAndBothStrideCurves) {
  MainWindow window;
  ASSERT_TRUE(window.openFile(QString::fromStdString(test::dataPath("bvh/cmu-mb-2010/02_01.bvh"))));
  window.resize(1280, 800);
  window.show();
  std::string error;
  ASSERT_TRUE(test::waitForRenderedFrame(*window.viewport(), &error)) << error;
  ProjectBakeSettings settings;
  settings.detectContacts = true;
  ASSERT_TRUE(window.bake(settings));
  const Clip* baked = window.document()->currentClip();
  ASSERT_NE(baked, nullptr);
  EXPECT_NE(baked->name.find("baked"), std::string::npos) << baked->name;
  ASSERT_TRUE(baked->curves.contains("contact.left_foot"));
  ASSERT_TRUE(baked->curves.contains("contact.right_foot"));
  window.document()->setFrame(120);
  window.viewport()->frameAll();  // the walker has left the start's framing by frame 120
  QApplication::processEvents();
  const QImage image = window.grab().toImage();
  ASSERT_FALSE(image.isNull());
  image.save(QDir::temp().filePath(QStringLiteral("articula_baked_walk.png")));

  CurveView* curves = window.curveEditorDock()->curveView();
  const QRect curveRect = rectIn(window, *curves);
  for (const char* name : {"contact.left_foot", "contact.right_foot"}) {
    const CurveView::Entry* entry = curves->findEntry(QLatin1String(name));
    ASSERT_NE(entry, nullptr) << name;
    EXPECT_GT(pixelsNear(image, curveRect, entry->colour, 30), 400) << name;
  }
  const DopeSheet* sheet = window.timelineDock()->timeline()->dopeSheet();
  EXPECT_GT(pixelsNear(image, rectIn(window, *sheet), QColor(170, 175, 185), 8), 200) << "the stride keys' diamonds";
}

TEST(CurveEditorInWindow, ItsKeysWinOverTheWindowShortcutsWhileItHasFocus) {
  // F is also the viewport's Frame Selected in the View menu: with the curve editor
  // focused, F frames the selected keys there (an ambiguous shortcut would do neither).
  MainWindow window;
  window.openScene(makeMannequin(), QStringLiteral("Mannequin"));
  window.show();
  std::string error;
  ASSERT_TRUE(test::waitForRenderedFrame(*window.viewport(), &error)) << error;
  CurveView* view = window.curveEditorDock()->curveView();
  const KeyChannel stride{KeyChannel::Kind::Curve, -1, 0, "contact.left_foot"};
  const Curve& curve = window.document()->currentClip()->curves.at("contact.left_foot");
  view->setSelectedKeys({{stride, curve.keys()[1].time}, {stride, curve.keys()[2].time}});
  const auto before = view->timeRange();
  view->setFocus();
  QTest::keyClick(view, Qt::Key_F);
  const auto framed = view->timeRange();
  EXPECT_LT(framed.second - framed.first, 0.5 * (before.second - before.first));
  EXPECT_LE(framed.first, curve.keys()[1].time);
  EXPECT_GE(framed.second, curve.keys()[2].time);
}

}  // namespace
}  // namespace articula::ui
