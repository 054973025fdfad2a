#include "ui/docks/timeline_dock.h"

#include "ui/timeline/timeline_widget.h"

namespace articula::ui {

TimelineDock::TimelineDock(Document* document, PlaybackController* playback, QWidget* parent)
    : QDockWidget(tr("Timeline"), parent), mTimeline(new TimelineWidget(document, playback, this)) {
  setObjectName(QStringLiteral("TimelineDock"));
  setWidget(mTimeline);
}

}  // namespace articula::ui
