#include "ui/widgets/field_spin_box.h"

#include <QDoubleSpinBox>

namespace articula::ui {

QDoubleSpinBox* makeFieldSpinBox(double minimum, double maximum, int decimals, double step, QWidget* parent) {
  auto* box = new QDoubleSpinBox(parent);
  box->setRange(minimum, maximum);
  box->setDecimals(decimals);
  box->setSingleStep(step);
  box->setKeyboardTracking(false);
  box->setAccelerated(true);
  box->setMinimumWidth(60);
  return box;
}

}  // namespace articula::ui
