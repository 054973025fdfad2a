#include <gtest/gtest.h>

#include <cmath>

#include "core/clipops/in_place.h"
#include "core/clipops/loop.h"
#include "core/clipops/root_motion.h"
#include "core/clipops/scene_ops.h"
#include "core/io/import.h"
#include "core/skeleton/local_to_model.h"

namespace articula {
namespace {

Scene load(const std::string& relative) {
  auto scene = importScene(std::string(ARTICULA_TEST_DATA_DIR) + "/" + relative);
  EXPECT_TRUE(scene.ok()) << relative << ": " << (scene.ok() ? "" : scene.error());
  return scene.ok() ? std::move(*scene) : Scene{};
}

const char* const kCmuWalk = "bvh/cmu-mb-2010/02_01.bvh";
const char* const kMakeHumanWalk = "bvh/makehuman/walk1.bvh";  // Z-up, decimetres
const char* const kRobot = "gltf/RobotExpressive/RobotExpressive.glb";

// Model-space position of every joint (by name) at every frame of `clip`.
std::vector<std::map<std::string, Vec3>> positions(const Skeleton& skeleton, const Clip& clip) {
  std::vector<std::map<std::string, Vec3>> frames;
  ClipSampler sampler(&clip);
  Pose pose(skeleton.restPose().begin(), skeleton.restPose().end());
  for (int f = 0; f < clip.frameCount(); ++f) {
    sampler.sample(clip.timeOf(f), pose);
    const std::vector<Affine> model = localToModel(skeleton, pose);
    auto& byName = frames.emplace_back();
    for (int j = 0; j < skeleton.jointCount(); ++j) byName[skeleton.name(j)] = model[std::size_t(j)].translation();
  }
  return frames;
}

// Largest distance (mm at 1.75 m) of a joint both hold between two samplings; `upToDrop`
// leaves out that axis (model space) of every difference.
double largestMoveMm(const std::vector<std::map<std::string, Vec3>>& a,
                     const std::vector<std::map<std::string, Vec3>>& b, float heightModel) {
  double largest = 0.0;
  EXPECT_EQ(a.size(), b.size());
  for (std::size_t f = 0; f < std::min(a.size(), b.size()); ++f) {
    for (const auto& [name, p] : a[f]) {
      const auto it = b[f].find(name);
      if (it != b[f].end()) largest = std::max(largest, double((it->second - p).norm()));
    }
  }
  return largest * 1750.0 / heightModel;
}

TravelFrame travelFrame(const Scene& scene) {
  auto frame = humanoidTravelFrame(scene.skeleton);
  EXPECT_TRUE(frame.ok()) << (frame.ok() ? "" : frame.error());
  return frame.ok() ? *frame : TravelFrame{};
}

// The hips' (or `joint`'s) model position projected on the ground, per frame.
std::vector<Vec3> groundTrack(const Scene& scene, const Clip& clip, const std::string& joint, const Mat3& ground) {
  std::vector<Vec3> track;
  const Vec3 up = ground.col(1);
  for (const auto& frame : positions(scene.skeleton, clip)) {
    const Vec3 p = frame.at(joint);
    track.push_back(p - up * up.dot(p));
  }
  return track;
}

Clip* clipNamed(Scene& scene, const std::string& name) {
  for (Clip& clip : scene.clips) {
    if (clip.name == name) return &clip;
  }
  ADD_FAILURE() << "no clip " << name;
  return nullptr;
}

TEST(ClipOps, DefaultJobsAreInvalid) {
  EXPECT_TRUE(RootMotionJob{}.validate().has_value());
  EXPECT_TRUE(FoldRootMotionJob{}.validate().has_value());
  EXPECT_TRUE(InPlaceJob{}.validate().has_value());
  EXPECT_TRUE(MakeCyclicJob{}.validate().has_value());
  EXPECT_FALSE(RootMotionJob{}.run().ok());
  EXPECT_FALSE(MakeCyclicJob{}.run().ok());
}

TEST(ClipOps, TravelAxesParseTheGroundLetters) {
  auto xz = parseTravelAxes("zx");
  ASSERT_TRUE(xz.ok());
  EXPECT_TRUE(xz->x && xz->z && !xz->y && !xz->yaw);
  EXPECT_FALSE(parseTravelAxes("xx").ok());
  EXPECT_FALSE(parseTravelAxes("xw").ok());
  EXPECT_FALSE(parseTravelAxes("").ok());
}

// The root takes the hips' ground travel; every joint stays where it was in model space.
void expectRootTakesTheTravel(const char* file, const TravelAxes& axes) {
  SCOPED_TRACE(file);
  Scene scene = load(file);
  const TravelFrame frame = travelFrame(scene);
  const std::string hipsName = scene.skeleton.name(frame.hips);
  const auto before = positions(scene.skeleton, scene.clips.front());
  const auto hipsGround = groundTrack(scene, scene.clips.front(), hipsName, frame.groundModel);
  ASSERT_FALSE(extractRootMotion(scene, {"root", axes, ""}).has_value());
  const int root = scene.skeleton.findJoint("root");
  ASSERT_GE(root, 0);
  EXPECT_EQ(scene.skeleton.parent(scene.skeleton.findJoint(hipsName)), root);
  const Clip& clip = scene.clips.front();
  EXPECT_LT(largestMoveMm(before, positions(scene.skeleton, clip), frame.heightModel), 0.01);
  const auto rootGround = groundTrack(scene, clip, "root", frame.groundModel);
  const double mm = 1750.0 / frame.heightModel;
  double largest = 0.0;
  for (std::size_t f = 0; f < rootGround.size(); ++f)
    largest = std::max(largest, double((rootGround[f] - hipsGround[f]).norm()));
  EXPECT_LT(largest * mm, 1.0) << "root off the hips' ground track";
  // Without height the root stays on the ground plane through the model's origin.
  double height = 0.0;
  for (const auto& p : positions(scene.skeleton, clip))
    height = std::max(height, double(std::abs(frame.groundModel.col(1).dot(p.at("root")))));
  if (!axes.y) {
    EXPECT_LT(height * mm, 1e-3);
  }
}

TEST(ClipOps, RootMotionMovesTheCmuWalksTravelOntoANewRoot) {
  expectRootTakesTheTravel(kCmuWalk, {});
  expectRootTakesTheTravel(kCmuWalk, {true, true, true, true});
}

TEST(ClipOps, RootMotionOfAZUpCaptureStaysOnItsGround) {
  expectRootTakesTheTravel(kMakeHumanWalk, {});
  expectRootTakesTheTravel(kMakeHumanWalk, {true, true, true, true});
}

TEST(ClipOps, FoldingTheRootBackRestoresTheHips) {
  Scene scene = load(kCmuWalk);
  const float height = travelFrame(scene).heightModel;
  const auto before = positions(scene.skeleton, scene.clips.front());
  ASSERT_FALSE(extractRootMotion(scene, {"root", {true, true, true, true}, ""}).has_value());
  ASSERT_FALSE(foldRootMotion(scene, "root", "").has_value());
  const Clip& clip = scene.clips.front();
  EXPECT_EQ(clip.findTrack(scene.skeleton.findJoint("root")), nullptr);
  EXPECT_LT(largestMoveMm(before, positions(scene.skeleton, clip), height), 0.01);
  const Transform hips = [&] {
    Pose pose(scene.skeleton.restPose().begin(), scene.skeleton.restPose().end());
    ClipSampler(&clip).sample(clip.timeOf(100), pose);
    return pose[std::size_t(scene.skeleton.findJoint("Hips"))];
  }();
  Scene original = load(kCmuWalk);
  Pose pose(original.skeleton.restPose().begin(), original.skeleton.restPose().end());
  ClipSampler(&original.clips.front()).sample(original.clips.front().timeOf(100), pose);
  EXPECT_LT((hips.translation - pose[std::size_t(original.skeleton.findJoint("Hips"))].translation).norm(), 1e-3f);
}

TEST(ClipOps, RootMotionKeepsTheRobotsSkinAndItsOtherClips) {
  Scene scene = load(kRobot);
  const TravelFrame frame = travelFrame(scene);
  const std::string hipsName = scene.skeleton.name(frame.hips);
  Clip* walking = clipNamed(scene, "Walking");
  ASSERT_NE(walking, nullptr);
  const auto before = positions(scene.skeleton, *walking);
  ASSERT_FALSE(extractRootMotion(scene, {"root", {}, "Walking"}).has_value());
  EXPECT_LT(largestMoveMm(before, positions(scene.skeleton, *clipNamed(scene, "Walking")), frame.heightModel), 0.01);
  EXPECT_EQ(scene.skeleton.validate(), std::nullopt);
  const int root = scene.skeleton.findJoint("root");
  for (const Mesh& mesh : scene.meshes) {
    for (const int joint : mesh.skin.joints) EXPECT_LT(joint, scene.skeleton.jointCount());
    const bool skinsHips =
        std::count(mesh.skin.joints.begin(), mesh.skin.joints.end(), scene.skeleton.findJoint(hipsName));
    EXPECT_EQ(skinsHips, std::count(mesh.skin.joints.begin(), mesh.skin.joints.end(), root) == 1) << mesh.name;
  }
  for (const Clip& clip : scene.clips) EXPECT_EQ(clip.validate(scene.skeleton.jointCount()), std::nullopt) << clip.name;
}

// In place: the travel joint ends where it starts (the drift per cycle) and keeps its height.
void expectInPlace(const char* file, const std::string& clipName) {
  SCOPED_TRACE(file);
  Scene scene = load(file);
  const TravelFrame frame = travelFrame(scene);
  const std::string hipsName = scene.skeleton.name(frame.hips);
  Clip* clip = clipName.empty() ? &scene.clips.front() : clipNamed(scene, clipName);
  ASSERT_NE(clip, nullptr);
  const std::string name = clip->name;
  const auto heightBefore = positions(scene.skeleton, *clip);
  ASSERT_FALSE(makeInPlace(scene, {}, name).has_value());
  clip = clipNamed(scene, name);
  const auto track = groundTrack(scene, *clip, hipsName, frame.groundModel);
  const double mm = 1750.0 / frame.heightModel;
  EXPECT_LT((track.back() - track.front()).norm() * mm, 1.0) << "hips drift per cycle";
  if (scene.skeleton.parent(frame.hips) == kNoParent) {
    EXPECT_LT(track.front().norm() * mm, 1.0) << "the hips start over the origin";
  }
  const auto after = positions(scene.skeleton, *clip);
  const Vec3 up = frame.groundModel.col(1);
  double heightChange = 0.0;
  for (std::size_t f = 0; f < after.size(); ++f)
    heightChange =
        std::max(heightChange, double(std::abs(up.dot(after[f].at(hipsName) - heightBefore[f].at(hipsName)))));
  EXPECT_LT(heightChange * mm, 0.01);
  // The whole body moves with its hips, so a foot planted in the source stays planted on a
  // ground moving under it at one speed (the treadmill), which the hips' shift is.
  double offTreadmill = 0.0;
  for (std::size_t f = 0; f < after.size(); ++f) {
    const Vec3 shift = after[f].at(hipsName) - heightBefore[f].at(hipsName);
    const Vec3& expected = shift;
    for (const auto& [joint, p] : after[f]) {
      if (scene.skeleton.isAncestorOrSelf(scene.skeleton.findJoint(hipsName), scene.skeleton.findJoint(joint)))
        offTreadmill = std::max(offTreadmill, double((p - heightBefore[f].at(joint) - expected).norm()));
    }
  }
  EXPECT_LT(offTreadmill * mm, 0.01);
  // ... and that shift runs at one speed: the same step every frame.
  const Vec3 step =
      (after[1].at(hipsName) - heightBefore[1].at(hipsName)) - (after[0].at(hipsName) - heightBefore[0].at(hipsName));
  double unevenStep = 0.0;
  for (std::size_t f = 1; f < after.size(); ++f) {
    const Vec3 s = (after[f].at(hipsName) - heightBefore[f].at(hipsName)) -
                   (after[f - 1].at(hipsName) - heightBefore[f - 1].at(hipsName));
    unevenStep = std::max(unevenStep, double((s - step).norm()));
  }
  EXPECT_LT(unevenStep * mm, 0.01);
}

TEST(ClipOps, InPlaceLeavesTheCmuWalkOnATreadmill) { expectInPlace(kCmuWalk, ""); }
TEST(ClipOps, InPlaceKeepsTheRobotsWalkingCycleInPlace) { expectInPlace(kRobot, "Walking"); }
TEST(ClipOps, InPlaceOfAZUpCaptureKeepsItsHeight) { expectInPlace(kMakeHumanWalk, ""); }

// The robot's IK feet sit beside its legs under the same root bone as its pelvis: in place
// takes a travel added to the pelvis and the feet alike back out of both.
TEST(ClipOps, InPlaceCarriesTheRobotsIkFeet) {
  Scene scene = load(kRobot);
  const TravelFrame frame = travelFrame(scene);
  Clip* walking = clipNamed(scene, "Walking");
  ASSERT_NE(walking, nullptr);
  const auto original = positions(scene.skeleton, *walking);
  const Mat3 ground = groundInParentSpace(scene.skeleton, frame.hips, frame.groundModel);
  const Vec3 travelPerSecond = ground.col(2) * frame.heightModel * 0.8f;  // walking pace
  std::vector<int> travelling;
  for (const int j : scene.skeleton.children(scene.skeleton.parent(frame.hips))) {
    const JointTrack* track = walking->findTrack(j);
    if (track != nullptr && !track->translation.empty()) travelling.push_back(j);
  }
  ASSERT_GE(travelling.size(), 3u) << "the pelvis and both IK feet";
  const auto samples = sampleJoints(scene.skeleton, *walking, travelling);
  for (std::size_t k = 0; k < travelling.size(); ++k) {
    std::vector<Transform> moved;
    for (std::size_t f = 0; f < samples.size(); ++f) {
      moved.push_back(samples[f][k]);
      moved.back().translation += travelPerSecond * float(walking->timeOf(int(f)) - walking->startTime);
    }
    writePerFrame(*walking, travelling[k], moved);
  }
  ASSERT_FALSE(makeInPlace(scene, {}, "Walking").has_value());
  // Back where they were, but for the start's ground offset the in-place clip takes away.
  const auto after = positions(scene.skeleton, *clipNamed(scene, "Walking"));
  const Vec3 offset = after[0].at("Foot.L") - original[0].at("Foot.L");
  double largest = 0.0;
  for (std::size_t f = 0; f < after.size(); ++f) {
    for (const int j : travelling) {
      const std::string& name = scene.skeleton.name(j);
      largest = std::max(largest, double((after[f].at(name) - original[f].at(name) - offset).norm()));
    }
  }
  EXPECT_LT(largest * 1750.0 / frame.heightModel, 0.05);
  InPlaceJob job{&scene.skeleton, walking, frame.hips, {scene.skeleton.findJoint("Head")}, frame.groundModel, {}};
  EXPECT_TRUE(job.validate().has_value()) << "a joint carried along must be beside the travel joint";
}

// After Make Cyclic the wrap-around jump is no larger than the clip's median frame-to-frame
// change, in position and in velocity: on a cycle (RobotExpressive's Walking), on a clip that
// ends far from its start with its IK feet travelling beside the pelvis (Death), and on a
// capture that is no cycle (CMU 02_01 ends mid-stride). MakeHuman's walk1, a loop that
// dropped its duplicate end frame at a coarse 24 fps, keeps a velocity jump of the size of
// its sharpest frames' (a foot landing): second-order differences over 42 ms do not see its
// velocity the same from both sides even where the motion runs on.
struct SeamCase {
  const char* file;
  std::string clip;
  double blendSeconds;
  double velocityOverMedian = 1.0;  // largest velocity jump allowed, in median frame-to-frame changes
};

void expectSeamless(const SeamCase& c) {
  SCOPED_TRACE(c.file);
  Scene scene = load(c.file);
  Clip* clip = c.clip.empty() ? &scene.clips.front() : clipNamed(scene, c.clip);
  ASSERT_NE(clip, nullptr);
  const std::string name = clip->name;
  const TravelFrame frame = *travelFrameOf(scene.skeleton, *clip);
  auto before = seamScore(scene.skeleton, *clip, frame);
  ASSERT_TRUE(before.ok()) << before.error();
  ASSERT_FALSE(makeCyclic(scene, {c.blendSeconds, true, name}).has_value());
  clip = clipNamed(scene, name);
  auto after = seamScore(scene.skeleton, *clip, frame);
  ASSERT_TRUE(after.ok()) << after.error();
  EXPECT_LE(after->poseMm, after->medianStepMm) << "before: " << before->poseMm << " mm";
  EXPECT_LT(after->poseMm, 0.01);
  EXPECT_LT(after->rotationDeg, 0.05);
  EXPECT_LE(after->velocityMm, c.velocityOverMedian * after->medianVelocityChangeMm)
      << "before: " << before->velocityMm << " mm per frame";
}

TEST(ClipOps, MakeCyclicClosesTheRobotsWalkingSeam) { expectSeamless({kRobot, "Walking", 0.25}); }
TEST(ClipOps, MakeCyclicClosesTheRobotsDeathSeam) { expectSeamless({kRobot, "Death", 0.25}); }
TEST(ClipOps, MakeCyclicClosesTheCmuWalksSeam) { expectSeamless({kCmuWalk, "", 0.5}); }
TEST(ClipOps, MakeCyclicClosesTheMakeHumanWalksSeam) { expectSeamless({kMakeHumanWalk, "", 0.2, 1.4}); }

TEST(ClipOps, MakeCyclicDropsTheDuplicateEndFrameOnRequest) {
  Scene kept = load(kRobot);
  Scene dropped = load(kRobot);
  ASSERT_FALSE(makeCyclic(kept, {0.25, true, "Walking"}).has_value());
  ASSERT_FALSE(makeCyclic(dropped, {0.25, false, "Walking"}).has_value());
  const Clip& k = *clipNamed(kept, "Walking");
  const Clip& d = *clipNamed(dropped, "Walking");
  EXPECT_EQ(d.frameCount(), k.frameCount() - 1);
  const auto a = positions(kept.skeleton, k);
  const auto b = positions(dropped.skeleton, d);
  double largest = 0.0;
  for (std::size_t f = 0; f < b.size(); ++f) {
    for (const auto& [joint, p] : b[f]) largest = std::max(largest, double((a[f].at(joint) - p).norm()));
  }
  EXPECT_LT(largest, 1e-6);
  // The dropped frame is the first one's duplicate.
  EXPECT_LT(largestMoveMm({a.back()}, {a.front()}, travelFrame(kept).heightModel), 0.01);
}

TEST(ClipOps, TheSeamScoreTellsALoopFromAWalk) {
  Scene robot = load(kRobot);
  const Clip& walking = *clipNamed(robot, "Walking");
  auto loop = seamScore(robot.skeleton, walking, *travelFrameOf(robot.skeleton, walking));
  Scene cmu = load(kCmuWalk);
  auto walk = seamScore(cmu.skeleton, cmu.clips.front(), travelFrame(cmu));
  ASSERT_TRUE(loop.ok() && walk.ok());
  EXPECT_LT(loop->poseMm, 2.0 * loop->medianStepMm) << "the robot's Walking is a cycle";
  EXPECT_GT(walk->poseMm, 20.0 * walk->medianStepMm) << "CMU 02_01 starts on a T-pose";
  EXPECT_GT(walk->travelMm, 1000.0);
}

// Odd input: one line saying why, and nothing changed.
TEST(ClipOps, OddInputIsRefusedAndChangesNothing) {
  Scene noHumanoid = load("gltf/RiggedSimple/RiggedSimple.glb");
  const std::size_t keys = noHumanoid.clips.front().keyCount();
  auto error = extractRootMotion(noHumanoid, {});
  ASSERT_TRUE(error.has_value());
  EXPECT_NE(error->find("no humanoid"), std::string::npos) << *error;
  EXPECT_EQ(noHumanoid.clips.front().keyCount(), keys);
  EXPECT_TRUE(makeInPlace(noHumanoid, {}, "").has_value());

  // CesiumMan's hips hang under "Armature", a plain node no skin binds: travel there would
  // move the object in an engine, not the root bone.
  Scene cesiumMan = load("gltf/CesiumMan/CesiumMan.glb");
  const std::string armature = cesiumMan.skeleton.name(cesiumMan.skeleton.parent(travelFrame(cesiumMan).hips));
  ASSERT_NE(cesiumMan.skeleton.kind(cesiumMan.skeleton.findJoint(armature)), NodeKind::Joint) << armature;
  const std::size_t cesiumKeys = cesiumMan.clips.front().keyCount();
  error = extractRootMotion(cesiumMan, {armature, {}, ""});
  ASSERT_TRUE(error.has_value());
  EXPECT_NE(error->find("'" + armature + "' above the hips is a plain node"), std::string::npos) << *error;
  EXPECT_EQ(cesiumMan.clips.front().keyCount(), cesiumKeys);

  Scene cmu = load(kCmuWalk);
  const int joints = cmu.skeleton.jointCount();
  const std::size_t cmuKeys = cmu.clips.front().keyCount();
  error = extractRootMotion(cmu, {"LeftUpLeg", {}, ""});
  ASSERT_TRUE(error.has_value());
  EXPECT_NE(error->find("taken"), std::string::npos) << *error;
  error = makeCyclic(cmu, {10.0, true, ""});
  ASSERT_TRUE(error.has_value());
  EXPECT_NE(error->find("longer than clip"), std::string::npos) << *error;
  error = extractRootMotion(cmu, {"root", {}, "no such clip"});
  ASSERT_TRUE(error.has_value());
  EXPECT_EQ(cmu.skeleton.jointCount(), joints);
  EXPECT_EQ(cmu.clips.front().keyCount(), cmuKeys);

  Clip& one = cmu.clips.front();
  one.endTime = one.startTime;  // a single pose
  for (JointTrack& track : one.tracks) {
    for (Curve* c : {&track.translation.x, &track.translation.y, &track.translation.z}) {
      while (c->size() > 1) c->removeKey(c->size() - 1);
    }
    std::vector<RotationKey> first(track.rotation.keys().begin(), track.rotation.keys().begin() + 1);
    if (!track.rotation.empty()) track.rotation.setKeys(first);
  }
  ASSERT_EQ(one.frameCount(), 1);
  for (auto message : {extractRootMotion(cmu, {}), makeInPlace(cmu, {}, ""), makeCyclic(cmu, {})}) {
    ASSERT_TRUE(message.has_value());
    EXPECT_NE(message->find("1 frame"), std::string::npos) << *message;
    EXPECT_EQ(message->find('\n'), std::string::npos);
  }
  EXPECT_EQ(cmu.skeleton.jointCount(), joints);
}

}  // namespace
}  // namespace articula
