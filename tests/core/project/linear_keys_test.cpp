#include "core/project/linear_keys.h"

#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "core/bake/key_reduction.h"
#include "core/io/import.h"
#include "core/samples/mannequin.h"
#include "core/skeleton/local_to_model.h"

namespace articula {
namespace {

const std::string kData = std::string(ARTICULA_TEST_DATA_DIR);

TEST(LinearKeysJob, DefaultIsInvalid) {
  LinearKeysJob job;
  EXPECT_TRUE(job.validate().has_value());
  Scene scene = makeMannequin();
  job.scene = &scene;
  EXPECT_TRUE(job.validate().has_value()) << "a zero tolerance";
  job.toleranceModel = 1e-3f;
  EXPECT_FALSE(job.validate().has_value());
}

// Largest model-space distance of any node between two clips of `skeleton`, sampled at `rate`
// over the first clip's span, both played as the spec plays them.
float largestDistance(const Skeleton& skeleton, const Clip& a, const Clip& b, double rate) {
  ClipSampler samplerA(&a);
  ClipSampler samplerB(&b);
  const auto n = static_cast<std::size_t>(skeleton.jointCount());
  Pose poseA(skeleton.restPose().begin(), skeleton.restPose().end());
  Pose poseB = poseA;
  std::vector<Affine> modelA(n);
  std::vector<Affine> modelB(n);
  float worst = 0.0f;
  const auto samples = static_cast<int>(std::round(a.duration() * rate));
  for (int s = 0; s <= samples; ++s) {
    const double t = a.startTime + s / rate;
    samplerA.sample(t, poseA);
    samplerB.sample(t, poseB);
    EXPECT_TRUE((LocalToModelJob{&skeleton, poseA, modelA}.run()));
    EXPECT_TRUE((LocalToModelJob{&skeleton, poseB, modelB}.run()));
    for (std::size_t j = 0; j < n; ++j)
      worst = std::max(worst, (modelA[j].translation() - modelB[j].translation()).norm());
  }
  return worst;
}

// The mannequin's walk is authored with Bézier keys (Blender played its cubic splines 29.9 mm
// off): it becomes lines within the tolerance at a player's 120 Hz, with fewer keys than a
// line per 120 Hz sample, its frame rate and stride curves kept.
TEST(LinearKeysJob, TheMannequinsBezierWalkBecomesLinesWithinTheTolerance) {
  const Scene source = makeMannequin();
  ASSERT_EQ(source.clips.size(), 1u);
  ASSERT_TRUE(hasCubicSegments(source.clips[0]));
  Scene scene = source;
  const float tolerance = kDefaultToleranceOfHeight * scene.characterHeight();
  const auto report = LinearKeysJob{&scene, tolerance}.run();
  ASSERT_TRUE(report.ok()) << report.error();
  EXPECT_EQ(report->clipsConverted, 1);
  const Clip& lines = scene.clips[0];
  EXPECT_FALSE(hasCubicSegments(lines));
  EXPECT_EQ(lines.frameRate, source.clips[0].frameRate);
  EXPECT_EQ(lines.curves.size(), source.clips[0].curves.size());
  EXPECT_LE(report->maxDeviationModel, tolerance);
  EXPECT_LE(largestDistance(scene.skeleton, source.clips[0], lines, 120.0), 1.01f * tolerance);
  std::size_t channels = 0;
  for (const JointTrack& track : source.clips[0].tracks)
    channels += !track.translation.empty() + !track.rotation.empty() + !track.scale.empty();
  const auto samples = static_cast<std::size_t>(std::round(source.clips[0].duration() * 120.0)) + 1;
  EXPECT_LT(report->keysAfter, channels * samples / 2);
  EXPECT_EQ(report->keysAfter, channelKeyCount(lines));
}

// A file's own linear and step clips stay key for key; only its cubic-spline clips change.
TEST(LinearKeysJob, OnlyClipsWithCubicSegmentsChange) {
  auto source = importScene(kData + "/gltf/InterpolationTest/InterpolationTest.glb");
  ASSERT_TRUE(source.ok()) << source.error();
  Scene scene = *source;
  const auto report = LinearKeysJob{&scene, 1e-3f * scene.characterHeight()}.run();
  ASSERT_TRUE(report.ok()) << report.error();
  int cubic = 0;
  for (std::size_t c = 0; c < scene.clips.size(); ++c) {
    const Clip& before = source->clips[c];
    const Clip& after = scene.clips[c];
    SCOPED_TRACE(before.name);
    EXPECT_FALSE(hasCubicSegments(after));
    if (hasCubicSegments(before)) {
      ++cubic;
      EXPECT_LE(largestDistance(scene.skeleton, before, after, 120.0), 1.01e-3f * scene.characterHeight());
      continue;
    }
    EXPECT_EQ(channelKeyCount(after), channelKeyCount(before));
    EXPECT_EQ(largestDistance(scene.skeleton, before, after, 120.0), 0.0f);
  }
  EXPECT_EQ(cubic, 3);
  EXPECT_EQ(report->clipsConverted, 3);
}

}  // namespace
}  // namespace articula
