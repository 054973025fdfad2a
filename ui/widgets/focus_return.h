#pragma once
#include <QObject>
#include <QPointer>

class QWidget;

namespace articula::ui {

// Gives the keyboard back when a text field's edit ends, so the window's single-key
// shortcuts (Space, F, W, ←…) work again instead of typing into the field: Enter, Return or
// Esc in a line edit or spin box of `window` moves the focus to the last other widget of
// that window that had it (a view: the viewport, the dope sheet, the outliner's tree), or to
// `fallback` when there was none. Watches the application's events; fields of dialogs and
// other windows are left alone (the window's floating docks are its own).
class FocusReturn : public QObject {
  Q_OBJECT

 public:
  FocusReturn(QWidget* window, QWidget* fallback);

  // True for the widgets that eat single keys while they have the focus.
  static bool isTextField(const QWidget* widget);

 protected:
  bool eventFilter(QObject* watched, QEvent* event) override;

 private:
  bool inWindow(const QWidget* widget) const;
  void handFocusBack();

  QWidget* const mWindow;
  QWidget* const mFallback;
  QPointer<QWidget> mLastView;
};

}  // namespace articula::ui
