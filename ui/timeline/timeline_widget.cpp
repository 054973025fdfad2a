#include "ui/timeline/timeline_widget.h"

#include <QAction>
#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QStyle>
#include <QToolButton>
#include <QVBoxLayout>

#include "ui/document/document.h"
#include "ui/timeline/playback_controller.h"
#include "ui/timeline/time_ruler.h"

namespace articula::ui {

TimelineWidget::TimelineWidget(Document* document, PlaybackController* playback, QWidget* parent)
    : QWidget(parent),
      mDocument(document),
      mPlayback(playback),
      mPlayAction(new QAction(this)),
      mLoopAction(new QAction(tr("Loop"), this)),
      mClipCombo(new QComboBox(this)),
      mRuler(new TimeRuler(document, this)),
      mFrameSpin(new QSpinBox(this)),
      mFrameCountLabel(new QLabel(this)) {
  mPlayAction->setObjectName(QStringLiteral("actionPlay"));
  mPlayAction->setCheckable(true);
  mPlayAction->setShortcut(Qt::Key_Space);
  updatePlayAction(false);
  connect(mPlayAction, &QAction::toggled, mPlayback, &PlaybackController::setPlaying);
  connect(mPlayback, &PlaybackController::playingChanged, this, &TimelineWidget::updatePlayAction);

  mLoopAction->setObjectName(QStringLiteral("actionLoop"));
  mLoopAction->setCheckable(true);
  mLoopAction->setChecked(mPlayback->isLooping());
  mLoopAction->setToolTip(tr("Loop playback"));
  connect(mLoopAction, &QAction::toggled, mPlayback, &PlaybackController::setLooping);

  auto* playButton = new QToolButton(this);
  playButton->setDefaultAction(mPlayAction);
  playButton->setAutoRaise(true);
  playButton->setIconSize(QSize(20, 20));
  auto* loopButton = new QToolButton(this);
  loopButton->setDefaultAction(mLoopAction);
  loopButton->setToolButtonStyle(Qt::ToolButtonTextOnly);

  mClipCombo->setObjectName(QStringLiteral("clipSelector"));
  mClipCombo->setToolTip(tr("Clip"));
  mClipCombo->setSizeAdjustPolicy(QComboBox::AdjustToContents);
  mClipCombo->setMinimumContentsLength(10);
  connect(mClipCombo, &QComboBox::currentIndexChanged, mDocument, &Document::setCurrentClip);

  mFrameSpin->setObjectName(QStringLiteral("frameField"));
  mFrameSpin->setToolTip(tr("Current frame"));
  mFrameSpin->setKeyboardTracking(false);
  connect(mFrameSpin, &QSpinBox::valueChanged, mDocument, &Document::setFrame);

  auto* transport = new QHBoxLayout;
  transport->setContentsMargins(0, 0, 0, 0);
  transport->addWidget(playButton);
  transport->addWidget(loopButton);
  transport->addSpacing(8);
  transport->addWidget(new QLabel(tr("Clip"), this));
  transport->addWidget(mClipCombo);
  transport->addStretch(1);
  transport->addWidget(new QLabel(tr("Frame"), this));
  transport->addWidget(mFrameSpin);
  transport->addWidget(mFrameCountLabel);

  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(6, 4, 6, 4);
  layout->setSpacing(4);
  layout->addLayout(transport);
  layout->addWidget(mRuler);

  rebuildClipList();
  connect(mDocument, &Document::changed, this, &TimelineWidget::documentChanged);
}

void TimelineWidget::documentChanged(const ChangeEvent& event) {
  switch (event.type) {
    case ChangeEvent::Type::SceneReplaced:
      rebuildClipList();
      break;
    case ChangeEvent::Type::CurrentClipChanged: {
      const QSignalBlocker blocker(mClipCombo);
      mClipCombo->setCurrentIndex(mDocument->currentClipIndex());
      updateFrameDisplay();
      break;
    }
    case ChangeEvent::Type::TimeChanged:
    case ChangeEvent::Type::ClipEdited:  // an edit may have changed the clip's range
      updateFrameDisplay();
      break;
    case ChangeEvent::Type::SelectionChanged:
    case ChangeEvent::Type::PoseEdited:
    case ChangeEvent::Type::JointRenamed:
    case ChangeEvent::Type::RigChanged:
    case ChangeEvent::Type::HandleEdited:
    case ChangeEvent::Type::RigEnabledChanged:
      break;
  }
}

void TimelineWidget::rebuildClipList() {
  {
    const QSignalBlocker blocker(mClipCombo);
    mClipCombo->clear();
    for (const Clip& clip : mDocument->scene().clips) mClipCombo->addItem(QString::fromStdString(clip.name));
    mClipCombo->setCurrentIndex(mDocument->currentClipIndex());
  }
  const bool hasClip = mDocument->currentClip() != nullptr;
  mClipCombo->setEnabled(hasClip);
  mPlayAction->setEnabled(hasClip);
  mFrameSpin->setEnabled(hasClip);
  updateFrameDisplay();
}

void TimelineWidget::updateFrameDisplay() {
  const QSignalBlocker blocker(mFrameSpin);
  mFrameSpin->setRange(0, mDocument->frameCount() - 1);
  mFrameSpin->setValue(mDocument->currentFrame());
  mFrameCountLabel->setText(tr("/ %1").arg(mDocument->frameCount() - 1));
}

void TimelineWidget::updatePlayAction(bool playing) {
  {
    const QSignalBlocker blocker(mPlayAction);
    mPlayAction->setChecked(playing);
  }
  mPlayAction->setText(playing ? tr("Pause") : tr("Play"));
  mPlayAction->setToolTip(playing ? tr("Pause (Space)") : tr("Play (Space)"));
  mPlayAction->setIcon(style()->standardIcon(playing ? QStyle::SP_MediaPause : QStyle::SP_MediaPlay));
}

}  // namespace articula::ui
