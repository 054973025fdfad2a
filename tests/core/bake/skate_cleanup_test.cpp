#include "core/bake/skate_cleanup.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <set>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "core/bake/dense_clip.h"
#include "core/io/import.h"
#include "core/rig/humanoid_rig.h"
#include "core/skeleton/local_to_model.h"

namespace articula {
namespace {

// A capture or character with its humanoid rig and feet, as the lock tests start from.
struct RiggedFile {
  Scene scene;
  RigDefinition definition;
  std::vector<FootJoints> feet;
};

void loadRigged(const std::string& file, RiggedFile& rigged) {
  auto scene = importScene(std::string(ARTICULA_TEST_DATA_DIR) + "/" + file);
  ASSERT_TRUE(scene) << scene.error();
  auto definition = buildHumanoidRig(scene->skeleton);
  ASSERT_TRUE(definition) << definition.error();
  auto feet = humanoidFeet(scene->skeleton);
  ASSERT_TRUE(feet) << feet.error();
  rigged = {std::move(*scene), std::move(*definition), std::move(*feet)};
}

// The lock target curves of `handle`, held at `targetModel` over the whole clip.
void holdLockTarget(Clip& clip, const std::string& handle, const Vec3& targetModel) {
  const char* channels[3] = {"target.x", "target.y", "target.z"};
  for (int c = 0; c < 3; ++c) {
    clip.curves[handleCurveName(handle, channels[c])].setKeys(
        {linearKey(0.0, targetModel[c]), linearKey(clip.endTime, targetModel[c])});
  }
}

// A default job is invalid, and so is each job missing one input; both a source and a clip
// to consume, a rig without legs, and kept contacts without stride curves are refused by
// name; the complete job is valid.
TEST(SkateCleanupJob, ValidateNamesWhatIsMissing) {
  auto scene = importScene(std::string(ARTICULA_TEST_DATA_DIR) + "/bvh/cmu-mb-2010/02_03.bvh");
  ASSERT_TRUE(scene) << scene.error();
  auto rig = buildHumanoidRig(scene->skeleton);
  ASSERT_TRUE(rig) << rig.error();
  Clip clip = scene->clips.front();
  Clip out;
  auto refusal = [](const SkateCleanupJob& job) { return job.validate().value_or("valid"); };
  SkateCleanupJob job;
  EXPECT_EQ(refusal(job), "skate cleanup: no scene");
  job.scene = &*scene;
  EXPECT_EQ(refusal(job), "skate cleanup: no source clip");
  job.source = &clip;
  EXPECT_EQ(refusal(job), "skate cleanup: no rig");
  job.rig = &*rig;
  EXPECT_EQ(refusal(job), "skate cleanup: no output clip");
  job.output = &out;
  EXPECT_EQ(refusal(job), "valid");
  job.consumedSource = &clip;
  EXPECT_EQ(refusal(job), "skate cleanup: both a source clip and a clip to consume");
  job.consumedSource = nullptr;
  job.options.detect = false;
  EXPECT_NE(refusal(job).find("has no stride curve 'contact.left_foot'"), std::string::npos) << refusal(job);
  job.options.detect = true;
  RigDefinition noLegs;
  noLegs.name = "arms only";
  job.rig = &noLegs;
  EXPECT_NE(refusal(job).find("no leg handle"), std::string::npos) << refusal(job);
  // validate() refuses before run() touches anything.
  EXPECT_FALSE(job.run());
  EXPECT_TRUE(out.tracks.empty());
}

// Model-space positions of every joint at every frame of `clip`.
std::vector<std::vector<Vec3>> positions(const Skeleton& skeleton, const Clip& clip) {
  std::vector<std::vector<Vec3>> out;
  ClipSampler sampler(&clip);
  for (int f = 0; f < clip.frameCount(); ++f) {
    Pose pose(skeleton.restPose().begin(), skeleton.restPose().end());
    sampler.sample(clip.timeOf(f), pose);
    std::vector<Vec3>& frame = out.emplace_back();
    for (const Affine& m : localToModel(skeleton, pose)) frame.push_back(m.translation());
  }
  return out;
}

struct Slide {
  double mean = 0.0, max = 0.0;  // per contact, mm at 1.75 m
  int contacts = 0;
};

// Horizontal (XZ) travel of `joint` over each interval, in mm scaled to a 1.75 m character.
Slide slide(const std::vector<std::vector<Vec3>>& at, int joint, const std::vector<ContactInterval>& intervals,
            double mmPerUnit) {
  Slide s;
  for (const ContactInterval& c : intervals) {
    double travel = 0.0;
    for (int f = c.first; f < c.last; ++f) {
      const Vec3 d = at[static_cast<std::size_t>(f + 1)][static_cast<std::size_t>(joint)] -
                     at[static_cast<std::size_t>(f)][static_cast<std::size_t>(joint)];
      travel += std::hypot(d.x(), d.z()) * mmPerUnit;
    }
    s.mean += travel;
    s.max = std::max(s.max, travel);
    ++s.contacts;
  }
  if (s.contacts > 0) s.mean /= s.contacts;
  return s;
}

// Deepest a joint goes (mm at 1.75 m) below its contact's floor: its lowest height in the
// source over that contact.
double penetration(const std::vector<std::vector<Vec3>>& source, const std::vector<std::vector<Vec3>>& cleaned,
                   int joint, const std::vector<ContactInterval>& intervals, double mmPerUnit) {
  double deepest = 0.0;
  for (const ContactInterval& c : intervals) {
    float floor = std::numeric_limits<float>::max();
    for (int f = c.first; f <= c.last; ++f)
      floor = std::min(floor, source[static_cast<std::size_t>(f)][static_cast<std::size_t>(joint)].y());
    for (int f = c.first; f <= c.last; ++f) {
      const float y = cleaned[static_cast<std::size_t>(f)][static_cast<std::size_t>(joint)].y();
      deepest = std::max(deepest, static_cast<double>(floor - y) * mmPerUnit);
    }
  }
  return deepest;
}

void cleanAndMeasure(const std::string& file) {
  auto scene = importScene(std::string(ARTICULA_TEST_DATA_DIR) + "/bvh/cmu-mb-2010/" + file);
  ASSERT_TRUE(scene) << scene.error();
  const Skeleton& skeleton = scene->skeleton;
  const Clip& source = scene->clips.front();
  auto rig = buildHumanoidRig(skeleton);
  ASSERT_TRUE(rig) << rig.error();

  SkateCleanupJob job;
  job.scene = &*scene;
  job.source = &source;
  job.rig = &*rig;
  job.options.bake.reduction.toleranceModel = 0.001f * scene->characterHeight();
  Clip cleaned;
  job.output = &cleaned;
  auto report = job.run();
  ASSERT_TRUE(report) << report.error();
  ASSERT_EQ(report->feet.size(), 2u);

  const double mmPerUnit = 1750.0 / scene->characterHeight();
  const auto before = positions(skeleton, source);
  const auto after = positions(skeleton, cleaned);
  std::set<int> footJoints;  // the legs' chains, toes and everything below them
  for (const IkHandle& h : rig->handles) {
    if (h.role == HandleRole::LeftLeg || h.role == HandleRole::RightLeg)
      footJoints.insert(h.chain.begin(), h.chain.end());
  }
  for (int j = 0; j < skeleton.jointCount(); ++j) {
    if (skeleton.parent(j) != kNoParent && footJoints.count(skeleton.parent(j)) != 0) footJoints.insert(j);
  }
  const int pelvis = rig->grounding.pelvis;
  const auto p = static_cast<std::size_t>(pelvis);
  double nonFootChange = 0.0;
  double shapeChange = 0.0;  // the same, measured from the pelvis: what is not its drop
  double pelvisDrop = 0.0;
  for (std::size_t f = 0; f < before.size(); ++f) {
    for (int j = 0; j < skeleton.jointCount(); ++j) {
      if (footJoints.count(j) != 0) continue;
      const auto k = static_cast<std::size_t>(j);
      shapeChange = std::max(
          shapeChange,
          static_cast<double>(((after[f][k] - after[f][p]) - (before[f][k] - before[f][p])).norm()) * mmPerUnit);
      nonFootChange = std::max(
          nonFootChange,
          static_cast<double>((after[f][static_cast<std::size_t>(j)] - before[f][static_cast<std::size_t>(j)]).norm()) *
              mmPerUnit);
    }
  }

  std::printf("%s: %d frames, keys %zu -> %zu, max reduction error %.3f mm, unreached handle-frames %zu\n",
              file.c_str(), report->bake.framesBaked, report->bake.reduction.keysBefore,
              report->bake.reduction.keysAfter,
              static_cast<double>(report->bake.reduction.maxDeviationModel) * mmPerUnit, report->bake.unreached.size());
  for (const FootLock& foot : report->feet) {
    for (const auto& [label, joint, intervals] :
         {std::tuple{"ankle", foot.joints.ankle, &foot.ankle}, std::tuple{"toe", foot.joints.toe, &foot.toe}}) {
      if (joint < 0) continue;
      const Slide was = slide(before, joint, *intervals, mmPerUnit);
      const Slide is = slide(after, joint, *intervals, mmPerUnit);
      const double sunk = penetration(before, after, joint, *intervals, mmPerUnit);
      std::printf("  %s %s: %d contacts, slide mean %.2f max %.2f mm -> mean %.3f max %.3f mm, penetration %.3f mm\n",
                  foot.joints.curveName.c_str(), label, is.contacts, was.mean, was.max, is.mean, is.max, sunk);
      EXPECT_GT(is.contacts, 0) << foot.joints.curveName << ' ' << label;
      EXPECT_LT(is.mean, 2.0) << foot.joints.curveName << ' ' << label;
      EXPECT_LT(is.mean, was.mean) << foot.joints.curveName << ' ' << label;
      // Held feet stay where they landed; what is left is the reduction's error (its
      // tolerance is 1.75 mm here), well under a millimetre.
      EXPECT_LT(sunk, 0.5) << foot.joints.curveName << ' ' << label;
    }
  }
  for (std::size_t f = 0; f < before.size(); ++f)
    pelvisDrop = std::max(pelvisDrop, static_cast<double>(before[f][p].y() - after[f][p].y()) * mmPerUnit);
  std::printf(
      "  largest change to a non-foot joint: %.2f mm (pelvis lowered by up to %.2f mm; measured from the "
      "pelvis: %.2f mm)\n",
      nonFootChange, pelvisDrop, shapeChange);
  // Above the legs the body only follows the pelvis down; its own shape changes by the
  // reduction's error alone (1.75 mm per joint, so at most twice that between two joints).
  EXPECT_LT(shapeChange, 3.5);
}

TEST(SkateCleanup, LocksTheFeetOfTheCmuWalk) { cleanAndMeasure("02_01.bvh"); }
TEST(SkateCleanup, LocksTheFeetOfTheCmuRun) { cleanAndMeasure("02_03.bvh"); }

}  // namespace
}  // namespace articula

