#pragma once
#include <QDialog>

class QSpinBox;

namespace articula::ui {

// Edit ▸ Preferences: the settings that are the editor's, not a project's. The window
// applies them when the dialog is accepted (ProjectSession::setAutosaveMinutes persists
// the interval in QSettings).
class PreferencesDialog : public QDialog {
  Q_OBJECT

 public:
  PreferencesDialog(int autosaveMinutes, QWidget* parent = nullptr);

  int autosaveMinutes() const;
  QSpinBox* autosaveMinutesField() const { return mAutosaveMinutes; }

 private:
  QSpinBox* const mAutosaveMinutes;
};

}  // namespace articula::ui
