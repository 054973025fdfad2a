#include "ui/timeline/playback_controller.h"

#include <QElapsedTimer>

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
    // Pressing play on the last frame of a non-looping clip starts it over.
    if (!mLooping && mDocument->currentFrame() >= mDocument->frameCount() - 1) mDocument->setFrame(0);
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
  const qint64 frameCount = mDocument->frameCount();
  qint64 frame = mAnchorFrame + elapsedFrames;
  bool reachedEnd = false;
  if (mLooping) {
    frame %= frameCount;
  } else if (frame >= frameCount - 1) {
    frame = frameCount - 1;
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
      break;
    case ChangeEvent::Type::CurrentClipChanged:
      if (mPlaying) {
        restartFromCurrentFrame();
        mTimer.setInterval(std::max(1, static_cast<int>(std::lround(1000.0 / mDocument->currentClip()->frameRate))));
      }
      break;
    case ChangeEvent::Type::TimeChanged:
      // Someone scrubbed while playing: continue from where they left the playhead.
      if (mPlaying && !mStepping) restartFromCurrentFrame();
      break;
    case ChangeEvent::Type::SelectionChanged:
    case ChangeEvent::Type::PoseEdited:
    case ChangeEvent::Type::JointRenamed:
    case ChangeEvent::Type::ClipEdited:
    case ChangeEvent::Type::RigChanged:
    case ChangeEvent::Type::HandleEdited:
    case ChangeEvent::Type::RigEnabledChanged:
      break;
  }
}

}  // namespace articula::ui
