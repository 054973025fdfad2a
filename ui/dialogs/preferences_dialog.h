#pragma once
#include <QDialog>

class QSettings;
class QSpinBox;

namespace articula::ui {

// How the viewport draws onion skin and trails, kept in QSettings under "preferences/".
// View ▸ Onion Skin and View ▸ Trails switch them on and off; these say how much they show.
struct ViewportPreferences {
  int onionGhostsEachSide = 2;  // ghosts before and as many after the current frame
  int onionSpacingFrames = 3;   // frames between two ghosts
  int trailWindowFrames = 0;    // frames of trail each side of the current one; 0: the whole clip

  static constexpr int kMaxGhostsEachSide = 10;
  static constexpr int kMaxSpacingFrames = 60;
  static constexpr int kMaxTrailWindowFrames = 500;

  // Stored values outside the fields' ranges are pulled into them.
  static ViewportPreferences load(const QSettings& settings);
  void save(QSettings& settings) const;
  bool operator==(const ViewportPreferences&) const = default;
};

// Edit ▸ Preferences: the settings that are the editor's, not a project's. The viewport's
// fields apply live (viewportPreferencesChanged on every change, so the animator sees the
// ghosts and trails follow); the window keeps them on OK and puts the old ones back on
// Cancel. The autosave interval applies when the dialog is accepted
// (ProjectSession::setAutosaveMinutes persists it in QSettings).
class PreferencesDialog : public QDialog {
  Q_OBJECT

 public:
  PreferencesDialog(int autosaveMinutes, QWidget* parent = nullptr);

  int autosaveMinutes() const;
  QSpinBox* autosaveMinutesField() const { return mAutosaveMinutes; }

  ViewportPreferences viewportPreferences() const;
  // Fills the fields without emitting viewportPreferencesChanged.
  void setViewportPreferences(const ViewportPreferences& preferences);
  QSpinBox* onionGhostsField() const { return mOnionGhosts; }
  QSpinBox* onionSpacingField() const { return mOnionSpacing; }
  QSpinBox* trailWindowField() const { return mTrailWindow; }

 signals:
  void viewportPreferencesChanged(const articula::ui::ViewportPreferences& preferences);

 private:
  QSpinBox* const mAutosaveMinutes;
  QSpinBox* const mOnionGhosts;
  QSpinBox* const mOnionSpacing;
  QSpinBox* const mTrailWindow;
};

}  // namespace articula::ui
