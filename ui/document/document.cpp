#include "ui/document/document.h"

#include <QFileInfo>
#include <QUndoStack>

#include <algorithm>
#include <cmath>
#include <iterator>
#include <utility>

#include "core/skeleton/local_to_model.h"

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
  mPoseOverrides.clear();
  mPosedHandles.clear();
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
  mTime = currentClip()->startTime;
  mPoseOverrides.clear();
  mPosedHandles.clear();
  evaluatePose();
  emitChanged(ChangeEvent::Type::CurrentClipChanged);
}

void Document::setTime(double seconds) {
  const Clip* clip = currentClip();
  if (!clip || !std::isfinite(seconds)) return;
  seconds = std::clamp(seconds, clip->startTime, std::max(clip->startTime, clip->endTime));
  if (seconds == mTime) return;
  mTime = seconds;
  mPoseOverrides.clear();
  mPosedHandles.clear();
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
  if (!mRig->solve(mLocalPose, mTime, clipForSolve())) return;
  const auto solvedModel = mRig->modelMatrices();
  std::copy_n(solvedModel.begin(), std::min(solvedModel.size(), mModelPose.size()), mModelPose.begin());
  mRigSolved = true;
}

const Clip* Document::clipForSolve() {
  const Clip* clip = currentClip();
  const RigDefinition* rig = activeRig();
  if (!clip || !rig || mPosedHandles.empty()) return clip;
  // The rig reads only the clip's named curves; a posed handle's curves (all but `enabled`,
  // which a drag does not set) are left out so its own values show.
  mSolveCurves.curves = clip->curves;
  for (int handle : mPosedHandles) {
    const std::string& name = rig->handles[static_cast<std::size_t>(handle)].name;
    const std::string prefix = handleCurveName(name, "");
    const std::string enabled = handleCurveName(name, "enabled");
    std::erase_if(mSolveCurves.curves,
                  [&](const auto& entry) { return entry.first.starts_with(prefix) && entry.first != enabled; });
  }
  return &mSolveCurves;
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
  // The character stands in world space as it is in model space, on the grid's plane.
  Result<Ground> ground = Ground::plane(Vec3::Zero(), Vec3::UnitY());
  if (ground) mRig->setGround(std::move(ground).value());
}

RigSet Document::setRigSet(DocumentEditKey, RigSet rigs) {
  std::swap(rigs, mRigSet);
  // Handle indices may name other handles now.
  mPosedHandles.clear();
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
  IkHandle& stored = definition->handles[static_cast<std::size_t>(handle)];
  // A drag changes only where the target or the pole is: the bound rig takes that without
  // rebinding, so a live drag allocates nothing per mouse move.
  IkHandle movedOnly = stored;
  movedOnly.targetModel = value.targetModel;
  movedOnly.targetSource = value.targetSource;
  movedOnly.pole.position = value.pole.position;
  const bool moveOnly = mRig && movedOnly == value && value.targetSource == TargetSource::Handle;
  IkHandle previous = std::exchange(stored, std::move(value));
  if (moveOnly) {
    mRig->setTarget(handle, stored.targetModel);
    mRig->setPolePosition(handle, stored.pole.position);
  } else {
    bindRig();
  }
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

std::set<int> Document::setPosedHandles(DocumentEditKey, std::set<int> handles) {
  std::erase_if(handles, [this](int handle) { return !activeHandle(handle); });
  if (handles == mPosedHandles) return handles;
  std::vector<int> changed;
  std::set_symmetric_difference(handles.begin(), handles.end(), mPosedHandles.begin(), mPosedHandles.end(),
                                std::back_inserter(changed));
  std::swap(handles, mPosedHandles);
  evaluatePose();
  // A handle edit, not a pose edit: a target drag that poses its handle on the first mouse
  // move goes on (the viewport ends a handle drag on any other change).
  emitChanged(ChangeEvent::Type::HandleEdited, -1, -1, changed.size() == 1 ? changed.front() : -1);
  return handles;
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

Clip Document::replaceClip(DocumentEditKey, int clipIndex, Clip clip) {
  if (clipIndex < 0 || clipIndex >= static_cast<int>(mScene.clips.size())) return clip;
  std::swap(clip, mScene.clips[static_cast<std::size_t>(clipIndex)]);
  if (clipIndex == mClipIndex) {
    // The sampler's cursors index the old keys.
    mSampler.reset(currentClip());
    mTime = std::clamp(mTime, currentClip()->startTime, std::max(currentClip()->startTime, currentClip()->endTime));
    evaluatePose();
  }
  emitChanged(ChangeEvent::Type::ClipEdited, -1, clipIndex);
  return clip;
}

Clip Document::swapClipPart(DocumentEditKey, int clipIndex, Clip part) {
  if (clipIndex < 0 || clipIndex >= static_cast<int>(mScene.clips.size())) return part;
  Clip& clip = mScene.clips[static_cast<std::size_t>(clipIndex)];
  for (JointTrack& track : part.tracks) {
    const auto found = std::find_if(clip.tracks.begin(), clip.tracks.end(),
                                    [&track](const JointTrack& t) { return t.joint == track.joint; });
    if (found != clip.tracks.end()) std::swap(track, *found);
  }
  for (auto& [name, curve] : part.curves) {
    if (const auto found = clip.curves.find(name); found != clip.curves.end()) std::swap(curve, found->second);
  }
  std::swap(part.startTime, clip.startTime);
  std::swap(part.endTime, clip.endTime);
  if (clipIndex == mClipIndex) {
    mSampler.reset(currentClip());
    mTime = std::clamp(mTime, clip.startTime, std::max(clip.startTime, clip.endTime));
    evaluatePose();
  }
  emitChanged(ChangeEvent::Type::ClipEdited, -1, clipIndex);
  return part;
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
  mTime = currentClip() ? currentClip()->startTime : 0.0;
  mPoseOverrides.clear();
  mPosedHandles.clear();
  evaluatePose();
  emitChanged(ChangeEvent::Type::CurrentClipChanged);
  return clips;
}

void Document::emitChanged(ChangeEvent::Type type, int joint, int clip, int handle) {
  emit changed(ChangeEvent{type, joint, clip, handle});
}

}  // namespace articula::ui
