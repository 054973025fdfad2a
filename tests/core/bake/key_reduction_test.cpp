#include "core/bake/key_reduction.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <string>
#include <vector>

#include "core/io/import.h"
#include "core/samples/mannequin.h"

namespace articula {
namespace {

double frameTime(const Clip& clip, int frame) { return clip.startTime + frame / clip.frameRate; }

// What a bake writes: every animated channel keyed on every frame (linear and slerp).
Clip densify(const Skeleton& skeleton, const Clip& clip, double frameRate) {
  Clip dense;
  dense.name = clip.name + "_dense";
  dense.frameRate = frameRate;
  dense.startTime = clip.startTime;
  dense.endTime = clip.endTime;
  dense.curves = clip.curves;
  const int frames = dense.frameCount();
  ClipSampler sampler(&clip);
  Pose pose(skeleton.restPose().begin(), skeleton.restPose().end());
  std::vector<std::vector<CurveKey>> translation(clip.tracks.size() * 3);
  std::vector<std::vector<RotationKey>> rotation(clip.tracks.size());
  for (int f = 0; f < frames; ++f) {
    const double t = frameTime(dense, f);
    sampler.sample(t, pose);
    for (std::size_t i = 0; i < clip.tracks.size(); ++i) {
      const Transform& local = pose[static_cast<std::size_t>(clip.tracks[i].joint)];
      RotationKey r;
      r.time = t;
      r.value = local.rotation;
      rotation[i].push_back(r);
      for (int c = 0; c < 3; ++c) {
        CurveKey k;
        k.time = t;
        k.value = local.translation[c];
        k.interpolation = Interpolation::Linear;
        translation[i * 3 + static_cast<std::size_t>(c)].push_back(k);
      }
    }
  }
  for (std::size_t i = 0; i < clip.tracks.size(); ++i) {
    JointTrack& track = dense.trackFor(clip.tracks[i].joint);
    track.rotation.setKeys(std::move(rotation[i]));
    if (!clip.tracks[i].translation.empty()) {
      track.translation.x.setKeys(std::move(translation[i * 3]));
      track.translation.y.setKeys(std::move(translation[i * 3 + 1]));
      track.translation.z.setKeys(std::move(translation[i * 3 + 2]));
    }
  }
  return dense;
}

// Independent of the reducer: largest model-space distance between the two clips' nodes
// over every frame of `a`.
float deviation(const Skeleton& skeleton, const Clip& a, const Clip& b) {
  ClipSampler sa(&a);
  ClipSampler sb(&b);
  Pose pa(skeleton.restPose().begin(), skeleton.restPose().end());
  Pose pb = pa;
  float worst = 0.0f;
  for (int f = 0; f < a.frameCount(); ++f) {
    const double t = frameTime(a, f);
    sa.sample(t, pa);
    sb.sample(t, pb);
    const auto ma = localToModel(skeleton, pa);
    const auto mb = localToModel(skeleton, pb);
    for (std::size_t j = 0; j < ma.size(); ++j)
      worst = std::max(worst, (ma[j].translation() - mb[j].translation()).norm());
  }
  return worst;
}

// Independent of the reducer: `b` played as Blender's glTF importer plays LINEAR rotations
// (four linear component curves, normalised when posed), against `a` as the spec plays it.
float deviationPerComponent(const Skeleton& skeleton, const Clip& a, const Clip& b) {
  ClipSampler sa(&a);
  ClipSampler sb(&b);
  Pose pa(skeleton.restPose().begin(), skeleton.restPose().end());
  Pose pb = pa;
  float worst = 0.0f;
  for (int f = 0; f < a.frameCount(); ++f) {
    const double t = frameTime(a, f);
    sa.sample(t, pa);
    sb.sample(t, pb);
    for (const JointTrack& track : b.tracks) {
      const std::vector<RotationKey>& keys = track.rotation.keys();
      for (std::size_t k = 0; k + 1 < keys.size(); ++k) {
        if (!(keys[k].time <= t && t < keys[k + 1].time)) continue;
        const float u = static_cast<float>((t - keys[k].time) / (keys[k + 1].time - keys[k].time));
        const Eigen::Vector4f c = (1.0f - u) * keys[k].value.coeffs() + u * keys[k + 1].value.coeffs();
        pb[static_cast<std::size_t>(track.joint)].rotation = Quat(c.w(), c.x(), c.y(), c.z()).normalized();
      }
    }
    const auto ma = localToModel(skeleton, pa);
    const auto mb = localToModel(skeleton, pb);
    for (std::size_t j = 0; j < ma.size(); ++j)
      worst = std::max(worst, (ma[j].translation() - mb[j].translation()).norm());
  }
  return worst;
}

bool hasKeyAt(const Curve& curve, double t) {
  for (const CurveKey& k : curve.keys()) {
    if (std::abs(k.time - t) < 1e-9) return true;
  }
  return false;
}

TEST(KeyReductionJob, DefaultJobIsInvalid) {
  const KeyReductionJob job;
  ASSERT_TRUE(job.validate().has_value());
  EXPECT_NE(job.validate()->find("no skeleton"), std::string::npos);
  EXPECT_FALSE(job.run().ok());
}

TEST(KeyReductionJob, BadInputIsNamedAndLeavesTheOutputUntouched) {
  const Scene scene = makeMannequin();
  Clip output;
  output.name = "untouched";
  KeyReductionJob job{&scene.skeleton, &scene.clips[0], {}, &output};

  Clip empty;
  empty.name = "blank";
  job.source = &empty;
  auto result = job.run();
  ASSERT_FALSE(result.ok());
  EXPECT_NE(result.error().find("clip 'blank' is empty"), std::string::npos) << result.error();

  job.source = &scene.clips[0];
  job.options.toleranceModel = std::nanf("");
  result = job.run();
  ASSERT_FALSE(result.ok());
  EXPECT_NE(result.error().find("tolerance must be a positive distance"), std::string::npos) << result.error();

  job.options.toleranceModel = 1e-3f;
  job.options.keepTimes = {0.1, INFINITY};
  result = job.run();
  ASSERT_FALSE(result.ok());
  EXPECT_NE(result.error().find("not finite"), std::string::npos) << result.error();

  Clip broken = scene.clips[0];
  broken.tracks[0].joint = 999;
  job.options.keepTimes.clear();
  job.source = &broken;
  result = job.run();
  ASSERT_FALSE(result.ok());
  EXPECT_NE(result.error().find("clip 'walk'"), std::string::npos) << result.error();
  EXPECT_EQ(output.name, "untouched");
}

TEST(KeyReduction, BakedWalkStaysWithinTheToleranceOnEveryFrame) {
  const Scene scene = makeMannequin();
  const Clip dense = densify(scene.skeleton, scene.clips[0], 120.0);
  const float tolerance = 1e-3f * scene.characterHeight();
  Clip reduced;
  const KeyReductionJob job{&scene.skeleton, &dense, {tolerance, {}, KeyInterpolation::Cubic, {}, {}, {}}, &reduced};
  const auto report = job.run();
  ASSERT_TRUE(report.ok()) << report.error();
  // Counted as glTF stores keys: one per key time of each joint channel (a translation key
  // is one key, not three); the densified clip keys every channel on every frame.
  std::size_t channels = 0;
  for (const JointTrack& track : dense.tracks)
    channels += std::size_t(!track.translation.empty()) + std::size_t(!track.rotation.empty()) +
                std::size_t(!track.scale.empty());
  EXPECT_EQ(report->keysBefore, channels * static_cast<std::size_t>(dense.frameCount()));
  EXPECT_EQ(report->framesChecked, dense.frameCount());
  EXPECT_LE(report->maxDeviationModel, tolerance);
  // Measured independently of the reducer.
  EXPECT_LE(deviation(scene.skeleton, dense, reduced), tolerance * 1.0001f);
  // A smooth walk keyed every 1/120 s needs a small fraction of its keys (cubic segments).
  EXPECT_LT(report->keysAfter * 10, report->keysBefore) << report->keysAfter << " of " << report->keysBefore;
  EXPECT_FALSE(reduced.validate(scene.skeleton.jointCount()).has_value());
  EXPECT_EQ(reduced.curves.size(), dense.curves.size());  // stride curves travel unchanged
}

// By default keys are lines (LINEAR in glTF): on a 24 fps walk, where a slerp and Blender's
// per-component lerp part most between keys, the reduced clip stays within the tolerance as
// either plays it, and the bake's report measured the larger of the two.
TEST(KeyReduction, LinearKeysHoldTheToleranceAsTheSpecAndBlenderPlayThem) {
  const Scene scene = makeMannequin();
  const Clip dense = densify(scene.skeleton, scene.clips[0], 24.0);
  const float tolerance = 1e-3f * scene.characterHeight();
  Clip reduced;
  KeyReductionJob job{&scene.skeleton, &dense, {}, &reduced};
  job.options.toleranceModel = tolerance;
  ASSERT_EQ(job.options.interpolation, KeyInterpolation::Linear);
  const auto report = job.run();
  ASSERT_TRUE(report.ok()) << report.error();
  for (const JointTrack& track : reduced.tracks) {
    for (const RotationKey& key : track.rotation.keys()) EXPECT_EQ(key.interpolation, RotationInterpolation::Slerp);
    EXPECT_FALSE(std::any_of(track.translation.x.keys().begin(), track.translation.x.keys().end(),
                             [](const CurveKey& key) { return key.interpolation == Interpolation::Bezier; }));
  }
  const float spec = deviation(scene.skeleton, dense, reduced);
  const float blender = deviationPerComponent(scene.skeleton, dense, reduced);
  EXPECT_LE(spec, tolerance * 1.0001f);
  EXPECT_LE(blender, tolerance * 1.0001f);
  EXPECT_NEAR(report->maxDeviationModel, std::max(spec, blender), tolerance * 1e-3f);
  EXPECT_LT(report->keysAfter, report->keysBefore);
  // The 24 fps source itself, keyed every frame, already plays differently in the two.
  EXPECT_GT(componentLerpDeviation(scene.skeleton, scene.skeleton.restPose(), dense, 120.0), 0.0f);
}

TEST(KeyReduction, KeepsTheExtremaOfAKnownCurve) {
  // One joint whose height follows a sine over one period, keyed every frame at 60 fps.
  Skeleton skeleton;
  skeleton.addJoint("root", kNoParent, Transform::identity());
  skeleton.addJoint("tip", 0, Transform{Vec3(0.0f, 1.0f, 0.0f)}, NodeKind::Tip);
  Clip dense;
  dense.name = "sine";
  dense.frameRate = 60.0;
  dense.endTime = 1.0;
  std::vector<CurveKey> x, y, z;
  for (int f = 0; f <= 60; ++f) {
    const double t = f / 60.0;
    CurveKey k;
    k.time = t;
    k.interpolation = Interpolation::Linear;
    k.value = 0.0;
    x.push_back(k);
    z.push_back(k);
    k.value = std::sin(2.0 * M_PI * t);
    y.push_back(k);
  }
  JointTrack& track = dense.trackFor(0);
  track.translation.x.setKeys(x);
  track.translation.y.setKeys(y);
  track.translation.z.setKeys(z);

  Clip reduced;
  const float tolerance = 1e-3f;
  const auto report =
      KeyReductionJob{&skeleton, &dense, {tolerance, {}, KeyInterpolation::Cubic, {}, {}, {}}, &reduced}.run();
  ASSERT_TRUE(report.ok()) << report.error();
  const Curve& height = reduced.findTrack(0)->translation.y;
  EXPECT_LE(height.size(), 9u) << "Bézier segments should follow a sine with few keys";
  EXPECT_NEAR(height.evaluate(0.25), 1.0, tolerance);
  EXPECT_NEAR(height.evaluate(0.75), -1.0, tolerance);
  EXPECT_LE(deviation(skeleton, dense, reduced), tolerance * 1.0001f);

  // Linear only needs more keys for the same bound.
  Clip linear;
  const auto linearReport =
      KeyReductionJob{&skeleton, &dense, {tolerance, {}, KeyInterpolation::Linear, {}, {}, {}}, &linear}.run();
  ASSERT_TRUE(linearReport.ok());
  EXPECT_GT(linearReport->keysAfter, report->keysAfter);
  EXPECT_LE(deviation(skeleton, dense, linear), tolerance * 1.0001f);
}

// A joint (root of a two-node skeleton) with a lever out to a tip at `leverLocal`, so a
// rotation error shows in the tip's position.
Skeleton leverSkeleton(const Vec3& leverLocal) {
  Skeleton skeleton;
  skeleton.addJoint("joint", kNoParent, Transform::identity());
  skeleton.addJoint("tip", 0, Transform{leverLocal}, NodeKind::Tip);
  return skeleton;
}

// Two seconds at 30 fps of the joint's rotation keyed on every frame.
Clip everyFrameRotation(const std::string& name, const std::function<Quat(double)>& rotationAt) {
  Clip dense;
  dense.name = name;
  dense.frameRate = 30.0;
  dense.endTime = 2.0;
  std::vector<RotationKey> keys;
  for (int f = 0; f <= 60; ++f) {
    RotationKey k;
    k.time = f / 30.0;
    k.value = rotationAt(k.time);
    keys.push_back(k);
  }
  dense.trackFor(0).rotation.setKeys(keys);
  return dense;
}

TEST(KeyReduction, ASpinPastHalfATurnIsNeverMergedTheWrongWay) {
  // A joint spinning 1.5 turns about Y at constant speed: any two rotations more than 180°
  // apart would slerp backwards. Its child sits 1 m out on X so the error shows in position.
  const Skeleton skeleton = leverSkeleton(Vec3(1.0f, 0.0f, 0.0f));
  const Clip dense = everyFrameRotation("spin", [](double t) {
    return Quat(Eigen::AngleAxisf(static_cast<float>(3.0 * M_PI * t / 2.0), Vec3::UnitY()));
  });

  Clip reduced;
  const float tolerance = 1e-3f;
  const auto report =
      KeyReductionJob{&skeleton, &dense, {tolerance, {}, KeyInterpolation::Cubic, {}, {}, {}}, &reduced}.run();
  ASSERT_TRUE(report.ok()) << report.error();
  const auto& kept = reduced.findTrack(0)->rotation.keys();
  ASSERT_GE(kept.size(), 4u);  // 540° in spans under 180°
  for (std::size_t i = 1; i < kept.size(); ++i) {
    const double spanRad = 3.0 * M_PI * (kept[i].time - kept[i - 1].time) / 2.0;
    EXPECT_LT(spanRad, M_PI) << "keys " << i - 1 << " and " << i;
  }
  EXPECT_LE(deviation(skeleton, dense, reduced), tolerance * 1.0001f);
}

// A channel that keeps three frames in four as reduced keys (a spike every fourth frame, as a
// noisy capture's hips) costs more bytes in glTF, where each reduced key also stores its time,
// than a key on every frame, whose times every such channel shares: it is keyed on every
// frame (61 keys, was 46), still within the tolerance. A smooth channel keeps its few keys.
TEST(KeyReduction, AChannelKeepingMostFramesIsKeyedOnEveryFrame) {
  const Skeleton skeleton = leverSkeleton(Vec3(1.0f, 0.0f, 0.0f));
  for (const bool spikes : {true, false}) {
    SCOPED_TRACE(spikes ? "spike every fourth frame" : "smooth");
    const Clip dense = everyFrameRotation("noisy", [&](double t) {
      const int frame = static_cast<int>(std::lround(t * 30.0));
      const double spike = spikes && frame % 4 == 0 ? 0.01 : 0.0;
      return Quat(Eigen::AngleAxisf(static_cast<float>(0.05 * std::sin(t * 2.0) + spike), Vec3::UnitZ()));
    });
    Clip reduced;
    const float tolerance = 1e-3f;
    KeyReductionJob job{&skeleton, &dense, {}, &reduced};
    job.options.toleranceModel = tolerance;
    const auto report = job.run();
    ASSERT_TRUE(report.ok()) << report.error();
    const std::vector<RotationKey>& keys = reduced.findTrack(0)->rotation.keys();
    if (spikes) {
      ASSERT_EQ(keys.size(), 61u);
      for (std::size_t f = 0; f < keys.size(); ++f) EXPECT_NEAR(keys[f].time, f / 30.0, 1e-9);
    } else {
      EXPECT_LT(keys.size(), 20u);
    }
    EXPECT_LE(deviation(skeleton, dense, reduced), tolerance * 1.0001f);
  }
}

TEST(KeyReduction, TurnsTooSmallForAFloatDotProductStillCount) {
  // A long lever (a leg's length, in centimetres) wobbling by under 4e-4 rad: cos of half
  // such an angle rounds to 1 in float, so a dot-product measure sees no turn at all and
  // merges every key, while the lever's end moves by several times the tolerance.
  const Skeleton skeleton = leverSkeleton(Vec3(0.0f, -90.0f, 0.0f));
  const Clip dense = everyFrameRotation("wobble", [](double t) {
    return Quat(Eigen::AngleAxisf(static_cast<float>(3.5e-4 * std::sin(t * 21.0)), Vec3::UnitZ()));
  });

  Clip reduced;
  const float tolerance = 5e-3f;  // the wobble moves the foot by up to 0.0315
  const auto report =
      KeyReductionJob{&skeleton, &dense, {tolerance, {}, KeyInterpolation::Cubic, {}, {}, {}}, &reduced}.run();
  ASSERT_TRUE(report.ok()) << report.error();
  EXPECT_GT(reduced.findTrack(0)->rotation.size(), 1u);
  EXPECT_LE(report->maxDeviationModel, tolerance);
  EXPECT_LE(deviation(skeleton, dense, reduced), tolerance * 1.0001f);
}

TEST(KeyReduction, ContactFramesAndRequestedKeysAreKept) {
  const Scene scene = makeMannequin();
  const Clip dense = densify(scene.skeleton, scene.clips[0], 60.0);
  std::vector<double> keep = contactKeyTimes(dense);
  ASSERT_GE(keep.size(), 4u) << "the walk plants each foot once per cycle";
  keep.push_back(frameTime(dense, 17));  // a user's key
  Clip reduced;
  const auto report = KeyReductionJob{&scene.skeleton,
                                      &dense,
                                      {1e-3f * scene.characterHeight(), keep, KeyInterpolation::Cubic, {}, {}, {}},
                                      &reduced}
                          .run();
  ASSERT_TRUE(report.ok()) << report.error();
  const int hips = scene.skeleton.findJoint("Hips");
  const JointTrack* track = reduced.findTrack(hips);
  ASSERT_NE(track, nullptr);
  for (const double t : keep) EXPECT_TRUE(hasKeyAt(track->translation.y, t)) << t;
}

// Contact times matter to the feet and what carries them: kept on a leg and every joint
// above it, not forced onto an arm.
TEST(KeyReduction, ChainKeepTimesStayOnTheChainAndAboveIt) {
  const Scene scene = makeMannequin();
  const Clip dense = densify(scene.skeleton, scene.clips[0], 60.0);
  const std::vector<double> keep = contactKeyTimes(dense);
  ASSERT_GE(keep.size(), 4u);
  const int foot = scene.skeleton.findJoint("LeftFoot");
  ASSERT_GE(foot, 0);
  Clip reduced;
  const auto report = KeyReductionJob{&scene.skeleton,
                                      &dense,
                                      {1e-3f * scene.characterHeight(), {}, KeyInterpolation::Cubic, keep, {foot}, {}},
                                      &reduced}
                          .run();
  ASSERT_TRUE(report.ok()) << report.error();
  auto keyedTimes = [&](const RotationTrack& rotation) {
    return std::count_if(keep.begin(), keep.end(), [&](double t) {
      return std::any_of(rotation.keys().begin(), rotation.keys().end(),
                         [&](const RotationKey& k) { return std::abs(k.time - t) < 1e-9; });
    });
  };
  for (int joint = foot; joint != kNoParent; joint = scene.skeleton.parent(joint)) {
    const JointTrack* track = reduced.findTrack(joint);
    if (track == nullptr || track->rotation.keys().size() < 2) continue;
    EXPECT_EQ(keyedTimes(track->rotation), static_cast<std::ptrdiff_t>(keep.size())) << scene.skeleton.name(joint);
  }
  const JointTrack* arm = reduced.findTrack(scene.skeleton.findJoint("LeftArm"));
  ASSERT_NE(arm, nullptr);
  EXPECT_LT(keyedTimes(arm->rotation), static_cast<std::ptrdiff_t>(keep.size()));
}

TEST(KeyReduction, ContactKeyTimesMarkThePlantedIntervals) {
  Clip clip;
  clip.frameRate = 10.0;
  clip.endTime = 1.0;
  Curve contact;
  contact.insertKey(0.0, 0.0, Interpolation::Constant);
  contact.insertKey(0.3, 1.0, Interpolation::Constant);
  contact.insertKey(0.7, 0.0, Interpolation::Constant);
  clip.curves["contact.left_foot"] = contact;
  clip.curves["ik.arm.weight"] = contact;  // not a stride curve
  const std::vector<double> times = contactKeyTimes(clip);
  const std::vector<double> expected = {0.2, 0.3, 0.6, 0.7};
  ASSERT_EQ(times.size(), expected.size());
  for (std::size_t i = 0; i < times.size(); ++i) EXPECT_NEAR(times[i], expected[i], 1e-9);
}

// Whether every key of a rotation track lies on glTF's normalised 16-bit grid up to the
// track's normalisation: what the glTF writer then stores as SHORT.
bool onShortGrid(const RotationTrack& track) {
  return std::all_of(track.keys().begin(), track.keys().end(), [](const RotationKey& key) {
    Eigen::Vector4d grid;
    for (int c = 0; c < 4; ++c) grid[c] = std::round(key.value.coeffs()[c] * 32767.0) / 32767.0;
    return (grid.normalized() - key.value.coeffs().cast<double>()).cwiseAbs().maxCoeff() < 1e-6;
  });
}

// Rotation keys come out on the 16-bit grid (and the tolerance still holds, measured
// independently), unless told not to; a joint whose rotation shows nowhere gets no key (a
// reader sees no animation on it), and one that is not in the skeleton is named.
TEST(KeyReduction, RotationsOnTheShortGridAndUnseenJointsWithoutKeys) {
  const Scene scene = makeMannequin();
  Clip dense = densify(scene.skeleton, scene.clips[0], 120.0);
  const float tolerance = 1e-3f * scene.characterHeight();
  // A leaf turned as the first animated joint turns: its rotation moves no node.
  int leaf = 0;
  while (leaf < scene.skeleton.jointCount() && !scene.skeleton.children(leaf).empty()) ++leaf;
  ASSERT_LT(leaf, scene.skeleton.jointCount());
  const RotationTrack turning = dense.tracks.front().rotation;
  ASSERT_GT(turning.size(), 1u);
  dense.trackFor(leaf).rotation = turning;
  for (const bool quantize : {true, false}) {
    SCOPED_TRACE(quantize ? "quantized" : "floats");
    Clip reduced;
    KeyReductionJob job{&scene.skeleton, &dense, {tolerance, {}, KeyInterpolation::Cubic, {}, {}, {}}, &reduced};
    job.options.quantizeRotations = quantize;
    job.options.unseenJoints = {leaf};
    const auto report = job.run();
    ASSERT_TRUE(report.ok()) << report.error();
    EXPECT_LE(deviation(scene.skeleton, dense, reduced), tolerance * 1.0001f);
    std::size_t gridTracks = 0;
    for (const JointTrack& track : reduced.tracks) {
      if (track.joint == leaf) {
        EXPECT_TRUE(track.rotation.empty());
      } else if (track.rotation.size() > 1) {
        gridTracks += onShortGrid(track.rotation) ? 1 : 0;
      }
    }
    if (quantize) {
      EXPECT_GE(gridTracks, 1u);
    } else {
      EXPECT_EQ(gridTracks, 0u);
    }
  }
  Clip untouched;
  KeyReductionJob job{&scene.skeleton, &dense, {tolerance, {}, KeyInterpolation::Cubic, {}, {}, {}}, &untouched};
  job.options.unseenJoints = {scene.skeleton.jointCount()};
  const auto refused = job.run();
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.error().find("is not in the skeleton"), std::string::npos) << refused.error();
}

// On a 24 fps clip a player steps between frames, where the per-frame bake plays lines. A
// translation that carries a foot (the hips here) keeps its cubics within the tolerance of
// those lines, so a foot cannot swing through the floor between frames; one that carries
// none (a head bobbing on its own) fits cubics through its frames only: fewer keys.
TEST(KeyReduction, OnlyTranslationsThatCarryAFootAreHeldBetweenFrames) {
  const Scene scene = makeMannequin();
  const Skeleton& skeleton = scene.skeleton;
  const int hips = skeleton.findJoint("Hips");
  const int head = skeleton.findJoint("Head");
  const int foot = skeleton.findJoint("LeftFoot");
  ASSERT_GE(hips, 0);
  ASSERT_GE(head, 0);
  ASSERT_GE(foot, 0);
  Clip dense = densify(skeleton, scene.clips[0], 24.0);
  const float tolerance = 1e-3f * scene.characterHeight();
  // A bob of 3 cm at 3 Hz, sharp at every frame for a line between them.
  std::vector<CurveKey> bob;
  for (int f = 0; f < dense.frameCount(); ++f) {
    CurveKey key;
    key.time = frameTime(dense, f);
    key.value = skeleton.restPose()[static_cast<std::size_t>(head)].translation.y() +
                0.03f * static_cast<float>(std::sin(2.0 * M_PI * 3.0 * key.time));
    key.interpolation = Interpolation::Linear;
    bob.push_back(key);
  }
  Vec3Track& headTranslation = dense.trackFor(head).translation;
  for (Curve* c : {&headTranslation.x, &headTranslation.y, &headTranslation.z}) c->setKeys(bob);
  const Vec3 headRest = skeleton.restPose()[static_cast<std::size_t>(head)].translation;
  for (auto [curve, value] : {std::pair{&headTranslation.x, headRest.x()}, std::pair{&headTranslation.z, headRest.z()}}) {
    std::vector<CurveKey> still = bob;
    for (CurveKey& key : still) key.value = value;
    curve->setKeys(std::move(still));
  }

  auto reduce = [&](std::vector<int> feet) {
    Clip reduced;
    KeyReductionJob job{&skeleton, &dense, {tolerance, {}, KeyInterpolation::Cubic, {}, {}, {}}, &reduced};
    job.options.betweenFramesJoints = std::move(feet);
    const auto report = job.run();
    EXPECT_TRUE(report.ok()) << report.error();
    EXPECT_LE(deviation(skeleton, dense, reduced), tolerance * 1.0001f);
    return reduced;
  };
  const Clip everyTranslation = reduce({});
  const Clip feetOnly = reduce({foot});
  auto keysOf = [](const Clip& clip, int joint) { return clip.findTrack(joint)->translation.y.size(); };
  EXPECT_LT(keysOf(feetOnly, head), keysOf(everyTranslation, head));
  EXPECT_EQ(keysOf(feetOnly, hips), keysOf(everyTranslation, hips));
  // Halfway between frames the hips stay within the tolerance of the per-frame bake's line.
  const Vec3Track& sourceHips = dense.findTrack(hips)->translation;
  const Vec3Track& reducedHips = feetOnly.findTrack(hips)->translation;
  for (int f = 0; f + 1 < dense.frameCount(); ++f) {
    const double t = (frameTime(dense, f) + frameTime(dense, f + 1)) / 2.0;
    EXPECT_LE((reducedHips.evaluate(t, Vec3::Zero()) - sourceHips.evaluate(t, Vec3::Zero())).norm(), tolerance) << "between frames " << f;
  }
  Clip untouched;
  KeyReductionJob job{&skeleton, &dense, {tolerance, {}, KeyInterpolation::Cubic, {}, {}, {}}, &untouched};
  job.options.betweenFramesJoints = {-1};
  const auto refused = job.run();
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.error().find("a foot to hold between frames"), std::string::npos) << refused.error();
}

