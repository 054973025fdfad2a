// The dope sheet and the curve editor on an animation layer (issue 40): with a layer active
// they show and edit that layer's keys alone, each edit one undo step; the base (a capture's
// dense keys) and the other layers stay bit for bit; a locked layer refuses in one line.
#include <gtest/gtest.h>

#include <QAction>
#include <QApplication>
#include <QListWidget>
#include <QMouseEvent>
#include <QStatusBar>
#include <QTest>
#include <QUndoStack>

#include <algorithm>
#include <cstring>
#include <set>
#include <string>
#include <vector>

#include "core/anim/layer_stack.h"
#include "ui/commands/layer_commands.h"
#include "ui/commands/set_joint_transform_command.h"
#include "ui/curves/curve_view.h"
#include "ui/docks/curve_editor_dock.h"
#include "ui/docks/layers_dock.h"
#include "ui/docks/timeline_dock.h"
#include "ui/document/document.h"
#include "ui/main_window.h"
#include "ui/timeline/dope_sheet.h"
#include "ui/timeline/timeline_widget.h"
#include "ui_test_support.h"

namespace articula::ui {
namespace {

template <class T>
void appendBytes(std::string& bytes, const T& value) {
  bytes.append(reinterpret_cast<const char*>(&value), sizeof(value));
}

void appendCurve(std::string& bytes, const Curve& curve) {
  for (const CurveKey& key : curve.keys()) {
    for (double v : {key.time, key.value, key.left.x(), key.left.y(), key.right.x(), key.right.y()})
      appendBytes(bytes, v);
    appendBytes(bytes, key.interpolation);
  }
  bytes += '|';
}

// Every key of `tracks` as bytes: equal strings are bit-identical keys.
std::string trackBytes(const std::vector<JointTrack>& tracks) {
  std::string bytes;
  for (const JointTrack& track : tracks) {
    appendBytes(bytes, track.joint);
    for (const Vec3Track* vec : {&track.translation, &track.scale}) {
      appendCurve(bytes, vec->x);
      appendCurve(bytes, vec->y);
      appendCurve(bytes, vec->z);
    }
    for (const RotationKey& key : track.rotation.keys()) {
      appendBytes(bytes, key.time);
      bytes.append(reinterpret_cast<const char*>(key.value.coeffs().data()), 4 * sizeof(float));
    }
  }
  return bytes;
}

std::string baseBytes(const Clip& clip) {
  std::string bytes = trackBytes(clip.tracks);
  for (const auto& [name, curve] : clip.curves) {
    bytes += name;
    appendCurve(bytes, curve);
  }
  return bytes;
}

// The layered local pose of `joint` (base and playing layers) at every frame of `clip`.
std::vector<Quat> layeredRotations(const Clip& clip, const Skeleton& skeleton, int joint) {
  LayeredClipSampler sampler(&clip);
  std::vector<Quat> rotations;
  for (int frame = 0; frame < clip.frameCount(); ++frame) {
    Pose pose(skeleton.restPose().begin(), skeleton.restPose().end());
    sampler.sample(clip.timeOf(frame), pose);
    rotations.push_back(pose[static_cast<std::size_t>(joint)].rotation);
  }
  return rotations;
}

bool bitEqual(const Quat& a, const Quat& b) { return std::memcmp(a.coeffs().data(), b.coeffs().data(), 16) == 0; }

// Frames whose layered rotation differs (not bit-identical) between `a` and `b`.
std::vector<int> changedFrames(const std::vector<Quat>& a, const std::vector<Quat>& b) {
  std::vector<int> frames;
  for (std::size_t f = 0; f < std::min(a.size(), b.size()); ++f) {
    if (!bitEqual(a[f], b[f])) frames.push_back(static_cast<int>(f));
  }
  return frames;
}

class LayerKeyViewsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(window.openFile(QString::fromStdString(test::dataPath("bvh/cmu-mb-2010/02_01.bvh"))));
    // Shown for the docks' geometry, the event loop never run: the offscreen platform cannot
    // draw the viewport's OpenGL.
    window.resize(1600, 1000);
    window.show();
    arm = document().scene().skeleton.findJoint("LeftArm");
    ASSERT_GE(arm, 0);
    base = baseBytes(*document().currentClip());
    window.layersDock()->action(QStringLiteral("addAdditiveLayer"))->trigger();
    ASSERT_EQ(document().activeLayer(), 0);
    document().setSelectedJoints({arm});
    keyRaisedArm(kFirstFrame);
    keyRaisedArm(kSecondFrame);
    ASSERT_EQ(layerTrack().rotation.size(), 2u);
    // A second layer on top with its own arm key: the edits below leave it as it is.
    window.layersDock()->action(QStringLiteral("addAdditiveLayer"))->trigger();
    keyRaisedArm(kTopLayerFrame);
    topLayer = trackBytes(clip().layers[1].tracks);
    ASSERT_EQ(clip().layers[1].findTrack(arm)->rotation.size(), 1u);
    document().setActiveLayer(0);
  }

