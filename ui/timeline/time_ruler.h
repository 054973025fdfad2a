#pragma once
#include <QWidget>

#include <optional>

#include "ui/timeline/time_axis.h"

namespace articula::ui {

class Document;
struct ChangeEvent;

// Frame ruler of the current clip with the playhead. Pressing or dragging anywhere on it
// scrubs: the document's time jumps to the frame under the mouse. The wheel (with or without
// Ctrl) zooms time around the mouse and a middle drag pans, as in the curve editor; zoomed
// all the way out the whole clip fits again.
//
// The ruler owns the layout of the TimeAxis it is given (it sets the axis's range and pixel
// span on every resize and clip change); the dope sheet under it, being as wide, reads the
// same axis, so both draw a frame at the same x. `labelInset` pixels on the left are left
// for the dope sheet's row labels.
class TimeRuler : public QWidget {
  Q_OBJECT

 public:
  TimeRuler(Document* document, TimeAxis* axis, int labelInset = 0, QWidget* parent = nullptr);

  const TimeAxis& axis() const { return *mAxis; }
  QSize sizeHint() const override;
  QSize minimumSizeHint() const override;

  // Zoom and pan of the shared axis from a wheel or middle-button event on this ruler or on
  // a view as wide under it (the dope sheet); true when the event was one. Emits viewChanged.
  bool navigate(QEvent* event);
  bool isZoomed() const { return mZoomed; }
  // The playback range to show as a band with in and out marks; firstFrame < 0 for none.
  void setPlaybackRange(int firstFrame, int lastFrame);

 signals:
  void viewChanged();

 protected:
  void paintEvent(QPaintEvent* event) override;
  void resizeEvent(QResizeEvent* event) override;
  void mousePressEvent(QMouseEvent* event) override;
  void mouseMoveEvent(QMouseEvent* event) override;
  bool event(QEvent* event) override;

 private:
  void documentChanged(const ChangeEvent& event);
  // Origin, frame rate and pixel span from the clip and the widget; the visible range is the
  // whole clip unless the user zoomed (and `keepZoom`).
  void updateAxis(bool keepZoom);
  void zoomAt(double x, double factor);
  void scrubTo(double x);

  Document* const mDocument;
  TimeAxis* const mAxis;
  const int mLabelInset;
  bool mZoomed = false;
  int mRangeFirst = -1;
  int mRangeLast = -1;
  std::optional<double> mPanFromX;
};

}  // namespace articula::ui
