#include "core/retarget/retarget_frame.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>

#include "core/rig/humanoid_rig.h"
#include "core/skeleton/local_to_model.h"

namespace articula {
namespace {

Vec3 positionOf(std::span<const Affine> model, int joint) {
  return model[static_cast<std::size_t>(joint)].translation();
}

// Turns `joint` of `pose` by `turnModel` (a rotation in model space about the joint).
void turnJoint(const Skeleton& skeleton, std::vector<Transform>& pose, int joint, const Quat& turnModel) {
  const int parent = skeleton.parent(joint);
  const Quat parentModel =
      parent == kNoParent ? Quat::Identity() : modelRotations(skeleton, pose)[static_cast<std::size_t>(parent)];
  Transform& local = pose[static_cast<std::size_t>(joint)];
  local.rotation = (parentModel.conjugate() * turnModel * parentModel * local.rotation).normalized();
}

// Turns joint `joint` of `pose` (local transforms of `skeleton`) so that the direction
// `from` → `to` in model space becomes `wantedModel`'s, the turn taken about the joint.
void aimOnce(const Skeleton& skeleton, std::vector<Transform>& pose, int joint, int from, int to,
             const Vec3& wantedModel) {
  const std::vector<Affine> model = localToModel(skeleton, pose);
  const Vec3 current = positionOf(model, to) - positionOf(model, from);
  if (current.squaredNorm() < 1e-16f) return;
  turnJoint(skeleton, pose, joint, Quat::FromTwoVectors(current, wantedModel));
}

}  // namespace

std::vector<MappedBone> mappedBones(const HumanoidMap& source, const HumanoidMap& target) {
  std::vector<MappedBone> bones;
  auto add = [&bones](int sf, int st, int tf, int tt, int turns, int leg, bool armIk = false) {
    if (sf >= 0 && st >= 0 && tf >= 0 && tt >= 0) bones.push_back({sf, st, tf, tt, turns, leg, armIk});
  };
  const int spineAboveHips = target.spine.size() > 2 ? target.spine[1] : -1;
  add(source.hips, source.chest, target.hips, target.chest, spineAboveHips, -1);
  const int sourceNeck = source.neck >= 0 ? source.neck : source.head;
  const int targetNeck = target.neck >= 0 ? target.neck : target.head;
  add(source.chest, sourceNeck, target.chest, targetNeck, target.chest, -1);
  if (source.neck >= 0 && target.neck >= 0) add(source.neck, source.head, target.neck, target.head, target.neck, -1);
  const std::array<std::pair<const HumanoidArm*, const HumanoidArm*>, 2> arms{
      {{&source.leftArm, &target.leftArm}, {&source.rightArm, &target.rightArm}}};
  for (const auto& [s, t] : arms) {
    add(s->clavicle, s->upperArm, t->clavicle, t->upperArm, t->clavicle, -1);
    add(s->upperArm, s->forearm, t->upperArm, t->forearm, t->upperArm, -1, true);
    add(s->forearm, s->hand, t->forearm, t->hand, t->forearm, -1, true);
  }
  const std::array<std::pair<const HumanoidLeg*, const HumanoidLeg*>, 2> legs{
      {{&source.leftLeg, &target.leftLeg}, {&source.rightLeg, &target.rightLeg}}};
  for (int side = 0; side < 2; ++side) {
    const HumanoidLeg& s = *legs[static_cast<std::size_t>(side)].first;
    const HumanoidLeg& t = *legs[static_cast<std::size_t>(side)].second;
    add(s.thigh, s.knee, t.thigh, t.knee, t.thigh, side);
    add(s.knee, s.legTip, t.knee, t.legTip, t.knee, side);
    add(s.ankle, s.toe, t.ankle, t.toe, t.ankle, side);
  }
  // Parents first, so a bone is aimed after the bones above it have moved it.
  std::stable_sort(bones.begin(), bones.end(),
                   [](const MappedBone& a, const MappedBone& b) { return a.targetFrom < b.targetFrom; });
  return bones;
}

std::vector<Quat> modelRotations(const Skeleton& skeleton, std::span<const Transform> local) {
  std::vector<Quat> model(static_cast<std::size_t>(skeleton.jointCount()));
  for (int j = 0; j < skeleton.jointCount(); ++j) {
    const int parent = skeleton.parent(j);
    const Quat& own = local[static_cast<std::size_t>(j)].rotation;
    model[static_cast<std::size_t>(j)] = parent == kNoParent ? own : model[static_cast<std::size_t>(parent)] * own;
  }
  return model;
}

namespace {

// Columns left, up, forward (left × up): `up` (unit) and `towardLeft` made orthonormal about it.
Mat3 frameAbout(const Vec3& up, const Vec3& towardLeft) {
  const Vec3 left = (towardLeft - up * up.dot(towardLeft)).normalized();
  Mat3 frame;
  frame.col(0) = left;
  frame.col(1) = up;
  frame.col(2) = left.cross(up);
  return frame;
}

}  // namespace

Mat3 groundFrame(const Mat3& characterFrame) {
  const Vec3 leaning = characterFrame.col(1);
  Eigen::Index axis = 0;
  leaning.cwiseAbs().maxCoeff(&axis);
  Vec3 up = Vec3::Zero();
  up[axis] = leaning[axis] > 0.0f ? 1.0f : -1.0f;
  return frameAbout(up, characterFrame.col(0));
}

Mat3 characterFrame(const HumanoidMap& map, std::span<const Affine> restModel) {
  const int top = map.head >= 0 ? map.head : (map.neck >= 0 ? map.neck : map.chest);
  const Vec3 up = (positionOf(restModel, top) - positionOf(restModel, map.hips)).normalized();
  return frameAbout(up, positionOf(restModel, map.leftLeg.thigh) - positionOf(restModel, map.rightLeg.thigh));
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

float armLength(const HumanoidMap& map, std::span<const Affine> restModel) {
  float total = 0.0f;
  for (const HumanoidArm* arm : {&map.leftArm, &map.rightArm}) {
    if (arm->upperArm < 0 || arm->forearm < 0 || arm->hand < 0) return 0.0f;
    total += (positionOf(restModel, arm->forearm) - positionOf(restModel, arm->upperArm)).norm() +
             (positionOf(restModel, arm->hand) - positionOf(restModel, arm->forearm)).norm();
  }
  return 0.5f * total;
}

std::vector<MappedBone> longBones(const Skeleton& source, const HumanoidMap& sourceMap, const Skeleton& target,
                                  const HumanoidMap& targetMap) {
  const std::vector<Affine> sourceRest = localToModel(source, source.restPose());
  const std::vector<Affine> targetRest = localToModel(target, target.restPose());
  const float sourceShort = kShortBoneOfLegs * legLength(sourceMap, sourceRest);
  const float targetShort = kShortBoneOfLegs * legLength(targetMap, targetRest);
  std::vector<MappedBone> bones = mappedBones(sourceMap, targetMap);
  std::erase_if(bones, [&](const MappedBone& bone) {
    return (positionOf(sourceRest, bone.sourceTo) - positionOf(sourceRest, bone.sourceFrom)).norm() < sourceShort ||
           (positionOf(targetRest, bone.targetTo) - positionOf(targetRest, bone.targetFrom)).norm() < targetShort;
  });
  return bones;
}

void aimBone(const Skeleton& target, std::vector<Transform>& targetLocal, const MappedBone& bone,
             const Vec3& wantedModel) {
  if (bone.targetTurns < 0) return;
  // A joint above the bone's start (the spine's first joint for hips → chest) moves the
  // start too: a few turns converge, each a fraction of the last.
  const int turns = bone.targetTurns == bone.targetFrom ? 1 : 4;
  for (int i = 0; i < turns; ++i)
    aimOnce(target, targetLocal, bone.targetTurns, bone.targetFrom, bone.targetTo, wantedModel);
}

namespace {

// An arm bone's rest direction (source model space) split into its level direction and the
// turn about the facing that raises or lowers it there: `levelModel` keeps the bone's length
// and forward part with the rest along its side (`sideModel`, the T-pose's), `lowerRad`
// turns it about `forwardModel` back onto `restModel`.
struct ArmDirection {
  Vec3 levelModel;
  float lowerRad = 0.0f;
};

ArmDirection splitAboutFacing(const Vec3& restModel, const Vec3& sideModel, const Vec3& forwardModel) {
  const Vec3 across = restModel - forwardModel * forwardModel.dot(restModel);
  const Vec3 level = sideModel * across.norm();
  return {forwardModel * forwardModel.dot(restModel) + level,
          std::atan2(forwardModel.dot(level.cross(across)), level.dot(across))};
}

}  // namespace

std::vector<Transform> alignedRestPose(const Skeleton& target, const HumanoidMap& targetMap, const Skeleton& source,
                                       const HumanoidMap& sourceMap, const Quat& sourceToTarget) {
  std::vector<Transform> pose(target.restPose().begin(), target.restPose().end());
  const std::vector<Affine> sourceModel = localToModel(source, source.restPose());
  const auto frame = humanoidFrame(source, sourceMap);
  const Vec3 upModel = frame ? Vec3(frame->upModel.normalized()) : Vec3::UnitY();
  const Vec3 forwardModel =
      frame ? Vec3((frame->forwardModel - upModel * upModel.dot(frame->forwardModel)).normalized()) : Vec3::UnitZ();
  // The arms are aimed level first (as a T-pose's), then all lowered together about the
  // facing as the source's rest lowers them: a source resting in an A-pose then gives the
  // reference of its T-pose turned as its rest is, so its motion lands as the same capture's
  // from a T-pose does. Aimed straight at the A, the least rotation from the target's own arm
  // rolls it by another amount than the source's rest does (17-42 mm at the fingers).
  const std::vector<MappedBone> bones = longBones(source, sourceMap, target, targetMap);
  std::vector<float> lowerRad(bones.size(), 0.0f);
  for (std::size_t b = 0; b < bones.size(); ++b) {
    const MappedBone& bone = bones[b];
    Vec3 directionModel = positionOf(sourceModel, bone.sourceTo) - positionOf(sourceModel, bone.sourceFrom);
    if (bone.armIk && frame) {
      const bool left = bone.sourceFrom == sourceMap.leftArm.upperArm || bone.sourceFrom == sourceMap.leftArm.forearm;
      const Vec3 leftModel = upModel.cross(forwardModel);
      const ArmDirection arm = splitAboutFacing(directionModel, left ? leftModel : Vec3(-leftModel), forwardModel);
      directionModel = arm.levelModel;
      lowerRad[b] = arm.lowerRad;
    }
    aimBone(target, pose, bone, sourceToTarget * directionModel);
  }
  // Every turn is about the one facing axis: a forearm, carried by its upper arm's, turns by
  // the rest of its own.
  std::vector<float> turnedRad(static_cast<std::size_t>(target.jointCount()), 0.0f);
  for (std::size_t b = 0; b < bones.size(); ++b) {
    const int joint = bones[b].targetTurns;
    if (lowerRad[b] == 0.0f || joint < 0) continue;
    float carriedRad = 0.0f;
    for (int a = target.parent(joint); a != kNoParent; a = target.parent(a)) carriedRad += turnedRad[static_cast<std::size_t>(a)];
    const float turnRad = lowerRad[b] - carriedRad;
    turnJoint(target, pose, joint, Quat(Eigen::AngleAxisf(turnRad, sourceToTarget * forwardModel)));
    turnedRad[static_cast<std::size_t>(joint)] += turnRad;
  }
  return pose;
}

}  // namespace articula
