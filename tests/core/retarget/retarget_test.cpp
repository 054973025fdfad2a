#include "core/retarget/retarget.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "core/bake/leading_rest_frame.h"
#include "core/io/import.h"
#include "core/retarget/retarget_clip.h"
#include "core/retarget/retarget_frame.h"
#include "core/rig/humanoid_map.h"
#include "core/samples/mannequin.h"
#include "core/skeleton/local_to_model.h"

namespace articula {
namespace {

constexpr float kDegree = 3.14159265f / 180.0f;

// Model matrices of `skeleton` at every frame of `dense` (rest pose under the tracks).
std::vector<std::vector<Affine>> modelFrames(const Skeleton& skeleton, const DenseClip& dense) {
  std::vector<Transform> pose(skeleton.restPose().begin(), skeleton.restPose().end());
  std::vector<std::vector<Affine>> frames;
  for (int f = 0; f < dense.frames; ++f) {
    dense.samplePose(f, pose);
    frames.push_back(localToModel(skeleton, pose));
  }
  return frames;
}

std::vector<std::vector<Affine>> modelFrames(const Skeleton& skeleton, const Clip& clip) {
  return modelFrames(skeleton, sampleDense(skeleton, clip, 0, clip.frameCount() - 1));
}

// `skeleton` under a new root node with `rootLocal` (an armature's units and up axis).
Skeleton underRoot(const Skeleton& skeleton, const Transform& rootLocal) {
  Skeleton out;
  out.addJoint("Armature", kNoParent, rootLocal);
  for (int j = 0; j < skeleton.jointCount(); ++j) {
    const int parent = skeleton.parent(j);
    out.addJoint(skeleton.name(j), parent == kNoParent ? 0 : parent + 1, skeleton.restLocal(j), skeleton.kind(j));
  }
  return out;
}

Result<DenseClip> retarget(const Skeleton& source, const Clip& clip, const Skeleton& target) {
  auto sourceMap = mapHumanoid(source);
  auto targetMap = mapHumanoid(target);
  if (!sourceMap) return makeError(sourceMap.error());
  if (!targetMap) return makeError(targetMap.error());
  return RetargetJob{&source, &clip, &*sourceMap, &target, &*targetMap}.run();
}

// CMU 02_01 (a walk starting on its T-pose) and the Quaternius robot, each with its humanoid
// map: the pair the retarget's hardest checks run on.
struct CmuOnRobot {
  Scene cmu, robot;
  HumanoidMap cmuMap, robotMap;
  const Clip& walk() const { return cmu.clips.front(); }
};

Result<CmuOnRobot> cmuOnRobot() {
  auto cmu = importScene(std::string(ARTICULA_TEST_DATA_DIR) + "/bvh/cmu-mb-2010/02_01.bvh");
  auto robot = importScene(std::string(ARTICULA_TEST_DATA_DIR) + "/gltf/RobotExpressive/RobotExpressive.glb");
  if (!cmu) return makeError(cmu.error());
  if (!robot) return makeError(robot.error());
  auto cmuMap = mapHumanoid(cmu->skeleton);
  auto robotMap = mapHumanoid(robot->skeleton);
  if (!cmuMap) return makeError(cmuMap.error());
  if (!robotMap) return makeError(robotMap.error());
  return CmuOnRobot{std::move(*cmu), std::move(*robot), *cmuMap, *robotMap};
}

Vec3 at(const std::vector<Affine>& model, int joint) { return model[static_cast<std::size_t>(joint)].translation(); }

float angleBetween(const Vec3& a, const Vec3& b) { return std::atan2(a.cross(b).norm(), a.dot(b)); }

// The limb bones of a map: (joint, next) pairs, for direction checks.
std::vector<std::pair<int, int>> limbBones(const HumanoidMap& map) {
  std::vector<std::pair<int, int>> bones;
  for (const HumanoidArm* arm : {&map.leftArm, &map.rightArm}) {
    bones.emplace_back(arm->upperArm, arm->forearm);
    bones.emplace_back(arm->forearm, arm->hand);
  }
  for (const HumanoidLeg* leg : {&map.leftLeg, &map.rightLeg}) {
    bones.emplace_back(leg->thigh, leg->knee);
    bones.emplace_back(leg->knee, leg->legTip);
  }
  return bones;
}

// Every limb bone of the target points as the source's, carried into the target's model
// space, on every frame; returns the largest angle between them.
float largestLimbAngle(const Skeleton& source, const Clip& clip, const Skeleton& target, const DenseClip& out) {
  const HumanoidMap sourceMap = *mapHumanoid(source);
  const HumanoidMap targetMap = *mapHumanoid(target);
  const Quat toTarget(characterFrame(targetMap, localToModel(target, target.restPose())) *
                      characterFrame(sourceMap, localToModel(source, source.restPose())).transpose());
  const auto sourceFrames = modelFrames(source, clip);
  const auto targetFrames = modelFrames(target, out);
  const auto sourceBones = limbBones(sourceMap);
  const auto targetBones = limbBones(targetMap);
  float worst = 0.0f;
  for (std::size_t f = 0; f < targetFrames.size(); ++f) {
    for (std::size_t b = 0; b < sourceBones.size(); ++b) {
      const Vec3 s =
          toTarget * (at(sourceFrames[f], sourceBones[b].second) - at(sourceFrames[f], sourceBones[b].first));
      const Vec3 t = at(targetFrames[f], targetBones[b].second) - at(targetFrames[f], targetBones[b].first);
      worst = std::max(worst, angleBetween(s, t));
    }
  }
  return worst;
}

// Every joint of `actual` (target joint j + `offset`) where `toTarget` puts the source's,
// but for one vertical shift common to all frames: the floor, which the source's clip and
// the target's rest pose each place at their lowest foot joint. Returns the largest miss.
float largestMiss(const std::vector<std::vector<Affine>>& expected, const std::vector<std::vector<Affine>>& actual,
                  const Affine& toTarget, int offset, const Vec3& up, float& floorShift) {
  floorShift = up.dot(at(actual[0], offset) - toTarget * at(expected[0], 0));
  float worst = 0.0f;
  for (std::size_t f = 0; f < expected.size(); ++f) {
    for (std::size_t j = 0; j < expected[f].size(); ++j) {
      const Vec3 want = toTarget * at(expected[f], static_cast<int>(j)) + floorShift * up;
      worst = std::max(worst, (at(actual[f], static_cast<int>(j) + offset) - want).norm());
    }
  }
  return worst;
}

TEST(Retarget, OntoItsOwnSkeletonReproducesTheMotion) {
  const Scene mannequin = makeMannequin();
  const Clip& walk = mannequin.clips.front();
  auto out = retarget(mannequin.skeleton, walk, mannequin.skeleton);
  ASSERT_TRUE(out) << out.error();
  ASSERT_EQ(out->frames, walk.frameCount());
  float floorShift = 0.0f;
  const float miss = largestMiss(modelFrames(mannequin.skeleton, walk), modelFrames(mannequin.skeleton, *out),
                                 Affine::Identity(), 0, Vec3::UnitY(), floorShift);
  EXPECT_LT(miss, 1e-4f * mannequin.characterHeight());
  EXPECT_LT(std::abs(floorShift), 0.005f * mannequin.characterHeight());
}

// The same character in centimetres and Z-up (a root node turning and scaling it): every
// joint where the source's is, turned and scaled by the root.
TEST(Retarget, OntoACentimetreZUpCopyMovesEveryJointTheSame) {
  const Scene mannequin = makeMannequin();
  const Clip& walk = mannequin.clips.front();
  Transform zUpCentimetres;
  zUpCentimetres.rotation = Quat(Eigen::AngleAxisf(90.0f * kDegree, Vec3::UnitX()));
  zUpCentimetres.scale = Vec3::Constant(100.0f);
  const Skeleton target = underRoot(mannequin.skeleton, zUpCentimetres);
  auto out = retarget(mannequin.skeleton, walk, target);
  ASSERT_TRUE(out) << out.error();
  float floorShift = 0.0f;
  const float miss = largestMiss(modelFrames(mannequin.skeleton, walk), modelFrames(target, *out),
                                 zUpCentimetres.toAffine(), 1, Vec3::UnitZ(), floorShift);
  const float heightCm = 100.0f * mannequin.characterHeight();
  EXPECT_LT(miss, 1e-4f * heightCm);
  EXPECT_LT(std::abs(floorShift), 0.005f * heightCm);
}

// A target whose rest pose holds the arms down 45° (an A-pose) against a T-pose source:
// the arms still point where the source's do.
TEST(Retarget, AnAPoseTargetPointsItsLimbsAsTheTPoseSource) {
  const Scene mannequin = makeMannequin();
  const Clip& walk = mannequin.clips.front();
  Skeleton aPose = mannequin.skeleton;
  for (const char* name : {"LeftArm", "RightArm"}) {
    const int arm = aPose.findJoint(name);
    ASSERT_GE(arm, 0);
    Transform rest = aPose.restLocal(arm);
    const float side = name[0] == 'L' ? -1.0f : 1.0f;
    rest.rotation = Quat(Eigen::AngleAxisf(side * 45.0f * kDegree, Vec3::UnitZ())) * rest.rotation;
    aPose.setRestLocal(arm, rest);
  }
  auto out = retarget(mannequin.skeleton, walk, aPose);
  ASSERT_TRUE(out) << out.error();
  EXPECT_LT(largestLimbAngle(mannequin.skeleton, walk, aPose, *out), 0.5f * kDegree);
}

// A CMU capture (inches-like units, Y-up, 120 fps, T-pose rest) on the Quaternius robot
// (metres under a scaled armature, feet as IK bones beside the legs, 24 fps clips). The
// robot's head is 3.4° ahead of its hips at rest, CMU's is not: the hips' travel maps between
// the characters' grounds, so the robot walks CMU 02_01's floor (which rises 0.8 in 60 along
// the walk), not a slope of its own lean (mapped between the leaning frames, its hips rose
// 0.43 over 6.2 of travel: 4.0° where the source climbs 0.77°).
TEST(Retarget, CmuWalkOnTheRobotKeepsItsLengthLimbDirectionsAndSlope) {
  const auto pair = cmuOnRobot();
  ASSERT_TRUE(pair) << pair.error();
  const Clip& walk = pair->walk();
  auto out = retarget(pair->cmu.skeleton, walk, pair->robot.skeleton);
  ASSERT_TRUE(out) << out.error();
  EXPECT_EQ(out->frames, walk.frameCount());
  EXPECT_DOUBLE_EQ(out->frameRate, walk.frameRate);
  EXPECT_LT(largestLimbAngle(pair->cmu.skeleton, walk, pair->robot.skeleton, *out), 2.0f * kDegree);
  const auto source = modelFrames(pair->cmu.skeleton, walk);
  const auto target = modelFrames(pair->robot.skeleton, *out);
  // Both are Y-up in model space; rise along Y, travel across it, first frame to last.
  auto riseAndTravel = [](const std::vector<std::vector<Affine>>& frames, int hips) {
    const Vec3 d = at(frames.back(), hips) - at(frames.front(), hips);
    return std::pair<float, float>{d.y(), Vec3(d.x(), 0.0f, d.z()).norm()};
  };
  const auto [sourceRise, sourceTravel] = riseAndTravel(source, pair->cmuMap.hips);
  const auto [targetRise, targetTravel] = riseAndTravel(target, pair->robotMap.hips);
  ASSERT_GT(sourceTravel, 0.0f);
  // The slope the hips climb, as the source's within a quarter of a degree.
  EXPECT_NEAR(std::atan2(targetRise, targetTravel), std::atan2(sourceRise, sourceTravel), 0.25f * kDegree);
}

// With the robot's soles (its shoes' vertices, its floor under them at rest), every foot the
// capture plants stands on the robot's floor and no shoe goes below it: before, the hips
// placed by the legs' ratio held the planted shoes 0.2-0.4 units (of 4) above it.
TEST(Retarget, PlantedFeetStandOnTheTargetsFloor) {
  const auto pair = cmuOnRobot();
  ASSERT_TRUE(pair) << pair.error();
  const Clip& walk = pair->walk();
  const CharacterSoles soles = characterSoles(pair->robot, pair->robotMap);
  ASSERT_FALSE(soles.feet[0].empty());
  ASSERT_FALSE(soles.feet[1].empty());
  RetargetJob job{&pair->cmu.skeleton, &walk, &pair->cmuMap, &pair->robot.skeleton, &pair->robotMap};
  job.targetSoles = &soles;
  auto out = job.run();
  ASSERT_TRUE(out) << out.error();
  const auto planted = plantedFrames(pair->cmu.skeleton, pair->cmuMap, walk, Vec3::UnitY());
  const auto frames = modelFrames(pair->robot.skeleton, *out);
  int plantedFeet = 0;
  float lowest = std::numeric_limits<float>::infinity();
  for (std::size_t f = 0; f < frames.size(); ++f) {
    for (std::size_t side = 0; side < 2; ++side) {
      float sole = std::numeric_limits<float>::infinity();
      for (const FootPoint& point : soles.feet[side]) sole = std::min(sole, soles.up.dot(point.at(frames[f])));
      sole -= soles.floorHeight;
      lowest = std::min(lowest, sole);
      if (!planted[side][f]) continue;
      ++plantedFeet;
      EXPECT_NEAR(sole, 0.0f, 1e-3f) << "side " << side << " frame " << f;
    }
  }
  EXPECT_GT(plantedFeet, walk.frameCount() / 2);
  EXPECT_GE(lowest, -1e-3f);
}

// `skeleton` with every joint's local frame turned by its own rotation (`turns[j]`, in the
// joint's frame) and its children's offsets and rotations compensated: the same shape at
// rest and under the same motion, with different joint orientations and rolls, as two
// tools rig one character. Model rotation j becomes model rotation j × turns[j].
Skeleton withTurnedFrames(const Skeleton& skeleton, const std::vector<Quat>& turns) {
  Skeleton out;
  for (int j = 0; j < skeleton.jointCount(); ++j) {
    const int parent = skeleton.parent(j);
    const Quat parentTurn = parent == kNoParent ? Quat::Identity() : turns[static_cast<std::size_t>(parent)];
    Transform rest = skeleton.restLocal(j);
    rest.translation = parentTurn.conjugate() * rest.translation;
    rest.rotation = (parentTurn.conjugate() * rest.rotation * turns[static_cast<std::size_t>(j)]).normalized();
    out.addJoint(skeleton.name(j), parent, rest, skeleton.kind(j));
  }
  return out;
}

// The angle of the rotation from `a` to `b`: direction and roll together.
float rotationAngle(const Quat& a, const Quat& b) { return 2.0f * std::acos(std::min(1.0f, std::abs(a.dot(b)))); }

// Issue 24: a target whose joints are oriented and rolled differently from the source's
// plays the motion with every mapped bone pointing and rolled as the source's: its model
// rotation is the source's times its own turn, on every frame.
TEST(Retarget, DifferentJointOrientationsAndRollsKeepEveryBonesDirectionAndRoll) {
  const Scene mannequin = makeMannequin();
  const Clip& walk = mannequin.clips.front();
  std::vector<Quat> turns;
  for (int j = 0; j < mannequin.skeleton.jointCount(); ++j) {
    // Arbitrary, large and different per joint.
    const Vec3 axis = Vec3(std::sin(1.7f * j + 0.3f), std::cos(2.3f * j), 0.5f + std::sin(0.9f * j)).normalized();
    turns.push_back(Quat(Eigen::AngleAxisf((40.0f + 23.0f * static_cast<float>(j % 7)) * kDegree, axis)));
  }
  const Skeleton turned = withTurnedFrames(mannequin.skeleton, turns);
  auto out = retarget(mannequin.skeleton, walk, turned);
  ASSERT_TRUE(out) << out.error();
  const HumanoidMap sourceMap = *mapHumanoid(mannequin.skeleton);
  const HumanoidMap targetMap = *mapHumanoid(turned);
  const auto pairs = pairRoles(sourceMap, targetMap);
  ASSERT_GE(pairs.size(), 20u);
  const auto sourceFrames = sampleDense(mannequin.skeleton, walk, 0, walk.frameCount() - 1);
  std::vector<Transform> sourcePose(mannequin.skeleton.restPose().begin(), mannequin.skeleton.restPose().end());
  std::vector<Transform> targetPose(turned.restPose().begin(), turned.restPose().end());
  float worst = 0.0f;
  for (int f = 0; f < out->frames; ++f) {
    sourceFrames.samplePose(f, sourcePose);
    out->samplePose(f, targetPose);
    const auto sourceModel = modelRotations(mannequin.skeleton, sourcePose);
    const auto targetModel = modelRotations(turned, targetPose);
    for (const auto& [s, t] : pairs) {
      const Quat expected = sourceModel[static_cast<std::size_t>(s)] * turns[static_cast<std::size_t>(t)];
      worst = std::max(worst, rotationAngle(expected, targetModel[static_cast<std::size_t>(t)]));
    }
  }
  EXPECT_LT(worst, 0.5f * kDegree) << worst / kDegree << " degrees";
}

// The arms' length of a map at rest: upper arm to forearm to hand, both sides' mean.
float armsAtRest(const Skeleton& skeleton, const HumanoidMap& map) {
  const auto rest = localToModel(skeleton, skeleton.restPose());
  float total = 0.0f;
  for (const HumanoidArm* arm : {&map.leftArm, &map.rightArm})
    total += (at(rest, arm->forearm) - at(rest, arm->upperArm)).norm() +
             (at(rest, arm->hand) - at(rest, arm->forearm)).norm();
  return 0.5f * total;
}

// Where each hand of `target` is from its hips against where the source's is from its
// hips, carried over and scaled by the arms: the largest miss over every frame and hand the
// arm can reach (the spot closer to the shoulder than 98 % of the arm), and how many such.
std::pair<float, int> largestHandMiss(const Skeleton& source, const Clip& clip, const Skeleton& target,
                                      const DenseClip& out) {
  const HumanoidMap sourceMap = *mapHumanoid(source);
  const HumanoidMap targetMap = *mapHumanoid(target);
  const Quat toTarget(characterFrame(targetMap, localToModel(target, target.restPose())) *
                      characterFrame(sourceMap, localToModel(source, source.restPose())).transpose());
  const float scale = armsAtRest(target, targetMap) / armsAtRest(source, sourceMap);
  const auto sourceFrames = modelFrames(source, clip);
  const auto targetFrames = modelFrames(target, out);
  float worst = 0.0f;
  int reachable = 0;
  for (std::size_t f = 0; f < targetFrames.size(); ++f) {
    const auto& s = sourceFrames[f];
    const auto& t = targetFrames[f];
    for (const auto& [sourceArm, targetArm] :
         {std::pair{sourceMap.leftArm, targetMap.leftArm}, std::pair{sourceMap.rightArm, targetMap.rightArm}}) {
      const Vec3 wanted = at(t, targetMap.hips) + scale * (toTarget * (at(s, sourceArm.hand) - at(s, sourceMap.hips)));
      const float reach = (at(t, targetArm.forearm) - at(t, targetArm.upperArm)).norm() +
                          (at(t, targetArm.hand) - at(t, targetArm.forearm)).norm();
      if ((wanted - at(t, targetArm.upperArm)).norm() > 0.98f * reach) continue;
      ++reachable;
      worst = std::max(worst, (at(t, targetArm.hand) - wanted).norm());
    }
  }
  return {worst, reachable};
}

// Issue 24, point 2 (hands reaching): CMU's walk on the robot, hands IK'd to the capture's
// hand positions from the hips scaled by the arms, land on them wherever the arm reaches;
// without it they do not (the robot's arms are shorter and its shoulders elsewhere).
TEST(Retarget, HandsReachForTheSourcesHandsScaledByTheArms) {
  const auto pair = cmuOnRobot();
  ASSERT_TRUE(pair) << pair.error();
  const Clip& walk = pair->walk();
  const Skeleton& cmu = pair->cmu.skeleton;
  const Skeleton& robot = pair->robot.skeleton;
  RetargetJob job{&cmu, &walk, &pair->cmuMap, &robot, &pair->robotMap};
  auto free = job.run();
  job.handsReach = true;
  auto reaching = job.run();
  ASSERT_TRUE(free && reaching) << (free ? reaching.error() : free.error());
  const float arms = armsAtRest(robot, pair->robotMap);
  const auto [missReaching, reachable] = largestHandMiss(cmu, walk, robot, *reaching);
  const float missFree = largestHandMiss(cmu, walk, robot, *free).first;
  EXPECT_GE(reachable, walk.frameCount()) << "most hands can reach";
  EXPECT_LT(missReaching, 1e-3f * arms);
  EXPECT_GT(missFree, 0.05f * arms) << "the test would see a hand that does not reach";
}

// CMU's captures start with their calibration T-pose for one frame; other clips, and a CMU
// take started one frame later, do not.
TEST(Retarget, ACapturesTPoseFirstFrameIsFound) {
  for (const char* file : {"bvh/cmu-mb-2010/02_01.bvh", "bvh/cmu-mb-2010/09_11.bvh", "bvh/cmu-mb-2008/01_01.bvh"}) {
    auto take = importScene(std::string(ARTICULA_TEST_DATA_DIR) + "/" + file);
    ASSERT_TRUE(take) << take.error();
    Clip& clip = take->clips.front();
    EXPECT_TRUE(leadsWithRestFrame(take->skeleton, clip)) << file;
    clip.startTime = clip.timeOf(1);
    EXPECT_FALSE(leadsWithRestFrame(take->skeleton, clip)) << file << " from its second frame";
  }
  for (const char* file : {"bvh/makehuman/walk1.bvh", "gltf/RobotExpressive/RobotExpressive.glb"}) {
    auto scene = importScene(std::string(ARTICULA_TEST_DATA_DIR) + "/" + file);
    ASSERT_TRUE(scene) << scene.error();
    for (const Clip& clip : scene->clips) EXPECT_FALSE(leadsWithRestFrame(scene->skeleton, clip)) << clip.name;
  }
  const Scene mannequin = makeMannequin();
  EXPECT_FALSE(leadsWithRestFrame(mannequin.skeleton, mannequin.clips.front()));
}

// Without its first frame, the walk on the robot is the whole walk's frames from the second
// on, each joint turned as there, starting at the source's start time.
TEST(Retarget, TheFirstFrameLeftOutStartsTheClipAtTheSecond) {
  const auto pair = cmuOnRobot();
  ASSERT_TRUE(pair) << pair.error();
  const Clip& walk = pair->walk();
  const Skeleton& robot = pair->robot.skeleton;
  RetargetJob job{&pair->cmu.skeleton, &walk, &pair->cmuMap, &robot, &pair->robotMap};
  auto whole = job.run();
  job.skipFirstFrame = true;
  auto skipped = job.run();
  ASSERT_TRUE(whole && skipped);
  ASSERT_EQ(skipped->frames, whole->frames - 1);
  EXPECT_DOUBLE_EQ(skipped->startTime, walk.startTime);
  std::vector<Transform> fromWhole(robot.restPose().begin(), robot.restPose().end());
  std::vector<Transform> fromSkipped = fromWhole;
  for (int f = 0; f < skipped->frames; f += 7) {
    whole->samplePose(f + 1, fromWhole);
    skipped->samplePose(f, fromSkipped);
    for (int j = 0; j < robot.jointCount(); ++j) {
      const auto i = static_cast<std::size_t>(j);
      ASSERT_LT(fromWhole[i].rotation.angularDistance(fromSkipped[i].rotation), 1e-4f)
          << "frame " << f << " joint " << j;
    }
  }

  Clip onePose = walk;
  onePose.endTime = onePose.startTime;
  job.sourceClip = &onePose;
  auto refused = job.run();
  ASSERT_FALSE(refused);
  EXPECT_NE(refused.error().find("has one frame"), std::string::npos) << refused.error();
}

TEST(Retarget, BadInputIsRefusedWithAReason) {
  const Scene mannequin = makeMannequin();
  const HumanoidMap map = *mapHumanoid(mannequin.skeleton);
  Clip empty;
  empty.name = "empty";
  RetargetJob job{&mannequin.skeleton, &empty, &map, &mannequin.skeleton, &map};
  auto out = job.run();
  ASSERT_FALSE(out);
  EXPECT_NE(out.error().find("'empty' is empty"), std::string::npos) << out.error();

  HumanoidMap broken = map;
  broken.leftLeg.knee = mannequin.skeleton.jointCount() + 5;
  job = RetargetJob{&mannequin.skeleton, &mannequin.clips.front(), &map, &mannequin.skeleton, &broken};
  out = job.run();
  ASSERT_FALSE(out);
  EXPECT_NE(out.error().find("target's humanoid map"), std::string::npos) << out.error();
  EXPECT_NE(out.error().find("leftKnee"), std::string::npos) << out.error();

  // A map without a leg and a chest (a role file edited by hand): every missing role named.
  HumanoidMap noLeftLeg = map;
  noLeftLeg.leftLeg = HumanoidLeg{};
  noLeftLeg.chest = -1;
  job = RetargetJob{&mannequin.skeleton, &mannequin.clips.front(), &noLeftLeg, &mannequin.skeleton, &map};
  out = job.run();
  ASSERT_FALSE(out);
  EXPECT_EQ(out.error(), "retarget: the source's humanoid map misses chest, leftThigh, leftKnee, leftLegTip");
  job.targetMap = nullptr;
  EXPECT_EQ(job.run().error(), "retarget: no humanoid map");
}

}  // namespace
}  // namespace articula
