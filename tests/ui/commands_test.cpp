// Every undo command: do → state A, undo → the original, redo → A again, compared as the
// whole serialised document; drags merge into one step.
#include <gtest/gtest.h>

#include <QSignalSpy>
#include <QUndoStack>

#include <cmath>
#include <utility>

#include "core/samples/mannequin.h"
#include "ui/commands/key_pose_command.h"
#include "ui/commands/rename_joint_command.h"
#include "ui/commands/replace_clip_command.h"
#include "ui/commands/set_joint_transform_command.h"
#include "ui/document/document.h"
#include "ui_test_support.h"

namespace articula::ui {
namespace {

class CommandsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    document.replaceScene(makeMannequin(), QString(), QStringLiteral("Mannequin"));
    document.setFrame(4);
    leftArm = document.scene().skeleton.findJoint("LeftArm");
    ASSERT_GE(leftArm, 0);
  }

  std::string expectUndoable(QUndoCommand* command) { return test::expectUndoable(document, command); }

  Document document;
  int leftArm = -1;
};

TEST_F(CommandsTest, SetJointTransformPosesTheJointAndUndoes) {
  Transform local = document.localPose()[static_cast<std::size_t>(leftArm)];
  local.rotation = Quat(Eigen::AngleAxisf(0.7f, Vec3::UnitZ())) * local.rotation;
  QSignalSpy changed(&document, &Document::changed);
  expectUndoable(new SetJointTransformCommand(&document, leftArm, local, SetJointTransformCommand::Channel::Rotate));
  ASSERT_TRUE(document.hasPoseOverride(leftArm));
  EXPECT_TRUE(document.localPose()[static_cast<std::size_t>(leftArm)].rotation.isApprox(local.rotation));
  ASSERT_FALSE(changed.isEmpty());
  const auto event = changed.back().front().value<ChangeEvent>();
  EXPECT_EQ(event.type, ChangeEvent::Type::PoseEdited);
  EXPECT_EQ(event.joint, leftArm);
  EXPECT_EQ(document.undoStack()->undoText(), QStringLiteral("Rotate LeftArm"));
}

TEST_F(CommandsTest, PoseOverrideMovesTheChildJointsInModelSpace) {
  const int leftHand = document.scene().skeleton.findJoint("LeftHand");
  const Vec3 handBefore = document.modelPose()[static_cast<std::size_t>(leftHand)].translation();
  Transform local = document.localPose()[static_cast<std::size_t>(leftArm)];
  local.rotation = Quat(Eigen::AngleAxisf(1.0f, Vec3::UnitZ())) * local.rotation;
  document.undoStack()->push(
      new SetJointTransformCommand(&document, leftArm, local, SetJointTransformCommand::Channel::Rotate));
  const Vec3 handAfter = document.modelPose()[static_cast<std::size_t>(leftHand)].translation();
  EXPECT_GT((handAfter - handBefore).norm(), 0.1f);
}

TEST_F(CommandsTest, FiftyMouseMovesOfOneDragAreOneUndoStep) {
  const std::string original = test::serializeDocument(document);
  const Transform start = document.localPose()[static_cast<std::size_t>(leftArm)];
  bool mergeUndo = false;  // as a tool holds it: false at the start of every drag
  for (int move = 1; move <= 50; ++move) {
    Transform local = start;
    local.rotation = Quat(Eigen::AngleAxisf(0.02f * static_cast<float>(move), Vec3::UnitX())) * start.rotation;
    auto* command = new SetJointTransformCommand(&document, leftArm, local, SetJointTransformCommand::Channel::Rotate);
    command->setMergeable(std::exchange(mergeUndo, true));
    document.undoStack()->push(command);
  }
  EXPECT_EQ(document.undoStack()->count(), 1);
  const Quat expected = Quat(Eigen::AngleAxisf(1.0f, Vec3::UnitX())) * start.rotation;
  EXPECT_TRUE(document.localPose()[static_cast<std::size_t>(leftArm)].rotation.isApprox(expected, 1e-5f));
  document.undoStack()->undo();
  EXPECT_EQ(test::serializeDocument(document), original);
  document.undoStack()->redo();
  EXPECT_TRUE(document.localPose()[static_cast<std::size_t>(leftArm)].rotation.isApprox(expected, 1e-5f));

  // A second drag of the same joint starts a new step, as does a drag of another channel.
  auto* second = new SetJointTransformCommand(&document, leftArm, start, SetJointTransformCommand::Channel::Rotate);
  document.undoStack()->push(second);
  EXPECT_EQ(document.undoStack()->count(), 2);
}

TEST_F(CommandsTest, DragBackToTheStartLeavesNoUndoStep) {
  const std::string original = test::serializeDocument(document);
  const Transform start = document.localPose()[static_cast<std::size_t>(leftArm)];
  Transform moved = start;
  moved.translation += Vec3(0.1f, 0.0f, 0.0f);
  auto* first = new SetJointTransformCommand(&document, leftArm, moved, SetJointTransformCommand::Channel::Translate);
  document.undoStack()->push(first);
  auto* back = new SetJointTransformCommand(&document, leftArm, start, SetJointTransformCommand::Channel::Translate);
  back->setMergeable(true);
  document.undoStack()->push(back);
  EXPECT_EQ(document.undoStack()->count(), 0);
  EXPECT_EQ(test::serializeDocument(document), original);
}

