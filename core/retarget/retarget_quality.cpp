#include "core/retarget/retarget_quality.h"

#include <algorithm>
#include <cmath>

#include "core/retarget/retarget_frame.h"
#include "core/skeleton/local_to_model.h"

namespace articula {
namespace {

constexpr float kRadToDeg = 180.0f / 3.14159265f;
constexpr const char* kStrideCurves[2] = {"contact.left_foot", "contact.right_foot"};

Vec3 positionOf(const std::vector<Affine>& model, int joint) {
  return model[static_cast<std::size_t>(joint)].translation();
}

// Model matrices of `skeleton` under `clip` at `time`.
std::vector<Affine> modelAt(const Skeleton& skeleton, ClipSampler& sampler, double time) {
  std::vector<Transform> pose(skeleton.restPose().begin(), skeleton.restPose().end());
  sampler.sample(time, pose);
  return localToModel(skeleton, pose);
}

// Horizontal (across `up`) travel of a point: first to last, and along the path.
struct Travel {
  Vec3 first = Vec3::Zero();
  Vec3 last = Vec3::Zero();
  float path = 0.0f;
  void add(const Vec3& point, const Vec3& up, bool isFirst) {
    const Vec3 flat = point - up * up.dot(point);
    if (isFirst) {
      first = flat;
    } else {
      path += (flat - last).norm();
    }
    last = flat;
  }
  float distance() const { return (last - first).norm(); }
};

bool planted(const Clip& clip, int leg, double time) {
  const auto curve = clip.curves.find(kStrideCurves[leg]);
  return curve != clip.curves.end() && curve->second.evaluate(time) > 0.0;
}

float angleBetween(const Vec3& a, const Vec3& b) { return std::atan2(a.cross(b).norm(), a.dot(b)); }

}  // namespace

RetargetQuality measureRetarget(const Skeleton& source, const HumanoidMap& sourceMap, const Clip& sourceClip,
                                const Skeleton& target, const HumanoidMap& targetMap, const Clip& result,
                                bool handsReach, double sourceOffsetSeconds) {
  const std::vector<Affine> sourceRest = localToModel(source, source.restPose());
  const std::vector<Affine> targetRest = localToModel(target, target.restPose());
  const Mat3 sourceFrame = characterFrame(sourceMap, sourceRest);
  const Mat3 targetFrame = characterFrame(targetMap, targetRest);
  const Mat3 sourceToTarget = targetFrame * sourceFrame.transpose();
  const float targetLegs = legLength(targetMap, targetRest);
  RetargetQuality quality;
  quality.legLengthRatio = targetLegs / legLength(sourceMap, sourceRest);
  const std::vector<MappedBone> bones = longBones(source, sourceMap, target, targetMap);
  ClipSampler sourceSampler(&sourceClip);
  ClipSampler targetSampler(&result);
  Travel sourceHips, targetHips;
  const Vec3 sourceGround = groundFrame(sourceFrame).col(1), targetGround = groundFrame(targetFrame).col(1);
  for (int f = 0; f < result.frameCount(); ++f) {
    const double time = result.timeOf(f);
    const std::vector<Affine> sourceModel = modelAt(source, sourceSampler, time + sourceOffsetSeconds);
    const std::vector<Affine> targetModel = modelAt(target, targetSampler, time);
    for (const MappedBone& bone : bones) {
      if ((bone.leg >= 0 && planted(result, bone.leg, time)) || (handsReach && bone.armIk)) continue;
      const Vec3 wanted =
          sourceToTarget * (positionOf(sourceModel, bone.sourceTo) - positionOf(sourceModel, bone.sourceFrom));
      const Vec3 got = positionOf(targetModel, bone.targetTo) - positionOf(targetModel, bone.targetFrom);
      const float angleDeg = angleBetween(wanted, got) * kRadToDeg;
      if (angleDeg <= quality.maxBoneAngleDeg) continue;
      quality.maxBoneAngleDeg = angleDeg;
      quality.worstBone = target.name(bone.targetFrom);
      quality.worstFrame = f;
    }
    sourceHips.add(positionOf(sourceModel, sourceMap.hips), sourceGround, f == 0);
    targetHips.add(positionOf(targetModel, targetMap.hips), targetGround, f == 0);
  }
  quality.hipDistance = targetHips.distance();
  quality.hipPath = targetHips.path;
  quality.hipDistanceExpected = quality.legLengthRatio * sourceHips.distance();
  quality.hipPathExpected = quality.legLengthRatio * sourceHips.path;
  // A source whose hips never move is judged against a thousandth of the legs.
  const float scale = std::max(quality.hipPathExpected, 1e-3f * targetLegs);
  quality.hipTravelRatioError = std::max(std::abs(quality.hipDistance - quality.hipDistanceExpected),
                                         std::abs(quality.hipPath - quality.hipPathExpected)) /
                                scale;
  return quality;
}

}  // namespace articula
