#pragma once
#include <QWidget>

class QAction;
class QComboBox;
class QLabel;
class QSpinBox;
class QToolButton;

namespace articula::ui {

class Document;
class PlaybackController;
class TimeRuler;
struct ChangeEvent;

// Transport and time ruler: clip selector, play/pause (Space), loop toggle, the frame
// ruler with its playhead, and the current frame out of the clip's frame count.
class TimelineWidget : public QWidget {
  Q_OBJECT

 public:
  TimelineWidget(Document* document, PlaybackController* playback, QWidget* parent = nullptr);

  // Checkable play/pause action with the Space shortcut; the main window puts it in its menu.
  QAction* playAction() const { return mPlayAction; }
  QAction* loopAction() const { return mLoopAction; }
  QComboBox* clipSelector() const { return mClipCombo; }
  QSpinBox* frameField() const { return mFrameSpin; }
  TimeRuler* ruler() const { return mRuler; }

 private:
  void documentChanged(const ChangeEvent& event);
  void rebuildClipList();
  void updateFrameDisplay();
  void updatePlayAction(bool playing);

  Document* const mDocument;
  PlaybackController* const mPlayback;
  QAction* const mPlayAction;
  QAction* const mLoopAction;
  QComboBox* const mClipCombo;
  TimeRuler* const mRuler;
  QSpinBox* const mFrameSpin;
  QLabel* const mFrameCountLabel;
};

}  // namespace articula::ui
