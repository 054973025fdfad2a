#pragma once

class QDoubleSpinBox;
class QWidget;

namespace articula::ui {

// A spin box for the property editors: it commits on Enter or focus loss (no keyboard
// tracking, so typing "1.25" is one edit, not four), accelerates while held, and keeps a
// usable width in a narrow dock.
QDoubleSpinBox* makeFieldSpinBox(double minimum, double maximum, int decimals, double step, QWidget* parent);

}  // namespace articula::ui
