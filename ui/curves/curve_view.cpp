// qcustomplot.h 2.1 uses `foreach` in inline code; this is the only file that includes it,
// so Qt's foreach is allowed here alone (see curve_view.h). Nothing below uses it.
#undef QT_NO_FOREACH
#include "ui/curves/curve_view.h"

#include <qcustomplot.h>
#include <QAction>
#include <QContextMenuEvent>
#include <QMenu>
#include <QMouseEvent>
#include <QPainter>
#include <QVBoxLayout>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>
#include <numbers>

#include "core/math/euler.h"
#include "ui/curves/curve_edits.h"
#include "ui/curves/euler_curve.h"
#include "ui/document/document.h"

namespace articula::ui {

namespace {

constexpr double kHitRadius = 6.0;         // pixels around a key or handle that still hit it
constexpr double kStrideSnapPixels = 8.0;  // stride keys this close to 0 or 1 snap onto it
constexpr double kRadToDeg = 180.0 / std::numbers::pi;

QColor entryColour(const KeyChannel& channel, int eulerAxis, int curveIndex) {
  static const QColor kAxes[] = {QColor(235, 90, 90), QColor(110, 205, 95), QColor(90, 150, 240)};
  static const QColor kCurves[] = {QColor(255, 170, 50), QColor(70, 210, 220), QColor(215, 120, 230),
                                   QColor(230, 220, 90)};
  switch (channel.kind) {
    case KeyChannel::Kind::Translation:
      return kAxes[std::clamp(channel.component, 0, 2)];
    case KeyChannel::Kind::Rotation:
      return kAxes[std::clamp(eulerAxis, 0, 2)].lighter(125);
    case KeyChannel::Kind::Scale:
      return kAxes[std::clamp(channel.component, 0, 2)].darker(130);
    case KeyChannel::Kind::Curve:
      break;
  }
  return kCurves[curveIndex % 4];
}

// Within a colour family: translation solid, rotation dashed, scale dotted; named curves
// (the two stride curves) alternate styles as well as colours.
Qt::PenStyle entryStyle(const KeyChannel& channel, int curveIndex) {
  static const Qt::PenStyle kCurves[] = {Qt::SolidLine, Qt::DashLine, Qt::DashDotLine, Qt::DotLine};
  switch (channel.kind) {
    case KeyChannel::Kind::Translation:
      return Qt::SolidLine;
    case KeyChannel::Kind::Rotation:
      return Qt::DashLine;
    case KeyChannel::Kind::Scale:
      return Qt::DotLine;
    case KeyChannel::Kind::Curve:
      break;
  }
  return kCurves[curveIndex % 4];
}

RotationOrder rotationOrderOf(const Scene& scene, int joint) {
  const auto index = static_cast<std::size_t>(joint);
  return index < scene.rotationOrders.size() ? scene.rotationOrders[index] : RotationOrder::XYZ;
}

// Curves of the active rig's handles ("ik.<handle>.target.x", ...) belong to their handle:
// shown while it is selected, as a joint's channels are while the joint is; every other
// curve (stride curves, curves of handles no rig has) always.
bool showsCurve(const Document& document, const std::string& curve) {
  const RigDefinition* rig = document.activeRig();
  if (!rig) return true;
  for (int handle = 0; handle < static_cast<int>(rig->handles.size()); ++handle) {
    const IkHandle& ik = rig->handles[static_cast<std::size_t>(handle)];
    if (curve.starts_with(handleCurveName(ik.name, ""))) return handle == document.selectedHandle();
  }
  return true;
}

// The legend's text for `curve`: the selected handle's curves without their "ik.<handle>."
// prefix (Properties names the handle), so eight of them leave the plot most of the view.
QString legendText(const Document& document, const QString& curve) {
  const IkHandle* selected = document.activeHandle(document.selectedHandle());
  if (!selected) return curve;
  const QString prefix = QString::fromStdString(handleCurveName(selected->name, ""));
  return curve.startsWith(prefix) ? curve.mid(prefix.size()) : curve;
}

// Time-axis ticks on whole frames counted from the clip's start, labelled with frame numbers
// as the ruler and dope sheet are (steps of 1, 2, 5, 10, 20, 50, … frames); the plot's
// coordinates stay seconds.
class FrameTicker : public QCPAxisTicker {
 public:
  void setClip(double originTime, double framesPerSecond) {
    mOriginTime = originTime;
    mFramesPerSecond = framesPerSecond > 0.0 ? framesPerSecond : 30.0;
  }

 protected:
  double getTickStep(const QCPRange& range) override {
    const double framesPerTick = range.size() * mFramesPerSecond / std::max(1, tickCount());
    double stepFrames = 1.0;
    for (int i = 0; stepFrames < framesPerTick && i < 60; ++i) stepFrames *= i % 3 == 1 ? 2.5 : 2.0;
    return stepFrames / mFramesPerSecond;
  }
  int getSubTickCount(double tickStep) override {
    const long long stepFrames = std::llround(tickStep * mFramesPerSecond);
    return stepFrames <= 1 ? 0 : stepFrames == 2 ? 1 : 4;
  }
  QString getTickLabel(double tick, const QLocale&, QChar, int) override {
    return QString::number(std::llround((tick - mOriginTime) * mFramesPerSecond));
  }
  QVector<double> createTickVector(double tickStep, const QCPRange& range) override {
    QVector<double> ticks;
    const double first = std::floor((range.lower - mOriginTime) / tickStep);
    const double last = std::ceil((range.upper - mOriginTime) / tickStep);
    if (!std::isfinite(first) || !std::isfinite(last) || last - first > 1000.0) return ticks;
    for (double k = first; k <= last; ++k) ticks.push_back(mOriginTime + k * tickStep);
    return ticks;
  }

