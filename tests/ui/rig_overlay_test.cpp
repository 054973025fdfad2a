// The rig overlay's maths without a window: markers, picking, dragging in the view plane,
// pole spaces, limits, trails and contact rings.
#include <gtest/gtest.h>

#include <QUndoStack>

#include <limits>
#include <memory>

#include "core/rig/humanoid_rig.h"
#include "core/samples/mannequin.h"
#include "core/skeleton/local_to_model.h"
#include "ui/commands/handle_commands.h"
#include "ui/commands/key_pose_command.h"
#include "ui/commands/rig_set_command.h"
#include "ui/commands/set_rig_enabled_command.h"
#include "ui/document/document.h"
#include "ui/viewport/orbit_camera.h"
#include "ui/viewport/rig_overlay.h"
#include "ui/viewport/skeleton_overlay.h"
#include "ui/viewport/viewport.h"

namespace articula::ui {
namespace {

class RigOverlayTest : public ::testing::Test {
 protected:
  void SetUp() override {
    scene = makeMannequin();
    auto built = buildHumanoidRig(scene.skeleton);
    ASSERT_TRUE(built) << built.error();
    rig = std::move(built).value();
    modelPose = localToModel(scene.skeleton, scene.skeleton.restPose());
    OrbitCamera camera;
    camera.frame(Eigen::AlignedBox3f(Vec3(-1, 0, -1), Vec3(1, 2, 1)), 1.5f);
    view = GizmoView{camera.projectionMatrix(1.5f) * camera.viewMatrix(), 900.0f, 600.0f};
  }

  Vec2 screenOf(const Vec3& p) const {
    const Vec4 clip = view.viewProjection * p.homogeneous();
    return Vec2((clip.x() / clip.w() * 0.5f + 0.5f) * view.width, (0.5f - clip.y() / clip.w() * 0.5f) * view.height);
  }

