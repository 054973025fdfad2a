// The pose tools through the real window (offscreen): copy and paste a pose across frames
// and clips, mirror and flip it across the mannequin's symmetry plane, select the mirror
// joints; each edit one undo step, all of them in the Pose menu and the viewport's menu.
#include <gtest/gtest.h>

#include <QAction>
#include <QMenu>
#include <QUndoStack>

#include <string>
#include <vector>

#include "core/rig/mirror_pose.h"
#include "core/samples/mannequin.h"
#include "ui/commands/clip_list_command.h"
#include "ui/document/document.h"
#include "ui/main_window.h"
#include "ui/widgets/pose_actions.h"
#include "ui_test_support.h"

namespace articula::ui {
namespace {

class PoseToolsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    window.openScene(makeMannequin(), QStringLiteral("Mannequin"));
    document = window.document();
    height = document->scene().characterHeight();
    auto built = buildPoseMirror(document->scene().skeleton);
    ASSERT_TRUE(built) << built.error();
    mirror = std::move(built).value();
    document->setFrame(7);  // mid-stride: left and right differ
  }

  int joint(const char* name) const {
    const int index = document->scene().skeleton.findJoint(name);
    EXPECT_GE(index, 0) << name;
    return index;
  }

  QAction* action(const char* name) const {
    auto* found = window.findChild<QAction*>(QLatin1String(name));
    EXPECT_NE(found, nullptr) << name;
    return found;
  }

  Vec3 modelPosition(int index) const { return document->modelPose()[static_cast<std::size_t>(index)].translation(); }
  Vec3 reflected(const Vec3& pointModel) const { return mirror.reflectionModel * pointModel; }

  // Triggers `name` and checks it pushed exactly one command.
  void triggerOneStep(const char* name) {
    const int commands = document->undoStack()->count();
    action(name)->trigger();
    EXPECT_EQ(document->undoStack()->count(), commands + 1) << name;
  }

  MainWindow window;
  Document* document = nullptr;
  float height = 0.0f;
  PoseMirror mirror;
};

TEST_F(PoseToolsTest, CopiedPosePastesAtAnotherFrameAndInAnotherClip) {
  const int leftArm = joint("LeftArm");
  document->setSelectedJoints({leftArm});
  action("actionCopyPose")->trigger();
  const Transform copied = document->localPose()[static_cast<std::size_t>(leftArm)];
  ASSERT_EQ(window.poseActions()->copiedPose().size(), 1u);

  document->setFrame(18);
  ASSERT_FALSE(document->localPose()[static_cast<std::size_t>(leftArm)].rotation.isApprox(copied.rotation, 1e-3f))
      << "frame 18 must pose the arm differently for the paste to show";
  const std::string before = test::serializeDocument(*document);
  triggerOneStep("actionPastePose");
  EXPECT_TRUE(document->localPose()[static_cast<std::size_t>(leftArm)].rotation.isApprox(copied.rotation, 1e-6f));
  EXPECT_TRUE(document->hasPoseOverride(leftArm)) << "a pasted pose is keyed with S, like any pose by hand";
  document->undoStack()->undo();
  EXPECT_EQ(test::serializeDocument(*document), before);

  // The copy outlives the clip change.
  document->undoStack()->push(ClipListCommand::duplicate(document, document->currentClipIndex()));
  ASSERT_EQ(document->currentClipIndex(), 1);
  triggerOneStep("actionPastePose");
  EXPECT_TRUE(document->localPose()[static_cast<std::size_t>(leftArm)].rotation.isApprox(copied.rotation, 1e-6f));
}

TEST_F(PoseToolsTest, FlipSwapsTheSidesAcrossTheSymmetryPlaneAndTwiceGivesThePoseBack) {
  const int leftHand = joint("LeftHand"), rightHand = joint("RightHand");
  const int leftFoot = joint("LeftFoot"), rightFoot = joint("RightFoot");
  const Vec3 leftHandBefore = modelPosition(leftHand), rightHandBefore = modelPosition(rightHand);
  const Vec3 rightFootBefore = modelPosition(rightFoot);
  ASSERT_GT((reflected(leftHandBefore) - rightHandBefore).norm(), 0.01f * height) << "the pose must be asymmetric";
  const std::string before = test::serializeDocument(*document);
  triggerOneStep("actionFlipPose");
  EXPECT_LE((modelPosition(leftHand) - reflected(rightHandBefore)).norm(), 1e-4f * height);
  EXPECT_LE((modelPosition(rightHand) - reflected(leftHandBefore)).norm(), 1e-4f * height);
  EXPECT_LE((modelPosition(leftFoot) - reflected(rightFootBefore)).norm(), 1e-4f * height);
  action("actionFlipPose")->trigger();
  EXPECT_LE((modelPosition(leftHand) - leftHandBefore).norm(), 1e-4f * height);
  EXPECT_LE((modelPosition(rightHand) - rightHandBefore).norm(), 1e-4f * height);
  document->undoStack()->undo();
  document->undoStack()->undo();
  EXPECT_EQ(test::serializeDocument(*document), before);
}

TEST_F(PoseToolsTest, MirrorCopiesTheSelectedSideOntoTheOther) {
  const int leftArm = joint("LeftArm"), leftForeArm = joint("LeftForeArm"), leftHand = joint("LeftHand");
  const int rightHand = joint("RightHand"), rightForeArm = joint("RightForeArm");
  document->setSelectedJoints({leftArm, leftForeArm, leftHand});
  const Vec3 leftHandBefore = modelPosition(leftHand), leftElbowBefore = modelPosition(leftForeArm);
  triggerOneStep("actionMirrorPose");
  EXPECT_LE((modelPosition(rightHand) - reflected(leftHandBefore)).norm(), 1e-4f * height);
  EXPECT_LE((modelPosition(rightForeArm) - reflected(leftElbowBefore)).norm(), 1e-4f * height);
  EXPECT_LE((modelPosition(leftHand) - leftHandBefore).norm(), 1e-6f * height) << "the source side stays";

  action("actionSelectMirrorJoints")->trigger();
  EXPECT_EQ(document->selectedJoints(), (std::vector<int>{joint("RightArm"), rightForeArm, rightHand}));
}

TEST_F(PoseToolsTest, PoseToolsAreInThePoseMenuAndTheViewportMenu) {
  const auto* poseMenu = window.findChild<QMenu*>(QStringLiteral("menuPose"));
  ASSERT_NE(poseMenu, nullptr);
  ASSERT_NE(window.viewportMenu(), nullptr);
  for (const char* name :
       {"actionCopyPose", "actionPastePose", "actionMirrorPose", "actionFlipPose", "actionSelectMirrorJoints"}) {
    EXPECT_TRUE(poseMenu->actions().contains(action(name))) << name;
    EXPECT_TRUE(window.viewportMenu()->actions().contains(action(name))) << name;
  }
  for (const char* name : {"actionKeyPose", "actionSnapFkToIk", "actionSnapIkToFk"})
    EXPECT_TRUE(window.viewportMenu()->actions().contains(action(name))) << name;
  const auto* rigMenu = window.findChild<QMenu*>(QStringLiteral("menuRig"));
  ASSERT_NE(rigMenu, nullptr);
  EXPECT_TRUE(rigMenu->actions().contains(action("actionSnapFkToIk")));
  EXPECT_TRUE(rigMenu->actions().contains(action("actionSnapIkToFk")));
}

}  // namespace
}  // namespace articula::ui
