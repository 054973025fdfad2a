// Animation ▸ Make Cyclic… through the real window (issue 41): the blend span in seconds or
// frames, the duplicate end frame kept or dropped, the seam before → after, previewed while
// the dialog is open, one undo step on OK on the current clip only, the clip as it was on
// Cancel, and odd input refused in one line with OK disabled.
#include <gtest/gtest.h>

#include <QAction>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QLabel>
#include <QPushButton>
#include <QUndoStack>

#include <functional>
#include <vector>

#include "core/clipops/loop.h"
#include "core/io/import.h"
#include "ui/dialogs/make_cyclic_dialog.h"
#include "ui/document/document.h"
#include "ui/main_window.h"
#include "ui/timeline/clip_seam_text.h"
#include "ui_test_support.h"

namespace articula::ui {
namespace {

bool okEnabled(const MakeCyclicDialog& dialog) { return dialog.buttons()->button(QDialogButtonBox::Ok)->isEnabled(); }

SeamScore seamOf(const Document& document) {
  const auto frame = travelFrameOf(document.scene().skeleton, *document.currentClip());
  EXPECT_TRUE(frame.has_value());
  const auto seam = seamScore(document.scene().skeleton, *document.currentClip(), *frame);
  EXPECT_TRUE(seam.ok()) << seam.error();
  return seam.ok() ? *seam : SeamScore{};
}

bool sameCurve(const Curve& a, const Curve& b) {
  if (a.keys().size() != b.keys().size()) return false;
  for (std::size_t k = 0; k < a.keys().size(); ++k) {
    const CurveKey& x = a.keys()[k];
    const CurveKey& y = b.keys()[k];
    if (x.time != y.time || x.value != y.value || x.interpolation != y.interpolation || x.leftType != y.leftType ||
        x.rightType != y.rightType || x.left != y.left || x.right != y.right)
      return false;
  }
  return true;
}

bool sameVec3Track(const Vec3Track& a, const Vec3Track& b) {
  return sameCurve(a.x, b.x) && sameCurve(a.y, b.y) && sameCurve(a.z, b.z);
}

bool sameRotations(const RotationTrack& a, const RotationTrack& b) {
  if (a.size() != b.size()) return false;
  for (std::size_t k = 0; k < a.size(); ++k) {
    const RotationKey& x = a.keys()[k];
    const RotationKey& y = b.keys()[k];
    if (x.time != y.time || x.value.coeffs() != y.value.coeffs() || x.interpolation != y.interpolation ||
        x.inControl.coeffs() != y.inControl.coeffs() || x.outControl.coeffs() != y.outControl.coeffs())
      return false;
  }
  return true;
}

// Every key of every track bit for bit, and the clip's range and rate.
bool sameClip(const Clip& a, const Clip& b) {
  if (a.name != b.name || a.frameRate != b.frameRate || a.startTime != b.startTime || a.endTime != b.endTime ||
      a.tracks.size() != b.tracks.size())
    return false;
  for (std::size_t t = 0; t < a.tracks.size(); ++t) {
    const JointTrack& x = a.tracks[t];
    const JointTrack& y = b.tracks[t];
    if (x.joint != y.joint || !sameVec3Track(x.translation, y.translation) || !sameRotations(x.rotation, y.rotation) ||
        !sameVec3Track(x.scale, y.scale))
      return false;
  }
  return true;
}

// Make Cyclic… with its defaults (0.25 s, end frame kept) on clip `name` of `file`: the wrap
// is no larger than the clip's median frame-to-frame change, in position and in velocity;
// OK is one undo step "Make Cyclic" that no other clip feels, and its undo and redo are exact.
void expectSeamClosed(const std::string& file, const std::string& name) {
  SCOPED_TRACE(file + " " + name);
  MainWindow window;
  ASSERT_TRUE(window.openFile(QString::fromStdString(test::dataPath(file))));
  Document& document = *window.document();
  const int clip = test::clipIndexNamed(document, name);
  ASSERT_GE(clip, 0);
  document.setCurrentClip(clip);
  const std::vector<Clip> clipsBefore = document.scene().clips;
  const SeamScore seamBefore = seamOf(document);
  const int undoSteps = document.undoStack()->count();

  MakeCyclicDialog* dialog = test::dialogOpenedBy<MakeCyclicDialog>(window, "actionMakeCyclic");
  ASSERT_NE(dialog, nullptr);
  ASSERT_TRUE(okEnabled(*dialog)) << dialog->status()->text().toStdString();
  // The seam before → after as the clip list shows them, the viewport showing the loop.
  const Skeleton& skeleton = document.scene().skeleton;
  const QString seamShown = clipSeamText(skeleton, clipsBefore[static_cast<std::size_t>(clip)]) +
                            QStringLiteral(" → ") + clipSeamText(skeleton, *document.currentClip());
  EXPECT_TRUE(dialog->seam()->text().startsWith(seamShown)) << dialog->seam()->text().toStdString();
  dialog->buttons()->button(QDialogButtonBox::Ok)->click();

  EXPECT_EQ(document.undoStack()->count(), undoSteps + 1);
  EXPECT_EQ(document.undoStack()->undoText(), QStringLiteral("Make Cyclic"));
  const SeamScore seamAfter = seamOf(document);
  EXPECT_LE(seamAfter.poseMm, seamAfter.medianStepMm) << "before " << seamBefore.poseMm << " mm";
  EXPECT_LE(seamAfter.velocityMm, seamAfter.medianVelocityChangeMm) << "before " << seamBefore.velocityMm << " mm";
  for (std::size_t c = 0; c < clipsBefore.size(); ++c) {
    if (static_cast<int>(c) == clip) continue;
    EXPECT_TRUE(sameClip(document.scene().clips[c], clipsBefore[c])) << c;
  }
  const Clip looped = *document.currentClip();
  document.undoStack()->undo();
  EXPECT_TRUE(sameClip(*document.currentClip(), clipsBefore[static_cast<std::size_t>(clip)])) << "undo is exact";
  document.undoStack()->redo();
  EXPECT_TRUE(sameClip(*document.currentClip(), looped)) << "redo is exact";
}

TEST(MakeCyclicWindow, RobotWalkingSeamWithinTheMedianFrameChange) {
  expectSeamClosed("gltf/RobotExpressive/RobotExpressive.glb", "Walking");
}

// Death ends lying down 0.6 m on: its IK feet go on with the body's travel, so the next cycle
// starts where this one ends.
TEST(MakeCyclicWindow, RobotDeathSeamWithinTheMedianFrameChange) {
  expectSeamClosed("gltf/RobotExpressive/RobotExpressive.glb", "Death");
}

// CMU's calibration T-pose first frame is no part of the cycle.
TEST(MakeCyclicWindow, CmuWalkSeamWithinTheMedianFrameChange) {
  expectSeamClosed("bvh/cmu-mb-2010/02_01.bvh", "02_01");
}

// The span in frames is the same span: the same preview. The duplicate end frame dropped is
// one frame fewer, ending one step before the start (a wrap no larger than the median step).
TEST(MakeCyclicWindow, SpanInFramesAndTheEndFrameDropped) {
  MainWindow window;
  ASSERT_TRUE(window.openFile(QString::fromStdString(test::dataPath("gltf/RobotExpressive/RobotExpressive.glb"))));
  Document& document = *window.document();
  document.setCurrentClip(test::clipIndexNamed(document, "Walking"));
  const int framesBefore = document.currentClip()->frameCount();
  MakeCyclicDialog* dialog = test::dialogOpenedBy<MakeCyclicDialog>(window, "actionMakeCyclic");
  ASSERT_NE(dialog, nullptr);
  const Clip inSeconds = *document.currentClip();
  dialog->span()->setValue(10.0 / document.currentClip()->frameRate);
  const Clip tenFramesInSeconds = *document.currentClip();
  dialog->spanUnit()->setCurrentIndex(MakeCyclicDialog::Frames);
  EXPECT_EQ(dialog->span()->value(), 10.0);
  EXPECT_TRUE(sameClip(*document.currentClip(), tenFramesInSeconds)) << "the same span in frames";
  EXPECT_FALSE(sameClip(inSeconds, tenFramesInSeconds)) << "a longer span blends otherwise";

  dialog->endFrame()->setCurrentIndex(MakeCyclicDialog::Dropped);
  EXPECT_TRUE(okEnabled(*dialog)) << dialog->status()->text().toStdString();
  EXPECT_EQ(document.currentClip()->frameCount(), framesBefore - 1);
  const SeamScore dropped = seamOf(document);
  EXPECT_LE(dropped.poseMm, dropped.medianStepMm) << "the wrap is one ordinary step";
  dialog->buttons()->button(QDialogButtonBox::Ok)->click();
  EXPECT_EQ(document.currentClip()->frameCount(), framesBefore - 1);
}

TEST(MakeCyclicWindow, CancelRestoresTheClipBitForBit) {
  MainWindow window;
  ASSERT_TRUE(window.openFile(QString::fromStdString(test::dataPath("bvh/cmu-mb-2010/02_01.bvh"))));
  Document& document = *window.document();
  const Clip before = *document.currentClip();
  const int undoSteps = document.undoStack()->count();
  MakeCyclicDialog* dialog = test::dialogOpenedBy<MakeCyclicDialog>(window, "actionMakeCyclic");
  ASSERT_NE(dialog, nullptr);
  EXPECT_FALSE(sameClip(*document.currentClip(), before)) << "the viewport shows the loop";
  EXPECT_EQ(document.undoStack()->count(), undoSteps) << "the preview is not on the stack";
  dialog->span()->setValue(0.5);
  dialog->buttons()->button(QDialogButtonBox::Cancel)->click();
  EXPECT_EQ(document.undoStack()->count(), undoSteps);
  EXPECT_TRUE(sameClip(*document.currentClip(), before));
}

// Odd input: one line in the dialog, OK disabled, the clip as it was.
void expectRefused(MainWindow& window, const std::function<void(MakeCyclicDialog&)>& set, const QString& says) {
  Document& document = *window.document();
  const Clip before = *document.currentClip();
  MakeCyclicDialog* dialog = test::dialogOpenedBy<MakeCyclicDialog>(window, "actionMakeCyclic");
  ASSERT_NE(dialog, nullptr);
  set(*dialog);
  EXPECT_FALSE(okEnabled(*dialog));
  const QString status = dialog->status()->text();
  EXPECT_TRUE(status.contains(says)) << status.toStdString();
  EXPECT_FALSE(status.contains(QLatin1Char('\n'))) << "one line";
  EXPECT_TRUE(sameClip(*document.currentClip(), before));
  dialog->buttons()->button(QDialogButtonBox::Cancel)->click();
  EXPECT_TRUE(sameClip(*document.currentClip(), before));
}

TEST(MakeCyclicWindow, OddInputIsRefusedInOneLineWithOkDisabled) {
  MainWindow window;
  ASSERT_TRUE(window.openFile(QString::fromStdString(test::dataPath("gltf/RobotExpressive/RobotExpressive.glb"))));
  window.document()->setCurrentClip(test::clipIndexNamed(*window.document(), "Walking"));
  expectRefused(
      window, [](MakeCyclicDialog& dialog) { dialog.span()->setValue(5.0); }, QStringLiteral("is longer than clip"));
  expectRefused(
      window,
      [](MakeCyclicDialog& dialog) {
        dialog.spanUnit()->setCurrentIndex(MakeCyclicDialog::Frames);
        dialog.span()->setValue(2.0);
      },
      QStringLiteral("under 3 frames"));

  // A new clip has no joint keys: no motion to loop (it keyed every frame at rest and called
  // the result a seamless loop).
  test::addClipWithoutKeys(*window.document());
  expectRefused(
      window, [](MakeCyclicDialog&) {}, QStringLiteral("no joint keys"));

  // A clip of one frame has no seam to blend.
  Result<Scene> robot = importScene(test::dataPath("gltf/RobotExpressive/RobotExpressive.glb"));
  ASSERT_TRUE(robot.ok());
  robot->clips.front().endTime = robot->clips.front().startTime;
  window.document()->replaceScene(std::move(*robot), QString());
  expectRefused(
      window, [](MakeCyclicDialog&) {}, QStringLiteral("has 1 frame"));
}

}  // namespace
}  // namespace articula::ui
