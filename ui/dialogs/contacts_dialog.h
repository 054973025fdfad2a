#pragma once
#include <QDialog>

#include "core/bake/contact_detection.h"

class QCheckBox;
class QDoubleSpinBox;

namespace articula::ui {

// Animation ▸ Detect Contacts: the thresholds of detectContacts, each either derived from
// the character (the default) or set by hand, in the units an animator thinks in.
class ContactsDialog : public QDialog {
  Q_OBJECT

 public:
  // `characterHeight` (model units) turns the percentages into distances.
  ContactsDialog(float characterHeight, QWidget* parent = nullptr);

  ContactDetectionOptions options() const;

  QCheckBox* autoThresholds() const { return mAuto; }
  QDoubleSpinBox* heightPercent() const { return mHeightPercent; }
  QDoubleSpinBox* speedPercent() const { return mSpeedPercent; }
  QDoubleSpinBox* minContactSeconds() const { return mMinContact; }
  QDoubleSpinBox* transitionSeconds() const { return mTransition; }

 private:
  float mCharacterHeight;
  QCheckBox* const mAuto;
  QDoubleSpinBox* const mHeightPercent;
  QDoubleSpinBox* const mSpeedPercent;
  QDoubleSpinBox* const mMinContact;
  QDoubleSpinBox* const mTransition;
};

}  // namespace articula::ui
