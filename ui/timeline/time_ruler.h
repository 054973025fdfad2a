#pragma once
#include <QWidget>

#include "ui/timeline/time_axis.h"

namespace articula::ui {

class Document;
struct ChangeEvent;

// Frame ruler of the current clip with the playhead. Pressing or dragging anywhere on it
// scrubs: the document's time jumps to the frame under the mouse.
class TimeRuler : public QWidget {
  Q_OBJECT

 public:
  explicit TimeRuler(Document* document, QWidget* parent = nullptr);

  const TimeAxis& axis() const { return mAxis; }
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
  TimeAxis mAxis;
};

}  // namespace articula::ui