  Document& document() { return *window.document(); }
  const Clip& clip() { return *document().currentClip(); }
  const JointTrack& layerTrack() { return *clip().layers[0].findTrack(arm); }
  double timeOf(int frame) { return clip().timeOf(frame); }
  DopeSheet& sheet() { return *window.timelineDock()->timeline()->dopeSheet(); }
  CurveView& curves() { return *window.curveEditorDock()->curveView(); }

  // Raises the arm 20° at `frame` and keys it (Key Pose: into the active layer).
  void keyRaisedArm(int frame) {
    document().setFrame(frame);
    Transform raised = document().localPose()[static_cast<std::size_t>(arm)];
    raised.rotation = (raised.rotation * Quat(Eigen::AngleAxisf(0.35f, Vec3::UnitZ()))).normalized();
    document().undoStack()->push(
        new SetJointTransformCommand(&document(), arm, raised, SetJointTransformCommand::Channel::Rotate));
    window.findChild<QAction*>(QStringLiteral("actionKeyPose"))->trigger();
  }

  static void drag(QWidget* widget, QPointF from, QPointF to) {
    QTest::mousePress(widget, Qt::LeftButton, Qt::NoModifier, from.toPoint());
    for (int step = 1; step <= 5; ++step) {
      const QPointF at = from + (to - from) * (step / 5.0);
      QMouseEvent move(QEvent::MouseMove, at, widget->mapToGlobal(at), Qt::NoButton, Qt::LeftButton, Qt::NoModifier);
      QApplication::sendEvent(widget, &move);
    }
    QTest::mouseRelease(widget, Qt::LeftButton, Qt::NoModifier, to.toPoint());
  }

  // Keys of the dope sheet's rows (a key shows in its row and the rows above that sum it).
  std::size_t shownKeys() {
    const std::vector<KeyRef> keys = sheet().keysInside(QRectF(0, 0, sheet().width(), sheet().height()));
    return std::set<KeyRef>(keys.begin(), keys.end()).size();
  }

  int rotationRow() {
    const auto& rows = sheet().rows();
    const auto found =
        std::find_if(rows.begin(), rows.end(), [](const auto& row) { return row.label == QLatin1String("Rotation"); });
    return found == rows.end() ? -1 : static_cast<int>(found - rows.begin());
  }

  // A move of the arm's second layer key by `frames`, made by `move`: the base stays bit for
  // bit, the layered motion changes only between the first key and the moved one, the layer
  // holds its keys at the new time, and undo restores the document exactly.
  void expectMoveOnTheLayerOnly(int frames, const std::function<void()>& move) {
    const std::string before = test::serializeDocument(document());
    const std::string layerBefore = trackBytes(clip().layers[0].tracks);
    const std::vector<Quat> playedBefore = layeredRotations(clip(), document().scene().skeleton, arm);
    const int steps = document().undoStack()->count();
    move();
    EXPECT_EQ(document().undoStack()->count(), steps + 1) << "one move, one undo step";
    EXPECT_EQ(baseBytes(clip()), base) << "the capture's keys are bit-identical";
    EXPECT_EQ(trackBytes(clip().layers[1].tracks), topLayer) << "and the other layer's";
    ASSERT_EQ(layerTrack().rotation.size(), 2u);
    EXPECT_DOUBLE_EQ(layerTrack().rotation.keys()[1].time, timeOf(kSecondFrame + frames));
    const std::vector<int> changed =
        changedFrames(playedBefore, layeredRotations(clip(), document().scene().skeleton, arm));
    ASSERT_FALSE(changed.empty());
    EXPECT_GT(changed.front(), kFirstFrame) << "frames up to the key before stay as they were";
    EXPECT_LT(changed.back(), std::max(kSecondFrame, kSecondFrame + frames)) << "and from the moved key on";
    document().undoStack()->undo();
    EXPECT_EQ(trackBytes(clip().layers[0].tracks), layerBefore);
    EXPECT_EQ(test::serializeDocument(document()), before);
    EXPECT_EQ(baseBytes(clip()), base);
    EXPECT_EQ(trackBytes(clip().layers[1].tracks), topLayer);
  }

