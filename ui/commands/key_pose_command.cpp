#include "ui/commands/key_pose_command.h"

#include <QCoreApplication>

#include <algorithm>
#include <array>
#include <optional>
#include <set>
#include <string_view>

#include "core/math/quaternion.h"
#include "core/rig/followed_frames.h"
#include "ui/commands/handle_commands.h"
#include "ui/document/clip_grounding.h"
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

// The handles S keys: the posed ones and `handle`; Key All Controls: every one.
std::set<int> handlesToKey(const Document& document, KeyPoseCommand::Scope scope, int handle) {
  std::set<int> handles;
  const RigDefinition* rig = document.activeRig();
  if (!rig) return handles;
  if (scope == KeyPoseCommand::Scope::AllControls) {
    for (int i = 0; i < static_cast<int>(rig->handles.size()); ++i) handles.insert(i);
    return handles;
  }
  for (const auto& entry : document.handlePoses()) handles.insert(entry.first);
  if (document.activeHandle(handle)) handles.insert(handle);
  return handles;
}

std::vector<int> jointsToKey(const Document& document, KeyPoseCommand::Scope scope, const std::set<int>& handles) {
  std::set<int> joints(document.selectedJoints().begin(), document.selectedJoints().end());
  if (scope == KeyPoseCommand::Scope::AllControls) {
    for (int joint = 0; joint < document.scene().skeleton.jointCount(); ++joint) joints.insert(joint);
  }
  for (const auto& entry : document.poseOverrides()) joints.insert(entry.first);
  for (int joint : jointsMovedByRig(document)) joints.insert(joint);
  for (int handle : handles) {
    const IkHandle* ik = document.activeHandle(handle);
    joints.insert(ik->chain.begin(), ik->chain.end());
  }
  return {joints.begin(), joints.end()};
}

void keyHandleChannel(Clip& clip, const std::string& name, double time, double value) {
  Curve& curve = clip.curves[name];
  curve.insertKey(time, value, interpolationAt(curve, time));
}

bool hasCurves(const Clip& clip, const std::string& handle, std::span<const char* const> channels) {
  return std::any_of(channels.begin(), channels.end(), [&](const char* channel) {
    const auto found = clip.curves.find(handleCurveName(handle, channel));
    return found != clip.curves.end() && !found->second.empty();
  });
}

// A curve through `component` of `values` at `times`, linear between them.
template <class Value, class Component>
Curve curveThrough(std::span<const double> times, const std::vector<Value>& values, Component component) {
  Curve curve;
  std::vector<CurveKey> keys(times.size());
  for (std::size_t k = 0; k < times.size(); ++k) {
    keys[k].time = times[k];
    keys[k].value = component(values[k]);
    keys[k].interpolation = Interpolation::Linear;
  }
  curve.setKeys(std::move(keys));
  return curve;
}

// Keys `value` into `track` at `time`; a channel with no keys yet stays empty where `value`
// is what it leaves (`unchanged`: the rest pose under a clip, nothing added by a layer).
void keyJoint(JointTrack& track, double time, const Transform& value, const Transform& unchanged) {
  keyVec3(track.translation, time, value.translation, unchanged.translation);
  keyRotation(track.rotation, time, value.rotation, unchanged.rotation);
  keyVec3(track.scale, time, value.scale, unchanged.scale);
}

constexpr std::array<const char*, 3> kTargetChannels = {"target.x", "target.y", "target.z"};
constexpr std::array<const char*, 4> kOrientationChannels = {"orientation.w", "orientation.x", "orientation.y",
                                                             "orientation.z"};

// The orientation `clip`'s curves of handle `handle` give at `time` (a missing channel reads
// 0; the identity without curves).
Quat curvesOrientation(const Clip& clip, const std::string& handle, double time) {
  if (!hasCurves(clip, handle, kOrientationChannels)) return Quat::Identity();
  float wxyz[4] = {};
  for (std::size_t c = 0; c < 4; ++c) {
    const auto curve = clip.curves.find(handleCurveName(handle, kOrientationChannels[c]));
    if (curve != clip.curves.end() && !curve->second.empty()) wxyz[c] = float(curve->second.evaluate(time));
  }
  return Quat(wxyz[0], wxyz[1], wxyz[2], wxyz[3]);
}

// The handles of `handles` whose first key follows the clip: their targets (TargetSource::
// InputPose, no target curves yet) and their orientations (not a Target of their own, no
// orientation curves yet, keyed now as a posed or animated orientation target).
struct FollowedSeeds {
  std::vector<int> targets;
  std::vector<int> orientations;
  bool empty() const { return targets.empty() && orientations.empty(); }
};

