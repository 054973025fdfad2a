#include "core/anim/layer_stack.h"

#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "core/anim/key_builders.h"

namespace articula {
namespace {

Quat about(float angleRad, const Vec3& axis) { return Quat(Eigen::AngleAxisf(angleRad, axis)); }

// Three joints; the base turns joint 1 about Z and moves joint 0 along X over one second.
Clip baseClip() {
  Clip clip;
  clip.name = "base";
  JointTrack& root = clip.trackFor(0);
  root.translation.x.insertKey(0.0, 0.0, Interpolation::Linear);
  root.translation.x.insertKey(1.0, 2.0, Interpolation::Linear);
  JointTrack& arm = clip.trackFor(1);
  arm.rotation.setKeys({rotationKey(0.0, about(0.0f, Vec3::UnitZ()), RotationInterpolation::Slerp),
                        rotationKey(1.0, about(1.0f, Vec3::UnitZ()), RotationInterpolation::Slerp)});
  clip.updateRange();
  return clip;
}

AnimLayer armLift(LayerMode mode, const Quat& value) {
  AnimLayer layer;
  layer.name = "lift";
  layer.mode = mode;
  layer.trackFor(1).rotation.setKeys({rotationKey(0.0, value, RotationInterpolation::Slerp)});
  layer.trackFor(0).translation.y.insertKey(0.0, 0.5, Interpolation::Linear);
  return layer;
}

std::vector<Transform> rest() {
  std::vector<Transform> pose(3);
  for (std::size_t j = 0; j < pose.size(); ++j) pose[j].translation = Vec3(0.0f, 1.0f * j, 0.25f);
  return pose;
}

bool bitIdentical(const std::vector<Transform>& a, const std::vector<Transform>& b) {
  for (std::size_t j = 0; j < a.size(); ++j) {
    if (std::memcmp(a[j].translation.data(), b[j].translation.data(), sizeof(float) * 3) != 0) return false;
    if (std::memcmp(a[j].rotation.coeffs().data(), b[j].rotation.coeffs().data(), sizeof(float) * 4) != 0) return false;
    if (std::memcmp(a[j].scale.data(), b[j].scale.data(), sizeof(float) * 3) != 0) return false;
  }
  return true;
}

std::vector<Transform> sampleBase(const Clip& clip, double t) {
  std::vector<Transform> pose = rest();
  ClipSampler(&clip).sample(t, pose);
  return pose;
}

TEST(LayeredClipSampler, MutedLayersGiveTheBaseBitForBit) {
  Clip clip = baseClip();
  clip.layers.push_back(armLift(LayerMode::Additive, about(0.35f, Vec3::UnitX())));
  clip.layers.push_back(armLift(LayerMode::Override, about(0.2f, Vec3::UnitY())));
  for (AnimLayer& layer : clip.layers) layer.muted = true;
  LayeredClipSampler sampler(&clip);
  for (double t : {0.0, 0.3, 0.77, 1.0}) {
    std::vector<Transform> pose = rest();
    sampler.sample(t, pose);
    EXPECT_TRUE(bitIdentical(pose, sampleBase(clip, t))) << t;
  }
}

TEST(LayeredClipSampler, AdditiveLayerTurnsOnTopOfTheBaseInLocalSpace) {
  Clip clip = baseClip();
  const Quat lift = about(0.35f, Vec3::UnitX());
  clip.layers.push_back(armLift(LayerMode::Additive, lift));
  const std::vector<Transform> base = sampleBase(clip, 0.5);
  const std::vector<Transform> layered = sampleLayered(clip, rest(), 0.5);
  EXPECT_TRUE(layered[1].rotation.isApprox(base[1].rotation * lift, 1e-6f));
  // Translation y is keyed, x and z add nothing.
  EXPECT_TRUE(layered[0].translation.isApprox(base[0].translation + Vec3(0.0f, 0.5f, 0.0f), 1e-6f));
  EXPECT_TRUE(bitIdentical({layered[2]}, {base[2]}));

  // At weight 0.5 half the turn and half the lift.
  clip.layers[0].weight.insertKey(0.0, 0.5, Interpolation::Linear);
  const std::vector<Transform> half = sampleLayered(clip, rest(), 0.5);
  EXPECT_TRUE(half[1].rotation.isApprox(base[1].rotation * about(0.175f, Vec3::UnitX()), 1e-5f));
  EXPECT_NEAR(half[0].translation.y(), base[0].translation.y() + 0.25f, 1e-6f);
}

TEST(LayeredClipSampler, OverrideBlendsFromBelowByItsWeight) {
  Clip clip = baseClip();
  const Quat value = about(0.6f, Vec3::UnitY());
  clip.layers.push_back(armLift(LayerMode::Override, value));
  const std::vector<Transform> base = sampleBase(clip, 1.0);
  std::vector<Transform> full = sampleLayered(clip, rest(), 1.0);
  EXPECT_TRUE(full[1].rotation.isApprox(value, 1e-6f));
  // The override keys only y: x comes from below.
  EXPECT_EQ(full[0].translation, Vec3(base[0].translation.x(), 0.5f, base[0].translation.z()));

  clip.layers[0].weight.insertKey(0.0, 0.25, Interpolation::Linear);
  const std::vector<Transform> quarter = sampleLayered(clip, rest(), 1.0);
  EXPECT_TRUE(quarter[1].rotation.isApprox(base[1].rotation.slerp(0.25f, value), 1e-6f));
}

TEST(LayeredClipSampler, SoloPlaysOnlySoloLayersAndBelowStopsAtTheLayer) {
  Clip clip = baseClip();
  clip.layers.push_back(armLift(LayerMode::Additive, about(0.3f, Vec3::UnitX())));
  clip.layers.push_back(armLift(LayerMode::Additive, about(0.4f, Vec3::UnitX())));
  clip.layers[1].solo = true;
  const std::vector<Transform> base = sampleBase(clip, 0.0);
  const std::vector<Transform> soloed = sampleLayered(clip, rest(), 0.0);
  EXPECT_TRUE(soloed[1].rotation.isApprox(base[1].rotation * about(0.4f, Vec3::UnitX()), 1e-6f));
  EXPECT_FALSE(layerPlays(clip.layers, 0));

  clip.layers[1].solo = false;
  LayeredClipSampler sampler(&clip);
  std::vector<Transform> below = rest();
  sampler.sampleBelow(0.0, 1, below);
  EXPECT_TRUE(below[1].rotation.isApprox(base[1].rotation * about(0.3f, Vec3::UnitX()), 1e-6f));
  std::vector<Transform> all = rest();
  sampler.sample(0.0, all);
  EXPECT_TRUE(all[1].rotation.isApprox(base[1].rotation * about(0.7f, Vec3::UnitX()), 1e-5f));
}

TEST(AnimLayer, LayerValueForUndoesWhatIsBelow) {
  Transform below;
  below.translation = Vec3(1.0f, 2.0f, 3.0f);
  below.rotation = about(0.8f, Vec3(1.0f, 1.0f, 0.0f).normalized());
  below.scale = Vec3(1.0f, 2.0f, 0.5f);
  Transform target;
  target.translation = Vec3(-1.0f, 0.5f, 2.0f);
  target.rotation = about(-0.4f, Vec3::UnitZ());
  target.scale = Vec3(2.0f, 2.0f, 2.0f);
  for (LayerMode mode : {LayerMode::Additive, LayerMode::Override}) {
    const Transform value = layerValueFor(mode, below, target);
    EXPECT_TRUE(combineRotation(mode, below.rotation, value.rotation, 1.0f).isApprox(target.rotation, 1e-6f));
    EXPECT_TRUE(combineTranslation(mode, below.translation, value.translation, 1.0f).isApprox(target.translation));
    EXPECT_TRUE(combineScale(mode, below.scale, value.scale, 1.0f).isApprox(target.scale));
  }
}

TEST(AnimLayer, ValidateNamesTheLayerAndTheFault) {
  Clip clip = baseClip();
  clip.layers.push_back(armLift(LayerMode::Additive, Quat::Identity()));
  EXPECT_EQ(clip.validate(3), std::nullopt);
  clip.layers[0].weight.insertKey(0.5, 1.5);
  ASSERT_TRUE(clip.validate(3).has_value());
  EXPECT_NE(clip.validate(3)->find("layer 'lift': weight 1.5"), std::string::npos) << *clip.validate(3);
  clip.layers[0].weight = Curve();
  clip.layers[0].trackFor(2).translation.z.insertKey(0.0, 1.0);
  EXPECT_NE(clip.validate(2)->find("layer 'lift': joint 2 out of range"), std::string::npos) << *clip.validate(2);
}

TEST(AnimLayer, WeightIsOneWithoutKeysAndClampedWithThem) {
  AnimLayer layer;
  EXPECT_EQ(layer.weightAt(3.0), 1.0);
  layer.weight.insertKey(0.0, -1.0, Interpolation::Linear);
  layer.weight.insertKey(1.0, 2.0, Interpolation::Linear);
  EXPECT_EQ(layer.weightAt(0.0), 0.0);
  EXPECT_EQ(layer.weightAt(1.0), 1.0);
  EXPECT_EQ(parseLayerMode(layerModeName(LayerMode::Override)), LayerMode::Override);
  EXPECT_EQ(parseLayerMode("blend"), std::nullopt);
}

}  // namespace
}  // namespace articula
