#include "core/anim/clip.h"

#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <vector>

#include "core/anim/key_builders.h"

namespace articula {
namespace {

// A clip over four joints with every kind of key, dense enough that the cursors move.
Clip makeClip() {
  std::mt19937 rng(17);
  std::uniform_real_distribution<double> value(-1.0, 1.0);
  Clip clip;
  clip.name = "walk";
  const Interpolation kinds[] = {Interpolation::Bezier, Interpolation::Linear, Interpolation::Constant};
  const RotationInterpolation rotationKinds[] = {RotationInterpolation::Slerp, RotationInterpolation::Bezier,
                                                 RotationInterpolation::Step};
  for (int joint : {0, 2, 3}) {
    JointTrack& track = clip.trackFor(joint);
    std::vector<RotationKey> rotations;
    for (int i = 0; i <= 20; ++i) {
      const double t = 0.1 * i + 0.01 * joint;
      track.translation.x.insertKey(t, value(rng), kinds[i % 3]);
      track.translation.y.insertKey(t, value(rng), kinds[(i + 1) % 3]);
      RotationKey key =
          rotationKey(t, Quat(Eigen::AngleAxisf(static_cast<float>(value(rng)), Vec3::UnitY())), rotationKinds[i % 3]);
      key.outControl = Quat(Eigen::AngleAxisf(static_cast<float>(value(rng)), Vec3::UnitX()));
      key.inControl = Quat(Eigen::AngleAxisf(static_cast<float>(value(rng)), Vec3::UnitZ()));
      rotations.push_back(key);
    }
    track.rotation.setKeys(rotations);
    if (joint == 3) track.scale.z.insertKey(0.5, 2.0);
  }
  clip.curves["contact.left_foot"].insertKey(0.0, 1.0, Interpolation::Constant);
  clip.curves["contact.left_foot"].insertKey(1.0, 0.0, Interpolation::Constant);
  clip.updateRange();
  return clip;
}

std::vector<Transform> restPose(int joints) {
  std::vector<Transform> pose(static_cast<std::size_t>(joints));
  for (int j = 0; j < joints; ++j) {
    pose[static_cast<std::size_t>(j)].translation = Vec3(1.0f * j, 2.0f, 3.0f);
    pose[static_cast<std::size_t>(j)].rotation = Quat(Eigen::AngleAxisf(0.1f * j, Vec3::UnitZ()));
    pose[static_cast<std::size_t>(j)].scale = Vec3(1.0f, 1.5f, 2.5f);
  }
  return pose;
}

void expectSamePose(const std::vector<Transform>& a, const std::vector<Transform>& b, double t) {
  ASSERT_EQ(a.size(), b.size());
  for (std::size_t j = 0; j < a.size(); ++j) {
    EXPECT_EQ(a[j].translation, b[j].translation) << "joint " << j << " at " << t;
    EXPECT_EQ(a[j].rotation.coeffs(), b[j].rotation.coeffs()) << "joint " << j << " at " << t;
    EXPECT_EQ(a[j].scale, b[j].scale) << "joint " << j << " at " << t;
  }
}

TEST(Clip, FrameCount) {
  Clip clip;
  EXPECT_EQ(clip.frameCount(), 0);  // no keys, no range: nothing to play

  clip.curves["weight"].insertKey(0.0, 1.0);
  clip.updateRange();
  EXPECT_EQ(clip.frameCount(), 1);  // a single pose

  clip.startTime = 0.0;
  clip.endTime = 1.0;
  EXPECT_EQ(clip.frameCount(), 31);
  clip.endTime = 1.0 + 1e-7;  // rounding noise does not add a frame
  EXPECT_EQ(clip.frameCount(), 31);
  clip.frameRate = 24.0;
  clip.startTime = 0.5;
  clip.endTime = 2.5;
  EXPECT_EQ(clip.frameCount(), 49);

  Clip blank;
  blank.endTime = 2.0;
  EXPECT_EQ(blank.frameCount(), 61);  // a blank clip with a range can be stepped and keyed

  Clip bad = blank;
  bad.frameRate = 0.0;
  EXPECT_EQ(bad.frameCount(), 0);
  bad.frameRate = std::nan("");
  EXPECT_EQ(bad.frameCount(), 0);
  bad = blank;
  bad.startTime = 3.0;
  EXPECT_EQ(bad.frameCount(), 0);
  bad.startTime = -INFINITY;
  EXPECT_EQ(bad.frameCount(), 0);
}

TEST(Clip, TracksAreFoundOrCreatedOnce) {
  Clip clip;
  EXPECT_EQ(clip.findTrack(4), nullptr);
  JointTrack& track = clip.trackFor(4);
  EXPECT_EQ(track.joint, 4);
  clip.trackFor(1);
  EXPECT_EQ(&clip.trackFor(4), &clip.tracks[0]);
  EXPECT_EQ(clip.tracks.size(), 2u);
  ASSERT_NE(clip.findTrack(1), nullptr);
  EXPECT_EQ(clip.findTrack(1)->joint, 1);
}

TEST(ClipTrackIndex, FindsTheClipsTracksAndCreatesEachJointsOnce) {
  Clip clip;
  clip.trackFor(7);
  clip.trackFor(2);
  ClipTrackIndex index(clip.tracks);
  EXPECT_EQ(index.find(2), &clip.tracks[1]);
  EXPECT_EQ(index.find(3), nullptr);
  // Joints in no order, one repeated: each gets one track, appended as Clip::trackFor does.
  for (const int joint : {9, 3, 7, 9, 0}) index.trackFor(joint).translation.x.insertKey(joint, 1.0);
  ASSERT_EQ(clip.tracks.size(), 5u);
  const int jointsInOrder[] = {7, 2, 9, 3, 0};
  for (std::size_t i = 0; i < clip.tracks.size(); ++i) EXPECT_EQ(clip.tracks[i].joint, jointsInOrder[i]) << i;
  EXPECT_EQ(clip.findTrack(9)->translation.x.keys().size(), 1u);  // the same key inserted twice
  EXPECT_EQ(&index.trackFor(3), clip.findTrack(3));
  EXPECT_EQ(index.find(0), &clip.tracks[4]);
}

TEST(Clip, UpdateRangeAndKeyCountCoverEveryChannel) {
  Clip clip;
  clip.startTime = 5.0;
  clip.endTime = 6.0;
  clip.updateRange();  // no keys: range kept
  EXPECT_EQ(clip.startTime, 5.0);
  EXPECT_EQ(clip.endTime, 6.0);
  EXPECT_EQ(clip.keyCount(), 0u);

  clip.trackFor(0).translation.y.insertKey(0.5, 1.0);
  clip.trackFor(0).rotation.insertKey(rotationKey(-0.25, Quat::Identity(), RotationInterpolation::Slerp));
  clip.trackFor(1).scale.x.insertKey(1.0, 1.0);
  clip.curves["contact.right_foot"].insertKey(2.0, 0.0);
  clip.morphWeights.push_back({0, {Curve(), Curve()}});
  clip.morphWeights[0].weights[1].insertKey(3.0, 0.5);
  clip.morphWeights[0].weights[1].insertKey(2.5, 0.5);
  clip.updateRange();
  EXPECT_EQ(clip.startTime, -0.25);
  EXPECT_EQ(clip.endTime, 3.0);
  EXPECT_DOUBLE_EQ(clip.duration(), 3.25);
  EXPECT_EQ(clip.keyCount(), 6u);
}

TEST(Clip, ValidateNamesTheChannelAtFault) {
  Clip clip = makeClip();
  EXPECT_EQ(clip.validate(4), std::nullopt);

  auto expectError = [](const Clip& c, int joints, const std::string& fragment) {
    const auto error = c.validate(joints);
    ASSERT_TRUE(error.has_value()) << "expected an error containing " << fragment;
    EXPECT_NE(error->find(fragment), std::string::npos) << *error;
    EXPECT_NE(error->find("walk"), std::string::npos) << *error;
  };
  expectError(clip, 3, "joint 3 out of range");

  Clip badRate = clip;
  badRate.frameRate = -30.0;
  expectError(badRate, 4, "frame rate");

  Clip badRange = clip;
  badRange.endTime = badRange.startTime - 1.0;
  expectError(badRange, 4, "time range");

  Clip duplicate = clip;
  duplicate.tracks.push_back(duplicate.tracks[0]);
  expectError(duplicate, 4, "joint 0 has more than one track");

  Clip nanValue = clip;
  nanValue.curves["contact.left_foot"].insertKey(0.5, std::nan(""));
  expectError(nanValue, 4, "curve 'contact.left_foot' key 1");

  Clip nanTime = clip;
  nanTime.trackFor(2).translation.y.insertKey(std::nan(""), 0.0);
  expectError(nanTime, 4, "joint 2 translation.y key 21");

  Clip nanHandle = clip;
  CurveKey freeKey = nanHandle.trackFor(3).scale.z.keys()[0];
  freeKey.rightType = HandleType::Free;
  freeKey.right = Vec2d(std::nan(""), 0.0);
  nanHandle.trackFor(3).scale.z.setKey(0, freeKey);
  expectError(nanHandle, 4, "joint 3 scale.z key 0: non-finite handle");

  Clip zeroRotation = clip;
  zeroRotation.trackFor(0).rotation.insertKey(
      rotationKey(0.05, Quat(0.0f, 0.0f, 0.0f, 0.0f), RotationInterpolation::Slerp));
  expectError(zeroRotation, 4, "joint 0 rotation key 1: zero-length rotation");

  Clip badMorph = clip;
  badMorph.morphWeights.push_back({-1, {}});
  expectError(badMorph, 4, "mesh -1");
}

TEST(ClipSampler, SequentialRandomAndBackwardSamplingAgree) {
  const Clip clip = makeClip();
  std::vector<double> times;
  for (int i = -5; i <= 230; ++i) times.push_back(i / 100.0);
  // Reference: a fresh sampler (fresh cursors, so binary search) for every time.
  std::vector<std::vector<Transform>> expected;
  for (double t : times) {
    std::vector<Transform> pose = restPose(5);
    ClipSampler(&clip).sample(t, pose);
    expected.push_back(pose);
  }

  ClipSampler sequential(&clip);
  for (std::size_t i = 0; i < times.size(); ++i) {
    std::vector<Transform> pose = restPose(5);
    sequential.sample(times[i], pose);
    expectSamePose(pose, expected[i], times[i]);
  }
  ClipSampler backward(&clip);
  for (std::size_t i = times.size(); i-- > 0;) {
    std::vector<Transform> pose = restPose(5);
    backward.sample(times[i], pose);
    expectSamePose(pose, expected[i], times[i]);
  }
  std::mt19937 rng(2);
  std::uniform_int_distribution<std::size_t> pick(0, times.size() - 1);
  ClipSampler random(&clip);
  for (int n = 0; n < 500; ++n) {
    const std::size_t i = pick(rng);
    std::vector<Transform> pose = restPose(5);
    random.sample(times[i], pose);
    expectSamePose(pose, expected[i], times[i]);
  }
}

TEST(ClipSampler, SamplesTheTracks) {
  const Clip clip = makeClip();
  std::vector<Transform> pose = restPose(4);
  ClipSampler sampler(&clip);
  const double t = 0.73;
  sampler.sample(t, pose);
  for (const JointTrack& track : clip.tracks) {
    const Transform& local = pose[static_cast<std::size_t>(track.joint)];
    EXPECT_FLOAT_EQ(local.translation.x(), static_cast<float>(track.translation.x.evaluate(t)));
    EXPECT_FLOAT_EQ(local.translation.y(), static_cast<float>(track.translation.y.evaluate(t)));
    EXPECT_EQ(local.rotation.coeffs(), track.rotation.evaluate(t).coeffs());
  }
}

TEST(ClipSampler, UntouchedChannelsKeepThePoseValues) {
  const Clip clip = makeClip();
  const std::vector<Transform> rest = restPose(5);
  std::vector<Transform> pose = rest;
  ClipSampler sampler(&clip);
  sampler.sample(0.42, pose);
  // Joints 1 and 4 have no track at all.
  for (std::size_t j : {1u, 4u}) {
    EXPECT_EQ(pose[j].translation, rest[j].translation);
    EXPECT_EQ(pose[j].rotation.coeffs(), rest[j].rotation.coeffs());
    EXPECT_EQ(pose[j].scale, rest[j].scale);
  }
  // Animated joints keep their unkeyed components: translation.z and most of the scale.
  for (std::size_t j : {0u, 2u, 3u}) {
    EXPECT_EQ(pose[j].translation.z(), rest[j].translation.z());
    EXPECT_EQ(pose[j].scale.x(), rest[j].scale.x());
    EXPECT_EQ(pose[j].scale.y(), rest[j].scale.y());
  }
  EXPECT_EQ(pose[0].scale.z(), rest[0].scale.z());
  EXPECT_EQ(pose[3].scale.z(), 2.0f);

  // A pose shorter than the clip's joints: tracks beyond it are skipped, not written.
  std::vector<Transform> shortPose = restPose(1);
  sampler.sample(0.42, shortPose);
  EXPECT_EQ(shortPose[0].translation.x(), pose[0].translation.x());
}

TEST(ClipSampler, WithoutAClipOrAfterEditsItIsSafe) {
  std::vector<Transform> pose = restPose(3);
  const std::vector<Transform> rest = pose;
  ClipSampler empty;
  empty.sample(1.0, pose);
  expectSamePose(pose, rest, 1.0);

  Clip clip;
  clip.trackFor(0).translation.x.insertKey(0.0, 5.0);
  ClipSampler sampler(&clip);
  sampler.sample(0.0, pose);
  EXPECT_EQ(pose[0].translation.x(), 5.0f);
  // Tracks added after reset() are sampled too.
  clip.trackFor(2).translation.x.insertKey(0.0, 7.0);
  sampler.sample(0.0, pose);
  EXPECT_EQ(pose[2].translation.x(), 7.0f);
  sampler.reset(nullptr);
  pose = rest;
  sampler.sample(0.0, pose);
  expectSamePose(pose, rest, 0.0);
}

}  // namespace
}  // namespace articula
