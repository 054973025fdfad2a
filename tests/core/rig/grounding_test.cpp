// Foot grounding: planted ankles at the sole's height above the ground, soles on the
// surface, pelvis lowered, stride-curve blend; in every frame of reference of the character.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <optional>
#include <string>

#include "core/bake/contact_detection.h"
#include "core/frames_of_reference.h"
#include "core/io/import.h"
#include "core/retarget/rest_pose.h"
#include "core/retarget/retarget_clip.h"
#include "core/rig/humanoid_map.h"
#include "core/samples/mannequin.h"
#include "rig_test_util.h"

namespace articula {
namespace {

constexpr float kLegLength = 0.84f;  // mannequin thigh + shin

struct Character {
  Skeleton skeleton = makeMannequinSkeleton();
  RigDefinition definition;
  int leftAnkle = skeleton.findJoint("LeftFoot");
  int rightAnkle = skeleton.findJoint("RightFoot");
  int hips = skeleton.findJoint("Hips");

  Character() {
    auto def = buildHumanoidRig(skeleton);
    EXPECT_TRUE(def.ok()) << def.error();
    if (def) definition = *def;
  }
};

// A ground given in model space, placed in the world with the character.
struct ModelGround {
  std::vector<Vec3> verticesModel;
  std::vector<std::uint32_t> indices;
  Vec3 pointModel = Vec3::Zero();
  Vec3 normalModel = Vec3::UnitY();
  bool isPlane = true;

