// Picking and gizmo maths without a window: known poses, known cameras, expected joints and
// motions, under rotated and scaled parents.
#include <gtest/gtest.h>

#include <numbers>

#include "core/io/import.h"
#include "core/samples/mannequin.h"
#include "core/skeleton/local_to_model.h"
#include "ui/viewport/camera_follow.h"
#include "ui/viewport/gizmo.h"
#include "ui/viewport/onion_skin.h"
#include "ui/viewport/orbit_camera.h"
#include "ui/viewport/scene_bounds.h"
#include "ui/viewport/screen_projection.h"
#include "ui/viewport/skeleton_overlay.h"
#include "ui_test_support.h"

namespace articula::ui {
namespace {

constexpr float kWidth = 800.0f;
constexpr float kHeight = 600.0f;

Vec2 toPixels(const Mat4& viewProjection, const Vec3& pointModel) {
  const Vec4 clip = viewProjection * pointModel.homogeneous();
  const Vec3 ndc = clip.head<3>() / clip.w();
  return {(ndc.x() * 0.5f + 0.5f) * kWidth, (0.5f - ndc.y() * 0.5f) * kHeight};
}

class PickingTest : public ::testing::Test {
 protected:
  void SetUp() override {
    skeleton = makeMannequinSkeleton();
    const auto rest = skeleton.restPose();
    std::vector<Transform> local(rest.begin(), rest.end());
    modelPose.resize(local.size());
    LocalToModelJob job;
    job.skeleton = &skeleton;
    job.local = local;
    job.model = modelPose;
    ASSERT_TRUE(job.run());
    bones = bonesOf(skeleton);
    camera.setView(Vec3(0.0f, 0.9f, 0.0f), 0.0f, 0.0f, 4.0f);  // from the front, hip height
    camera.setNamedView(OrbitCamera::NamedView::Front);
    viewProjection = camera.projectionMatrix(kWidth / kHeight) * camera.viewMatrix();
  }

  Vec2 pixelOf(int joint) const {
    return toPixels(viewProjection, modelPose[static_cast<std::size_t>(joint)].translation());
  }
  int pick(const Vec2& mouse) const {
    return pickJoint(skeleton, bones, modelPose, viewProjection, kWidth, kHeight, mouse);
  }

