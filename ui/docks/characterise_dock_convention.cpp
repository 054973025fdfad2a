#include "ui/docks/characterise_dock_convention.h"

#include <QComboBox>
#include <QFormLayout>
#include <QLabel>
#include <QSignalBlocker>
#include <QUndoStack>
#include <QVBoxLayout>

#include <cmath>

#include "core/retarget/capture_convention.h"
#include "core/retarget/rest_pose.h"
#include "core/rig/humanoid_map.h"
#include "ui/commands/set_convention_command.h"
#include "ui/document/document.h"

namespace articula::ui {
namespace {

constexpr const char* kAxes[] = {"+X", "-X", "+Y", "-Y", "+Z", "-Z"};

QString autoItem(const QString& decided) {
  return decided.isEmpty() ? QObject::tr("Auto") : QObject::tr("Auto (%1)").arg(decided);
}

// Selects the item whose data is `data` (the first, Auto, when none is).
void selectData(QComboBox* box, const QVariant& data) {
  const int index = box->findData(data);
  box->setCurrentIndex(index < 0 ? 0 : index);
}

QString line(const QString& label, const std::string& value, const std::string& reason) {
  return QStringLiteral("<b>%1</b> %2 <span style='color:gray'>(%3)</span>")
      .arg(label, QString::fromStdString(value).toHtmlEscaped(), QString::fromStdString(reason).toHtmlEscaped());
}

}  // namespace

ConventionEditor::ConventionEditor(Document* document, QWidget* parent)
    : QWidget(parent),
      mDocument(document),
      mUpBox(new QComboBox(this)),
      mFacingBox(new QComboBox(this)),
      mUnitsBox(new QComboBox(this)),
      mLabel(new QLabel(this)) {
  mUpBox->setObjectName(QStringLiteral("conventionUp"));
  mUpBox->setToolTip(tr("Which way is up in the capture: Auto decides it from the rest pose and the motion"));
  mFacingBox->setObjectName(QStringLiteral("conventionFacing"));
  mFacingBox->setToolTip(tr("Which way the figure faces: Auto takes the thighs' left-to-right line crossed with the up"));
  mUnitsBox->setObjectName(QStringLiteral("conventionUnits"));
  mUnitsBox->setToolTip(tr("The capture's length unit: Auto guesses it from the figure's height"));
  mLabel->setObjectName(QStringLiteral("characteriseConvention"));
  mLabel->setWordWrap(true);
  mLabel->setTextInteractionFlags(Qt::TextSelectableByMouse);
  auto* form = new QFormLayout;
  form->addRow(tr("Up"), mUpBox);
  form->addRow(tr("Facing"), mFacingBox);
  form->addRow(tr("Units"), mUnitsBox);
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addLayout(form);
  layout->addWidget(mLabel);
  connect(mUpBox, &QComboBox::activated, this, &ConventionEditor::upChosen);
  connect(mFacingBox, &QComboBox::activated, this, &ConventionEditor::facingChosen);
  connect(mUnitsBox, &QComboBox::activated, this, &ConventionEditor::unitsChosen);
  refresh();
}

bool ConventionEditor::setConvention(ConventionOverride convention) {
  if (convention.upModel && convention.forwardModel && std::abs(convention.upModel->dot(*convention.forwardModel)) > 1e-6f)
    convention.forwardModel.reset();
  auto* command = new SetConventionCommand(mDocument, std::move(convention), tr("Set Capture Convention"));
  const bool changes = !command->isObsolete();
  mDocument->undoStack()->push(command);
  return changes;
}

void ConventionEditor::upChosen(int index) {
  ConventionOverride convention = mDocument->scene().convention;
  convention.upModel = axisFromName(mUpBox->itemData(index).toString().toStdString());
  setConvention(convention);
}

void ConventionEditor::facingChosen(int index) {
  ConventionOverride convention = mDocument->scene().convention;
  convention.forwardModel = axisFromName(mFacingBox->itemData(index).toString().toStdString());
  setConvention(convention);
}

void ConventionEditor::unitsChosen(int index) {
  ConventionOverride convention = mDocument->scene().convention;
  const double unitsPerMetre = mUnitsBox->itemData(index).toDouble();
  convention.unitsPerMetre = unitsPerMetre > 0.0 ? std::optional<double>(unitsPerMetre) : std::nullopt;
  setConvention(convention);
}

void ConventionEditor::fillBoxes(const QString& decidedUp, const QString& decidedFacing, const QString& decidedUnits,
                                 const std::optional<Vec3>& upModel) {
  const ConventionOverride& chosen = mDocument->scene().convention;
  const QSignalBlocker blockUp(mUpBox), blockFacing(mFacingBox), blockUnits(mUnitsBox);
  for (QComboBox* box : {mUpBox, mFacingBox, mUnitsBox}) box->clear();
  mUpBox->addItem(autoItem(decidedUp), QString());
  mFacingBox->addItem(autoItem(decidedFacing), QString());
  for (const char* axis : kAxes) {
    mUpBox->addItem(QString::fromLatin1(axis), QString::fromLatin1(axis));
    // The facing is one of the axes across the up.
    if (!upModel || std::abs(axisFromName(axis)->dot(*upModel)) < 1e-6f)
      mFacingBox->addItem(QString::fromLatin1(axis), QString::fromLatin1(axis));
  }
  mUnitsBox->addItem(autoItem(decidedUnits), 0.0);
  for (const double unitsPerMetre : namedUnitsPerMetre())
    mUnitsBox->addItem(QString::fromStdString(unitsName(unitsPerMetre)), unitsPerMetre);
  selectData(mUpBox, chosen.upModel ? QString::fromStdString(axisName(*chosen.upModel)) : QString());
  selectData(mFacingBox, chosen.forwardModel ? QString::fromStdString(axisName(*chosen.forwardModel)) : QString());
  selectData(mUnitsBox, chosen.unitsPerMetre ? *chosen.unitsPerMetre : 0.0);
}

void ConventionEditor::refresh() {
  const Scene& scene = mDocument->scene();
  auto map = mapHumanoid(scene.skeleton);
  setEnabled(static_cast<bool>(map));
  if (!map) {
    mLabel->clear();
    fillBoxes({}, {}, {}, scene.convention.upModel);
    return;
  }
  const int clipIndex = mDocument->currentClipIndex();
  CaptureConventionJob job = conventionJobFor(scene, *map, clipIndex < 0 ? 0 : static_cast<std::size_t>(clipIndex));
  const auto c = job.run();
  // What Auto gives for each value, named in its item even while the user overrides it.
  job.userOverride = {};
  const auto automatic = scene.convention.isAuto() ? c : job.run();
  if (automatic) {
    fillBoxes(QString::fromStdString(axisName(automatic->upModel)), QString::fromStdString(axisName(automatic->forwardModel)),
              QString::fromStdString(automatic->units), c ? std::optional<Vec3>(c->upModel) : scene.convention.upModel);
  } else {
    fillBoxes({}, {}, {}, c ? std::optional<Vec3>(c->upModel) : scene.convention.upModel);
  }
  if (!c) {
    mLabel->setText(tr("Capture convention: %1").arg(QString::fromStdString(c.error()).toHtmlEscaped()));
    return;
  }
  QStringList lines{line(tr("Up"), axisName(c->upModel), c->upDecidedBy),
                    line(tr("Facing"), axisName(c->forwardModel), c->forwardDecidedBy),
                    line(tr("Units"), c->units, c->unitsDecidedBy),
                    line(tr("Rest pose"), restPoseKindName(c->restKind), c->restKindDecidedBy)};
  if (job.clip != nullptr)
    lines << line(tr("Frame rate"), QString::number(c->frameRate).toStdString(), c->frameRateDecidedBy);
  mLabel->setText(lines.join(QStringLiteral("<br>")));
}

}  // namespace articula::ui
