#include "ui/commands/key_pose_command.h"

#include <QCoreApplication>

#include <algorithm>
#include <set>

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

std::vector<int> jointsToKey(const Document& document) {
  std::set<int> joints(document.selectedJoints().begin(), document.selectedJoints().end());
  for (const auto& entry : document.poseOverrides()) joints.insert(entry.first);
  return {joints.begin(), joints.end()};
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

KeyPoseCommand::KeyPoseCommand(Document* document, QUndoCommand* parent)
    : QUndoCommand(QCoreApplication::translate("KeyPoseCommand", "Key Pose"), parent),
      mDocument(document),
      mClipIndex(document->currentClipIndex()) {
  if (!canKeyPose(*document)) {
    setObsolete(true);
    return;
  }
  const std::vector<int> joints = jointsToKey(*document);
  mClip = keyedClip(*document->currentClip(), document->time(), joints, document->localPose(),
                    document->scene().skeleton.restPose());
}

bool KeyPoseCommand::canKeyPose(const Document& document) {
  return document.currentClip() && (!document.selectedJoints().empty() || !document.poseOverrides().empty());
}

void KeyPoseCommand::redo() { swapState(); }
void KeyPoseCommand::undo() { swapState(); }

void KeyPoseCommand::swapState() {
  if (isObsolete()) return;
  // Clip first, then overrides: with the keyed clip in place, dropping the overrides
  // leaves the pose as it was (and on undo, the overrides come back over the old clip).
  mClip = mDocument->replaceClip({}, mClipIndex, std::move(mClip));
  mOverrides = mDocument->setPoseOverrides({}, std::move(mOverrides));
}

}  // namespace articula::ui
