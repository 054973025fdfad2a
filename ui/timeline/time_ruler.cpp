#include "ui/timeline/time_ruler.h"

#include <QMouseEvent>
#include <QPainter>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>

#include "ui/document/document.h"

namespace articula::ui {

namespace {
// Room left and right of the first and last frame so the playhead handle and the labels of
// the end frames are not clipped.
constexpr double kMargin = 16.0;
}  // namespace

TimeRuler::TimeRuler(Document* document, TimeAxis* axis, int labelInset, QWidget* parent)
    : QWidget(parent), mDocument(document), mAxis(axis), mLabelInset(labelInset) {
  setObjectName(QStringLiteral("TimeRuler"));
  setMouseTracking(false);
  setCursor(Qt::PointingHandCursor);
  setToolTip(tr("Click or drag to scrub"));
  updateAxis(false);
  connect(mDocument, &Document::changed, this, &TimeRuler::documentChanged);
}

QSize TimeRuler::sizeHint() const { return {600, 40}; }
QSize TimeRuler::minimumSizeHint() const { return {120, 34}; }

void TimeRuler::documentChanged(const ChangeEvent& event) {
  // Another clip starts from the whole clip; an edit of this one keeps the zoom.
  if (event.type == ChangeEvent::Type::SceneReplaced || event.type == ChangeEvent::Type::CurrentClipChanged) {
    updateAxis(false);
    emit viewChanged();
  } else if (event.type == ChangeEvent::Type::ClipEdited) {
    updateAxis(true);
  }
  if (event.type != ChangeEvent::Type::SelectionChanged) update();
}

void TimeRuler::updateAxis(bool keepZoom) {
  const Clip* clip = mDocument->currentClip();
  const double start = clip ? clip->startTime : 0.0;
  const double rate = clip ? clip->frameRate : 30.0;
  mAxis->setFrameRate(rate);
  mAxis->setOrigin(start);
  mAxis->setPixelSpan(mLabelInset + kMargin, width() - kMargin);
  mZoomed = mZoomed && keepZoom;
  // The axis ends on the last whole frame, which may lie just past endTime.
  if (!mZoomed) mAxis->setRange(start, start + (mDocument->frameCount() - 1) / rate);
}

void TimeRuler::setPlaybackRange(int firstFrame, int lastFrame) {
  mRangeFirst = firstFrame;
  mRangeLast = lastFrame;
  update();
}

void TimeRuler::resizeEvent(QResizeEvent* event) {
  QWidget::resizeEvent(event);
  updateAxis(true);
}

bool TimeRuler::event(QEvent* event) { return navigate(event) || QWidget::event(event); }

bool TimeRuler::navigate(QEvent* event) {
  switch (event->type()) {
    case QEvent::Wheel: {
      auto* wheel = static_cast<QWheelEvent*>(event);
      const double steps = wheel->angleDelta().y() / 120.0;
      if (steps == 0.0) return false;
      zoomAt(wheel->position().x(), std::pow(0.85, steps));
      return true;
    }
    case QEvent::MouseButtonPress: {
      auto* mouse = static_cast<QMouseEvent*>(event);
      if (mouse->button() != Qt::MiddleButton) return false;
      mPanFromX = mouse->position().x();
      return true;
    }
    case QEvent::MouseMove: {
      auto* mouse = static_cast<QMouseEvent*>(event);
      if (!mPanFromX || !(mouse->buttons() & Qt::MiddleButton)) return false;
      mAxis->panBy(mouse->position().x() - *mPanFromX);
      mPanFromX = mouse->position().x();
      mZoomed = true;
      update();
      emit viewChanged();
      return true;
    }
    case QEvent::MouseButtonRelease: {
      auto* mouse = static_cast<QMouseEvent*>(event);
      if (mouse->button() != Qt::MiddleButton || !mPanFromX) return false;
      mPanFromX.reset();
      return true;
    }
    default:
      return false;
  }
}

void TimeRuler::zoomAt(double x, double factor) {
  mAxis->zoomAt(std::max(x, mAxis->left()), factor);
  const double clipSpan = (mDocument->frameCount() - 1) / mAxis->frameRate();
  mZoomed = mAxis->endTime() - mAxis->startTime() < clipSpan;
  if (!mZoomed) updateAxis(false);
  update();
  emit viewChanged();
}

void TimeRuler::paintEvent(QPaintEvent*) {
  QPainter painter(this);
  painter.setRenderHint(QPainter::Antialiasing, false);
  const QRect area = rect();
  painter.fillRect(area, QColor(43, 43, 46));
  painter.setClipRect(QRect(mLabelInset, 0, area.width() - mLabelInset, area.height()));
  const bool hasClip = mDocument->currentClip() != nullptr;
  const int frames = mDocument->frameCount();

  // Clip range band.
  const double x0 = mAxis->frameToPixel(0);
  const double x1 = mAxis->frameToPixel(frames - 1);
  painter.fillRect(QRectF(x0, 0, x1 - x0, area.height()), QColor(52, 52, 56));
  if (mRangeFirst >= 0) {
    // The playback range: a band in the playhead's hue between in and out marks.
    const double in = mAxis->frameToPixel(mRangeFirst);
    const double out = mAxis->frameToPixel(mRangeLast);
    painter.fillRect(QRectF(in, 0, out - in, area.height()), QColor(58, 78, 110));
    painter.fillRect(QRectF(in - 1.5, 0, 3.0, area.height()), QColor(120, 200, 120));
    painter.fillRect(QRectF(out - 1.5, 0, 3.0, area.height()), QColor(230, 120, 110));
  }

  // Ticks of the frames in view only, at least a few pixels apart: the loop is bounded by the
  // ruler's width, whatever the clip's length (2^31 frames, a start at -1e38 s).
  const long long labelStep = mAxis->labelStep(48.0);
  const bool drawEveryFrame = mAxis->pixelsPerFrame() >= 4.0;
  const long long tickStep = drawEveryFrame ? 1 : std::max(1LL, labelStep / 5);
  const auto firstInView = static_cast<long long>(mAxis->frameAtPixel(mLabelInset, frames - 1));
  const auto lastInView = static_cast<long long>(std::ceil(mAxis->frameAtPixel(area.width(), frames - 1)));
  const long long maxTicks = std::max(area.width(), 1);
  QFont font = painter.font();
  font.setPointSizeF(font.pointSizeF() * 0.85);
  painter.setFont(font);
  const int baseline = area.height() - 1;
  long long ticks = 0;
  for (long long frame = firstInView - firstInView % tickStep; frame <= lastInView && ticks < maxTicks;
       frame += tickStep, ++ticks) {
    const double x = mAxis->frameToPixel(static_cast<int>(frame));
    const bool labelled = frame % labelStep == 0;
    painter.setPen(labelled ? QColor(150, 150, 156) : QColor(92, 92, 98));
    painter.drawLine(QPointF(x, baseline), QPointF(x, baseline - (labelled ? 12 : 6)));
    if (labelled) {
      painter.setPen(QColor(185, 185, 190));
      painter.drawText(QRectF(x - 30, 2, 60, area.height() - 16), Qt::AlignHCenter | Qt::AlignTop,
                       QString::number(frame));
    }
  }
  painter.setPen(QColor(92, 92, 98));
  painter.drawLine(QPointF(0, baseline), QPointF(area.width(), baseline));
  if (!hasClip) return;

  // Playhead: a line with a handle carrying the current frame number.
  const double x = mAxis->timeToPixel(mDocument->time());
  const QColor playhead(86, 156, 255);
  painter.setRenderHint(QPainter::Antialiasing, true);
  painter.setPen(QPen(playhead, 2.0));
  painter.drawLine(QPointF(x, 0), QPointF(x, area.height()));
  const QString label = QString::number(mDocument->currentFrame());
  const double labelWidth = painter.fontMetrics().horizontalAdvance(label) + 10.0;
  const QRectF handle(x - labelWidth / 2.0, 1.0, labelWidth, painter.fontMetrics().height() + 2.0);
  painter.setPen(Qt::NoPen);
  painter.setBrush(playhead);
  painter.drawRoundedRect(handle, 3.0, 3.0);
  painter.setPen(Qt::white);
  painter.drawText(handle, Qt::AlignCenter, label);
}

void TimeRuler::mousePressEvent(QMouseEvent* event) {
  if (event->button() == Qt::LeftButton) scrubTo(event->position().x());
}

void TimeRuler::mouseMoveEvent(QMouseEvent* event) {
  if (event->buttons() & Qt::LeftButton) scrubTo(event->position().x());
}

void TimeRuler::scrubTo(double x) {
  if (x < mLabelInset) return;
  mDocument->setFrame(mAxis->pixelToFrame(x));
}

}  // namespace articula::ui
