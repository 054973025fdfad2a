#pragma once
#include <QString>
#include <QWidget>

#include <vector>

#include "ui/timeline/key_channel.h"
#include "ui/timeline/key_view.h"

class QPainter;

namespace articula::ui {

class Document;
class TimeAxis;
struct ChangeEvent;

// Keys of the current clip as diamonds, one row per channel group: a summary row (the keys
// of the rows below it; with nothing selected, every key of the clip), then for each
// selected joint its translation, rotation and scale rows, then one row per named curve
// (stride curves `contact.*`). A diamond stands for every key of its row at that time.
// Click selects (Shift toggles); a drag that starts on a selected diamond moves the selected
// keys by whole frames as one undo step, any other drag (on an unselected diamond, on empty
// space, anywhere with Ctrl) box-selects the keys of the rows it touches, as in Maya's and
// Blender's dope sheets; Delete, Ctrl+C, Ctrl+V. Scrubbing is the ruler's. Times map to
// pixels through the TimeAxis shared with the ruler above it (whose wheel zoom and
// middle-drag pan work here too).
class DopeSheet : public QWidget, public KeyView {
  Q_OBJECT

 public:
  struct Row {
    QString label;
    std::vector<KeyChannel> channels;
    int depth = 0;  // 0 summary, 1 joint or curve group, 2 channel
  };

  // Width of the row labels on the left; the ruler leaves the same room so the shared
  // axis lines up.
  static constexpr int kLabelWidth = 150;
  static constexpr int kRowHeight = 18;

  DopeSheet(Document* document, const TimeAxis* axis, QWidget* parent = nullptr);

  const std::vector<Row>& rows() const { return mRows; }
  // Centre of the diamond of row `row` at `time` (seconds), in widget pixels.
  QPointF keyPosition(int row, double time) const;

  std::vector<KeyRef> keysAt(const QPointF& position) const override;
  std::vector<KeyRef> keysInside(const QRectF& rect) const override;

  QSize sizeHint() const override;

 protected:
  void keySelectionChanged() override;
  void showRefusal(const QString& line) override;
  bool event(QEvent* event) override;
  void paintEvent(QPaintEvent* event) override;
  void mousePressEvent(QMouseEvent* event) override;
  void mouseMoveEvent(QMouseEvent* event) override;
  void mouseReleaseEvent(QMouseEvent* event) override;

 private:
  void documentChanged(const ChangeEvent& event);
  void rebuildRows();
  // A diamond of a row: the keys of its channels at one time.
  struct Diamond {
    double time = 0.0;
    std::vector<KeyRef> keys;
  };
  // The row's diamonds in time order, its keys gathered in one sorted pass (a long clip's
  // row has thousands: looking each diamond's keys up again would be quadratic).
  std::vector<Diamond> rowDiamonds(const Row& row) const;
  int rowAt(double y) const;
  void paintDiamonds(QPainter& painter, int rowIndex) const;
  QRectF boxRect() const;
  // Whether the mouse has gone farther from the press than a click's jitter.
  bool movedPastClick() const;

  Document* const mDocument;
  const TimeAxis* const mAxis;
  std::vector<Row> mRows;
  std::vector<std::vector<Diamond>> mRowDiamonds;  // rowDiamonds of each of mRows
  enum class Gesture { None, MoveKeys, BoxSelect };
  Gesture mGesture = Gesture::None;
  QPointF mPressPosition;
  QPointF mCurrentPosition;
  double mGrabbedTime = 0.0;
  std::vector<KeyRef> mGrabbedKeys;  // the diamond a move started on
  std::vector<KeyRef> mSelectionBeforeBox;
};

}  // namespace articula::ui
