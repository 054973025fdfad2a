#include "core/retarget/retarget_frame.h"

#include <algorithm>
#include <limits>

#include "core/skeleton/local_to_model.h"

namespace articula {
namespace {

Vec3 positionOf(std::span<const Affine> model, int joint) { return model[static_cast<std::size_t>(joint)].translation(); }

// A limb bone: from `joint` towards `next`, in both characters.
struct BonePair {
  int targetJoint, targetNext, sourceJoint, sourceNext;
};

std::vector<BonePair> limbBones(const HumanoidMap& target, const HumanoidMap& source) {
  std::vector<BonePair> bones;
  auto add = [&bones](int tj, int tn, int sj, int sn) {
    if (tj >= 0 && tn >= 0 && sj >= 0 && sn >= 0) bones.push_back({tj, tn, sj, sn});
  };
  const std::pair<const HumanoidArm*, const HumanoidArm*> arms[] = {{&target.leftArm, &source.leftArm},
                                                                    {&target.rightArm, &source.rightArm}};
  for (const auto& [t, s] : arms) {
    add(t->clavicle, t->upperArm, s->clavicle, s->upperArm);
    add(t->upperArm, t->forearm, s->upperArm, s->forearm);
    add(t->forearm, t->hand, s->forearm, s->hand);
  }
  const std::pair<const HumanoidLeg*, const HumanoidLeg*> legs[] = {{&target.leftLeg, &source.leftLeg},
                                                                    {&target.rightLeg, &source.rightLeg}};
  for (const auto& [t, s] : legs) {
    add(t->thigh, t->knee, s->thigh, s->knee);
    add(t->knee, t->legTip, s->knee, s->legTip);
    add(t->ankle, t->toe, s->ankle, s->toe);
  }
  // Parents first, so a bone is aimed after the bones above it have moved it.
  std::sort(bones.begin(), bones.end(), [](const BonePair& a, const BonePair& b) { return a.targetJoint < b.targetJoint; });
  return bones;
}

}  // namespace

std::vector<Quat> modelRotations(const Skeleton& skeleton, std::span<const Transform> local) {
  std::vector<Quat> model(static_cast<std::size_t>(skeleton.jointCount()));
  for (int j = 0; j < skeleton.jointCount(); ++j) {
    const int parent = skeleton.parent(j);
    const Quat& own = local[static_cast<std::size_t>(j)].rotation;
    model[static_cast<std::size_t>(j)] = parent == kNoParent ? own : model[static_cast<std::size_t>(parent)] * own;
  }
  return model;
}

Mat3 characterFrame(const HumanoidMap& map, std::span<const Affine> restModel) {
  const int top = map.head >= 0 ? map.head : (map.neck >= 0 ? map.neck : map.chest);
  const Vec3 up = (positionOf(restModel, top) - positionOf(restModel, map.hips)).normalized();
  Vec3 left = positionOf(restModel, map.leftLeg.thigh) - positionOf(restModel, map.rightLeg.thigh);
  left = (left - up * up.dot(left)).normalized();
  Mat3 frame;
  frame.col(0) = left;
  frame.col(1) = up;
  frame.col(2) = left.cross(up);
  return frame;
}

float lowestFootHeight(const HumanoidMap& map, std::span<const Affine> model, const Vec3& up) {
  float lowest = std::numeric_limits<float>::infinity();
  for (const HumanoidLeg* leg : {&map.leftLeg, &map.rightLeg}) {
    for (int joint : {leg->ankle, leg->toe, leg->legTip}) {
      if (joint >= 0) lowest = std::min(lowest, up.dot(positionOf(model, joint)));
    }
  }
  return lowest;
}

float legLength(const HumanoidMap& map, std::span<const Affine> restModel) {
  auto length = [&](const HumanoidLeg& leg) {
    return (positionOf(restModel, leg.knee) - positionOf(restModel, leg.thigh)).norm() +
           (positionOf(restModel, leg.legTip) - positionOf(restModel, leg.knee)).norm();
  };
  return 0.5f * (length(map.leftLeg) + length(map.rightLeg));
}

std::vector<Transform> alignedRestPose(const Skeleton& target, const HumanoidMap& targetMap, const Skeleton& source,
                                       const HumanoidMap& sourceMap, const Quat& sourceToTarget) {
  std::vector<Transform> pose(target.restPose().begin(), target.restPose().end());
  const std::vector<Affine> sourceModel = localToModel(source, source.restPose());
  for (const BonePair& bone : limbBones(targetMap, sourceMap)) {
    const std::vector<Affine> targetModel = localToModel(target, pose);
    const Vec3 targetDir = positionOf(targetModel, bone.targetNext) - positionOf(targetModel, bone.targetJoint);
    const Vec3 sourceDir =
        sourceToTarget * (positionOf(sourceModel, bone.sourceNext) - positionOf(sourceModel, bone.sourceJoint));
    if (targetDir.squaredNorm() < 1e-16f || sourceDir.squaredNorm() < 1e-16f) continue;
    // The turn in model space, carried into the joint's parent space.
    const Quat turnModel = Quat::FromTwoVectors(targetDir, sourceDir);
    const int parent = target.parent(bone.targetJoint);
    const Quat parentModel = parent == kNoParent ? Quat::Identity() : modelRotations(target, pose)[static_cast<std::size_t>(parent)];
    Transform& local = pose[static_cast<std::size_t>(bone.targetJoint)];
    local.rotation = (parentModel.conjugate() * turnModel * parentModel * local.rotation).normalized();
  }
  return pose;
}

}  // namespace articula
