#pragma once
#include <QDialog>

class QMainWindow;
class QTableWidget;

namespace articula::ui {

// Help ▸ Keyboard Shortcuts: every action of the window that has a shortcut, read from the
// actions themselves so the page can never fall out of date, followed by the viewport's
// mouse controls (which are not actions).
class ShortcutsDialog : public QDialog {
  Q_OBJECT

 public:
  explicit ShortcutsDialog(QMainWindow* window);

  QTableWidget* table() const { return mTable; }

 private:
  QTableWidget* const mTable;
};

}  // namespace articula::ui
