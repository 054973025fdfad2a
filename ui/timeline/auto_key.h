#pragma once
#include <QObject>

namespace articula::ui {

class Document;
struct ChangeEvent;

// Auto key (Maya's, Blender's red record button): while enabled, every pose change made by
// hand (a joint edit, an IK handle's target or pole drag, an IK/FK snap) is keyed at the
// current frame. The key is made once the edit is finished: at once for a typed value, after
// the mouse button is released for a drag; the edit and its key then become one undo step
// (KeyedEditCommand), so one Ctrl+Z takes back both. Only a freshly pushed edit on top of
// the stack is keyed, never a pose that undo or redo brought back.
class AutoKey : public QObject {
  Q_OBJECT

 public:
  explicit AutoKey(Document* document, QObject* parent = nullptr);

  bool isEnabled() const { return mEnabled; }

 public slots:
  void setEnabled(bool enabled);
  // Keys the pending pose edit now, if there is one (called when the edit is finished).
  void keyPendingEdit();

 signals:
  void enabledChanged(bool enabled);

 protected:
  bool eventFilter(QObject* watched, QEvent* event) override;

 private:
  void documentChanged(const ChangeEvent& event);
  void scheduleKey();

  Document* const mDocument;
  bool mEnabled = false;
  bool mPending = false;
  bool mKeyQueued = false;
};

}  // namespace articula::ui