FollowedSeeds followedSeeds(const Document& document, const Clip& clip, const std::set<int>& handles) {
  FollowedSeeds seeds;
  for (int handle : handles) {
    const IkHandle* own = document.activeHandle(handle);
    if (!own) continue;
    if (own->targetSource == TargetSource::InputPose && !hasCurves(clip, own->name, kTargetChannels))
      seeds.targets.push_back(handle);
    const std::optional<IkHandle> shown = document.shownHandle(handle);
    if (own->orientation != OrientationMode::Target && !hasCurves(clip, own->name, kOrientationChannels) && shown &&
        shown->orientation == OrientationMode::Target)
      seeds.orientations.push_back(handle);
  }
  return seeds;
}

// `definition`'s rig as the document solves `clip` (on the grid's plane where it grounds the
// feet: groundsFeet), without this frame's handle poses, over every frame.
std::optional<FollowedFrames> followedBy(const RigDefinition& definition, const Document& document, const Clip& clip) {
  Result<Rig> rig = Rig::bind(document.scene().skeleton, definition);
  if (!rig) return std::nullopt;
  if (groundsFeet(definition, &clip)) {
    Result<Ground> ground = Ground::plane(Vec3::Zero(), Vec3::UnitY());
    if (!ground) return std::nullopt;
    rig->setGround(std::move(ground).value());
  }
  FollowedFrames followed = followedFrames(*rig, clip);
  if (followed.timesSeconds.empty()) return std::nullopt;
  return followed;
}

}  // namespace

Clip followCurvesSeeded(const Document& document, Clip clip, const std::set<int>& handles) {
  const RigDefinition* definition = document.activeRig();
  if (!definition) return clip;
  const FollowedSeeds seeds = followedSeeds(document, clip, handles);
  if (seeds.empty()) return clip;
  const std::optional<FollowedFrames> followed = followedBy(*definition, document, clip);
  if (!followed) return clip;
  const std::span<const double> times = followed->timesSeconds;
  for (int handle : seeds.targets) {
    const auto h = static_cast<std::size_t>(handle);
    for (Eigen::Index axis = 0; axis < 3; ++axis)
      clip.curves[handleCurveName(definition->handles[h].name, kTargetChannels[static_cast<std::size_t>(axis)])] =
          curveThrough(times, followed->targetModel[h], [axis](const Vec3& v) { return double(v[axis]); });
  }
  for (int handle : seeds.orientations) {
    const auto h = static_cast<std::size_t>(handle);
    // Channels w, x, y, z; Eigen's coefficients are x, y, z, w.
    for (Eigen::Index c = 0; c < 4; ++c)
      clip.curves[handleCurveName(definition->handles[h].name, kOrientationChannels[static_cast<std::size_t>(c)])] =
          curveThrough(times, followed->orientationModel[h],
                       [c](const Quat& q) { return double(q.coeffs()[(c + 3) % 4]); });
  }
  return clip;
}

Clip keyedClip(Clip clip, double time, std::span<const int> joints, std::span<const Transform> localPose,
               std::span<const Transform> restPose) {
  for (int joint : joints) {
    if (joint < 0 || joint >= static_cast<int>(localPose.size()) || joint >= static_cast<int>(restPose.size()))
      continue;
    const auto j = static_cast<std::size_t>(joint);
    keyJoint(clip.trackFor(joint), time, localPose[j], restPose[j]);
  }
  return clip;
}

