// main() of the UI tests: one QApplication for every case, created after GoogleTest has
// read its flags. Listing the cases (ctest's discovery) needs no display, so it makes none.
#include <gtest/gtest.h>

#include <QApplication>
#include <QDir>
#include <QSettings>
#include <QSurfaceFormat>

#include "ui/viewport/viewport.h"

int main(int argc, char* argv[]) {
  ::testing::InitGoogleTest(&argc, argv);
  if (GTEST_FLAG_GET(list_tests)) return RUN_ALL_TESTS();
#ifdef ARTICULA_UI_TEST_OFFSCREEN
  // Widget logic only: nothing is drawn with OpenGL, so no display is needed.
  qputenv("QT_QPA_PLATFORM", "offscreen");
#endif
  QSurfaceFormat::setDefaultFormat(articula::ui::Viewport::surfaceFormat());
  QApplication app(argc, argv);
  // Settings (window layout, preferences) go to a folder of this run, never the user's.
  QApplication::setOrganizationName(QStringLiteral("ArticulaTests"));
  QApplication::setApplicationName(QStringLiteral("ArticulaTests"));
  const QString settingsDir =
      QDir::temp().filePath(QStringLiteral("articula-ui-tests-%1").arg(QCoreApplication::applicationPid()));
  QDir(settingsDir).removeRecursively();
  QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, settingsDir);
  const int result = RUN_ALL_TESTS();
  QDir(settingsDir).removeRecursively();
  return result;
}