  Ground inWorld(const Affine& worldFromModel) const {
    if (isPlane) {
      const Vec3 n = (worldFromModel.linear().inverse().transpose() * normalModel).normalized();
      return *Ground::plane(worldFromModel * pointModel, n);
    }
    std::vector<Vec3> world;
    for (const Vec3& v : verticesModel) world.push_back(worldFromModel * v);
    return *Ground::mesh(world, indices);
  }
};

// A plane through `point`, rising along +Z by `slopeRad`.
ModelGround slope(const Vec3& point, float slopeRad) {
  ModelGround g;
  g.pointModel = point;
  g.normalModel = Vec3(0.0f, std::cos(slopeRad), -std::sin(slopeRad));
  return g;
}

// Floor at y = 0 for x < 0 and a step of `height` for x >= 0 (the riser faces -X), 2 m deep.
ModelGround step(float height) {
  ModelGround g;
  g.isPlane = false;
  g.verticesModel = {{-1.0f, 0.0f, -1.0f},  {0.0f, 0.0f, -1.0f},   {0.0f, 0.0f, 1.0f},   {-1.0f, 0.0f, 1.0f},
                     {0.0f, height, -1.0f}, {1.0f, height, -1.0f}, {1.0f, height, 1.0f}, {0.0f, height, 1.0f}};
  g.indices = {0, 2, 1, 0, 3, 2, 4, 6, 5, 4, 7, 6, 1, 2, 7, 1, 7, 4};
  return g;
}

// The sole's normal in model space: the rest up carried by the foot's turn from rest.
Vec3 soleNormal(const Skeleton& s, const Pose& pose, int ankle) {
  const std::vector<Affine> rest = localToModel(s, s.restPose());
  const std::vector<Affine> now = localToModel(s, pose);
  const auto i = static_cast<std::size_t>(ankle);
  return (now[i].linear() * rest[i].linear().inverse() * Vec3::UnitY()).normalized();
}

float angleDeg(const Vec3& a, const Vec3& b) { return std::atan2(a.cross(b).norm(), a.dot(b)) * 180.0f / kPi; }

struct Grounded {
  Pose pose;
  Rig rig;
};

Grounded solveOn(const Character& c, const ModelGround& g, const Affine& worldFromModel, const Clip* clip = nullptr,
                 double t = 0.0) {
  auto rig = Rig::bind(c.skeleton, c.definition);
  EXPECT_TRUE(rig.ok()) << rig.error();
  rig->setGround(g.inWorld(worldFromModel));
  rig->setWorldFromModel(worldFromModel);
  Pose pose = test::restPoseOf(c.skeleton);
  EXPECT_TRUE(rig->solve(pose, t, clip));
  return {pose, std::move(*rig)};
}

TEST(Ground, RaycastPlaneAndMesh) {
  auto plane = Ground::plane(Vec3(0.0f, 1.0f, 0.0f), Vec3(0.0f, 2.0f, 0.0f));
  ASSERT_TRUE(plane.ok());
  auto hit = plane->raycast(Vec3(0.5f, 3.0f, 0.0f), Vec3(0.0f, -1.0f, 0.0f), 10.0f);
  ASSERT_TRUE(hit.has_value());
  EXPECT_FLOAT_EQ(hit->rayParameter, 2.0f);
  EXPECT_EQ(hit->normalWorld, Vec3::UnitY());
  EXPECT_FALSE(plane->raycast(Vec3(0.5f, 3.0f, 0.0f), Vec3(0.0f, -1.0f, 0.0f), 1.5f).has_value());
  const ModelGround s = step(0.2f);
  auto mesh = Ground::mesh(s.verticesModel, s.indices);
  ASSERT_TRUE(mesh.ok());
  hit = mesh->raycast(Vec3(0.5f, 1.0f, 0.0f), Vec3(0.0f, -1.0f, 0.0f), 10.0f);
  ASSERT_TRUE(hit.has_value());
  EXPECT_NEAR(hit->pointWorld.y(), 0.2f, 1e-6f);
  hit = mesh->raycast(Vec3(-0.5f, 1.0f, 0.0f), Vec3(0.0f, -1.0f, 0.0f), 10.0f);
  ASSERT_TRUE(hit.has_value());
  EXPECT_NEAR(hit->pointWorld.y(), 0.0f, 1e-6f);
  EXPECT_FALSE(Ground::plane(Vec3::Zero(), Vec3::Zero()).ok());
  auto bad = Ground::mesh(s.verticesModel, {0, 1, 99});
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.error().find("index 2 (99) is out of range"), std::string::npos) << bad.error();
}

// Both feet planted by their stride curves (a foot is pulled down to the ground only where
// its stride curve plants it).
Clip plantedFeet() {
  Clip clip;
  clip.curves["contact.left_foot"] = test::constantCurve(1.0);
  clip.curves["contact.right_foot"] = test::constantCurve(1.0);
  return clip;
}

TEST(Grounding, SlopedPlaneInEveryFrameOfReference) {
  const Character c;
  // 12° slope, 5 cm below the feet at the origin: the pelvis must come down.
  const ModelGround g = slope(Vec3(0.0f, -0.05f, 0.0f), 12.0f * kPi / 180.0f);
  const Clip planted = plantedFeet();
  const Grounded reference = solveOn(c, g, Affine::Identity(), &planted);
  for (const auto& frame : test::framesOfReference()) {
    SCOPED_TRACE(frame.name);
    const Grounded r = solveOn(c, g, frame.parentModel, &planted);
    for (const int ankle : {c.leftAnkle, c.rightAnkle}) {
      const Vec3 p = test::positionOf(c.skeleton, r.pose, ankle);
      EXPECT_NEAR((p - g.pointModel).dot(g.normalModel), 0.08f, 1e-4f * kLegLength) << c.skeleton.name(ankle);
      EXPECT_LE(angleDeg(soleNormal(c.skeleton, r.pose, ankle), g.normalModel), 2.0f) << c.skeleton.name(ankle);
      // The same answer as with the character at the origin.
      EXPECT_LE((p - test::positionOf(c.skeleton, reference.pose, ankle)).norm(), 1e-4f);
    }
    EXPECT_TRUE(r.rig.footReport(true).hit);
    EXPECT_LT(r.pose[static_cast<std::size_t>(c.hips)].translation.y(), 0.98f - 0.02f);
  }
}

TEST(Grounding, StepMesh) {
  const Character c;
  // Left foot (x = +0.09) on a 12 cm step, right foot on the floor.
  const ModelGround g = step(0.12f);
  const Affine turned = Affine(Eigen::Translation3f(4.0f, 0.5f, -2.0f)) * Eigen::AngleAxisf(2.3f, Vec3::UnitY());
  for (const Affine& worldFromModel : {Affine(Affine::Identity()), turned}) {
    const Grounded r = solveOn(c, g, worldFromModel);
    const Vec3 left = test::positionOf(c.skeleton, r.pose, c.leftAnkle);
    const Vec3 right = test::positionOf(c.skeleton, r.pose, c.rightAnkle);
    EXPECT_NEAR(left.y(), 0.12f + 0.08f, 1e-4f * kLegLength);
    EXPECT_NEAR(right.y(), 0.08f, 1e-4f * kLegLength);
    EXPECT_LE(angleDeg(soleNormal(c.skeleton, r.pose, c.leftAnkle), Vec3::UnitY()), 2.0f);
    EXPECT_LE(angleDeg(soleNormal(c.skeleton, r.pose, c.rightAnkle), Vec3::UnitY()), 2.0f);
    // The straight rest leg reaching the floor would hyperextend: the pelvis came down.
    const float hipToAnkle = (test::positionOf(c.skeleton, r.pose, c.skeleton.findJoint("RightUpLeg")) - right).norm();
    EXPECT_LE(hipToAnkle, 0.995f * kLegLength + 1e-5f);
    EXPECT_LT(r.pose[static_cast<std::size_t>(c.hips)].translation.y(), 0.98f);
  }
}

// The foot's sole follows a step edge: ankle on the floor, toe over the step.
TEST(Grounding, ToeAimsAtTheGroundAhead) {
  const Character c;
  ModelGround g = step(0.05f);
  // Turn the step so its riser runs across the feet, 6 cm in front of the ankles.
  for (Vec3& v : g.verticesModel) v = Vec3(v.z(), v.y(), v.x() + 0.06f);
  for (std::size_t i = 0; i < g.indices.size(); i += 3) std::swap(g.indices[i + 1], g.indices[i + 2]);
  const Grounded r = solveOn(c, g, Affine::Identity());
  const Vec3 sole = soleNormal(c.skeleton, r.pose, c.leftAnkle);
  // Pitched back (toes up): the sole normal leans towards -Z.
  EXPECT_LT(sole.z(), -0.05f);
  EXPECT_NEAR(test::positionOf(c.skeleton, r.pose, c.leftAnkle).y(), 0.08f, 1e-4f * kLegLength);
}

TEST(Grounding, StrideCurveCapsTheAnkleBetweenAnimatedAndPlanted) {
  const Character c;
  const ModelGround g = slope(Vec3(0.0f, -0.1f, 0.0f), 0.0f);
  Clip clip;
  clip.curves["contact.left_foot"] = test::constantCurve(0.0);
  clip.curves["contact.right_foot"] = test::constantCurve(1.0);
  Grounded r = solveOn(c, g, Affine::Identity(), &clip);
  // Free: where the animation put it (the pose's 8 cm); planted: on the ground 10 cm lower.
  EXPECT_NEAR(test::positionOf(c.skeleton, r.pose, c.leftAnkle).y(), 0.08f, 1e-4f * kLegLength);
  EXPECT_NEAR(test::positionOf(c.skeleton, r.pose, c.rightAnkle).y(), -0.02f, 1e-4f * kLegLength);
  EXPECT_FLOAT_EQ(r.rig.footReport(false).planted, 1.0f);
  // Between, the stride value p caps the ankle's height over its planted place at a tenth
  // of the leg times (1 − p)/p: half planted, 8.4 cm over it (the animation's 10 cm capped);
  // nine tenths planted, 0.93 cm.
  clip.curves["contact.left_foot"] = test::constantCurve(0.5);
  r = solveOn(c, g, Affine::Identity(), &clip);
  EXPECT_NEAR(test::positionOf(c.skeleton, r.pose, c.leftAnkle).y(), -0.02f + 0.1f * kLegLength, 1e-4f * kLegLength);
  clip.curves["contact.left_foot"] = test::constantCurve(0.9);
  r = solveOn(c, g, Affine::Identity(), &clip);
  EXPECT_NEAR(test::positionOf(c.skeleton, r.pose, c.leftAnkle).y(), -0.02f + 0.1f * kLegLength / 9.0f,
              1e-4f * kLegLength);
  // A quarter planted, the cap (25 cm) is above the animated ankle, which stays.
  clip.curves["contact.left_foot"] = test::constantCurve(0.25);
  r = solveOn(c, g, Affine::Identity(), &clip);
  EXPECT_NEAR(test::positionOf(c.skeleton, r.pose, c.leftAnkle).y(), 0.08f, 1e-4f * kLegLength);
}

TEST(Grounding, SingularPlacementIsIgnored) {
  const Character c;
  const ModelGround g = slope(Vec3(0.0f, -0.05f, 0.0f), 0.1f);
  const Grounded reference = solveOn(c, g, Affine::Identity());
  auto rig = Rig::bind(c.skeleton, c.definition);
  ASSERT_TRUE(rig.ok());
  rig->setGround(g.inWorld(Affine::Identity()));
  rig->setWorldFromModel(Affine(Eigen::Scaling(Vec3(1.0f, 0.0f, 1.0f))));
  Affine notFinite = Affine::Identity();
  notFinite(0, 3) = std::numeric_limits<float>::infinity();
  rig->setWorldFromModel(notFinite);
  Pose pose = test::restPoseOf(c.skeleton);
  ASSERT_TRUE(rig->solve(pose, 0.0, nullptr));
  for (std::size_t j = 0; j < pose.size(); ++j) {
    EXPECT_EQ(pose[j].translation, reference.pose[j].translation) << j;
    EXPECT_EQ(pose[j].rotation.coeffs(), reference.pose[j].rotation.coeffs()) << j;
  }
}

TEST(Grounding, CanBeSwitchedOnAfterBind) {
  const Character c;
  RigDefinition def = c.definition;
  def.grounding.enabled = false;
  auto rig = Rig::bind(c.skeleton, def);
  ASSERT_TRUE(rig.ok()) << rig.error();
  rig->setGround(*Ground::plane(Vec3(0.0f, -0.05f, 0.0f), Vec3::UnitY()));
  Pose pose = test::restPoseOf(c.skeleton);
  ASSERT_TRUE(rig->solve(pose, 0.0, nullptr));
  EXPECT_FALSE(rig->footReport(true).hit);
  EXPECT_NEAR(test::positionOf(c.skeleton, pose, c.leftAnkle).y(), 0.08f, 1e-6f);
  rig->setGroundingEnabled(true);
  pose = test::restPoseOf(c.skeleton);
  const Clip planted = plantedFeet();
  ASSERT_TRUE(rig->solve(pose, 0.0, &planted));
  EXPECT_TRUE(rig->footReport(true).hit);
  EXPECT_NEAR(test::positionOf(c.skeleton, pose, c.leftAnkle).y(), 0.03f, 1e-4f * kLegLength);
}

// Issue 35, item 4: without stride curves the ground holds the feet up and never pulls one
// down. A foot 5 cm over the floor stays there with its sole laid flat; one 5 cm under it
// comes up onto it.
TEST(Grounding, WithoutStrideCurvesTheFloorOnlyHoldsTheFeetUp) {
  const Character c;
  for (const float floorY : {-0.05f, 0.05f}) {
    const Grounded r = solveOn(c, slope(Vec3(0.0f, floorY, 0.0f), 0.0f), Affine::Identity());
    for (const int ankle : {c.leftAnkle, c.rightAnkle}) {
      EXPECT_NEAR(test::positionOf(c.skeleton, r.pose, ankle).y(), std::max(0.08f, floorY + 0.08f),
                  1e-4f * kLegLength)
          << "floor at " << floorY;
      EXPECT_LE(angleDeg(soleNormal(c.skeleton, r.pose, ankle), Vec3::UnitY()), 2.0f);
    }
  }
}

TEST(Grounding, WalkOnASlopeKeepsPlantedFeetOnIt) {
  const Scene scene = makeMannequin();
  const Character c;
  auto rig = Rig::bind(c.skeleton, c.definition);
  ASSERT_TRUE(rig.ok());
  const ModelGround g = slope(Vec3(0.0f, 0.0f, 0.7f), 6.0f * kPi / 180.0f);
  rig->setGround(g.inWorld(Affine::Identity()));
  const Clip& walk = scene.clips.front();
  int planted = 0;
  for (int f = 0; f < 30; ++f) {
    const double t = f / 30.0;
    Pose pose = test::sampledPose(c.skeleton, walk, t);
    ASSERT_TRUE(rig->solve(pose, t, &walk));
    for (const bool left : {true, false}) {
      const FootReport& foot = rig->footReport(left);
      if (!foot.hit || foot.planted < 0.9999f) continue;
      ++planted;
      const int ankle = left ? c.leftAnkle : c.rightAnkle;
      const Vec3 p = test::positionOf(c.skeleton, pose, ankle);
      EXPECT_NEAR((p - g.pointModel).dot(g.normalModel), 0.08f, 1e-4f * kLegLength) << "t " << t;
      EXPECT_LE(angleDeg(soleNormal(c.skeleton, pose, ankle), g.normalModel), 2.0f) << "t " << t;
    }
  }
  EXPECT_GT(planted, 10);
}

}  // namespace
}  // namespace articula