AnimLayer keyedLayer(AnimLayer layer, double time, std::span<const int> joints, std::span<const Transform> localPose,
                     std::span<const Transform> belowPose) {
  for (int joint : joints) {
    if (joint < 0 || joint >= static_cast<int>(localPose.size()) || joint >= static_cast<int>(belowPose.size()))
      continue;
    const Transform& below = belowPose[static_cast<std::size_t>(joint)];
    const Transform value = layerValueFor(layer.mode, below, localPose[static_cast<std::size_t>(joint)]);
    // What the layer leaves as below: identity for an additive layer, below for an override.
    keyJoint(layer.trackFor(joint), time, value, layer.mode == LayerMode::Additive ? Transform::identity() : below);
  }
  std::erase_if(layer.tracks, [](const JointTrack& t) {
    return t.translation.empty() && t.rotation.empty() && t.scale.empty();
  });
  return layer;
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
  const std::optional<IkHandle> shown = document.shownHandle(handle);
  if (!shown || shown->chain.empty()) return clip;
  static constexpr const char* kPoleChannels[] = {"pole.x", "pole.y", "pole.z"};
  // Where the rig solved it (a grounded foot on the ground): a keyed target is placed, so
  // grounding no longer moves it.
  const std::optional<Vec3> target = shownTargetModel(document, handle);
  // A pole is keyed once it is a control (posed, or animated by curves); one only carried by
  // a joint follows the animation, which a key would stop (a keyed pole turns the bend plane).
  const auto posed = document.handlePoses().find(handle);
  const bool keyPole = shown->pole.space != IkPole::Space::None &&
                       ((posed != document.handlePoses().end() && posed->second.polePosition) ||
                        clip.curves.contains(handleCurveName(shown->name, "pole.x")) ||
                        shown->pole.space == IkPole::Space::Model);
  const auto weightCurve = clip.curves.find(handleCurveName(shown->name, "weight"));
  const double weight = weightCurve == clip.curves.end() || weightCurve->second.empty()
                            ? shown->weight
                            : std::clamp(weightCurve->second.evaluate(document.time()), 0.0, 1.0);
  for (int axis = 0; axis < 3; ++axis) {
    keyHandleChannel(clip, handleCurveName(shown->name, kTargetChannels[axis]), time, (*target)[axis]);
    if (keyPole)
      keyHandleChannel(clip, handleCurveName(shown->name, kPoleChannels[axis]), time, shown->pole.position[axis]);
  }
  keyHandleChannel(clip, handleCurveName(shown->name, "weight"), time, weight);
  if (shown->rollRad != 0.0f || clip.curves.contains(handleCurveName(shown->name, "roll")))
    keyHandleChannel(clip, handleCurveName(shown->name, "roll"), time, shown->rollRad);
  if (shown->orientation == OrientationMode::Target) {
    // In the hemisphere of the curves it is keyed into, so they do not pass through zero.
    const Quat q = alignHemisphere(shown->orientationModel.normalized(), curvesOrientation(clip, shown->name, time));
    const float wxyz[] = {q.w(), q.x(), q.y(), q.z()};
    for (int c = 0; c < 4; ++c) keyHandleChannel(clip, handleCurveName(shown->name, kOrientationChannels[c]), time, wxyz[c]);
  }
  return clip;
}

KeyPoseCommand::KeyPoseCommand(Document* document, Scope scope, QUndoCommand* parent)
    : KeyPoseCommand(document, scope, document->selectedHandle(), parent) {}

KeyPoseCommand::KeyPoseCommand(Document* document, int handle, QUndoCommand* parent)
    : KeyPoseCommand(document, Scope::Changed, handle, parent) {}

KeyPoseCommand::KeyPoseCommand(Document* document, Scope scope, int handle, QUndoCommand* parent)
    : QUndoCommand(scope == Scope::AllControls ? QCoreApplication::translate("KeyPoseCommand", "Key All Controls")
                                               : QCoreApplication::translate("KeyPoseCommand", "Key Pose"),
                   parent),
      mDocument(document),
      mClipIndex(document->currentClipIndex()) {
  const std::set<int> handles = handlesToKey(*document, scope, handle);
  const std::vector<int> joints = jointsToKey(*document, scope, handles);
  if (!document->currentClip() || (joints.empty() && handles.empty())) {
    setObsolete(true);
    return;
  }
  const int layer = document->activeLayer();
  if (const AnimLayer* active = document->activeLayerOfClip()) {
    // On the active layer: keys that turn the stack below it into the pose shown.
    if (active->locked) {
      setObsolete(true);
      return;
    }
    mClip = *document->currentClip();
    const Pose below = document->poseBelowLayer(layer);
    AnimLayer& edited = mClip.layers[static_cast<std::size_t>(layer)];
    edited = keyedLayer(std::move(edited), document->time(), joints, document->localPose(), below);
  } else {
    mClip = keyedClip(*document->currentClip(), document->time(), joints, document->localPose(),
                      document->scene().skeleton.restPose());
  }
  // The handles keyed here that follow the clip start their curves from where the rig puts them.
  mClip = followCurvesSeeded(*document, std::move(mClip), handles);
  for (int keyed : handles) mClip = keyedHandleClip(*document, std::move(mClip), document->time(), keyed);
}

bool KeyPoseCommand::canKeyPose(const Document& document) {
  const AnimLayer* layer = document.activeLayerOfClip();
  return document.currentClip() && !(layer && layer->locked) &&
         (!document.selectedJoints().empty() || !document.poseOverrides().empty() || !document.handlePoses().empty() ||
          document.activeHandle(document.selectedHandle()) || !jointsMovedByRig(document).empty());
}

bool KeyPoseCommand::canKeyAll(const Document& document) {
  return document.currentClip() && document.scene().skeleton.jointCount() > 0;
}

void KeyPoseCommand::redo() { swapState(); }
void KeyPoseCommand::undo() { swapState(); }

void KeyPoseCommand::swapState() {
  if (isObsolete()) return;
  // Clip first, then overrides and handle poses: with the keyed clip in place, dropping
  // them leaves the pose as it was (and on undo, they come back over the old clip).
  mClip = mDocument->replaceClip({}, mClipIndex, std::move(mClip));
  mOverrides = mDocument->setPoseOverrides({}, std::move(mOverrides));
  mHandlePoses = mDocument->setHandlePoses({}, std::move(mHandlePoses));
}

}  // namespace articula::ui
