#include "ui/commands/handle_commands.h"

#include <QCoreApplication>

#include <algorithm>
#include <array>
#include <functional>
#include <span>
#include <utility>
#include <vector>

#include "ui/commands/command_ids.h"
#include "ui/document/document.h"

namespace articula::ui {

namespace {

QString moveText(const IkHandle* handle, MoveHandleCommand::Part part) {
  const QString name = handle ? QString::fromStdString(handle->name) : QStringLiteral("?");
  switch (part) {
    case MoveHandleCommand::Part::Target:
      return QCoreApplication::translate("MoveHandleCommand", "Move IK Target %1").arg(name);
    case MoveHandleCommand::Part::Pole:
      return QCoreApplication::translate("MoveHandleCommand", "Move IK Pole %1").arg(name);
    case MoveHandleCommand::Part::Roll:
      return QCoreApplication::translate("MoveHandleCommand", "Roll Foot %1").arg(name);
    case MoveHandleCommand::Part::Orientation:
      break;
  }
  return QCoreApplication::translate("MoveHandleCommand", "Turn IK Target %1").arg(name);
}

using PartValue = MoveHandleCommand::PartValue;

// A part's curve channels, in PartValue's order.
std::span<const char* const> channelsOf(MoveHandleCommand::Part part) {
  static constexpr std::array<const char*, 3> kTarget = {"target.x", "target.y", "target.z"};
  static constexpr std::array<const char*, 3> kPole = {"pole.x", "pole.y", "pole.z"};
  static constexpr std::array<const char*, 4> kOrientation = {"orientation.w", "orientation.x", "orientation.y",
                                                              "orientation.z"};
  static constexpr std::array<const char*, 1> kRoll = {"roll"};
  switch (part) {
    case MoveHandleCommand::Part::Target:
      return kTarget;
    case MoveHandleCommand::Part::Pole:
      return kPole;
    case MoveHandleCommand::Part::Roll:
      return kRoll;
    case MoveHandleCommand::Part::Orientation:
      break;
  }
  return kOrientation;
}

PartValue fromVec3(const Vec3& v) { return PartValue(v.x(), v.y(), v.z(), 0.0f); }
PartValue fromQuat(const Quat& q) { return PartValue(q.w(), q.x(), q.y(), q.z()); }
Quat toQuat(const PartValue& v) { return Quat(v[0], v[1], v[2], v[3]); }

PartValue partValue(const IkHandle& handle, MoveHandleCommand::Part part) {
  switch (part) {
    case MoveHandleCommand::Part::Target:
      return fromVec3(handle.targetModel);
    case MoveHandleCommand::Part::Pole:
      return fromVec3(handle.pole.position);
    case MoveHandleCommand::Part::Roll:
      return PartValue(handle.rollRad, 0.0f, 0.0f, 0.0f);
    case MoveHandleCommand::Part::Orientation:
      break;
  }
  return fromQuat(handle.orientationModel);
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
PartValue offsetValue(const IkHandle& handle, MoveHandleCommand::Part part,
                      const std::function<const Curve*(const std::string&)>& curveNamed) {
  PartValue value = partValue(handle, part);
  const auto channels = channelsOf(part);
  for (std::size_t c = 0; c < channels.size(); ++c) {
    const Curve* curve = curveNamed(handleCurveName(handle.name, channels[c]));
    if (curve && !curve->empty()) value[static_cast<Eigen::Index>(c)] = static_cast<float>(curve->keys().front().value);
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
    : MoveHandleCommand(ValueOfPart{}, document, handle, part,
                        position ? std::optional<PartValue>(fromVec3(*position)) : std::optional<PartValue>(),
                        parent) {}

MoveHandleCommand::MoveHandleCommand(Document* document, int handle, const std::optional<Quat>& orientationModel,
                                     QUndoCommand* parent)
    : MoveHandleCommand(ValueOfPart{}, document, handle, Part::Orientation,
                        orientationModel ? std::optional<PartValue>(fromQuat(orientationModel->normalized()))
                                         : std::optional<PartValue>(),
                        parent) {}

MoveHandleCommand* MoveHandleCommand::roll(Document* document, int handle, const std::optional<float>& rollRad) {
  return new MoveHandleCommand(
      ValueOfPart{}, document, handle, Part::Roll,
      rollRad ? std::optional<PartValue>(PartValue(*rollRad, 0.0f, 0.0f, 0.0f)) : std::optional<PartValue>(), nullptr);
}

MoveHandleCommand::MoveHandleCommand(ValueOfPart, Document* document, int handle, Part part,
                                     const std::optional<PartValue>& value, QUndoCommand* parent)
    : QUndoCommand(parent),
      mDocument(document),
      mHandle(handle),
      mPart(part),
      mClipIndex(document->currentClipIndex()),
      mBackToStart(!value) {
  const std::optional<IkHandle> shown = document->shownHandle(handle);
  setText(moveText(shown ? &*shown : nullptr, part));
  // Decided before a drag's step back to its start returns: that step merges only into a
  // move of the same kind.
  if (shown) mPoses = posesPart(*document, handle, part);
  if (!shown || !value || !value->allFinite()) {
    setObsolete(true);
    return;
  }
  if (mPoses) {
    posedState(*document, *value);
  } else {
    offsetState(*document, *document->activeHandle(handle), *value);
  }
}

bool MoveHandleCommand::posesPart(const Document& document, int handle, Part part) {
  const IkHandle* ik = document.activeHandle(handle);
  const Clip* clip = document.currentClip();
  if (!ik || !clip) return true;
  if (part == Part::Target && ik->targetSource == TargetSource::InputPose) return true;
  const auto channels = channelsOf(part);
  const bool curvesMove = std::any_of(channels.begin(), channels.end(), [&](const char* channel) {
    const auto found = clip->curves.find(handleCurveName(ik->name, channel));
    return found != clip->curves.end() && !isConstant(found->second);
  });
  if (part != Part::Orientation || curvesMove) return curvesMove;
  // An orientation that follows the chain is animated, unless constant curves set it.
  const bool curvesSetIt = std::any_of(channels.begin(), channels.end(), [&](const char* channel) {
    const auto found = clip->curves.find(handleCurveName(ik->name, channel));
    return found != clip->curves.end() && !found->second.empty();
  });
  return ik->orientation != OrientationMode::Target && !curvesSetIt;
}

void MoveHandleCommand::posedState(const Document& document, const PartValue& value) {
  const std::optional<PartValue> current = posedPart(document.handlePoses());
  mPosed = value;
  // A part moved onto what the rig and the clip give it is not posed (a snap that changes
  // nothing changes nothing).
  const IkHandle animated = *document.animatedHandle(mHandle);
  const bool given = mPart != Part::Orientation || animated.orientation == OrientationMode::Target;
  if (!current && given && value == partValue(animated, mPart)) mPosed.reset();
  setObsolete(mPosed == current);
}

std::optional<PartValue> MoveHandleCommand::posedPart(const std::map<int, HandlePose>& poses) const {
  const auto found = poses.find(mHandle);
  if (found == poses.end()) return std::nullopt;
  const HandlePose& pose = found->second;
  switch (mPart) {
    case Part::Target:
      return pose.targetModel ? std::optional<PartValue>(fromVec3(*pose.targetModel)) : std::nullopt;
    case Part::Pole:
      return pose.polePosition ? std::optional<PartValue>(fromVec3(*pose.polePosition)) : std::nullopt;
    case Part::Roll:
      return pose.rollRad ? std::optional<PartValue>(PartValue(*pose.rollRad, 0.0f, 0.0f, 0.0f)) : std::nullopt;
    case Part::Orientation:
      break;
  }
  return pose.orientationModel ? std::optional<PartValue>(fromQuat(*pose.orientationModel)) : std::nullopt;
}

void MoveHandleCommand::offsetState(const Document& document, const IkHandle& handle, const PartValue& value) {
  const Clip& clip = *document.currentClip();
  const auto channels = channelsOf(mPart);
  Curves start;
  for (const char* channel : channels) {
    const auto found = clip.curves.find(handleCurveName(handle.name, channel));
    if (found != clip.curves.end() && !found->second.empty()) start[found->first] = found->second;
  }
  // Back on the handle's own value without curves: nothing to store.
  if (start.empty() && value == partValue(handle, mPart)) {
    setObsolete(true);
    return;
  }
  // The offset as a whole: every channel's curve, constant, the existing ones' keys kept in time.
  for (std::size_t c = 0; c < channels.size(); ++c) {
    const std::string name = handleCurveName(handle.name, channels[c]);
    const double channelValue = value[static_cast<Eigen::Index>(c)];
    start.try_emplace(name, std::nullopt);
    if (start[name]) {
      mCurves[name] = shiftedTo(*start[name], channelValue);
    } else {
      Curve constant;
      constant.insertKey(clip.startTime, channelValue);
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
    const std::optional<PartValue> previous = posedPart(poses);
    switch (mPart) {
      case Part::Target:
        pose.targetModel = mPosed ? std::optional<Vec3>(mPosed->head<3>()) : std::nullopt;
        break;
      case Part::Pole:
        pose.polePosition = mPosed ? std::optional<Vec3>(mPosed->head<3>()) : std::nullopt;
        break;
      case Part::Orientation:
        pose.orientationModel = mPosed ? std::optional<Quat>(toQuat(*mPosed)) : std::nullopt;
        break;
      case Part::Roll:
        pose.rollRad = mPosed ? std::optional<float>((*mPosed)[0]) : std::nullopt;
        break;
    }
    mPosed = previous;
    if (pose.empty()) poses.erase(mHandle);
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

PartValue MoveHandleCommand::partValueNow() const {
  if (mPoses) return partValue(*mDocument->shownHandle(mHandle), mPart);
  const auto& curves = mDocument->scene().clips[static_cast<std::size_t>(mClipIndex)].curves;
  return offsetValue(*mDocument->activeHandle(mHandle), mPart, [&](const std::string& name) -> const Curve* {
    const auto found = curves.find(name);
    return found == curves.end() ? nullptr : &found->second;
  });
}

PartValue MoveHandleCommand::partValueAtStart() const {
  if (mPoses) return mPosed ? *mPosed : partValue(*mDocument->animatedHandle(mHandle), mPart);
  return offsetValue(*mDocument->activeHandle(mHandle), mPart, [&](const std::string& name) -> const Curve* {
    const auto held = mCurves.find(name);
    return held == mCurves.end() || !held->second ? nullptr : &*held->second;
  });
}

std::optional<Vec3> shownTargetModel(const Document& document, int handle) {
  const std::optional<IkHandle> shown = document.shownHandle(handle);
  if (!shown) return std::nullopt;
  const Rig* rig = document.boundRig();
  if (document.rigSolved() && rig && handle < static_cast<int>(rig->reports().size()))
    return rig->reports()[static_cast<std::size_t>(handle)].targetModel;
  return shown->targetModel;
}

std::optional<Quat> shownOrientation(const Document& document, int handle) {
  const std::optional<IkHandle> shown = document.shownHandle(handle);
  if (!shown) return std::nullopt;
  const auto model = document.modelPose();
  if (shown->orientation == OrientationMode::Target || shown->chain.empty() ||
      static_cast<std::size_t>(shown->chain.back()) >= model.size())
    return shown->orientationModel.normalized();
  return Quat(model[static_cast<std::size_t>(shown->chain.back())].rotation()).normalized();
}

}  // namespace articula::ui
