#include "ui/document/document.h"

#include <QFileInfo>
#include <QUndoStack>

#include <algorithm>
#include <cmath>

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

void Document::replaceScene(Scene scene, const QString& filePath, const QString& displayName) {
  mScene = std::move(scene);
  mFilePath = filePath;
  mDisplayName = displayName;
  mClipIndex = mScene.clips.empty() ? -1 : 0;
  // The sampler points into mScene.clips, which was just replaced.
  mSampler.reset(currentClip());
  mTime = currentClip() ? currentClip()->startTime : 0.0;
  mSelectedJoints.clear();
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
  evaluatePose();
  emitChanged(ChangeEvent::Type::CurrentClipChanged);
}

void Document::setTime(double seconds) {
  const Clip* clip = currentClip();
  if (!clip || !std::isfinite(seconds)) return;
  seconds = std::clamp(seconds, clip->startTime, std::max(clip->startTime, clip->endTime));
  if (seconds == mTime) return;
  mTime = seconds;
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

void Document::evaluatePose() {
  const Skeleton& skeleton = mScene.skeleton;
  const auto rest = skeleton.restPose();
  mLocalPose.assign(rest.begin(), rest.end());
  if (currentClip()) mSampler.sample(mTime, mLocalPose);
  mModelPose.resize(mLocalPose.size());
  LocalToModelJob job;
  job.skeleton = &skeleton;
  job.local = mLocalPose;
  job.model = mModelPose;
  if (!job.run()) std::fill(mModelPose.begin(), mModelPose.end(), Affine::Identity());
}

void Document::emitChanged(ChangeEvent::Type type) { emit changed(ChangeEvent{type}); }

}  // namespace articula::ui
