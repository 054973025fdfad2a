#pragma once
#include <QUndoCommand>

#include <optional>

#include "core/math/transform.h"

namespace articula::ui {

class Document;

// Poses one joint at the current time: sets its local transform (in its parent's space)
// as a pose override (see Document::poseOverrides), which Key Pose later writes into the
// clip.
//
// Drags are one undo step (Tiled's object drag): the tool pushes one command per mouse
// move and marks every command after the first mergeable
// (`setMergeable(std::exchange(mMergeUndo, true))`); a mergeable command folds into the
// previous one when both pose the same joint with the same channel. A drag that ends
// where it started leaves an obsolete command, which the stack drops.
class SetJointTransformCommand : public QUndoCommand {
 public:
  // What the edit changes, for the undo text and so a rotate drag never merges into a
  // translate drag of the same joint.
  enum class Channel { Translate, Rotate, Scale, Transform };

  SetJointTransformCommand(Document* document, int joint, const Transform& local, Channel channel,
                           QUndoCommand* parent = nullptr);

  void setMergeable(bool mergeable) { mMergeable = mergeable; }

  void redo() override;
  void undo() override;
  int id() const override;
  bool mergeWith(const QUndoCommand* other) override;

 private:
  void updateObsolete();

  Document* const mDocument;
  const int mJoint;
  const Channel mChannel;
  bool mMergeable = false;
  Transform mLocal;                    // applied by redo
  std::optional<Transform> mPrevious;  // override before the first command of the drag
  Transform mShownBefore;              // local transform shown before the first command
};

}  // namespace articula::ui
