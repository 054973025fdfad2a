#include "ui/commands/pose_commands.h"

#include <numeric>
#include <set>

#include "ui/commands/set_joint_transform_command.h"
#include "ui/document/document.h"

namespace articula::ui {

PoseJointsCommand::PoseJointsCommand(Document* document, const std::map<int, Transform>& overrides, const QString& text,
                                     QUndoCommand* parent)
    : QUndoCommand(text, parent) {
  addPoseChildren(document, overrides, this);
  setObsolete(childCount() == 0);
}

void addPoseChildren(Document* document, const std::map<int, Transform>& overrides, QUndoCommand* parent) {
  const int count = document->scene().skeleton.jointCount();
  for (const auto& [joint, local] : overrides) {
    if (joint < 0 || joint >= count || !local.isFinite()) continue;
    const auto found = document->poseOverrides().find(joint);
    const bool unchanged = found != document->poseOverrides().end() && found->second.translation == local.translation &&
                           found->second.rotation.coeffs() == local.rotation.coeffs() &&
                           found->second.scale == local.scale;
    if (!unchanged)
      new SetJointTransformCommand(document, joint, local, SetJointTransformCommand::Channel::Transform, parent);
  }
}

std::vector<int> poseToolJoints(const Document& document) {
  if (!document.selectedJoints().empty()) return document.selectedJoints();
  std::vector<int> all(static_cast<std::size_t>(document.scene().skeleton.jointCount()));
  std::iota(all.begin(), all.end(), 0);
  return all;
}

std::map<int, Transform> copiedPose(const Document& document, const std::vector<int>& joints) {
  std::map<int, Transform> pose;
  const auto local = document.localPose();
  for (int joint : joints) {
    if (joint >= 0 && static_cast<std::size_t>(joint) < local.size())
      pose[joint] = local[static_cast<std::size_t>(joint)];
  }
  return pose;
}

std::optional<std::map<int, Transform>> mirroredOverrides(const Document& document, bool flip, QString* error) {
  const Skeleton& skeleton = document.scene().skeleton;
  Result<PoseMirror> mirror = buildPoseMirror(skeleton);
  if (!mirror) {
    if (error) *error = QString::fromStdString(mirror.error());
    return std::nullopt;
  }
  const std::vector<int>& selected = document.selectedJoints();
  std::set<int> targets;
  auto partnerOf = [&](int joint) { return mirror->partner[static_cast<std::size_t>(joint)]; };
  if (flip) {
    for (int joint = 0; joint < skeleton.jointCount(); ++joint) {
      if (partnerOf(joint) >= 0 &&
          (selected.empty() || document.isSelected(joint) || document.isSelected(partnerOf(joint))))
        targets.insert(joint);
    }
  } else {
    const std::vector<int>& sources = selected.empty() ? mirror->leftJoints : selected;
    for (int joint : sources) {
      // A centre joint is its own partner: mirroring it onto itself is a flip, not a mirror.
      if (partnerOf(joint) >= 0 && partnerOf(joint) != joint) targets.insert(partnerOf(joint));
    }
  }
  const std::vector<int> targetList(targets.begin(), targets.end());
  const Pose mirrored = mirroredPose(*mirror, skeleton, document.localPose(), targetList);
  std::map<int, Transform> overrides;
  for (int joint : targetList) overrides[joint] = mirrored[static_cast<std::size_t>(joint)];
  return overrides;
}

std::vector<int> mirrorSelection(const Document& document) {
  Result<PoseMirror> mirror = buildPoseMirror(document.scene().skeleton);
  if (!mirror) return document.selectedJoints();
  std::vector<int> selection;
  for (int joint : document.selectedJoints()) {
    const int partner = mirror->partner[static_cast<std::size_t>(joint)];
    selection.push_back(partner >= 0 ? partner : joint);
  }
  return selection;
}

}  // namespace articula::ui
