#include "ui/viewport/camera_follow.h"

#include "core/rig/humanoid_map.h"

namespace articula::ui {

int CameraFollow::followedJoint(const Scene& scene) {
  const Skeleton& skeleton = scene.skeleton;
  if (skeleton.jointCount() == 0) return -1;
  if (const Result<HumanoidMap> humanoid = mapHumanoid(skeleton); humanoid && humanoid->hips >= 0)
    return humanoid->hips;
  for (int joint = 0; joint < skeleton.jointCount(); ++joint) {
    if (skeleton.parent(joint) == kNoParent && !skeleton.children(joint).empty()) return joint;
  }
  return 0;
}

void CameraFollow::restart(std::span<const Affine> modelPose) {
  mLastModel.reset();
  if (mJoint >= 0 && static_cast<std::size_t>(mJoint) < modelPose.size())
    mLastModel = modelPose[static_cast<std::size_t>(mJoint)].translation();
}

Vec3 CameraFollow::follow(const Vec3& target, std::span<const Affine> modelPose) {
  if (!mLastModel || mJoint < 0 || static_cast<std::size_t>(mJoint) >= modelPose.size()) return target;
  const Vec3 nowModel = modelPose[static_cast<std::size_t>(mJoint)].translation();
  if (!nowModel.allFinite()) return target;
  Vec3 travel = nowModel - *mLastModel;
  travel.y() = 0.0f;
  mLastModel = nowModel;
  return target + travel;
}

Vec3 CameraFollow::centre(const Vec3& target, std::span<const Affine> modelPose) {
  restart(modelPose);
  if (!mLastModel || !mLastModel->allFinite()) return target;
  return Vec3(mLastModel->x(), target.y(), mLastModel->z());
}

}  // namespace articula::ui
