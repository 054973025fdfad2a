#pragma once
#include <QColor>
#include <QString>
#include <QWidget>

#include <optional>
#include <utility>
#include <vector>

#include "ui/timeline/key_channel.h"
#include "ui/timeline/key_view.h"
#include "ui/timeline/time_axis.h"

class QAction;
class QCPGraph;
class QCPRange;
class QCustomPlot;
class QContextMenuEvent;
class QMouseEvent;
class QPainter;
class QWheelEvent;

namespace articula::ui {

class CurvePlot;
class Document;
struct ChangeEvent;

// The curve editor (Olive's CurveView over its KeyframeView): the stride curves, the
// channels of the selected joints and the curves of the selected IK handle (target, pole,
// weight) plotted against time, one colour each with a legend.
// Scalar curves (translation and scale components, named curves) show their keys and, for
// selected Bézier keys, their handles; rotations show as Euler angles in degrees in the
// joint's rotation order, the triples Properties shows made continuous by an Euler filter
// (euler_curve.h), with their keys: a rotation key dragged up or down changes the angle it
// was grabbed on and its quaternion is rebuilt from the edited triple.
//
// Mouse: click a key (Shift adds), drag it (whole frames in time; stride curves snap to 0
// and 1), drag a handle (grabbed from its end point only: a key under the mouse wins; a
// stride curve's handles stay within 0..1), click a legend entry to isolate its curve (again
// to show all), drag empty space to box-select, Ctrl+click to add a key on the nearest
// curve, right-click for interpolation, handle type and delete. Middle drag pans, the wheel
// zooms; with Ctrl only time, with Shift only values. Each drag is one undo step.
//
// The plot is a QCustomPlot child filling the view (same pixel coordinates). It stays out
// of this header because qcustomplot.h 2.1 uses `foreach`, which the project turns off
// (QT_NO_FOREACH) everywhere but the one file that includes it.
class CurveView : public QWidget, public KeyView {
  Q_OBJECT

 public:
  // One plotted curve.
  struct Entry {
    KeyChannel channel;
    int eulerAxis = -1;  // rotation: 0, 1, 2 = the Euler angle about x, y, z; else -1
    QString name;
    QColor colour;
    // Curves of one colour family (x of translation, rotation and scale; the two stride
    // curves) also differ in line style, so overlapping ones stay apart.
    Qt::PenStyle style = Qt::SolidLine;
    QCPGraph* graph = nullptr;
  };

  explicit CurveView(Document* document, QWidget* parent = nullptr);
  ~CurveView() override;

  // The widget that receives the mouse (for tests); at the same coordinates as this view.
  QWidget* plotWidget() const;
  // Visible ranges: time in seconds, values in the curves' units.
  std::pair<double, double> timeRange() const;
  std::pair<double, double> valueRange() const;

  const std::vector<Entry>& entries() const { return mEntries; }
  const Entry* findEntry(const QString& name) const;
  // Time ↔ pixel of the plot's time axis, mirrored after every zoom and pan, so snapping
  // to frames uses the same mapping as the ruler and dope sheet.
  const TimeAxis& axis() const { return mAxis; }

  // Pixel of a key and of its handles (widget coordinates); nullopt when not shown (a
  // handle of a step or linear segment is not: handleShapesCurve).
  std::optional<QPointF> keyPixel(const KeyRef& key, int eulerAxis = -1) const;
  // Value a key is plotted at (a rotation key: the Euler angle about `eulerAxis`, degrees);
  // nullopt when no curve of its channel is plotted.
  std::optional<double> plottedKeyValue(const KeyRef& key, int eulerAxis = -1) const;
  std::optional<QPointF> handlePixel(const KeyRef& key, bool right) const;
  QPointF toPixel(double time, double value) const;

  std::vector<KeyRef> keysAt(const QPointF& position) const override;
  std::vector<KeyRef> keysInside(const QRectF& rect) const override;

  // The time axis counts frames from the clip's start (as the ruler does) unless this
  // checkable action, in the context menu and View menu, switches it to seconds.
  QAction* timeInSecondsAction() const { return mTimeInSecondsAction; }
  bool timeInSeconds() const;
  // The time axis's tick labels as last drawn.
  std::vector<QString> timeLabels() const;

  void setSelectedInterpolation(Interpolation interpolation);
  void setSelectedHandleType(HandleType type);
  void frameAll();
  void frameSelected();
  // Shows only the curve named `name` (its keys alone can be picked); an empty name, or the
  // curve already isolated, shows every curve again. A click on a legend entry does this.
  void isolateEntry(const QString& name);
  const QString& isolatedEntry() const { return mIsolatedEntry; }
  bool isEntryShown(const Entry& entry) const;
  // Legend row of the curve named `name` (widget coordinates), empty when there is none.
  QRectF legendRect(const QString& name) const;

  // Adds a key at `time` (snapped to a frame) on the curve nearest to (`time`, `value`)
  // in pixels, or on `entryName` when given.
  void addKeyAt(const QPointF& position);

 protected:
  void keySelectionChanged() override;
  void showRefusal(const QString& line) override;
  bool event(QEvent* event) override;

 private:
  friend class CurvePlot;
  // Called by the plot from its own event handlers.
  void paintOverlay(QPainter& painter);
  void plotMousePress(QMouseEvent* event);
  void plotMouseMove(QMouseEvent* event);
  void plotMouseRelease(QMouseEvent* event);
  void plotWheel(QWheelEvent* event);
  // After a replot: moves the time range so `time` (seconds) is at pixel `x` again (the
  // wheel zoom's anchor, the pan's grabbed time).
  void keepTimeUnder(double x, double time);
  void plotContextMenu(QContextMenuEvent* event);

  struct HandleHit {
    KeyRef key;
    bool right = false;
  };

  void documentChanged(const ChangeEvent& event);
  void rebuildEntries();
  void rebuildKeepingTheUsersView();
  // Lowest and highest value the shown curves take over the clip; nullopt when none.
  std::optional<std::pair<double, double>> valueExtent() const;
  bool showsAllValues() const;
  void updateCurveData();
  void updateAxis();
  void frameRect(double t0, double t1, double v0, double v1);
  std::optional<double> keyValue(const Entry& entry, double time) const;
  // The shown key nearest to `position` within the hit radius, with its pixel distance.
  std::optional<std::pair<KeyRef, double>> nearestKey(const QPointF& position) const;
  std::optional<HandleHit> handleAt(const QPointF& position) const;
  const Entry* legendEntryAt(const QPointF& position) const;
  void applyIsolation();
  std::vector<const Entry*> entriesOf(const KeyChannel& channel) const;
  void createActions();
  void updateTimeTicker();

  Document* const mDocument;
  CurvePlot* const mPlot;
  QAction* mTimeInSecondsAction = nullptr;
  TimeAxis mAxis;
  std::vector<Entry> mEntries;
  QString mIsolatedEntry;
  enum class Gesture { None, MoveKeys, MoveHandle, BoxSelect, Pan };
  Gesture mGesture = Gesture::None;
  QPointF mPressPosition;
  QPointF mCurrentPosition;
  KeyRef mGrabbedKey;
  double mGrabbedValue = 0.0;
  int mGrabbedEulerAxis = -1;
  HandleHit mGrabbedHandle;
  std::vector<KeyRef> mSelectionBeforeBox;
  std::pair<double, double> mPanStartTime;
  std::pair<double, double> mPanStartValue;
  Qt::KeyboardModifiers mPanModifiers;
  double mPanGrabbedTime = 0.0;  // seconds, under the mouse when the pan started
};

}  // namespace articula::ui
