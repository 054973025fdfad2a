#include "core/bake/bake_job.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "core/io/import.h"
#include "core/samples/mannequin.h"

namespace articula {
namespace {

// A corrector with a known answer: raises the left arm by an angle that follows time, drops
// the hips by 5 cm, and says its handle 0 ("arm") missed on every third frame.
class KnownCorrector : public PoseCorrector {
 public:
  explicit KnownCorrector(const Skeleton& skeleton)
      : mArm(skeleton.findJoint("LeftArm")), mHips(skeleton.findJoint("Hips")), mFrameRate(30.0) {}

  bool correct(std::span<Transform> pose, double timeSeconds, const Clip&) override {
    apply(pose, timeSeconds);
    mMissed = static_cast<int>(std::lround(timeSeconds * mFrameRate)) % 3 == 0;
    ++mCalls;
    return true;
  }
  void apply(std::span<Transform> pose, double timeSeconds) const {
    const float angleRad = 0.8f * static_cast<float>(std::sin(2.0 * M_PI * timeSeconds));
    pose[static_cast<std::size_t>(mArm)].rotation = Quat(Eigen::AngleAxisf(angleRad, Vec3::UnitZ()));
    pose[static_cast<std::size_t>(mHips)].translation.y() -= 0.05f;
  }
  std::vector<int> rotatedJoints() const override { return {mArm}; }
  std::vector<int> translatedJoints() const override { return {mHips}; }
  void unreachedHandles(std::vector<int>& handles) const override {
    if (mMissed) handles.push_back(0);
  }
  std::string handleName(int) const override { return "arm"; }

  int calls() const { return mCalls; }

