// The curve editor through its widget: key and handle drags (one undo step each),
// interpolation and handle types, stride-curve snapping, adding and deleting keys, Euler
// curves without wraps, per-axis zoom.
#include <gtest/gtest.h>

#include <QAction>
#include <QApplication>
#include <QTest>
#include <QUndoStack>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>
#include <numbers>

#include "core/math/euler.h"
#include "core/samples/mannequin.h"
#include "ui/commands/replace_clip_command.h"
#include "ui/curves/curve_edits.h"
#include "ui/curves/curve_view.h"
#include "ui/document/document.h"
#include "ui_test_support.h"

namespace articula::ui {
namespace {

class CurveEditorTest : public ::testing::Test {
 protected:
  void SetUp() override {
    document.replaceScene(makeMannequin(), QString(), QStringLiteral("Mannequin"));
    hips = document.scene().skeleton.findJoint("Hips");
    ASSERT_GE(hips, 0);
    view.resize(900, 500);
    view.show();
    QApplication::processEvents();
    view.frameAll();
  }

  void select(int joint) {
    document.setSelectedJoints({joint});
    view.frameAll();
  }

  QWidget* plot() { return view.plotWidget(); }

  void drag(QPointF from, QPointF to, Qt::KeyboardModifiers modifiers = Qt::NoModifier) {
    QTest::mousePress(plot(), Qt::LeftButton, modifiers, from.toPoint());
    for (int step = 1; step <= 6; ++step) {
      const QPointF at = from + (to - from) * (step / 6.0);
      QMouseEvent move(QEvent::MouseMove, at, plot()->mapToGlobal(at), Qt::NoButton, Qt::LeftButton, modifiers);
      QApplication::sendEvent(plot(), &move);
    }
    QTest::mouseRelease(plot(), Qt::LeftButton, modifiers, to.toPoint());
  }

  void trigger(const char* action) {
    QAction* found = view.findChild<QAction*>(QLatin1String(action));
    ASSERT_NE(found, nullptr) << action;
    found->trigger();
  }

  const Curve& curve(const KeyChannel& channel) const { return *findCurve(*document.currentClip(), channel); }

