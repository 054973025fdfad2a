#include "ui/timeline/key_view.h"

#include <QAction>
#include <QCoreApplication>
#include <QKeyEvent>
#include <QStatusTipEvent>
#include <QUndoStack>
#include <QWidget>

#include <algorithm>
#include <cmath>
#include <memory>
#include <utility>

#include "ui/commands/edit_keys_command.h"
#include "ui/document/document.h"

namespace articula::ui {

namespace {

// Shared by every key view: copy in the dope sheet, paste in the curve editor.
std::vector<CopiedKey>& keyClipboard() {
  static std::vector<CopiedKey> clipboard;
  return clipboard;
}

QString tr(const char* text) { return QCoreApplication::translate("KeyView", text); }

}  // namespace

KeyView::KeyView(Document* document) : mDocument(document) {}
KeyView::~KeyView() = default;

bool KeyView::isKeySelected(const KeyRef& key) const {
  return std::binary_search(mSelectedKeys.begin(), mSelectedKeys.end(), key);
}

void KeyView::setSelectedKeys(std::vector<KeyRef> keys) {
  std::sort(keys.begin(), keys.end());
  keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
  if (keys == mSelectedKeys) return;
  mSelectedKeys = std::move(keys);
  keySelectionChanged();
}

bool KeyView::refusedAsLocked() {
  const AnimLayer* layer = mDocument->activeLayerOfClip();
  if (!layer || !layer->locked) return false;
  showRefusal(tr("Layer '%1' is locked: unlock it in the Layers panel to edit its keys.")
                  .arg(QString::fromStdString(layer->name)));
  return true;
}

void KeyView::pushEditedKeys(Clip edited, const QString& text) {
  if (refusedAsLocked()) return;
  pushKeyEdit(new EditKeysCommand(mDocument, mDocument->currentClipIndex(), mDocument->activeLayer(),
                                  EditKeysCommand::Scope::WholeClip, std::move(edited), text),
              mSelectedKeys);
}

void KeyView::deleteSelectedKeys() {
  const Clip* clip = mDocument->editedKeys();
  if (!clip || mSelectedKeys.empty() || refusedAsLocked()) return;
  pushEditedKeys(deletedKeys(*clip, mSelectedKeys), tr("Delete Keys"));
  setSelectedKeys({});
}

void KeyView::copySelectedKeys() {
  const Clip* clip = mDocument->editedKeys();
  if (!clip || mSelectedKeys.empty()) return;
  keyClipboard() = copyKeys(*clip, mSelectedKeys);
}

bool KeyView::hasCopiedKeys() const { return !keyClipboard().empty(); }

void KeyView::pasteKeys() {
  const Clip* clip = mDocument->editedKeys();
  if (!clip || keyClipboard().empty() || refusedAsLocked()) return;
  std::vector<KeyRef> pasted;
  pushEditedKeys(pastedKeys(*clip, keyClipboard(), mDocument->time(), &pasted), tr("Paste Keys"));
  setSelectedKeys(std::move(pasted));
}

void KeyView::beginKeyDrag(std::span<const KeyChannel> alsoChannels) {
  const Clip* clip = mDocument->editedKeys();
  if (!clip) return;
  std::vector<KeyChannel> channels(alsoChannels.begin(), alsoChannels.end());
  for (const KeyRef& key : mSelectedKeys) channels.push_back(key.channel);
  std::sort(channels.begin(), channels.end());
  channels.erase(std::unique(channels.begin(), channels.end()), channels.end());
  mDragStartPart = clipPart(*clip, channels);
  mDragStartSelection = mSelectedKeys;
  mMergeUndo = false;
}

void KeyView::dragSelectedKeysBy(double offsetSeconds) {
  // A click without a move (or before the keys have moved a frame) pushes nothing.
  if (!mDragStartPart || (!mMergeUndo && std::abs(offsetSeconds) <= kSameKeyTimeSeconds)) return;
  dragToPart(movedKeys(*mDragStartPart, mDragStartSelection, offsetSeconds), tr("Move Keys"));
  if (!mDragStartPart) return;
  std::vector<KeyRef> moved = mDragStartSelection;
  for (KeyRef& key : moved) key.time += offsetSeconds;
  setSelectedKeys(std::move(moved));
}

void KeyView::dragToPart(Clip part, const QString& text) {
  if (!mDragStartPart) return;
  // A locked layer's keys stay put: the first move that would edit them ends the drag.
  if (refusedAsLocked()) return endKeyDrag();
  auto* command = new EditKeysCommand(mDocument, mDocument->currentClipIndex(), mDocument->activeLayer(),
                                      EditKeysCommand::Scope::Part, std::move(part), text);
  command->setMergeable(std::exchange(mMergeUndo, true));
  pushKeyEdit(command, mDragStartSelection);
}

void KeyView::pushKeyEdit(EditKeysCommand* command, std::vector<KeyRef> selectionBefore) {
  command->setSelectionRestore([view = std::weak_ptr<KeyView* const>(mSelf), clip = mDocument->currentClipIndex(),
                                layer = mDocument->activeLayer(), before = std::move(selectionBefore),
                                after = std::vector<KeyRef>()](bool undone) mutable {
    const std::shared_ptr<KeyView* const> alive = view.lock();
    // A view showing another clip or layer keeps its own selection: these keys are not in it.
    if (!alive || (*alive)->mDocument->currentClipIndex() != clip || (*alive)->mDocument->activeLayer() != layer)
      return;
    KeyView& self = **alive;
    if (undone) after = self.selectedKeys();
    self.setSelectedKeys(undone ? before : after);
  });
  mDocument->undoStack()->push(command);
}

void KeyView::endKeyDrag() {
  mDragStartPart.reset();
  mDragStartSelection.clear();
  mMergeUndo = false;
}

bool routeViewShortcuts(QWidget* widget, QEvent* event) {
  if (event->type() != QEvent::ShortcutOverride && event->type() != QEvent::KeyPress) return false;
  const auto* keyEvent = static_cast<QKeyEvent*>(event);
  const QKeySequence pressed(keyEvent->keyCombination());
  for (QAction* action : widget->actions()) {
    if (!action->isEnabled() || !action->shortcuts().contains(pressed)) continue;
    event->accept();
    if (event->type() == QEvent::KeyPress) action->trigger();
    return true;
  }
  return false;
}

void showStatusLine(QWidget* widget, const QString& line) {
  QStatusTipEvent tip(line);
  QCoreApplication::sendEvent(widget, &tip);
}

double frameSnappedOffset(const Clip& clip, double grabbedTime, double offsetSeconds) {
  const double rate = clip.frameRate > 0.0 ? clip.frameRate : 30.0;
  // Less than half a frame sideways is no move in time: a key dragged up or down keeps its
  // time even when it lies between frames (imported keys often do).
  if (std::abs(offsetSeconds) < 0.5 / rate) return 0.0;
  const double frame = std::round((grabbedTime + offsetSeconds - clip.startTime) * rate);
  return clip.startTime + frame / rate - grabbedTime;
}

}  // namespace articula::ui
