#pragma once
#include <QWidget>

#include "ui/timeline/time_axis.h"

class QAction;
class QComboBox;
class QTreeView;
class QDoubleSpinBox;
class QLabel;
class QSpinBox;
class QToolButton;

namespace articula::ui {

class AutoKey;
class Document;
class DopeSheet;
class PlaybackController;
class TimeRuler;
struct ChangeEvent;

// Transport, time ruler and dope sheet: clip selector (new, rename, duplicate, delete), play/pause
// (Space), loop, step frame (← / →), previous/next key (, / .), auto key, the clip's frame
// rate and last frame, the current frame, then the ruler with its playhead over the dope
// sheet. Ruler and dope sheet share one TimeAxis, zoomed (wheel) and panned (middle drag)
// from either.
class TimelineWidget : public QWidget {
  Q_OBJECT

 public:
  TimelineWidget(Document* document, PlaybackController* playback, QWidget* parent = nullptr);

  // Checkable play/pause action with the Space shortcut; the main window puts it in its menu.
  QAction* playAction() const { return mPlayAction; }
  QAction* loopAction() const { return mLoopAction; }
  QAction* stepBackAction() const { return mStepBackAction; }
  QAction* stepForwardAction() const { return mStepForwardAction; }
  QAction* previousKeyAction() const { return mPreviousKeyAction; }
  QAction* nextKeyAction() const { return mNextKeyAction; }
  QAction* autoKeyAction() const { return mAutoKeyAction; }
  // New Clip…: asks a name, then addEmptyClip (in the clip menu and File ▸ New Clip).
  QAction* newClipAction() const { return mNewClipAction; }
  // The clip list: each clip's name, and in its popup (objectName "clipList") a second
  // column with the clip's loop seam, refreshed after every edit of the clip.
  QComboBox* clipSelector() const { return mClipCombo; }
  QSpinBox* frameField() const { return mFrameSpin; }
  QDoubleSpinBox* frameRateField() const { return mFrameRateSpin; }
  QSpinBox* lastFrameField() const { return mLastFrameSpin; }
  TimeRuler* ruler() const { return mRuler; }
  DopeSheet* dopeSheet() const { return mDopeSheet; }
  AutoKey* autoKey() const { return mAutoKey; }
  const TimeAxis& axis() const { return mAxis; }

  // A clip without keys named `name` (made unique), as long and at the frame rate of the
  // current clip, added after the others and shown: one undo step.
  void addEmptyClip(const QString& name);
  // Clip edits, each one undo step on the current clip (ignored without a clip).
  void renameCurrentClip(const QString& name);
  void duplicateCurrentClip();
  void deleteCurrentClip();
  // The clip keeps its keys (in seconds); only how it is stepped and baked changes.
  void setCurrentFrameRate(double framesPerSecond);
  // Moves the clip's end time so `frame` is its last frame.
  void setCurrentLastFrame(int frame);

  // Jumps to the key before/after the current time on the dope sheet's rows (every
  // channel of the clip when no joint is selected).
  void jumpToKey(bool forward);

 protected:
  bool eventFilter(QObject* watched, QEvent* event) override;

 private:
  void documentChanged(const ChangeEvent& event);
  void rebuildClipList();
  // The seam column of clip `clip`'s row in the clip list (clipSeamText), fitted to its text.
  void showClipSeam(int clip);
  void updateFrameDisplay();
  void updatePlayAction(bool playing);
  void chooseClipName();
  void chooseNewClipName();
  QAction* addAction(const QString& text, const QKeySequence& key, const char* name);

  Document* const mDocument;
  PlaybackController* const mPlayback;
  TimeAxis mAxis;
  AutoKey* const mAutoKey;
  QAction* const mPlayAction;
  QAction* const mLoopAction;
  QAction* mStepBackAction = nullptr;
  QAction* mNewClipAction = nullptr;
  QAction* mStepForwardAction = nullptr;
  QAction* mPreviousKeyAction = nullptr;
  QAction* mNextKeyAction = nullptr;
  QAction* mAutoKeyAction = nullptr;
  QComboBox* const mClipCombo;
  QTreeView* const mClipList;  // mClipCombo's popup: name and seam columns
  TimeRuler* const mRuler;
  DopeSheet* const mDopeSheet;
  QSpinBox* const mFrameSpin;
  QLabel* const mFrameCountLabel;
  QDoubleSpinBox* const mFrameRateSpin;
  QSpinBox* const mLastFrameSpin;
};

}  // namespace articula::ui
