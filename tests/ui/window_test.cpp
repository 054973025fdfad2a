// Window-level behaviour: the layout persists and resets, the shortcut page lists the
// window's real shortcuts.
#include <gtest/gtest.h>

#include <QAction>
#include <QDockWidget>
#include <QTableWidget>

#include "ui/dialogs/shortcuts_dialog.h"
#include "ui/docks/history_dock.h"
#include "ui/main_window.h"

namespace articula::ui {
namespace {

QString keysFor(const QTableWidget& table, const QString& command) {
  for (int row = 0; row < table.rowCount(); ++row) {
    if (table.item(row, 0)->text() == command) return table.item(row, 1)->text();
  }
  return QString();
}

TEST(MainWindowLayout, PersistsAcrossSessionsAndResets) {
  {
    MainWindow window;
    window.show();
    window.historyDock()->hide();
    window.close();  // saves the layout
  }
  MainWindow reopened;
  reopened.show();
  EXPECT_FALSE(reopened.historyDock()->isVisible()) << "the closed dock stays closed";
  QAction* reset = reopened.findChild<QAction*>(QStringLiteral("actionResetLayout"));
  ASSERT_NE(reset, nullptr);
  reset->trigger();
  EXPECT_TRUE(reopened.historyDock()->isVisible());
  reopened.close();
}

TEST(ShortcutsDialog, ListsEveryShortcutOfTheWindow) {
  MainWindow window;
  ShortcutsDialog dialog(&window);
  const QTableWidget& table = *dialog.table();
  EXPECT_EQ(keysFor(table, QStringLiteral("Edit ▸ Undo")),
            QKeySequence(Qt::CTRL | Qt::Key_Z).toString(QKeySequence::NativeText));
  EXPECT_EQ(keysFor(table, QStringLiteral("Edit ▸ Key Pose")), QStringLiteral("S"));
  EXPECT_EQ(keysFor(table, QStringLiteral("View ▸ Frame Selected")), QStringLiteral("F"));
  EXPECT_FALSE(keysFor(table, QStringLiteral("Viewport ▸ Orbit")).isEmpty());
  // Every action with a shortcut in the menus has a row.
  int withShortcut = 0;
  for (QAction* action : window.findChildren<QAction*>()) {
    if (!action->shortcuts().isEmpty() && !action->associatedObjects().isEmpty()) ++withShortcut;
  }
  EXPECT_GE(table.rowCount(), withShortcut / 2);
}

}  // namespace
}  // namespace articula::ui
