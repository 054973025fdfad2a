#include "ui/docks/timeline_dock.h"

#include "ui/document/document.h"
#include "ui/document/layer_keys.h"
#include "ui/timeline/timeline_widget.h"

namespace articula::ui {

TimelineDock::TimelineDock(Document* document, PlaybackController* playback, QWidget* parent)
    : QDockWidget(tr("Timeline"), parent), mTimeline(new TimelineWidget(document, playback, this)) {
  setObjectName(QStringLiteral("TimelineDock"));
  setWidget(mTimeline);
  // The title names the keys its view edits: the base or the active layer (issue 40).
  const auto retitle = [this, document] { setWindowTitle(keyViewTitle(tr("Timeline"), *document)); };
  connect(document, &Document::changed, this, retitle);
  retitle();
}

}  // namespace articula::ui
