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
// A playback range (in and out frames inside the clip) limits what plays: playback starts at
// its in frame when the playhead is outside it, loops within it, or stops at its out frame.
// It is cleared when another clip or scene is shown.
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
  // The frames that play: the range when one is set, else the whole clip.
  int firstPlayedFrame() const;
  int lastPlayedFrame() const;
  bool hasRange() const { return mRangeFirst >= 0; }

 public slots:
  void play();
  void pause();
  void setPlaying(bool playing);
  void togglePlaying() { setPlaying(!mPlaying); }
  void setLooping(bool looping);
  // In or out at the current frame; the other end stays (or is the clip's end) and the two
  // are swapped when they cross.
  void setRangeInAtCurrentFrame();
  void setRangeOutAtCurrentFrame();
  void setRange(int firstFrame, int lastFrame);
  void clearRange();
  // One tick: moves the document to the frame the elapsed real time has reached. Called
  // by the timer; public so tests can tick by hand.
  void advance();

 signals:
  void playingChanged(bool playing);
  void loopingChanged(bool looping);
  void rangeChanged();

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
  // Playback range, inclusive; -1 when the whole clip plays.
  int mRangeFirst = -1;
  int mRangeLast = -1;
};

}  // namespace articula::ui
