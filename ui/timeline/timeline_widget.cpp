#include "ui/timeline/timeline_widget.h"

#include <QAction>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QInputDialog>
#include <QLabel>
#include <QMenu>
#include <QScrollBar>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QStandardItemModel>
#include <QStyle>
#include <QToolButton>
#include <QTreeView>
#include <QUndoStack>
#include <QVBoxLayout>

#include <cmath>

#include "ui/commands/clip_list_command.h"
#include "ui/commands/replace_clip_command.h"
#include "ui/document/document.h"
#include "ui/timeline/auto_key.h"
#include "ui/timeline/clip_seam_text.h"
#include "ui/timeline/dope_sheet.h"
#include "ui/timeline/key_channel.h"
#include "ui/timeline/playback_controller.h"
#include "ui/timeline/time_ruler.h"

namespace articula::ui {

TimelineWidget::TimelineWidget(Document* document, PlaybackController* playback, QWidget* parent)
    : QWidget(parent),
      mDocument(document),
      mPlayback(playback),
      mAutoKey(new AutoKey(document, this)),
      mPlayAction(new QAction(this)),
      mLoopAction(new QAction(tr("Loop"), this)),
      mClipCombo(new QComboBox(this)),
      mClipList(new QTreeView(mClipCombo)),
      mRuler(new TimeRuler(document, &mAxis, DopeSheet::kLabelWidth, this)),
      mDopeSheet(new DopeSheet(document, &mAxis, this)),
      mFrameSpin(new QSpinBox(this)),
      mFrameCountLabel(new QLabel(this)),
      mFrameRateSpin(new QDoubleSpinBox(this)),
      mLastFrameSpin(new QSpinBox(this)) {
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

  mStepBackAction = addAction(tr("Previous Frame"), Qt::Key_Left, "actionStepBack");
  connect(mStepBackAction, &QAction::triggered, this, [this] { mDocument->setFrame(mDocument->currentFrame() - 1); });
  mStepForwardAction = addAction(tr("Next Frame"), Qt::Key_Right, "actionStepForward");
  connect(mStepForwardAction, &QAction::triggered, this,
          [this] { mDocument->setFrame(mDocument->currentFrame() + 1); });
  // Maya's , and . keys.
  mPreviousKeyAction = addAction(tr("Previous Key"), Qt::Key_Comma, "actionPreviousKey");
  connect(mPreviousKeyAction, &QAction::triggered, this, [this] { jumpToKey(false); });
  mNextKeyAction = addAction(tr("Next Key"), Qt::Key_Period, "actionNextKey");
  connect(mNextKeyAction, &QAction::triggered, this, [this] { jumpToKey(true); });
  mAutoKeyAction = addAction(tr("Auto Key"), QKeySequence(Qt::SHIFT | Qt::Key_N), "actionAutoKey");
  mAutoKeyAction->setCheckable(true);
  mAutoKeyAction->setToolTip(tr("Auto key: key every pose change at the current frame"));
  connect(mAutoKeyAction, &QAction::toggled, mAutoKey, &AutoKey::setEnabled);

  auto* playButton = new QToolButton(this);
  playButton->setDefaultAction(mPlayAction);
  playButton->setAutoRaise(true);
  playButton->setIconSize(QSize(20, 20));
  mStepBackAction->setIcon(style()->standardIcon(QStyle::SP_MediaSkipBackward));
  mStepForwardAction->setIcon(style()->standardIcon(QStyle::SP_MediaSkipForward));
  mPreviousKeyAction->setIcon(style()->standardIcon(QStyle::SP_MediaSeekBackward));
  mNextKeyAction->setIcon(style()->standardIcon(QStyle::SP_MediaSeekForward));
  auto toolButton = [this](QAction* action, Qt::ToolButtonStyle buttonStyle) {
    auto* button = new QToolButton(this);
    button->setDefaultAction(action);
    button->setToolButtonStyle(buttonStyle);
    button->setAutoRaise(true);
    return button;
  };

  mClipCombo->setObjectName(QStringLiteral("clipSelector"));
  mClipCombo->setToolTip(tr("Clip"));
  mClipCombo->setSizeAdjustPolicy(QComboBox::AdjustToContents);
  mClipCombo->setMinimumContentsLength(6);
  // The popup lists each clip with its loop seam beside its name; the box shows the name.
  mClipList->setObjectName(QStringLiteral("clipList"));
  mClipList->setHeaderHidden(true);
  mClipList->setRootIsDecorated(false);
  mClipList->setUniformRowHeights(true);
  mClipList->header()->setStretchLastSection(false);
  mClipList->header()->setSectionResizeMode(QHeaderView::ResizeToContents);
  mClipCombo->setView(mClipList);
  connect(mClipCombo, &QComboBox::currentIndexChanged, mDocument, &Document::setCurrentClip);
  mNewClipAction = new QAction(tr("New &Clip…"), this);
  mNewClipAction->setObjectName(QStringLiteral("actionNewClip"));
  mNewClipAction->setToolTip(tr("Add an empty clip to the character, to key from its rest pose"));
  connect(mNewClipAction, &QAction::triggered, this, &TimelineWidget::chooseNewClipName);
  auto* clipMenu = new QMenu(this);
  clipMenu->addAction(mNewClipAction);
  clipMenu->addAction(tr("&Rename…"), this, &TimelineWidget::chooseClipName);
  clipMenu->addAction(tr("&Duplicate"), this, &TimelineWidget::duplicateCurrentClip);
  clipMenu->addAction(tr("De&lete"), this, &TimelineWidget::deleteCurrentClip);
  auto* clipButton = new QToolButton(this);
  clipButton->setObjectName(QStringLiteral("clipMenuButton"));
  clipButton->setText(tr("…"));
  clipButton->setToolTip(tr("New clip; rename, duplicate or delete the clip"));
  clipButton->setMenu(clipMenu);
  clipButton->setPopupMode(QToolButton::InstantPopup);

  mFrameSpin->setObjectName(QStringLiteral("frameField"));
  mFrameSpin->setToolTip(tr("Current frame"));
  mFrameSpin->setKeyboardTracking(false);
  connect(mFrameSpin, &QSpinBox::valueChanged, mDocument, &Document::setFrame);
  mFrameRateSpin->setObjectName(QStringLiteral("frameRateField"));
  mFrameRateSpin->setToolTip(tr("Frame rate of the clip (frames per second)"));
  mFrameRateSpin->setRange(1.0, 240.0);
  mFrameRateSpin->setDecimals(2);
  mFrameRateSpin->setKeyboardTracking(false);
  connect(mFrameRateSpin, &QDoubleSpinBox::valueChanged, this, &TimelineWidget::setCurrentFrameRate);
  mLastFrameSpin->setObjectName(QStringLiteral("lastFrameField"));
  mLastFrameSpin->setToolTip(tr("Last frame of the clip"));
  mLastFrameSpin->setRange(0, 1000000);
  mLastFrameSpin->setKeyboardTracking(false);
  connect(mLastFrameSpin, &QSpinBox::valueChanged, this, &TimelineWidget::setCurrentLastFrame);

  auto* transport = new QHBoxLayout;
  transport->setContentsMargins(0, 0, 0, 0);
  transport->addWidget(toolButton(mPreviousKeyAction, Qt::ToolButtonIconOnly));
  transport->addWidget(toolButton(mStepBackAction, Qt::ToolButtonIconOnly));
  transport->addWidget(playButton);
  transport->addWidget(toolButton(mStepForwardAction, Qt::ToolButtonIconOnly));
  transport->addWidget(toolButton(mNextKeyAction, Qt::ToolButtonIconOnly));
  transport->addWidget(toolButton(mLoopAction, Qt::ToolButtonTextOnly));
  transport->addWidget(toolButton(mAutoKeyAction, Qt::ToolButtonTextOnly));
  transport->addSpacing(8);
  transport->addWidget(mClipCombo);
  transport->addWidget(clipButton);
  transport->addStretch(1);
  transport->addWidget(new QLabel(tr("FPS"), this));
  transport->addWidget(mFrameRateSpin);
  transport->addWidget(new QLabel(tr("Last"), this));
  transport->addWidget(mLastFrameSpin);
  transport->addSpacing(4);
  transport->addWidget(mFrameSpin);
  transport->addWidget(mFrameCountLabel);

  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(6, 4, 6, 4);
  layout->setSpacing(0);
  layout->addLayout(transport);
  layout->addSpacing(4);
  layout->addWidget(mRuler);
  layout->addWidget(mDopeSheet, 1);

  // The dope sheet zooms and pans time with the ruler: one axis, one set of gestures.
  mDopeSheet->installEventFilter(this);
  connect(mRuler, &TimeRuler::viewChanged, mDopeSheet, qOverload<>(&QWidget::update));
  connect(mPlayback, &PlaybackController::rangeChanged, this, [this] {
    if (mPlayback->hasRange()) {
      mRuler->setPlaybackRange(mPlayback->firstPlayedFrame(), mPlayback->lastPlayedFrame());
    } else {
      mRuler->setPlaybackRange(-1, -1);
    }
  });

  rebuildClipList();
  connect(mDocument, &Document::changed, this, &TimelineWidget::documentChanged);
}

bool TimelineWidget::eventFilter(QObject* watched, QEvent* event) {
  if (watched == mDopeSheet && mRuler->navigate(event)) return true;
  return QWidget::eventFilter(watched, event);
}

QAction* TimelineWidget::addAction(const QString& text, const QKeySequence& key, const char* name) {
  auto* action = new QAction(text, this);
  action->setObjectName(QLatin1String(name));
  action->setShortcut(key);
  action->setToolTip(tr("%1 (%2)").arg(text, key.toString(QKeySequence::NativeText)));
  return action;
}

void TimelineWidget::documentChanged(const ChangeEvent& event) {
  switch (event.type) {
    case ChangeEvent::Type::SceneReplaced:
    case ChangeEvent::Type::CurrentClipChanged:  // the clip list itself may have changed
      rebuildClipList();
      break;
    case ChangeEvent::Type::ClipEdited:  // an edit may have renamed the clip or changed its range
      if (event.clip >= 0 && event.clip < mClipCombo->count()) {
        mClipCombo->setItemText(
            event.clip, QString::fromStdString(mDocument->scene().clips[static_cast<std::size_t>(event.clip)].name));
        showClipSeam(event.clip);
      }
      updateFrameDisplay();
      break;
    case ChangeEvent::Type::TimeChanged:
      updateFrameDisplay();
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

void TimelineWidget::rebuildClipList() {
  {
    const QSignalBlocker blocker(mClipCombo);
    mClipCombo->clear();
    for (const Clip& clip : mDocument->scene().clips) {
      mClipCombo->addItem(QString::fromStdString(clip.name));
      showClipSeam(mClipCombo->count() - 1);
    }
    mClipCombo->setCurrentIndex(mDocument->currentClipIndex());
  }
  const bool hasClip = mDocument->currentClip() != nullptr;
  for (QWidget* widget : {static_cast<QWidget*>(mClipCombo), static_cast<QWidget*>(mFrameSpin),
                          static_cast<QWidget*>(mFrameRateSpin), static_cast<QWidget*>(mLastFrameSpin)})
    widget->setEnabled(hasClip);
  for (QAction* action : {mPlayAction, mStepBackAction, mStepForwardAction, mPreviousKeyAction, mNextKeyAction})
    action->setEnabled(hasClip);
  updateFrameDisplay();
}

void TimelineWidget::showClipSeam(int clip) {
  auto* model = qobject_cast<QStandardItemModel*>(mClipCombo->model());
  if (model == nullptr) return;
  const Skeleton& skeleton = mDocument->scene().skeleton;
  const Clip& edited = mDocument->scene().clips[static_cast<std::size_t>(clip)];
  auto* seam = new QStandardItem(clipSeamText(skeleton, edited));
  seam->setToolTip(clipSeamDetail(skeleton, edited));
  seam->setForeground(palette().brush(QPalette::PlaceholderText));
  model->setItem(clip, 1, seam);
  // The popup is as wide as the names and seams it lists.
  const QAbstractItemView& list = *mClipList;  // where sizeHintForColumn is public
  mClipList->setMinimumWidth(list.sizeHintForColumn(0) + list.sizeHintForColumn(1) + 2 * mClipList->frameWidth() +
                             mClipList->verticalScrollBar()->sizeHint().width());
}

void TimelineWidget::updateFrameDisplay() {
  const QSignalBlocker frameBlocker(mFrameSpin);
  mFrameSpin->setRange(0, mDocument->frameCount() - 1);
  mFrameSpin->setValue(mDocument->currentFrame());
  mFrameCountLabel->setText(tr("/ %1").arg(mDocument->frameCount() - 1));
  const Clip* clip = mDocument->currentClip();
  const QSignalBlocker rateBlocker(mFrameRateSpin);
  const QSignalBlocker lastBlocker(mLastFrameSpin);
  mFrameRateSpin->setValue(clip ? clip->frameRate : 30.0);
  mLastFrameSpin->setValue(mDocument->frameCount() - 1);
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

void TimelineWidget::chooseClipName() {
  const Clip* clip = mDocument->currentClip();
  if (!clip) return;
  bool accepted = false;
  const QString name = QInputDialog::getText(this, tr("Rename Clip"), tr("Name:"), QLineEdit::Normal,
                                             QString::fromStdString(clip->name), &accepted);
  if (accepted) renameCurrentClip(name);
}

void TimelineWidget::renameCurrentClip(const QString& name) {
  const Clip* clip = mDocument->currentClip();
  const QString trimmed = name.trimmed();
  if (!clip || trimmed.isEmpty() || trimmed.toStdString() == clip->name) return;
  Clip renamed = *clip;
  renamed.name = trimmed.toStdString();
  mDocument->undoStack()->push(
      new ReplaceClipCommand(mDocument, mDocument->currentClipIndex(), std::move(renamed), tr("Rename Clip")));
}

void TimelineWidget::chooseNewClipName() {
  bool accepted = false;
  const QString name =
      QInputDialog::getText(this, tr("New Clip"), tr("Name:"), QLineEdit::Normal,
                            QString::fromStdString(uniqueClipName(mDocument->scene().clips, "Clip")), &accepted);
  if (accepted) addEmptyClip(name);
}

void TimelineWidget::addEmptyClip(const QString& name) {
  // As long and at the rate of the clip shown, so it lines up with it; a second at 30 fps
  // on a character without clips.
  const Clip* shown = mDocument->currentClip();
  Clip clip;
  clip.name = name.trimmed().isEmpty() ? "Clip" : name.trimmed().toStdString();
  clip.frameRate = shown ? shown->frameRate : 30.0;
  clip.startTime = shown ? shown->startTime : 0.0;
  clip.endTime = shown && shown->duration() > 0.0 ? shown->endTime : clip.startTime + 1.0;
  std::vector<Clip> added;
  added.push_back(std::move(clip));
  mDocument->undoStack()->push(ClipListCommand::append(mDocument, std::move(added), tr("New Clip")));
}

void TimelineWidget::duplicateCurrentClip() {
  if (!mDocument->currentClip()) return;
  mDocument->undoStack()->push(ClipListCommand::duplicate(mDocument, mDocument->currentClipIndex()));
}

void TimelineWidget::deleteCurrentClip() {
  if (!mDocument->currentClip()) return;
  mDocument->undoStack()->push(ClipListCommand::remove(mDocument, mDocument->currentClipIndex()));
}

void TimelineWidget::setCurrentFrameRate(double framesPerSecond) {
  const Clip* clip = mDocument->currentClip();
  if (!clip || !(framesPerSecond > 0.0) || std::abs(framesPerSecond - clip->frameRate) < 1e-9) return;
  Clip edited = *clip;
  edited.frameRate = framesPerSecond;
  mDocument->undoStack()->push(
      new ReplaceClipCommand(mDocument, mDocument->currentClipIndex(), std::move(edited), tr("Set Frame Rate")));
}

void TimelineWidget::setCurrentLastFrame(int frame) {
  const Clip* clip = mDocument->currentClip();
  if (!clip || frame < 0 || frame == mDocument->frameCount() - 1) return;
  Clip edited = *clip;
  edited.endTime = clip->timeOf(frame);
  mDocument->undoStack()->push(
      new ReplaceClipCommand(mDocument, mDocument->currentClipIndex(), std::move(edited), tr("Set Frame Range")));
}

void TimelineWidget::jumpToKey(bool forward) {
  // The keys the dope sheet shows: the active layer's, or the base's.
  const Clip* clip = mDocument->editedKeys();
  if (!clip) return;
  const std::vector<DopeSheet::Row>& rows = mDopeSheet->rows();
  const std::vector<KeyChannel> channels =
      mDocument->selectedJoints().empty() || rows.empty() ? allKeyedChannels(*clip) : rows.front().channels;
  if (const std::optional<double> time = adjacentKeyTime(*clip, channels, mDocument->time(), forward))
    mDocument->setTime(*time);
}

}  // namespace articula::ui