  Scene scene;
  RigDefinition rig;
  std::vector<Affine> modelPose;
  GizmoView view;
};

TEST_F(RigOverlayTest, MarkersSitOnTheTipsAndLegPolesInFrontOfTheKnees) {
  std::vector<HandleMarker> markers;
  handleMarkers(rig, {}, modelPose, modelPose, markers);
  ASSERT_EQ(markers.size(), rig.handles.size());
  for (const HandleMarker& marker : markers) {
    const IkHandle& handle = rig.handles[static_cast<std::size_t>(marker.handle)];
    EXPECT_TRUE(marker.targetModel.isApprox(modelPose[static_cast<std::size_t>(handle.chain.back())].translation()));
    EXPECT_TRUE(marker.reached);
    EXPECT_EQ(marker.hasPole, handle.pole.space != IkPole::Space::None) << handle.name;
  }
}

TEST_F(RigOverlayTest, PoleSpaceRoundTripsThroughModelSpace) {
  for (const IkHandle& handle : rig.handles) {
    const auto pole = poleModel(handle, modelPose);
    if (!pole) continue;
    EXPECT_TRUE(poleInPoleSpace(handle, modelPose, *pole).isApprox(handle.pole.position, 1e-4f)) << handle.name;
    // Moved by a model-space offset, then read back in model space: the same offset.
    IkHandle moved = handle;
    moved.pole.position = poleInPoleSpace(handle, modelPose, *pole + Vec3(0.1f, 0.0f, 0.0f));
    EXPECT_TRUE(poleModel(moved, modelPose)->isApprox(*pole + Vec3(0.1f, 0.0f, 0.0f), 1e-4f));
  }
}

TEST_F(RigOverlayTest, PickFindsTargetsBeforePolesAndNothingFarAway) {
  std::vector<HandleMarker> markers;
  handleMarkers(rig, {}, modelPose, modelPose, markers);
  for (const HandleMarker& marker : markers) {
    const HandlePick pick = pickHandle(markers, view, screenOf(marker.targetModel) + Vec2(2.0f, -1.0f));
    EXPECT_EQ(pick.handle, marker.handle);
    EXPECT_FALSE(pick.pole);
    if (!marker.hasPole) continue;
    const HandlePick polePick = pickHandle(markers, view, screenOf(marker.poleModel));
    EXPECT_TRUE(polePick.pole);
  }
  EXPECT_EQ(pickHandle(markers, view, Vec2(2.0f, 2.0f)).handle, -1);
}

TEST_F(RigOverlayTest, ViewPlaneDragKeepsThePointUnderTheMouseAtItsDepth) {
  const Vec3 start(0.3f, 1.2f, 0.1f);
  const Vec2 mouseStart = screenOf(start);
  const Vec2 mouseNow = mouseStart + Vec2(37.0f, -21.0f);
  const Vec3 moved = dragOnViewPlane(start, view, mouseStart, mouseNow);
  EXPECT_LT((screenOf(moved) - mouseNow).norm(), 0.05f);
  const Vec4 a = view.viewProjection * start.homogeneous(), b = view.viewProjection * moved.homogeneous();
  EXPECT_NEAR(a.z() / a.w(), b.z() / b.w(), 1e-4f);
  EXPECT_TRUE(dragOnViewPlane(start, view, mouseStart, mouseStart).isApprox(start, 1e-5f));
}

TEST_F(RigOverlayTest, LimitsDrawForLimitedJointsOnly) {
  std::vector<OverlayVertex> lines;
  buildJointLimitLines(rig, scene.skeleton, modelPose, scene.skeleton.findJoint("LeftForeArm"), 0.1f, lines);
  EXPECT_GT(lines.size(), 60u) << "the elbow hinge's arc";
  const std::size_t elbow = lines.size();
  buildJointLimitLines(rig, scene.skeleton, modelPose, scene.skeleton.findJoint("LeftArm"), 0.1f, lines);
  EXPECT_GT(lines.size(), elbow + 60u) << "the shoulder cone";
  lines.clear();
  buildJointLimitLines(rig, scene.skeleton, modelPose, scene.skeleton.findJoint("Head"), 0.1f, lines);
  EXPECT_TRUE(lines.empty());
  // A hinge arc stays at the limit's length from the joint.
  buildJointLimitLines(rig, scene.skeleton, modelPose, scene.skeleton.findJoint("LeftForeArm"), 0.1f, lines);
  const Vec3 elbowModel = modelPose[static_cast<std::size_t>(scene.skeleton.findJoint("LeftForeArm"))].translation();
  const Vec3 first(lines[1].position[0], lines[1].position[1], lines[1].position[2]);
  EXPECT_NEAR((first - elbowModel).norm(), 0.1f, 1e-4f);
}

TEST_F(RigOverlayTest, ContactRingsOnlyWhereTheStrideCurveIsOne) {
  Clip clip;
  clip.curves["contact.left_foot"].insertKey(0.0, 1.0, Interpolation::Linear);
  clip.curves["contact.left_foot"].insertKey(1.0, 0.0, Interpolation::Linear);
  const std::vector<ContactFoot> feet = {{scene.skeleton.findJoint("LeftFoot"), "contact.left_foot"},
                                         {scene.skeleton.findJoint("RightFoot"), "contact.right_foot"}};
  std::vector<OverlayVertex> lines;
  buildContactMarkers(feet, clip, 0.0, modelPose, 0.05f, lines);
  ASSERT_FALSE(lines.empty());
  for (const OverlayVertex& v : lines) EXPECT_EQ(v.position[1], 0.0f) << "on the ground";
  lines.clear();
  buildContactMarkers(feet, clip, 0.5, modelPose, 0.05f, lines);
  EXPECT_TRUE(lines.empty()) << "half planted is not planted";
}

TEST_F(RigOverlayTest, TrailLinesJoinSuccessivePointsWithATickAtEachFrame) {
  const std::vector<Vec3> points = {Vec3::Zero(), Vec3::UnitX(), Vec3(1, 1, 0)};
  std::vector<OverlayVertex> lines;
  buildTrailLines(points, 0.01f, lines);
  // Two segments and three ticks of three axes, two vertices each.
  ASSERT_EQ(lines.size(), 2u * (2u + 3u * 3u));
  std::vector<Vec3> segmentEnds;
  for (const OverlayVertex& v : lines) {
    const Vec3 p(v.position[0], v.position[1], v.position[2]);
    // Every vertex is a trail point or within a tick of one.
    float nearest = std::numeric_limits<float>::max();
    for (const Vec3& point : points) nearest = std::min(nearest, (p - point).norm());
    EXPECT_LE(nearest, 0.01f + 1e-6f);
    if (nearest == 0.0f) segmentEnds.push_back(p);
  }
  EXPECT_EQ(segmentEnds.size(), 4u) << "two segments between the three points";
}

// Trails over a real document: the viewport's cache, without any OpenGL (trails are maths).
class RigTrailsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    document.replaceScene(makeMannequin(), QString(), QStringLiteral("Mannequin"));
    auto built = BuildHumanoidRigCommand::humanoidRig(document);
    ASSERT_TRUE(built) << built.error();
    document.undoStack()->push(new BuildHumanoidRigCommand(&document, std::move(built).value()));
    ASSERT_NE(document.boundRig(), nullptr);
    viewport = std::make_unique<Viewport>(&document);
    hand = document.scene().skeleton.findJoint("LeftHand");
  }