 private:
  double mOriginTime = 0.0;
  double mFramesPerSecond = 30.0;
};

}  // namespace

// The QCustomPlot the view draws into; its input and paint go back to the view.
class CurvePlot : public QCustomPlot {
 public:
  CurvePlot(CurveView* view) : QCustomPlot(view), mView(view) {}

 protected:
  void paintEvent(QPaintEvent* event) override {
    QCustomPlot::paintEvent(event);
    QPainter painter(this);
    mView->paintOverlay(painter);
  }
  void mousePressEvent(QMouseEvent* event) override { mView->plotMousePress(event); }
  void mouseMoveEvent(QMouseEvent* event) override { mView->plotMouseMove(event); }
  void mouseReleaseEvent(QMouseEvent* event) override { mView->plotMouseRelease(event); }
  void mouseDoubleClickEvent(QMouseEvent* event) override { event->accept(); }
  void wheelEvent(QWheelEvent* event) override { mView->plotWheel(event); }
  void contextMenuEvent(QContextMenuEvent* event) override { mView->plotContextMenu(event); }
  void resizeEvent(QResizeEvent* event) override {
    QCustomPlot::resizeEvent(event);
    mView->updateAxis();
  }

 private:
  CurveView* const mView;
};

CurveView::CurveView(Document* document, QWidget* parent)
    : QWidget(parent), KeyView(document), mDocument(document), mPlot(new CurvePlot(this)) {
  setObjectName(QStringLiteral("CurveView"));
  mPlot->setObjectName(QStringLiteral("CurvePlot"));
  setFocusPolicy(Qt::ClickFocus);
  mPlot->setFocusProxy(this);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(mPlot);
  mPlot->setBackground(QColor(38, 38, 41));
  mPlot->axisRect()->setBackground(QColor(44, 44, 48));
  for (QCPAxis* axis : {mPlot->xAxis, mPlot->yAxis}) {
    axis->setBasePen(QPen(QColor(120, 120, 126)));
    axis->setTickPen(QPen(QColor(120, 120, 126)));
    axis->setSubTickPen(QPen(QColor(90, 90, 96)));
    axis->setTickLabelColor(QColor(185, 185, 190));
    axis->setLabelColor(QColor(185, 185, 190));
    axis->grid()->setPen(QPen(QColor(62, 62, 68), 1, Qt::DotLine));
    axis->grid()->setZeroLinePen(QPen(QColor(95, 95, 102)));
  }
  mPlot->legend->setVisible(true);
  mPlot->legend->setBrush(QColor(30, 30, 33, 210));
  mPlot->legend->setTextColor(QColor(215, 215, 220));
  mPlot->legend->setBorderPen(QPen(QColor(80, 80, 86)));
  QFont legendFont = font();
  legendFont.setPointSizeF(legendFont.pointSizeF() * 0.85);
  mPlot->legend->setFont(legendFont);
  // The legend in its own column right of the plot, so it never hides a curve.
  // Its column holds the legend at the top and an empty element that takes the rest.
  mPlot->axisRect()->insetLayout()->take(mPlot->legend);
  auto* side = new QCPLayoutGrid;
  mPlot->plotLayout()->addElement(0, 1, side);
  mPlot->plotLayout()->setColumnStretchFactor(1, 0.001);
  side->addElement(0, 0, mPlot->legend);
  side->addElement(1, 0, new QCPLayoutElement(mPlot));
  side->setRowStretchFactor(0, 0.001);
  mPlot->legend->setMargins(QMargins(4, 2, 4, 2));
  mPlot->legend->setRowSpacing(0);
  // Zoom and pan are ours (middle button pans; the left button edits keys).
  mPlot->setInteractions(QCP::Interactions());
  connect(mPlot, &QCustomPlot::afterReplot, this, &CurveView::updateAxis);
  createActions();
  setContextMenuPolicy(Qt::DefaultContextMenu);
  updateTimeTicker();

  rebuildEntries();
  frameAll();
  connect(mDocument, &Document::changed, this, &CurveView::documentChanged);
}

void CurveView::createActions() {
  const struct {
    QString text;
    QKeySequence key;
    std::function<void()> run;
    const char* name;
  } actions[] = {
      {tr("Constant"), QKeySequence(Qt::CTRL | Qt::Key_1),
       [this] { setSelectedInterpolation(Interpolation::Constant); }, "actionInterpolationConstant"},
      {tr("Linear"), QKeySequence(Qt::CTRL | Qt::Key_2), [this] { setSelectedInterpolation(Interpolation::Linear); },
       "actionInterpolationLinear"},
      {tr("Bézier"), QKeySequence(Qt::CTRL | Qt::Key_3), [this] { setSelectedInterpolation(Interpolation::Bezier); },
       "actionInterpolationBezier"},
      {tr("Free"), QKeySequence(Qt::ALT | Qt::Key_1), [this] { setSelectedHandleType(HandleType::Free); },
       "actionHandleFree"},
      {tr("Aligned"), QKeySequence(Qt::ALT | Qt::Key_2), [this] { setSelectedHandleType(HandleType::Aligned); },
       "actionHandleAligned"},
      {tr("Vector"), QKeySequence(Qt::ALT | Qt::Key_3), [this] { setSelectedHandleType(HandleType::Vector); },
       "actionHandleVector"},
      {tr("Auto"), QKeySequence(Qt::ALT | Qt::Key_4), [this] { setSelectedHandleType(HandleType::Auto); },
       "actionHandleAuto"},
      {tr("Auto Clamped"), QKeySequence(Qt::ALT | Qt::Key_5),
       [this] { setSelectedHandleType(HandleType::AutoClamped); }, "actionHandleAutoClamped"},
      {tr("Delete Keys"), QKeySequence::Delete, [this] { deleteSelectedKeys(); }, "actionDeleteKeys"},
      {tr("Copy Keys"), QKeySequence::Copy, [this] { copySelectedKeys(); }, "actionCopyKeys"},
      {tr("Paste Keys"), QKeySequence::Paste, [this] { pasteKeys(); }, "actionPasteKeys"},
      {tr("Frame All"), QKeySequence(Qt::Key_A), [this] { frameAll(); }, "actionCurvesFrameAll"},
      {tr("Frame Selected"), QKeySequence(Qt::Key_F), [this] { frameSelected(); }, "actionCurvesFrameSelected"},
  };
  for (const auto& entry : actions) {
    auto* action = new QAction(entry.text, this);
    action->setObjectName(QLatin1String(entry.name));
    action->setShortcut(entry.key);
    action->setShortcutContext(Qt::WidgetShortcut);
    connect(action, &QAction::triggered, this, entry.run);
    addAction(action);
  }
  // Frames by default, as the ruler and the dope sheet count; the window remembers it.
  mTimeInSecondsAction = new QAction(tr("Curve Editor Time in &Seconds"), this);
  mTimeInSecondsAction->setObjectName(QStringLiteral("actionCurvesTimeInSeconds"));
  mTimeInSecondsAction->setCheckable(true);
  connect(mTimeInSecondsAction, &QAction::toggled, this, [this] {
    updateTimeTicker();
    mPlot->replot();
  });
}

bool CurveView::timeInSeconds() const { return mTimeInSecondsAction->isChecked(); }

void CurveView::updateTimeTicker() {
  if (timeInSeconds()) {
    mPlot->xAxis->setTicker(QSharedPointer<QCPAxisTicker>::create());
    mPlot->xAxis->setLabel(tr("time (s)"));
    return;
  }
  const Clip* clip = mDocument->editedKeys();
  auto ticker = QSharedPointer<FrameTicker>::create();
  ticker->setClip(clip ? clip->startTime : 0.0, clip ? clip->frameRate : 30.0);
  mPlot->xAxis->setTicker(ticker);
  mPlot->xAxis->setLabel(tr("frame"));
}

std::vector<QString> CurveView::timeLabels() const {
  const QVector<QString> labels = mPlot->xAxis->tickVectorLabels();
  return {labels.begin(), labels.end()};
}

CurveView::~CurveView() = default;

QWidget* CurveView::plotWidget() const { return mPlot; }
std::pair<double, double> CurveView::timeRange() const {
  return {mPlot->xAxis->range().lower, mPlot->xAxis->range().upper};
}
std::pair<double, double> CurveView::valueRange() const {
  return {mPlot->yAxis->range().lower, mPlot->yAxis->range().upper};
}

const CurveView::Entry* CurveView::findEntry(const QString& name) const {
  for (const Entry& entry : mEntries) {
    if (entry.name == name) return &entry;
  }
  return nullptr;
}

std::vector<const CurveView::Entry*> CurveView::entriesOf(const KeyChannel& channel) const {
  std::vector<const Entry*> found;
  for (const Entry& entry : mEntries) {
    if (entry.channel == channel) found.push_back(&entry);
  }
  return found;
}

void CurveView::documentChanged(const ChangeEvent& event) {
  switch (event.type) {
    case ChangeEvent::Type::SceneReplaced:
    case ChangeEvent::Type::CurrentClipChanged:
      setSelectedKeys({});
      updateTimeTicker();
      rebuildEntries();
      frameAll();
      break;
    case ChangeEvent::Type::SelectionChanged:
      rebuildEntries();
      frameAll();
      break;
    case ChangeEvent::Type::ClipEdited:
    case ChangeEvent::Type::JointRenamed:
      rebuildKeepingTheUsersView();
      break;
    case ChangeEvent::Type::TimeChanged:
      mPlot->update();
      break;
    case ChangeEvent::Type::RigChanged:  // handles (which own their curves) came or went
      rebuildKeepingTheUsersView();
      break;
    case ChangeEvent::Type::HandleEdited:  // a rename gives its curves another prefix
      if (event.handle == mDocument->selectedHandle()) rebuildKeepingTheUsersView();
      break;
    case ChangeEvent::Type::ActiveLayerChanged:  // other keys: the layer's, or the base's
      setSelectedKeys({});
      rebuildEntries();
      frameAll();
      break;
    case ChangeEvent::Type::PoseEdited:
    case ChangeEvent::Type::RigEnabledChanged:
    case ChangeEvent::Type::RolesChanged:
      break;
  }
}

// The user's zoom stays while they edit the curves shown. When other curves come (a key
// pose gives the selected joint its first rotation keys: degrees on the 0..1 axis of the
// stride curves) or go, or an edit from elsewhere takes the curves out of a view that showed
// all their values, the values are framed again; the time range stays where it is.
void CurveView::rebuildKeepingTheUsersView() {
  std::vector<std::pair<KeyChannel, int>> shownBefore;
  for (const Entry& entry : mEntries) shownBefore.emplace_back(entry.channel, entry.eulerAxis);
  const bool showedAllValues = showsAllValues();
  rebuildEntries();
  std::vector<std::pair<KeyChannel, int>> shown;
  for (const Entry& entry : mEntries) shown.emplace_back(entry.channel, entry.eulerAxis);
  const bool dragging = mGesture == Gesture::MoveKeys || mGesture == Gesture::MoveHandle;
  if (shown != shownBefore || (showedAllValues && !showsAllValues() && !dragging)) {
    const auto [t0, t1] = timeRange();
    frameAll();
    mPlot->xAxis->setRange(t0, t1);
  }
  mPlot->replot();
}

std::optional<std::pair<double, double>> CurveView::valueExtent() const {
  const Clip* clip = mDocument->editedKeys();
  if (!clip) return std::nullopt;
  double v0 = std::numeric_limits<double>::max();
  double v1 = std::numeric_limits<double>::lowest();
  for (const Entry& entry : mEntries) {
    if (!isEntryShown(entry)) continue;
    for (const QCPGraphData& sample : *entry.graph->data()) {
      if (sample.key < clip->startTime || sample.key > clip->endTime) continue;
      v0 = std::min(v0, sample.value);
      v1 = std::max(v1, sample.value);
    }
  }
  if (v0 > v1) return std::nullopt;
  return std::pair{v0, v1};
}

bool CurveView::showsAllValues() const {
  const std::optional<std::pair<double, double>> extent = valueExtent();
  const QCPRange range = mPlot->yAxis->range();
  return !extent || (range.contains(extent->first) && range.contains(extent->second));
}

void CurveView::rebuildEntries() {
  mPlot->clearGraphs();
  mEntries.clear();
  const Clip* clip = mDocument->editedKeys();
  if (!clip) return;
  const Scene& scene = mDocument->scene();
  int curveIndex = 0;
  for (const KeyChannel& channel : curveChannels(*clip)) {
    if (!showsCurve(*mDocument, channel.curve)) continue;
    mEntries.push_back({channel, -1, QString::fromStdString(channel.curve), entryColour(channel, -1, curveIndex),
                        entryStyle(channel, curveIndex)});
    ++curveIndex;
  }
  static const char* kEulerNames[] = {".rotation.x", ".rotation.y", ".rotation.z"};
  for (int joint : mDocument->selectedJoints()) {
    for (const KeyChannel& channel : keyedJointChannels(*clip, joint)) {
      if (channel.kind == KeyChannel::Kind::Rotation) {
        for (int axis = 0; axis < 3; ++axis) {
          mEntries.push_back({channel, axis,
                              QString::fromStdString(scene.skeleton.name(joint)) + QLatin1String(kEulerNames[axis]) +
                                  QStringLiteral(" (°)"),
                              entryColour(channel, axis, 0), entryStyle(channel, 0)});
        }
      } else {
        mEntries.push_back({channel, -1, QString::fromStdString(channelName(channel, scene.skeleton)),
                            entryColour(channel, -1, 0), entryStyle(channel, 0)});
      }
    }
  }
  for (Entry& entry : mEntries) {
    entry.graph = mPlot->addGraph();
    entry.graph->setName(legendText(*mDocument, entry.name));
    entry.graph->setPen(QPen(entry.colour, 1.6, entry.style));
    entry.graph->setAdaptiveSampling(true);
  }
  if (!findEntry(mIsolatedEntry)) mIsolatedEntry.clear();
  applyIsolation();
  updateCurveData();
}

bool CurveView::isEntryShown(const Entry& entry) const {
  return mIsolatedEntry.isEmpty() || entry.name == mIsolatedEntry;
}

void CurveView::isolateEntry(const QString& name) {
  mIsolatedEntry = name == mIsolatedEntry || !findEntry(name) ? QString() : name;
  applyIsolation();
  // Keys of hidden curves cannot be picked, so they do not stay selected either.
  std::vector<KeyRef> shown;
  for (const KeyRef& key : selectedKeys()) {
    const std::vector<const Entry*> entries = entriesOf(key.channel);
    if (std::any_of(entries.begin(), entries.end(), [this](const Entry* entry) { return isEntryShown(*entry); }))
      shown.push_back(key);
  }
  if (shown.size() != selectedKeys().size()) setSelectedKeys(std::move(shown));
  mPlot->replot();
}

void CurveView::applyIsolation() {
  for (Entry& entry : mEntries) {
    const bool shown = isEntryShown(entry);
    entry.graph->setVisible(shown);
    // The hidden curves keep their legend rows, greyed, to be clicked back.
    if (QCPAbstractLegendItem* item = mPlot->legend->itemWithPlottable(entry.graph))
      item->setTextColor(shown ? QColor(215, 215, 220) : QColor(110, 110, 116));
  }
}

const CurveView::Entry* CurveView::legendEntryAt(const QPointF& position) const {
  for (const Entry& entry : mEntries) {
    if (legendRect(entry.name).contains(position)) return &entry;
  }
  return nullptr;
}

QRectF CurveView::legendRect(const QString& name) const {
  const Entry* entry = findEntry(name);
  if (!entry || !mPlot->legend->visible()) return {};
  const QCPAbstractLegendItem* item = mPlot->legend->itemWithPlottable(entry->graph);
  return item ? QRectF(item->outerRect()) : QRectF();
}

void CurveView::updateCurveData() {
  const Clip* clip = mDocument->editedKeys();
  if (!clip) return;
  // Sampled over the clip's range, a second beyond each end (the curves hold their end
  // values there), several samples per frame so Bézier shapes and constant steps show.
  const double rate = clip->frameRate > 0.0 ? clip->frameRate : 30.0;
  const double start = clip->startTime - 1.0;
  const double end = clip->endTime + 1.0;
  const auto sampleCount = static_cast<int>(std::min(20000.0, std::ceil((end - start) * rate * kCurveSamplesPerFrame)));
  const Scene& scene = mDocument->scene();
  // A rotation's three Euler curves come from one filtered conversion, done for the first
  // of them (the conversion dominates a long clip's update).
  EulerCurve euler;
  std::optional<KeyChannel> eulerChannel;
  for (Entry& entry : mEntries) {
    QVector<QCPGraphData> samples;
    if (const Curve* curve = findCurve(*clip, entry.channel)) {
      samples.reserve(sampleCount + 1);
      CurveCursor cursor;
      for (int i = 0; i <= sampleCount; ++i) {
        const double t = start + (end - start) * i / sampleCount;
        samples.push_back({t, curve->evaluate(t, cursor)});
      }
    } else if (const RotationTrack* rotation = findRotation(*clip, entry.channel)) {
      if (eulerChannel != entry.channel) {
        euler = filteredEulerCurve(*clip, *rotation, rotationOrderOf(scene, entry.channel.joint));
        eulerChannel = entry.channel;
      }
      samples.reserve(static_cast<int>(euler.times.size()));
      for (std::size_t i = 0; i < euler.times.size(); ++i)
        samples.push_back({euler.times[i], euler.anglesRad[i][entry.eulerAxis] * kRadToDeg});
    }
    entry.graph->data()->set(samples, true);
  }
}

std::optional<double> CurveView::keyValue(const Entry& entry, double time) const {
  const Clip* clip = mDocument->editedKeys();
  if (!clip) return std::nullopt;
  if (const Curve* curve = findCurve(*clip, entry.channel)) {
    for (const CurveKey& key : curve->keys()) {
      if (sameKeyTime(key.time, time)) return key.value;
    }
    return std::nullopt;
  }
  // Rotation keys: the plotted (filtered) Euler angle at the key's time, sampled there.
  const auto plotted = entry.graph->data();
  if (plotted->isEmpty()) return std::nullopt;
  auto sample = plotted->findBegin(time, false);
  if (sample == plotted->constEnd()) --sample;
  return sample->value;
}

QPointF CurveView::toPixel(double time, double value) const {
  return {mPlot->xAxis->coordToPixel(time), mPlot->yAxis->coordToPixel(value)};
}

std::optional<double> CurveView::plottedKeyValue(const KeyRef& key, int eulerAxis) const {
  for (const Entry* entry : entriesOf(key.channel)) {
    if (entry->eulerAxis != eulerAxis && !(eulerAxis < 0 && entry->eulerAxis == 0)) continue;
    if (const std::optional<double> value = keyValue(*entry, key.time)) return value;
  }
  return std::nullopt;
}

std::optional<QPointF> CurveView::keyPixel(const KeyRef& key, int eulerAxis) const {
  const std::optional<double> value = plottedKeyValue(key, eulerAxis);
  return value ? std::optional<QPointF>(toPixel(key.time, *value)) : std::nullopt;
}

std::optional<QPointF> CurveView::handlePixel(const KeyRef& key, bool right) const {
  const Clip* clip = mDocument->editedKeys();
  const Curve* curve = clip ? findCurve(*clip, key.channel) : nullptr;
  const std::vector<const Entry*> entries = entriesOf(key.channel);
  if (!curve || entries.empty() || !isEntryShown(*entries.front())) return std::nullopt;
  for (std::size_t index = 0; index < curve->keys().size(); ++index) {
    const CurveKey& curveKey = curve->keys()[index];
    if (!sameKeyTime(curveKey.time, key.time)) continue;
    // A step or linear segment ignores its handles: none drawn, none to grab.
    if (!handleShapesCurve(*curve, index, right)) return std::nullopt;
    const Vec2d& handle = right ? curveKey.right : curveKey.left;
    return toPixel(handle.x(), handle.y());
  }
  return std::nullopt;
}

std::optional<std::pair<KeyRef, double>> CurveView::nearestKey(const QPointF& position) const {
  const Clip* clip = mDocument->editedKeys();
  if (!clip) return std::nullopt;
  std::optional<KeyRef> best;
  double bestDistance = kHitRadius;
  for (const Entry& entry : mEntries) {
    if (!isEntryShown(entry)) continue;
    for (double time : keyTimes(*clip, entry.channel)) {
      const std::optional<double> value = keyValue(entry, time);
      if (!value) continue;
      const double distance = QLineF(toPixel(time, *value), position).length();
      if (distance <= bestDistance) {
        bestDistance = distance;
        best = KeyRef{entry.channel, time};
      }
    }
  }
  if (!best) return std::nullopt;
  return std::pair{*best, bestDistance};
}

std::vector<KeyRef> CurveView::keysAt(const QPointF& position) const {
  const std::optional<std::pair<KeyRef, double>> nearest = nearestKey(position);
  return nearest ? std::vector<KeyRef>{nearest->first} : std::vector<KeyRef>{};
}

std::vector<KeyRef> CurveView::keysInside(const QRectF& rect) const {
  const Clip* clip = mDocument->editedKeys();
  std::vector<KeyRef> keys;
  if (!clip) return keys;
  for (const Entry& entry : mEntries) {
    if (!isEntryShown(entry)) continue;
    for (double time : keyTimes(*clip, entry.channel)) {
      const std::optional<double> value = keyValue(entry, time);
      if (value && rect.contains(toPixel(time, *value))) keys.push_back({entry.channel, time});
    }
  }
  return keys;
}

// At the default zoom a short handle ends a few pixels from its key, drawn over it: the
// handle is grabbed only nearer its end point than any key, so a click on a key is the key.
std::optional<CurveView::HandleHit> CurveView::handleAt(const QPointF& position) const {
  std::optional<HandleHit> best;
  double bestDistance = kHitRadius;
  for (const KeyRef& key : selectedKeys()) {
    for (bool right : {false, true}) {
      const std::optional<QPointF> pixel = handlePixel(key, right);
      if (!pixel) continue;
      const double distance = QLineF(*pixel, position).length();
      if (distance <= bestDistance) {
        bestDistance = distance;
        best = HandleHit{key, right};
      }
    }
  }
  const std::optional<std::pair<KeyRef, double>> key = nearestKey(position);
  if (key && key->second <= bestDistance) return std::nullopt;
  return best;
}

void CurveView::keySelectionChanged() { mPlot->update(); }

void CurveView::showRefusal(const QString& line) { showStatusLine(this, line); }

void CurveView::updateAxis() {
  const Clip* clip = mDocument->editedKeys();
  mAxis.setFrameRate(clip ? clip->frameRate : 30.0);
  mAxis.setOrigin(clip ? clip->startTime : 0.0);
  mAxis.setRange(mPlot->xAxis->range().lower, mPlot->xAxis->range().upper);
  mAxis.setPixelSpan(mPlot->axisRect()->left(), mPlot->axisRect()->right());
}

void CurveView::frameRect(double t0, double t1, double v0, double v1) {
  if (t1 - t0 < 1e-6) {
    t0 -= 0.5;
    t1 += 0.5;
  }
  if (v1 - v0 < 1e-6) {
    const double pad = std::max(0.1, std::abs(v0) * 0.1);
    v0 -= pad;
    v1 += pad;
  }
  const double timePad = (t1 - t0) * 0.04;
  const double valuePad = (v1 - v0) * 0.08;
  mPlot->xAxis->setRange(t0 - timePad, t1 + timePad);
  mPlot->yAxis->setRange(v0 - valuePad, v1 + valuePad);
  mPlot->replot();
}

void CurveView::frameAll() {
  const Clip* clip = mDocument->editedKeys();
  if (!clip || mEntries.empty()) {
    frameRect(clip ? clip->startTime : 0.0, clip ? clip->endTime : 1.0, 0.0, 1.0);
    return;
  }
  const auto [v0, v1] = valueExtent().value_or(std::pair{0.0, 0.0});
  frameRect(clip->startTime, clip->endTime, v0, v1);
}

void CurveView::frameSelected() {
  if (selectedKeys().empty()) return frameAll();
  double t0 = std::numeric_limits<double>::max(), t1 = std::numeric_limits<double>::lowest();
  double v0 = t0, v1 = t1;
  for (const KeyRef& key : selectedKeys()) {
    for (const Entry* entry : entriesOf(key.channel)) {
      const std::optional<double> value = keyValue(*entry, key.time);
      if (!value) continue;
      t0 = std::min(t0, key.time);
      t1 = std::max(t1, key.time);
      v0 = std::min(v0, *value);
      v1 = std::max(v1, *value);
    }
  }
  if (t0 > t1) return frameAll();
  frameRect(t0, t1, v0, v1);
}

void CurveView::setSelectedInterpolation(Interpolation interpolation) {
  const Clip* clip = mDocument->editedKeys();
  if (!clip || selectedKeys().empty()) return;
  pushEditedKeys(withInterpolation(*clip, selectedKeys(), interpolation), tr("Set Interpolation"));
}

void CurveView::setSelectedHandleType(HandleType type) {
  const Clip* clip = mDocument->editedKeys();
  if (!clip || selectedKeys().empty()) return;
  pushEditedKeys(withHandleType(*clip, selectedKeys(), type), tr("Set Handle Type"));
}

void CurveView::addKeyAt(const QPointF& position) {
  const Clip* clip = mDocument->editedKeys();
  if (!clip) return;
  // The whole frame of the clip nearest the mouse (frames count from the clip's start, not
  // from the left edge of the plot).
  const double mouseTime = mPlot->xAxis->pixelToCoord(position.x());
  const double time = clip->timeOf(static_cast<int>(std::lround((mouseTime - clip->startTime) * clip->frameRate)));
  const Entry* nearest = nullptr;
  double nearestDistance = std::numeric_limits<double>::max();
  for (const Entry& entry : mEntries) {
    const Curve* curve = findCurve(*clip, entry.channel);
    // Rotations are keyed from the viewport (Key Pose); hidden curves take no keys.
    if (!curve || !isEntryShown(entry)) continue;
    const double distance = std::abs(mPlot->yAxis->coordToPixel(curve->evaluate(time)) - position.y());
    if (distance < nearestDistance) {
      nearestDistance = distance;
      nearest = &entry;
    }
  }
  if (!nearest) return;
  double value = mPlot->yAxis->pixelToCoord(position.y());
  if (isStrideCurve(nearest->channel)) {
    value = snappedStrideValue(value,
                               std::abs(mPlot->yAxis->pixelToCoord(0) - mPlot->yAxis->pixelToCoord(kStrideSnapPixels)));
  }
  const KeyChannel channel = nearest->channel;
  if (refusedAsLocked()) return;
  pushEditedKeys(withKeyAdded(*clip, channel, time, value), tr("Add Key"));
  setSelectedKeys({{channel, time}});
}

bool CurveView::event(QEvent* event) { return routeViewShortcuts(this, event) || QWidget::event(event); }

void CurveView::paintOverlay(QPainter& painter) {
  const Clip* clip = mDocument->editedKeys();
  if (!clip) return;
  painter.setClipRect(mPlot->axisRect()->rect());
  painter.setRenderHint(QPainter::Antialiasing, true);
  // Playhead.
  const double playheadX = mPlot->xAxis->coordToPixel(mDocument->time());
  painter.setPen(QPen(QColor(86, 156, 255), 2.0));
  painter.drawLine(QPointF(playheadX, mPlot->axisRect()->top()), QPointF(playheadX, mPlot->axisRect()->bottom()));
  // Handles of the selected Bézier keys, then every key.
  for (const KeyRef& key : selectedKeys()) {
    const std::optional<QPointF> centre = keyPixel(key);
    if (!centre || !findCurve(*clip, key.channel)) continue;
    for (bool right : {false, true}) {
      const std::optional<QPointF> handle = handlePixel(key, right);
      if (!handle) continue;
      painter.setPen(QPen(QColor(230, 230, 235, 200), 1.0));
      painter.drawLine(*centre, *handle);
      painter.setBrush(QColor(40, 40, 44));
      painter.drawEllipse(*handle, 3.5, 3.5);
    }
  }
  for (const Entry& entry : mEntries) {
    if (!isEntryShown(entry)) continue;
    for (double time : keyTimes(*clip, entry.channel)) {
      const std::optional<double> value = keyValue(entry, time);
      if (!value) continue;
      const bool selected = isKeySelected({entry.channel, time});
      painter.setPen(QPen(QColor(20, 20, 22), 1.0));
      painter.setBrush(selected ? QColor(255, 170, 60) : entry.colour.lighter(115));
      const QPointF centre = toPixel(time, *value);
      const double half = selected ? 4.0 : 3.0;
      painter.drawRect(QRectF(centre.x() - half, centre.y() - half, 2 * half, 2 * half));
    }
  }
  if (mGesture == Gesture::BoxSelect) {
    painter.setPen(QPen(QColor(255, 255, 255, 160), 1.0, Qt::DashLine));
    painter.setBrush(QColor(255, 255, 255, 30));
    painter.drawRect(QRectF(mPressPosition, mCurrentPosition).normalized());
  }
}

void CurveView::plotMousePress(QMouseEvent* event) {
  mPressPosition = event->position();
  mCurrentPosition = mPressPosition;
  if (event->button() == Qt::MiddleButton) {
    mGesture = Gesture::Pan;
    mPanStartTime = timeRange();
    mPanStartValue = valueRange();
    mPanModifiers = event->modifiers();
    mPanGrabbedTime = mPlot->xAxis->pixelToCoord(mPressPosition.x());
    return;
  }
  if (event->button() != Qt::LeftButton) return;
  if (const Entry* entry = legendEntryAt(mPressPosition)) {
    isolateEntry(entry->name);
    return;
  }
  if (event->modifiers() & Qt::ControlModifier) {
    addKeyAt(mPressPosition);
    return;
  }
  if (const std::optional<HandleHit> handle = handleAt(mPressPosition)) {
    mGesture = Gesture::MoveHandle;
    mGrabbedHandle = *handle;
    beginKeyDrag(std::span<const KeyChannel>(&mGrabbedHandle.key.channel, 1));
    return;
  }
  const bool extend = event->modifiers() & Qt::ShiftModifier;
  const std::vector<KeyRef> hit = keysAt(mPressPosition);
  if (hit.empty()) {
    mGesture = Gesture::BoxSelect;
    mSelectionBeforeBox = extend ? selectedKeys() : std::vector<KeyRef>{};
    if (!extend) setSelectedKeys({});
    return;
  }
  if (extend) {
    std::vector<KeyRef> keys = selectedKeys();
    if (isKeySelected(hit.front())) {
      std::erase(keys, hit.front());
    } else {
      keys.push_back(hit.front());
    }
    setSelectedKeys(std::move(keys));
    return;
  }
  if (!isKeySelected(hit.front())) setSelectedKeys(hit);
  mGesture = Gesture::MoveKeys;
  mGrabbedKey = hit.front();
  mGrabbedValue = mPlot->yAxis->pixelToCoord(keyPixel(mGrabbedKey).value_or(mPressPosition).y());
  // A rotation key is drawn on three curves: the one under the mouse is the angle dragged.
  mGrabbedEulerAxis = mGrabbedKey.channel.kind == KeyChannel::Kind::Rotation ? 0 : -1;
  for (const Entry* entry : entriesOf(mGrabbedKey.channel)) {
    if (!isEntryShown(*entry)) continue;
    if (const std::optional<double> value = keyValue(*entry, mGrabbedKey.time);
        value && std::abs(mPlot->yAxis->coordToPixel(*value) - mPressPosition.y()) <= kHitRadius) {
      mGrabbedValue = *value;
      mGrabbedEulerAxis = entry->eulerAxis;
    }
  }
  beginKeyDrag();
}

void CurveView::plotMouseMove(QMouseEvent* event) {
  mCurrentPosition = event->position();
  const Clip* start = dragStartPart();
  switch (mGesture) {
    case Gesture::MoveKeys: {
      if (!start) return;
      const double rawOffset =
          mPlot->xAxis->pixelToCoord(mCurrentPosition.x()) - mPlot->xAxis->pixelToCoord(mPressPosition.x());
      const double offsetSeconds = frameSnappedOffset(*start, mGrabbedKey.time, rawOffset);
      double newValue = mGrabbedValue + mPlot->yAxis->pixelToCoord(mCurrentPosition.y()) -
                        mPlot->yAxis->pixelToCoord(mPressPosition.y());
      if (isStrideCurve(mGrabbedKey.channel)) {
        newValue = snappedStrideValue(
            newValue, std::abs(mPlot->yAxis->pixelToCoord(0) - mPlot->yAxis->pixelToCoord(kStrideSnapPixels)));
      }
      // A grabbed rotation key changes the angle it was grabbed on, in every selected
      // rotation key; a grabbed scalar key changes the scalar keys.
      const double offsetValue = newValue - mGrabbedValue;
      if (!dragHasMoved() && std::abs(offsetSeconds) <= kSameKeyTimeSeconds && offsetValue == 0.0) return;
      const std::span<const KeyRef> selection = dragStartSelection();
      if (mGrabbedEulerAxis >= 0) {
        const Clip turned =
            turnedRotationKeys(*start, selection, mGrabbedEulerAxis, offsetValue, mDocument->scene().rotationOrders);
        dragToPart(movedCurveKeys(turned, selection, offsetSeconds, 0.0), tr("Move Keys"));
      } else {
        dragToPart(movedCurveKeys(*start, selection, offsetSeconds, offsetValue), tr("Move Keys"));
      }
      if (!isDraggingKeys()) return;  // refused: a locked layer
      std::vector<KeyRef> moved = dragStartSelection();
      for (KeyRef& key : moved) key.time += offsetSeconds;
      setSelectedKeys(std::move(moved));
      break;
    }
    case Gesture::MoveHandle: {
      if (!start) return;
      const Vec2d handle(mPlot->xAxis->pixelToCoord(mCurrentPosition.x()),
                         mPlot->yAxis->pixelToCoord(mCurrentPosition.y()));
      if (std::optional<Clip> edited = movedHandle(*start, mGrabbedHandle.key, mGrabbedHandle.right, handle))
        dragToPart(std::move(*edited), tr("Move Handle"));
      break;
    }
    case Gesture::BoxSelect: {
      std::vector<KeyRef> keys = mSelectionBeforeBox;
      const std::vector<KeyRef> inside = keysInside(QRectF(mPressPosition, mCurrentPosition).normalized());
      keys.insert(keys.end(), inside.begin(), inside.end());
      setSelectedKeys(std::move(keys));
      mPlot->update();
      break;
    }
    case Gesture::Pan: {
      const double dx =
          mPlot->xAxis->pixelToCoord(mPressPosition.x()) - mPlot->xAxis->pixelToCoord(mCurrentPosition.x());
      const double dy =
          mPlot->yAxis->pixelToCoord(mPressPosition.y()) - mPlot->yAxis->pixelToCoord(mCurrentPosition.y());
      // The ranges are moved from where the pan started, so the pixel deltas stay exact.
      mPlot->xAxis->setRange(mPanStartTime.first, mPanStartTime.second);
      mPlot->yAxis->setRange(mPanStartValue.first, mPanStartValue.second);
      if (!(mPanModifiers & Qt::ShiftModifier)) mPlot->xAxis->moveRange(dx);
      if (!(mPanModifiers & Qt::ControlModifier)) mPlot->yAxis->moveRange(dy);
      mPlot->replot();
      // The grabbed time follows the mouse, or stays where it was when only values pan.
      keepTimeUnder(mPanModifiers & Qt::ShiftModifier ? mPressPosition.x() : mCurrentPosition.x(), mPanGrabbedTime);
      break;
    }
    case Gesture::None:
      break;
  }
}

void CurveView::plotMouseRelease(QMouseEvent* event) {
  if (mGesture == Gesture::MoveKeys || mGesture == Gesture::MoveHandle) endKeyDrag();
  mGesture = Gesture::None;
  mSelectionBeforeBox.clear();
  mPlot->update();
  event->accept();
}

void CurveView::plotWheel(QWheelEvent* event) {
  const double steps = event->angleDelta().y() / 120.0;
  if (steps == 0.0) return;
  const double factor = std::pow(0.85, steps);
  const QPointF at = event->position();
  const double timeUnderMouse = mPlot->xAxis->pixelToCoord(at.x());
  if (!(event->modifiers() & Qt::ShiftModifier)) mPlot->xAxis->scaleRange(factor, timeUnderMouse);
  if (!(event->modifiers() & Qt::ControlModifier)) mPlot->yAxis->scaleRange(factor, mPlot->yAxis->pixelToCoord(at.y()));
  mPlot->replot();
  keepTimeUnder(at.x(), timeUnderMouse);
  event->accept();
}

// The value axis's tick labels change width as its range changes ("0.8" → "0.75", "50" →
// "-100"), and the replot's layout moves the plot's left edge with them, which slides every
// time sideways under a mouse that did not move. Moving the time range back by what it slid
// keeps `time` under pixel `x`; that move changes no value label, so the edge stays put.
void CurveView::keepTimeUnder(double x, double time) {
  if (std::abs(mPlot->xAxis->coordToPixel(time) - x) < 0.01) return;
  mPlot->xAxis->moveRange(time - mPlot->xAxis->pixelToCoord(x));
  mPlot->replot();
}

void CurveView::plotContextMenu(QContextMenuEvent* event) {
  const std::vector<KeyRef> hit = keysAt(event->pos());
  if (!hit.empty() && !isKeySelected(hit.front())) setSelectedKeys(hit);
  QMenu menu(this);
  auto action = [this](const char* name) { return findChild<QAction*>(QLatin1String(name)); };
  QMenu* interpolation = menu.addMenu(tr("Interpolation"));
  for (const char* name : {"actionInterpolationConstant", "actionInterpolationLinear", "actionInterpolationBezier"})
    interpolation->addAction(action(name));
  QMenu* handles = menu.addMenu(tr("Handle Type"));
  for (const char* name :
       {"actionHandleFree", "actionHandleAligned", "actionHandleVector", "actionHandleAuto", "actionHandleAutoClamped"})
    handles->addAction(action(name));
  interpolation->setEnabled(!selectedKeys().empty());
  handles->setEnabled(!selectedKeys().empty());
  menu.addSeparator();
  const QPointF position = event->pos();
  menu.addAction(tr("Add Key Here"), this, [this, position] { addKeyAt(position); });
  menu.addAction(action("actionDeleteKeys"));
  menu.addAction(action("actionCopyKeys"));
  menu.addAction(action("actionPasteKeys"));
  menu.addSeparator();
  menu.addAction(action("actionCurvesFrameAll"));
  menu.addAction(action("actionCurvesFrameSelected"));
  menu.addAction(mTimeInSecondsAction);
  menu.exec(event->globalPos());
}

}  // namespace articula::ui
