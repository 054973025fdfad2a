#include "ui/widgets/handle_editor.h"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QUndoStack>

#include <utility>

#include "core/math/euler.h"
#include "ui/commands/handle_commands.h"
#include "ui/document/document.h"
#include "ui/models/rig_handle_model.h"
#include "ui/widgets/field_spin_box.h"
#include "ui/widgets/handle_edits.h"

namespace articula::ui {

HandleEditor::HandleEditor(Document* document, QWidget* parent)
    : QWidget(parent),
      mDocument(document),
      mTitleLabel(new QLabel(this)),
      mSolverBox(new QComboBox(this)),
      mRootBox(new QComboBox(this)),
      mChainLabel(new QLabel(this)),
      mPoleSpaceBox(new QComboBox(this)),
      mPoleJointBox(new QComboBox(this)),
      mRollBox(makeFieldSpinBox(-180.0, 180.0, 2, 1.0, this)),
      mWeightBox(makeFieldSpinBox(0.0, 1.0, 3, 0.05, this)),
      mIterationsBox(new QSpinBox(this)),
      mToleranceBox(makeFieldSpinBox(0.0, 1e3, 6, 1e-4, this)),
      mMessageLabel(new QLabel(this)) {
  auto* form = new QFormLayout(this);
  form->setContentsMargins(0, 0, 0, 0);
  // Labels above their fields, as in the transform editor: fits a narrow dock.
  form->setRowWrapPolicy(QFormLayout::WrapAllRows);
  QFont bold = mTitleLabel->font();
  bold.setBold(true);
  mTitleLabel->setFont(bold);
  form->addRow(mTitleLabel);
  auto* targetRow = new QHBoxLayout;
  auto* orientationRow = new QHBoxLayout;
  for (int axis = 0; axis < 3; ++axis) {
    const auto targetField = static_cast<Field>(static_cast<int>(Field::TargetX) + axis);
    const auto orientationField = static_cast<Field>(static_cast<int>(Field::OrientationX) + axis);
    mTargetBoxes[axis] = makeFieldSpinBox(-1e6, 1e6, 4, 0.01, this);
    mOrientationBoxes[axis] = makeFieldSpinBox(-1e5, 1e5, 2, 1.0, this);
    targetRow->addWidget(mTargetBoxes[axis]);
    orientationRow->addWidget(mOrientationBoxes[axis]);
    connect(mTargetBoxes[axis], &QDoubleSpinBox::valueChanged, this,
            [this, targetField] { placementEdited(targetField); });
    connect(mOrientationBoxes[axis], &QDoubleSpinBox::valueChanged, this,
            [this, orientationField] { placementEdited(orientationField); });
    for (QDoubleSpinBox* box : {mTargetBoxes[axis], mOrientationBoxes[axis]})
      connect(box, &QDoubleSpinBox::editingFinished, this, &HandleEditor::endMerge);
  }
  mTargetBoxes[0]->setToolTip(tr("Where the target is, model space: typing moves it as a drag does"));
  form->addRow(tr("Target position"), targetRow);
  mOrientationBoxes[0]->setToolTip(tr("The tip's orientation, model space, XYZ Euler angles in degrees"));
  form->addRow(tr("Target rotation (°)"), orientationRow);
  mRollBox->setToolTip(tr("Foot roll: positive lifts the heel about the ball (past 40° about the toe tip), "
                          "negative lifts the toes about the heel"));
  form->addRow(tr("Foot roll (°)"), mRollBox);
  connect(mRollBox, &QDoubleSpinBox::valueChanged, this, [this] { placementEdited(Field::Roll); });
  connect(mRollBox, &QDoubleSpinBox::editingFinished, this, &HandleEditor::endMerge);
  for (int kind = 0; kind < kIkSolverKindCount; ++kind)
    mSolverBox->addItem(solverLabel(static_cast<IkSolverKind>(kind)), kind);
  form->addRow(tr("Solver"), mSolverBox);
  mRootBox->setToolTip(tr("First joint of the chain; the chain runs from it down to the tip"));
  form->addRow(tr("Chain root"), mRootBox);
  mChainLabel->setWordWrap(true);
  form->addRow(tr("Chain"), mChainLabel);
  mPoleSpaceBox->addItem(tr("None"), static_cast<int>(IkPole::Space::None));
  mPoleSpaceBox->addItem(tr("Model space"), static_cast<int>(IkPole::Space::Model));
  mPoleSpaceBox->addItem(tr("Joint space"), static_cast<int>(IkPole::Space::Joint));
  mPoleSpaceBox->setToolTip(tr("Where the pole position is given (two-bone solvers bend towards the pole)"));
  form->addRow(tr("Pole"), mPoleSpaceBox);
  mPoleJointBox->setToolTip(tr("Joint whose local frame carries the pole (joint space)"));
  form->addRow(tr("Pole joint"), mPoleJointBox);
  auto* poleRow = new QHBoxLayout;
  const Field poleFields[3] = {Field::PoleX, Field::PoleY, Field::PoleZ};
  for (int axis = 0; axis < 3; ++axis) {
    mPoleBoxes[axis] = makeFieldSpinBox(-1e6, 1e6, 4, 0.01, this);
    poleRow->addWidget(mPoleBoxes[axis]);
    connect(mPoleBoxes[axis], &QDoubleSpinBox::valueChanged, this,
            [this, field = poleFields[axis]] { fieldEdited(field); });
    connect(mPoleBoxes[axis], &QDoubleSpinBox::editingFinished, this, &HandleEditor::endMerge);
  }
  form->addRow(tr("Pole position"), poleRow);
  mWeightBox->setToolTip(tr("IK/FK blend: 0 = FK pose, 1 = IK result"));
  form->addRow(tr("Weight"), mWeightBox);
  // Below 1 is refused with a message rather than clamped silently.
  mIterationsBox->setRange(0, 100000);
  mIterationsBox->setKeyboardTracking(false);
  mIterationsBox->setAccelerated(true);
  form->addRow(tr("Iterations"), mIterationsBox);
  mToleranceBox->setToolTip(tr("Reached when the tip is this close to the target (model units)"));
  form->addRow(tr("Tolerance"), mToleranceBox);
  mMessageLabel->setObjectName(QStringLiteral("handleMessage"));
  mMessageLabel->setWordWrap(true);
  mMessageLabel->setStyleSheet(QStringLiteral("color: #c8412b;"));
  form->addRow(mMessageLabel);

  // Long solver and joint names must not widen the dock.
  for (QComboBox* box : {mSolverBox, mRootBox, mPoleSpaceBox, mPoleJointBox}) {
    box->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    box->setMinimumContentsLength(12);
  }
  connect(mSolverBox, &QComboBox::currentIndexChanged, this, [this] { fieldEdited(Field::Solver); });
  connect(mRootBox, &QComboBox::currentIndexChanged, this, [this] { fieldEdited(Field::Root); });
  connect(mPoleSpaceBox, &QComboBox::currentIndexChanged, this, [this] { fieldEdited(Field::PoleSpace); });
  connect(mPoleJointBox, &QComboBox::currentIndexChanged, this, [this] { fieldEdited(Field::PoleJoint); });
  connect(mWeightBox, &QDoubleSpinBox::valueChanged, this, [this] { fieldEdited(Field::Weight); });
  connect(mWeightBox, &QDoubleSpinBox::editingFinished, this, &HandleEditor::endMerge);
  connect(mIterationsBox, &QSpinBox::valueChanged, this, [this] { fieldEdited(Field::Iterations); });
  connect(mIterationsBox, &QSpinBox::editingFinished, this, &HandleEditor::endMerge);
  connect(mToleranceBox, &QDoubleSpinBox::valueChanged, this, [this] { fieldEdited(Field::Tolerance); });
  connect(mToleranceBox, &QDoubleSpinBox::editingFinished, this, &HandleEditor::endMerge);
  connect(mDocument, &Document::changed, this, &HandleEditor::documentChanged);
  showHandle();
}

const IkHandle* HandleEditor::currentHandle() const { return mDocument->activeHandle(mHandle); }

void HandleEditor::documentChanged(const ChangeEvent& event) {
  switch (event.type) {
    case ChangeEvent::Type::SceneReplaced:
    case ChangeEvent::Type::SelectionChanged:
    case ChangeEvent::Type::RigChanged:
    case ChangeEvent::Type::JointRenamed:
      showHandle();
      break;
    case ChangeEvent::Type::HandleEdited:
      if (event.handle == mHandle) refreshValues();
      refreshPlacement();
      break;
    // Where the handle is shown follows the clip, the pose and the other handles.
    case ChangeEvent::Type::CurrentClipChanged:
    case ChangeEvent::Type::TimeChanged:
    case ChangeEvent::Type::PoseEdited:
    case ChangeEvent::Type::ClipEdited:
    case ChangeEvent::Type::RigEnabledChanged:
      refreshPlacement();
      break;
    case ChangeEvent::Type::ActiveLayerChanged:
    case ChangeEvent::Type::RolesChanged:
      break;
  }
}

void HandleEditor::showHandle() {
  const int handle = mDocument->selectedHandle();
  if (handle != mHandle) {
    endMerge();
    mMessageLabel->clear();
    mHandle = handle;
  }
  setVisible(currentHandle() != nullptr);
  refreshValues();
}

void HandleEditor::refreshValues() {
  const IkHandle* handle = currentHandle();
  if (!handle || handle->chain.empty()) return;
  const Skeleton& skeleton = mDocument->scene().skeleton;
  const auto name = [&skeleton](int joint) { return QString::fromStdString(skeleton.name(joint)); };
  mRefreshing = true;
  const QSignalBlocker blockSolver(mSolverBox), blockRoot(mRootBox), blockSpace(mPoleSpaceBox),
      blockPoleJoint(mPoleJointBox), blockWeight(mWeightBox), blockIterations(mIterationsBox),
      blockTolerance(mToleranceBox);
  mTitleLabel->setText(tr("IK handle %1").arg(QString::fromStdString(handle->name)));
  mSolverBox->setCurrentIndex(mSolverBox->findData(static_cast<int>(handle->solver)));
  // The root may be any ancestor of the tip (nearest first).
  mRootBox->clear();
  for (int j = skeleton.parent(handle->chain.back()); j != kNoParent; j = skeleton.parent(j))
    mRootBox->addItem(name(j), j);
  mRootBox->setCurrentIndex(mRootBox->findData(handle->chain.front()));
  QStringList chain;
  for (int joint : handle->chain) chain << name(joint);
  mChainLabel->setText(chain.join(QStringLiteral(" → ")));
  mPoleSpaceBox->setCurrentIndex(mPoleSpaceBox->findData(static_cast<int>(handle->pole.space)));
  if (mPoleJointBox->count() != skeleton.jointCount()) {
    mPoleJointBox->clear();
    for (int j = 0; j < skeleton.jointCount(); ++j) mPoleJointBox->addItem(name(j), j);
  } else {
    for (int j = 0; j < skeleton.jointCount(); ++j) mPoleJointBox->setItemText(j, name(j));
  }
  mPoleJointBox->setCurrentIndex(mPoleJointBox->findData(handle->pole.joint));
  mPoleJointBox->setEnabled(handle->pole.space == IkPole::Space::Joint);
  for (int axis = 0; axis < 3; ++axis) {
    const QSignalBlocker blocker(mPoleBoxes[axis]);
    mPoleBoxes[axis]->setValue(handle->pole.position[axis]);
    mPoleBoxes[axis]->setEnabled(handle->pole.space != IkPole::Space::None);
  }
  mWeightBox->setValue(handle->weight);
  mIterationsBox->setValue(handle->maxIterations);
  mToleranceBox->setValue(handle->toleranceModel);
  mRefreshing = false;
  refreshPlacement();
}

void HandleEditor::refreshPlacement() {
  const std::optional<Vec3> target = shownTargetModel(*mDocument, mHandle);
  const std::optional<Quat> orientation = requestedOrientation(*mDocument, mHandle);
  const std::optional<IkHandle> shown = mDocument->shownHandle(mHandle);
  if (!target || !orientation || !shown) return;
  mRefreshing = true;
  {
    const QSignalBlocker blockRoll(mRollBox);
    const bool leg = shown->role == HandleRole::LeftLeg || shown->role == HandleRole::RightLeg;
    mRollBox->setEnabled(leg);
    if (!mRollBox->hasFocus()) mRollBox->setValue(static_cast<double>(shown->rollRad) * 180.0 / kPi);
  }
  mOrientationRad = withinHalfTurn(quatToEuler(*orientation, RotationOrder::XYZ, &mOrientationRad));
  for (int axis = 0; axis < 3; ++axis) {
    const QSignalBlocker blockTarget(mTargetBoxes[axis]), blockOrientation(mOrientationBoxes[axis]);
    // A field being typed in keeps what is typed.
    if (!mTargetBoxes[axis]->hasFocus()) mTargetBoxes[axis]->setValue((*target)[axis]);
    if (!mOrientationBoxes[axis]->hasFocus())
      mOrientationBoxes[axis]->setValue(static_cast<double>(mOrientationRad[axis]) * 180.0 / kPi);
  }
  mRefreshing = false;
}

void HandleEditor::placementEdited(Field field) {
  if (mRefreshing || !currentHandle()) return;
  if (field != mMergeField) endMerge();
  MoveHandleCommand* command = nullptr;
  if (field == Field::Roll) {
    command = MoveHandleCommand::roll(mDocument, mHandle, static_cast<float>(mRollBox->value() * kPi / 180.0));
  } else if (field == Field::TargetX || field == Field::TargetY || field == Field::TargetZ) {
    const Vec3 target(static_cast<float>(mTargetBoxes[0]->value()), static_cast<float>(mTargetBoxes[1]->value()),
                      static_cast<float>(mTargetBoxes[2]->value()));
    command = new MoveHandleCommand(mDocument, mHandle, MoveHandleCommand::Part::Target, target);
  } else {
    for (int axis = 0; axis < 3; ++axis)
      mOrientationRad[axis] = static_cast<float>(mOrientationBoxes[axis]->value() * kPi / 180.0);
    command = new MoveHandleCommand(mDocument, mHandle, eulerToQuat(mOrientationRad, RotationOrder::XYZ));
  }
  command->setMergeable(mMergeUndo);
  mDocument->undoStack()->push(command);
  mMergeField = field;
  mMergeUndo = true;
}

void HandleEditor::fieldEdited(Field field) {
  const IkHandle* current = currentHandle();
  if (mRefreshing || !current) return;
  const bool spinBox = field == Field::PoleX || field == Field::PoleY || field == Field::PoleZ ||
                       field == Field::Weight || field == Field::Iterations || field == Field::Tolerance;
  if (field != mMergeField || !spinBox) endMerge();
  IkHandle edited = *current;
  QString text;
  switch (field) {
    case Field::Solver:
      edited.solver = static_cast<IkSolverKind>(mSolverBox->currentData().toInt());
      text = tr("Set IK Solver %1");
      break;
    case Field::Root:
      edited = withChainRoot(mDocument->scene().skeleton, std::move(edited), mRootBox->currentData().toInt());
      text = tr("Set IK Chain %1");
      break;
    case Field::PoleSpace:
      edited.pole.space = static_cast<IkPole::Space>(mPoleSpaceBox->currentData().toInt());
      if (edited.pole.space == IkPole::Space::Joint && edited.pole.joint < 0) edited.pole.joint = edited.chain.front();
      text = tr("Set IK Pole %1");
      break;
    case Field::PoleJoint:
      edited.pole.joint = mPoleJointBox->currentData().toInt();
      text = tr("Set IK Pole %1");
      break;
    case Field::PoleX:
    case Field::PoleY:
    case Field::PoleZ:
      edited.pole.position[static_cast<int>(field) - static_cast<int>(Field::PoleX)] =
          static_cast<float>(mPoleBoxes[static_cast<int>(field) - static_cast<int>(Field::PoleX)]->value());
      text = tr("Move IK Pole %1");
      break;
    case Field::Weight:
      edited.weight = static_cast<float>(mWeightBox->value());
      text = tr("IK/FK Blend %1");
      break;
    case Field::Iterations:
      edited.maxIterations = mIterationsBox->value();
      text = tr("Set IK Iterations %1");
      break;
    case Field::Tolerance:
      edited.toleranceModel = static_cast<float>(mToleranceBox->value());
      text = tr("Set IK Tolerance %1");
      break;
    case Field::TargetX:  // placementEdited's
    case Field::TargetY:
    case Field::TargetZ:
    case Field::OrientationX:
    case Field::OrientationY:
    case Field::OrientationZ:
    case Field::Roll:
    case Field::None:
      return;
  }
  const QString name = QString::fromStdString(current->name);
  const QString refusal =
      pushHandleEditOrRefuse(*mDocument, mHandle, std::move(edited), text.arg(name), spinBox && mMergeUndo);
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

void HandleEditor::endMerge() {
  mMergeUndo = false;
  mMergeField = Field::None;
}

}  // namespace articula::ui