  Document document;
  std::unique_ptr<Viewport> viewport;
  int hand = -1;
};

TEST_F(RigTrailsTest, OnePointPerFrameWhereTheSolvedPosePutsTheJoint) {
  document.setSelectedJoints({hand});
  EXPECT_TRUE(viewport->trails().empty()) << "trails are off by default";
  viewport->setShowTrails(true);
  ASSERT_EQ(viewport->trails().size(), 1u);
  const std::vector<Vec3> trail = viewport->trails().front();
  ASSERT_EQ(static_cast<int>(trail.size()), document.frameCount());
  // The trail is the rig's result, frame by frame (a target moved off the animation and
  // keyed shows on every frame).
  const int arm = document.boundRig()->findHandle("left_arm");
  document.undoStack()->push(
      new MoveHandleCommand(&document, arm, MoveHandleCommand::Part::Target, Vec3(0.45f, 1.45f, 0.25f)));
  document.undoStack()->push(new KeyPoseCommand(&document, arm));
  const std::vector<Vec3> moved = viewport->trails().front();
  for (int frame : {0, document.frameCount() / 2, document.frameCount() - 1}) {
    document.setFrame(frame);
    const Vec3 handModel = document.modelPose()[static_cast<std::size_t>(hand)].translation();
    EXPECT_LT((moved[static_cast<std::size_t>(frame)] - handModel).norm(), 1e-4f) << "frame " << frame;
  }
  EXPECT_GT((moved.front() - trail.front()).norm(), 0.05f);
}

TEST_F(RigTrailsTest, CachedUntilTheClipRigOrSelectionChanges) {
  viewport->setShowTrails(true);
  document.setSelectedJoints({hand});
  viewport->trails();
  const int builds = viewport->trailBuilds();
  for (int frame = 0; frame < document.frameCount(); ++frame) {
    document.setFrame(frame);
    viewport->trails();
  }
  EXPECT_EQ(viewport->trailBuilds(), builds) << "time steps reuse the trails";
  // Selecting the right leg's handle adds its tip (the right foot) to the trails.
  document.setSelectedHandle(document.boundRig()->findHandle("right_leg"));
  ASSERT_EQ(viewport->trails().size(), 2u);
  EXPECT_EQ(viewport->trailBuilds(), builds + 1);
  EXPECT_EQ(viewport->trailJoints().back(), document.scene().skeleton.findJoint("RightFoot"));
  document.undoStack()->push(new SetRigEnabledCommand(&document, false));
  viewport->trails();
  EXPECT_EQ(viewport->trailBuilds(), builds + 2) << "the rig's state changes the trails";
  viewport->setShowTrails(false);
  EXPECT_TRUE(viewport->trails().empty());
}

}  // namespace
}  // namespace articula::ui
