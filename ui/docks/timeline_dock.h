#pragma once
#include <QDockWidget>

namespace articula::ui {

class Document;
class PlaybackController;
class TimelineWidget;

// Bottom dock holding the transport and time ruler.
class TimelineDock : public QDockWidget {
  Q_OBJECT

 public:
  TimelineDock(Document* document, PlaybackController* playback, QWidget* parent = nullptr);

  TimelineWidget* timeline() const { return mTimeline; }

 private:
  TimelineWidget* const mTimeline;
};

}  // namespace articula::ui
