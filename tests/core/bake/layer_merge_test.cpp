#include "core/bake/layer_merge.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "core/anim/layer_stack.h"
#include "core/bake/key_reduction.h"
#include "core/io/import.h"
#include "core/samples/mannequin.h"

namespace articula {
namespace {

// An additive layer that raises `joint` 20° about its local Z over one second from `start`.
AnimLayer armRaise(int joint, double start) {
  AnimLayer layer;
  layer.name = "raise arm";
  RotationKey from;
  from.time = start;
  RotationKey to = from;
  to.time = start + 1.0;
  to.value = Quat(Eigen::AngleAxisf(20.0f * kPi / 180.0f, Vec3::UnitZ()));
  layer.trackFor(joint).rotation.setKeys({from, to});
  return layer;
}

std::vector<Affine> modelPose(const Skeleton& skeleton, const Pose& local) {
  std::vector<Affine> model(local.size());
  LocalToModelJob{&skeleton, local, model}.run();
  return model;
}

// Largest distance (skeleton units) between any joint of a's stack and b's on a's frames.
float largestDistance(const Skeleton& skeleton, const Clip& a, const Clip& b) {
  LayeredClipSampler samplerA(&a);
  LayeredClipSampler samplerB(&b);
  const Pose rest(skeleton.restPose().begin(), skeleton.restPose().end());
  float worst = 0.0f;
  for (int f = 0; f < a.frameCount(); ++f) {
    Pose poseA = rest;
    Pose poseB = rest;
    samplerA.sample(a.timeOf(f), poseA);
    samplerB.sample(a.timeOf(f), poseB);
    const std::vector<Affine> modelA = modelPose(skeleton, poseA);
    const std::vector<Affine> modelB = modelPose(skeleton, poseB);
    for (std::size_t j = 0; j < modelA.size(); ++j)
      worst = std::max(worst, (modelA[j].translation() - modelB[j].translation()).norm());
  }
  return worst;
}

bool sameKeys(const JointTrack& a, const JointTrack& b) {
  auto sameCurve = [](const Curve& x, const Curve& y) {
    if (x.size() != y.size()) return false;
    for (std::size_t i = 0; i < x.size(); ++i) {
      const CurveKey& p = x.keys()[i];
      const CurveKey& q = y.keys()[i];
      if (p.time != q.time || std::memcmp(&p.value, &q.value, sizeof(double)) != 0 ||
          p.interpolation != q.interpolation || p.left != q.left || p.right != q.right)
        return false;
    }
    return true;
  };
  if (a.joint != b.joint || a.rotation.size() != b.rotation.size()) return false;
  for (std::size_t i = 0; i < a.rotation.size(); ++i) {
    const RotationKey& x = a.rotation.keys()[i];
    const RotationKey& y = b.rotation.keys()[i];
    if (x.time != y.time || std::memcmp(x.value.coeffs().data(), y.value.coeffs().data(), 4 * sizeof(float)) != 0)
      return false;
  }
  return sameCurve(a.translation.x, b.translation.x) && sameCurve(a.translation.y, b.translation.y) &&
         sameCurve(a.translation.z, b.translation.z) && sameCurve(a.scale.x, b.scale.x) &&
         sameCurve(a.scale.y, b.scale.y) && sameCurve(a.scale.z, b.scale.z);
}

struct Capture {
  const char* file;
  const char* arm;
};

class LayerProof : public ::testing::TestWithParam<Capture> {};

// Issue 40's proof: a layer leaves the capture's keys alone, muted it plays the capture
// exactly, merged it plays the layered motion within 1 mm at 1.75 m, the base stays dense.
TEST_P(LayerProof, RaisedArmLayerLeavesTheCaptureAndMergesWithinAMillimetre) {
  const auto scene = importScene(std::string(ARTICULA_TEST_DATA_DIR) + "/bvh/" + GetParam().file);
  ASSERT_TRUE(scene.ok()) << scene.error();
  const Skeleton& skeleton = scene->skeleton;
  const Clip original = scene->clips[0];
  const int arm = skeleton.findJoint(GetParam().arm);
  ASSERT_GE(arm, 0);
  Clip layered = original;
  layered.layers.push_back(armRaise(arm, original.startTime + 0.5));
  ASSERT_EQ(layered.validate(skeleton.jointCount()), std::nullopt);
  for (std::size_t i = 0; i < original.tracks.size(); ++i) EXPECT_TRUE(sameKeys(layered.tracks[i], original.tracks[i]));

  const float mmPerUnit = kReferenceHeightMm / scene->characterHeight();
  const float raisedMm = largestDistance(skeleton, layered, original) * mmPerUnit;
  EXPECT_GT(raisedMm, 50.0f);  // the hand moves

  Clip muted = layered;
  muted.layers[0].muted = true;
  LayeredClipSampler mutedSampler(&muted);
  ClipSampler baseSampler(&original);
  bool identical = true;
  for (int f = 0; f < original.frameCount(); ++f) {
    Pose a(skeleton.restPose().begin(), skeleton.restPose().end());
    Pose b = a;
    mutedSampler.sample(original.timeOf(f), a);
    baseSampler.sample(original.timeOf(f), b);
    for (std::size_t j = 0; j < a.size(); ++j) {
      identical = identical &&
                  std::memcmp(a[j].translation.data(), b[j].translation.data(), 3 * sizeof(float)) == 0 &&
                  std::memcmp(a[j].rotation.coeffs().data(), b[j].rotation.coeffs().data(), 4 * sizeof(float)) == 0 &&
                  std::memcmp(a[j].scale.data(), b[j].scale.data(), 3 * sizeof(float)) == 0;
    }
  }
  EXPECT_TRUE(identical);

  Clip merged;
  const float toleranceModel = kDefaultToleranceOfHeight * scene->characterHeight();
  const auto report = LayerMergeJob{&skeleton, &layered, 0, false, toleranceModel, &merged}.run();
  ASSERT_TRUE(report.ok()) << report.error();
  EXPECT_TRUE(merged.layers.empty());
  EXPECT_EQ(report->denseChannels, 1);
  EXPECT_EQ(report->reducedChannels, 0);
  const float mergedMm = largestDistance(skeleton, merged, layered) * mmPerUnit;
  EXPECT_LE(mergedMm, 1.0f);
  for (const JointTrack& track : original.tracks) {
    if (track.joint != arm) {
      EXPECT_TRUE(sameKeys(*merged.findTrack(track.joint), track)) << track.joint;
    }
  }
  EXPECT_EQ(merged.findTrack(arm)->rotation.size(), static_cast<std::size_t>(original.frameCount()));
  std::printf("%s: the raised arm moves a joint %.1f mm; merged %.4f mm off the layered motion\n", GetParam().file,
              raisedMm, mergedMm);
}

INSTANTIATE_TEST_SUITE_P(Captures, LayerProof,
                         ::testing::Values(Capture{"cmu-mb-2010/02_01.bvh", "LeftArm"},
                                           Capture{"makehuman/walk1.bvh", "UpArm_L"}));

TEST(LayerMerge, ASparseBaseIsReducedWithinTheTolerance) {
  const Scene scene = makeMannequin();
  const Clip& walk = scene.clips[0];
  const int arm = scene.skeleton.findJoint("LeftArm");
  ASSERT_GE(arm, 0);
  Clip layered = walk;
  layered.layers.push_back(armRaise(arm, walk.startTime));
  layered.layers[0].mode = LayerMode::Override;
  layered.layers[0].weight.insertKey(walk.startTime, 0.5);
  Clip merged;
  const float tolerance = kDefaultToleranceOfHeight * scene.characterHeight();
  const auto report = LayerMergeJob{&scene.skeleton, &layered, 0, false, tolerance, &merged}.run();
  ASSERT_TRUE(report.ok()) << report.error();
  EXPECT_EQ(report->reducedChannels, 1);
  EXPECT_LT(merged.findTrack(arm)->rotation.size(), static_cast<std::size_t>(walk.frameCount()));
  EXPECT_LE(largestDistance(scene.skeleton, merged, layered), tolerance * 1.01f);
}

TEST(LayerMerge, MergeDownIntoALayerPlaysTheSameAndMergeAllKeepsMutedLayers) {
  const Scene scene = makeMannequin();
  const Clip& walk = scene.clips[0];
  const int arm = scene.skeleton.findJoint("LeftArm");
  const int head = scene.skeleton.findJoint("Head");
  ASSERT_GE(head, 0);
  Clip layered = walk;
  layered.layers.push_back(armRaise(arm, walk.startTime));
  layered.layers.push_back(armRaise(head, walk.startTime));
  layered.layers[1].mode = LayerMode::Override;
  layered.layers[1].weight.insertKey(walk.startTime, 0.25);
  layered.layers.push_back(armRaise(arm, walk.startTime));
  layered.layers[2].muted = true;
  const float tolerance = kDefaultToleranceOfHeight * scene.characterHeight();

  Clip down;
  const auto merged = LayerMergeJob{&scene.skeleton, &layered, 1, false, tolerance, &down}.run();
  ASSERT_TRUE(merged.ok()) << merged.error();
  ASSERT_EQ(down.layers.size(), 2u);
  EXPECT_TRUE(down.layers[0].weight.empty());
  EXPECT_NE(down.layers[0].findTrack(head), nullptr);
  EXPECT_LE(largestDistance(scene.skeleton, down, layered), tolerance * 1.01f);

  Clip all;
  ASSERT_TRUE((LayerMergeJob{&scene.skeleton, &layered, -1, true, tolerance, &all}.run().ok()));
  ASSERT_EQ(all.layers.size(), 1u);
  EXPECT_TRUE(all.layers[0].muted);
  EXPECT_LE(largestDistance(scene.skeleton, all, layered), tolerance * 1.01f);
}

TEST(LayerMerge, OddInputIsOneLineAndChangesNothing) {
  const Scene scene = makeMannequin();
  Clip clip = scene.clips[0];
  Clip output;
  output.name = "untouched";
  LayerMergeJob job{&scene.skeleton, &clip, 0, false, 1e-3f, &output};
  const auto nothingBelow = job.run();
  ASSERT_FALSE(nothingBelow.ok());
  EXPECT_NE(nothingBelow.error().find("no layer to merge down (the base has nothing below it)"), std::string::npos)
      << nothingBelow.error();
  clip.layers.push_back(armRaise(scene.skeleton.findJoint("LeftArm"), 0.0));
  clip.layers[0].muted = true;
  EXPECT_NE(job.run().error().find("layer 'raise arm' is muted"), std::string::npos);
  clip.layers[0].muted = false;
  clip.layers[0].weight.insertKey(0.0, 1.5);
  EXPECT_NE(job.run().error().find("weight 1.5"), std::string::npos) << job.run().error();
  EXPECT_EQ(output.name, "untouched");
  EXPECT_NE(LayerMergeJob{}.validate(), std::nullopt);
}

}  // namespace
}  // namespace articula
