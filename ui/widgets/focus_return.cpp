#include "ui/widgets/focus_return.h"

#include <QAbstractSpinBox>
#include <QApplication>
#include <QDockWidget>
#include <QKeyEvent>
#include <QLineEdit>
#include <QWidget>

namespace articula::ui {

FocusReturn::FocusReturn(QWidget* window, QWidget* fallback) : QObject(window), mWindow(window), mFallback(fallback) {
  qApp->installEventFilter(this);
}

bool FocusReturn::isTextField(const QWidget* widget) {
  if (const auto* edit = qobject_cast<const QLineEdit*>(widget)) return !edit->isReadOnly();
  if (const auto* spin = qobject_cast<const QAbstractSpinBox*>(widget)) return !spin->isReadOnly();
  return false;
}

bool FocusReturn::eventFilter(QObject* watched, QEvent* event) {
  const QEvent::Type type = event->type();
  if (type != QEvent::FocusIn && type != QEvent::KeyPress) return false;
  auto* widget = qobject_cast<QWidget*>(watched);
  if (widget == nullptr || !inWindow(widget)) return false;
  if (type == QEvent::FocusIn) {
    if (!isTextField(widget)) mLastView = widget;
    return false;
  }
  const int key = static_cast<QKeyEvent*>(event)->key();
  const bool endsEdit = key == Qt::Key_Return || key == Qt::Key_Enter || key == Qt::Key_Escape;
  // A spin box forwards its keys to its own line edit: act once, for the focused field.
  if (endsEdit && widget == QApplication::focusWidget() && isTextField(widget)) {
    // After the field has taken the key (a spin box applies its value on Enter).
    QMetaObject::invokeMethod(this, &FocusReturn::handFocusBack, Qt::QueuedConnection);
  }
  return false;
}

// The window itself and its floating docks; not its dialogs.
bool FocusReturn::inWindow(const QWidget* widget) const {
  const QWidget* window = widget->window();
  return window == mWindow || (qobject_cast<const QDockWidget*>(window) != nullptr && window->parentWidget() == mWindow);
}

void FocusReturn::handFocusBack() {
  QWidget* target = mLastView != nullptr && mLastView->isVisible() && mLastView->isEnabled() ? mLastView.data()
                                                                                               : mFallback;
  target->setFocus(Qt::OtherFocusReason);
}

}  // namespace articula::ui