namespace articula {
namespace {

// RobotExpressive's Walking, the humanoid rig built on it (no stride curves yet) and solved on
// the floor y = 0 as the editor does.
struct RobotWalk {
  Scene scene;
  Rig rig;
  const Clip* walk = nullptr;
};

std::optional<RobotWalk> robotWalk() {
  auto scene = importScene(std::string(ARTICULA_TEST_DATA_DIR) + "/gltf/RobotExpressive/RobotExpressive.glb");
  if (!scene) return std::nullopt;
  auto definition = buildHumanoidRig(scene->skeleton);
  if (!definition) return std::nullopt;
  auto rig = Rig::bind(scene->skeleton, *definition);
  auto ground = Ground::plane(Vec3::Zero(), Vec3::UnitY());
  if (!rig || !ground) return std::nullopt;
  rig->setGround(std::move(ground).value());
  RobotWalk robot{std::move(*scene), std::move(rig).value(), nullptr};
  for (const Clip& clip : robot.scene.clips) {
    if (clip.name == "Walking") robot.walk = &clip;
  }
  if (!robot.walk) return std::nullopt;
  return robot;
}

// Issue 35, item 4: a rig built on a clip without stride curves sank the robot ~30 % of its
// height on frames 0–2 (every foot planted, a lifted one pulled down far along its ray, the
// hips after it). Without a stride curve the floor only holds the feet up: on every frame of
// Walking and Running the hips come down only where a leg is stretched past its reach (0.2 %
// of the height at worst; 2.4 % while a foot near the floor was pulled down to it), and no
// ankle is under its sole's height over the floor.
TEST(Grounding, WithoutStrideCurvesTheRobotWalksAsAnimated) {
  auto robot = robotWalk();
  ASSERT_TRUE(robot);
  const Skeleton& skeleton = robot->scene.skeleton;
  const float height = robot->scene.characterHeight();
  const GroundingSetup& grounding = robot->rig.definition().grounding;
  for (const Clip& clip : robot->scene.clips) {
    if (clip.name != "Walking" && clip.name != "Running") continue;
    float worstDrop = 0.0f, worstUnder = 0.0f;
    for (int frame = 0; frame < clip.frameCount(); ++frame) {
      const double t = clip.startTime + frame / clip.frameRate;
      const Pose input = test::sampledPose(skeleton, clip, t);
      Pose pose = input;
      ASSERT_TRUE(robot->rig.solve(pose, t, &clip));
      const std::vector<Affine> before = localToModel(skeleton, input);
      const std::vector<Affine> after = localToModel(skeleton, pose);
      const auto y = [](const std::vector<Affine>& model, int joint) {
        return model[static_cast<std::size_t>(joint)].translation().y();
      };
      worstDrop = std::max(worstDrop, y(before, grounding.pelvis) - y(after, grounding.pelvis));
      for (const char* leg : {"left_leg", "right_leg"}) {
        const int ankle = test::handleNamed(robot->rig.definition(), leg).chain.back();
        const float sole = std::string(leg) == "left_leg" ? grounding.left.ankleHeight : grounding.right.ankleHeight;
        worstUnder = std::max(worstUnder, sole - y(after, ankle));
      }
    }
    std::printf("robot %s without stride curves: hips down by %.2f %% of the height at worst, ankle under its "
                "sole's height by %.5f\n",
                clip.name.c_str(), 100.0f * worstDrop / height, worstUnder);
    EXPECT_LE(worstDrop, 0.005f * height) << clip.name;
    EXPECT_LE(worstUnder, 1e-4f * height) << clip.name;
  }
}

// Issue 35: Key Pose keys the solved pose, which the rig then solves again. Where the stride
// curve has decided (a foot planted or free), the grounding ray aims at the sole under the
// ankle, so a planted foot finds itself again: the pose stays within half a millimetre (the
// toe's ray still moves the toe by that much). Frames blending planted and free move further
// on each solve (a blend of a blend), which this does not cover.
TEST(Grounding, ASolvedPoseSolvedAgainStaysWhereItIs) {
  const Scene mannequin = makeMannequin();
  const Skeleton& skeleton = mannequin.skeleton;
  auto definition = buildHumanoidRig(skeleton);
  ASSERT_TRUE(definition.ok()) << definition.error();
  auto rig = Rig::bind(skeleton, *definition);
  auto ground = Ground::plane(Vec3::Zero(), Vec3::UnitY());
  ASSERT_TRUE(rig.ok() && ground.ok());
  rig->setGround(std::move(ground).value());
  const Clip& walk = mannequin.clips.front();
  float worst = 0.0f;
  int decidedFrames = 0;
  for (int frame = 0; frame < walk.frameCount(); ++frame) {
    const double t = walk.startTime + frame / walk.frameRate;
    Pose solved = test::sampledPose(skeleton, walk, t);
    ASSERT_TRUE(rig->solve(solved, t, &walk));
    bool decided = true;
    for (bool left : {true, false}) {
      const float planted = rig->footReport(left).planted;
      decided = decided && (planted == 0.0f || planted == 1.0f);
    }
    if (!decided) continue;
    ++decidedFrames;
    const std::vector<Affine> once = localToModel(skeleton, solved);
    Pose again = solved;
    ASSERT_TRUE(rig->solve(again, t, &walk));
    const std::vector<Affine> twice = localToModel(skeleton, again);
    for (std::size_t j = 0; j < once.size(); ++j)
      worst = std::max(worst, (once[j].translation() - twice[j].translation()).norm());
  }
  EXPECT_GT(decidedFrames, walk.frameCount() / 2);
  EXPECT_LE(worst, 5e-4f);
}


// Largest joint distance between the rig's solve of each frame and its solve of that result
// (what Key Pose keys and the rig then solves again), over the frames of `clip`.
float worstResolve(const Skeleton& skeleton, Rig& rig, const Clip& clip) {
  float worst = 0.0f;
  for (int frame = 0; frame < clip.frameCount(); ++frame) {
    const double t = clip.startTime + frame / clip.frameRate;
    Pose solved = test::sampledPose(skeleton, clip, t);
    EXPECT_TRUE(rig.solve(solved, t, &clip));
    const std::vector<Affine> once = localToModel(skeleton, solved);
    Pose again = solved;
    EXPECT_TRUE(rig.solve(again, t, &clip));
    const std::vector<Affine> twice = localToModel(skeleton, again);
    for (std::size_t j = 0; j < once.size(); ++j)
      worst = std::max(worst, (once[j].translation() - twice[j].translation()).norm());
  }
  return worst;
}

// Issue 35: a pose solved on a frame where the stride curve blends planted and free (its
// ramps, detected on the robot's Walking) and solved again stays within 0.1 mm: the blend
// caps the foot's height over the ground, which the capped foot already meets (it moved the
// foot 8.1 mm further down on each solve, a blend of a blend).
TEST(Grounding, ARealWalkSolvedAgainStaysWhereItIsOnEveryFrame) {
  auto robot = robotWalk();
  ASSERT_TRUE(robot);
  const Skeleton& skeleton = robot->scene.skeleton;
  Clip walk = *robot->walk;
  auto feet = humanoidFeet(skeleton);
  ASSERT_TRUE(feet.ok()) << feet.error();
  ASSERT_TRUE(detectContacts(robot->scene, walk, *feet).ok());
  int blending = 0;
  for (int frame = 0; frame < walk.frameCount(); ++frame) {
    const double value = walk.curves.at("contact.left_foot").evaluate(walk.startTime + frame / walk.frameRate);
    if (value > 0.0 && value < 1.0) ++blending;
  }
  ASSERT_GT(blending, 0) << "the stride curve has ramps";
  const float worst = worstResolve(skeleton, robot->rig, walk);
  const float height = robot->scene.characterHeight();
  std::printf("robot Walking with stride curves: solved again moves a joint by %.4f mm at 1.75 m\n",
              worst / height * 1750.0f);
  EXPECT_LE(worst, 1e-4f * height / 1.75f);
}


// CMU 02_01 retargeted onto the robot as the editor's Animation ▸ Retarget… does it by
// default (no planted feet), appended to the robot's clips; nullopt when a step fails.
std::optional<Clip> retargetedOntoRobot(const Scene& robot) {
  auto capture = importScene(std::string(ARTICULA_TEST_DATA_DIR) + "/bvh/cmu-mb-2010/02_01.bvh");
  if (!capture) return std::nullopt;
  auto standing = standUpright(std::move(*capture));
  if (!standing) return std::nullopt;
  const Scene& source = standing->scene;
  auto sourceMap = mapHumanoid(source.skeleton);
  auto robotMap = mapHumanoid(robot.skeleton);
  if (!sourceMap || !robotMap) return std::nullopt;
  RetargetClipOptions options;
  options.toleranceModel = kDefaultToleranceOfHeight * robot.characterHeight();
  auto clip = retargetClip(source, *sourceMap, source.clips.front(), robot, *robotMap, options);
  if (!clip) return std::nullopt;
  return std::move(*clip);
}

// Issue 35: without stride curves (no Detect Contacts) a solved pose solved again stays within
// 0.1 mm at 1.75 m on every frame of the robot's Walking and Running and of CMU 02_01
// retargeted onto it: the floor only holds a foot up, which a foot already on or above it
// meets again (a foot near the floor was pulled down by a blend of its own height, which the
// pulled foot then changed: 64 mm on the next solve).
TEST(Grounding, WithoutStrideCurvesASolvedPoseSolvedAgainStaysWhereItIs) {
  auto robot = robotWalk();
  ASSERT_TRUE(robot);
  const Skeleton& skeleton = robot->scene.skeleton;
  const float height = robot->scene.characterHeight();
  std::vector<Clip> clips;
  for (const Clip& clip : robot->scene.clips) {
    if (clip.name == "Walking" || clip.name == "Running") clips.push_back(clip);
  }
  ASSERT_EQ(clips.size(), 2u);
  auto retargeted = retargetedOntoRobot(robot->scene);
  ASSERT_TRUE(retargeted);
  clips.push_back(std::move(*retargeted));
  for (const Clip& clip : clips) {
    ASSERT_FALSE(clip.curves.contains("contact.left_foot")) << clip.name;
    const float worst = worstResolve(skeleton, robot->rig, clip);
    std::printf("robot %s without stride curves: solved again moves a joint by %.4f mm at 1.75 m\n",
                clip.name.c_str(), worst / height * 1750.0f);
    EXPECT_LE(worst, 1e-4f * height / 1.75f) << clip.name;
  }
}

// Issue 35: RobotExpressive's shoes are IK-foot bones beside the legs (Foot.L/.R under the
// armature's root, not under the shins). When the rig moves a leg, its shoe goes with the
// solved ankle: the shoe keeps the place and turn it had on the shin's tail in the clip
// (before, the shin separated from the shoe, which stayed behind and sank 9.5 cm).
TEST(Grounding, TheRobotsShoesFollowTheSolvedLegs) {
  auto robot = robotWalk();
  ASSERT_TRUE(robot);
  const Skeleton& skeleton = robot->scene.skeleton;
  const float height = robot->scene.characterHeight();
  float worstApart = 0.0f, worstDip = 0.0f;
  for (const char* leg : {"left_leg", "right_leg"}) {
    const IkHandle& handle = test::handleNamed(robot->rig.definition(), leg);
    ASSERT_FALSE(handle.chain.empty());
    const int tip = handle.chain.back();
    const int shoe = skeleton.findJoint(std::string(leg) == "left_leg" ? "Foot.L" : "Foot.R");
    ASSERT_GE(shoe, 0);
    for (int frame = 0; frame < robot->walk->frameCount(); ++frame) {
      const double t = robot->walk->startTime + frame / robot->walk->frameRate;
      const Pose input = test::sampledPose(skeleton, *robot->walk, t);
      Pose solved = input;
      ASSERT_TRUE(robot->rig.solve(solved, t, robot->walk));
      const std::vector<Affine> before = localToModel(skeleton, input);
      const std::vector<Affine> after = localToModel(skeleton, solved);
      const auto at = [](const std::vector<Affine>& model, int joint) { return model[static_cast<std::size_t>(joint)]; };
      // The shoe in the shin tail's frame: as in the clip.
      const Affine shoeOnTipBefore = at(before, tip).inverse() * at(before, shoe);
      worstApart = std::max(worstApart, (at(after, tip) * shoeOnTipBefore.translation() -
                                         at(after, shoe).translation()).norm());
      worstDip = std::max(worstDip, at(after, tip).translation().y() - at(before, tip).translation().y() -
                                        (at(after, shoe).translation().y() - at(before, shoe).translation().y()));
    }
  }
  std::printf("robot Walking: shoe off its shin tail by %.4f (height %.3f), shoe below the shin's move by %.4f\n",
              worstApart, height, worstDip);
  EXPECT_LE(worstApart, 1e-4f * height);
}

// Issue 35, item 4: foot roll as a reverse-foot rig's. On the mannequin's walk, a planted
// foot rolled 25° lifts the heel about the ball, which stays on its spot; past the toe break
// (40°) the ball rises too, about the toe tip; a roll of −20° lifts the toes about the heel.
// The roll is a handle curve (ik.left_leg.roll), keyed like the others.
TEST(Grounding, FootRollPivotsAboutTheBallTheToeTipOrTheHeel) {
  const Scene mannequin = makeMannequin();
  const Skeleton& skeleton = mannequin.skeleton;
  auto definition = buildHumanoidRig(skeleton);
  ASSERT_TRUE(definition.ok()) << definition.error();
  auto rig = Rig::bind(skeleton, *definition);
  auto ground = Ground::plane(Vec3::Zero(), Vec3::UnitY());
  ASSERT_TRUE(rig.ok() && ground.ok());
  rig->setGround(std::move(ground).value());
  Clip walk = mannequin.clips.front();
  const int leg = rig->findHandle("left_leg");
  const int ankle = rig->handle(leg).chain.back();
  const int ball = rig->definition().grounding.left.toe;
  ASSERT_GE(ball, 0);
  const int toeTip = skeleton.children(ball).empty() ? -1 : skeleton.children(ball).front();
  ASSERT_GE(toeTip, 0);
  double planted = -1.0;
  for (int frame = 0; frame < walk.frameCount() && planted < 0.0; ++frame) {
    const double t = walk.startTime + frame / walk.frameRate;
    if (walk.curves.at("contact.left_foot").evaluate(t) >= 1.0) planted = t;
  }
  ASSERT_GE(planted, 0.0);
  const auto solvedWithRoll = [&](double rollDeg) {
    walk.curves[handleCurveName("left_leg", "roll")] = test::constantCurve(rollDeg * kPi / 180.0);
    Pose pose = test::sampledPose(skeleton, walk, planted);
    EXPECT_TRUE(rig->solve(pose, planted, &walk));
    return localToModel(skeleton, pose);
  };
  const auto flat = solvedWithRoll(0.0);
  const auto at = [](const std::vector<Affine>& model, int joint) {
    return Vec3(model[static_cast<std::size_t>(joint)].translation());
  };
  const auto heelUp = solvedWithRoll(25.0);
  EXPECT_LE((at(heelUp, ball) - at(flat, ball)).norm(), 1e-3f) << "the ball stays on its spot";
  EXPECT_GT(at(heelUp, ankle).y() - at(flat, ankle).y(), 0.02f) << "the heel is lifted";
  EXPECT_LE(rig->reports()[static_cast<std::size_t>(leg)].errorModel, 1e-3f) << "the leg reaches the rolled ankle";
  const auto onToes = solvedWithRoll(60.0);
  EXPECT_LE((at(onToes, toeTip) - at(flat, toeTip)).norm(), 1e-3f) << "past the break the toe tip stays";
  EXPECT_GT(at(onToes, ball).y() - at(flat, ball).y(), 0.005f) << "and the ball rises";
  const auto toesUp = solvedWithRoll(-20.0);
  EXPECT_GT(at(toesUp, toeTip).y() - at(flat, toeTip).y(), 0.02f) << "the toes are lifted";
  const float ankleHeight = rig->definition().grounding.left.ankleHeight;
  const Vec3 heel = at(flat, ankle) - Vec3::UnitY() * ankleHeight;
  EXPECT_NEAR((at(toesUp, ankle) - heel).norm(), ankleHeight, 1e-3f) << "about the heel under the ankle";
  EXPECT_NEAR(at(toesUp, ankle).y() - heel.y(), ankleHeight * std::cos(20.0f * kPi / 180.0f), 1e-3f) << "by 20°";
}

}  // namespace
}  // namespace articula
