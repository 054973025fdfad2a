#include "ui/dialogs/contacts_dialog.h"

#include <QCheckBox>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFormLayout>

namespace articula::ui {
namespace {

QDoubleSpinBox* spinBox(double min, double max, double value, double step, const QString& suffix, QWidget* parent) {
  auto* box = new QDoubleSpinBox(parent);
  box->setRange(min, max);
  box->setDecimals(3);
  box->setSingleStep(step);
  box->setValue(value);
  box->setSuffix(suffix);
  return box;
}

}  // namespace

ContactsDialog::ContactsDialog(float characterHeight, QWidget* parent)
    : QDialog(parent),
      mCharacterHeight(characterHeight),
      mAuto(new QCheckBox(tr("Derive from the character"), this)),
      mHeightPercent(spinBox(0.1, 50.0, 3.0, 0.5, tr(" % of height"), this)),
      mSpeedPercent(spinBox(1.0, 200.0, 15.0, 1.0, tr(" % of height per s"), this)),
      mMinContact(spinBox(0.0, 2.0, ContactDetectionOptions{}.minContactSeconds, 0.01, tr(" s"), this)),
      mTransition(spinBox(0.0, 1.0, ContactDetectionOptions{}.transitionSeconds, 0.01, tr(" s"), this)) {
  setObjectName(QStringLiteral("contactsDialog"));
  setWindowTitle(tr("Detect Foot Contacts"));
  mAuto->setChecked(true);
  auto enableThresholds = [this](bool automatic) {
    mHeightPercent->setEnabled(!automatic);
    mSpeedPercent->setEnabled(!automatic);
  };
  connect(mAuto, &QCheckBox::toggled, this, enableThresholds);
  enableThresholds(true);

  auto* form = new QFormLayout(this);
  form->addRow(mAuto);
  form->addRow(tr("Foot low within"), mHeightPercent);
  form->addRow(tr("Foot still below"), mSpeedPercent);
  form->addRow(tr("Shortest contact"), mMinContact);
  form->addRow(tr("Blend in and out"), mTransition);
  auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
  connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
  connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
  form->addRow(buttons);
}

ContactDetectionOptions ContactsDialog::options() const {
  ContactDetectionOptions options;
  if (!mAuto->isChecked()) {
    options.heightThreshold = static_cast<float>(mHeightPercent->value() / 100.0) * mCharacterHeight;
    options.speedThreshold = static_cast<float>(mSpeedPercent->value() / 100.0) * mCharacterHeight;
  }
  options.minContactSeconds = mMinContact->value();
  options.transitionSeconds = mTransition->value();
  return options;
}

}  // namespace articula::ui
