#include "core/rig/mirror_pose.h"

#include <algorithm>

#include "core/rig/humanoid_map.h"
#include "core/rig/humanoid_rig.h"

namespace articula {

namespace {

void pair(PoseMirror& mirror, int left, int right) {
  if (left < 0 || right < 0) return;
  mirror.partner[static_cast<std::size_t>(left)] = right;
  mirror.partner[static_cast<std::size_t>(right)] = left;
  mirror.leftJoints.push_back(left);
}

void centre(PoseMirror& mirror, int joint) {
  if (joint >= 0) mirror.partner[static_cast<std::size_t>(joint)] = joint;
}

std::vector<Affine> modelOf(const Skeleton& skeleton, std::span<const Transform> local) {
  std::vector<Affine> model(local.size(), Affine::Identity());
  LocalToModelJob job;
  job.skeleton = &skeleton;
  job.local = local;
  job.model = model;
  // A pose the job refuses (shorter than the skeleton) mirrors as the identity: no crash.
  if (!job.run()) std::fill(model.begin(), model.end(), Affine::Identity());
  return model;
}

}  // namespace

Result<PoseMirror> buildPoseMirror(const Skeleton& skeleton) {
  Result<HumanoidMap> map = mapHumanoid(skeleton);
  if (!map) return makeError(map.error());
  Result<HumanoidFrame> frame = humanoidFrame(skeleton, *map);
  if (!frame) return makeError(frame.error());
  PoseMirror mirror;
  mirror.partner.assign(static_cast<std::size_t>(skeleton.jointCount()), -1);
  pair(mirror, map->leftLeg.thigh, map->rightLeg.thigh);
  pair(mirror, map->leftLeg.knee, map->rightLeg.knee);
  pair(mirror, map->leftLeg.ankle, map->rightLeg.ankle);
  pair(mirror, map->leftLeg.toe, map->rightLeg.toe);
  pair(mirror, map->leftArm.clavicle, map->rightArm.clavicle);
  pair(mirror, map->leftArm.upperArm, map->rightArm.upperArm);
  pair(mirror, map->leftArm.forearm, map->rightArm.forearm);
  pair(mirror, map->leftArm.hand, map->rightArm.hand);
  std::sort(mirror.leftJoints.begin(), mirror.leftJoints.end());
  centre(mirror, map->hips);
  for (int joint : map->spine) centre(mirror, joint);
  centre(mirror, map->neck);
  centre(mirror, map->head);

  mirror.restModel = modelOf(skeleton, skeleton.restPose());
  // forward = left × up, so up × forward is the character's left (both unit, orthogonal).
  const Vec3 leftModel = frame->upModel.cross(frame->forwardModel).normalized();
  const Vec3 hipsModel = mirror.restModel[static_cast<std::size_t>(map->hips)].translation();
  mirror.reflectionModel.linear() = Mat3::Identity() - 2.0f * leftModel * leftModel.transpose();
  mirror.reflectionModel.translation() = 2.0f * leftModel.dot(hipsModel) * leftModel;
  return mirror;
}

Pose mirroredPose(const PoseMirror& mirror, const Skeleton& skeleton, std::span<const Transform> local,
                  std::span<const int> targets) {
  Pose result(local.begin(), local.end());
  const std::size_t count = std::min({local.size(), mirror.partner.size(), mirror.restModel.size()});
  std::vector<bool> isTarget(count, false);
  for (int joint : targets) {
    if (joint >= 0 && static_cast<std::size_t>(joint) < count && mirror.partner[static_cast<std::size_t>(joint)] >= 0)
      isTarget[static_cast<std::size_t>(joint)] = true;
  }
  const std::vector<Affine> model = modelOf(skeleton, local);
  const Affine& reflection = mirror.reflectionModel;
  // Parent before child: a target's new model matrix is its partner's reflected (relative to
  // the rest pose); a joint that is not a target rides on its parent's new matrix.
  std::vector<Affine> newModel(count, Affine::Identity());
  for (std::size_t joint = 0; joint < count; ++joint) {
    const int parent = skeleton.parent(static_cast<int>(joint));
    const Affine parentModel = parent >= 0 ? newModel[static_cast<std::size_t>(parent)] : Affine::Identity();
    if (!isTarget[joint]) {
      newModel[joint] = parentModel * local[joint].toAffine();
      continue;
    }
    const auto source = static_cast<std::size_t>(mirror.partner[joint]);
    newModel[joint] =
        reflection * model[source] * mirror.restModel[source].inverse() * reflection * mirror.restModel[joint];
    result[joint] = Transform::fromMatrix((parentModel.inverse() * newModel[joint]).matrix());
  }
  return result;
}

}  // namespace articula