TEST_F(CommandsTest, RenameJointRenamesAndUndoes) {
  QSignalSpy changed(&document, &Document::changed);
  expectUndoable(new RenameJointCommand(&document, leftArm, QStringLiteral("L_upperArm")));
  EXPECT_EQ(document.scene().skeleton.name(leftArm), "L_upperArm");
  bool sawRename = false;
  for (const auto& arguments : changed) {
    const auto event = arguments.front().value<ChangeEvent>();
    sawRename = sawRename || (event.type == ChangeEvent::Type::JointRenamed && event.joint == leftArm);
  }
  EXPECT_TRUE(sawRename);
}

TEST_F(CommandsTest, RenameJointRejectsEmptyAndDuplicateNames) {
  EXPECT_TRUE(RenameJointCommand::validate(document, leftArm, QString()).contains(QStringLiteral("empty")));
  EXPECT_TRUE(RenameJointCommand::validate(document, leftArm, QStringLiteral("Hips")).contains(QStringLiteral("Hips")));
  EXPECT_TRUE(
      RenameJointCommand::validate(document, leftArm, QStringLiteral(" Arm")).contains(QStringLiteral("space")));
  EXPECT_TRUE(RenameJointCommand::validate(document, 9999, QStringLiteral("X")).contains(QStringLiteral("9999")));
  EXPECT_TRUE(RenameJointCommand::validate(document, leftArm, QStringLiteral("LeftArm")).isEmpty());
  const std::string original = test::serializeDocument(document);
  document.undoStack()->push(new RenameJointCommand(&document, leftArm, QStringLiteral("Hips")));
  EXPECT_EQ(document.undoStack()->count(), 0);
  EXPECT_EQ(test::serializeDocument(document), original);
}

TEST_F(CommandsTest, ReplaceClipSwapsTheClipAndUndoes) {
  Clip edited = *document.currentClip();
  JointTrack& track = edited.trackFor(leftArm);
  track.rotation.setKeys({RotationKey{0.0, Quat(Eigen::AngleAxisf(0.5f, Vec3::UnitY()))}});
  QSignalSpy changed(&document, &Document::changed);
  expectUndoable(new ReplaceClipCommand(&document, 0, edited, QStringLiteral("Edit Keys")));
  EXPECT_TRUE(document.localPose()[static_cast<std::size_t>(leftArm)].rotation.isApprox(
      Quat(Eigen::AngleAxisf(0.5f, Vec3::UnitY()))));
  ASSERT_FALSE(changed.isEmpty());
  EXPECT_EQ(changed.back().front().value<ChangeEvent>().type, ChangeEvent::Type::ClipEdited);
}

TEST_F(CommandsTest, KeyPoseWritesTheOverrideIntoTheClipAtTheCurrentFrame) {
  Transform local = document.localPose()[static_cast<std::size_t>(leftArm)];
  local.rotation = Quat(Eigen::AngleAxisf(0.9f, Vec3::UnitZ())) * local.rotation;
  document.undoStack()->push(
      new SetJointTransformCommand(&document, leftArm, local, SetJointTransformCommand::Channel::Rotate));
  ASSERT_TRUE(KeyPoseCommand::canKeyPose(document));
  const std::size_t keysBefore = document.currentClip()->keyCount();
  expectUndoable(new KeyPoseCommand(&document));
  EXPECT_FALSE(document.hasPoseOverride(leftArm)) << "the clip now gives the pose";
  EXPECT_GE(document.currentClip()->keyCount(), keysBefore);
  EXPECT_TRUE(document.localPose()[static_cast<std::size_t>(leftArm)].rotation.isApprox(local.rotation, 1e-5f));

  // The key stays when the time moves away and back; an unkeyed override would not.
  const int frame = document.currentFrame();
  document.setFrame(frame + 3);
  document.setFrame(frame);
  EXPECT_TRUE(document.localPose()[static_cast<std::size_t>(leftArm)].rotation.isApprox(local.rotation, 1e-5f));
}

TEST_F(CommandsTest, UnkeyedPoseIsDroppedWhenTheTimeMoves) {
  Transform local = document.localPose()[static_cast<std::size_t>(leftArm)];
  const Quat animated = local.rotation;
  local.rotation = Quat(Eigen::AngleAxisf(0.9f, Vec3::UnitZ())) * local.rotation;
  document.undoStack()->push(
      new SetJointTransformCommand(&document, leftArm, local, SetJointTransformCommand::Channel::Rotate));
  const int frame = document.currentFrame();
  document.setFrame(frame + 1);
  document.setFrame(frame);
  EXPECT_FALSE(document.hasPoseOverride(leftArm));
  EXPECT_TRUE(document.localPose()[static_cast<std::size_t>(leftArm)].rotation.isApprox(animated, 1e-5f));
}

TEST(KeyedClip, KeysOnlyChannelsThatAreAnimatedOrMovedFromRest) {
  Skeleton skeleton;
  skeleton.addJoint("root", kNoParent, Transform::identity());
  Clip clip;
  clip.frameRate = 24.0;
  clip.endTime = 1.0;
  std::vector<Transform> pose(1);
  pose[0].translation = Vec3(0.0f, 2.0f, 0.0f);
  const int joints[] = {0};
  const Clip keyed = keyedClip(clip, 0.5, joints, pose, skeleton.restPose());
  const JointTrack* track = keyed.findTrack(0);
  ASSERT_NE(track, nullptr);
  EXPECT_TRUE(track->translation.x.empty());
  ASSERT_EQ(track->translation.y.size(), 1u);
  EXPECT_DOUBLE_EQ(track->translation.y.keys()[0].time, 0.5);
  EXPECT_DOUBLE_EQ(track->translation.y.keys()[0].value, 2.0);
  EXPECT_TRUE(track->rotation.empty());
  EXPECT_TRUE(track->scale.x.empty());
}

}  // namespace
}  // namespace articula::ui