  Skeleton skeleton;
  std::vector<Affine> modelPose;
  std::vector<Bone> bones;
  OrbitCamera camera;
  Mat4 viewProjection;
};

TEST_F(PickingTest, ClickOnAJointSelectsIt) {
  for (const char* name : {"Head", "LeftHand", "RightFoot", "LeftForeArm", "Hips"}) {
    SCOPED_TRACE(name);
    const int joint = skeleton.findJoint(name);
    ASSERT_GE(joint, 0);
    EXPECT_EQ(pick(pixelOf(joint) + Vec2(3.0f, -2.0f)), joint);
  }
}

TEST_F(PickingTest, ClickOnABoneSelectsTheJointThatOwnsIt) {
  const int upLeg = skeleton.findJoint("LeftUpLeg");
  const int leg = skeleton.findJoint("LeftLeg");
  EXPECT_EQ(pick(0.5f * (pixelOf(upLeg) + pixelOf(leg))), upLeg);
}

TEST_F(PickingTest, ClickOnNothingSelectsNothing) {
  EXPECT_EQ(pick(Vec2(10.0f, 10.0f)), -1);
  EXPECT_EQ(pick(Vec2(kWidth - 5.0f, kHeight * 0.5f)), -1);
}

TEST_F(PickingTest, SideViewPicksTheJointNearerTheEye) {
  // From the +X side the left and right hips overlap on screen; the left one is nearer.
  camera.setNamedView(OrbitCamera::NamedView::Side);
  viewProjection = camera.projectionMatrix(kWidth / kHeight) * camera.viewMatrix();
  const int left = skeleton.findJoint("LeftFoot");
  const int right = skeleton.findJoint("RightFoot");
  ASSERT_LT((pixelOf(left) - pixelOf(right)).norm(), 1.0f);
  EXPECT_EQ(pick(pixelOf(left)), left);
}

GizmoView frontView(float distance = 4.0f) {
  OrbitCamera camera;
  camera.setView(Vec3::Zero(), 0.0f, 0.0f, distance);
  return GizmoView{camera.projectionMatrix(kWidth / kHeight) * camera.viewMatrix(), kWidth, kHeight};
}

TEST(ScreenProjection, PointsInFrontLandOnTheirPixelAndPointsBehindDoNot) {
  OrbitCamera camera;
  camera.setView(Vec3(0.0f, 1.0f, 0.0f), 0.3f, 0.2f, 4.0f);
  const Mat4 viewProjection = camera.projectionMatrix(kWidth / kHeight) * camera.viewMatrix();
  const Vec3 eye = (camera.viewMatrix().inverse() * Vec4(0.0f, 0.0f, 0.0f, 1.0f)).head<3>();
  const Vec3 toTarget = Vec3(0.0f, 1.0f, 0.0f) - eye;
  const auto centre = projectToScreen(viewProjection, kWidth, kHeight, Vec3(0.0f, 1.0f, 0.0f));
  ASSERT_TRUE(centre.has_value());
  EXPECT_NEAR(centre->pixel.x(), 0.5f * kWidth, 1e-3f) << "the orbit target is the view's centre";
  EXPECT_NEAR(centre->pixel.y(), 0.5f * kHeight, 1e-3f);
  const Vec3 offCentre(0.3f, 1.4f, -0.2f);
  const auto point = projectToScreen(viewProjection, kWidth, kHeight, offCentre);
  ASSERT_TRUE(point.has_value());
  EXPECT_TRUE(point->pixel.isApprox(toPixels(viewProjection, offCentre), 1e-5f));
  const auto farther = projectToScreen(viewProjection, kWidth, kHeight, Vec3(0.0f, 1.0f, 0.0f) + 0.5f * toTarget);
  ASSERT_TRUE(farther.has_value());
  EXPECT_GT(farther->depth, centre->depth) << "depth grows away from the eye";
  EXPECT_FALSE(projectToScreen(viewProjection, kWidth, kHeight, eye - toTarget).has_value()) << "behind the eye";
}

TEST(Gizmo, HasAConstantSizeOnScreen) {
  const GizmoView view = frontView();
  const GizmoFrame frame = gizmoFrameOf(Affine::Identity(), GizmoSpace::World, view, 90.0f);
  const float lengthPixels =
      (toPixels(view.viewProjection, frame.sizeModel * Vec3::UnitX()) - toPixels(view.viewProjection, Vec3::Zero()))
          .norm();
  EXPECT_NEAR(lengthPixels, 90.0f, 1.0f);
  const GizmoFrame far = gizmoFrameOf(Affine::Identity(), GizmoSpace::World, frontView(8.0f), 90.0f);
  EXPECT_NEAR(far.sizeModel, 2.0f * frame.sizeModel, 1e-3f);
}

TEST(Gizmo, PicksTheHandleUnderTheMouse) {
  const GizmoView view = frontView();
  const GizmoFrame frame = gizmoFrameOf(Affine::Identity(), GizmoSpace::World, view, 90.0f);
  const Vec2 centre = toPixels(view.viewProjection, Vec3::Zero());
  // Translate: halfway along the on-screen X and Y arrows; Z points at the eye.
  EXPECT_EQ(pickGizmoAxis(GizmoMode::Translate, frame, view, centre + Vec2(45.0f, 2.0f)), 0);
  EXPECT_EQ(pickGizmoAxis(GizmoMode::Translate, frame, view, centre + Vec2(-2.0f, -45.0f)), 1);
  EXPECT_EQ(pickGizmoAxis(GizmoMode::Translate, frame, view, centre + Vec2(40.0f, 40.0f)), -1);
  // Rotate: the Z ring is the circle of radius 90 px; the X and Y rings are seen edge-on.
  EXPECT_EQ(pickGizmoAxis(GizmoMode::Rotate, frame, view, centre + Vec2(63.6f, 63.6f)), 2);
  EXPECT_EQ(pickGizmoAxis(GizmoMode::Rotate, frame, view, centre + Vec2(20.0f, 20.0f)), -1);
  EXPECT_EQ(pickGizmoAxis(GizmoMode::None, frame, view, centre + Vec2(45.0f, 0.0f)), -1);
}

TEST(Gizmo, TranslateDragFollowsTheMouseAlongTheAxis) {
  const GizmoView view = frontView();
  const GizmoFrame frame = gizmoFrameOf(Affine::Identity(), GizmoSpace::World, view, 90.0f);
  const Vec2 start = toPixels(view.viewProjection, Vec3::Zero()) + Vec2(45.0f, 0.0f);
  // 45 px right is half the arrow; the vertical part of the motion is ignored.
  const Vec3 delta = translateDragModel(frame, 0, view, start, start + Vec2(45.0f, 30.0f));
  EXPECT_NEAR(delta.x(), 0.5f * frame.sizeModel, 1e-3f);
  EXPECT_NEAR(delta.y(), 0.0f, 1e-6f);
  // Z points at the eye: no on-screen direction, no motion.
  EXPECT_TRUE(translateDragModel(frame, 2, view, start, start + Vec2(45.0f, 0.0f)).isZero());
}

TEST(Gizmo, RotateDragTurnsTheWayTheMouseTurnsAtACalmRate) {
  const GizmoView view = frontView();
  const GizmoFrame frame = gizmoFrameOf(Affine::Identity(), GizmoSpace::World, view, 90.0f);
  const Vec2 centre = toPixels(view.viewProjection, Vec3::Zero());
  // Grabbed right of the centre and moved 50 px up: along the ring, counter-clockwise as seen
  // from +Z (which points at the eye), so +20° about +Z at 0.4° a pixel.
  const Quat turn = rotateDragModel(frame, 2, view, centre + Vec2(90.0f, 0.0f), centre + Vec2(90.0f, -50.0f));
  const float expectedRad = 50.0f * kRotateRadiansPerPixel;
  EXPECT_NEAR(expectedRad * 180.0f / std::numbers::pi_v<float>, 20.0f, 1e-3f);
  EXPECT_TRUE(turn.isApprox(Quat(Eigen::AngleAxisf(expectedRad, Vec3::UnitZ())), 1e-4f));
  // Motion across the ring (towards the centre) does not turn it.
  EXPECT_TRUE(rotateDragModel(frame, 2, view, centre + Vec2(90.0f, 0.0f), centre + Vec2(40.0f, 0.0f))
                  .isApprox(Quat::Identity(), 1e-6f));
  // Seen from behind (the eye on -Z) the same screen motion turns the other way about +Z.
  OrbitCamera back;
  back.setView(Vec3::Zero(), std::numbers::pi_v<float>, 0.0f, 4.0f);
  const GizmoView backView{back.projectionMatrix(kWidth / kHeight) * back.viewMatrix(), kWidth, kHeight};
  const Quat backTurn = rotateDragModel(frame, 2, backView, centre + Vec2(90.0f, 0.0f), centre + Vec2(90.0f, -50.0f));
  EXPECT_TRUE(backTurn.isApprox(Quat(Eigen::AngleAxisf(-expectedRad, Vec3::UnitZ())), 1e-4f));
}

// Frames of reference: the joint's model-space rotation and position change exactly by
// the model-space drag, whatever its parent's rotation, translation or (uniform) scale.
TEST(Gizmo, DragsAreExactInModelSpaceUnderAnyParent) {
  const Transform parents[] = {
      Transform::identity(),
      {Vec3(1.0f, -2.0f, 0.5f), Quat::Identity(), Vec3::Ones()},
      {Vec3::Zero(), Quat(Eigen::AngleAxisf(0.8f, Vec3(1.0f, 2.0f, -1.0f).normalized())), Vec3::Ones()},
      {Vec3(0.3f, 0.0f, 0.0f), Quat(Eigen::AngleAxisf(-1.3f, Vec3::UnitY())), Vec3::Constant(2.5f)},
  };
  const Transform local{Vec3(0.0f, 1.0f, 0.2f), Quat(Eigen::AngleAxisf(0.4f, Vec3::UnitX())), Vec3::Ones()};
  const Quat turnModel(Eigen::AngleAxisf(0.6f, Vec3(0.0f, 1.0f, 1.0f).normalized()));
  const Vec3 moveModel(0.25f, -0.5f, 1.0f);
  for (const Transform& parent : parents) {
    const Affine parentModel = parent.toAffine();
    const Affine before = parentModel * local.toAffine();
    const Affine turned = parentModel * rotatedLocal(local, parentModel, turnModel).toAffine();
    const Mat3 expectedLinear = turnModel.toRotationMatrix() * before.linear();
    EXPECT_TRUE(turned.linear().isApprox(expectedLinear, 1e-4f));
    EXPECT_TRUE(turned.translation().isApprox(before.translation(), 1e-5f)) << "turns about its own origin";
    const Affine moved = parentModel * translatedLocal(local, parentModel, moveModel).toAffine();
    EXPECT_TRUE(moved.translation().isApprox(before.translation() + moveModel, 1e-4f));
    EXPECT_TRUE(moved.linear().isApprox(before.linear(), 1e-5f));
  }
}

TEST(OnionSkin, GhostsSitAtMultiplesOfTheSpacingInsideTheClip) {
  const auto ghosts = ghostFrames(10, 30, OnionSkinSettings{2, 3});
  ASSERT_EQ(ghosts.size(), 4u);
  EXPECT_EQ(ghosts[0].frame, 7);
  EXPECT_TRUE(ghosts[0].past);
  EXPECT_EQ(ghosts[1].frame, 13);
  EXPECT_FALSE(ghosts[1].past);
  EXPECT_EQ(ghosts[2].frame, 4);
  EXPECT_EQ(ghosts[3].frame, 16);
  EXPECT_GT(ghosts[0].weight, ghosts[2].weight) << "nearer ghosts are more opaque";
  // Clipped at the ends of the clip; off when disabled or with nothing to play.
  const auto atStart = ghostFrames(1, 30, OnionSkinSettings{2, 3});
  ASSERT_EQ(atStart.size(), 2u);
  EXPECT_FALSE(atStart[0].past);
  EXPECT_FALSE(atStart[1].past);
  EXPECT_TRUE(ghostFrames(10, 30, OnionSkinSettings{0, 3}).empty());
  EXPECT_TRUE(ghostFrames(0, 1, OnionSkinSettings{2, 3}).empty());
}

// Model-space joints of `clip` at `frame` (its rest pose where it keys nothing).
std::vector<Affine> modelPoseAt(const Scene& scene, const Clip& clip, int frame) {
  const auto rest = scene.skeleton.restPose();
  std::vector<Transform> local(rest.begin(), rest.end());
  ClipSampler sampler(&clip);
  sampler.sample(clip.timeOf(frame), local);
  std::vector<Affine> model(local.size());
  LocalToModelJob job;
  job.skeleton = &scene.skeleton;
  job.local = local;
  job.model = model;
  EXPECT_TRUE(job.run());
  return model;
}

// A file opens framed on the whole motion: CMU 02_01 walks out of the box of its first
// frame (the framing before), MakeHuman's walk1 is a Z-up capture. Every joint at every
// frame lies in the motion's box.
TEST(MotionBounds, HoldEveryJointAtEveryFrameOfTheClip) {
  for (const char* file : {"bvh/cmu-mb-2010/02_01.bvh", "bvh/makehuman/walk1.bvh"}) {
    Result<Scene> scene = importScene(test::dataPath(file));
    ASSERT_TRUE(scene) << scene.error();
    const Clip& clip = scene->clips.front();
    const std::vector<Affine> first = modelPoseAt(*scene, clip, 0);
    const Eigen::AlignedBox3f motion = motionBounds(*scene, &clip, first);
    const Eigen::AlignedBox3f posed = posedBounds(*scene, first);
    EXPECT_TRUE(motion.contains(posed)) << file;
    const float slack = 1e-4f * motion.diagonal().norm();
    bool outsideFirstFrame = false;
    for (int frame = 0; frame < clip.frameCount(); ++frame) {
      for (const Affine& joint : modelPoseAt(*scene, clip, frame)) {
        const Vec3 p = joint.translation();
        EXPECT_TRUE((p.array() >= motion.min().array() - slack).all() &&
                    (p.array() <= motion.max().array() + slack).all())
            << file << " frame " << frame;
        outsideFirstFrame = outsideFirstFrame || !posed.contains(p);
      }
    }
    if (std::string(file).find("02_01") != std::string::npos) {
      EXPECT_TRUE(outsideFirstFrame) << "it walks away";
    }
  }
}

// View ▸ Follow moves the camera's target with the hips across the floor, never up or down.
TEST(CameraFollow, MovesTheTargetByTheHipsHorizontalTravel) {
  Result<Scene> scene = importScene(test::dataPath("bvh/cmu-mb-2010/02_01.bvh"));
  ASSERT_TRUE(scene) << scene.error();
  const int hips = scene->skeleton.findJoint("Hips");
  ASSERT_EQ(CameraFollow::followedJoint(*scene), hips);
  const Clip& clip = scene->clips.front();
  CameraFollow follow;
  follow.setJoint(hips);
  const std::vector<Affine> start = modelPoseAt(*scene, clip, 0);
  const std::vector<Affine> later = modelPoseAt(*scene, clip, 200);
  follow.restart(start);
  const Vec3 target(0.3f, 0.9f, -0.2f);
  const Vec3 followed = follow.follow(target, later);
  Vec3 travel =
      later[static_cast<std::size_t>(hips)].translation() - start[static_cast<std::size_t>(hips)].translation();
  ASSERT_GT(Vec2(travel.x(), travel.z()).norm(), 0.5f) << "the capture walks";
  travel.y() = 0.0f;
  EXPECT_TRUE(followed.isApprox(target + travel, 1e-5f));
  EXPECT_EQ(follow.follow(followed, later), followed) << "no travel, no move";
  follow.restart(start);
  EXPECT_EQ(follow.follow(target, start), target);
}

}  // namespace
}  // namespace articula::ui
