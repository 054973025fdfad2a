#include "ui/widgets/joint_transform_editor.h"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QSignalBlocker>
#include <QUndoStack>

#include <algorithm>
#include <cmath>
#include <numbers>
#include <utility>

#include "ui/commands/set_joint_transform_command.h"
#include "ui/curves/euler_curve.h"
#include "ui/document/document.h"
#include "ui/widgets/field_spin_box.h"

namespace articula::ui {

namespace {

constexpr double kRadToDeg = 180.0 / std::numbers::pi;
constexpr RotationOrder kOrders[] = {RotationOrder::XYZ, RotationOrder::XZY, RotationOrder::YXZ,
                                     RotationOrder::YZX, RotationOrder::ZXY, RotationOrder::ZYX};

// The branch of angles the curve editor plots `joint`'s rotation keys with, in `order`, for
// keys that are the pose: the base's or an override layer's (the edited keys); the base's
// under an additive layer, whose keys are offsets from it. Empty when they have no rotation
// for the joint.
EulerCurve keysEulerCurve(const Document& document, int joint, RotationOrder order) {
  const AnimLayer* layer = document.activeLayerOfClip();
  const Clip* keys = layer && layer->mode == LayerMode::Additive ? document.currentClip() : document.editedKeys();
  const JointTrack* track = keys ? keys->findTrack(joint) : nullptr;
  return track && !track->rotation.empty() ? filteredEulerCurve(*keys, track->rotation, order) : EulerCurve();
}

}  // namespace

JointTransformEditor::JointTransformEditor(Document* document, QWidget* parent)
    : QWidget(parent), mDocument(document), mOrderBox(new QComboBox(this)), mJointLabel(new QLabel(this)) {
  auto* form = new QFormLayout(this);
  // Labels above their fields: four quaternion boxes side by side still fit a narrow dock.
  form->setRowWrapPolicy(QFormLayout::WrapAllRows);
  form->addRow(mJointLabel);
  const auto addRow = [&](const QString& label, Field first, int count, double minimum, double maximum, int decimals,
                          double step) {
    auto* row = new QHBoxLayout;
    for (int i = 0; i < count; ++i) {
      const auto field = static_cast<Field>(first + i);
      QDoubleSpinBox* box = makeFieldSpinBox(minimum, maximum, decimals, step, this);
      mSpinBoxes[static_cast<std::size_t>(field)] = box;
      row->addWidget(box);
      connect(box, &QDoubleSpinBox::valueChanged, this, [this, field] { fieldEdited(field); });
      connect(box, &QDoubleSpinBox::editingFinished, this, &JointTransformEditor::endMerge);
    }
    form->addRow(label, row);
  };
  addRow(tr("Translate"), TranslateX, 3, -1e6, 1e6, 4, 0.01);
  for (RotationOrder order : kOrders) {
    mOrderBox->addItem(QString::fromLatin1(toString(order).data(), static_cast<int>(toString(order).size())));
  }
  mOrderBox->setToolTip(tr("Order in which the Euler angles are written (BVH CHANNELS order)"));
  form->addRow(tr("Rotate order"), mOrderBox);
  addRow(tr("Rotate (°)"), EulerX, 3, -1e5, 1e5, 3, 1.0);
  addRow(tr("Quaternion (w x y z)"), QuatW, 4, -1.0, 1.0, 4, 0.01);
  // Four components share the row: no arrows (stepping one component of a unit quaternion
  // is rarely what anyone wants; typing and the wheel still work).
  for (int field = QuatW; field <= QuatZ; ++field) {
    mSpinBoxes[static_cast<std::size_t>(field)]->setButtonSymbols(QAbstractSpinBox::NoButtons);
  }
  addRow(tr("Scale"), ScaleX, 3, -1e4, 1e4, 4, 0.01);
  connect(mOrderBox, &QComboBox::currentIndexChanged, this, [this] {
    // Same rotation, other angles: a view choice, not an edit.
    mKeysEulerCurve.reset();
    endMerge();
    refreshValues();
  });
  connect(mDocument, &Document::changed, this, &JointTransformEditor::documentChanged);
  showJoint();
}

RotationOrder JointTransformEditor::rotationOrder() const {
  return kOrders[static_cast<std::size_t>(std::max(0, mOrderBox->currentIndex()))];
}

void JointTransformEditor::documentChanged(const ChangeEvent& event) {
  switch (event.type) {
    case ChangeEvent::Type::SceneReplaced:  // new keys, perhaps for a joint of the same index
      mKeysEulerCurve.reset();
      showJoint();
      break;
    case ChangeEvent::Type::SelectionChanged:
    case ChangeEvent::Type::JointRenamed:
      showJoint();
      break;
    case ChangeEvent::Type::CurrentClipChanged:
    case ChangeEvent::Type::ClipEdited:
    case ChangeEvent::Type::ActiveLayerChanged:  // other keys, another branch of angles
      mKeysEulerCurve.reset();
      refreshValues();
      break;
    case ChangeEvent::Type::TimeChanged:
    case ChangeEvent::Type::PoseEdited:
    case ChangeEvent::Type::RigChanged:  // the rig moves the pose
    case ChangeEvent::Type::HandleEdited:
    case ChangeEvent::Type::RigEnabledChanged:
      refreshValues();
      break;
    case ChangeEvent::Type::RolesChanged:
      break;
  }
}

void JointTransformEditor::showJoint() {
  const auto& selected = mDocument->selectedJoints();
  const int joint = selected.empty() ? -1 : selected.front();
  if (joint != mJoint) {
    endMerge();
    mJoint = joint;
    mKeysEulerCurve.reset();
    // Show a joint's angles in the order they were authored in (BVH), XYZ otherwise.
    const auto& orders = mDocument->scene().rotationOrders;
    const RotationOrder order = joint >= 0 && joint < static_cast<int>(orders.size())
                                    ? orders[static_cast<std::size_t>(joint)]
                                    : RotationOrder::XYZ;
    const QSignalBlocker blocker(mOrderBox);
    mOrderBox->setCurrentIndex(
        static_cast<int>(std::find(std::begin(kOrders), std::end(kOrders), order) - std::begin(kOrders)));
  }
  mJointLabel->setText(mJoint >= 0 ? QString::fromStdString(mDocument->scene().skeleton.name(mJoint))
                                   : tr("No joint selected"));
  for (QDoubleSpinBox* box : mSpinBoxes) {
    box->setEnabled(mJoint >= 0);
    // Without a joint the fields are blank: values left there belong to a joint no longer
    // shown, perhaps of the file opened before.
    if (mJoint < 0) box->clear();
  }
  mOrderBox->setEnabled(mJoint >= 0);
  refreshValues();
}

void JointTransformEditor::refreshValues() {
  if (mJoint < 0 || mJoint >= static_cast<int>(mDocument->localPose().size())) return;
  const Transform& local = mDocument->localPose()[static_cast<std::size_t>(mJoint)];
  // The pose's angles on the keys' branch, so Properties and the curve editor agree at
  // every key up to whole turns; each in (-180°, 180°].
  if (!mKeysEulerCurve) mKeysEulerCurve = keysEulerCurve(*mDocument, mJoint, rotationOrder());
  mEulerRad = wrappedToHalfTurn(eulerOnCurve(*mKeysEulerCurve, mDocument->time(), local.rotation, rotationOrder()));
  Quat q = local.rotation;
  if (q.w() < 0.0f) q.coeffs() = -q.coeffs();
  const double values[FieldCount] = {local.translation.x(),
                                     local.translation.y(),
                                     local.translation.z(),
                                     mEulerRad.x() * kRadToDeg,
                                     mEulerRad.y() * kRadToDeg,
                                     mEulerRad.z() * kRadToDeg,
                                     q.w(),
                                     q.x(),
                                     q.y(),
                                     q.z(),
                                     local.scale.x(),
                                     local.scale.y(),
                                     local.scale.z()};
  mRefreshing = true;
  for (std::size_t i = 0; i < mSpinBoxes.size(); ++i) {
    const QSignalBlocker blocker(mSpinBoxes[i]);
    mSpinBoxes[i]->setValue(values[i]);
  }
  mRefreshing = false;
}

void JointTransformEditor::fieldEdited(Field field) {
  if (mRefreshing || mJoint < 0) return;
  if (field != mMergeField) endMerge();
  mMergeField = field;
  Transform local = mDocument->localPose()[static_cast<std::size_t>(mJoint)];
  const auto value = [this](Field f) { return static_cast<float>(spinBox(f)->value()); };
  // Only the edited component comes from its (rounded) spin box; the others keep the
  // document's full precision.
  SetJointTransformCommand::Channel channel = SetJointTransformCommand::Channel::Rotate;
  if (field <= TranslateZ) {
    local.translation[field - TranslateX] = value(field);
    channel = SetJointTransformCommand::Channel::Translate;
  } else if (field <= EulerZ) {
    mEulerRad[field - EulerX] = value(field) / static_cast<float>(kRadToDeg);
    local.rotation = eulerToQuat(mEulerRad, rotationOrder());
  } else if (field <= QuatZ) {
    const Quat q(value(QuatW), value(QuatX), value(QuatY), value(QuatZ));
    // A zero quaternion is no rotation: keep the current one rather than produce NaN.
    if (q.norm() < 1e-6f) return;
    local.rotation = q.normalized();
  } else {
    local.scale[field - ScaleX] = value(field);
    channel = SetJointTransformCommand::Channel::Scale;
  }
  auto* command = new SetJointTransformCommand(mDocument, mJoint, local, channel);
  command->setMergeable(std::exchange(mMergeUndo, true));
  mDocument->undoStack()->push(command);
}

void JointTransformEditor::endMerge() {
  mMergeUndo = false;
  mMergeField = FieldCount;
}

}  // namespace articula::ui
