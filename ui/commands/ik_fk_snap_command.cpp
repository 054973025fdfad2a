#include "ui/commands/ik_fk_snap_command.h"

#include <QCoreApplication>

#include <map>
#include <vector>

#include "ui/commands/handle_commands.h"
#include "ui/commands/pose_commands.h"
#include "ui/document/document.h"

namespace articula::ui {

namespace {

QString snapText(const char* text, const IkHandle* handle) {
  return QCoreApplication::translate("IkFkSnap", text).arg(handle ? QString::fromStdString(handle->name) : QString());
}

Vec3 positionOf(std::span<const Affine> model, int joint) {
  return model[static_cast<std::size_t>(joint)].translation();
}

// Where a pole keeps the bend of `chain` in `model`: off the middle joint, away from the
// root–tip line by the chain's length, model space. nullopt for a straight chain.
std::optional<Vec3> bendPoleModel(std::span<const Affine> model, const std::vector<int>& chain) {
  if (chain.size() < 3) return std::nullopt;
  const Vec3 root = positionOf(model, chain.front());
  const Vec3 mid = positionOf(model, chain[chain.size() / 2]);
  const Vec3 tip = positionOf(model, chain.back());
  const float reach = (tip - root).norm();
  const float length = (mid - root).norm() + (tip - mid).norm();
  if (reach <= 0.0f || length <= 0.0f) return std::nullopt;
  const Vec3 axis = (tip - root) / reach;
  const Vec3 bend = (mid - root) - axis.dot(mid - root) * axis;
  // Below this the chain is straight to float precision: its bend has no direction.
  if (bend.norm() <= 1e-4f * length) return std::nullopt;
  return mid + bend.normalized() * length;
}

bool chainInside(const IkHandle& ik, std::size_t jointCount) {
  if (ik.chain.empty()) return false;
  for (int joint : ik.chain) {
    if (joint < 0 || static_cast<std::size_t>(joint) >= jointCount) return false;
  }
  return true;
}

// The chain of `handle` with its FK rotations (the rig's input) on the body as the rig left
// it (a spine solved before an arm moves the arm's root): where the rig, solving the handles
// before this one as it did, finds the tip already on a target put there, so the snap is
// exact. The rig's input pose when it did not solve.
std::vector<Affine> chainFkModel(const Document& document, int handle) {
  const auto input = document.inputLocalPose();
  std::vector<Transform> local(document.localPose().begin(), document.localPose().end());
  for (int joint : document.activeHandle(handle)->chain) {
    if (joint >= 0 && static_cast<std::size_t>(joint) < input.size())
      local[static_cast<std::size_t>(joint)] = input[static_cast<std::size_t>(joint)];
  }
  std::vector<Affine> model(local.size(), Affine::Identity());
  LocalToModelJob fk;
  fk.skeleton = &document.scene().skeleton;
  fk.local = local;
  fk.model = model;
  if (!fk.run()) return {document.inputModelPose().begin(), document.inputModelPose().end()};
  return model;
}

}  // namespace

IkHandle handleMatchedToFk(IkHandle ik, std::span<const Affine> fkModel) {
  if (!chainInside(ik, fkModel.size())) return ik;
  const Affine& tipModel = fkModel[static_cast<std::size_t>(ik.chain.back())];
  ik.targetSource = TargetSource::Handle;
  ik.targetModel = tipModel.translation();
  if (ik.orientation == OrientationMode::Target) ik.orientationModel = Quat(tipModel.rotation()).normalized();
  const std::optional<Vec3> poleModel = bendPoleModel(fkModel, ik.chain);
  if (!poleModel) return ik;
  switch (ik.pole.space) {
    case IkPole::Space::None:
      break;
    case IkPole::Space::Model:
      ik.pole.position = *poleModel;
      break;
    case IkPole::Space::Joint:
      // The pole joint's frame in the FK pose is the one that carries the pole.
      if (ik.pole.joint >= 0 && static_cast<std::size_t>(ik.pole.joint) < fkModel.size())
        ik.pole.position = fkModel[static_cast<std::size_t>(ik.pole.joint)].inverse() * *poleModel;
      break;
  }
  return ik;
}

SnapFkToIkCommand::SnapFkToIkCommand(Document* document, int handle, QUndoCommand* parent)
    : QUndoCommand(snapText("Snap FK to IK %1", document->activeHandle(handle)), parent), mHandle(handle) {
  if (canSnap(*document, handle)) {
    const auto solvedLocal = document->localPose();
    std::map<int, Transform> overrides;
    for (int joint : document->activeHandle(handle)->chain)
      overrides[joint] = solvedLocal[static_cast<std::size_t>(joint)];
    addPoseChildren(document, overrides, this);
  }
  setObsolete(childCount() == 0);
}

bool SnapFkToIkCommand::canSnap(const Document& document, int handle) {
  const IkHandle* ik = document.activeHandle(handle);
  return ik && document.rigSolved() && chainInside(*ik, document.localPose().size());
}

SnapIkToFkCommand::SnapIkToFkCommand(Document* document, int handle, QUndoCommand* parent)
    : QUndoCommand(snapText("Snap IK to FK %1", document->activeHandle(handle)), parent), mHandle(handle) {
  if (!canSnap(*document, handle)) {
    setObsolete(true);
    return;
  }
  // The handle as shown: an orientation target set by its curves or its pose is matched too.
  const IkHandle matched = handleMatchedToFk(*document->shownHandle(handle), chainFkModel(*document, handle));
  const auto* target =
      new MoveHandleCommand(document, handle, MoveHandleCommand::Part::Target, matched.targetModel, this);
  bool obsolete = target->isObsolete();
  if (matched.pole.space != IkPole::Space::None) {
    const auto* pole =
        new MoveHandleCommand(document, handle, MoveHandleCommand::Part::Pole, matched.pole.position, this);
    obsolete = obsolete && pole->isObsolete();
  }
  if (matched.orientation == OrientationMode::Target) {
    const auto* orientation = new MoveHandleCommand(document, handle, matched.orientationModel, this);
    obsolete = obsolete && orientation->isObsolete();
  }
  setObsolete(obsolete);
}

bool SnapIkToFkCommand::canSnap(const Document& document, int handle) {
  const IkHandle* ik = document.activeHandle(handle);
  return ik && chainInside(*ik, document.inputModelPose().size());
}

}  // namespace articula::ui
