#pragma once
#include <QObject>
#include <QTimer>

#include <functional>

namespace articula::ui {

class Document;
struct ChangeEvent;

// Plays the document's current clip in real time.
//
// A QTimer ticks at the clip's frame rate, but the frame shown is derived from the real
// time elapsed since playback (re)started, not from the number of ticks: a late or
// dropped tick skips frames instead of slowing the animation down. The time set on the
// document is always a whole frame of the clip.
//
// The clock is injectable (nanoseconds from any fixed origin) so tests drive playback
// deterministically: replace the clock, call advance(), check the frame.
class PlaybackController : public QObject {
  Q_OBJECT

 public:
  using Clock = std::function<qint64()>;

  explicit PlaybackController(Document* document, QObject* parent = nullptr);

  void setClock(Clock clock);
  bool isPlaying() const { return mPlaying; }
  bool isLooping() const { return mLooping; }
  // Interval of the tick timer in milliseconds (one frame of the current clip).
  int tickInterval() const { return mTimer.interval(); }

 public slots:
  void play();
  void pause();
  void setPlaying(bool playing);
  void togglePlaying() { setPlaying(!mPlaying); }
  void setLooping(bool looping);
  // One tick: moves the document to the frame the elapsed real time has reached. Called
  // by the timer; public so tests can tick by hand.
  void advance();

 signals:
  void playingChanged(bool playing);
  void loopingChanged(bool looping);

 private:
  void documentChanged(const ChangeEvent& event);
  void restartFromCurrentFrame();

  Document* const mDocument;
  Clock mClock;
  QTimer mTimer;
  bool mPlaying = false;
  bool mLooping = true;
  // Playback position is anchorFrame + (clock - anchorClock) * frameRate.
  qint64 mAnchorClockNs = 0;
  int mAnchorFrame = 0;
  // True while advance() moves the document, to tell our own time steps from a scrub.
  bool mStepping = false;
};

}  // namespace articula::ui
