#pragma once
#include <QObject>

#include <map>

#include "core/math/transform.h"

class QAction;
class QMenu;

namespace articula::ui {

class Document;
struct ChangeEvent;

// The pose tools (Maya's and Blender's pose menu), each one undo step: copy the shown pose
// of the selected joints (or all) and paste it at another frame or in another clip (the
// copy is not part of the document, so it survives time and clip changes); mirror the
// selected side onto the other, flip left ↔ right (core/rig/mirror_pose.h, by the humanoid
// role map across the character's symmetry plane); select the mirror joints. Pasted,
// mirrored and flipped poses are pose overrides: they show at once and are keyed with S.
// Key All Controls keys every joint and every handle of the active rig at this frame (Maya's
// character set). The main window lists the actions in the Pose menu and the viewport's
// context menu.
class PoseActions : public QObject {
  Q_OBJECT

 public:
  explicit PoseActions(Document* document, QObject* parent = nullptr);

  QAction* copyAction() const { return mCopyAction; }
  QAction* pasteAction() const { return mPasteAction; }
  QAction* mirrorAction() const { return mMirrorAction; }
  QAction* flipAction() const { return mFlipAction; }
  QAction* selectMirrorAction() const { return mSelectMirrorAction; }
  QAction* keyAllAction() const { return mKeyAllAction; }
  // Adds every action to `menu`, in menu order.
  void addTo(QMenu* menu) const;

  const std::map<int, Transform>& copiedPose() const { return mCopied; }

  // The actions' work, callable from tests; each returns whether it changed anything and
  // emits problem() with the reason when it cannot act.
  bool copyPose();
  bool pastePose();
  bool mirrorPose(bool flip);
  bool selectMirror();
  bool keyAllControls();

 signals:
  void problem(const QString& message);

 private:
  void refreshActions();

  Document* const mDocument;
  QAction* const mCopyAction;
  QAction* const mPasteAction;
  QAction* const mMirrorAction;
  QAction* const mFlipAction;
  QAction* const mSelectMirrorAction;
  QAction* const mKeyAllAction;
  std::map<int, Transform> mCopied;  // local transforms, each in its parent's space
};

}  // namespace articula::ui