 private:
  int mArm, mHips;
  double mFrameRate;
  bool mMissed = false;
  int mCalls = 0;
};

// The pose the corrector makes at frame f, and the baked clip's pose there, in model space.
float worstDeviation(const Scene& scene, const Clip& source, const Clip& baked, const KnownCorrector& corrector,
                     int first, int last) {
  const Skeleton& skeleton = scene.skeleton;
  float worst = 0.0f;
  for (int f = first; f <= last; ++f) {
    Pose expected(skeleton.restPose().begin(), skeleton.restPose().end());
    Pose got = expected;
    ClipSampler(&source).sample(source.timeOf(f), expected);
    corrector.apply(expected, source.timeOf(f));
    ClipSampler(&baked).sample(source.timeOf(f), got);
    const auto a = localToModel(skeleton, expected);
    const auto b = localToModel(skeleton, got);
    for (std::size_t j = 0; j < a.size(); ++j)
      worst = std::max(worst, (a[j].translation() - b[j].translation()).norm());
  }
  return worst;
}

TEST(BakeJob, DefaultJobIsInvalid) {
  const BakeJob job;
  ASSERT_TRUE(job.validate().has_value());
  EXPECT_NE(job.validate()->find("no skeleton"), std::string::npos);
  EXPECT_FALSE(job.run().ok());
}

TEST(BakeJob, BadRangesAndStepsAreNamed) {
  const Scene scene = makeMannequin();
  Clip out;
  BakeJob job{&scene.skeleton, &scene.clips[0], nullptr, {}, &out, {}};
  job.options.lastFrame = 500;
  ASSERT_TRUE(job.validate().has_value());
  EXPECT_NE(job.validate()->find("frame range 0..500 is not within its frames 0..30"), std::string::npos)
      << *job.validate();
  job.options.lastFrame = 10;
  job.options.step = 3;
  ASSERT_TRUE(job.validate().has_value());
  EXPECT_NE(job.validate()->find("not a whole number of steps of 3"), std::string::npos) << *job.validate();
  job.options.step = 0;
  EXPECT_NE(job.validate()->find("step must be at least 1"), std::string::npos);
  job.options.step = 1;
  job.options.joints = {-2};
  EXPECT_NE(job.validate()->find("joint -2 is not in the skeleton"), std::string::npos);
  const Clip empty;
  job.options.joints.clear();
  job.source = &empty;
  EXPECT_NE(job.validate()->find("is empty"), std::string::npos);
}

TEST(BakeJob, DenseBakeReproducesTheCorrectorOnEveryFrame) {
  const Scene scene = makeMannequin();
  const Clip& source = scene.clips[0];
  KnownCorrector corrector(scene.skeleton);
  Clip baked;
  BakeJob job{&scene.skeleton, &source, &corrector, {}, &baked, {}};
  job.options.reduce = false;
  const auto report = job.run();
  ASSERT_TRUE(report.ok()) << report.error();
  EXPECT_EQ(report->framesBaked, source.frameCount());
  EXPECT_EQ(corrector.calls(), source.frameCount());
  EXPECT_LT(worstDeviation(scene, source, baked, corrector, 0, source.frameCount() - 1), 1e-6f);
  // Frames 0, 3, 6, ... 30 missed.
  EXPECT_EQ(report->unreached.size(), 11u);
  ASSERT_EQ(report->handleNames.size(), 1u);
  EXPECT_EQ(report->handleNames[0], "arm");
  EXPECT_FALSE(baked.validate(scene.skeleton.jointCount()).has_value());
  // Non-destructive: the source still plays its own motion.
  EXPECT_EQ(source.findTrack(scene.skeleton.findJoint("LeftArm"))->rotation.keys().front().interpolation,
            scene.clips[0].findTrack(scene.skeleton.findJoint("LeftArm"))->rotation.keys().front().interpolation);
}

TEST(BakeJob, ReducedBakeStaysWithinItsToleranceWithFewKeys) {
  const Scene scene = makeMannequin();
  const Clip& source = scene.clips[0];
  KnownCorrector corrector(scene.skeleton);
  Clip baked;
  BakeJob job{&scene.skeleton, &source, &corrector, {}, &baked, {}};
  job.options.reduction.toleranceModel = 1e-3f * scene.characterHeight();
  const auto report = job.run();
  ASSERT_TRUE(report.ok()) << report.error();
  ASSERT_TRUE(report->reduced);
  EXPECT_LE(report->reduction.maxDeviationModel, job.options.reduction.toleranceModel);
  EXPECT_LE(worstDeviation(scene, source, baked, corrector, 0, source.frameCount() - 1),
            job.options.reduction.toleranceModel * 1.0001f);
  EXPECT_LT(report->reduction.keysAfter, report->reduction.keysBefore);
}

TEST(BakeJob, CancelLeavesNoPartialClip) {
  const Scene scene = makeMannequin();
  KnownCorrector corrector(scene.skeleton);
  Clip baked;
  baked.name = "previous result";
  BakeJob job{&scene.skeleton, &scene.clips[0], &corrector, {}, &baked, {}};
  int calls = 0;
  job.progress = [&](int done, int total) {
    ++calls;
    EXPECT_LE(done, total);
    return false;
  };
  const auto report = job.run();
  ASSERT_FALSE(report.ok());
  EXPECT_EQ(report.error(), "bake cancelled");
  EXPECT_EQ(calls, 1);
  EXPECT_EQ(baked.name, "previous result");
  EXPECT_TRUE(baked.tracks.empty());
}

TEST(BakeJob, SubRangeLeavesKeysOutsideItBitIdentical) {
  const Scene scene = makeMannequin();
  const Clip& source = scene.clips[0];
  KnownCorrector corrector(scene.skeleton);
  Clip baked;
  BakeJob job{&scene.skeleton, &source, &corrector, {}, &baked, {}};
  job.options.firstFrame = 10;
  job.options.lastFrame = 20;
  job.options.reduction.toleranceModel = 1e-3f * scene.characterHeight();
  const auto report = job.run();
  ASSERT_TRUE(report.ok()) << report.error();
  const double start = source.timeOf(10) - 1e-9;
  const double end = source.timeOf(20) + 1e-9;
  for (const JointTrack& original : source.tracks) {
    const JointTrack* result = baked.findTrack(original.joint);
    ASSERT_NE(result, nullptr);
    const Curve* before[] = {&original.translation.x, &original.translation.y, &original.translation.z};
    const Curve* after[] = {&result->translation.x, &result->translation.y, &result->translation.z};
    for (int c = 0; c < 3; ++c) {
      std::vector<CurveKey> kept;
      for (const CurveKey& k : after[c]->keys()) {
        if (k.time < start || k.time > end) kept.push_back(k);
      }
      std::vector<CurveKey> expected;
      for (const CurveKey& k : before[c]->keys()) {
        if (k.time < start || k.time > end) expected.push_back(k);
      }
      // The bake adds no key outside the range to a channel the source animates.
      ASSERT_EQ(kept.size(), expected.size()) << scene.skeleton.name(original.joint) << " component " << c;
      for (std::size_t i = 0; i < kept.size(); ++i) {
        EXPECT_EQ(kept[i].time, expected[i].time);
        EXPECT_EQ(kept[i].value, expected[i].value);
        EXPECT_EQ(kept[i].interpolation, expected[i].interpolation);
        EXPECT_EQ(kept[i].left, expected[i].left);
        EXPECT_EQ(kept[i].right, expected[i].right);
      }
    }
    std::vector<RotationKey> kept, expected;
    for (const RotationKey& k : result->rotation.keys()) {
      if (k.time < start || k.time > end) kept.push_back(k);
    }
    for (const RotationKey& k : original.rotation.keys()) {
      if (k.time < start || k.time > end) expected.push_back(k);
    }
    ASSERT_EQ(kept.size(), expected.size()) << scene.skeleton.name(original.joint);
    for (std::size_t i = 0; i < kept.size(); ++i) {
      EXPECT_EQ(kept[i].time, expected[i].time);
      // The same rotation; only its sign may follow the baked keys' hemisphere.
      const bool same =
          kept[i].value.coeffs() == expected[i].value.coeffs() || kept[i].value.coeffs() == -expected[i].value.coeffs();
      EXPECT_TRUE(same) << scene.skeleton.name(original.joint) << " key " << i;
    }
  }
  // Inside the range the corrector's pose is reproduced; two frames outside it, the source's.
  EXPECT_LE(worstDeviation(scene, source, baked, corrector, 10, 20), job.options.reduction.toleranceModel * 1.0001f);
  Pose untouched(scene.skeleton.restPose().begin(), scene.skeleton.restPose().end());
  Pose got = untouched;
  ClipSampler(&source).sample(source.timeOf(5), untouched);
  ClipSampler(&baked).sample(source.timeOf(5), got);
  const auto a = localToModel(scene.skeleton, untouched);
  const auto b = localToModel(scene.skeleton, got);
  for (std::size_t j = 0; j < a.size(); ++j) EXPECT_LT((a[j].translation() - b[j].translation()).norm(), 1e-6f) << j;
}

TEST(BakeJob, RootMotionOffPlaysInPlace) {
  const Scene scene = makeMannequin();
  Clip baked;
  BakeJob job{&scene.skeleton, &scene.clips[0], nullptr, {}, &baked, {}};
  job.options.rootMotion = false;
  job.options.reduce = false;
  ASSERT_TRUE(job.run().ok());
  const JointTrack* hips = baked.findTrack(scene.skeleton.findJoint("Hips"));
  ASSERT_NE(hips, nullptr);
  const Vec3 start = hips->translation.evaluate(baked.startTime, Vec3::Zero());
  const Vec3 end = hips->translation.evaluate(baked.endTime, Vec3::Zero());
  EXPECT_FLOAT_EQ(start.z(), end.z());
  EXPECT_FLOAT_EQ(start.x(), end.x());
  // The source walks forward 1.4 m in its second.
  const JointTrack* walking = scene.clips[0].findTrack(scene.skeleton.findJoint("Hips"));
  EXPECT_GT(walking->translation.evaluate(baked.endTime, Vec3::Zero()).z() - start.z(), 1.0f);
}

TEST(BakeJob, StepKeysEveryNthFrame) {
  const Scene scene = makeMannequin();
  Clip baked;
  BakeJob job{&scene.skeleton, &scene.clips[0], nullptr, {}, &baked, {}};
  job.options.step = 5;
  job.options.reduce = false;
  job.options.keepOutsideRange = false;
  const auto report = job.run();
  ASSERT_TRUE(report.ok()) << report.error();
  EXPECT_EQ(report->framesBaked, 7);  // frames 0, 5, ..., 30
  EXPECT_EQ(baked.findTrack(scene.skeleton.findJoint("Spine"))->rotation.size(), 7u);
}

// Sub-frame samples: the corrector solves at evenly spaced times between frames and the
// keys land there, so the clip plays its poses between frames too, not a slerp of its
// frames'; the report still counts and names source frames, each unreached frame once.
TEST(BakeJob, SubframesSolveBetweenFramesAndReportEachFrameOnce) {
  const Scene scene = makeMannequin();
  const Clip& source = scene.clips[0];
  KnownCorrector corrector(scene.skeleton);
  Clip baked;
  BakeJob job{&scene.skeleton, &source, &corrector, {}, &baked, {}};
  job.options.reduce = false;
  job.options.subframes = 0;
  ASSERT_TRUE(job.validate().has_value());
  EXPECT_NE(job.validate()->find("samples per frame step must be at least 1 (got 0)"), std::string::npos);
  job.options.subframes = 4;
  const auto report = job.run();
  ASSERT_TRUE(report.ok()) << report.error();
  const int frames = source.frameCount();
  EXPECT_EQ(report->framesBaked, frames);
  EXPECT_EQ(corrector.calls(), (frames - 1) * 4 + 1);
  const int arm = scene.skeleton.findJoint("LeftArm");
  for (int f = 0; f + 1 < frames; ++f) {
    const double t = source.timeOf(f) + 0.5 / source.frameRate;
    Pose expected(scene.skeleton.restPose().begin(), scene.skeleton.restPose().end());
    corrector.apply(expected, t);
    const Quat got = baked.findTrack(arm)->rotation.evaluate(t);
    EXPECT_LT(got.angularDistance(expected[static_cast<std::size_t>(arm)].rotation), 1e-5f) << "frame " << f;
  }
  // The corrector misses where time rounds to a frame divisible by 3: its own samples and
  // the later half of the frame before (0, 2, 3, 5, 6, ..., 29, 30), each reported once.
  EXPECT_EQ(report->unreached.size(), 21u);
  for (std::size_t i = 1; i < report->unreached.size(); ++i)
    EXPECT_LT(report->unreached[i - 1].frame, report->unreached[i].frame);
}

// Sub-frame samples solved only within spans: outside them a frame's sub-frame samples are
// the slerp of its frames' (no corrector call, no key), inside them the corrector's pose.
TEST(BakeJob, SubframeSpansSolveBetweenFramesOnlyWithinThem) {
  const Scene scene = makeMannequin();
  const Clip& source = scene.clips[0];
  KnownCorrector corrector(scene.skeleton);
  Clip baked;
  BakeJob job{&scene.skeleton, &source, &corrector, {}, &baked, {}};
  job.options.reduce = false;
  job.options.subframes = 4;
  job.options.subframeSpans = {{source.timeOf(10), source.timeOf(20)}};
  const auto report = job.run();
  ASSERT_TRUE(report.ok()) << report.error();
  const int frames = source.frameCount();
  EXPECT_EQ(corrector.calls(), frames + 10 * 3);  // every frame, and 3 samples in each of frames 10..19
  const int arm = scene.skeleton.findJoint("LeftArm");
  const RotationTrack& rotation = baked.findTrack(arm)->rotation;
  for (int f = 0; f + 1 < frames; ++f) {
    const double t = source.timeOf(f) + 0.5 / source.frameRate;
    Pose solved(scene.skeleton.restPose().begin(), scene.skeleton.restPose().end());
    corrector.apply(solved, t);
    const Quat between = rotation.evaluate(source.timeOf(f)).slerp(0.5f, rotation.evaluate(source.timeOf(f + 1)));
    const Quat expected = f >= 10 && f < 20 ? solved[static_cast<std::size_t>(arm)].rotation : between;
    EXPECT_LT(rotation.evaluate(t).angularDistance(expected), 1e-5f) << "frame " << f;
  }
}

// Morph weights are copied by a bake, but reduced with it: RobotExpressive keys its three
// face weights on every frame of Walking, more keys than the reduced joints. The reduced
// weights follow the source within a thousandth on every frame.
TEST(BakeJob, MorphWeightsAreReducedWithTheJoints) {
  auto scene = importScene(std::string(ARTICULA_TEST_DATA_DIR) + "/gltf/RobotExpressive/RobotExpressive.glb");
  ASSERT_TRUE(scene.ok()) << scene.error();
  const auto walking =
      std::find_if(scene->clips.begin(), scene->clips.end(), [](const Clip& c) { return c.name == "Walking"; });
  ASSERT_NE(walking, scene->clips.end());
  ASSERT_FALSE(walking->morphWeights.empty());
  Clip baked;
  BakeJob job{&scene->skeleton, &*walking, nullptr, {}, &baked, {}};
  job.options.reduction.toleranceModel = kDefaultToleranceOfHeight * scene->characterHeight();
  ASSERT_TRUE(job.run().ok());
  ASSERT_EQ(baked.morphWeights.size(), walking->morphWeights.size());
  for (std::size_t m = 0; m < baked.morphWeights.size(); ++m) {
    const auto& before = walking->morphWeights[m].weights;
    const auto& after = baked.morphWeights[m].weights;
    ASSERT_EQ(after.size(), before.size());
    for (std::size_t c = 0; c < before.size(); ++c) {
      EXPECT_LT(after[c].size(), before[c].size()) << "track " << m << " weight " << c;
      for (int f = 0; f < walking->frameCount(); ++f) {
        const double t = walking->timeOf(f);
        EXPECT_NEAR(after[c].evaluate(t), before[c].evaluate(t), 1e-3) << "frame " << f;
      }
    }
  }
}

// A reduced bake keys each channel at its own times; baking it again must not give every
// channel the keys of all the others (it then stored 9,595 keys where the first bake had
// 2,096, for CMU 02_01).
TEST(BakeJob, BakingAReducedBakeAgainKeepsItCompact) {
  auto scene = importScene(std::string(ARTICULA_TEST_DATA_DIR) + "/bvh/cmu-mb-2010/02_01.bvh");
  ASSERT_TRUE(scene.ok()) << scene.error();
  BakeOptions options;
  options.reduction.toleranceModel = kDefaultToleranceOfHeight * scene->characterHeight();
  Clip first;
  Clip second;
  BakeJob job{&scene->skeleton, &scene->clips[0], nullptr, options, &first, {}};
  ASSERT_TRUE(job.run().ok());
  job.source = &first;
  job.output = &second;
  ASSERT_TRUE(job.run().ok());
  const std::size_t firstKeys = channelKeyCount(first);
  EXPECT_LT(channelKeyCount(second), firstKeys + firstKeys / 10) << "first bake: " << firstKeys << " keys";
}

}  // namespace
}  // namespace articula
