#include "ui/docks/rig_dock.h"

#include <QAction>
#include <QCheckBox>
#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QSignalBlocker>
#include <QSlider>
#include <QToolButton>
#include <QTreeView>
#include <QUndoStack>
#include <QVBoxLayout>

#include <cmath>
#include <utility>

#include "ui/commands/handle_commands.h"
#include "ui/commands/ik_fk_snap_command.h"
#include "ui/commands/key_pose_command.h"
#include "ui/commands/rig_set_command.h"
#include "ui/commands/set_rig_enabled_command.h"
#include "ui/document/document.h"
#include "ui/models/rig_handle_model.h"

namespace articula::ui {

namespace {

constexpr int kWeightSteps = 1000;  // slider positions for weights 0..1

QToolButton* makeButton(QAction* action, QWidget* parent) {
  auto* button = new QToolButton(parent);
  button->setDefaultAction(action);
  button->setToolButtonStyle(Qt::ToolButtonTextOnly);
  return button;
}

}  // namespace

RigDock::RigDock(Document* document, QWidget* parent)
    : QDockWidget(tr("Rig"), parent),
      mDocument(document),
      mModel(new RigHandleModel(document, this)),
      mRigLabel(new QLabel(this)),
      mHandleView(new QTreeView(this)),
      mSolverBox(new QComboBox(this)),
      mWeightSlider(new QSlider(Qt::Horizontal, this)),
      mWeightLabel(new QLabel(this)),
      mMessageLabel(new QLabel(this)),
      mAddHandleAction(new QAction(tr("&Add IK Handle"), this)),
      mRemoveHandleAction(new QAction(tr("&Remove IK Handle"), this)),
      mBuildHumanoidAction(new QAction(tr("Build &Humanoid Rig"), this)),
      mEnableRigAction(new QAction(tr("Rig &Enabled"), this)),
      mKeyPoseAction(new QAction(tr("&Key Pose"), this)),
      mSnapFkToIkAction(new QAction(tr("Snap &FK to IK"), this)),
      mSnapIkToFkAction(new QAction(tr("Snap &IK to FK"), this)) {
  setObjectName(QStringLiteral("RigDock"));
  mAddHandleAction->setObjectName(QStringLiteral("actionAddIkHandle"));
  mAddHandleAction->setShortcut(QKeySequence(Qt::SHIFT | Qt::Key_I));
  mAddHandleAction->setToolTip(tr("Add an IK handle on the selected joints (root to tip) with the chosen solver"));
  mRemoveHandleAction->setObjectName(QStringLiteral("actionRemoveIkHandle"));
  mRemoveHandleAction->setToolTip(tr("Remove the selected IK handle"));
  mBuildHumanoidAction->setObjectName(QStringLiteral("actionBuildHumanoidRig"));
  mBuildHumanoidAction->setToolTip(tr("Build legs, arms and spine handles from the humanoid roles (Animation ▸ Characterise…)"));
  mEnableRigAction->setObjectName(QStringLiteral("actionRigEnabled"));
  mEnableRigAction->setCheckable(true);
  mEnableRigAction->setToolTip(tr("Solve the active rig (off: the pose is pure FK)"));
  mKeyPoseAction->setObjectName(QStringLiteral("actionRigKeyPose"));
  mKeyPoseAction->setToolTip(
      tr("Key the pose shown at the current frame: posed and selected joints, every joint the rig moved, and the "
         "selected handle's target"));
  mSnapFkToIkAction->setObjectName(QStringLiteral("actionSnapFkToIk"));
  mSnapFkToIkAction->setToolTip(tr("Pose the selected handle's FK joints where the IK solve put them"));
  mSnapIkToFkAction->setObjectName(QStringLiteral("actionSnapIkToFk"));
  mSnapIkToFkAction->setToolTip(tr("Move the selected handle's target and pole to the FK pose"));
  connect(mAddHandleAction, &QAction::triggered, this, &RigDock::addHandle);
  connect(mRemoveHandleAction, &QAction::triggered, this, &RigDock::removeSelectedHandle);
  connect(mBuildHumanoidAction, &QAction::triggered, this, &RigDock::buildHumanoidRig);
  connect(mKeyPoseAction, &QAction::triggered, this, &RigDock::keyPose);
  connect(mSnapFkToIkAction, &QAction::triggered, this, &RigDock::snapFkToIk);
  connect(mSnapIkToFkAction, &QAction::triggered, this, &RigDock::snapIkToFk);
  connect(mEnableRigAction, &QAction::toggled, this, [this](bool enabled) {
    if (mRefreshing || enabled == mDocument->rigEnabled()) return;
    mDocument->undoStack()->push(new SetRigEnabledCommand(mDocument, enabled));
  });

  for (int kind = 0; kind < kIkSolverKindCount; ++kind) {
    const auto solver = static_cast<IkSolverKind>(kind);
    mSolverBox->addItem(solverLabel(solver), kind);
  }
  setChosenSolver(IkSolverKind::Ccd);
  mSolverBox->setToolTip(tr("Solver of the next handle added"));
  mSolverBox->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
  mSolverBox->setMinimumContentsLength(10);

  mHandleView->setModel(mModel);
  mHandleView->setRootIsDecorated(false);
  mHandleView->setUniformRowHeights(true);
  mHandleView->setAllColumnsShowFocus(true);
  mHandleView->setSelectionMode(QAbstractItemView::SingleSelection);
  mHandleView->setSelectionBehavior(QAbstractItemView::SelectRows);
  mHandleView->setEditTriggers(QAbstractItemView::NoEditTriggers);
  mHandleView->header()->setStretchLastSection(false);
  // Names are short and must read in full; long solver names elide.
  mHandleView->header()->setSectionResizeMode(RigHandleModel::NameColumn, QHeaderView::ResizeToContents);
  mHandleView->header()->setSectionResizeMode(RigHandleModel::SolverColumn, QHeaderView::Stretch);
  mHandleView->header()->setSectionResizeMode(RigHandleModel::StateColumn, QHeaderView::ResizeToContents);

  mWeightSlider->setObjectName(QStringLiteral("ikFkBlendSlider"));
  mWeightSlider->setRange(0, kWeightSteps);
  mWeightSlider->setPageStep(kWeightSteps / 10);
  mWeightSlider->setToolTip(tr("IK/FK blend of the selected handle: 0 = FK pose, 1 = IK result"));
  mWeightLabel->setMinimumWidth(mWeightLabel->fontMetrics().horizontalAdvance(QStringLiteral("0.000")));
  connect(mWeightSlider, &QSlider::sliderPressed, this, [this] { mWeightDragPushed = false; });
  connect(mWeightSlider, &QSlider::sliderReleased, this, [this] { mWeightDragPushed = false; });
  connect(mWeightSlider, &QSlider::valueChanged, this, &RigDock::weightSliderMoved);

  mRigLabel->setWordWrap(true);
  mMessageLabel->setObjectName(QStringLiteral("rigMessage"));
  mMessageLabel->setWordWrap(true);
  mMessageLabel->setTextInteractionFlags(Qt::TextSelectableByMouse | Qt::LinksAccessibleByMouse);
  connect(mMessageLabel, &QLabel::linkActivated, this, &RigDock::characteriseRequested);

  auto* content = new QWidget(this);
  auto* layout = new QVBoxLayout(content);
  layout->setContentsMargins(4, 4, 4, 4);
  layout->setSpacing(4);
  auto* rigRow = new QHBoxLayout;
  rigRow->addWidget(mRigLabel, 1);
  // A check box reads as a switch; it drives the (checkable) action the Rig menu shows.
  auto* enableBox = new QCheckBox(tr("Enabled"), content);
  enableBox->setObjectName(QStringLiteral("rigEnabledBox"));
  enableBox->setToolTip(mEnableRigAction->toolTip());
  enableBox->setChecked(mEnableRigAction->isChecked());
  enableBox->setEnabled(mEnableRigAction->isEnabled());
  connect(enableBox, &QCheckBox::toggled, mEnableRigAction, &QAction::setChecked);
  connect(mEnableRigAction, &QAction::toggled, enableBox, [enableBox](bool on) {
    const QSignalBlocker blocker(enableBox);
    enableBox->setChecked(on);
  });
  connect(mEnableRigAction, &QAction::changed, enableBox,
          [this, enableBox] { enableBox->setEnabled(mEnableRigAction->isEnabled()); });
  rigRow->addWidget(enableBox);
  layout->addLayout(rigRow);
  auto* buildRow = new QHBoxLayout;
  buildRow->addWidget(makeButton(mBuildHumanoidAction, content));
  buildRow->addWidget(makeButton(mKeyPoseAction, content));
  buildRow->addStretch(1);
  layout->addLayout(buildRow);
  auto* snapRow = new QHBoxLayout;
  snapRow->addWidget(makeButton(mSnapFkToIkAction, content));
  snapRow->addWidget(makeButton(mSnapIkToFkAction, content));
  snapRow->addStretch(1);
  layout->addLayout(snapRow);
  layout->addWidget(mHandleView, 1);
  auto* solverRow = new QHBoxLayout;
  solverRow->addWidget(new QLabel(tr("Solver"), content));
  solverRow->addWidget(mSolverBox, 1);
  layout->addLayout(solverRow);
  auto* addRow = new QHBoxLayout;
  addRow->addWidget(makeButton(mAddHandleAction, content));
  addRow->addWidget(makeButton(mRemoveHandleAction, content));
  addRow->addStretch(1);
  layout->addLayout(addRow);
  auto* weightRow = new QHBoxLayout;
  weightRow->addWidget(new QLabel(tr("FK"), content));
  weightRow->addWidget(mWeightSlider, 1);
  weightRow->addWidget(new QLabel(tr("IK"), content));
  weightRow->addWidget(mWeightLabel);
  layout->addLayout(weightRow);
  layout->addWidget(mMessageLabel);
  setWidget(content);

  connect(mHandleView->selectionModel(), &QItemSelectionModel::selectionChanged, this, &RigDock::viewSelectionChanged);
  connect(mDocument, &Document::changed, this, &RigDock::documentChanged);
  refreshRigState();
}

IkSolverKind RigDock::chosenSolver() const { return static_cast<IkSolverKind>(mSolverBox->currentData().toInt()); }

void RigDock::setChosenSolver(IkSolverKind solver) {
  mSolverBox->setCurrentIndex(mSolverBox->findData(static_cast<int>(solver)));
}

bool RigDock::addHandle() {
  Result<IkHandle> handle = AddHandleCommand::handleFromSelection(*mDocument, chosenSolver());
  if (!handle) {
    showProblem(tr("Cannot add an IK handle: %1").arg(QString::fromStdString(handle.error())));
    return false;
  }
  const QString problemText = AddHandleCommand::validate(*mDocument, *handle);
  if (!problemText.isEmpty()) {
    showProblem(tr("Cannot add an IK handle: %1").arg(problemText));
    return false;
  }
  const QString name = QString::fromStdString(handle->name);
  mDocument->undoStack()->push(new AddHandleCommand(mDocument, std::move(handle).value()));
  mDocument->setSelectedHandle(static_cast<int>(mDocument->activeRig()->handles.size()) - 1);
  showInfo(tr("Added %1 (%2).").arg(name, solverLabel(chosenSolver())));
  return true;
}

bool RigDock::removeSelectedHandle() {
  const int handle = mDocument->selectedHandle();
  if (handle < 0) {
    showProblem(tr("Select the IK handle to remove."));
    return false;
  }
  mDocument->undoStack()->push(new RemoveHandleCommand(mDocument, handle));
  showInfo(QString());
  return true;
}

bool RigDock::buildHumanoidRig() {
  Result<RigDefinition> rig = BuildHumanoidRigCommand::humanoidRig(*mDocument);
  if (!rig) {
    // The names said too little: the offer first, where it is seen before the long reason.
    showProblem(QStringLiteral("<a href=\"characterise\">%1</a> ").arg(tr("Map the joints by hand…")) +
                tr("Cannot build a humanoid rig: %1").arg(QString::fromStdString(rig.error())).toHtmlEscaped());
    return false;
  }
  auto* command = new BuildHumanoidRigCommand(mDocument, std::move(rig).value());
  const bool changes = !command->isObsolete();
  mDocument->undoStack()->push(command);
  showInfo(changes ? tr("Built the humanoid rig.") : tr("The humanoid rig is already built."));
  return changes;
}

bool RigDock::keyPose() {
  if (!KeyPoseCommand::canKeyPose(*mDocument)) {
    showProblem(tr("Nothing to key: pose or select joints of a clip first."));
    return false;
  }
  mDocument->undoStack()->push(new KeyPoseCommand(mDocument));
  showInfo(tr("Keyed the pose at frame %1.").arg(mDocument->currentFrame()));
  return true;
}

void RigDock::documentChanged(const ChangeEvent& event) {
  switch (event.type) {
    case ChangeEvent::Type::SceneReplaced:
      mMessageLabel->clear();  // it spoke of the previous file
      [[fallthrough]];
    case ChangeEvent::Type::RigChanged:
      // The model has reset itself (it is connected first).
      refreshRigState();
      syncSelectionFromDocument();
      break;
    case ChangeEvent::Type::SelectionChanged:
      syncSelectionFromDocument();
      break;
    case ChangeEvent::Type::HandleEdited:
      refreshWeight();
      break;
    case ChangeEvent::Type::RigEnabledChanged:
      refreshRigState();
      break;
    case ChangeEvent::Type::CurrentClipChanged:
    case ChangeEvent::Type::TimeChanged:
    case ChangeEvent::Type::PoseEdited:
    case ChangeEvent::Type::JointRenamed:
    case ChangeEvent::Type::ClipEdited:
    case ChangeEvent::Type::ActiveLayerChanged:
    case ChangeEvent::Type::RolesChanged:
      break;
  }
  // What can be keyed or snapped depends on the pose, the selection and the rig: any change
  // may alter it.
  refreshActions();
}

void RigDock::refreshActions() {
  mKeyPoseAction->setEnabled(KeyPoseCommand::canKeyPose(*mDocument));
  const int handle = mDocument->selectedHandle();
  mSnapFkToIkAction->setEnabled(SnapFkToIkCommand::canSnap(*mDocument, handle));
  mSnapIkToFkAction->setEnabled(SnapIkToFkCommand::canSnap(*mDocument, handle));
}

bool RigDock::snapFkToIk() {
  const int handle = mDocument->selectedHandle();
  if (!SnapFkToIkCommand::canSnap(*mDocument, handle)) {
    showProblem(tr("Nothing to snap: select an IK handle of the rig while it solves."));
    return false;
  }
  mDocument->undoStack()->push(new SnapFkToIkCommand(mDocument, handle));
  showInfo(tr("Posed the FK joints on the IK result."));
  return true;
}

bool RigDock::snapIkToFk() {
  const int handle = mDocument->selectedHandle();
  if (!SnapIkToFkCommand::canSnap(*mDocument, handle)) {
    showProblem(tr("Nothing to snap: select an IK handle of the rig."));
    return false;
  }
  mDocument->undoStack()->push(new SnapIkToFkCommand(mDocument, handle));
  showInfo(tr("Moved the IK target and pole to the FK pose."));
  return true;
}

void RigDock::refreshRigState() {
  const RigDefinition* rig = mDocument->activeRig();
  if (!rig) {
    mRigLabel->setText(tr("No rig: build the humanoid rig or add a handle."));
  } else if (!mDocument->rigError().isEmpty()) {
    mRigLabel->setText(tr("Rig “%1” does not bind: %2").arg(QString::fromStdString(rig->name), mDocument->rigError()));
  } else {
    mRigLabel->setText(tr("Rig “%1”: %n handle(s)", nullptr, static_cast<int>(rig->handles.size()))
                           .arg(QString::fromStdString(rig->name)));
  }
  mRefreshing = true;
  mEnableRigAction->setChecked(mDocument->rigEnabled());
  mRefreshing = false;
  mEnableRigAction->setEnabled(rig != nullptr);
  refreshActions();
  refreshWeight();
}

void RigDock::refreshWeight() {
  const IkHandle* selected = mDocument->activeHandle(mDocument->selectedHandle());
  const bool has = selected != nullptr;
  mRemoveHandleAction->setEnabled(has);
  mWeightSlider->setEnabled(has);
  const float weight = has ? selected->weight : 0.0f;
  mRefreshing = true;
  // Not while dragging: the slider shows where the mouse is, the document follows it.
  if (!mWeightSlider->isSliderDown()) mWeightSlider->setValue(static_cast<int>(std::lround(weight * kWeightSteps)));
  mRefreshing = false;
  mWeightLabel->setText(has ? QString::number(static_cast<double>(weight), 'f', 3) : QString());
}

void RigDock::weightSliderMoved(int value) {
  const int handle = mDocument->selectedHandle();
  const IkHandle* selected = mDocument->activeHandle(handle);
  if (mRefreshing || !selected) return;
  IkHandle edited = *selected;
  edited.weight = static_cast<float>(value) / static_cast<float>(kWeightSteps);
  const QString text = tr("IK/FK Blend %1").arg(QString::fromStdString(edited.name));
  auto* command = new EditHandleCommand(mDocument, handle, std::move(edited), text);
  // A drag (the slider held down) is one step; a key press or wheel turn is a step of its own.
  const bool dragging = mWeightSlider->isSliderDown();
  command->setMergeable(dragging && mWeightDragPushed);
  mDocument->undoStack()->push(command);
  mWeightDragPushed = dragging;
}

void RigDock::viewSelectionChanged() {
  if (mSyncing) return;
  const QModelIndexList rows = mHandleView->selectionModel()->selectedRows(RigHandleModel::NameColumn);
  mSyncing = true;
  // A row click selects the handle alone, as a click on it in the viewport does: the gizmo
  // sits on a selected joint first, so one left selected would carry it.
  if (!rows.isEmpty()) mDocument->setSelectedJoints({});
  mDocument->setSelectedHandle(rows.isEmpty() ? -1 : rows.front().row());
  mSyncing = false;
  refreshWeight();
}

void RigDock::syncSelectionFromDocument() {
  refreshWeight();
  if (mSyncing) return;
  const int handle = mDocument->selectedHandle();
  mSyncing = true;
  if (handle >= 0 && handle < mModel->rowCount()) {
    const QModelIndex row = mModel->index(handle, RigHandleModel::NameColumn);
    mHandleView->selectionModel()->select(row, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    mHandleView->selectionModel()->setCurrentIndex(row, QItemSelectionModel::NoUpdate);
    mHandleView->scrollTo(row);
  } else {
    mHandleView->selectionModel()->clearSelection();
  }
  mSyncing = false;
}

void RigDock::showProblem(const QString& message) {
  mMessageLabel->setStyleSheet(QStringLiteral("color: #c8412b;"));
  mMessageLabel->setText(message);
  emit problem(message);
}

void RigDock::showInfo(const QString& message) {
  mMessageLabel->setStyleSheet(QString());
  mMessageLabel->setText(message);
}

}  // namespace articula::ui
