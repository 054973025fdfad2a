#pragma once
#include <QObject>

#include <string>

#include "core/util/result.h"

class QAction;
class QMenu;

namespace articula::ui {

class Document;
struct RestAndClips;

// Skeleton ▸ Rest Pose: the rest set to the pose at the current frame, or to a T-pose (the
// rest, stood up when it lies down, with spine up, legs down, arms out), the motion unchanged
// (core/retarget/rest_pose.h), each one undo step.
class RestPoseActions : public QObject {
  Q_OBJECT

 public:
  explicit RestPoseActions(Document* document, QObject* parent = nullptr);

  QAction* fromCurrentFrameAction() const { return mFromCurrentFrameAction; }
  QAction* toTPoseAction() const { return mToTPoseAction; }
  void addTo(QMenu* menu) const;

  // The actions' work, callable from tests; each returns whether it changed anything and
  // emits problem() with the reason when it cannot act.
  bool fromCurrentFrame();
  bool toTPose();

 signals:
  void problem(const QString& message);

 private:
  bool push(Result<RestAndClips> edit, const QString& text);

  Document* const mDocument;
  QAction* const mFromCurrentFrameAction;
  QAction* const mToTPoseAction;
};

}  // namespace articula::ui
