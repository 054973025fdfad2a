#include "ui/dialogs/preferences_dialog.h"

#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QSettings>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QVBoxLayout>

#include <algorithm>

#include "ui/document/project_session.h"

namespace articula::ui {

namespace {

const QString kOnionGhostsKey = QStringLiteral("preferences/onionGhostsEachSide");
const QString kOnionSpacingKey = QStringLiteral("preferences/onionSpacingFrames");
const QString kTrailWindowKey = QStringLiteral("preferences/trailWindowFrames");

int storedInt(const QSettings& settings, const QString& key, int fallback, int lowest, int highest) {
  return std::clamp(settings.value(key, fallback).toInt(), lowest, highest);
}

QSpinBox* spinBox(const QString& name, int lowest, int highest, const QString& toolTip, QWidget* parent) {
  auto* field = new QSpinBox(parent);
  field->setObjectName(name);
  field->setRange(lowest, highest);
  field->setToolTip(toolTip);
  return field;
}

}  // namespace

ViewportPreferences ViewportPreferences::load(const QSettings& settings) {
  const ViewportPreferences defaults;
  ViewportPreferences loaded;
  loaded.onionGhostsEachSide =
      storedInt(settings, kOnionGhostsKey, defaults.onionGhostsEachSide, 1, kMaxGhostsEachSide);
  loaded.onionSpacingFrames = storedInt(settings, kOnionSpacingKey, defaults.onionSpacingFrames, 1, kMaxSpacingFrames);
  loaded.trailWindowFrames = storedInt(settings, kTrailWindowKey, defaults.trailWindowFrames, 0, kMaxTrailWindowFrames);
  return loaded;
}

void ViewportPreferences::save(QSettings& settings) const {
  settings.setValue(kOnionGhostsKey, onionGhostsEachSide);
  settings.setValue(kOnionSpacingKey, onionSpacingFrames);
  settings.setValue(kTrailWindowKey, trailWindowFrames);
}

PreferencesDialog::PreferencesDialog(int autosaveMinutes, QWidget* parent)
    : QDialog(parent),
      mAutosaveMinutes(new QSpinBox(this)),
      mOnionGhosts(spinBox(QStringLiteral("onionGhostsEachSide"), 1, ViewportPreferences::kMaxGhostsEachSide,
                           tr("Ghosts of the skeleton drawn before the current frame, and as many after it"), this)),
      mOnionSpacing(spinBox(QStringLiteral("onionSpacingFrames"), 1, ViewportPreferences::kMaxSpacingFrames,
                            tr("Frames from one ghost to the next"), this)),
      mTrailWindow(spinBox(QStringLiteral("trailWindowFrames"), 0, ViewportPreferences::kMaxTrailWindowFrames,
                           tr("Trails cover this many frames before and after the current one, moving with it; "
                              "at 0 they cover the whole clip"),
                           this)) {
  setWindowTitle(tr("Preferences"));
  mAutosaveMinutes->setObjectName(QStringLiteral("autosaveMinutes"));
  mAutosaveMinutes->setRange(ProjectSession::kMinAutosaveMinutes, ProjectSession::kMaxAutosaveMinutes);
  mAutosaveMinutes->setSuffix(tr(" min"));
  mAutosaveMinutes->setValue(autosaveMinutes);
  mAutosaveMinutes->setToolTip(
      tr("How often unsaved edits are written to the recovery file beside the project, which the editor offers "
         "to recover after a crash"));
  mOnionSpacing->setSuffix(tr(" frames"));
  mTrailWindow->setSuffix(tr(" frames"));
  mTrailWindow->setSpecialValueText(tr("Whole clip"));
  setViewportPreferences(ViewportPreferences{});
  for (QSpinBox* field : {mOnionGhosts, mOnionSpacing, mTrailWindow}) {
    connect(field, &QSpinBox::valueChanged, this, [this] { emit viewportPreferencesChanged(viewportPreferences()); });
  }

  auto* form = new QFormLayout;
  form->addRow(tr("Autosave every"), mAutosaveMinutes);
  form->addRow(tr("Onion skin ghosts each side"), mOnionGhosts);
  form->addRow(tr("Onion skin spacing"), mOnionSpacing);
  form->addRow(tr("Trails around the current frame"), mTrailWindow);
  auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
  connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
  connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
  auto* layout = new QVBoxLayout(this);
  layout->addLayout(form);
  auto* note =
      new QLabel(tr("The tool, local axes, onion skin, trails, loop and auto key are remembered as you leave them."), this);
  note->setWordWrap(true);
  layout->addWidget(note);
  layout->addWidget(buttons);
}

int PreferencesDialog::autosaveMinutes() const { return mAutosaveMinutes->value(); }

ViewportPreferences PreferencesDialog::viewportPreferences() const {
  return ViewportPreferences{mOnionGhosts->value(), mOnionSpacing->value(), mTrailWindow->value()};
}

void PreferencesDialog::setViewportPreferences(const ViewportPreferences& preferences) {
  const QSignalBlocker ghosts(mOnionGhosts);
  const QSignalBlocker spacing(mOnionSpacing);
  const QSignalBlocker window(mTrailWindow);
  mOnionGhosts->setValue(preferences.onionGhostsEachSide);
  mOnionSpacing->setValue(preferences.onionSpacingFrames);
  mTrailWindow->setValue(preferences.trailWindowFrames);
}

}  // namespace articula::ui
