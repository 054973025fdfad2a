#include "ui/timeline/playback_controller.h"

#include <QElapsedTimer>

#include <algorithm>
#include <cmath>
#include <memory>

#include "ui/document/document.h"

namespace articula::ui {

PlaybackController::PlaybackController(Document* document, QObject* parent) : QObject(parent), mDocument(document) {
  auto elapsed = std::make_shared<QElapsedTimer>();
  elapsed->start();
  mClock = [elapsed] { return elapsed->nsecsElapsed(); };
  mTimer.setTimerType(Qt::PreciseTimer);
  connect(&mTimer, &QTimer::timeout, this, &PlaybackController::advance);
  connect(mDocument, &Document::changed, this, &PlaybackController::documentChanged);
}

void PlaybackController::setClock(Clock clock) {
  mClock = std::move(clock);
  restartFromCurrentFrame();
}

void PlaybackController::play() { setPlaying(true); }
void PlaybackController::pause() { setPlaying(false); }

void PlaybackController::setPlaying(bool playing) {
  const Clip* clip = mDocument->currentClip();
  if (playing && (!clip || mDocument->frameCount() < 2)) playing = false;
  if (playing == mPlaying) return;
  mPlaying = playing;
  if (mPlaying) {
    // Pressing play outside the range, or on its end without looping, starts it over.
    const int frame = mDocument->currentFrame();
    if (frame < firstPlayedFrame() || frame > lastPlayedFrame() || (!mLooping && frame >= lastPlayedFrame()))
      mDocument->setFrame(firstPlayedFrame());
    restartFromCurrentFrame();
    mTimer.start(std::max(1, static_cast<int>(std::lround(1000.0 / clip->frameRate))));
  } else {
    mTimer.stop();
  }
  emit playingChanged(mPlaying);
}

void PlaybackController::setLooping(bool looping) {
  if (looping == mLooping) return;
  mLooping = looping;
  emit loopingChanged(mLooping);
}

int PlaybackController::firstPlayedFrame() const { return hasRange() ? mRangeFirst : 0; }

int PlaybackController::lastPlayedFrame() const {
  return hasRange() ? mRangeLast : std::max(0, mDocument->frameCount() - 1);
}

void PlaybackController::setRange(int firstFrame, int lastFrame) {
  const int last = mDocument->frameCount() - 1;
  if (last < 1) return;
  firstFrame = std::clamp(firstFrame, 0, last);
  lastFrame = std::clamp(lastFrame, 0, last);
  if (firstFrame > lastFrame) std::swap(firstFrame, lastFrame);
  // A range of the whole clip is no range.
  if (firstFrame == 0 && lastFrame == last) return clearRange();
  if (firstFrame == mRangeFirst && lastFrame == mRangeLast) return;
  mRangeFirst = firstFrame;
  mRangeLast = lastFrame;
  if (mPlaying) restartFromCurrentFrame();
  emit rangeChanged();
}

void PlaybackController::setRangeInAtCurrentFrame() { setRange(mDocument->currentFrame(), lastPlayedFrame()); }

void PlaybackController::setRangeOutAtCurrentFrame() { setRange(firstPlayedFrame(), mDocument->currentFrame()); }

void PlaybackController::clearRange() {
  if (!hasRange()) return;
  mRangeFirst = mRangeLast = -1;
  emit rangeChanged();
}

void PlaybackController::restartFromCurrentFrame() {
  mAnchorClockNs = mClock();
  mAnchorFrame = mDocument->currentFrame();
}

void PlaybackController::advance() {
  const Clip* clip = mDocument->currentClip();
  if (!mPlaying || !clip) return;
  const double elapsedSeconds = static_cast<double>(mClock() - mAnchorClockNs) * 1e-9;
  // The epsilon keeps a tick that lands exactly on a frame boundary from rounding down.
  const auto elapsedFrames = static_cast<qint64>(std::floor(elapsedSeconds * clip->frameRate + 1e-6));
  const qint64 first = firstPlayedFrame();
  const qint64 last = lastPlayedFrame();
  qint64 frame = mAnchorFrame + elapsedFrames;
  bool reachedEnd = false;
  if (mLooping) {
    // From the anchor (inside the range once play started) on, wrapping to the in frame.
    if (frame > last) frame = first + (frame - first) % (last - first + 1);
  } else if (frame >= last) {
    frame = last;
    reachedEnd = true;
  }
  mStepping = true;
  mDocument->setFrame(static_cast<int>(frame));
  mStepping = false;
  if (reachedEnd) pause();
}

void PlaybackController::documentChanged(const ChangeEvent& event) {
  switch (event.type) {
    case ChangeEvent::Type::SceneReplaced:
      pause();
      clearRange();
      break;
    case ChangeEvent::Type::CurrentClipChanged:
      clearRange();
      if (mPlaying) {
        restartFromCurrentFrame();
        mTimer.setInterval(std::max(1, static_cast<int>(std::lround(1000.0 / mDocument->currentClip()->frameRate))));
      }
      break;
    case ChangeEvent::Type::TimeChanged:
      // Someone scrubbed while playing: continue from where they left the playhead.
      if (mPlaying && !mStepping) restartFromCurrentFrame();
      break;
    case ChangeEvent::Type::ClipEdited:  // a shorter clip cuts the range
      if (hasRange() && mRangeLast > mDocument->frameCount() - 1) {
        const int first = mRangeFirst;
        clearRange();
        setRange(first, mDocument->frameCount() - 1);
      }
      break;
    case ChangeEvent::Type::SelectionChanged:
    case ChangeEvent::Type::PoseEdited:
    case ChangeEvent::Type::JointRenamed:
    case ChangeEvent::Type::RigChanged:
    case ChangeEvent::Type::HandleEdited:
    case ChangeEvent::Type::RigEnabledChanged:
    case ChangeEvent::Type::ActiveLayerChanged:
    case ChangeEvent::Type::RolesChanged:
      break;
  }
}

}  // namespace articula::ui