  Document document;
  CurveView view{&document};
  int hips = -1;
  const KeyChannel strideLeft{KeyChannel::Kind::Curve, -1, 0, "contact.left_foot"};
  const KeyChannel strideRight{KeyChannel::Kind::Curve, -1, 0, "contact.right_foot"};
};

TEST_F(CurveEditorTest, ShowsBothStrideCurvesAndTheSelectedJointsChannels) {
  EXPECT_NE(view.findEntry(QStringLiteral("contact.left_foot")), nullptr);
  EXPECT_NE(view.findEntry(QStringLiteral("contact.right_foot")), nullptr);
  EXPECT_EQ(view.entries().size(), 2u);
  select(hips);
  EXPECT_NE(view.findEntry(QStringLiteral("Hips.translation.y")), nullptr);
  EXPECT_NE(view.findEntry(QStringLiteral("Hips.rotation.x (°)")), nullptr);
  EXPECT_EQ(view.entries().size(), 2u + 3u + 3u);
  // Every entry its own colour.
  for (std::size_t a = 0; a < view.entries().size(); ++a) {
    for (std::size_t b = a + 1; b < view.entries().size(); ++b)
      EXPECT_NE(view.entries()[a].colour, view.entries()[b].colour) << a << " " << b;
  }
}

TEST_F(CurveEditorTest, DraggingAKeyMovesItInTimeAndValueAsOneUndoStep) {
  select(hips);
  const std::string original = test::serializeDocument(document);
  const KeyChannel bob{KeyChannel::Kind::Translation, hips, 1, {}};
  const CurveKey key = curve(bob).keys()[2];
  const auto from = view.keyPixel({bob, key.time});
  ASSERT_TRUE(from.has_value());
  const double frame = 1.0 / document.currentClip()->frameRate;
  const QPointF to = *from + QPointF(view.axis().pixelsPerFrame() * 2.0, -30.0);
  const int stackBefore = document.undoStack()->count();
  drag(*from, to);
  EXPECT_EQ(document.undoStack()->count(), stackBefore + 1) << "one drag, one undo step";
  const std::vector<CurveKey>& keys = curve(bob).keys();
  const auto moved = std::find_if(
      keys.begin(), keys.end(), [&](const CurveKey& k) { return std::abs(k.time - (key.time + 2.0 * frame)) < 1e-9; });
  ASSERT_NE(moved, keys.end());
  // The key follows the mouse: 30 pixels up on the value axis.
  EXPECT_GT(moved->value, key.value);
  EXPECT_NEAR(view.keyPixel({bob, moved->time})->y(), to.y(), 1.0);
  ASSERT_EQ(view.selectedKeys().size(), 1u);
  EXPECT_NEAR(view.selectedKeys().front().time, moved->time, 1e-9);
  document.undoStack()->undo();
  EXPECT_EQ(test::serializeDocument(document), original);
  // Undo selects the key where it put it back, redo where the drag left it.
  EXPECT_EQ(view.selectedKeys(), (std::vector<KeyRef>{{bob, key.time}}));
  document.undoStack()->redo();
  ASSERT_EQ(view.selectedKeys().size(), 1u);
  EXPECT_NEAR(view.selectedKeys().front().time, key.time + 2.0 * frame, 1e-9);
}

TEST_F(CurveEditorTest, DraggingAHandleReshapesTheCurveAndOneUndoRestoresIt) {
  select(hips);
  const std::string original = test::serializeDocument(document);
  const KeyChannel bob{KeyChannel::Kind::Translation, hips, 1, {}};
  const CurveKey key = curve(bob).keys()[2];
  const CurveKey next = curve(bob).keys()[3];
  view.setSelectedKeys({{bob, key.time}});
  const auto handle = view.handlePixel({bob, key.time}, true);
  ASSERT_TRUE(handle.has_value());
  const double midTime = 0.5 * (key.time + next.time);
  const double before = curve(bob).evaluate(midTime);
  drag(*handle, *handle + QPointF(0.0, -60.0));
  const CurveKey& edited = curve(bob).keys()[2];
  EXPECT_GT(edited.right.y(), key.right.y()) << "the right handle went up";
  EXPECT_EQ(edited.rightType, HandleType::Aligned) << "a dragged automatic handle becomes aligned";
  // Aligned: the left handle turned to stay collinear through the key.
  const Vec2d toRight = (edited.right - Vec2d(edited.time, edited.value)).normalized();
  const Vec2d toLeft = (Vec2d(edited.time, edited.value) - edited.left).normalized();
  EXPECT_NEAR(toRight.x() * toLeft.y() - toRight.y() * toLeft.x(), 0.0, 1e-6);
  EXPECT_GT(curve(bob).evaluate(midTime), before);
  EXPECT_EQ(document.undoStack()->undoText(), QStringLiteral("Move Handle"));
  document.undoStack()->undo();
  EXPECT_EQ(test::serializeDocument(document), original);
}

// The time axis counts whole frames from the clip's start, as the ruler and dope sheet do;
// the View menu's choice shows seconds instead.
TEST_F(CurveEditorTest, TheTimeAxisCountsFramesAsTheRulerDoesOrSecondsOnRequest) {
  const Clip& clip = *document.currentClip();
  const double lastFrame = clip.frameCount() - 1;
  ASSERT_GT(lastFrame, 2.0 * (clip.endTime - clip.startTime)) << "frames and seconds must differ";
  auto highestLabel = [this](bool wholeNumbers) {
    double highest = -1.0;
    for (const QString& label : view.timeLabels()) {
      bool isInteger = false;
      label.toLongLong(&isInteger);
      if (wholeNumbers) {
        EXPECT_TRUE(isInteger) << label.toStdString();
      }
      highest = std::max(highest, label.toDouble());
    }
    return highest;
  };
  EXPECT_FALSE(view.timeInSeconds());
  ASSERT_GE(view.timeLabels().size(), 3u);
  EXPECT_NE(std::find(view.timeLabels().begin(), view.timeLabels().end(), QStringLiteral("0")),
            view.timeLabels().end());
  EXPECT_GE(highestLabel(true), 0.6 * lastFrame) << "labelled in frames up to the clip's end";
  view.timeInSecondsAction()->trigger();
  EXPECT_TRUE(view.timeInSeconds());
  EXPECT_LE(highestLabel(false), 1.1 * (clip.endTime - clip.startTime) + 0.1) << "labelled in seconds";
  const auto [t0, t1] = view.timeRange();
  view.timeInSecondsAction()->trigger();
  EXPECT_EQ(view.timeRange(), std::make_pair(t0, t1)) << "only the labels change";
}

// A joint with no keys shows the stride curves' 0..1 axis; keying it 25° (from elsewhere:
// the viewport's Key Pose) brings its rotation curves in, framed. While the same curves are
// edited, a zoom the user made stays.
TEST_F(CurveEditorTest, NewCurvesAreFramedAndTheUsersZoomStaysWhileTheSameCurvesAreEdited) {
  const Clip& walk = *document.currentClip();
  int unkeyed = -1;
  for (int joint = 0; joint < document.scene().skeleton.jointCount() && unkeyed < 0; ++joint) {
    if (keyedJointChannels(walk, joint).empty()) unkeyed = joint;
  }
  ASSERT_GE(unkeyed, 0) << "the mannequin has a joint its walk does not key";
  select(unkeyed);
  ASSERT_LT(view.valueRange().second, 2.0) << "the stride curves' axis";
  Clip keyed = walk;
  keyed.trackFor(unkeyed).rotation.insertKey(
      RotationKey{walk.startTime, Quat(Eigen::AngleAxisf(25.0f * std::numbers::pi_v<float> / 180.0f, Vec3::UnitX()))});
  document.undoStack()->push(new ReplaceClipCommand(&document, 0, keyed, QStringLiteral("Key Pose")));
  const QString angle =
      QString::fromStdString(document.scene().skeleton.name(unkeyed)) + QStringLiteral(".rotation.x (°)");
  ASSERT_NE(view.findEntry(angle), nullptr);
  EXPECT_GT(view.valueRange().second, 25.0) << "framed to the new curve";
  EXPECT_LT(view.valueRange().first, 0.0);

  // Zoomed in on the hips' height, its keys dragged and a key edit from elsewhere: the view
  // stays where the user put it.
  select(hips);
  const KeyChannel bob{KeyChannel::Kind::Translation, hips, 1, {}};
  const CurveKey key = curve(bob).keys()[2];
  const QPointF at = *view.keyPixel({bob, key.time});
  QWheelEvent wheel(at, plot()->mapToGlobal(at), QPoint(), QPoint(0, 360), Qt::NoButton, Qt::NoModifier,
                    Qt::NoScrollPhase, false);
  QApplication::sendEvent(plot(), &wheel);
  const auto zoomedValues = view.valueRange();
  const auto zoomedTimes = view.timeRange();
  drag(*view.keyPixel({bob, key.time}), *view.keyPixel({bob, key.time}) + QPointF(0.0, -20.0));
  EXPECT_EQ(view.valueRange(), zoomedValues);
  Clip edited = *document.currentClip();
  Curve& height = edited.trackFor(hips).translation.y;
  CurveKey raised = height.keys()[4];
  raised.value += 10.0;
  height.setKey(4, raised);
  document.undoStack()->push(new ReplaceClipCommand(&document, 0, edited, QStringLiteral("Edit")));
  EXPECT_EQ(view.valueRange(), zoomedValues) << "a zoomed-in view is the user's";
  EXPECT_EQ(view.timeRange(), zoomedTimes);
  // Framed again (A), the same edit undone and redone from elsewhere: framed to the values.
  view.frameAll();
  document.undoStack()->undo();
  view.frameAll();
  document.undoStack()->redo();
  EXPECT_GT(view.valueRange().second, raised.value) << "a view that showed every value keeps showing them";
}

// A step or linear segment ignores its handles: the editor neither draws them nor lets a
// drag grab them (a drag where one was changes no key), and the Bézier side keeps its own.
TEST_F(CurveEditorTest, StepAndLinearSegmentsHaveNoHandlesToDrawOrDrag) {
  select(hips);
  const KeyChannel bob{KeyChannel::Kind::Translation, hips, 1, {}};
  const CurveKey key = curve(bob).keys()[2];
  const CurveKey next = curve(bob).keys()[3];
  view.setSelectedKeys({{bob, key.time}, {bob, next.time}});
  const std::optional<QPointF> right = view.handlePixel({bob, key.time}, true);
  ASSERT_TRUE(right.has_value()) << "a Bézier key has its handles";
  ASSERT_GT(QLineF(*right, *view.keyPixel({bob, key.time})).length(), 10.0) << "a press there is on no key";
  for (const char* action : {"actionInterpolationConstant", "actionInterpolationLinear"}) {
    view.setSelectedKeys({{bob, key.time}});
    trigger(action);
    ASSERT_NE(curve(bob).keys()[2].interpolation, Interpolation::Bezier);
    EXPECT_FALSE(view.handlePixel({bob, key.time}, true).has_value()) << action;
    EXPECT_FALSE(view.handlePixel({bob, next.time}, false).has_value()) << action << ": the next key's side of it";
    EXPECT_TRUE(view.handlePixel({bob, key.time}, false).has_value()) << action << ": the Bézier segment before";
    view.setSelectedKeys({{bob, key.time}, {bob, next.time}});
    const int stackBefore = document.undoStack()->count();
    const std::vector<CurveKey> before = curve(bob).keys();
    drag(*right, *right + QPointF(0.0, -60.0));
    EXPECT_EQ(document.undoStack()->count(), stackBefore) << action << ": no handle was dragged";
    EXPECT_EQ(curve(bob).keys().size(), before.size());
    EXPECT_EQ(curve(bob).keys()[2].right, before[2].right) << action;
    EXPECT_FALSE(movedHandle(*document.currentClip(), {bob, key.time}, true, Vec2d(key.time + 0.1, 1.0)))
        << action << ": nor can an edit move it";
  }
}

// QA P11: Ctrl+1 on the last key of a Bézier curve hides its outer handle (it was drawn as
// before, the key being "constant" with nothing after it); the inner one shapes the Bézier
// segment before it until that key is made constant too.
TEST_F(CurveEditorTest, ConstantOnTheLastKeyHidesItsHandles) {
  select(hips);
  const KeyChannel bob{KeyChannel::Kind::Translation, hips, 1, {}};
  const std::vector<CurveKey>& keys = curve(bob).keys();
  ASSERT_GE(keys.size(), 3u);
  const double last = keys.back().time;
  const double beforeLast = keys[keys.size() - 2].time;
  view.setSelectedKeys({{bob, last}});
  ASSERT_TRUE(view.handlePixel({bob, last}, true).has_value()) << "a Bézier key shows both";
  ASSERT_TRUE(view.handlePixel({bob, last}, false).has_value());
  const auto* constant = view.findChild<QAction*>(QStringLiteral("actionInterpolationConstant"));
  ASSERT_NE(constant, nullptr);
  EXPECT_EQ(constant->shortcut(), QKeySequence(Qt::CTRL | Qt::Key_1));
  trigger("actionInterpolationConstant");
  ASSERT_EQ(curve(bob).keys().back().interpolation, Interpolation::Constant);
  EXPECT_FALSE(view.handlePixel({bob, last}, true).has_value());
  EXPECT_TRUE(view.handlePixel({bob, last}, false).has_value()) << "the Bézier segment before it";
  view.setSelectedKeys({{bob, beforeLast}, {bob, last}});
  trigger("actionInterpolationConstant");
  EXPECT_FALSE(view.handlePixel({bob, last}, false).has_value());
  EXPECT_FALSE(view.handlePixel({bob, beforeLast}, true).has_value());
}

TEST_F(CurveEditorTest, InterpolationAndHandleTypeChangeTheSampledValues) {
  const std::string original = test::serializeDocument(document);
  const Curve& stride = curve(strideLeft);
  // A segment from a planted key (1) to a lifted one (0).
  std::size_t planted = 0;
  while (planted + 1 < stride.size() &&
         !(stride.keys()[planted].value == 1.0 && stride.keys()[planted + 1].value == 0.0))
    ++planted;
  ASSERT_LT(planted + 1, stride.size());
  const double t0 = stride.keys()[planted].time;
  const double t1 = stride.keys()[planted + 1].time;
  const double quarter = t0 + 0.25 * (t1 - t0);
  const double bezier = stride.evaluate(quarter);
  view.setSelectedKeys({{strideLeft, t0}});
  trigger("actionInterpolationConstant");
  EXPECT_EQ(curve(strideLeft).evaluate(quarter), 1.0);
  trigger("actionInterpolationLinear");
  EXPECT_NEAR(curve(strideLeft).evaluate(quarter), 0.75, 1e-9);
  trigger("actionInterpolationBezier");
  EXPECT_NEAR(curve(strideLeft).evaluate(quarter), bezier, 1e-9);
  // Vector handles point at the neighbours: the Bézier segment leaves the key steeper than
  // the flat auto-clamped ease, so a quarter in it has dropped further.
  view.setSelectedKeys({{strideLeft, t0}, {strideLeft, t1}});
  trigger("actionHandleVector");
  EXPECT_LT(curve(strideLeft).evaluate(quarter), bezier - 1e-3);
  EXPECT_EQ(curve(strideLeft).keys()[planted].rightType, HandleType::Vector);
  for (int step = 0; step < 4; ++step) document.undoStack()->undo();
  EXPECT_EQ(test::serializeDocument(document), original);
}

TEST_F(CurveEditorTest, StrideKeysSnapToZeroAndOne) {
  const Curve& stride = curve(strideLeft);
  const auto lifted = std::find_if(stride.keys().begin() + 1, stride.keys().end(),
                                   [](const CurveKey& key) { return key.value == 0.0; });
  ASSERT_NE(lifted, stride.keys().end());
  const double time = lifted->time;
  const auto from = view.keyPixel({strideLeft, time});
  ASSERT_TRUE(from.has_value());
  const auto one = view.toPixel(time, 1.0);
  // Released 4 pixels short of 1: snapped onto 1.
  drag(*from, QPointF(from->x(), one.y() + 4.0));
  const auto snapped = std::find_if(curve(strideLeft).keys().begin(), curve(strideLeft).keys().end(),
                                    [&](const CurveKey& key) { return sameKeyTime(key.time, time); });
  ASSERT_NE(snapped, curve(strideLeft).keys().end());
  EXPECT_EQ(snapped->value, 1.0);
  // Halfway: not snapped.
  const auto half = view.toPixel(time, 0.5);
  drag(one, half);
  const auto middle = std::find_if(curve(strideLeft).keys().begin(), curve(strideLeft).keys().end(),
                                   [&](const CurveKey& key) { return sameKeyTime(key.time, time); });
  ASSERT_NE(middle, curve(strideLeft).keys().end());
  EXPECT_NEAR(middle->value, 0.5, 0.05);
  EXPECT_EQ(snappedStrideValue(0.03, 0.05), 0.0);
  EXPECT_EQ(snappedStrideValue(0.93, 0.05), 0.93);
}

// A lifted (value 0) stride key of the left foot with a key after it.
double liftedStrideKeyTime(const Curve& stride) {
  for (std::size_t i = 1; i + 1 < stride.size(); ++i) {
    if (stride.keys()[i].value == 0.0) return stride.keys()[i].time;
  }
  return -1.0;
}

TEST_F(CurveEditorTest, AClickOnASelectedKeyPicksTheKeyEvenWithItsHandleDrawnOverIt) {
  const double time = liftedStrideKeyTime(curve(strideLeft));
  ASSERT_GE(time, 0.0);
  const KeyRef key{strideLeft, time};
  view.setSelectedKeys({key});
  // Zoomed out in time until the handle ends a few pixels from its key, as on a long clip.
  const QPointF centre(plot()->width() / 2.0, plot()->height() / 2.0);
  for (int step = 0; step < 40 && QLineF(*view.handlePixel(key, true), *view.keyPixel(key)).length() > 4.0; ++step) {
    QWheelEvent out(centre, plot()->mapToGlobal(centre), QPoint(), QPoint(0, -120), Qt::NoButton, Qt::ControlModifier,
                    Qt::NoScrollPhase, false);
    QApplication::sendEvent(plot(), &out);
  }
  const QPointF keyAt = *view.keyPixel(key);
  ASSERT_LE(QLineF(*view.handlePixel(key, true), keyAt).length(), 4.0);
  const CurveKey before = *std::find_if(curve(strideLeft).keys().begin(), curve(strideLeft).keys().end(),
                                        [&](const CurveKey& k) { return sameKeyTime(k.time, time); });
  drag(keyAt, keyAt + QPointF(0.0, -40.0));
  EXPECT_EQ(document.undoStack()->undoText(), QStringLiteral("Move Keys"));
  const auto moved = std::find_if(curve(strideLeft).keys().begin(), curve(strideLeft).keys().end(),
                                  [&](const CurveKey& k) { return sameKeyTime(k.time, time); });
  ASSERT_NE(moved, curve(strideLeft).keys().end());
  EXPECT_GT(moved->value, before.value) << "the key itself went up";
}

TEST_F(CurveEditorTest, AHandleDragCannotPullAStrideCurveOutOfZeroToOne) {
  const double time = liftedStrideKeyTime(curve(strideLeft));
  ASSERT_GE(time, 0.0);
  const KeyRef key{strideLeft, time};
  view.setSelectedKeys({key});
  view.frameSelected();
  const std::string original = test::serializeDocument(document);
  auto sampledRange = [&] {
    const Curve& stride = curve(strideLeft);
    double low = 1.0, high = 0.0;
    for (double t = stride.keys().front().time; t <= stride.keys().back().time; t += 1.0 / 240.0) {
      low = std::min(low, stride.evaluate(t));
      high = std::max(high, stride.evaluate(t));
    }
    return std::pair{low, high};
  };
  const QPointF handle = *view.handlePixel(key, true);
  ASSERT_GT(QLineF(handle, *view.keyPixel(key)).length(), 20.0) << "zoomed in: the handle is clear of its key";
  drag(handle, handle + QPointF(0.0, 80.0));
  EXPECT_EQ(document.undoStack()->undoText(), QStringLiteral("Move Handle"));
  EXPECT_GE(sampledRange().first, -1e-9) << "pulled down from a lifted key, the curve stays at 0";
  // Pulled up, the aligned left handle would turn below 0: it is held at 0 instead.
  const QPointF handleNow = *view.handlePixel(key, true);
  drag(handleNow, handleNow + QPointF(0.0, -120.0));
  const auto edited = std::find_if(curve(strideLeft).keys().begin(), curve(strideLeft).keys().end(),
                                   [&](const CurveKey& k) { return sameKeyTime(k.time, time); });
  ASSERT_NE(edited, curve(strideLeft).keys().end());
  EXPECT_GT(edited->right.y(), 0.0) << "the dragged handle went up";
  EXPECT_GE(edited->left.y(), 0.0);
  EXPECT_GE(sampledRange().first, -1e-9);
  EXPECT_LE(sampledRange().second, 1.0 + 1e-9) << "rounding only";
  document.undoStack()->undo();
  document.undoStack()->undo();
  EXPECT_EQ(test::serializeDocument(document), original);
}

TEST_F(CurveEditorTest, OverlappingCurvesDifferInStyleAndALegendClickIsolatesOne) {
  select(hips);
  const CurveView::Entry* left = view.findEntry(QStringLiteral("contact.left_foot"));
  const CurveView::Entry* right = view.findEntry(QStringLiteral("contact.right_foot"));
  const CurveView::Entry* moveX = view.findEntry(QStringLiteral("Hips.translation.x"));
  const CurveView::Entry* turnX = view.findEntry(QStringLiteral("Hips.rotation.x (°)"));
  ASSERT_TRUE(left && right && moveX && turnX);
  EXPECT_NE(left->style, right->style) << "the two stride curves overlap at 0 and 1";
  EXPECT_NE(moveX->style, turnX->style) << "x of translation and rotation share a hue";

  const QString isolated = QStringLiteral("contact.right_foot");
  const QRectF row = view.legendRect(isolated);
  ASSERT_FALSE(row.isEmpty());
  QTest::mouseClick(plot(), Qt::LeftButton, Qt::NoModifier, row.center().toPoint());
  EXPECT_EQ(view.isolatedEntry(), isolated);
  for (const CurveView::Entry& entry : view.entries()) EXPECT_EQ(view.isEntryShown(entry), entry.name == isolated);
  // The hidden left-foot curve's keys cannot be picked.
  const double time = liftedStrideKeyTime(curve(strideLeft));
  const QPointF hiddenKey = view.toPixel(time, 0.0);
  const std::vector<KeyRef> picked = view.keysAt(hiddenKey);
  EXPECT_TRUE(std::none_of(picked.begin(), picked.end(), [&](const KeyRef& k) { return k.channel == strideLeft; }));
  QTest::mouseClick(plot(), Qt::LeftButton, Qt::NoModifier, view.legendRect(isolated).center().toPoint());
  EXPECT_TRUE(view.isolatedEntry().isEmpty());
  for (const CurveView::Entry& entry : view.entries()) EXPECT_TRUE(view.isEntryShown(entry));
}

TEST_F(CurveEditorTest, CtrlClickAddsAKeyAndDeleteRemovesIt) {
  const std::string original = test::serializeDocument(document);
  const std::size_t before = curve(strideRight).size() + curve(strideLeft).size();
  document.setFrame(0);
  // On the right-foot curve at frame 20, where the left-foot curve is far away.
  const double time = document.timeOfFrame(20);
  const double value = curve(strideRight).evaluate(time);
  ASSERT_GT(std::abs(value - curve(strideLeft).evaluate(time)), 0.3);
  const QPointF at = view.toPixel(time, value);
  QTest::mouseClick(plot(), Qt::LeftButton, Qt::ControlModifier, at.toPoint());
  EXPECT_EQ(curve(strideRight).size() + curve(strideLeft).size(), before + 1);
  const auto added = std::find_if(curve(strideRight).keys().begin(), curve(strideRight).keys().end(),
                                  [&](const CurveKey& key) { return std::abs(key.time - time) < 1e-9; });
  ASSERT_NE(added, curve(strideRight).keys().end());
  EXPECT_NEAR(added->value, value, 0.02);
  ASSERT_EQ(view.selectedKeys().size(), 1u);
  view.setFocus();
  QTest::keyClick(&view, Qt::Key_Delete);
  EXPECT_EQ(curve(strideRight).size() + curve(strideLeft).size(), before);
  document.undoStack()->undo();
  document.undoStack()->undo();
  EXPECT_EQ(test::serializeDocument(document), original);
}

TEST_F(CurveEditorTest, RotationPlotsAsEulerDegreesWithoutWraps) {
  const int leftArm = document.scene().skeleton.findJoint("LeftArm");
  select(leftArm);
  const CurveView::Entry* x = view.findEntry(QStringLiteral("LeftArm.rotation.x (°)"));
  ASSERT_NE(x, nullptr);
  const Clip& clip = *document.currentClip();
  const RotationTrack& rotation = clip.findTrack(leftArm)->rotation;
  const KeyRef key{{KeyChannel::Kind::Rotation, leftArm, 0, {}}, rotation.keys()[1].time};
  // The key sits on the plotted curve, at the angle its quaternion has.
  for (int axis = 0; axis < 3; ++axis) {
    const auto pixel = view.keyPixel(key, axis);
    ASSERT_TRUE(pixel.has_value());
  }
  const Vec3 euler = quatToEuler(rotation.keys()[1].value, RotationOrder::XYZ);
  const QPointF pixel = *view.keyPixel(key, 0);
  EXPECT_NEAR(pixel.y(), view.toPixel(key.time, euler.x() * 180.0 / 3.14159265358979).y(), 2.0);
}

TEST_F(CurveEditorTest, WheelZoomsBothAxesOrOneWithAModifier) {
  const auto time = view.timeRange();
  const auto value = view.valueRange();
  const QPointF centre(plot()->width() / 2.0, plot()->height() / 2.0);
  auto wheel = [&](Qt::KeyboardModifiers modifiers) {
    QWheelEvent event(centre, plot()->mapToGlobal(centre), QPoint(), QPoint(0, 120), Qt::NoButton, modifiers,
                      Qt::NoScrollPhase, false);
    QApplication::sendEvent(plot(), &event);
  };
  wheel(Qt::ControlModifier);
  EXPECT_LT(view.timeRange().second - view.timeRange().first, time.second - time.first);
  EXPECT_DOUBLE_EQ(view.valueRange().second - view.valueRange().first, value.second - value.first);
  const auto zoomedTime = view.timeRange();
  wheel(Qt::ShiftModifier);
  EXPECT_DOUBLE_EQ(view.timeRange().second - view.timeRange().first, zoomedTime.second - zoomedTime.first);
  EXPECT_LT(view.valueRange().second - view.valueRange().first, value.second - value.first);
  view.frameAll();
  EXPECT_NEAR(view.timeRange().first, time.first, 1e-9);
  EXPECT_NEAR(view.timeRange().second, time.second, 1e-9);
}

}  // namespace
}  // namespace articula::ui
