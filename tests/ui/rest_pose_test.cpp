// Skeleton ▸ Rest Pose through the real window (offscreen): the rest set to the current frame
// or to a T-pose, the motion unchanged, one undo step; a file that cannot says why.
#include <gtest/gtest.h>

#include <QAction>
#include <QSignalSpy>
#include <QUndoStack>

#include <cmath>

#include "core/io/import.h"
#include "core/retarget/rest_pose.h"
#include "core/skeleton/local_to_model.h"
#include "ui/document/document.h"
#include "ui/main_window.h"
#include "ui/widgets/rest_pose_actions.h"
#include "ui_test_support.h"

namespace articula::ui {
namespace {

class RestPoseTest : public ::testing::Test {
 protected:
  void open(const char* relative) {
    auto scene = importScene(std::string(ARTICULA_TEST_DATA_DIR) + "/" + relative);
    ASSERT_TRUE(scene) << scene.error();
    original = *scene;
    window.openScene(std::move(*scene), QString::fromLatin1(relative));
    document = window.document();
  }

  QAction* action(const char* name) const {
    auto* found = window.findChild<QAction*>(QLatin1String(name));
    EXPECT_NE(found, nullptr) << name;
    return found;
  }

  // The largest distance (model units) between the document's joints and the original's
  // over every frame of the first clip.
  float motionChange() const {
    const Scene& scene = document->scene();
    float worst = 0.0f;
    for (int f = 0; f < original.clips.front().frameCount(); ++f) {
      const auto before = localToModel(original.skeleton, poseAtFrame(original.skeleton, original.clips.front(), f));
      const auto after = localToModel(scene.skeleton, poseAtFrame(scene.skeleton, scene.clips.front(), f));
      for (std::size_t j = 0; j < before.size(); ++j)
        worst = std::max(worst, (before[j].translation() - after[j].translation()).norm());
    }
    return worst;
  }

  bool restIsOriginal() const {
    for (int j = 0; j < original.skeleton.jointCount(); ++j) {
      const Transform& a = original.skeleton.restLocal(j);
      const Transform& b = document->scene().skeleton.restLocal(j);
      if (!a.translation.isApprox(b.translation) || std::abs(a.rotation.dot(b.rotation)) < 1.0f - 1e-6f) return false;
    }
    return true;
  }

  MainWindow window;
  Document* document = nullptr;
  Scene original;
};

TEST_F(RestPoseTest, FromTheCurrentFrameIsOneUndoStepThatKeepsTheMotion) {
  open("bvh/cmu-mb-2010/02_01.bvh");
  document->setFrame(100);
  const auto frame = poseAtFrame(original.skeleton, original.clips.front(), 100);
  const int commands = document->undoStack()->count();
  action("actionRestPoseFromCurrentFrame")->trigger();
  ASSERT_EQ(document->undoStack()->count(), commands + 1);
  const int hips = document->scene().skeleton.findJoint("Hips");
  EXPECT_TRUE(document->scene().skeleton.restLocal(hips).rotation.isApprox(frame[static_cast<std::size_t>(hips)].rotation));
  // 0.01 mm of a 1.75 m figure.
  const float tolerance = 0.01f / 1750.0f * original.characterHeight();
  EXPECT_LE(motionChange(), tolerance);
  document->undoStack()->undo();
  EXPECT_TRUE(restIsOriginal());
  EXPECT_LE(motionChange(), tolerance);
  document->undoStack()->redo();
  EXPECT_FALSE(restIsOriginal());
  EXPECT_LE(motionChange(), tolerance);
}

TEST_F(RestPoseTest, ToTPoseLaysTheArmsOutAndKeepsTheMotion) {
  open("gltf/RobotExpressive/RobotExpressive.glb");
  const int commands = document->undoStack()->count();
  action("actionRestPoseToTPose")->trigger();
  ASSERT_EQ(document->undoStack()->count(), commands + 1);
  const Skeleton& skeleton = document->scene().skeleton;
  const auto rest = localToModel(skeleton, skeleton.restPose());
  const Vec3 arm = rest[static_cast<std::size_t>(skeleton.findJoint("LowerArm.L"))].translation() -
                   rest[static_cast<std::size_t>(skeleton.findJoint("UpperArm.L"))].translation();
  EXPECT_LT(std::abs(arm.normalized().y()), 1e-3f);  // horizontal: the robot's arms hung 63° down
  EXPECT_LE(motionChange(), 0.01f / 1750.0f * original.characterHeight());
  document->undoStack()->undo();
  EXPECT_TRUE(restIsOriginal());
}

TEST_F(RestPoseTest, ANonHumanoidSaysWhyAndChangesNothing) {
  open("gltf/RiggedSimple/RiggedSimple.glb");
  auto* actions = window.findChild<RestPoseActions*>();
  ASSERT_NE(actions, nullptr);
  // The window shows the reason in a message box; the test reads the signal instead.
  QObject::disconnect(actions, &RestPoseActions::problem, &window, nullptr);
  QSignalSpy problem(actions, &RestPoseActions::problem);
  const int commands = document->undoStack()->count();
  EXPECT_FALSE(actions->toTPose());
  EXPECT_EQ(document->undoStack()->count(), commands);
  ASSERT_EQ(problem.count(), 1);
  EXPECT_TRUE(problem.front().front().toString().contains(QStringLiteral("not a humanoid")));
}

}  // namespace
}  // namespace articula::ui
