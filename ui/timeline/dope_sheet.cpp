#include "ui/timeline/dope_sheet.h"

#include <QAction>
#include <QMouseEvent>
#include <QPainter>

#include <algorithm>
#include <cmath>
#include <optional>

#include "ui/document/document.h"
#include "ui/document/layer_keys.h"
#include "ui/timeline/time_axis.h"

namespace articula::ui {

namespace {

// Half the width of a diamond, and how far from its centre a click still hits it (pixels).
constexpr double kDiamondRadius = 5.0;
constexpr double kHitRadius = 6.0;
// How far the mouse may wander during a click (pixels). Less than Qt's drag distance (10):
// on a zoomed-out take three frames are ten pixels, and a box over them is no click.
constexpr double kClickSlop = 3.0;
// The summary row's band while a layer's keys are shown: they are not the base's.
const QColor kLayerSummary(92, 70, 30);

std::vector<KeyChannel> allChannels(const std::vector<DopeSheet::Row>& rows) {
  std::vector<KeyChannel> channels;
  for (const DopeSheet::Row& row : rows) {
    if (row.depth != 2) continue;
    channels.insert(channels.end(), row.channels.begin(), row.channels.end());
  }
  return channels;
}

}  // namespace

DopeSheet::DopeSheet(Document* document, const TimeAxis* axis, QWidget* parent)
    : QWidget(parent), KeyView(document), mDocument(document), mAxis(axis) {
  setObjectName(QStringLiteral("DopeSheet"));
  setFocusPolicy(Qt::ClickFocus);
  setMinimumHeight(kRowHeight * 3);

  // Widget shortcuts: they act while the dope sheet has focus, so the viewport's and the
  // curve editor's keys stay theirs.
  const struct {
    QString text;
    QKeySequence key;
    void (KeyView::*slot)();
    const char* name;
  } actions[] = {{tr("Delete Keys"), QKeySequence::Delete, &KeyView::deleteSelectedKeys, "actionDeleteKeys"},
                 {tr("Copy Keys"), QKeySequence::Copy, &KeyView::copySelectedKeys, "actionCopyKeys"},
                 {tr("Paste Keys"), QKeySequence::Paste, &KeyView::pasteKeys, "actionPasteKeys"}};
  for (const auto& entry : actions) {
    auto* action = new QAction(entry.text, this);
    action->setObjectName(QLatin1String(entry.name));
    action->setShortcut(entry.key);
    action->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    connect(action, &QAction::triggered, this, [this, slot = entry.slot] { (this->*slot)(); });
    addAction(action);
  }
  setContextMenuPolicy(Qt::ActionsContextMenu);

  rebuildRows();
  connect(mDocument, &Document::changed, this, &DopeSheet::documentChanged);
}

QSize DopeSheet::sizeHint() const { return {600, kRowHeight * std::max<int>(4, static_cast<int>(mRows.size()))}; }

void DopeSheet::documentChanged(const ChangeEvent& event) {
  switch (event.type) {
    case ChangeEvent::Type::SceneReplaced:
    case ChangeEvent::Type::CurrentClipChanged:
    case ChangeEvent::Type::ActiveLayerChanged:  // other keys: the layer's, or the base's
      setSelectedKeys({});
      rebuildRows();
      break;
    case ChangeEvent::Type::SelectionChanged:
    case ChangeEvent::Type::ClipEdited:
    case ChangeEvent::Type::JointRenamed:
    case ChangeEvent::Type::RigChanged:  // handles (which own their curves' rows) came or went
      rebuildRows();
      break;
    case ChangeEvent::Type::HandleEdited:  // a rename gives its curves another prefix: rebuild
      if (event.handle == mDocument->selectedHandle()) rebuildRows();
      break;
    case ChangeEvent::Type::TimeChanged:
    case ChangeEvent::Type::PoseEdited:
    case ChangeEvent::Type::RigEnabledChanged:
    case ChangeEvent::Type::RolesChanged:
      break;
  }
  update();
}

void DopeSheet::rebuildRows() {
  mRows.clear();
  mRowDiamonds.clear();
  const Clip* clip = mDocument->editedKeys();
  if (!clip) {
    updateGeometry();
    return;
  }
  // On a layer the summary row names it: what every diamond below belongs to.
  const int layer = mDocument->activeLayer();
  mRows.push_back({layer >= 0 ? editedKeysName(*mDocument->currentClip(), layer) : tr("Summary"), {}, 0});
  const Skeleton& skeleton = mDocument->scene().skeleton;
  for (int joint : mDocument->selectedJoints()) {
    const std::size_t jointRow = mRows.size();
    mRows.push_back({QString::fromStdString(skeleton.name(joint)), {}, 1});
    const std::vector<KeyChannel> channels = jointChannels(joint);
    const struct {
      QString label;
      std::size_t first, count;
    } groups[] = {{tr("Translation"), 0, 3}, {tr("Rotation"), 3, 1}, {tr("Scale"), 4, 3}};
    for (const auto& group : groups) {
      Row row{group.label, {}, 2};
      for (std::size_t i = group.first; i < group.first + group.count; ++i) {
        if (!keyTimes(*clip, channels[i]).empty()) row.channels.push_back(channels[i]);
      }
      if (row.channels.empty()) continue;
      std::vector<KeyChannel>& all = mRows[jointRow].channels;
      all.insert(all.end(), row.channels.begin(), row.channels.end());
      mRows.push_back(std::move(row));
    }
  }
  // Curves of the active rig's handles ("ik.<handle>.target.x", ...) belong to their handle:
  // shown under it while it is selected, as a joint's channels are; the others (stride
  // curves, curves of handles no rig has) in the Curves group.
  const RigDefinition* rig = mDocument->activeRig();
  auto handlePrefix = [](const IkHandle& handle) { return handleCurveName(handle.name, ""); };
  auto ownedByRig = [&](const std::string& curve) {
    return rig && std::any_of(rig->handles.begin(), rig->handles.end(),
                              [&](const IkHandle& h) { return curve.starts_with(handlePrefix(h)); });
  };
  std::vector<KeyChannel> curves = curveChannels(*clip);
  if (rig && mDocument->selectedHandle() >= 0) {
    const IkHandle& handle = rig->handles[static_cast<std::size_t>(mDocument->selectedHandle())];
    const std::string prefix = handlePrefix(handle);
    Row handleRow{QString::fromStdString(handle.name), {}, 1};
    for (const KeyChannel& channel : curves) {
      if (channel.curve.starts_with(prefix)) handleRow.channels.push_back(channel);
    }
    const std::size_t handleRowIndex = mRows.size();
    mRows.push_back(handleRow);
    for (const KeyChannel& channel : handleRow.channels) {
      mRows.push_back({QString::fromStdString(channel.curve.substr(prefix.size())), {channel}, 2});
    }
    if (handleRow.channels.empty()) mRows.erase(mRows.begin() + static_cast<std::ptrdiff_t>(handleRowIndex));
  }
  std::erase_if(curves, [&](const KeyChannel& channel) { return ownedByRig(channel.curve); });
  if (!curves.empty()) {
    mRows.push_back({tr("Curves"), curves, 1});
    for (const KeyChannel& channel : curves) mRows.push_back({QString::fromStdString(channel.curve), {channel}, 2});
  }
  // With nothing selected the summary row is the whole clip's (Blender's and Maya's summary):
  // every key of every channel, also of the joints that have no rows now.
  const bool nothingSelected = mDocument->selectedJoints().empty() && mDocument->selectedHandle() < 0;
  mRows.front().channels = nothingSelected ? allKeyedChannels(*clip) : allChannels(mRows);
  // Painted at every time step of playback: a long take's whole-clip summary has hundreds
  // of thousands of keys, gathered here once per change of rows or keys.
  for (const Row& row : mRows) mRowDiamonds.push_back(rowDiamonds(row));
  updateGeometry();
}

std::vector<DopeSheet::Diamond> DopeSheet::rowDiamonds(const Row& row) const {
  std::vector<Diamond> diamonds;
  const Clip* clip = mDocument->editedKeys();
  if (!clip) return diamonds;
  std::vector<KeyRef> keys;
  for (const KeyChannel& channel : row.channels) {
    for (double time : keyTimes(*clip, channel)) keys.push_back({channel, time});
  }
  std::stable_sort(keys.begin(), keys.end(), [](const KeyRef& a, const KeyRef& b) { return a.time < b.time; });
  for (KeyRef& key : keys) {
    if (diamonds.empty() || !sameKeyTime(diamonds.back().time, key.time)) diamonds.push_back({key.time, {}});
    diamonds.back().keys.push_back(std::move(key));
  }
  return diamonds;
}

int DopeSheet::rowAt(double y) const {
  const int row = static_cast<int>(std::floor(y / kRowHeight));
  return row >= 0 && row < static_cast<int>(mRows.size()) ? row : -1;
}

QPointF DopeSheet::keyPosition(int row, double time) const {
  return {mAxis->timeToPixel(time), (row + 0.5) * kRowHeight};
}

std::vector<KeyRef> DopeSheet::keysAt(const QPointF& position) const {
  const int row = rowAt(position.y());
  if (row < 0 || position.x() < kLabelWidth) return {};
  const Diamond* nearest = nullptr;
  double nearestDistance = 0.0;
  for (const Diamond& diamond : mRowDiamonds[static_cast<std::size_t>(row)]) {
    const double distance = std::abs(mAxis->timeToPixel(diamond.time) - position.x());
    if (distance <= kHitRadius && (!nearest || distance < nearestDistance)) {
      nearest = &diamond;
      nearestDistance = distance;
    }
  }
  return nearest ? nearest->keys : std::vector<KeyRef>{};
}

std::vector<KeyRef> DopeSheet::keysInside(const QRectF& rect) const {
  std::vector<KeyRef> keys;
  for (std::size_t row = 0; row < mRows.size(); ++row) {
    // Every row the box touches: a drag along a row need not cross its diamonds' centres.
    const double rowTop = static_cast<double>(row) * kRowHeight;
    if (rowTop > rect.bottom() || rowTop + kRowHeight <= rect.top()) continue;
    for (const Diamond& diamond : mRowDiamonds[row]) {
      const double x = mAxis->timeToPixel(diamond.time);
      if (x < rect.left() || x > rect.right()) continue;
      keys.insert(keys.end(), diamond.keys.begin(), diamond.keys.end());
    }
  }
  return keys;
}

void DopeSheet::keySelectionChanged() { update(); }

void DopeSheet::showRefusal(const QString& line) { showStatusLine(this, line); }

bool DopeSheet::event(QEvent* event) { return routeViewShortcuts(this, event) || QWidget::event(event); }

void DopeSheet::paintEvent(QPaintEvent*) {
  QPainter painter(this);
  painter.fillRect(rect(), QColor(38, 38, 41));
  QFont font = painter.font();
  font.setPointSizeF(font.pointSizeF() * 0.85);
  painter.setFont(font);
  const Clip* clip = mDocument->editedKeys();
  for (std::size_t index = 0; index < mRows.size(); ++index) {
    const Row& row = mRows[index];
    const QRectF band(0, static_cast<double>(index) * kRowHeight, width(), kRowHeight);
    const QColor summary = mDocument->activeLayerOfClip() ? kLayerSummary : QColor(50, 50, 56);
    painter.fillRect(band, row.depth == 0 ? summary : index % 2 ? QColor(40, 40, 44) : QColor(44, 44, 48));
    painter.setPen(row.depth < 2 ? QColor(220, 220, 225) : QColor(170, 170, 176));
    painter.drawText(
        band.adjusted(6 + 10 * row.depth, 0, 0, 0).intersected(QRectF(0, band.top(), kLabelWidth, kRowHeight)),
        Qt::AlignVCenter | Qt::AlignLeft, row.label);
  }
  painter.setPen(QColor(70, 70, 76));
  painter.drawLine(QPointF(kLabelWidth, 0), QPointF(kLabelWidth, height()));
  if (!clip) return;

  painter.setClipRect(QRectF(kLabelWidth, 0, width() - kLabelWidth, height()));
  painter.setRenderHint(QPainter::Antialiasing, true);
  painter.setPen(QPen(QColor(20, 20, 22), 1.0));
  for (std::size_t index = 0; index < mRows.size(); ++index) paintDiamonds(painter, static_cast<int>(index));
  // Playhead, on the same axis as the ruler above.
  const double x = mAxis->timeToPixel(mDocument->time());
  painter.setPen(QPen(QColor(86, 156, 255), 2.0));
  painter.drawLine(QPointF(x, 0), QPointF(x, height()));
  if (mGesture == Gesture::BoxSelect && movedPastClick()) {
    painter.setPen(QPen(QColor(255, 255, 255, 160), 1.0, Qt::DashLine));
    painter.setBrush(QColor(255, 255, 255, 30));
    painter.drawRect(boxRect());
  }
}

void DopeSheet::paintDiamonds(QPainter& painter, int rowIndex) const {
  const Row& row = mRows[static_cast<std::size_t>(rowIndex)];
  const double radius = row.depth == 0 ? kDiamondRadius + 1.0 : kDiamondRadius;
  struct Shown {
    QPointF centre;
    bool selected = false;
  };
  std::vector<Shown> shown;
  for (const Diamond& diamond : mRowDiamonds[static_cast<std::size_t>(rowIndex)]) {
    const QPointF centre = keyPosition(rowIndex, diamond.time);
    // A zoomed axis leaves most of a long clip's diamonds outside the widget.
    if (centre.x() < kLabelWidth - radius || centre.x() > width() + radius) continue;
    shown.push_back({centre, std::all_of(diamond.keys.begin(), diamond.keys.end(),
                                         [this](const KeyRef& key) { return isKeySelected(key); })});
  }
  // Selected diamonds last: zoomed out, a lone selected key of a take keyed on every frame
  // would be hidden under its neighbours.
  for (const bool selectedPass : {false, true}) {
    painter.setBrush(selectedPass     ? QColor(255, 170, 60)
                     : row.depth == 0 ? QColor(200, 200, 205)
                                      : QColor(170, 175, 185));
    // A long clip zoomed out puts several diamonds on one pixel: one drawn there looks the
    // same as all of them, at a fraction of the antialiased fills.
    std::optional<double> lastX;
    for (const Shown& diamond : shown) {
      if (diamond.selected != selectedPass || (lastX && std::abs(diamond.centre.x() - *lastX) < 1.0)) continue;
      lastX = diamond.centre.x();
      const QPointF& centre = diamond.centre;
      const QPointF shape[] = {centre + QPointF(0, -radius), centre + QPointF(radius, 0), centre + QPointF(0, radius),
                               centre + QPointF(-radius, 0)};
      painter.drawPolygon(shape, 4);
    }
  }
}

void DopeSheet::mousePressEvent(QMouseEvent* event) {
  if (event->button() != Qt::LeftButton) return QWidget::mousePressEvent(event);
  mPressPosition = event->position();
  mCurrentPosition = mPressPosition;
  const bool extend = event->modifiers() & Qt::ShiftModifier;
  // Ctrl starts a box from anywhere, also on a selected key.
  const std::vector<KeyRef> hit =
      event->modifiers() & Qt::ControlModifier ? std::vector<KeyRef>{} : keysAt(mPressPosition);
  const bool hitSelected =
      !hit.empty() && std::all_of(hit.begin(), hit.end(), [this](const KeyRef& key) { return isKeySelected(key); });
  // A drag on a selected key moves the selection; anywhere else it draws a box (Maya's and
  // Blender's dope sheets): on mocap a key sits under every pixel of a row, so a box that
  // could only start off the keys could not start at all.
  if (hitSelected && !extend) {
    mGesture = Gesture::MoveKeys;
    mGrabbedKeys = hit;
    mGrabbedTime = hit.front().time;
    beginKeyDrag();
    return;
  }
  // The press selects what it hits (Shift toggles it): a click's selection. Once the mouse
  // moves, a box replaces it (Shift: adds to the selection from before the press).
  mSelectionBeforeBox = extend ? selectedKeys() : std::vector<KeyRef>{};
  std::vector<KeyRef> keys = mSelectionBeforeBox;
  if (hitSelected) {
    std::erase_if(keys, [&](const KeyRef& key) { return std::find(hit.begin(), hit.end(), key) != hit.end(); });
  } else {
    keys.insert(keys.end(), hit.begin(), hit.end());
  }
  setSelectedKeys(std::move(keys));
  mGesture = Gesture::BoxSelect;
}

QRectF DopeSheet::boxRect() const { return QRectF(mPressPosition, mCurrentPosition).normalized(); }

bool DopeSheet::movedPastClick() const { return (mCurrentPosition - mPressPosition).manhattanLength() > kClickSlop; }

void DopeSheet::mouseMoveEvent(QMouseEvent* event) {
  mCurrentPosition = event->position();
  if (mGesture == Gesture::MoveKeys) {
    const Clip* start = dragStartPart();
    if (!start) return;
    const double offset = mAxis->pixelToTime(mCurrentPosition.x()) - mAxis->pixelToTime(mPressPosition.x());
    dragSelectedKeysBy(frameSnappedOffset(*start, mGrabbedTime, offset));
  } else if (mGesture == Gesture::BoxSelect && movedPastClick()) {
    std::vector<KeyRef> keys = mSelectionBeforeBox;
    const std::vector<KeyRef> inside = keysInside(boxRect());
    keys.insert(keys.end(), inside.begin(), inside.end());
    setSelectedKeys(std::move(keys));
    update();
  }
}

void DopeSheet::mouseReleaseEvent(QMouseEvent* event) {
  if (event->button() != Qt::LeftButton) return QWidget::mouseReleaseEvent(event);
  if (mGesture == Gesture::MoveKeys) {
    // A click on a selected key, without a drag, selects that key alone.
    if (!dragHasMoved() && !movedPastClick()) setSelectedKeys(mGrabbedKeys);
    endKeyDrag();
  }
  mGesture = Gesture::None;
  mGrabbedKeys.clear();
  mSelectionBeforeBox.clear();
  update();
}

}  // namespace articula::ui
