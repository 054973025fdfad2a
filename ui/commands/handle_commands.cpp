#include "ui/commands/handle_commands.h"

#include <QCoreApplication>

#include <algorithm>
#include <array>
#include <functional>
#include <utility>
#include <vector>

#include "ui/commands/command_ids.h"
#include "ui/document/document.h"

namespace articula::ui {

namespace {

QString moveText(const IkHandle* handle, MoveHandleCommand::Part part) {
  const QString name = handle ? QString::fromStdString(handle->name) : QStringLiteral("?");
  return part == MoveHandleCommand::Part::Target
             ? QCoreApplication::translate("MoveHandleCommand", "Move IK Target %1").arg(name)
             : QCoreApplication::translate("MoveHandleCommand", "Move IK Pole %1").arg(name);
}

constexpr std::array<const char*, 3> kAxes = {"x", "y", "z"};

std::string partCurveName(const IkHandle& handle, MoveHandleCommand::Part part, const char* axis) {
  return handleCurveName(handle.name,
                         std::string(part == MoveHandleCommand::Part::Target ? "target." : "pole.") + axis);
}

Vec3 partValue(const IkHandle& handle, MoveHandleCommand::Part part) {
  return part == MoveHandleCommand::Part::Target ? handle.targetModel : handle.pole.position;
}

bool isConstant(const Curve& curve) {
  return std::all_of(curve.keys().begin(), curve.keys().end(), [&](const CurveKey& key) {
    return key.value == curve.keys().front().value && key.left.y() == key.value && key.right.y() == key.value;
  });
}

// `curve`, constant, moved to `value` with its keys where they are.
Curve shiftedTo(const Curve& curve, double value) {
  std::vector<CurveKey> keys = curve.keys();
  for (CurveKey& key : keys) {
    key.value = value;
    key.left.y() = value;
    key.right.y() = value;
  }
  Curve shifted;
  shifted.setKeys(std::move(keys));
  return shifted;
}

bool sameCurve(const std::optional<Curve>& a, const std::optional<Curve>& b) {
  if (!a || !b) return a.has_value() == b.has_value();
  return std::equal(
      a->keys().begin(), a->keys().end(), b->keys().begin(), b->keys().end(), [](const CurveKey& x, const CurveKey& y) {
        return x.time == y.time && x.value == y.value && x.interpolation == y.interpolation &&
               x.leftType == y.leftType && x.rightType == y.rightType && x.left == y.left && x.right == y.right;
      });
}

bool sameCurves(const std::map<std::string, std::optional<Curve>>& a,
                const std::map<std::string, std::optional<Curve>>& b) {
  return std::equal(a.begin(), a.end(), b.begin(), b.end(),
                    [](const auto& x, const auto& y) { return x.first == y.first && sameCurve(x.second, y.second); });
}

// A static offset's value: its constant curves' (found by `curveNamed`, null: none), the
// handle's own where it has none. Read from the keys, so a value compares exactly.
Vec3 offsetValue(const IkHandle& handle, MoveHandleCommand::Part part,
                 const std::function<const Curve*(const std::string&)>& curveNamed) {
  Vec3 value = partValue(handle, part);
  for (int axis = 0; axis < 3; ++axis) {
    const Curve* curve = curveNamed(partCurveName(handle, part, kAxes[static_cast<std::size_t>(axis)]));
    if (curve && !curve->empty()) value[axis] = static_cast<float>(curve->keys().front().value);
  }
  return value;
}

}  // namespace

EditHandleCommand::EditHandleCommand(Document* document, int handle, IkHandle value, const QString& text,
                                     QUndoCommand* parent)
    : ChangeValue(document, std::move(value), text, parent), mHandle(handle) {
  const IkHandle* current = document->activeHandle(handle);
  if (!current || *current == this->value()) setObsolete(true);
}

QString EditHandleCommand::validate(const Document& document, int handle, const IkHandle& value) {
  if (!document.activeHandle(handle)) {
    return QCoreApplication::translate("EditHandleCommand", "there is no IK handle %1 in the active rig").arg(handle);
  }
  RigDefinition rig = *document.activeRig();
  rig.handles[static_cast<std::size_t>(handle)] = value;
  const Result<Rig> bound = Rig::bind(document.scene().skeleton, std::move(rig));
  return bound ? QString() : QString::fromStdString(bound.error());
}

IkHandle EditHandleCommand::exchange(IkHandle value) {
  // The stack keeps the rig as it was when the command ran, so the handle is there.
  std::optional<IkHandle> replaced = document()->setHandle({}, mHandle, value);
  return replaced ? std::move(*replaced) : value;
}

int EditHandleCommand::id() const { return kEditHandleCommandId; }

bool EditHandleCommand::mergeWith(const QUndoCommand* other) {
  const auto* next = static_cast<const EditHandleCommand*>(other);
  const IkHandle* current = document()->activeHandle(mHandle);
  return next->mHandle == mHandle && current && foldDrag(*next, *current);
}

MoveHandleCommand::MoveHandleCommand(Document* document, int handle, Part part, const std::optional<Vec3>& position,
                                     QUndoCommand* parent)
    : QUndoCommand(parent),
      mDocument(document),
      mHandle(handle),
      mPart(part),
      mClipIndex(document->currentClipIndex()),
      mBackToStart(!position) {
  const std::optional<IkHandle> shown = document->shownHandle(handle);
  setText(moveText(shown ? &*shown : nullptr, part));
  // Decided before a drag's step back to its start returns: that step merges only into a
  // move of the same kind.
  if (shown) mPoses = posesPart(*document, handle, part);
  if (!shown || !position || !position->allFinite()) {
    setObsolete(true);
    return;
  }
  if (mPoses) {
    posedState(*document, *position);
  } else {
    offsetState(*document, *document->activeHandle(handle), *position);
  }
}

bool MoveHandleCommand::posesPart(const Document& document, int handle, Part part) {
  const IkHandle* ik = document.activeHandle(handle);
  const Clip* clip = document.currentClip();
  if (!ik || !clip) return true;
  if (part == Part::Target && ik->targetSource == TargetSource::InputPose) return true;
  return std::any_of(kAxes.begin(), kAxes.end(), [&](const char* axis) {
    const auto found = clip->curves.find(partCurveName(*ik, part, axis));
    return found != clip->curves.end() && !isConstant(found->second);
  });
}

void MoveHandleCommand::posedState(const Document& document, const Vec3& position) {
  const std::optional<Vec3> current = posedPart(document.handlePoses());
  mPosed = position;
  // A part moved onto what the rig and the clip give it is not posed (a snap that changes
  // nothing changes nothing).
  if (!current && position == partValue(*document.animatedHandle(mHandle), mPart)) mPosed.reset();
  setObsolete(mPosed == current);
}

std::optional<Vec3> MoveHandleCommand::posedPart(const std::map<int, HandlePose>& poses) const {
  const auto found = poses.find(mHandle);
  if (found == poses.end()) return std::nullopt;
  return mPart == Part::Target ? found->second.targetModel : found->second.polePosition;
}

void MoveHandleCommand::offsetState(const Document& document, const IkHandle& handle, const Vec3& position) {
  const Clip& clip = *document.currentClip();
  Curves start;
  for (const char* axis : kAxes) {
    const auto found = clip.curves.find(partCurveName(handle, mPart, axis));
    if (found != clip.curves.end() && !found->second.empty()) start[found->first] = found->second;
  }
  // Back on the handle's own value without curves: nothing to store.
  if (start.empty() && position == partValue(handle, mPart)) {
    setObsolete(true);
    return;
  }
  // The offset as a whole: all three curves, constant, the existing ones' keys kept in time.
  for (int axis = 0; axis < 3; ++axis) {
    const std::string name = partCurveName(handle, mPart, kAxes[static_cast<std::size_t>(axis)]);
    start.try_emplace(name, std::nullopt);
    if (start[name]) {
      mCurves[name] = shiftedTo(*start[name], position[axis]);
    } else {
      Curve constant;
      constant.insertKey(clip.startTime, position[axis]);
      mCurves[name] = std::move(constant);
    }
  }
  setObsolete(sameCurves(mCurves, start));
}

void MoveHandleCommand::redo() { swapState(); }
void MoveHandleCommand::undo() { swapState(); }

void MoveHandleCommand::swapState() {
  if (isObsolete()) return;
  if (mPoses) {
    // Only this part of this handle: a snap's target and pole moves compose.
    std::map<int, HandlePose> poses = mDocument->handlePoses();
    HandlePose& pose = poses[mHandle];
    std::swap(mPart == Part::Target ? pose.targetModel : pose.polePosition, mPosed);
    if (!pose.targetModel && !pose.polePosition) poses.erase(mHandle);
    mDocument->setHandlePoses({}, std::move(poses));
  } else {
    mCurves = mDocument->setClipCurves({}, mClipIndex, std::move(mCurves), mHandle);
  }
}

int MoveHandleCommand::id() const { return kMoveHandleCommandId; }

bool MoveHandleCommand::mergeWith(const QUndoCommand* other) {
  const auto* next = static_cast<const MoveHandleCommand*>(other);
  if (!next->mMergeable || next->mDocument != mDocument || next->mHandle != mHandle || next->mPart != mPart ||
      next->mPoses != mPoses || next->mClipIndex != mClipIndex || isObsolete())
    return false;
  if (next->isObsolete() && !next->mBackToStart) return false;
  // The document holds the drag's latest state (the stack ran `next`, or `next` goes back
  // to the start and did not run), this command the one from before the drag. Back at the
  // start's value, put that state back exactly: the stack drops an obsolete command
  // without undoing it.
  if (next->mBackToStart || partValueNow() == partValueAtStart()) {
    swapState();
    setObsolete(true);
  }
  return true;
}

Vec3 MoveHandleCommand::partValueNow() const {
  if (mPoses) return partValue(*mDocument->shownHandle(mHandle), mPart);
  const auto& curves = mDocument->scene().clips[static_cast<std::size_t>(mClipIndex)].curves;
  return offsetValue(*mDocument->activeHandle(mHandle), mPart, [&](const std::string& name) -> const Curve* {
    const auto found = curves.find(name);
    return found == curves.end() ? nullptr : &found->second;
  });
}

Vec3 MoveHandleCommand::partValueAtStart() const {
  if (mPoses) return mPosed ? *mPosed : partValue(*mDocument->animatedHandle(mHandle), mPart);
  return offsetValue(*mDocument->activeHandle(mHandle), mPart, [&](const std::string& name) -> const Curve* {
    const auto held = mCurves.find(name);
    return held == mCurves.end() || !held->second ? nullptr : &*held->second;
  });
}

}  // namespace articula::ui