namespace articula {
namespace {

// Without a ground, a leg target below the leg's reach is reached only when the rig may
// lower the pelvis (what the cleanup turns on), and only the pelvis's height changes.
// A caller that replaces the source with the output gives the job the source to take apart:
// the same clip comes out (and the same slides before), the source's keys are not copied and
// it is left empty; a job given both a source and a clip to consume is refused.
TEST(SkateCleanup, AConsumedSourceCleansLikeACopiedOne) {
  auto scene = importScene(std::string(ARTICULA_TEST_DATA_DIR) + "/bvh/cmu-mb-2010/02_01.bvh");
  ASSERT_TRUE(scene) << scene.error();
  auto rig = buildHumanoidRig(scene->skeleton);
  ASSERT_TRUE(rig) << rig.error();
  SkateCleanupJob job;
  job.scene = &*scene;
  job.source = &scene->clips.front();
  job.rig = &*rig;
  job.options.bake.reduction.toleranceModel = kDefaultToleranceOfHeight * scene->characterHeight();
  Clip copied;
  job.output = &copied;
  auto fromCopy = job.run();
  ASSERT_TRUE(fromCopy) << fromCopy.error();

  Clip taken = scene->clips.front();
  job.consumedSource = &taken;
  EXPECT_TRUE(job.validate().has_value());
  job.source = nullptr;
  Clip consumed;
  job.output = &consumed;
  auto fromConsumed = job.run();
  ASSERT_TRUE(fromConsumed) << fromConsumed.error();
  EXPECT_TRUE(taken.tracks.empty());
  EXPECT_EQ(fromConsumed->slideBeforeModel, fromCopy->slideBeforeModel);
  ASSERT_EQ(consumed.tracks.size(), copied.tracks.size());
  for (std::size_t i = 0; i < copied.tracks.size(); ++i) {
    const auto& a = copied.tracks[i].rotation.keys();
    const auto& b = consumed.tracks[i].rotation.keys();
    ASSERT_EQ(a.size(), b.size()) << "track " << i;
    for (std::size_t k = 0; k < a.size(); ++k) EXPECT_TRUE(a[k].value.isApprox(b[k].value, 0.0f));
  }
}

// CMU 02_01 starts with one frame of its calibration T-pose: the cleanup leaves it out of
// every contact, ease and lowered pelvis, writes it as the source has it (within the
// reduction's tolerance), and cleans the take after it as it cleans the take alone (the two
// reductions within their tolerance of the same poses; the report counts the source's frames).
TEST(SkateCleanup, ACalibrationFrameBeforeTheTakeStaysAsTheSourceHasIt) {
  auto scene = importScene(std::string(ARTICULA_TEST_DATA_DIR) + "/bvh/cmu-mb-2010/02_01.bvh");
  ASSERT_TRUE(scene) << scene.error();
  auto rig = buildHumanoidRig(scene->skeleton);
  ASSERT_TRUE(rig) << rig.error();
  const Skeleton& skeleton = scene->skeleton;
  const Clip& source = scene->clips.front();
  SkateCleanupJob job;
  job.scene = &*scene;
  job.source = &source;
  job.rig = &*rig;
  job.options.bake.reduction.toleranceModel = kDefaultToleranceOfHeight * scene->characterHeight();
  Clip cleaned;
  job.output = &cleaned;
  auto report = job.run();
  ASSERT_TRUE(report) << report.error();
  Clip take = source;
  take.startTime = source.timeOf(1);
  job.source = &take;
  Clip cleanedTake;
  job.output = &cleanedTake;
  auto takeReport = job.run();
  ASSERT_TRUE(takeReport) << takeReport.error();

  EXPECT_DOUBLE_EQ(cleaned.startTime, source.startTime);
  EXPECT_EQ(cleaned.frameCount(), source.frameCount());
  const auto before = positions(skeleton, source);
  const auto after = positions(skeleton, cleaned);
  for (int j = 0; j < skeleton.jointCount(); ++j) {
    const auto k = static_cast<std::size_t>(j);
    EXPECT_LT((after.front()[k] - before.front()[k]).norm(), job.options.bake.reduction.toleranceModel)
        << skeleton.name(j);
  }
  ASSERT_EQ(report->feet.size(), takeReport->feet.size());
  for (std::size_t i = 0; i < report->feet.size(); ++i) {
    const FootLock& foot = report->feet[i];
    const FootLock& takeFoot = takeReport->feet[i];
    EXPECT_EQ(cleaned.curves.at(foot.joints.curveName).evaluate(source.timeOf(0)), 0.0);
    for (const auto& [lead, alone] : {std::pair{&foot.foot, &takeFoot.foot}, std::pair{&foot.ankle, &takeFoot.ankle},
                                      std::pair{&foot.toe, &takeFoot.toe}}) {
      ASSERT_EQ(lead->size(), alone->size()) << foot.joints.curveName;
      for (std::size_t c = 0; c < lead->size(); ++c) {
        EXPECT_EQ((*lead)[c].first, (*alone)[c].first + 1) << foot.joints.curveName;
        EXPECT_EQ((*lead)[c].last, (*alone)[c].last + 1) << foot.joints.curveName;
      }
    }
    EXPECT_EQ(foot.ankleFloorModel.size(), takeFoot.ankleFloorModel.size() + 1);
  }
  const auto afterTake = positions(skeleton, cleanedTake);
  ASSERT_EQ(afterTake.size() + 1, after.size());
  for (std::size_t f = 0; f < afterTake.size(); ++f) {
    for (std::size_t k = 0; k < afterTake[f].size(); ++k)
      ASSERT_LT((after[f + 1][k] - afterTake[f][k]).norm(), 2.0f * job.options.bake.reduction.toleranceModel)
          << "frame " << f + 1;
  }
}

// A leg the animation holds straight (CMU's rest pose) keeps its stretch: its lock target 1 cm
// across the up and the leg from its ankle lowers the pelvis only as far as the straight leg
// needs to reach it, about d²/2L (0.06 mm at 1.75 m), not by the centimetre its target moved,
// which bent a straight knee √(2·L·d) out (CMU 09_11: 54 mm).
TEST(SkateCleanup, AStraightLegKeepsItsStretch) {
  RiggedFile rigged;
  ASSERT_NO_FATAL_FAILURE(loadRigged("bvh/cmu-mb-2010/02_01.bvh", rigged));
  const Skeleton& skeleton = rigged.scene.skeleton;
  const float height = rigged.scene.characterHeight();
  const auto restModel = localToModel(skeleton, skeleton.restPose());
  Clip clip;
  clip.name = "rest";
  clip.frameRate = 30.0;
  clip.endTime = 2.0 / clip.frameRate;
  FootLock lock;
  lock.handle = "left_leg";
  lock.joints = rigged.feet.front();
  const auto leg = std::find_if(rigged.definition.handles.begin(), rigged.definition.handles.end(),
                                [&](const IkHandle& h) { return h.name == lock.handle; });
  ASSERT_NE(leg, rigged.definition.handles.end());
  const Vec3 ankle = restModel[static_cast<std::size_t>(lock.joints.ankle)].translation();
  const Vec3 hip = restModel[static_cast<std::size_t>(leg->chain.front())].translation();
  // Across the up and the leg: the target no farther from the hip than the leg's length.
  const Vec3 target = ankle + Vec3::UnitY().cross(ankle - hip).normalized() * (0.01f / 1.75f * height);
  holdLockTarget(clip, lock.handle, target);
  lowerPelvisToReachLocks(skeleton, clip, rigged.definition, {lock});
  const int pelvis = rigged.definition.grounding.pelvis;
  const float restHeight = restModel[static_cast<std::size_t>(pelvis)].translation().y();
  for (int f = 0; f < clip.frameCount(); ++f) {
    Pose pose(skeleton.restPose().begin(), skeleton.restPose().end());
    ClipSampler(&clip).sample(clip.timeOf(f), pose);
    const float drop = restHeight - localToModel(skeleton, pose)[static_cast<std::size_t>(pelvis)].translation().y();
    EXPECT_LT(drop * 1750.0f / height, 0.1f) << "frame " << f;
  }
}

// A foot beside its leg holds itself: its leg's tip may stay up to 0.25 % of the leg (2.2 mm
// on RobotExpressive's 894 mm leg) short of a target beyond its reach, so the pelvis lowers
// that much less than for the same target of a leg ending at its foot, and no less: the tip
// never leaves the foot farther.
TEST(SkateCleanup, AShinBesideItsFootStaysShortOfATargetByTheSlackAlone) {
  RiggedFile rigged;
  ASSERT_NO_FATAL_FAILURE(loadRigged("gltf/RobotExpressive/RobotExpressive.glb", rigged));
  const Skeleton& skeleton = rigged.scene.skeleton;
  ASSERT_GE(rigged.feet.front().legTip, 0);
  const auto leg = std::find_if(
      rigged.definition.handles.begin(), rigged.definition.handles.end(),
      [&](const IkHandle& h) { return h.chain.size() == 3 && h.chain.back() == rigged.feet.front().legTip; });
  ASSERT_NE(leg, rigged.definition.handles.end());
  const auto restModel = localToModel(skeleton, skeleton.restPose());
  const auto restAt = [&](int j) { return Vec3(restModel[static_cast<std::size_t>(j)].translation()); };
  const Vec3 hip = restAt(leg->chain[0]);
  const float length = (restAt(leg->chain[1]) - hip).norm() + (restAt(leg->chain[2]) - restAt(leg->chain[1])).norm();
  // 1 % of the leg beyond the straightened leg, along the rest leg's line.
  const Vec3 target = hip + (restAt(leg->chain[2]) - hip).normalized() * (1.01f * length);
  const Vec3 up = rigged.definition.grounding.upModel.normalized();
  const int pelvis = rigged.definition.grounding.pelvis;
  auto dropShare = [&](int legTip) {
    Clip clip;
    clip.name = "rest";
    clip.frameRate = 30.0;
    clip.endTime = 1.0 / clip.frameRate;
    FootLock lock;
    lock.handle = leg->name;
    lock.joints = rigged.feet.front();
    lock.joints.legTip = legTip;
    holdLockTarget(clip, lock.handle, target);
    lowerPelvisToReachLocks(skeleton, clip, rigged.definition, {lock});
    Pose pose(skeleton.restPose().begin(), skeleton.restPose().end());
    ClipSampler(&clip).sample(0.0, pose);
    const Vec3 lowered = localToModel(skeleton, pose)[static_cast<std::size_t>(pelvis)].translation();
    return up.dot(restAt(pelvis) - lowered) / length;
  };
  const float beside = dropShare(rigged.feet.front().legTip);
  const float ending = dropShare(-1);
  std::printf("pelvis lowered %.2f %% of the leg for a shin beside its foot, %.2f %% for a leg ending at it\n",
              100.0f * beside, 100.0f * ending);
  EXPECT_GT(beside, 0.005f);
  EXPECT_NEAR(ending - beside, 0.0025f, 0.0003f);
}

TEST(SkateCleanup, PelvisDropsSoALegReachesItsTarget) {
  auto scene = importScene(std::string(ARTICULA_TEST_DATA_DIR) + "/bvh/cmu-mb-2010/02_01.bvh");
  ASSERT_TRUE(scene) << scene.error();
  const Skeleton& skeleton = scene->skeleton;
  auto definition = buildHumanoidRig(skeleton);
  ASSERT_TRUE(definition) << definition.error();
  auto rig = Rig::bind(skeleton, *definition);
  ASSERT_TRUE(rig) << rig.error();
  for (int i = 0; i < rig->handleCount(); ++i) rig->setEnabled(i, rig->handle(i).name == "left_leg");
  const int leg = rig->findHandle("left_leg");
  const int ankle = rig->handle(leg).chain.back();
  const int pelvis = definition->grounding.pelvis;
  const Pose rest(skeleton.restPose().begin(), skeleton.restPose().end());
  const auto restModel = localToModel(skeleton, rest);
  // 10 % of the character's height below where the ankle stands: out of reach.
  const Vec3 target =
      restModel[static_cast<std::size_t>(ankle)].translation() - Vec3(0.0f, 0.1f * scene->characterHeight(), 0.0f);
  rig->setTarget(leg, target);

  Pose pose = rest;
  ASSERT_TRUE(rig->solve(pose, 0.0, nullptr));
  EXPECT_FALSE(rig->reports()[static_cast<std::size_t>(leg)].reached);
  EXPECT_EQ(pose[static_cast<std::size_t>(pelvis)].translation, rest[static_cast<std::size_t>(pelvis)].translation);

  rig->setLowerPelvisToTargets(true);
  pose = rest;
  ASSERT_TRUE(rig->solve(pose, 0.0, nullptr));
  EXPECT_TRUE(rig->reports()[static_cast<std::size_t>(leg)].reached);
  const auto model = localToModel(skeleton, pose);
  EXPECT_LT((model[static_cast<std::size_t>(ankle)].translation() - target).norm(), 1e-3f * scene->characterHeight());
  const Vec3 drop =
      model[static_cast<std::size_t>(pelvis)].translation() - restModel[static_cast<std::size_t>(pelvis)].translation();
  EXPECT_LT(drop.y(), -0.05f * scene->characterHeight());
  EXPECT_NEAR(drop.x(), 0.0f, 1e-4f);
  EXPECT_NEAR(drop.z(), 0.0f, 1e-4f);
}

// The character's floor (a retarget's, read from its mesh) given to the locks: no target puts
// the foot's lowest point under it. Without it the held toe the ankle turns about, and the
// lock easing out, keep the capture's heights (CMU 02_01 on the mannequin: the toe 8.1 mm
// under its floor at frame 85). Here the floor is 1 cm (at 1.75 m) above the toe's lowest.
TEST(SkateCleanup, LockTargetsKeepTheFootAboveTheCharactersFloor) {
  auto scene = importScene(std::string(ARTICULA_TEST_DATA_DIR) + "/bvh/cmu-mb-2010/02_03.bvh");
  ASSERT_TRUE(scene) << scene.error();
  const Skeleton& skeleton = scene->skeleton;
  auto feet = humanoidFeet(skeleton);
  ASSERT_TRUE(feet) << feet.error();
  const FootJoints& left = feet->front();
  ASSERT_GE(left.toe, 0);
  Clip clip = scene->clips.front();
  clip.curves[left.curveName].insertKey(0.0, 0.0);
  const int frames = std::min(clip.frameCount(), 120);
  // The toe less the ankle along the up, per frame, and the floor above the toe's lowest.
  std::vector<float> toeBelowAnkle;
  float lowestToe = std::numeric_limits<float>::infinity();
  for (int f = 0; f < frames; ++f) {
    Pose pose(skeleton.restPose().begin(), skeleton.restPose().end());
    ClipSampler(&clip).sample(clip.timeOf(f), pose);
    const auto model = localToModel(skeleton, pose);
    const float toe = model[static_cast<std::size_t>(left.toe)].translation().y();
    toeBelowAnkle.push_back(toe - model[static_cast<std::size_t>(left.ankle)].translation().y());
    lowestToe = std::min(lowestToe, toe);
  }
  CharacterSoles floor;
  for (std::size_t side = 0; side < 2; ++side)
    floor.feet[side] = {FootPoint{{{(*feet)[side].toe, 1.0f, Vec3::Zero()}}}};
  floor.floorHeight = lowestToe + 0.01f / 1.75f * scene->characterHeight();
  const FootLock lock{"left_leg", left, {{20, 60}}, {{20, 40}}, {{41, 60}}, {}};
  // Frames where the foot's toe stands under the floor, with the targets of `locked`.
  const auto framesUnder = [&](const Clip& locked) {
    const Curve& y = locked.curves.at("ik.left_leg.target.y");
    int under = 0;
    for (int f = 0; f < frames; ++f) {
      const float sole = static_cast<float>(y.evaluate(locked.timeOf(f))) + toeBelowAnkle[static_cast<std::size_t>(f)];
      if (sole < floor.floorHeight - 1e-5f * scene->characterHeight()) ++under;
    }
    return under;
  };
  Clip capturesFloor = clip;
  ASSERT_FALSE(writeFootLockCurves(skeleton, capturesFloor, {lock}, Vec3::UnitY()));
  EXPECT_GT(framesUnder(capturesFloor), 0);
  Clip charactersFloor = clip;
  ASSERT_FALSE(writeFootLockCurves(skeleton, charactersFloor, {lock}, Vec3::UnitY(), Vec3::Zero(), &floor));
  EXPECT_EQ(framesUnder(charactersFloor), 0);
}

TEST(SkateCleanup, BadLocksAreRefusedByName) {
  auto scene = importScene(std::string(ARTICULA_TEST_DATA_DIR) + "/bvh/cmu-mb-2010/02_03.bvh");
  ASSERT_TRUE(scene) << scene.error();
  Clip clip = scene->clips.front();
  auto feet = humanoidFeet(scene->skeleton);
  ASSERT_TRUE(feet) << feet.error();
  FootLock lock{"left_leg", feet->front(), {{0, 5}}, {{0, 5}}, {}, {}};
  auto error = writeFootLockCurves(scene->skeleton, clip, {lock}, Vec3::UnitY());
  ASSERT_TRUE(error);  // the clip has no stride curve yet
  EXPECT_NE(error->find("contact.left_foot"), std::string::npos) << *error;
  clip.curves["contact.left_foot"].insertKey(0.0, 1.0);
  lock.ankle = {{0, 100000}};
  error = writeFootLockCurves(scene->skeleton, clip, {lock}, Vec3::UnitY());
  ASSERT_TRUE(error);
  EXPECT_NE(error->find("[0, 100000]"), std::string::npos) << *error;
  lock.ankle = {{0, 5}};
  lock.ankleFloorModel = {0.0f, 0.0f};
  error = writeFootLockCurves(scene->skeleton, clip, {lock}, Vec3::UnitY());
  ASSERT_TRUE(error);
  EXPECT_NE(error->find("2 levels for " + std::to_string(clip.frameCount()) + " frames"), std::string::npos) << *error;
  EXPECT_EQ(clip.curves.count("ik.left_leg.target.x"), 0u);
}

}  // namespace
}  // namespace articula
