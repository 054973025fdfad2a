#pragma once
#include <QPointF>
#include <QRectF>
#include <QString>

class QEvent;
class QWidget;

#include <memory>
#include <optional>
#include <span>
#include <vector>

#include "core/anim/clip.h"
#include "ui/timeline/key_channel.h"

namespace articula::ui {

class Document;
class EditKeysCommand;

// What the dope sheet and the curve editor have in common (Olive's KeyframeView, which
// CurveView extends): the key selection, delete / copy / paste, and drags that become one
// undo step. The views differ only in the hooks: how they find keys under the mouse or in
// a box, and how they draw. They edit Document::editedKeys(): the base, or the active layer's
// keys alone; on a locked layer every edit is refused with one line (showRefusal). A mixin rather than a QWidget so
// each view keeps its own widget base (QWidget for the dope sheet, QCustomPlot for the curves).
class KeyView {
 public:
  explicit KeyView(Document* document);
  virtual ~KeyView();
  KeyView(const KeyView&) = delete;
  KeyView& operator=(const KeyView&) = delete;

  const std::vector<KeyRef>& selectedKeys() const { return mSelectedKeys; }
  bool isKeySelected(const KeyRef& key) const;
  // Sorted and without duplicates; calls keySelectionChanged() when it changed.
  void setSelectedKeys(std::vector<KeyRef> keys);

  // Each is one undo step on the edited keys (the base or the active layer); nothing happens
  // without a selection.
  void deleteSelectedKeys();
  void copySelectedKeys();
  // Pastes the copied keys (shared by every key view) so the earliest lands on the current
  // time; the pasted keys become the selection.
  void pasteKeys();
  bool hasCopiedKeys() const;

  // A drag: beginKeyDrag() remembers the selection and the part of the clip it keys (plus
  // `alsoChannels`, e.g. the channel of a grabbed handle); each mouse move calls
  // dragSelectedKeysBy() (times) or dragToPart() (any edit of those channels computed from
  // dragStartPart()); every command after the first of a drag merges into it. Only that
  // part is copied and swapped per move (Document::swapClipPart), never the whole clip.
  void beginKeyDrag(std::span<const KeyChannel> alsoChannels = {});
  void dragSelectedKeysBy(double offsetSeconds);
  void dragToPart(Clip part, const QString& text);
  void endKeyDrag();
  bool isDraggingKeys() const { return mDragStartPart.has_value(); }
  // The dragged channels' tracks and curves as the drag found them (clipPart()).
  const Clip* dragStartPart() const { return mDragStartPart ? &*mDragStartPart : nullptr; }
  const std::vector<KeyRef>& dragStartSelection() const { return mDragStartSelection; }
  // Whether this drag has pushed its first command (later ones merge into it).
  bool dragHasMoved() const { return mMergeUndo; }

  // Hooks for the view.
  // Keys drawn under `position` (widget pixels): one diamond may stand for several keys.
  virtual std::vector<KeyRef> keysAt(const QPointF& position) const = 0;
  // Keys drawn inside `rect` (widget pixels), for box selection.
  virtual std::vector<KeyRef> keysInside(const QRectF& rect) const = 0;

 protected:
  virtual void keySelectionChanged() = 0;
  // Says why an edit was refused, in one line (the window's status bar).
  virtual void showRefusal(const QString& line) = 0;
  Document* keyDocument() const { return mDocument; }
  // True, after showing why, when the active layer is locked: its keys take no edit.
  bool refusedAsLocked();
  // Pushes `edited` (the edited keys after an edit) as one undo step, into the active layer
  // when one is active; refused on a locked layer.
  void pushEditedKeys(Clip edited, const QString& text);

 private:
  // Pushes a key edit whose undo selects `selectionBefore` here again, and whose redo after
  // an undo the keys selected when it was undone.
  void pushKeyEdit(EditKeysCommand* command, std::vector<KeyRef> selectionBefore);

  Document* const mDocument;
  // What the commands of this view hold to restore its selection: they may outlive it.
  const std::shared_ptr<KeyView* const> mSelf = std::make_shared<KeyView* const>(this);
  std::vector<KeyRef> mSelectedKeys;
  std::optional<Clip> mDragStartPart;
  std::vector<KeyRef> mDragStartSelection;
  bool mMergeUndo = false;
};

// Gives the key views' own shortcuts (their QActions) priority while they have focus, over
// window shortcuts on the same keys (the viewport's F and A, Delete): accepts the
// ShortcutOverride, then triggers the action on the key press. Returns true when `event`
// was handled; call it first from the widget's event().
bool routeViewShortcuts(QWidget* widget, QEvent* event);

// Shows `line` in the status bar of the window holding `widget` (a status tip event, which
// travels up to the main window): how a key view says why it refused an edit.
void showStatusLine(QWidget* widget, const QString& line);

// Snaps `offsetSeconds` so that a key at `grabbedTime` moved by it lands on a whole frame
// of `clip` (frames counted from its start time at its rate). Offsets under half a frame
// are 0, so a key between frames only snaps once it is really moved in time.
double frameSnappedOffset(const Clip& clip, double grabbedTime, double offsetSeconds);

}  // namespace articula::ui
