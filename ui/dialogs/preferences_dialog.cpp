#include "ui/dialogs/preferences_dialog.h"

#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QSpinBox>
#include <QVBoxLayout>

#include "ui/document/project_session.h"

namespace articula::ui {

PreferencesDialog::PreferencesDialog(int autosaveMinutes, QWidget* parent)
    : QDialog(parent), mAutosaveMinutes(new QSpinBox(this)) {
  setWindowTitle(tr("Preferences"));
  mAutosaveMinutes->setObjectName(QStringLiteral("autosaveMinutes"));
  mAutosaveMinutes->setRange(ProjectSession::kMinAutosaveMinutes, ProjectSession::kMaxAutosaveMinutes);
  mAutosaveMinutes->setSuffix(tr(" min"));
  mAutosaveMinutes->setValue(autosaveMinutes);
  mAutosaveMinutes->setToolTip(
      tr("How often unsaved edits are written to the recovery file beside the project, which the editor offers "
         "to recover after a crash"));

  auto* form = new QFormLayout;
  form->addRow(tr("Autosave every"), mAutosaveMinutes);
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

}  // namespace articula::ui
