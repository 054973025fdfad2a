#include "ui/document/document.h"

#include <QFileInfo>
#include <QUndoStack>

#include <algorithm>
#include <cmath>
#include <iterator>
#include <set>
#include <utility>

#include "core/skeleton/local_to_model.h"
#include "ui/document/clip_grounding.h"
#include "ui/document/layer_keys.h"

namespace articula::ui {

Document::Document(QObject* parent) : QObject(parent), mUndoStack(new QUndoStack(this)) {
  qRegisterMetaType<ChangeEvent>();
}

Document::~Document() = default;

QString Document::displayName() const {
  if (!mFilePath.isEmpty()) return QFileInfo(mFilePath).fileName();
  return mDisplayName.isEmpty() ? tr("Untitled") : mDisplayName;
}

void Document::replaceScene(Scene scene, const QString& filePath, const QString& displayName, RigSet rigs,
                            bool rigEnabled) {
  mScene = std::move(scene);
  mFilePath = filePath;
  mDisplayName = displayName;
  mClipIndex = mScene.clips.empty() ? -1 : 0;
  // The sampler points into mScene.clips, which was just replaced.
  mSampler.reset(currentClip());
  mTime = currentClip() ? currentClip()->startTime : 0.0;
  mSelectedJoints.clear();
  mSelectedHandle = -1;
  mActiveLayer = -1;
  mPoseOverrides.clear();
  mHandlePoses.clear();
  mRigSet = std::move(rigs);
  mRigEnabled = rigEnabled;
  bindRig();
  mUndoStack->clear();
  evaluatePose();
  emitChanged(ChangeEvent::Type::SceneReplaced);
}

const Clip* Document::currentClip() const {
  if (mClipIndex < 0) return nullptr;
  return &mScene.clips[static_cast<std::size_t>(mClipIndex)];
}

void Document::setCurrentClip(int index) {
  if (index < 0 || index >= static_cast<int>(mScene.clips.size()) || index == mClipIndex) return;
  mClipIndex = index;
  mSampler.reset(currentClip());
  mActiveLayer = -1;
  mTime = currentClip()->startTime;
  mPoseOverrides.clear();
  dropHandlePoses();
  evaluatePose();
  emitChanged(ChangeEvent::Type::CurrentClipChanged);
}

const AnimLayer* Document::activeLayerOfClip() const {
  const Clip* clip = currentClip();
  if (!clip || mActiveLayer < 0 || mActiveLayer >= static_cast<int>(clip->layers.size())) return nullptr;
  return &clip->layers[static_cast<std::size_t>(mActiveLayer)];
}

const Clip* Document::editedKeys() const { return activeLayerOfClip() ? &mActiveLayerKeys : currentClip(); }

void Document::setActiveLayer(int layer) {
  const int count = currentClip() ? static_cast<int>(currentClip()->layers.size()) : 0;
  layer = std::clamp(layer, -1, count - 1);
  if (layer == mActiveLayer) return;
  mActiveLayer = layer;
  emitChanged(ChangeEvent::Type::ActiveLayerChanged);
}

void Document::clampActiveLayer() {
  const int count = currentClip() ? static_cast<int>(currentClip()->layers.size()) : 0;
  mActiveLayer = std::min(mActiveLayer, count - 1);
}

Pose Document::poseBelowLayer(int layer) const {
  Pose pose(mScene.skeleton.restPose().begin(), mScene.skeleton.restPose().end());
  if (const Clip* clip = currentClip()) {
    LayeredClipSampler(clip).sampleBelow(mTime, static_cast<std::size_t>(std::max(layer, 0)), pose);
  }
  return pose;
}

void Document::setTime(double seconds) {
  const Clip* clip = currentClip();
  if (!clip || !std::isfinite(seconds)) return;
  seconds = std::clamp(seconds, clip->startTime, std::max(clip->startTime, clip->endTime));
  if (seconds == mTime) return;
  mTime = seconds;
  mPoseOverrides.clear();
  dropHandlePoses();
  evaluatePose();
  emitChanged(ChangeEvent::Type::TimeChanged);
}

int Document::currentFrame() const {
  const Clip* clip = currentClip();
  if (!clip) return 0;
  return static_cast<int>(std::lround((mTime - clip->startTime) * clip->frameRate));
}

int Document::frameCount() const {
  const Clip* clip = currentClip();
  return clip ? std::max(1, clip->frameCount()) : 1;
}

double Document::timeOfFrame(int frame) const {
  const Clip* clip = currentClip();
  if (!clip) return 0.0;
  return clip->startTime + frame / clip->frameRate;
}

void Document::setFrame(int frame) {
  // The last frame may lie past endTime when the duration is not a whole number of frames;
  // setTime clamps it onto endTime so the clip's last key is always reachable.
  setTime(timeOfFrame(std::clamp(frame, 0, frameCount() - 1)));
}

bool Document::isSelected(int joint) const {
  return std::binary_search(mSelectedJoints.begin(), mSelectedJoints.end(), joint);
}

void Document::setSelectedJoints(std::vector<int> joints) {
  const int count = mScene.skeleton.jointCount();
  std::erase_if(joints, [count](int j) { return j < 0 || j >= count; });
  std::sort(joints.begin(), joints.end());
  joints.erase(std::unique(joints.begin(), joints.end()), joints.end());
  if (joints == mSelectedJoints) return;
  mSelectedJoints = std::move(joints);
  emitChanged(ChangeEvent::Type::SelectionChanged);
}

const IkHandle* Document::activeHandle(int handle) const {
  const RigDefinition* rig = activeRig();
  if (!rig || handle < 0 || handle >= static_cast<int>(rig->handles.size())) return nullptr;
  return &rig->handles[static_cast<std::size_t>(handle)];
}

void Document::setSelectedHandle(int handle) {
  if (!activeHandle(handle)) handle = -1;
  if (handle == mSelectedHandle) return;
  mSelectedHandle = handle;
  emitChanged(ChangeEvent::Type::SelectionChanged);
}

void Document::evaluatePose() {
  const Skeleton& skeleton = mScene.skeleton;
  const auto rest = skeleton.restPose();
  mLocalPose.assign(rest.begin(), rest.end());
  if (currentClip()) mSampler.sample(mTime, mLocalPose);
  for (const auto& [joint, local] : mPoseOverrides) mLocalPose[static_cast<std::size_t>(joint)] = local;
  mModelPose.resize(mLocalPose.size());
  LocalToModelJob job;
  job.skeleton = &skeleton;
  job.local = mLocalPose;
  job.model = mModelPose;
  if (!job.run()) std::fill(mModelPose.begin(), mModelPose.end(), Affine::Identity());
  mRigSolved = false;
  if (!mRigEnabled || !mRig) return;
  mInputModelPose.assign(mModelPose.begin(), mModelPose.end());
  mInputLocalPose.assign(mLocalPose.begin(), mLocalPose.end());
  // The character stands in world space as it is in model space, on the grid's plane, in a
  // clip with stride curves (groundsFeet).
  if (const bool grounds = groundsFeet(*activeRig(), currentClip()); grounds != mRig->ground().has_value()) {
    Result<Ground> ground = Ground::plane(Vec3::Zero(), Vec3::UnitY());
    mRig->setGround(grounds && ground ? std::optional<Ground>(std::move(ground).value()) : std::nullopt);
  }
  if (!mRig->solve(mLocalPose, mTime, clipForSolve())) return;
  const auto solvedModel = mRig->modelMatrices();
  std::copy_n(solvedModel.begin(), std::min(solvedModel.size(), mModelPose.size()), mModelPose.begin());
  mRigSolved = true;
}

const Clip* Document::clipForSolve() {
  const Clip* clip = currentClip();
  const RigDefinition* rig = activeRig();
  if (!clip || !rig || mHandlePoses.empty()) return clip;
  // The rig reads only the clip's named curves; a posed part's curves are left out so the
  // pose (on the bound rig, applyHandlePoses) shows.
  mSolveCurves.curves = clip->curves;
  for (const auto& [handle, pose] : mHandlePoses) {
    const std::string& name = rig->handles[static_cast<std::size_t>(handle)].name;
    for (const char* axis : {"x", "y", "z"}) {
      if (pose.targetModel) mSolveCurves.curves.erase(handleCurveName(name, std::string("target.") + axis));
      if (pose.polePosition) mSolveCurves.curves.erase(handleCurveName(name, std::string("pole.") + axis));
    }
    if (pose.rollRad) mSolveCurves.curves.erase(handleCurveName(name, "roll"));
    for (const char* component : {"w", "x", "y", "z"}) {
      if (pose.orientationModel)
        mSolveCurves.curves.erase(handleCurveName(name, std::string("orientation.") + component));
    }
  }
  return &mSolveCurves;
}

std::optional<IkHandle> Document::animatedHandle(int handle) const {
  const IkHandle* definition = activeHandle(handle);
  if (!definition) return std::nullopt;
  IkHandle shown = *definition;
  const Clip* clip = currentClip();
  bool targetCurves = false;
  auto curveOver = [&](const std::string& channel, float own, bool& found) {
    if (!clip) return own;
    const auto curve = clip->curves.find(handleCurveName(shown.name, channel));
    if (curve == clip->curves.end() || curve->second.empty()) return own;
    found = true;
    return static_cast<float>(curve->second.evaluate(mTime));
  };
  const auto tip = shown.chain.empty() ? std::size_t{0} : static_cast<std::size_t>(shown.chain.back());
  const auto inputModel = inputModelPose();
  const Vec3 ownTarget = shown.targetSource == TargetSource::InputPose && tip < inputModel.size()
                             ? Vec3(inputModel[tip].translation())
                             : shown.targetModel;
  static constexpr const char* kAxes[] = {"x", "y", "z"};
  Vec3 target, pole;
  bool poleCurves = false;
  for (int axis = 0; axis < 3; ++axis) {
    target[axis] = curveOver(std::string("target.") + kAxes[axis], ownTarget[axis], targetCurves);
    pole[axis] = curveOver(std::string("pole.") + kAxes[axis], shown.pole.position[axis], poleCurves);
  }
  if (targetCurves) shown.targetSource = TargetSource::Handle;
  shown.targetModel = target;
  shown.pole.position = pole;
  // Orientation curves switch the handle to an orientation target (ik_handle.h).
  Vec4 wxyz(shown.orientationModel.w(), shown.orientationModel.x(), shown.orientationModel.y(),
            shown.orientationModel.z());
  bool orientationCurves = false;
  static constexpr const char* kComponents[] = {"w", "x", "y", "z"};
  for (int c = 0; c < 4; ++c)
    wxyz[c] = curveOver(std::string("orientation.") + kComponents[c], wxyz[c], orientationCurves);
  bool rollCurve = false;
  shown.rollRad = curveOver("roll", shown.rollRad, rollCurve);
  if (orientationCurves && wxyz.allFinite() && wxyz.squaredNorm() > 1e-12f) {
    shown.orientation = OrientationMode::Target;
    shown.orientationModel = Quat(wxyz[0], wxyz[1], wxyz[2], wxyz[3]).normalized();
  }
  return shown;
}

std::optional<IkHandle> Document::shownHandle(int handle) const {
  std::optional<IkHandle> shown = animatedHandle(handle);
  if (!shown) return shown;
  if (const auto posed = mHandlePoses.find(handle); posed != mHandlePoses.end()) {
    if (posed->second.targetModel) {
      shown->targetSource = TargetSource::Handle;
      shown->targetModel = *posed->second.targetModel;
    }
    if (posed->second.polePosition) shown->pole.position = *posed->second.polePosition;
    if (posed->second.rollRad) shown->rollRad = *posed->second.rollRad;
    if (posed->second.orientationModel) {
      shown->orientation = OrientationMode::Target;
      shown->orientationModel = *posed->second.orientationModel;
    }
  }
  return shown;
}

void Document::bindRig() {
  mRig.reset();
  mRigError.clear();
  const RigDefinition* definition = mRigSet.activeRig();
  if (!definition) return;
  Result<Rig> bound = Rig::bind(mScene.skeleton, *definition);
  if (!bound) {
    mRigError = QString::fromStdString(bound.error());
    return;
  }
  mRig = std::move(bound).value();
  applyHandlePoses();
}

void Document::dropHandlePoses() {
  if (mHandlePoses.empty()) return;
  mHandlePoses.clear();
  bindRig();  // the bound rig held the posed parts
}

void Document::applyHandlePoses() {
  if (!mRig) return;
  for (const auto& [handle, pose] : mHandlePoses) {
    if (pose.targetModel) mRig->setTarget(handle, *pose.targetModel);
    if (pose.polePosition) mRig->setPolePosition(handle, *pose.polePosition);
    if (pose.orientationModel) mRig->setOrientationTarget(handle, *pose.orientationModel);
    if (pose.rollRad) mRig->setRoll(handle, *pose.rollRad);
  }
}

RigSet Document::setRigSet(DocumentEditKey, RigSet rigs) {
  std::swap(rigs, mRigSet);
  // Handle indices may name other handles now.
  mHandlePoses.clear();
  bindRig();
  evaluatePose();
  const RigDefinition* rig = activeRig();
  const bool handleGone = !rig || mSelectedHandle >= static_cast<int>(rig->handles.size());
  if (handleGone) mSelectedHandle = -1;
  emitChanged(ChangeEvent::Type::RigChanged);
  return rigs;
}

std::optional<IkHandle> Document::setHandle(DocumentEditKey, int handle, IkHandle value) {
  RigDefinition* definition = mRigSet.active >= 0 && mRigSet.active < static_cast<int>(mRigSet.rigs.size())
                                  ? &mRigSet.rigs[static_cast<std::size_t>(mRigSet.active)]
                                  : nullptr;
  if (!definition || handle < 0 || handle >= static_cast<int>(definition->handles.size())) return std::nullopt;
  IkHandle previous = std::exchange(definition->handles[static_cast<std::size_t>(handle)], std::move(value));
  bindRig();
  evaluatePose();
  emitChanged(ChangeEvent::Type::HandleEdited, -1, -1, handle);
  return previous;
}

bool Document::setRigEnabled(DocumentEditKey, bool enabled) {
  const bool previous = std::exchange(mRigEnabled, enabled);
  evaluatePose();
  emitChanged(ChangeEvent::Type::RigEnabledChanged);
  return previous;
}

std::map<int, HandlePose> Document::setHandlePoses(DocumentEditKey, std::map<int, HandlePose> poses) {
  std::erase_if(poses, [this](const auto& entry) { return !activeHandle(entry.first); });
  if (poses == mHandlePoses) return poses;
  std::set<int> changed;
  // A part no longer posed needs the rig's own value back: rebinding restores it. A drag
  // only moves posed parts, which the bound rig takes without allocating.
  bool partDropped = false;
  for (const auto& [handle, pose] : mHandlePoses) {
    const auto now = poses.find(handle);
    if (now == poses.end() || now->second != pose) changed.insert(handle);
    if (now == poses.end() || (pose.targetModel && !now->second.targetModel) ||
        (pose.polePosition && !now->second.polePosition) || (pose.orientationModel && !now->second.orientationModel) ||
        (pose.rollRad && !now->second.rollRad))
      partDropped = true;
  }
  for (const auto& entry : poses) {
    if (!mHandlePoses.contains(entry.first)) changed.insert(entry.first);
  }
  std::swap(poses, mHandlePoses);
  if (partDropped) {
    bindRig();
  } else {
    applyHandlePoses();
  }
  evaluatePose();
  // A handle edit, not a pose edit: the viewport's handle drag goes on through it.
  emitChanged(ChangeEvent::Type::HandleEdited, -1, -1, changed.size() == 1 ? *changed.begin() : -1);
  return poses;
}

std::map<std::string, std::optional<Curve>> Document::setClipCurves(DocumentEditKey, int clipIndex,
                                                                    std::map<std::string, std::optional<Curve>> curves,
                                                                    int handle) {
  if (clipIndex < 0 || clipIndex >= static_cast<int>(mScene.clips.size())) return curves;
  Clip& clip = mScene.clips[static_cast<std::size_t>(clipIndex)];
  for (auto& [name, curve] : curves) {
    const auto found = clip.curves.find(name);
    std::optional<Curve> previous;
    if (found != clip.curves.end()) {
      previous = std::move(found->second);
      clip.curves.erase(found);
    }
    if (curve) clip.curves.emplace(name, std::move(*curve));
    curve = std::move(previous);
  }
  if (clipIndex == mClipIndex) evaluatePose();
  emitChanged(ChangeEvent::Type::ClipEdited, -1, clipIndex, handle);
  return curves;
}

std::optional<Transform> Document::setPoseOverride(DocumentEditKey, int joint, std::optional<Transform> local) {
  if (joint < 0 || joint >= mScene.skeleton.jointCount()) return std::nullopt;
  std::optional<Transform> previous;
  if (const auto found = mPoseOverrides.find(joint); found != mPoseOverrides.end()) {
    previous = found->second;
    mPoseOverrides.erase(found);
  }
  if (local) mPoseOverrides[joint] = *local;
  evaluatePose();
  emitChanged(ChangeEvent::Type::PoseEdited, joint);
  return previous;
}

std::map<int, Transform> Document::setPoseOverrides(DocumentEditKey, std::map<int, Transform> overrides) {
  const int count = mScene.skeleton.jointCount();
  std::erase_if(overrides, [count](const auto& entry) { return entry.first < 0 || entry.first >= count; });
  std::swap(overrides, mPoseOverrides);
  evaluatePose();
  emitChanged(ChangeEvent::Type::PoseEdited);
  return overrides;
}

std::string Document::renameJoint(DocumentEditKey, int joint, std::string name) {
  if (joint < 0 || joint >= mScene.skeleton.jointCount()) return name;
  std::string previous = mScene.skeleton.name(joint);
  mScene.skeleton.setName(joint, std::move(name));
  emitChanged(ChangeEvent::Type::JointRenamed, joint);
  return previous;
}

std::vector<std::string> Document::setJointRoles(DocumentEditKey, std::vector<std::string> roles) {
  Skeleton& skeleton = mScene.skeleton;
  if (static_cast<int>(roles.size()) != skeleton.jointCount()) return roles;
  for (int joint = 0; joint < skeleton.jointCount(); ++joint) {
    std::string previous = skeleton.role(joint);
    skeleton.setRole(joint, std::move(roles[static_cast<std::size_t>(joint)]));
    roles[static_cast<std::size_t>(joint)] = std::move(previous);
  }
  emitChanged(ChangeEvent::Type::RolesChanged);
  return roles;
}

ConventionOverride Document::setConvention(DocumentEditKey, ConventionOverride convention) {
  std::swap(convention, mScene.convention);
  emitChanged(ChangeEvent::Type::RolesChanged);
  return convention;
}

Clip Document::replaceClip(DocumentEditKey, int clipIndex, Clip clip) {
  if (clipIndex < 0 || clipIndex >= static_cast<int>(mScene.clips.size())) return clip;
  std::swap(clip, mScene.clips[static_cast<std::size_t>(clipIndex)]);
  if (clipIndex == mClipIndex) {
    // The sampler's cursors index the old keys.
    mSampler.reset(currentClip());
    clampActiveLayer();
    mTime = std::clamp(mTime, currentClip()->startTime, std::max(currentClip()->startTime, currentClip()->endTime));
    evaluatePose();
  }
  emitChanged(ChangeEvent::Type::ClipEdited, -1, clipIndex);
  return clip;
}

Clip Document::swapClipPart(DocumentEditKey, int clipIndex, Clip part) {
  if (clipIndex < 0 || clipIndex >= static_cast<int>(mScene.clips.size())) return part;
  Clip& clip = mScene.clips[static_cast<std::size_t>(clipIndex)];
  swapTracksByJoint(clip.tracks, part.tracks);
  for (auto& [name, curve] : part.curves) {
    if (const auto found = clip.curves.find(name); found != clip.curves.end()) std::swap(curve, found->second);
  }
  std::swap(part.startTime, clip.startTime);
  std::swap(part.endTime, clip.endTime);
  clipKeysSwapped(clipIndex);
  return part;
}

Clip Document::swapLayerKeys(DocumentEditKey, int clipIndex, int layer, bool part, Clip keys) {
  if (clipIndex < 0 || clipIndex >= static_cast<int>(mScene.clips.size())) return keys;
  ::articula::ui::swapLayerKeys(mScene.clips[static_cast<std::size_t>(clipIndex)], layer, part, keys);
  clipKeysSwapped(clipIndex);
  return keys;
}

void Document::clipKeysSwapped(int clipIndex) {
  if (clipIndex == mClipIndex) {
    const Clip& clip = *currentClip();
    mSampler.reset(&clip);
    mTime = std::clamp(mTime, clip.startTime, std::max(clip.startTime, clip.endTime));
    evaluatePose();
  }
  emitChanged(ChangeEvent::Type::ClipEdited, -1, clipIndex);
}

RestAndClips Document::setRestAndClips(DocumentEditKey, RestAndClips edit) {
  Skeleton& skeleton = mScene.skeleton;
  if (static_cast<int>(edit.restLocal.size()) != skeleton.jointCount() || edit.clips.size() != mScene.clips.size())
    return edit;
  for (int joint = 0; joint < skeleton.jointCount(); ++joint) {
    Transform& slot = edit.restLocal[static_cast<std::size_t>(joint)];
    const Transform previous = skeleton.restLocal(joint);
    skeleton.setRestLocal(joint, slot);
    slot = previous;
  }
  std::swap(edit.clips, mScene.clips);
  // The sampler points into the list that was just replaced; the rig was bound to the old rest.
  mSampler.reset(currentClip());
  clampActiveLayer();
  bindRig();
  evaluatePose();
  emitChanged(ChangeEvent::Type::CurrentClipChanged);
  return edit;
}

std::vector<Clip> Document::replaceClips(DocumentEditKey, std::vector<Clip> clips, int currentIndex) {
  std::swap(clips, mScene.clips);
  mClipIndex = mScene.clips.empty() ? -1 : std::clamp(currentIndex, 0, static_cast<int>(mScene.clips.size()) - 1);
  // The sampler points into the list that was just replaced.
  mSampler.reset(currentClip());
  mActiveLayer = -1;
  mTime = currentClip() ? currentClip()->startTime : 0.0;
  mPoseOverrides.clear();
  dropHandlePoses();
  evaluatePose();
  emitChanged(ChangeEvent::Type::CurrentClipChanged);
  return clips;
}

void Document::emitChanged(ChangeEvent::Type type, int joint, int clip, int handle) {
  // The active layer's keys as the key views read them, copied once per change of keys (a
  // layer holds the few keys an animator set, not a capture's dense ones).
  using Type = ChangeEvent::Type;
  if (type == Type::SceneReplaced || type == Type::CurrentClipChanged || type == Type::ClipEdited ||
      type == Type::ActiveLayerChanged) {
    mActiveLayerKeys = activeLayerOfClip() ? layerKeysOf(*currentClip(), mActiveLayer) : Clip{};
  }
  emit changed(ChangeEvent{type, joint, clip, handle});
}

}  // namespace articula::ui
