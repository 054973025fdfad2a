// The editor shows what the CLI reads (issue 38): a chain 40,000 nodes deep overflowed the
// outliner's tree view (QTreeViewPrivate::layout recurses per level), and a clip starting at
// -1e38 s or ending at 1e9 s kept the ruler's tick loop running forever.
#include <gtest/gtest.h>

#include <QApplication>
#include <QLabel>
#include <QSortFilterProxyModel>
#include <QTreeView>
#include <QWheelEvent>

#include <limits>

#include "core/samples/mannequin.h"
#include "ui/docks/outliner_dock.h"
#include "ui/document/document.h"
#include "ui/models/joint_tree_model.h"
#include "ui/timeline/playback_controller.h"
#include "ui/timeline/time_ruler.h"
#include "ui/timeline/timeline_widget.h"

namespace articula::ui {
namespace {

constexpr int kChainLength = 40000;

// The mannequin with a chain of `length` nodes hanging from its root.
Scene mannequinWithChain(int length) {
  Scene scene = makeMannequin();
  int parent = 0;
  for (int i = 0; i < length; ++i) {
    parent = scene.skeleton.addJoint("chain" + std::to_string(i), parent, Transform(), NodeKind::Transform);
  }
  return scene;
}

TEST(HostileScene, TheOutlinerListsADeepChainFlatPastItsDepthAndSaysSo) {
  Document document;
  OutlinerDock outliner(&document);
  outliner.resize(300, 600);
  outliner.show();
  EXPECT_TRUE(outliner.depthNote()->isHidden()) << "the mannequin is shallow";
  const int firstChainNode = makeMannequin().skeleton.jointCount();
  document.replaceScene(mannequinWithChain(kChainLength), QString(), QStringLiteral("Deep"));
  QApplication::processEvents();  // the view lays out every expanded level

  // The root is level 1: chain nodes 0..97 are levels 2..99, node 98 onwards sit at level 100,
  // side by side under node 97.
  const JointTreeModel& model = *outliner.model();
  EXPECT_EQ(model.flattenedCount(), kChainLength - (JointTreeModel::kMaxShownDepth - 1));
  const QModelIndex deepest = model.indexOfJoint(firstChainNode + kChainLength - 1);
  EXPECT_EQ(model.jointOfIndex(model.parent(deepest)), firstChainNode + 97);
  EXPECT_EQ(deepest.row(), kChainLength - 1 - 98);
  EXPECT_NE(model.data(deepest, Qt::ToolTipRole).toString().indexOf(QStringLiteral("child of chain39998")), -1);
  EXPECT_FALSE(outliner.depthNote()->isHidden());
  const QString note = outliner.depthNote()->text().remove(QLatin1Char(','));  // the locale's digit groups
  EXPECT_TRUE(note.startsWith(QStringLiteral("39901 nodes deeper than 100 levels"))) << note.toStdString();

  // Selecting the deepest node scrolls the view to it; filtering keeps its ancestors.
  document.setSelectedJoints({firstChainNode + kChainLength - 1});
  QApplication::processEvents();
  EXPECT_TRUE(
      outliner.treeView()->selectionModel()->isSelected(outliner.viewIndexOfJoint(firstChainNode + kChainLength - 1)));
  outliner.filterModel()->setFilterFixedString(QStringLiteral("chain39999"));
  QApplication::processEvents();
  EXPECT_TRUE(outliner.viewIndexOfJoint(firstChainNode + kChainLength - 1).isValid());
}

class HostileTimeRange : public testing::Test {
 protected:
  // The mannequin's walk with its range stretched to [startTime, endTime], shown in the timeline.
  void showRange(double startTime, double endTime) {
    Scene scene = makeMannequin();
    scene.clips[0].startTime = startTime;
    scene.clips[0].endTime = endTime;
    document.replaceScene(std::move(scene), QString(), QStringLiteral("Stretched"));
    timeline.resize(1000, 320);
    timeline.show();
    QApplication::processEvents();
  }

  Document document;
  PlaybackController playback{&document};
  TimelineWidget timeline{&document, &playback};
};

// Before the fix neither grab returned: the loop ran over 2^31 frames and its counter wrapped.
TEST_F(HostileTimeRange, AClipEndingAtABillionSecondsPaints) {
  showRange(0.0, 1e9);
  EXPECT_EQ(document.frameCount(), std::numeric_limits<int>::max());
  EXPECT_FALSE(timeline.ruler()->grab().isNull());
  // Zoomed in to single frames (0.85^1000 of the range), far along the clip.
  for (int wheel = 0; wheel < 10; ++wheel) {
    QWheelEvent zoomIn(QPointF(700, 10), QPointF(700, 10), QPoint(), QPoint(0, 120 * 100), Qt::NoButton, Qt::NoModifier,
                       Qt::NoScrollPhase, false);
    QApplication::sendEvent(timeline.ruler(), &zoomIn);
  }
  EXPECT_TRUE(timeline.ruler()->isZoomed());
  EXPECT_GE(timeline.ruler()->axis().pixelsPerFrame(), 4.0) << "every frame ticked";
  EXPECT_FALSE(timeline.ruler()->grab().isNull());
}

TEST_F(HostileTimeRange, AClipStartingAtMinusOneE38SecondsPaints) {
  showRange(-1e38, 2.0);
  EXPECT_FALSE(timeline.ruler()->grab().isNull());
  EXPECT_FALSE(timeline.grab().isNull());
}

}  // namespace
}  // namespace articula::ui
