#pragma once
#include <QWidget>

#include <array>
#include <optional>

#include "core/math/euler.h"
#include "core/math/transform.h"
#include "ui/curves/euler_curve.h"

class QComboBox;
class QDoubleSpinBox;
class QLabel;

namespace articula::ui {

class Document;
struct ChangeEvent;

// The local transform (in the parent joint's space) of the document's current joint (the
// first selected one) at the current time: translation, rotation as Euler angles in
// degrees in a chosen order and as a unit quaternion, and scale, one spin box per
// component.
//
// Each edit pushes a SetJointTransformCommand. Repeated changes of one spin box (a held
// arrow, the mouse wheel, typing) merge into one undo step until that field's editing
// finishes (Enter or focus out), another field is edited or the selection changes: a
// "drag" of a value is one step, as a gizmo drag is.
class JointTransformEditor : public QWidget {
  Q_OBJECT

 public:
  enum Field {
    TranslateX,
    TranslateY,
    TranslateZ,
    EulerX,
    EulerY,
    EulerZ,
    QuatW,
    QuatX,
    QuatY,
    QuatZ,
    ScaleX,
    ScaleY,
    ScaleZ,
    FieldCount
  };

  explicit JointTransformEditor(Document* document, QWidget* parent = nullptr);

  // Joint shown, -1 when nothing is selected (then every field is disabled and blank).
  int joint() const { return mJoint; }
  QDoubleSpinBox* spinBox(Field field) const { return mSpinBoxes[static_cast<std::size_t>(field)]; }
  QComboBox* rotationOrderBox() const { return mOrderBox; }
  RotationOrder rotationOrder() const;

 private:
  void documentChanged(const ChangeEvent& event);
  void showJoint();
  void refreshValues();
  void fieldEdited(Field field);
  void endMerge();

  Document* const mDocument;
  std::array<QDoubleSpinBox*, FieldCount> mSpinBoxes{};
  QComboBox* const mOrderBox;
  QLabel* const mJointLabel;
  int mJoint = -1;
  // Euler angles shown (radians, on the curve editor's branch, each in (-π, π]): the
  // triple an edited angle replaces one component of.
  Vec3 mEulerRad = Vec3::Zero();
  // The shown joint's keys as the curve editor plots them, in the shown order: built on
  // first use after the keys, the joint or the order change, so a frame change costs one
  // conversion however long the clip.
  std::optional<EulerCurve> mKeysEulerCurve;
  Field mMergeField = FieldCount;  // field whose edits merge into the last command
  bool mMergeUndo = false;
  bool mRefreshing = false;
};

}  // namespace articula::ui
