#include "ui/commands/key_pose_command.h"

#include <QCoreApplication>

#include <algorithm>
#include <set>
#include <string_view>

#include "ui/document/document.h"

namespace articula::ui {

namespace {

// How a new key at `time` interpolates on `curve`: as the key before it does.
Interpolation interpolationAt(const Curve& curve, double time) {
  Interpolation interpolation = Interpolation::Bezier;
  for (const CurveKey& key : curve.keys()) {
    if (key.time > time) break;
    interpolation = key.interpolation;
  }
  return interpolation;
}

void keyVec3(Vec3Track& track, double time, const Vec3& value, const Vec3& rest) {
  Curve* curves[3] = {&track.x, &track.y, &track.z};
  for (int axis = 0; axis < 3; ++axis) {
    Curve& curve = *curves[axis];
    if (curve.empty() && value[axis] == rest[axis]) continue;
    curve.insertKey(time, value[axis], interpolationAt(curve, time));
  }
}

void keyRotation(RotationTrack& track, double time, const Quat& value, const Quat& rest) {
  if (track.empty() && value.isApprox(rest, 0.0f)) return;
  RotationKey key;
  key.time = time;
  key.value = value.normalized();
  for (const RotationKey& existing : track.keys()) {
    if (existing.time > time) break;
    key.interpolation = existing.interpolation;
  }
  // Flat tangents: the new key eases in and out, as an inserted key does in Maya.
  key.inControl = key.value;
  key.outControl = key.value;
  if (key.interpolation == RotationInterpolation::CubicSpline) {
    key.inControl.coeffs().setZero();
    key.outControl.coeffs().setZero();
  }
  track.insertKey(key);
}

// Whether two local transforms differ by no more than float noise (a solve that left a
// joint where it was may still round its rotation).
bool sameLocal(const Transform& a, const Transform& b) {
  constexpr float kNoise = 1e-6f;
  const float sign = a.rotation.dot(b.rotation) < 0.0f ? -1.0f : 1.0f;
  return (a.translation - b.translation).norm() <= kNoise * std::max(1.0f, a.translation.norm()) &&
         (a.rotation.coeffs() - sign * b.rotation.coeffs()).norm() <= kNoise && (a.scale - b.scale).norm() <= kNoise;
}

std::vector<int> jointsToKey(const Document& document, int handle) {
  std::set<int> joints(document.selectedJoints().begin(), document.selectedJoints().end());
  for (const auto& entry : document.poseOverrides()) joints.insert(entry.first);
  for (int joint : jointsMovedByRig(document)) joints.insert(joint);
  if (const IkHandle* ik = document.activeHandle(handle)) joints.insert(ik->chain.begin(), ik->chain.end());
  return {joints.begin(), joints.end()};
}

// The value the rig took for `channel` of `handle` at `time`: its curve's, unless the
// handle is posed (its own values replace its curves) or has no such curve: `own`.
double handleChannelValue(const Clip& clip, const IkHandle& handle, bool posed, std::string_view channel, double time,
                          double own) {
  if (posed) return own;
  const auto found = clip.curves.find(handleCurveName(handle.name, channel));
  return found == clip.curves.end() || found->second.empty() ? own : found->second.evaluate(time);
}

void keyHandleChannel(Clip& clip, const std::string& name, double time, double value) {
  Curve& curve = clip.curves[name];
  curve.insertKey(time, value, interpolationAt(curve, time));
}

}  // namespace

Clip keyedClip(Clip clip, double time, std::span<const int> joints, std::span<const Transform> localPose,
               std::span<const Transform> restPose) {
  for (int joint : joints) {
    if (joint < 0 || joint >= static_cast<int>(localPose.size()) || joint >= static_cast<int>(restPose.size()))
      continue;
    const Transform& local = localPose[static_cast<std::size_t>(joint)];
    const Transform& rest = restPose[static_cast<std::size_t>(joint)];
    JointTrack& track = clip.trackFor(joint);
    keyVec3(track.translation, time, local.translation, rest.translation);
    keyRotation(track.rotation, time, local.rotation, rest.rotation);
    keyVec3(track.scale, time, local.scale, rest.scale);
  }
  return clip;
}

std::vector<int> jointsMovedByRig(const Document& document) {
  std::vector<int> moved;
  if (!document.rigSolved()) return moved;
  const auto input = document.inputLocalPose();
  const auto solved = document.localPose();
  const std::size_t count = std::min(input.size(), solved.size());
  for (std::size_t joint = 0; joint < count; ++joint) {
    if (!sameLocal(input[joint], solved[joint])) moved.push_back(static_cast<int>(joint));
  }
  return moved;
}

Clip keyedHandleClip(const Document& document, Clip clip, double time, int handle) {
  const IkHandle* ik = document.activeHandle(handle);
  if (!ik || ik->chain.empty()) return clip;
  const bool posed = document.posedHandles().contains(handle);
  // A handle following the incoming pose aims at its tip there (model space).
  const auto inputModel = document.inputModelPose();
  const auto tip = static_cast<std::size_t>(ik->chain.back());
  const Vec3 ownTargetModel = ik->targetSource == TargetSource::Handle || tip >= inputModel.size()
                                  ? ik->targetModel
                                  : Vec3(inputModel[tip].translation());
  static constexpr const char* kTargetChannels[] = {"target.x", "target.y", "target.z"};
  static constexpr const char* kPoleChannels[] = {"pole.x", "pole.y", "pole.z"};
  // Every value is read before any key is written: the curves read are the clip's own.
  double target[3], pole[3];
  for (int axis = 0; axis < 3; ++axis) {
    target[axis] = handleChannelValue(clip, *ik, posed, kTargetChannels[axis], time, ownTargetModel[axis]);
    pole[axis] = handleChannelValue(clip, *ik, posed, kPoleChannels[axis], time, ik->pole.position[axis]);
  }
  const double weight = std::clamp(handleChannelValue(clip, *ik, posed, "weight", time, ik->weight), 0.0, 1.0);
  for (int axis = 0; axis < 3; ++axis) {
    keyHandleChannel(clip, handleCurveName(ik->name, kTargetChannels[axis]), time, target[axis]);
    if (ik->pole.space != IkPole::Space::None)
      keyHandleChannel(clip, handleCurveName(ik->name, kPoleChannels[axis]), time, pole[axis]);
  }
  keyHandleChannel(clip, handleCurveName(ik->name, "weight"), time, weight);
  return clip;
}

KeyPoseCommand::KeyPoseCommand(Document* document, QUndoCommand* parent)
    : KeyPoseCommand(document, document->selectedHandle(), parent) {}

KeyPoseCommand::KeyPoseCommand(Document* document, int handle, QUndoCommand* parent)
    : QUndoCommand(QCoreApplication::translate("KeyPoseCommand", "Key Pose"), parent),
      mDocument(document),
      mClipIndex(document->currentClipIndex()) {
  const std::vector<int> joints = jointsToKey(*document, handle);
  if (!document->currentClip() || (joints.empty() && !document->activeHandle(handle))) {
    setObsolete(true);
    return;
  }
  mClip = keyedClip(*document->currentClip(), document->time(), joints, document->localPose(),
                    document->scene().skeleton.restPose());
  mClip = keyedHandleClip(*document, std::move(mClip), document->time(), handle);
}

bool KeyPoseCommand::canKeyPose(const Document& document) {
  return document.currentClip() &&
         (!document.selectedJoints().empty() || !document.poseOverrides().empty() ||
          document.activeHandle(document.selectedHandle()) || !jointsMovedByRig(document).empty());
}

void KeyPoseCommand::redo() { swapState(); }
void KeyPoseCommand::undo() { swapState(); }

void KeyPoseCommand::swapState() {
  if (isObsolete()) return;
  // Clip first, then overrides and posed handles: with the keyed clip in place, dropping
  // them leaves the pose as it was (and on undo, they come back over the old clip).
  mClip = mDocument->replaceClip({}, mClipIndex, std::move(mClip));
  mOverrides = mDocument->setPoseOverrides({}, std::move(mOverrides));
  mPosedHandles = mDocument->setPosedHandles({}, std::move(mPosedHandles));
}

}  // namespace articula::ui
