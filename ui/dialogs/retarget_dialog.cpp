#include "ui/dialogs/retarget_dialog.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QVBoxLayout>

#include <cmath>

namespace articula::ui {
namespace {

enum RateChoice { SourceRate, CharacterRate, CustomRate };

// A path field with its Browse… button, which opens `filter` files.
QWidget* pathRow(QLineEdit* edit, const QString& title, const QString& filter, QWidget* parent) {
  auto* row = new QWidget(parent);
  auto* layout = new QHBoxLayout(row);
  layout->setContentsMargins(0, 0, 0, 0);
  auto* browse = new QPushButton(QObject::tr("Browse…"), row);
  layout->addWidget(edit, 1);
  layout->addWidget(browse);
  QObject::connect(browse, &QPushButton::clicked, edit, [edit, title, filter, parent] {
    const QString path = QFileDialog::getOpenFileName(parent, title, edit->text(), filter);
    if (!path.isEmpty()) edit->setText(path);
  });
  return row;
}

}  // namespace

RetargetDialog::RetargetDialog(double characterFrameRate, QWidget* parent)
    : QDialog(parent),
      mSource(new QLineEdit(this)),
      mSourceMap(new QLineEdit(this)),
      mPlantFeet(new QCheckBox(tr("Plant the feet (foot-skate cleanup)"), this)),
      mHandsReach(new QCheckBox(tr("Hands reach where the source's are"), this)),
      mSkipRestFrame(new QCheckBox(tr("Leave out a T-pose first frame"), this)),
      mRate(new QComboBox(this)),
      mRateSpin(new QDoubleSpinBox(this)),
      mRefusal(new QLabel(this)) {
  setWindowTitle(tr("Retarget the Clips of a Humanoid"));
  mSource->setObjectName(QStringLiteral("retargetSource"));
  mSource->setPlaceholderText(tr("BVH, glTF, FBX, Collada or project"));
  mSourceMap->setObjectName(QStringLiteral("retargetSourceMap"));
  mSourceMap->setPlaceholderText(tr("none: the joint names decide"));
  mSourceMap->setToolTip(tr("A role map file (JSON role → joint name, as Characterise ▸ Save Map writes) for a "
                            "source whose joint names say nothing"));
  mPlantFeet->setChecked(true);
  mPlantFeet->setToolTip(tr("Contacts detected on the new clip and the feet held where they touch the ground, so a "
                            "change of proportions adds no skate"));
  mHandsReach->setToolTip(
      tr("Each hand put by arm IK where the source's is from its hips, scaled by the arm lengths"));
  mSkipRestFrame->setChecked(true);
  mSkipRestFrame->setToolTip(
      tr("A clip that starts on the rest pose for one frame and jumps from it, as CMU captures start with "
         "their T-pose, loses that frame; every other clip keeps all its frames"));
  mRate->addItem(tr("The source's"), SourceRate);
  if (characterFrameRate > 0.0) mRate->addItem(tr("The character's (%1 fps)").arg(characterFrameRate), CharacterRate);
  mRate->addItem(tr("Custom"), CustomRate);
  mRateSpin->setRange(1.0, 1000.0);
  mRateSpin->setDecimals(3);
  mRateSpin->setSuffix(tr(" fps"));
  mRateSpin->setValue(characterFrameRate > 0.0 ? characterFrameRate : 30.0);
  // The rate is shown only where it is the one used: the source's is not known here.
  mRateSpin->setVisible(false);
  connect(mRate, &QComboBox::currentIndexChanged, this, [this, characterFrameRate] {
    const int choice = mRate->currentData().toInt();
    mRateSpin->setVisible(choice != SourceRate);
    mRateSpin->setEnabled(choice == CustomRate);
    if (choice == CharacterRate) mRateSpin->setValue(characterFrameRate);
  });

  const QString animations = tr("Animation (*.bvh *.glb *.gltf *.fbx *.dae *.articula);;All Files (*)");
  auto* form = new QFormLayout;
  form->addRow(tr("Source:"), pathRow(mSource, tr("Retarget the Clips of a Humanoid"), animations, this));
  form->addRow(tr("Source role map:"), pathRow(mSourceMap, tr("Role Map of the Source"), tr("Role maps (*.json)"), this));
  form->addRow(QString(), mPlantFeet);
  form->addRow(QString(), mHandsReach);
  form->addRow(QString(), mSkipRestFrame);
  auto* rateRow = new QHBoxLayout;
  rateRow->addWidget(mRate, 1);
  rateRow->addWidget(mRateSpin);
  form->addRow(tr("Frame rate:"), rateRow);
  mRefusal->setObjectName(QStringLiteral("retargetRefusal"));
  mRefusal->setWordWrap(true);  // a long path wraps instead of widening the dialog
  mRefusal->setTextInteractionFlags(Qt::TextSelectableByMouse);
  mRefusal->setStyleSheet(QStringLiteral("color: #e06c5c;"));
  mRefusal->setVisible(false);
  auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
  mRetargetButton = buttons->button(QDialogButtonBox::Ok);
  mRetargetButton->setText(tr("Retarget"));
  connect(buttons, &QDialogButtonBox::accepted, this, [this] { emit retargetRequested(request()); });
  connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
  connect(mSource, &QLineEdit::textChanged, this, &RetargetDialog::updateButtons);
  for (QLineEdit* path : {mSource, mSourceMap})
    connect(path, &QLineEdit::textEdited, this, [this] { showRefusal(QString()); });
  auto* layout = new QVBoxLayout(this);
  layout->addLayout(form);
  layout->addWidget(mRefusal);
  layout->addWidget(buttons);
  updateButtons();
}

RetargetRequest RetargetDialog::request() const {
  RetargetRequest request;
  request.source = mSource->text().trimmed();
  request.sourceMap = mSourceMap->text().trimmed();
  request.plantFeet = mPlantFeet->isChecked();
  request.handsReach = mHandsReach->isChecked();
  request.skipRestFrame = mSkipRestFrame->isChecked();
  request.frameRate = mRate->currentData().toInt() == SourceRate ? 0.0 : mRateSpin->value();
  request.characterRate = mRate->currentData().toInt() == CharacterRate;
  return request;
}

void RetargetDialog::setRequest(const RetargetRequest& request) {
  mSource->setText(request.source);
  mSourceMap->setText(request.sourceMap);
  mPlantFeet->setChecked(request.plantFeet);
  mHandsReach->setChecked(request.handsReach);
  mSkipRestFrame->setChecked(request.skipRestFrame);
  const int character = mRate->findData(CharacterRate);
  if (request.characterRate && character >= 0) {
    // The character's rate, whichever character is open now (its value came with the dialog).
    mRate->setCurrentIndex(character);
  } else if (request.frameRate > 0.0) {
    const bool isCharacters = character >= 0 && std::abs(mRateSpin->value() - request.frameRate) < 1e-9;
    mRate->setCurrentIndex(isCharacters ? character : mRate->findData(CustomRate));
    mRateSpin->setValue(request.frameRate);
  }
}

void RetargetDialog::showRefusal(const QString& message) {
  mRefusal->setText(message);
  mRefusal->setVisible(!message.isEmpty());
  // The dialog grows to hold the wrapped reason below the fields (at its size it squeezed
  // them instead).
  layout()->activate();
  const int needed =
      layout()->hasHeightForWidth() ? layout()->totalHeightForWidth(width()) : layout()->totalSizeHint().height();
  if (needed > height()) resize(width(), needed);
}

void RetargetDialog::updateButtons() { mRetargetButton->setEnabled(!mSource->text().trimmed().isEmpty()); }

}  // namespace articula::ui