  static constexpr int kFirstFrame = 60;
  static constexpr int kSecondFrame = 120;
  static constexpr int kTopLayerFrame = 90;
  MainWindow window;
  int arm = -1;
  std::string base;
  std::string topLayer;  // the keys of the layer above the edited one
};

TEST_F(LayerKeyViewsTest, TheDopeSheetMovesDeletesAndPastesTheActiveLayersKeysOnly) {
  EXPECT_EQ(window.timelineDock()->windowTitle(), QStringLiteral("Timeline \u00b7 Layer 1"));
  ASSERT_FALSE(sheet().rows().empty());
  EXPECT_EQ(sheet().rows().front().label, QStringLiteral("Layer 1")) << "the summary row names the layer";
  const int row = rotationRow();
  ASSERT_GE(row, 0);
  // The layer's two keys, not the capture's 120 a second.
  EXPECT_EQ(shownKeys(), 2u);

  expectMoveOnTheLayerOnly(10, [&] {
    const QPointF key = sheet().keyPosition(row, timeOf(kSecondFrame));
    QTest::mouseClick(&sheet(), Qt::LeftButton, Qt::NoModifier, key.toPoint());
    ASSERT_EQ(sheet().selectedKeys().size(), 1u);
    drag(&sheet(), key, sheet().keyPosition(row, timeOf(kSecondFrame + 10)));
  });

  // Copy the second key, paste it at frame 200, delete the first: each one step on the layer.
  QTest::mouseClick(&sheet(), Qt::LeftButton, Qt::NoModifier, sheet().keyPosition(row, timeOf(kSecondFrame)).toPoint());
  sheet().findChild<QAction*>(QStringLiteral("actionCopyKeys"))->trigger();
  document().setFrame(200);
  sheet().findChild<QAction*>(QStringLiteral("actionPasteKeys"))->trigger();
  ASSERT_EQ(layerTrack().rotation.size(), 3u);
  EXPECT_TRUE(bitEqual(layerTrack().rotation.keys()[2].value, layerTrack().rotation.keys()[1].value));
  QTest::mouseClick(&sheet(), Qt::LeftButton, Qt::NoModifier, sheet().keyPosition(row, timeOf(kFirstFrame)).toPoint());
  sheet().findChild<QAction*>(QStringLiteral("actionDeleteKeys"))->trigger();
  EXPECT_EQ(layerTrack().rotation.size(), 2u);
  EXPECT_EQ(baseBytes(clip()), base);
  EXPECT_EQ(trackBytes(clip().layers[1].tracks), topLayer);
  EXPECT_EQ(document().undoStack()->undoText(), QStringLiteral("Delete Keys"));
  document().undoStack()->undo();
  document().undoStack()->undo();
  EXPECT_EQ(layerTrack().rotation.size(), 2u);

  // The base row of the Layers dock: the dope sheet shows the capture's keys again.
  document().setActiveLayer(-1);
  EXPECT_EQ(sheet().rows().front().label, QStringLiteral("Summary"));
  EXPECT_EQ(window.timelineDock()->windowTitle(), QStringLiteral("Timeline \u00b7 Base"));
  EXPECT_GT(shownKeys(), 100u);
}

