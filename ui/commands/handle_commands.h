#pragma once
#include <QString>
#include <QUndoCommand>

#include <map>
#include <optional>
#include <string>

#include "core/anim/curve.h"
#include "core/rig/ik_handle.h"
#include "ui/commands/change_value.h"
#include "ui/document/document.h"

namespace articula::ui {

// Changes the settings of handle `handle` of the active rig (solver, weight, iterations,
// tolerance, enabled, pole, limits, ...): the whole handle is swapped, so one command covers
// every field. Slider drags are one undo step: commands after the first of a drag are made
// mergeable and fold into the previous one when they edit the same handle.
class EditHandleCommand : public ChangeValue<IkHandle> {
 public:
  EditHandleCommand(Document* document, int handle, IkHandle value, const QString& text,
                    QUndoCommand* parent = nullptr);

  // Why handle `handle` of the active rig cannot become `value` (no rig, bad index, or
  // Rig::bind's message), empty when it can.
  static QString validate(const Document& document, int handle, const IkHandle& value);

  int id() const override;
  bool mergeWith(const QUndoCommand* other) override;

 private:
  IkHandle exchange(IkHandle value) override;

  const int mHandle;
};

// Moves the target (model space) or the pole (in the pole's space, IkPole::space) of handle
// `handle` of the active rig, as Maya and Blender move a control:
//  - an animated part (a target that follows the clip, TargetSource::InputPose, or whose
//    curves in the current clip change over time; a pole whose curves do) is posed for the
//    current frame only (Document::handlePoses), as a joint's pose override: moving the
//    time drops it, Key Pose (or Auto Key) keys it;
//  - a part without animation gets a static offset in the current clip only: its three
//    constant curves ik.<handle>.target.x|y|z (or pole.x|y|z), every key moved to the new
//    value, or one key at the clip's start where it had none. Other clips and the rig stay as they are.
// Without a clip the part is posed. The rig's definition never changes. Dragging solves the
// rig at every mouse move: the tool pushes one command per move, mergeable after the first
// (Tiled's object drag), so a drag is one undo step; a drag back to the start leaves an
// obsolete command, which the stack drops.
class MoveHandleCommand : public QUndoCommand {
 public:
  enum class Part { Target, Pole };

  // `position` nullopt: back where the drag started (merged into the drag, it undoes it).
  MoveHandleCommand(Document* document, int handle, Part part, const std::optional<Vec3>& position,
                    QUndoCommand* parent = nullptr);

  // Whether moving `part` of `handle` poses it for this frame (true) or writes a static
  // offset into the current clip (false).
  static bool posesPart(const Document& document, int handle, Part part);

  int handle() const { return mHandle; }
  // Whether this move posed its handle (Auto Key keys those; a static offset is already in
  // the clip).
  bool poses() const { return mPoses; }
  void setMergeable(bool mergeable) { mMergeable = mergeable; }
  void redo() override;
  void undo() override;
  int id() const override;
  bool mergeWith(const QUndoCommand* other) override;

 private:
  using Curves = std::map<std::string, std::optional<Curve>>;
  void swapState();
  void posedState(const Document& document, const Vec3& position);
  std::optional<Vec3> posedPart(const std::map<int, HandlePose>& poses) const;
  // The moved part's value shown now, and the one this command puts back on undo.
  Vec3 partValueNow() const;
  Vec3 partValueAtStart() const;
  void offsetState(const Document& document, const IkHandle& handle, const Vec3& position);

  Document* const mDocument;
  const int mHandle;
  const Part mPart;
  const int mClipIndex;
  bool mPoses = true;
  bool mMergeable = false;
  bool mBackToStart = false;
  // What redo puts in place (after the first redo, what undo puts back): the part's pose
  // (nullopt: not posed) or the part's curves in the clip (nullopt: none).
  std::optional<Vec3> mPosed;
  Curves mCurves;
};

}  // namespace articula::ui
