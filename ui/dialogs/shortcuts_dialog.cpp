#include "ui/dialogs/shortcuts_dialog.h"

#include <QAction>
#include <QDialogButtonBox>
#include <QHeaderView>
#include <QMainWindow>
#include <QMenu>
#include <QMenuBar>
#include <QTableWidget>
#include <QVBoxLayout>

namespace articula::ui {
namespace {

QString plainText(QString text) {
  text.remove(QLatin1Char('&'));
  text.remove(QStringLiteral("…"));
  return text.trimmed();
}

void addRow(QTableWidget* table, const QString& what, const QString& keys) {
  const int row = table->rowCount();
  table->insertRow(row);
  table->setItem(row, 0, new QTableWidgetItem(what));
  table->setItem(row, 1, new QTableWidgetItem(keys));
}

// Every action with a shortcut under `menu`, named by its menu path ("Edit ▸ Undo").
void addMenu(QTableWidget* table, const QMenu* menu, const QString& path) {
  for (QAction* action : menu->actions()) {
    if (action->menu() != nullptr) {
      addMenu(table, action->menu(), path + QStringLiteral(" ▸ ") + plainText(action->text()));
      continue;
    }
    if (action->isSeparator() || action->shortcuts().isEmpty()) continue;
    QStringList keys;
    for (const QKeySequence& sequence : action->shortcuts()) keys << sequence.toString(QKeySequence::NativeText);
    addRow(table, path + QStringLiteral(" ▸ ") + plainText(action->text()), keys.join(QStringLiteral(", ")));
  }
}

}  // namespace

ShortcutsDialog::ShortcutsDialog(QMainWindow* window) : QDialog(window), mTable(new QTableWidget(0, 2, this)) {
  setObjectName(QStringLiteral("shortcutsDialog"));
  setWindowTitle(tr("Keyboard Shortcuts"));
  mTable->setHorizontalHeaderLabels({tr("Command"), tr("Keys")});
  mTable->verticalHeader()->hide();
  mTable->setEditTriggers(QAbstractItemView::NoEditTriggers);
  mTable->setSelectionBehavior(QAbstractItemView::SelectRows);
  for (QAction* action : window->menuBar()->actions()) {
    if (action->menu() != nullptr) addMenu(mTable, action->menu(), plainText(action->text()));
  }
  // The viewport's mouse conventions, for both the Maya and the Blender habit.
  const QString viewport = tr("Viewport");
  addRow(mTable, viewport + tr(" ▸ Orbit"), tr("Alt+Left drag (Maya), Middle drag (Blender)"));
  addRow(mTable, viewport + tr(" ▸ Pan"), tr("Alt+Middle drag (Maya), Shift+Middle drag (Blender)"));
  addRow(mTable, viewport + tr(" ▸ Zoom"), tr("Wheel, Alt+Right drag (Maya), Ctrl+Middle drag (Blender)"));
  addRow(mTable, viewport + tr(" ▸ Select joint"), tr("Click; Shift+Click adds"));
  addRow(mTable, viewport + tr(" ▸ Move IK target or pole"), tr("Left drag its marker (Auto Key keys it)"));
  addRow(mTable, viewport + tr(" ▸ Pose and IK/FK menu"), tr("Right click"));
  // The timeline's and curve editor's mouse, and how the keyboard leaves a text field.
  const QString timeline = tr("Timeline");
  addRow(mTable, timeline + tr(" ▸ Scrub"), tr("Click or drag on the ruler"));
  addRow(mTable, timeline + tr(" ▸ Zoom time"), tr("Wheel or Ctrl+Wheel on the ruler or dope sheet"));
  addRow(mTable, timeline + tr(" ▸ Pan time"), tr("Middle drag on the ruler or dope sheet"));
  addRow(mTable, timeline + tr(" ▸ Box select keys"), tr("Drag on empty rows; Ctrl+Drag from anywhere"));
  addRow(mTable, tr("Curve Editor ▸ Isolate curve"), tr("Click its legend entry (again: show all)"));
  addRow(mTable, tr("Text fields ▸ Give the keys back to the view"), tr("Enter or Esc"));
  mTable->resizeColumnsToContents();
  mTable->horizontalHeader()->setStretchLastSection(true);

  auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
  connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
  auto* layout = new QVBoxLayout(this);
  layout->addWidget(mTable);
  layout->addWidget(buttons);
  resize(560, 520);
}

}  // namespace articula::ui