TEST_F(LayerKeyViewsTest, TheCurveEditorRetimesTheActiveLayersKeysOnly) {
  EXPECT_EQ(window.curveEditorDock()->windowTitle(), QStringLiteral("Curve Editor \u00b7 Layer 1"));
  curves().frameAll();
  const KeyChannel rotation{KeyChannel::Kind::Rotation, arm, 0, {}};
  // Only the layer's curves: the arm's rotation, three Euler angles.
  EXPECT_EQ(curves().entries().size(), 3u);
  expectMoveOnTheLayerOnly(-8, [&] {
    const std::optional<QPointF> key = curves().keyPixel({rotation, timeOf(kSecondFrame)}, 0);
    ASSERT_TRUE(key.has_value());
    const double perFrame = curves().toPixel(timeOf(1), 0.0).x() - curves().toPixel(timeOf(0), 0.0).x();
    // From the whole pixel the press lands on: a drag up or down would turn the key.
    const QPointF from = key->toPoint();
    drag(curves().plotWidget(), from, from + QPointF(-8.0 * perFrame, 0.0));
  });

  // The segment into the second key made constant (Ctrl+1): one step on the layer alone.
  const std::string before = test::serializeDocument(document());
  curves().setSelectedKeys({{rotation, timeOf(kFirstFrame)}});
  curves().findChild<QAction*>(QStringLiteral("actionInterpolationConstant"))->trigger();
  EXPECT_EQ(layerTrack().rotation.keys()[0].interpolation, RotationInterpolation::Step);
  EXPECT_EQ(baseBytes(clip()), base);
  EXPECT_EQ(trackBytes(clip().layers[1].tracks), topLayer);
  document().undoStack()->undo();
  EXPECT_EQ(test::serializeDocument(document()), before);
}

TEST_F(LayerKeyViewsTest, ARotationKeyDraggedUpTurnsThatLayerKeyAlone) {
  curves().frameAll();
  const KeyChannel rotation{KeyChannel::Kind::Rotation, arm, 0, {}};
  const KeyRef second{rotation, timeOf(kSecondFrame)};
  const std::optional<QPointF> key = curves().keyPixel(second, 2);
  ASSERT_TRUE(key.has_value());
  const std::string before = test::serializeDocument(document());
  const RotationKey firstBefore = layerTrack().rotation.keys()[0];
  const RotationKey secondBefore = layerTrack().rotation.keys()[1];
  const double zBefore = *curves().plottedKeyValue(second, 2);
  const int steps = document().undoStack()->count();
  const QPointF from = key->toPoint();
  drag(curves().plotWidget(), from, from + QPointF(0.0, -30.0));
  EXPECT_EQ(document().undoStack()->count(), steps + 1);
  EXPECT_GT(*curves().plottedKeyValue(second, 2), zBefore + 1.0) << "the grabbed angle follows the mouse up";
  EXPECT_FALSE(bitEqual(layerTrack().rotation.keys()[1].value, secondBefore.value));
  EXPECT_TRUE(bitEqual(layerTrack().rotation.keys()[0].value, firstBefore.value)) << "the layer's other key";
  EXPECT_EQ(baseBytes(clip()), base) << "the capture's keys are bit-identical";
  EXPECT_EQ(trackBytes(clip().layers[1].tracks), topLayer) << "and the other layer's";
  document().undoStack()->undo();
  EXPECT_EQ(test::serializeDocument(document()), before);
}

TEST_F(LayerKeyViewsTest, ALockedLayerRefusesEveryEditInOneLine) {
  ASSERT_FALSE(setLayerFlag(document(), 0, LayerFlag::Lock, true).has_value());
  EXPECT_EQ(window.curveEditorDock()->windowTitle(), QStringLiteral("Curve Editor \u00b7 Layer 1 (locked)"));
  const std::string before = test::serializeDocument(document());
  const int steps = document().undoStack()->count();
  const int row = rotationRow();
  ASSERT_GE(row, 0);
  const QPointF key = sheet().keyPosition(row, timeOf(kSecondFrame));
  QTest::mouseClick(&sheet(), Qt::LeftButton, Qt::NoModifier, key.toPoint());
  ASSERT_EQ(sheet().selectedKeys().size(), 1u) << "a locked layer's keys can still be selected and copied";
  drag(&sheet(), key, sheet().keyPosition(row, timeOf(kSecondFrame + 10)));
  const QString refusal = QStringLiteral("Layer 'Layer 1' is locked: unlock it in the Layers panel to edit its keys.");
  EXPECT_EQ(window.statusBar()->currentMessage(), refusal);
  window.statusBar()->clearMessage();
  sheet().findChild<QAction*>(QStringLiteral("actionDeleteKeys"))->trigger();
  EXPECT_EQ(window.statusBar()->currentMessage(), refusal);
  EXPECT_EQ(sheet().selectedKeys().size(), 1u) << "the refused key stays where it was, selected";
  EXPECT_EQ(document().undoStack()->count(), steps);
  EXPECT_EQ(test::serializeDocument(document()), before);
}

}  // namespace
}  // namespace articula::ui
