// Animation ▸ Root Motion… through the real window (issue 41): previewed while the dialog is
// open, one undo step on OK on the current clip only, the clip as it was on Cancel, and odd
// input refused in one line that changes nothing.
#include <gtest/gtest.h>

#include <QAction>
#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QUndoStack>

#include <algorithm>
#include <functional>
#include <vector>

#include "core/io/import.h"
#include "ui/dialogs/root_motion_dialog.h"
#include "ui/document/document.h"
#include "ui/main_window.h"
#include "ui_test_support.h"

namespace articula::ui {
namespace {

// Every joint's model-space position at every frame of the current clip, as the viewport
// shows them, but `root`'s (which takes the travel).
std::vector<std::vector<Vec3>> shownPositions(Document& document, int root) {
  std::vector<std::vector<Vec3>> frames;
  for (int f = 0; f < document.frameCount(); ++f) {
    document.setFrame(f);
    std::vector<Vec3>& positions = frames.emplace_back();
    for (std::size_t j = 0; j < document.modelPose().size(); ++j) {
      if (static_cast<int>(j) != root) positions.push_back(document.modelPose()[j].translation());
    }
  }
  document.setFrame(0);
  return frames;
}

float largestMove(const std::vector<std::vector<Vec3>>& a, const std::vector<std::vector<Vec3>>& b) {
  float largest = 0.0f;
  for (std::size_t f = 0; f < a.size(); ++f) {
    for (std::size_t j = 0; j < a[f].size(); ++j) largest = std::max(largest, (a[f][j] - b[f][j]).norm());
  }
  return largest;
}

// How far `joint` goes across the ground (model x and z: the robot is Y up), first frame to last.
Vec3 groundTravel(Document& document, int joint) {
  document.setFrame(0);
  const Vec3 first = document.modelPose()[static_cast<std::size_t>(joint)].translation();
  document.setFrame(document.frameCount() - 1);
  const Vec3 last = document.modelPose()[static_cast<std::size_t>(joint)].translation();
  document.setFrame(0);
  return {last.x() - first.x(), 0.0f, last.z() - first.z()};
}

bool okEnabled(const RootMotionDialog& dialog) { return dialog.buttons()->button(QDialogButtonBox::Ok)->isEnabled(); }

// The robot's Death falls forward (0.6 m at 1.75 m, info --json's travel): onto Bone (the parent of its hips, Body) the
// travel goes, the viewport shows it at once, no other joint moves in model space, and OK is one undo step that leaves
// the thirteen other clips alone.
TEST(RootMotionWindow, TravelOntoTheHipsParentIsPreviewedThenOneUndoStep) {
  MainWindow window;
  ASSERT_TRUE(window.openFile(QString::fromStdString(test::dataPath("gltf/RobotExpressive/RobotExpressive.glb"))));
  Document& document = *window.document();
  const int death = test::clipIndexNamed(document, "Death");
  ASSERT_GE(death, 0);
  document.setCurrentClip(death);
  const int root = document.scene().skeleton.findJoint("Bone");
  ASSERT_GE(root, 0);
  const Clip original = *document.currentClip();
  const std::vector<Clip> clipsBefore = document.scene().clips;
  const auto positionsBefore = shownPositions(document, root);
  const int hips = document.scene().skeleton.findJoint("Body");
  ASSERT_EQ(document.scene().skeleton.parent(hips), root);
  const Vec3 hipsTravelBefore = groundTravel(document, hips);
  const std::string before = test::serializeDocument(document);
  const int undoSteps = document.undoStack()->count();
  const float heightModel = document.scene().characterHeight();

  RootMotionDialog* dialog = test::dialogOpenedBy<RootMotionDialog>(window, "actionRootMotion");
  ASSERT_NE(dialog, nullptr);
  EXPECT_EQ(dialog->rootName()->text(), QStringLiteral("Bone")) << "the hips' parent is offered";
  EXPECT_TRUE(okEnabled(*dialog)) << dialog->status()->text().toStdString();
  // The preview: Bone carries the travel, keyed at every frame, and no other joint moved.
  const JointTrack* rootTrack = document.currentClip()->findTrack(root);
  ASSERT_NE(rootTrack, nullptr);
  EXPECT_EQ(static_cast<int>(rootTrack->translation.x.size()), original.frameCount());
  const Vec3 rootTravel = groundTravel(document, root);
  EXPECT_GT(rootTravel.norm(), 0.2f * heightModel) << "Death falls a fifth of the robot's height forward";
  EXPECT_LT((rootTravel - hipsTravelBefore).norm(), heightModel / 1750.0f) << "1 mm at 1.75 m";
  EXPECT_LT(largestMove(shownPositions(document, root), positionsBefore), 1e-5f * heightModel) << "0.01 mm at 1 m";
  EXPECT_EQ(document.undoStack()->count(), undoSteps) << "the preview is not on the stack";

  dialog->height()->setChecked(true);  // another setting replaces the preview
  EXPECT_LT(largestMove(shownPositions(document, root), positionsBefore), 1e-5f * heightModel);
  dialog->buttons()->button(QDialogButtonBox::Ok)->click();
  EXPECT_EQ(document.undoStack()->count(), undoSteps + 1) << "one undo step";
  EXPECT_EQ(document.undoStack()->undoText(), QStringLiteral("Root Motion"));
  for (std::size_t c = 0; c < clipsBefore.size(); ++c) {
    if (static_cast<int>(c) == death) continue;
    const Clip& now = document.scene().clips[c];
    ASSERT_EQ(now.tracks.size(), clipsBefore[c].tracks.size()) << now.name;
    for (std::size_t t = 0; t < now.tracks.size(); ++t)
      EXPECT_EQ(now.tracks[t].translation.x.size(), clipsBefore[c].tracks[t].translation.x.size());
  }
  document.undoStack()->undo();
  EXPECT_EQ(test::serializeDocument(document), before);
}

// Folding Bone's motion back into the hips leaves Bone at rest with no keys, every other
// joint where it was.
TEST(RootMotionWindow, FoldPutsTheRootsMotionBackIntoTheHips) {
  MainWindow window;
  ASSERT_TRUE(window.openFile(QString::fromStdString(test::dataPath("gltf/RobotExpressive/RobotExpressive.glb"))));
  Document& document = *window.document();
  document.setCurrentClip(test::clipIndexNamed(document, "Death"));
  const int root = document.scene().skeleton.findJoint("Bone");
  RootMotionDialog* extract = test::dialogOpenedBy<RootMotionDialog>(window, "actionRootMotion");
  ASSERT_NE(extract, nullptr);
  extract->buttons()->button(QDialogButtonBox::Ok)->click();
  ASSERT_NE(document.currentClip()->findTrack(root), nullptr);
  const auto positionsBefore = shownPositions(document, root);

  RootMotionDialog* fold = test::dialogOpenedBy<RootMotionDialog>(window, "actionRootMotion");
  ASSERT_NE(fold, nullptr);
  fold->mode()->setCurrentIndex(1);
  EXPECT_FALSE(fold->yaw()->isEnabled()) << "folding takes every axis back";
  fold->buttons()->button(QDialogButtonBox::Ok)->click();
  EXPECT_EQ(document.undoStack()->undoText(), QStringLiteral("Fold Root Motion"));
  const JointTrack* rootTrack = document.currentClip()->findTrack(root);
  EXPECT_TRUE(rootTrack == nullptr || (rootTrack->translation.empty() && rootTrack->rotation.empty()));
  EXPECT_LT(largestMove(shownPositions(document, root), positionsBefore), 1e-5f * document.scene().characterHeight());
}

// Cancel puts the clip back as it was, with nothing on the undo stack.
TEST(RootMotionWindow, CancelRestoresTheDocument) {
  MainWindow window;
  ASSERT_TRUE(window.openFile(QString::fromStdString(test::dataPath("gltf/RobotExpressive/RobotExpressive.glb"))));
  Document& document = *window.document();
  document.setCurrentClip(test::clipIndexNamed(document, "Death"));
  const std::string before = test::serializeDocument(document);
  const int undoSteps = document.undoStack()->count();
  RootMotionDialog* dialog = test::dialogOpenedBy<RootMotionDialog>(window, "actionRootMotion");
  ASSERT_NE(dialog, nullptr);
  dialog->yaw()->setChecked(true);
  EXPECT_NE(test::serializeDocument(document), before) << "the preview shows";
  dialog->buttons()->button(QDialogButtonBox::Cancel)->click();
  EXPECT_EQ(document.undoStack()->count(), undoSteps);
  EXPECT_EQ(test::serializeDocument(document), before);
}

// Odd input: one line in the dialog, OK disabled, the document as it was.
void expectRefused(MainWindow& window, const std::function<void(RootMotionDialog&)>& set, const QString& says) {
  Document& document = *window.document();
  const std::string before = test::serializeDocument(document);
  RootMotionDialog* dialog = test::dialogOpenedBy<RootMotionDialog>(window, "actionRootMotion");
  ASSERT_NE(dialog, nullptr);
  set(*dialog);
  EXPECT_FALSE(okEnabled(*dialog));
  const QString status = dialog->status()->text();
  EXPECT_TRUE(status.contains(says)) << status.toStdString();
  EXPECT_FALSE(status.contains(QLatin1Char('\n'))) << "one line";
  EXPECT_EQ(test::serializeDocument(document), before);
  dialog->buttons()->button(QDialogButtonBox::Cancel)->click();
  EXPECT_EQ(test::serializeDocument(document), before);
}

TEST(RootMotionWindow, OddInputIsRefusedInOneLineAndChangesNothing) {
  MainWindow window;
  ASSERT_TRUE(window.openFile(QString::fromStdString(test::dataPath("gltf/RobotExpressive/RobotExpressive.glb"))));
  window.document()->setCurrentClip(test::clipIndexNamed(*window.document(), "Death"));
  expectRefused(
      window, [](RootMotionDialog& dialog) { dialog.rootName()->setText(QStringLiteral("Foot.L")); },
      QStringLiteral("'Foot.L' is taken"));
  expectRefused(
      window, [](RootMotionDialog& dialog) { dialog.rootName()->setText(QStringLiteral("root")); },
      QStringLiteral("the editor adds no joint"));
  expectRefused(
      window,
      [](RootMotionDialog& dialog) {
        for (QCheckBox* box : {dialog.across(), dialog.forward(), dialog.height(), dialog.yaw()})
          box->setChecked(false);
      },
      QStringLiteral("axis"));
  // Death has no keys on Bone: folding it would be an undo step that changes nothing.
  expectRefused(
      window, [](RootMotionDialog& dialog) { dialog.mode()->setCurrentIndex(1); }, QStringLiteral("no motion to fold"));
  // A new clip has no joint keys: no travel to move (the core would key the root at rest).
  test::addClipWithoutKeys(*window.document());
  expectRefused(
      window, [](RootMotionDialog&) {}, QStringLiteral("no joint keys"));

  // A clip of one frame has no travel.
  Result<Scene> robot = importScene(test::dataPath("gltf/RobotExpressive/RobotExpressive.glb"));
  ASSERT_TRUE(robot.ok());
  robot->clips.front().endTime = robot->clips.front().startTime;
  window.document()->replaceScene(std::move(*robot), QString());
  expectRefused(
      window, [](RootMotionDialog&) {}, QStringLiteral("has 1 frame"));

  // CMU's Hips are the skeleton's top joint: there is no root to move the travel onto.
  ASSERT_TRUE(window.openFile(QString::fromStdString(test::dataPath("bvh/cmu-mb-2010/02_01.bvh"))));
  expectRefused(
      window, [](RootMotionDialog&) {}, QStringLiteral("no parent joint"));

  // CesiumMan's hips hang under a plain node ("Armature"), not a bone: the dialog offers a new
  // root bone, which the editor cannot add yet.
  ASSERT_TRUE(window.openFile(QString::fromStdString(test::dataPath("gltf/CesiumMan/CesiumMan.glb"))));
  expectRefused(
      window, [](RootMotionDialog& dialog) { EXPECT_EQ(dialog.rootName()->text(), QStringLiteral("root")); },
      QStringLiteral("the editor adds no joint"));

  // A box is no humanoid.
  ASSERT_TRUE(window.openFile(QString::fromStdString(test::dataPath("gltf/BoxAnimated/BoxAnimated.glb"))));
  expectRefused(
      window, [](RootMotionDialog&) {}, QStringLiteral("humanoid"));
}

}  // namespace
}  // namespace articula::ui
