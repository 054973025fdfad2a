// Animation ▸ Filter… through the real window: the selected joints over the timeline's
// range, previewed while the dialog is open, one undo step on OK, the clip as it was on
// Cancel or a refused setting.
#include <gtest/gtest.h>

#include <QAction>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QLabel>
#include <QPushButton>
#include <QSpinBox>
#include <QUndoStack>

#include "core/bake/key_reduction.h"
#include "core/clipops/clip_filter.h"
#include "ui/commands/replace_clip_command.h"
#include "ui/dialogs/filter_dialog.h"
#include "ui/document/document.h"
#include "ui/main_window.h"
#include "ui/timeline/playback_controller.h"
#include "ui_test_support.h"

namespace articula::ui {
namespace {

// Opens Animation ▸ Filter… on the open window; the dialog it shows (window-modal, not blocking).
FilterDialog* openFilter(MainWindow& window) {
  auto* action = window.findChild<QAction*>(QStringLiteral("actionFilter"));
  EXPECT_NE(action, nullptr) << "Animation ▸ Filter…";
  if (action == nullptr) return nullptr;
  action->trigger();
  for (FilterDialog* dialog : window.findChildren<FilterDialog*>()) {
    if (dialog->isVisible()) return dialog;  // a closed one waits for its deferred delete
  }
  return nullptr;
}

TEST(FilterWindow, ButterworthOnTheSelectedArmOverTheRangeIsPreviewedThenOneUndoStep) {
  MainWindow window;
  ASSERT_TRUE(window.openFile(QString::fromStdString(test::dataPath("bvh/cmu-mb-2010/02_01.bvh"))));
  Document& document = *window.document();
  const Clip original = *document.currentClip();
  const int arm = document.scene().skeleton.findJoint("LeftForeArm");
  document.setSelectedJoints({arm});
  window.playback()->setRange(100, 200);
  document.setFrame(150);
  const Transform shownBefore = document.localPose()[std::size_t(arm)];
  const std::string before = test::serializeDocument(document);
  const int undoSteps = document.undoStack()->count();

  FilterDialog* dialog = openFilter(window);
  ASSERT_NE(dialog, nullptr);
  // The preview: the document shows the filtered arm while the dialog is open.
  ClipFilterJob job;
  job.skeleton = &document.scene().skeleton;
  job.clip = &original;
  job.joints = {arm};
  job.firstFrame = 100;
  job.lastFrame = 200;
  auto expected = job.run();
  ASSERT_TRUE(expected.ok());
  EXPECT_EQ(channelKeyCount(*document.currentClip()), channelKeyCount(expected->clip));
  EXPECT_NE(document.localPose()[std::size_t(arm)].rotation.coeffs(), shownBefore.rotation.coeffs());
  EXPECT_TRUE(dialog->status()->text().contains(QStringLiteral("1 joints")));

  // Another cutoff replaces the preview; the preview is not on the undo stack.
  dialog->cutoffHz()->setValue(3.0);
  EXPECT_EQ(document.undoStack()->count(), undoSteps);
  dialog->buttons()->button(QDialogButtonBox::Ok)->click();
  EXPECT_EQ(document.undoStack()->count(), undoSteps + 1) << "one undo step";
  EXPECT_EQ(document.undoStack()->undoText(), QStringLiteral("Filter (butterworth:3:2)"));
  // Every other joint, and the arm outside the range, as it was.
  for (const JointTrack& track : original.tracks) {
    const JointTrack* now = document.currentClip()->findTrack(track.joint);
    ASSERT_NE(now, nullptr);
    for (std::size_t k = 0; k < track.rotation.size(); ++k) {
      if (k >= 100 && k <= 200 && track.joint == arm) continue;
      ASSERT_LT((now->rotation.keys()[k].value.coeffs() - track.rotation.keys()[k].value.coeffs()).norm(), 3e-7f)
          << "joint " << track.joint << " key " << k;
    }
  }
  document.undoStack()->undo();
  EXPECT_EQ(test::serializeDocument(document), before);
}

// An animator who undid an edit, looked at a filter and cancelled can still redo the edit.
TEST(FilterWindow, APreviewKeepsTheRedoHistory) {
  MainWindow window;
  ASSERT_TRUE(window.openFile(QString::fromStdString(test::dataPath("bvh/cmu-mb-2010/02_01.bvh"))));
  Document& document = *window.document();
  const std::string opened = test::serializeDocument(document);
  Clip renamed = *document.currentClip();
  renamed.name = "walk, cleaned";
  document.undoStack()->push(new ReplaceClipCommand(&document, document.currentClipIndex(), renamed, QStringLiteral("Rename Clip")));
  const std::string keyed = test::serializeDocument(document);
  ASSERT_NE(keyed, opened);
  document.undoStack()->undo();

  FilterDialog* dialog = openFilter(window);
  ASSERT_NE(dialog, nullptr);
  EXPECT_NE(test::serializeDocument(document), opened) << "previewed";
  EXPECT_TRUE(document.undoStack()->canRedo());
  dialog->reject();
  EXPECT_EQ(test::serializeDocument(document), opened);
  ASSERT_TRUE(document.undoStack()->canRedo());
  document.undoStack()->redo();
  EXPECT_EQ(test::serializeDocument(document), keyed);
}

TEST(FilterWindow, CancelAndRefusedSettingsLeaveTheClipAsItWas) {
  MainWindow window;
  ASSERT_TRUE(window.openFile(QString::fromStdString(test::dataPath("bvh/cmu-mb-2010/02_01.bvh"))));
  Document& document = *window.document();
  const std::string before = test::serializeDocument(document);
  const int undoSteps = document.undoStack()->count();

  FilterDialog* dialog = openFilter(window);
  ASSERT_NE(dialog, nullptr);
  EXPECT_NE(test::serializeDocument(document), before) << "previewed";
  dialog->cutoffHz()->setValue(60.0);  // half of 120 fps
  EXPECT_EQ(test::serializeDocument(document), before) << "a refused cutoff shows the clip as it is";
  EXPECT_TRUE(dialog->status()->text().contains(QStringLiteral("half the frame rate")));
  EXPECT_FALSE(dialog->buttons()->button(QDialogButtonBox::Ok)->isEnabled());
  dialog->cutoffHz()->setValue(6.0);
  dialog->order()->setValue(8);
  window.playback()->setRange(10, 20);
  dialog->reject();
  EXPECT_EQ(test::serializeDocument(document), before);
  EXPECT_EQ(document.undoStack()->count(), undoSteps) << "nothing left to redo either";

  // A range shorter than the filter needs: refused in the dialog, the clip untouched.
  dialog = openFilter(window);
  ASSERT_NE(dialog, nullptr);
  EXPECT_TRUE(dialog->status()->text().contains(QStringLiteral("frames 10–20")))
      << dialog->status()->text().toStdString();
  EXPECT_NE(test::serializeDocument(document), before);
  dialog->order()->setValue(4);
  EXPECT_TRUE(dialog->status()->text().contains(QStringLiteral("needs at least 16 frames, the range has 11")))
      << dialog->status()->text().toStdString();
  EXPECT_EQ(test::serializeDocument(document), before);
  dialog->reject();
  EXPECT_EQ(test::serializeDocument(document), before);
}

}  // namespace
}  // namespace articula::ui
