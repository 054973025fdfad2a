#pragma once
#include <QWidget>

#include "ui/timeline/time_axis.h"

namespace articula::ui {

class Document;
struct ChangeEvent;

// Frame ruler of the current clip with the playhead. Pressing or dragging anywhere on it
// scrubs: the document's time jumps to the frame under the mouse.
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

 protected:
  void paintEvent(QPaintEvent* event) override;
  void resizeEvent(QResizeEvent* event) override;
  void mousePressEvent(QMouseEvent* event) override;
  void mouseMoveEvent(QMouseEvent* event) override;

 private:
  void documentChanged(const ChangeEvent& event);
  void updateAxis();
  void scrubTo(double x);

  Document* const mDocument;
  TimeAxis* const mAxis;
  const int mLabelInset;
};

}  // namespace articula::ui
