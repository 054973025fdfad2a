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

// Moves the target (model space), the pole (in the pole's space, IkPole::space) or the tip's
// orientation target (model space) of handle `handle` of the active rig, as Maya and Blender
// move a control:
//  - an animated part (a target that follows the clip, TargetSource::InputPose, or whose
//    curves in the current clip change over time; a pole whose curves do; an orientation that
//    follows the chain, OrientationMode::Free or KeepPose, or whose curves change; a foot roll
//    whose curve changes) is posed for
//    the current frame only (Document::handlePoses), as a joint's pose override: moving the
//    time drops it, Key Pose (or Auto Key) keys it;
//  - a part without animation gets a static offset in the current clip only: its constant
//    curves ik.<handle>.target.x|y|z (pole.x|y|z, orientation.w|x|y|z, roll), every key moved to
//    the new value, or one key at the clip's start where it had none. Other clips and the
//    rig stay as they are.
// Without a clip the part is posed. The rig's definition never changes. Dragging solves the
// rig at every mouse move: the tool pushes one command per move, mergeable after the first
// (Tiled's object drag), so a drag is one undo step; a drag back to the start leaves an
// obsolete command, which the stack drops.
class MoveHandleCommand : public QUndoCommand {
 public:
  enum class Part { Target, Pole, Orientation, Roll };
  // A part's value in its curves' channel order: x, y, z (w unused) for the target and the
  // pole, w, x, y, z for the orientation, the roll in radians first for the roll.
  using PartValue = Vec4;

  // `position` nullopt: back where the drag started (merged into the drag, it undoes it).
  MoveHandleCommand(Document* document, int handle, Part part, const std::optional<Vec3>& position,
                    QUndoCommand* parent = nullptr);
  // Part::Roll to `rollRad` (nullopt: back to the start).
  static MoveHandleCommand* roll(Document* document, int handle, const std::optional<float>& rollRad);
  // Part::Orientation to `orientationModel` (normalised).
  MoveHandleCommand(Document* document, int handle, const std::optional<Quat>& orientationModel,
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
  struct ValueOfPart {};  // tells the part-value constructor from the position one
  MoveHandleCommand(ValueOfPart, Document* document, int handle, Part part, const std::optional<PartValue>& value,
                    QUndoCommand* parent);
  void swapState();
  void posedState(const Document& document, const PartValue& value);
  std::optional<PartValue> posedPart(const std::map<int, HandlePose>& poses) const;
  // The moved part's value shown now, and the one this command puts back on undo.
  PartValue partValueNow() const;
  PartValue partValueAtStart() const;
  void offsetState(const Document& document, const IkHandle& handle, const PartValue& value);

  Document* const mDocument;
  const int mHandle;
  const Part mPart;
  const int mClipIndex;
  bool mPoses = true;
  bool mMergeable = false;
  bool mBackToStart = false;
  // What redo puts in place (after the first redo, what undo puts back): the part's pose
  // (nullopt: not posed) or the part's curves in the clip (nullopt: none).
  std::optional<PartValue> mPosed;
  Curves mCurves;
};

// Where handle `handle` of the active rig is drawn now, model space: the target its last
// solve used (after grounding), else its shown target (Document::shownHandle). nullopt for a
// bad index.
std::optional<Vec3> shownTargetModel(const Document& document, int handle);

// The orientation handle `handle` of the active rig shows now, model space: its orientation
// target (its pose, curves or definition) in OrientationMode::Target, else its tip's as solved.
// nullopt for a bad index.
std::optional<Quat> shownOrientation(const Document& document, int handle);

}  // namespace articula::ui
