#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <limits>

#include "core/clipops/butterworth.h"
#include "core/clipops/clip_filter.h"
#include "core/clipops/travel.h"
#include "core/io/import.h"
#include "core/skeleton/local_to_model.h"

namespace articula {
namespace {

Scene load(const std::string& relative) {
  auto scene = importScene(std::string(ARTICULA_TEST_DATA_DIR) + "/" + relative);
  EXPECT_TRUE(scene.ok()) << relative << ": " << (scene.ok() ? "" : scene.error());
  return scene.ok() ? std::move(*scene) : Scene{};
}

float heightOf(const Scene& scene) {
  auto frame = humanoidTravelFrame(scene.skeleton);
  EXPECT_TRUE(frame.ok());
  return frame.ok() ? frame->heightModel : 1.0f;
}

std::vector<int> animatedJoints(const Clip& clip) {
  std::vector<int> joints;
  for (const JointTrack& track : clip.tracks) joints.push_back(track.joint);
  return joints;
}

// Local poses and model-space positions of every joint at every frame.
struct Sampled {
  std::vector<Pose> local;
  std::vector<std::vector<Vec3>> model;
};

Sampled sample(const Skeleton& skeleton, const Clip& clip) {
  Sampled out;
  ClipSampler sampler(&clip);
  Pose pose(skeleton.restPose().begin(), skeleton.restPose().end());
  for (int f = 0; f < clip.frameCount(); ++f) {
    sampler.sample(clip.timeOf(f), pose);
    out.local.push_back(pose);
    auto& positions = out.model.emplace_back();
    for (const Affine& m : localToModel(skeleton, pose)) positions.push_back(m.translation());
  }
  return out;
}

// Energy of the fourth difference of joint `joint`'s local rotation (its quaternion made
// continuous in sign): what white noise on the angle feeds, a smooth motion barely does.
double fourthDifferenceEnergy(const Sampled& s, int joint, int firstFrame) {
  std::vector<Quat> q;
  for (std::size_t f = std::size_t(firstFrame); f < s.local.size(); ++f) {
    const Pose& pose = s.local[f];
    const Quat r = pose[std::size_t(joint)].rotation;
    q.push_back(q.empty() || r.dot(q.back()) >= 0.0f ? r : Quat(-r.w(), -r.x(), -r.y(), -r.z()));
  }
  double energy = 0.0;
  for (std::size_t f = 4; f < q.size(); ++f) {
    const Eigen::Vector4d d = q[f].coeffs().cast<double>() - 4.0 * q[f - 1].coeffs().cast<double>() +
                              6.0 * q[f - 2].coeffs().cast<double>() - 4.0 * q[f - 3].coeffs().cast<double>() +
                              q[f - 4].coeffs().cast<double>();
    energy += d.squaredNorm();
  }
  return energy;
}

struct Proof {
  double smallestNoiseRatio = std::numeric_limits<double>::max();
  double largestRmsMm = 0.0;
  double allJointsRmsMm = 0.0;
};

Proof butterworthProof(const char* file, int firstFrame) {
  Scene scene = load(file);
  const Clip& clip = scene.clips.front();
  ClipFilterJob job;
  job.firstFrame = firstFrame;
  job.skeleton = &scene.skeleton;
  job.clip = &clip;
  job.joints = animatedJoints(clip);
  job.settings.cutoffHz = 6.0;
  auto result = job.run();
  EXPECT_TRUE(result.ok()) << (result.ok() ? "" : result.error());
  if (!result.ok()) return {};
  const Sampled before = sample(scene.skeleton, clip);
  const Sampled after = sample(scene.skeleton, result->clip);
  const double mm = 1750.0 / heightOf(scene);
  const std::size_t frames = before.model.size() - std::size_t(firstFrame);
  Proof proof;
  for (const JointTrack& track : clip.tracks) {
    if (track.rotation.empty()) continue;
    const double noise = fourthDifferenceEnergy(before, track.joint, firstFrame);
    if (noise < 1e-12) continue;  // a joint the capture holds still
    proof.smallestNoiseRatio =
        std::min(proof.smallestNoiseRatio, noise / fourthDifferenceEnergy(after, track.joint, firstFrame));
  }
  double sumAll = 0.0;
  for (int j = 0; j < scene.skeleton.jointCount(); ++j) {
    double sum = 0.0;
    for (std::size_t f = 0; f < before.model.size(); ++f)
      sum += double((after.model[f][std::size_t(j)] - before.model[f][std::size_t(j)]).squaredNorm());
    sumAll += sum;
    proof.largestRmsMm = std::max(proof.largestRmsMm, std::sqrt(sum / double(frames)) * mm);
  }
  proof.allJointsRmsMm = std::sqrt(sumAll / (double(frames) * scene.skeleton.jointCount())) * mm;
  std::printf(
      "%s butterworth:6: noise energy / %.1f (smallest joint), RMS motion %.2f mm (largest joint), %.2f mm (all)\n",
      file, proof.smallestNoiseRatio, proof.largestRmsMm, proof.allJointsRmsMm);
  return proof;
}

TEST(ClipFilter, DefaultJobIsInvalid) {
  EXPECT_TRUE(ClipFilterJob{}.validate().has_value());
  EXPECT_FALSE(ClipFilterJob{}.run().ok());
}

TEST(ClipFilter, ButterworthPassesConstantsAndLinesAndHalvesPowerAtTheCutoff) {
  const auto sections = butterworthSections(2, 6.0, 120.0);
  std::vector<double> line(200);
  for (std::size_t i = 0; i < line.size(); ++i) line[i] = 3.0 + 0.25 * double(i);
  std::vector<double> filtered = line;
  filtfiltInPlace(sections, 40, filtered);
  for (std::size_t i = 0; i < line.size(); ++i) EXPECT_NEAR(filtered[i], line[i], 1e-4) << "frame " << i;
  // A sine at the cutoff comes out at 1/sqrt(2) of its amplitude (two passes, -3 dB).
  std::vector<double> sine(1200);
  for (std::size_t i = 0; i < sine.size(); ++i) sine[i] = std::sin(2.0 * M_PI * 6.0 * double(i) / 120.0);
  filtfiltInPlace(sections, 40, sine);
  double peak = 0.0;
  for (std::size_t i = 400; i < 800; ++i) peak = std::max(peak, std::abs(sine[i]));
  EXPECT_NEAR(peak, 1.0 / std::sqrt(2.0), 0.01);
}

// CMU captures start with a T-pose frame, left out of the range as a user would.
TEST(ClipFilter, Butterworth6HzCutsTheCmuWalksNoiseTenfoldMovingJointsUnder5Mm) {
  const Proof proof = butterworthProof("bvh/cmu-mb-2010/02_01.bvh", 1);
  EXPECT_GE(proof.smallestNoiseRatio, 10.0);
  EXPECT_LE(proof.largestRmsMm, 5.0);
}

// A run: the same noise cut; the toe tips' impacts are motion above 6 Hz, so they move more.
TEST(ClipFilter, Butterworth6HzOnACmuRun) {
  const Proof proof = butterworthProof("bvh/cmu-mb-2010/09_11.bvh", 1);
  EXPECT_GE(proof.smallestNoiseRatio, 10.0);
  EXPECT_LE(proof.allJointsRmsMm, 5.0);
  EXPECT_LE(proof.largestRmsMm, 12.0);
}

// 14 keyed frames at 24 fps (Z-up, no capture noise): 6 Hz is half its Nyquist rate, so the
// filter smooths the keyed motion itself, and only that much.
TEST(ClipFilter, Butterworth6HzOnAZUpMakeHumanWalk) {
  const Proof proof = butterworthProof("bvh/makehuman/walk1.bvh", 0);
  EXPECT_GE(proof.smallestNoiseRatio, 1.5);
  EXPECT_LE(proof.allJointsRmsMm, 6.0);
}

ClipFilterJob jobOn(const Scene& scene, const Clip& clip, const std::string& word) {
  ClipFilterJob job;
  job.skeleton = &scene.skeleton;
  job.clip = &clip;
  job.joints = animatedJoints(clip);
  auto settings = parseFilter(word);
  EXPECT_TRUE(settings.ok()) << word;
  if (settings.ok()) job.settings = *settings;
  return job;
}

TEST(ClipFilter, FilterWordsReadBack) {
  for (const char* word : {"butterworth:6:2", "resample:30", "peaks:10", "unroll", "reduce"}) {
    auto settings = parseFilter(word);
    ASSERT_TRUE(settings.ok()) << word;
    EXPECT_EQ(filterWord(*settings), word);
  }
  EXPECT_EQ(filterWord(*parseFilter("butterworth:6")), "butterworth:6:2");
  for (const char* word : {"butterworth", "butterworth:x", "butterworth:6:2.5", "resample", "peaks:a", "blur:3", ""})
    EXPECT_FALSE(parseFilter(word).ok()) << word;
}

// Odd input: one line naming the clip and the problem; nothing changes.
TEST(ClipFilter, OddInputIsRefusedInOneLineAndChangesNothing) {
  Scene scene = load("bvh/cmu-mb-2010/02_01.bvh");
  Clip& clip = scene.clips.front();
  auto expectRefused = [&](ClipFilterJob job, const std::string& words) {
    const auto error = job.validate();
    ASSERT_TRUE(error.has_value()) << words;
    EXPECT_NE(error->find(words), std::string::npos) << *error;
    EXPECT_EQ(error->find('\n'), std::string::npos) << *error;
    EXPECT_FALSE(job.run().ok());
  };
  expectRefused(jobOn(scene, clip, "butterworth:60"), "half the frame rate (60 Hz)");
  expectRefused(jobOn(scene, clip, "butterworth:75"), "half the frame rate");
  ClipFilterJob shortRange = jobOn(scene, clip, "butterworth:6");
  shortRange.firstFrame = 100;
  shortRange.lastFrame = 105;
  expectRefused(shortRange, "butterworth needs at least 10 frames, the range has 6");
  ClipFilterJob noJoints = jobOn(scene, clip, "butterworth:6");
  noJoints.joints.clear();
  expectRefused(noJoints, "no joints to filter");
  ClipFilterJob reversed = jobOn(scene, clip, "peaks");
  reversed.firstFrame = 200;
  reversed.lastFrame = 100;
  expectRefused(reversed, "are not a range of its");

  Clip endless = clip;  // a key 1e7 s away: 1.2e9 frames at 120 fps
  RotationKey far;
  far.time = 1e7;
  endless.tracks[3].rotation.insertKey(far);
  endless.updateRange();
  expectRefused(jobOn(scene, endless, "butterworth:6"), "past the most a filter samples");
  expectRefused(jobOn(scene, endless, "resample:30"), "past the most a filter samples");

  Clip empty;
  empty.name = "empty";
  EXPECT_FALSE(filterWholeClip(scene.skeleton, 1.0f, empty, *parseFilter("butterworth:6")).ok());
  EXPECT_FALSE(filterWholeClip(scene.skeleton, 1.0f, clip, *parseFilter("butterworth:61")).ok());
  std::vector<RotationKey> keys = clip.tracks[3].rotation.keys();
  keys[40].value = Quat(std::nanf(""), 0.0f, 0.0f, 1.0f);
  clip.tracks[3].rotation.setKeys(keys);
  const Clip withNan = clip;
  const auto refused = filterWholeClip(scene.skeleton, 1.0f, clip, *parseFilter("butterworth:6"));
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.error().find("non-finite"), std::string::npos) << refused.error();
  EXPECT_EQ(clip.tracks[3].rotation.keys().size(), withNan.tracks[3].rotation.keys().size());
  EXPECT_TRUE(std::isnan(clip.tracks[3].rotation.keys()[40].value.w()));
}

// A filter on some joints over some frames changes nothing else: translations to the bit,
// rotations to float rounding (setting a track's keys renormalises each of them).
TEST(ClipFilter, ARangeOfSomeJointsLeavesEveryOtherFrameAndJointAsItWas) {
  Scene scene = load("bvh/cmu-mb-2010/02_01.bvh");
  const Clip& clip = scene.clips.front();
  const std::vector<int> arm = {scene.skeleton.findJoint("LeftArm"), scene.skeleton.findJoint("LeftForeArm")};
  for (const char* word : {"butterworth:6", "peaks", "reduce", "unroll", "resample:30"}) {
    SCOPED_TRACE(word);
    ClipFilterJob job = jobOn(scene, clip, word);
    job.joints = arm;
    job.firstFrame = 100;
    job.lastFrame = 200;
    if (job.settings.kind == FilterKind::Reduce) job.settings.toleranceModel = 0.1f;
    auto result = job.run();
    ASSERT_TRUE(result.ok()) << result.error();
    EXPECT_EQ(result->clip.frameRate, clip.frameRate);
    const Sampled before = sample(scene.skeleton, clip);
    const Sampled after = sample(scene.skeleton, result->clip);
    ASSERT_EQ(before.local.size(), after.local.size());
    for (std::size_t f = 0; f < before.local.size(); ++f) {
      for (int j = 0; j < scene.skeleton.jointCount(); ++j) {
        const bool touched = f >= 100 && f <= 200 && (j == arm[0] || j == arm[1]);
        if (touched) continue;
        const Transform& a = before.local[f][std::size_t(j)];
        const Transform& b = after.local[f][std::size_t(j)];
        ASSERT_TRUE(a.translation == b.translation && (a.rotation.coeffs() - b.rotation.coeffs()).norm() < 3e-7f)
            << "frame " << f << " joint " << scene.skeleton.name(j);
      }
    }
  }
}

// A single-frame spike (a marker swap) is put back between its neighbours; a clean capture
// keeps every frame.
TEST(ClipFilter, PeaksRemovesASpikeAndLeavesACleanCaptureAlone) {
  Scene scene = load("bvh/cmu-mb-2010/02_01.bvh");
  Clip clip = scene.clips.front();
  const int forearm = scene.skeleton.findJoint("RightForeArm");
  ClipFilterJob clean = jobOn(scene, clip, "peaks");
  clean.firstFrame = 1;
  auto untouched = clean.run();
  ASSERT_TRUE(untouched.ok());
  std::printf("02_01 peaks: %d frames of channels replaced in the capture\n", untouched->report.framesChanged);

  JointTrack& track = clip.trackFor(forearm);
  std::vector<RotationKey> keys = track.rotation.keys();
  const Quat original = keys[150].value;
  keys[150].value = (original * Quat(Eigen::AngleAxisf(0.35f, Vec3::UnitX()))).normalized();
  track.rotation.setKeys(keys);
  ClipFilterJob spiked = jobOn(scene, clip, "peaks");
  spiked.firstFrame = 1;
  auto result = spiked.run();
  ASSERT_TRUE(result.ok()) << result.error();
  EXPECT_EQ(result->report.framesChanged, untouched->report.framesChanged + 1);
  const Quat repaired = result->clip.findTrack(forearm)->rotation.evaluate(clip.timeOf(150));
  EXPECT_LT(repaired.angularDistance(original), 0.01f)
      << "a 20 degree spike left " << repaired.angularDistance(original);
}

// Resampling the whole clip sets its rate; the motion at the new keys is the old motion.
TEST(ClipFilter, ResampleTheWholeCaptureTo30Fps) {
  Scene scene = load("bvh/cmu-mb-2010/02_01.bvh");
  const Clip& clip = scene.clips.front();
  auto result = jobOn(scene, clip, "resample:30").run();
  ASSERT_TRUE(result.ok()) << result.error();
  EXPECT_EQ(result->clip.frameRate, 30.0);
  EXPECT_EQ(result->clip.frameCount(), int(std::lround(clip.duration() * 30.0)) + 1);
  EXPECT_LT(result->report.keysAfter * 3, result->report.keysBefore + result->clip.tracks.size() * 3);
  Pose a(scene.skeleton.restPose().begin(), scene.skeleton.restPose().end());
  Pose b = a;
  ClipSampler(&clip).sample(clip.timeOf(0) + 37.0 / 30.0, a);
  ClipSampler(&result->clip).sample(clip.timeOf(0) + 37.0 / 30.0, b);
  for (std::size_t j = 0; j < a.size(); ++j) EXPECT_LT(a[j].rotation.angularDistance(b[j].rotation), 1e-4f);
}

// Key reduction of a range holds the bake's bound: every joint within the tolerance.
TEST(ClipFilter, ReduceARangeWithinTheBakesBound) {
  Scene scene = load("bvh/cmu-mb-2010/02_01.bvh");
  const Clip& clip = scene.clips.front();
  const float height = heightOf(scene);
  ClipFilterJob job = jobOn(scene, clip, "reduce");
  job.firstFrame = 1;
  job.settings.toleranceModel = height / 1750.0f;
  auto result = job.run();
  ASSERT_TRUE(result.ok()) << result.error();
  EXPECT_LT(result->report.keysAfter * 3, result->report.keysBefore * 2);
  const Sampled before = sample(scene.skeleton, clip);
  const Sampled after = sample(scene.skeleton, result->clip);
  double largest = 0.0;
  for (std::size_t f = 0; f < before.model.size(); ++f) {
    for (std::size_t j = 0; j < before.model[f].size(); ++j)
      largest = std::max(largest, double((after.model[f][j] - before.model[f][j]).norm()));
  }
  std::printf("02_01 reduce: keys %zu -> %zu, largest move %.3f mm\n", result->report.keysBefore,
              result->report.keysAfter, largest * 1750.0 / height);
  EXPECT_LE(largest, double(job.settings.toleranceModel) * 1.001);
}

// Cubic-spline keys stored with alternating signs play through zero between keys; unrolled,
// they play the capture.
TEST(ClipFilter, UnrollPutsFlippedKeysBackInOneHemisphere) {
  Scene scene = load("bvh/cmu-mb-2010/02_01.bvh");
  Clip clip = scene.clips.front();
  const int thigh = scene.skeleton.findJoint("LeftUpLeg");
  JointTrack& track = clip.trackFor(thigh);
  std::vector<RotationKey> keys = track.rotation.keys();
  for (std::size_t i = 0; i < keys.size(); ++i) {
    keys[i].interpolation = RotationInterpolation::CubicSpline;
    keys[i].inControl = keys[i].outControl = Quat(0.0f, 0.0f, 0.0f, 0.0f);
    if (i % 2 == 1)
      keys[i].value = Quat(-keys[i].value.w(), -keys[i].value.x(), -keys[i].value.y(), -keys[i].value.z());
  }
  track.rotation.setKeys(keys);
  const double between = clip.timeOf(100) + 0.5 / clip.frameRate;
  const Quat truth = scene.clips.front().findTrack(thigh)->rotation.evaluate(between);
  EXPECT_GT(track.rotation.evaluate(between).angularDistance(truth), 0.1f);
  auto result = jobOn(scene, clip, "unroll").run();
  ASSERT_TRUE(result.ok()) << result.error();
  EXPECT_EQ(result->report.framesChanged, int(keys.size() / 2));
  EXPECT_LT(result->clip.findTrack(thigh)->rotation.evaluate(between).angularDistance(truth), 0.01f);
}

}  // namespace
}  // namespace articula
