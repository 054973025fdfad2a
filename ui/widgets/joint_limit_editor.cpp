#include "ui/widgets/joint_limit_editor.h"

#include <QCheckBox>
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

#include "ui/document/document.h"
#include "ui/widgets/field_spin_box.h"
#include "ui/widgets/handle_edits.h"

namespace articula::ui {

namespace {

constexpr double kRadToDeg = 180.0 / std::numbers::pi;
constexpr float kDefaultConeRad = std::numbers::pi_v<float> / 4.0f;
constexpr float kDefaultHingeRad = std::numbers::pi_v<float> / 2.0f;
// Field ids for merging: the angle fields, then the axis components, then the rest.
constexpr int kAxisField = JointLimitEditor::AngleFieldCount;
constexpr int kKindField = kAxisField + 3;
constexpr int kTwistField = kKindField + 1;

}  // namespace

JointLimitEditor::JointLimitEditor(Document* document, QWidget* parent)
    : QWidget(parent),
      mDocument(document),
      mTitleLabel(new QLabel(this)),
      mJointBox(new QComboBox(this)),
      mKindBox(new QComboBox(this)),
      mTwistBox(new QCheckBox(tr("Limit twist"), this)),
      mMessageLabel(new QLabel(this)) {
  auto* form = new QFormLayout(this);
  form->setContentsMargins(0, 0, 0, 0);
  // Labels above their fields, as in the transform editor: fits a narrow dock.
  form->setRowWrapPolicy(QFormLayout::WrapAllRows);
  QFont bold = mTitleLabel->font();
  bold.setBold(true);
  mTitleLabel->setFont(bold);
  mTitleLabel->setText(tr("Joint limit"));
  form->addRow(mTitleLabel);
  mJointBox->setToolTip(tr("Joint of the chain whose limit is edited (follows the selected joint)"));
  form->addRow(tr("Joint"), mJointBox);
  mKindBox->addItem(tr("Free"), static_cast<int>(JointLimit::Kind::Free));
  mKindBox->addItem(tr("Cone (ball and socket)"), static_cast<int>(JointLimit::Kind::Cone));
  mKindBox->addItem(tr("Hinge"), static_cast<int>(JointLimit::Kind::Hinge));
  form->addRow(tr("Limit"), mKindBox);
  auto* axisRow = new QHBoxLayout;
  for (int axis = 0; axis < 3; ++axis) {
    mAxisBoxes[axis] = makeFieldSpinBox(-1.0, 1.0, 3, 0.05, this);
    axisRow->addWidget(mAxisBoxes[axis]);
    connect(mAxisBoxes[axis], &QDoubleSpinBox::valueChanged, this, [this, axis] { edited(kAxisField + axis, true); });
    connect(mAxisBoxes[axis], &QDoubleSpinBox::editingFinished, this, &JointLimitEditor::endMerge);
  }
  form->addRow(tr("Axis (parent space)"), axisRow);
  // Wide ranges on purpose: a value the limit cannot take is refused with its reason, not
  // clamped out of sight.
  const QString labels[AngleFieldCount] = {tr("Cone angle X (°)"), tr("Cone angle Y (°)"), tr("Hinge min (°)"),
                                           tr("Hinge max (°)"),    tr("Twist min (°)"),    tr("Twist max (°)")};
  for (int field = 0; field < AngleFieldCount; ++field) {
    mAngleBoxes[field] = makeFieldSpinBox(-360.0, 360.0, 2, 1.0, this);
    if (field == TwistMin) form->addRow(mTwistBox);
    form->addRow(labels[field], mAngleBoxes[field]);
    connect(mAngleBoxes[field], &QDoubleSpinBox::valueChanged, this, [this, field] { edited(field, true); });
    connect(mAngleBoxes[field], &QDoubleSpinBox::editingFinished, this, &JointLimitEditor::endMerge);
  }
  mMessageLabel->setObjectName(QStringLiteral("limitMessage"));
  mMessageLabel->setWordWrap(true);
  mMessageLabel->setStyleSheet(QStringLiteral("color: #c8412b;"));
  form->addRow(mMessageLabel);

  for (QComboBox* box : {mJointBox, mKindBox}) {
    box->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    box->setMinimumContentsLength(12);
  }
  connect(mJointBox, &QComboBox::currentIndexChanged, this, [this] {
    if (mRefreshing) return;
    endMerge();
    mMessageLabel->clear();
    refreshValues();
  });
  connect(mKindBox, &QComboBox::currentIndexChanged, this, [this] { edited(kKindField, false); });
  connect(mTwistBox, &QCheckBox::toggled, this, [this] { edited(kTwistField, false); });
  connect(mDocument, &Document::changed, this, &JointLimitEditor::documentChanged);
  showHandle(true);
}

int JointLimitEditor::joint() const { return mJointBox->count() > 0 ? mJointBox->currentData().toInt() : -1; }

int JointLimitEditor::chainIndex() const { return mJointBox->currentIndex(); }

void JointLimitEditor::setJoint(int joint) {
  const int index = mJointBox->findData(joint);
  if (index >= 0) mJointBox->setCurrentIndex(index);
}

void JointLimitEditor::documentChanged(const ChangeEvent& event) {
  switch (event.type) {
    case ChangeEvent::Type::SceneReplaced:
    case ChangeEvent::Type::SelectionChanged:
      showHandle(true);
      break;
    case ChangeEvent::Type::RigChanged:
    case ChangeEvent::Type::JointRenamed:
      showHandle(false);
      break;
    case ChangeEvent::Type::HandleEdited:
      if (event.handle == mHandle) showHandle(false);
      break;
    case ChangeEvent::Type::CurrentClipChanged:
    case ChangeEvent::Type::TimeChanged:
    case ChangeEvent::Type::PoseEdited:
    case ChangeEvent::Type::ClipEdited:
    case ChangeEvent::Type::RigEnabledChanged:
    case ChangeEvent::Type::ActiveLayerChanged:
    case ChangeEvent::Type::RolesChanged:
      break;
  }
}

void JointLimitEditor::showHandle(bool followSelection) {
  const int handle = mDocument->selectedHandle();
  const IkHandle* selectedHandle = mDocument->activeHandle(handle);
  const bool has = selectedHandle != nullptr;
  if (handle != mHandle) {
    endMerge();
    mMessageLabel->clear();
    mHandle = handle;
  }
  setVisible(has);
  if (!has) return;
  const IkHandle& ikHandle = *selectedHandle;
  const Skeleton& skeleton = mDocument->scene().skeleton;
  const int previous = joint();
  {
    mRefreshing = true;
    const QSignalBlocker blocker(mJointBox);
    mJointBox->clear();
    for (int j : ikHandle.chain) mJointBox->addItem(QString::fromStdString(skeleton.name(j)), j);
    // After a selection change the selected joint when it is on the chain; otherwise (an
    // edit, a rename) the joint shown before; else the tip.
    const auto onChain = [&ikHandle](int j) {
      return std::find(ikHandle.chain.begin(), ikHandle.chain.end(), j) != ikHandle.chain.end();
    };
    int shown = ikHandle.chain.empty() ? -1 : ikHandle.chain.back();
    if (onChain(previous)) shown = previous;
    if (followSelection || !onChain(previous)) {
      for (int selected : mDocument->selectedJoints()) {
        if (onChain(selected)) shown = selected;
      }
    }
    mJointBox->setCurrentIndex(mJointBox->findData(shown));
    mRefreshing = false;
  }
  refreshValues();
}

void JointLimitEditor::refreshValues() {
  const IkHandle* shown = mDocument->activeHandle(mHandle);
  const int index = chainIndex();
  if (!shown || index < 0) return;
  const IkHandle& handle = *shown;
  const JointLimit limit = limitsPerJoint(handle)[static_cast<std::size_t>(index)];
  mTitleLabel->setText(tr("Joint limit of %1").arg(mJointBox->currentText()));
  mRefreshing = true;
  {
    const QSignalBlocker kind(mKindBox), twist(mTwistBox);
    mKindBox->setCurrentIndex(mKindBox->findData(static_cast<int>(limit.kind)));
    mTwistBox->setChecked(limit.twistLimited);
  }
  for (int axis = 0; axis < 3; ++axis) {
    const QSignalBlocker blocker(mAxisBoxes[axis]);
    mAxisBoxes[axis]->setValue(limit.axisParent[axis]);
    mAxisBoxes[axis]->setEnabled(limit.kind != JointLimit::Kind::Free);
  }
  const float angles[AngleFieldCount] = {limit.halfAngleXRad, limit.halfAngleYRad, limit.minAngleRad,
                                         limit.maxAngleRad,   limit.twistMinRad,   limit.twistMaxRad};
  const bool enabled[AngleFieldCount] = {limit.kind == JointLimit::Kind::Cone,
                                         limit.kind == JointLimit::Kind::Cone,
                                         limit.kind == JointLimit::Kind::Hinge,
                                         limit.kind == JointLimit::Kind::Hinge,
                                         limit.twistLimited,
                                         limit.twistLimited};
  for (int field = 0; field < AngleFieldCount; ++field) {
    const QSignalBlocker blocker(mAngleBoxes[field]);
    mAngleBoxes[field]->setValue(angles[field] * kRadToDeg);
    mAngleBoxes[field]->setEnabled(enabled[field]);
  }
  mRefreshing = false;
}

JointLimit JointLimitEditor::limitWithField(JointLimit limit, int field) const {
  // Only the edited field comes from its (rounded) spin box; the others keep the stored,
  // full-precision values.
  const auto radians = [this](AngleField angle) { return static_cast<float>(mAngleBoxes[angle]->value() / kRadToDeg); };
  switch (field) {
    case ConeX:
      limit.halfAngleXRad = radians(ConeX);
      break;
    case ConeY:
      limit.halfAngleYRad = radians(ConeY);
      break;
    case HingeMin:
      limit.minAngleRad = radians(HingeMin);
      break;
    case HingeMax:
      limit.maxAngleRad = radians(HingeMax);
      break;
    case TwistMin:
      limit.twistMinRad = radians(TwistMin);
      break;
    case TwistMax:
      limit.twistMaxRad = radians(TwistMax);
      break;
    case kKindField:
      limit.kind = static_cast<JointLimit::Kind>(mKindBox->currentData().toInt());
      break;
    case kTwistField:
      limit.twistLimited = mTwistBox->isChecked();
      break;
    default:
      if (field >= kAxisField && field < kAxisField + 3) {
        limit.axisParent[field - kAxisField] = static_cast<float>(mAxisBoxes[field - kAxisField]->value());
      }
      break;
  }
  return limit;
}

void JointLimitEditor::edited(int field, bool spinBox) {
  const IkHandle* shown = mDocument->activeHandle(mHandle);
  const int index = chainIndex();
  if (mRefreshing || !shown || index < 0) return;
  if (field != mMergeField || !spinBox) endMerge();
  const IkHandle& current = *shown;
  IkHandle value = current;
  value.limits = limitsPerJoint(current);
  JointLimit& limit = value.limits[static_cast<std::size_t>(index)];
  const JointLimit::Kind oldKind = limit.kind;
  limit = limitWithField(limit, field);
  if (field == kKindField && limit.kind != oldKind) {
    // A new limit starts around the bone's rest direction (parent space), so the rest pose
    // stays allowed: a 45° cone about it, or a ±90° hinge about an axis across it.
    const Skeleton& skeleton = mDocument->scene().skeleton;
    const Vec3 boneParent = boneDirectionParent(skeleton, skeleton.restPose(), current, index);
    const int joint = current.chain[static_cast<std::size_t>(index)];
    const bool twistLimited = limit.twistLimited;
    const float twistMin = limit.twistMinRad, twistMax = limit.twistMaxRad;
    if (limit.kind == JointLimit::Kind::Cone) {
      limit = JointLimit::cone(boneParent, kDefaultConeRad);
    } else if (limit.kind == JointLimit::Kind::Hinge) {
      limit = JointLimit::hinge(boneParent.unitOrthogonal(), -kDefaultHingeRad, kDefaultHingeRad,
                                skeleton.restPose()[static_cast<std::size_t>(joint)].rotation);
    } else {
      limit = JointLimit::free();
    }
    limit.twistLimited = twistLimited;
    limit.twistMinRad = twistMin;
    limit.twistMaxRad = twistMax;
  }
  // An elliptical cone needs its x direction off the axis.
  if (limit.kind == JointLimit::Kind::Cone && limit.axisParent.norm() > 1e-6f &&
      std::abs(limit.axisParent.normalized().dot(limit.xParent.normalized())) > 0.99f) {
    limit.xParent = limit.axisParent.unitOrthogonal();
  }
  const bool allFree = std::all_of(value.limits.begin(), value.limits.end(),
                                   [](const JointLimit& l) { return l == JointLimit::free(); });
  if (allFree) value.limits.clear();
  const QString text = tr("Edit Joint Limit %1").arg(mJointBox->currentText());
  const QString refusal = pushHandleEditOrRefuse(*mDocument, mHandle, std::move(value), text, spinBox && mMergeUndo);
  mMessageLabel->setText(refusal);
  if (!refusal.isEmpty()) {
    endMerge();
    refreshValues();
    emit problem(refusal);
    return;
  }
  mMergeField = field;
  mMergeUndo = spinBox;
}

void JointLimitEditor::endMerge() {
  mMergeUndo = false;
  mMergeField = -1;
}

}  // namespace articula::ui
