#include "core/bake/rig_corrector.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <string>
#include <vector>

#include "core/rig/humanoid_rig.h"
#include "core/samples/mannequin.h"
#include "core/skeleton/local_to_model.h"

namespace articula {
namespace {

Pose sampled(const Skeleton& skeleton, const Clip& clip, double t) {
  Pose pose(skeleton.restPose().begin(), skeleton.restPose().end());
  ClipSampler(&clip).sample(t, pose);
  return pose;
}

// One key per frame on `name`, value(frame), linear.
void keyEveryFrame(Clip& clip, const std::string& name, const std::function<float(int)>& value) {
  Curve& curve = clip.curves[name];
  for (int f = 0; f < clip.frameCount(); ++f) curve.insertKey(clip.timeOf(f), value(f), Interpolation::Linear);
}

// The mannequin walk with its hand and left-foot targets animated by curves (drifting
// around where the walk puts them) and the right leg's weight fading in and out.
Clip walkWithHandleCurves(const Scene& scene) {
  const Skeleton& skeleton = scene.skeleton;
  Clip clip = scene.clips.front();
  const int leftHand = skeleton.findJoint("LeftHand");
  const int rightHand = skeleton.findJoint("RightHand");
  const int leftFoot = skeleton.findJoint("LeftFoot");
  std::vector<std::vector<Affine>> model;
  for (int f = 0; f < clip.frameCount(); ++f)
    model.push_back(localToModel(skeleton, sampled(skeleton, clip, clip.timeOf(f))));
  auto at = [&](int f, int joint, int c) {
    return model[static_cast<std::size_t>(f)][static_cast<std::size_t>(joint)].translation()[c];
  };
  const char* axes[3] = {"x", "y", "z"};
  for (int c = 0; c < 3; ++c) {
    const float lift = c == 1 ? 0.10f : 0.05f;
    keyEveryFrame(clip, handleCurveName("left_arm", std::string("target.") + axes[c]),
                  [&](int f) { return at(f, leftHand, c) + lift * std::sin(0.2f * static_cast<float>(f)); });
    keyEveryFrame(clip, handleCurveName("right_arm", std::string("target.") + axes[c]),
                  [&](int f) { return at(f, rightHand, c) + lift; });
    keyEveryFrame(clip, handleCurveName("left_leg", std::string("target.") + axes[c]),
                  [&](int f) { return at(f, leftFoot, c) + (c == 2 ? 0.04f : 0.0f); });
  }
  keyEveryFrame(clip, handleCurveName("right_leg", "weight"),
                [&](int f) { return 0.5f + 0.5f * std::sin(0.3f * static_cast<float>(f)); });
  return clip;
}

TEST(RigPoseCorrector, UnreducedBakeReproducesTheLiveRigAtEveryFrame) {
  const Scene scene = makeMannequin();
  const Skeleton& skeleton = scene.skeleton;
  const Clip clip = walkWithHandleCurves(scene);
  auto definition = buildHumanoidRig(skeleton);
  ASSERT_TRUE(definition) << definition.error();
  auto rig = Rig::bind(skeleton, *definition);
  ASSERT_TRUE(rig) << rig.error();
  rig->setGround(*Ground::plane(Vec3(0.0f, 0.01f, 0.0f), Vec3(0.0f, 1.0f, -0.05f)));

  RigPoseCorrector corrector(*rig);
  Clip baked;
  BakeJob job;
  job.skeleton = &skeleton;
  job.source = &clip;
  job.corrector = &corrector;
  job.options.reduce = false;
  job.output = &baked;
  auto report = job.run();
  ASSERT_TRUE(report) << report.error();
  EXPECT_EQ(report->framesBaked, clip.frameCount());
  EXPECT_EQ(report->refusedFrames, 0);

  // The live rig on the sampled source, frame by frame, against the baked clip.
  float worst = 0.0f;
  float moved = 0.0f;  // how far the rig moved anything: the comparison must not be trivial
  for (int f = 0; f < clip.frameCount(); ++f) {
    const double t = clip.timeOf(f);
    const Pose source = sampled(skeleton, clip, t);
    Pose live = source;
    ASSERT_TRUE(rig->solve(live, t, &clip));
    const auto expected = localToModel(skeleton, live);
    const auto got = localToModel(skeleton, sampled(skeleton, baked, t));
    const auto before = localToModel(skeleton, source);
    for (std::size_t j = 0; j < expected.size(); ++j) {
      worst = std::max(worst, (expected[j].translation() - got[j].translation()).norm());
      moved = std::max(moved, (expected[j].translation() - before[j].translation()).norm());
    }
  }
  EXPECT_LE(worst, 1e-6f);
  EXPECT_GT(moved, 0.04f);
}

TEST(RigPoseCorrector, NamesTheJointsAndHandlesOfTheRig) {
  const Scene scene = makeMannequin();
  const Skeleton& skeleton = scene.skeleton;
  auto definition = buildHumanoidRig(skeleton);
  ASSERT_TRUE(definition) << definition.error();
  auto rig = Rig::bind(skeleton, *definition);
  ASSERT_TRUE(rig) << rig.error();
  RigPoseCorrector corrector(*rig);

  const std::vector<int> rotated = corrector.rotatedJoints();
  for (const IkHandle& handle : definition->handles) {
    for (const int joint : handle.chain) EXPECT_TRUE(std::count(rotated.begin(), rotated.end(), joint) == 1) << joint;
  }
  EXPECT_TRUE(std::count(rotated.begin(), rotated.end(), definition->grounding.left.toe) == 1);
  EXPECT_EQ(corrector.translatedJoints(), std::vector<int>{definition->grounding.pelvis});
  EXPECT_EQ(corrector.handleName(rig->findHandle("left_leg")), "left_leg");

  // A target out of reach: the arm solves and misses, and is reported.
  const int leftArm = rig->findHandle("left_arm");
  rig->setTarget(leftArm, Vec3(5.0f, 5.0f, 5.0f));
  Pose pose(skeleton.restPose().begin(), skeleton.restPose().end());
  const Clip none;
  ASSERT_TRUE(corrector.correct(pose, 0.0, none));
  std::vector<int> unreached;
  corrector.unreachedHandles(unreached);
  EXPECT_EQ(unreached, std::vector<int>{leftArm});
}

// A handle that is off moves nothing, so its chain is not among the joints a bake keys for
// the rig (a skate cleanup turns the arms off; they then took a key at every contact start
// and end); an "enabled" curve in the clip can switch it on, and then it is.
TEST(RigPoseCorrector, AHandleThatIsOffRotatesNothingUnlessACurveCanSwitchItOn) {
  const Scene scene = makeMannequin();
  auto definition = buildHumanoidRig(scene.skeleton);
  ASSERT_TRUE(definition) << definition.error();
  auto rig = Rig::bind(scene.skeleton, *definition);
  ASSERT_TRUE(rig) << rig.error();
  const int leftArm = rig->findHandle("left_arm");
  ASSERT_GE(leftArm, 0);
  rig->setEnabled(leftArm, false);
  const std::vector<int>& chain = rig->handle(leftArm).chain;
  RigPoseCorrector corrector(*rig);
  auto rotatesTheArm = [&] {
    const std::vector<int> rotated = corrector.rotatedJoints();
    return std::any_of(chain.begin(), chain.end(),
                       [&](int joint) { return std::count(rotated.begin(), rotated.end(), joint) == 1; });
  };
  Clip clip = scene.clips.front();
  corrector.begin(clip);
  EXPECT_FALSE(rotatesTheArm());

  keyEveryFrame(clip, handleCurveName("left_arm", "enabled"), [](int) { return 1.0f; });
  corrector.begin(clip);
  EXPECT_TRUE(rotatesTheArm());
}

}  // namespace
}  // namespace articula
