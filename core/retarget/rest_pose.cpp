#include "core/retarget/rest_pose.h"

#include <algorithm>
#include <cmath>

#include "core/math/quaternion.h"
#include "core/rig/humanoid_map.h"

namespace articula {

namespace {

// The rest changed by more than float noise in this component.
bool differs(float a, float b) { return std::abs(a - b) > 1e-7f * std::max(1.0f, std::abs(a)); }

bool rotationDiffers(const Quat& a, const Quat& b) { return std::abs(a.dot(b)) < 1.0f - 1e-7f; }

// Keys, at the clip's start, the components of `track` that it leaves at the rest and whose
// rest value moves from `before` to `after`.
void holdVec3(Vec3Track& track, const Vec3& before, const Vec3& after, double time) {
  Curve* curves[3] = {&track.x, &track.y, &track.z};
  for (int a = 0; a < 3; ++a) {
    if (curves[a]->empty() && differs(before[a], after[a])) curves[a]->insertKey(time, before[a], Interpolation::Linear);
  }
}

void holdOldRest(Clip& clip, int joint, const Transform& before, const Transform& after) {
  const bool translation = (before.translation - after.translation).cwiseAbs().maxCoeff() > 0.0f;
  const bool rotation = rotationDiffers(before.rotation, after.rotation);
  const bool scale = (before.scale - after.scale).cwiseAbs().maxCoeff() > 0.0f;
  if (!translation && !rotation && !scale) return;
  JointTrack& track = clip.trackFor(joint);
  holdVec3(track.translation, before.translation, after.translation, clip.startTime);
  holdVec3(track.scale, before.scale, after.scale, clip.startTime);
  if (track.rotation.empty() && rotation) {
    RotationKey key;
    key.time = clip.startTime;
    key.value = before.rotation;
    track.rotation.insertKey(key);
  }
}

std::vector<Transform> modelOf(const Skeleton& skeleton, const Pose& local) {
  std::vector<Transform> model(local.size());
  for (int j = 0; j < skeleton.jointCount(); ++j) {
    const auto i = static_cast<std::size_t>(j);
    model[i] = skeleton.parent(j) == kNoParent ? local[i] : model[static_cast<std::size_t>(skeleton.parent(j))] * local[i];
  }
  return model;
}

// Turns `joint` in model space so the bone to `child` points along `directionModel`; `local`
// and `model` are updated for the joint and its descendants.
void aimBone(const Skeleton& skeleton, int joint, int child, const Vec3& directionModel, Pose& local,
             std::vector<Transform>& model) {
  if (joint < 0 || child < 0) return;
  const auto j = static_cast<std::size_t>(joint);
  const Vec3 bone = model[static_cast<std::size_t>(child)].translation - model[j].translation;
  if (!(bone.norm() > 0.0f)) return;
  const Quat turnModel = fromToRotation(bone.normalized(), directionModel);
  const Quat rotationModel = (turnModel * model[j].rotation).normalized();
  const int parent = skeleton.parent(joint);
  const Quat parentModel = parent == kNoParent ? Quat::Identity() : model[static_cast<std::size_t>(parent)].rotation;
  local[j].rotation = (parentModel.conjugate() * rotationModel).normalized();
  for (int d : skeleton.subtree(joint)) {
    const auto i = static_cast<std::size_t>(d);
    const int p = skeleton.parent(d);
    model[i] = p == kNoParent ? local[i] : model[static_cast<std::size_t>(p)] * local[i];
  }
}

int rootOf(const Skeleton& skeleton, int joint) {
  while (skeleton.parent(joint) != kNoParent) joint = skeleton.parent(joint);
  return joint;
}

}  // namespace

std::optional<std::string> RestPoseJob::validate() const {
  if (!scene) return std::string("rest pose: no scene");
  const Skeleton& skeleton = scene->skeleton;
  if (restLocal.size() != static_cast<std::size_t>(skeleton.jointCount()))
    return std::string("rest pose: the pose has ") + std::to_string(restLocal.size()) + " transforms for " +
           std::to_string(skeleton.jointCount()) + " nodes";
  for (int j = 0; j < skeleton.jointCount(); ++j) {
    const Transform& t = restLocal[static_cast<std::size_t>(j)];
    if (!t.isFinite() || !(t.rotation.norm() > 0.0f) || !(t.scale.cwiseAbs().minCoeff() > 0.0f))
      return "rest pose: joint '" + skeleton.name(j) + "' has a non-finite transform or a zero rotation or scale";
  }
  for (const Clip& clip : scene->clips) {
    if (auto error = clip.validate(skeleton.jointCount())) return "rest pose: clip '" + clip.name + "': " + *error;
  }
  return std::nullopt;
}

Result<Scene> RestPoseJob::run() const {
  if (auto error = validate()) return makeError(*error);
  Scene result = *scene;
  for (int j = 0; j < result.skeleton.jointCount(); ++j) {
    const Transform before = result.skeleton.restLocal(j);
    Transform after = restLocal[static_cast<std::size_t>(j)];
    after.rotation.normalize();
    for (Clip& clip : result.clips) holdOldRest(clip, j, before, after);
    result.skeleton.setRestLocal(j, after);
  }
  return result;
}

Clip clipOnRest(Clip clip, const Skeleton& keyedOn, const Skeleton& target) {
  for (int j = 0; j < keyedOn.jointCount() && j < target.jointCount(); ++j)
    holdOldRest(clip, j, keyedOn.restLocal(j), target.restLocal(j));
  return clip;
}

Pose poseAtFrame(const Skeleton& skeleton, const Clip& clip, int frame) {
  Pose pose(skeleton.restPose().begin(), skeleton.restPose().end());
  ClipSampler sampler(&clip);
  sampler.sample(clip.timeOf(frame), pose);
  return pose;
}

Pose tPoseOf(const Skeleton& skeleton, const HumanoidMap& map, const Pose& standingLocal, const Vec3& upModel,
             const Vec3& forwardModel) {
  Pose local = standingLocal;
  std::vector<Transform> model = modelOf(skeleton, local);
  std::vector<int> column = map.spine;
  for (int j : {map.neck, map.head}) {
    if (j >= 0) column.push_back(j);
  }
  for (std::size_t i = 0; i + 1 < column.size(); ++i) {
    if (i > 0 || column[i] != map.hips) aimBone(skeleton, column[i], column[i + 1], upModel, local, model);
  }
  const Vec3 leftModel = upModel.cross(forwardModel).normalized();
  for (const HumanoidLeg* leg : {&map.leftLeg, &map.rightLeg}) {
    aimBone(skeleton, leg->thigh, leg->knee, -upModel, local, model);
    aimBone(skeleton, leg->knee, leg->legTip, -upModel, local, model);
  }
  for (const auto& [arm, side] : {std::pair{&map.leftArm, leftModel}, std::pair{&map.rightArm, Vec3(-leftModel)}}) {
    aimBone(skeleton, arm->upperArm, arm->forearm, side, local, model);
    aimBone(skeleton, arm->forearm, arm->hand, side, local, model);
  }
  return local;
}

Pose standingReferencePose(const Skeleton& skeleton, const HumanoidMap& map, const CaptureConvention& convention) {
  Pose pose(skeleton.restPose().begin(), skeleton.restPose().end());
  const auto root = static_cast<std::size_t>(rootOf(skeleton, map.hips));
  Transform turn;
  turn.rotation = convention.restToStandingModel;
  pose[root] = turn * pose[root];
  return pose;
}

const Clip* conventionClip(const Scene& scene, std::size_t clipIndex) {
  if (clipIndex >= scene.clips.size()) return nullptr;
  const Clip& clip = scene.clips[clipIndex];
  return clip.frameCount() >= 1 && !clip.validate(scene.skeleton.jointCount()) ? &clip : nullptr;
}

CaptureConventionJob conventionJobFor(const Scene& scene, const HumanoidMap& map, std::size_t clipIndex) {
  CaptureConventionJob job;
  job.skeleton = &scene.skeleton;
  job.map = &map;
  job.clip = conventionClip(scene, clipIndex);
  job.userOverride = scene.convention;
  return job;
}

float standingHeight(const StandingCapture& capture) {
  return capture.convention ? capture.convention->heightModel : capture.scene.characterHeight();
}

float standingHeightOf(const Scene& scene, std::size_t clipIndex) {
  auto map = mapHumanoid(scene.skeleton);
  if (!map) return scene.characterHeight();
  auto convention = conventionJobFor(scene, *map, clipIndex).run();
  return convention ? convention->heightModel : scene.characterHeight();
}

Result<StandingCapture> standUpright(Scene scene, std::size_t clipIndex) {
  StandingCapture result;
  auto map = mapHumanoid(scene.skeleton);
  if (!map) {
    result.scene = std::move(scene);
    return result;
  }
  auto convention = conventionJobFor(scene, *map, clipIndex).run();
  if (!convention) return makeError(scene.sourcePath + ": " + convention.error());
  result.convention = *convention;
  if (convention->restKind != RestPoseKind::NotStanding) {
    result.scene = std::move(scene);
    return result;
  }
  const Pose reference = standingReferencePose(scene.skeleton, *map, *convention);
  RestPoseJob rest;
  rest.scene = &scene;
  rest.restLocal = reference;
  auto stood = rest.run();
  if (!stood) return makeError(scene.sourcePath + ": " + stood.error());
  result.scene = std::move(*stood);
  result.restChanged = true;
  return result;
}

}  // namespace articula