TEST(KeyReduction, MocapClipFromBvh) {
  const auto scene = importScene(std::string(ARTICULA_TEST_DATA_DIR) + "/bvh/cmu-mb-2010/02_01.bvh");
  ASSERT_TRUE(scene.ok()) << scene.error();
  const float tolerance = 1e-3f * scene->characterHeight();
  Clip reduced;
  const auto report =
      KeyReductionJob{
          &scene->skeleton, &scene->clips[0], {tolerance, {}, KeyInterpolation::Cubic, {}, {}, {}}, &reduced}
          .run();
  ASSERT_TRUE(report.ok()) << report.error();
  EXPECT_LE(report->maxDeviationModel, tolerance);
  EXPECT_LE(deviation(scene->skeleton, scene->clips[0], reduced), tolerance * 1.0001f);
  EXPECT_LT(report->keysAfter * 4, report->keysBefore);  // mocap noise keeps more keys than a keyed walk
  std::printf("walk: %zu -> %zu dev %g passes %d\n", report->keysBefore, report->keysAfter, report->maxDeviationModel,
              report->refinementPasses);
  std::printf("02_01.bvh: %zu keys -> %zu, max deviation %.4g (tolerance %.4g), %d refinement passes\n",
              report->keysBefore, report->keysAfter, report->maxDeviationModel, tolerance, report->refinementPasses);
}

}  // namespace
}  // namespace articula
