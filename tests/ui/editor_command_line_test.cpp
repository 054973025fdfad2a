// The articula executable run as scripts run it, on the test's Xvfb display.
#include <gtest/gtest.h>

#include <QImage>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>

#include "ui_test_support.h"

namespace articula::ui {
namespace {

struct EditorRun {
  int exitCode = -1;
  QString out;
  QString err;
};

EditorRun runEditor(const QStringList& arguments) {
  QProcess process;
  process.start(QStringLiteral(ARTICULA_EDITOR), arguments);
  EditorRun run;
  if (!process.waitForFinished(60000)) {
    process.kill();
    return run;
  }
  run.exitCode = process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1;
  run.out = QString::fromLocal8Bit(process.readAllStandardOutput());
  run.err = QString::fromLocal8Bit(process.readAllStandardError());
  return run;
}

TEST(EditorCommandLine, BenchmarkViewportPrintsTheMedianAsItsLastLine) {
  const EditorRun run =
      runEditor({QStringLiteral("--benchmark-viewport"), QStringLiteral("--frames"), QStringLiteral("5"),
                 QString::fromStdString(test::dataPath("gltf/CesiumMan/CesiumMan.glb"))});
  ASSERT_EQ(run.exitCode, 0) << run.err.toStdString();
  const QStringList lines = run.out.trimmed().split(QLatin1Char('\n'));
  ASSERT_FALSE(lines.isEmpty());
  EXPECT_TRUE(QRegularExpression(QStringLiteral("^viewport: \\d+\\.\\d\\d ms/frame$")).match(lines.back()).hasMatch())
      << run.out.toStdString();
  EXPECT_TRUE(run.out.contains(QStringLiteral("5 frames at 1280x720"))) << run.out.toStdString();
}

TEST(EditorCommandLine, BenchmarkViewportRejectsABadFrameCount) {
  const EditorRun run =
      runEditor({QStringLiteral("--benchmark-viewport"), QStringLiteral("--frames"), QStringLiteral("zero")});
  EXPECT_EQ(run.exitCode, 1);
  EXPECT_TRUE(run.err.contains(QStringLiteral("--frames expects a frame count >= 1, got \"zero\"")))
      << run.err.toStdString();
}

TEST(EditorCommandLine, ScreenshotWritesTheWindow) {
  QTemporaryDir directory;
  ASSERT_TRUE(directory.isValid());
  const QString path = directory.filePath(QStringLiteral("shot.png"));
  const EditorRun run =
      runEditor({QStringLiteral("--screenshot"), path, QStringLiteral("--frame"), QStringLiteral("10")});
  ASSERT_EQ(run.exitCode, 0) << run.err.toStdString();
  const QImage image(path);
  EXPECT_EQ(image.size(), QSize(1280, 800));
}

TEST(EditorCommandLine, SelectNamesAMissingJoint) {
  QTemporaryDir directory;
  ASSERT_TRUE(directory.isValid());
  const EditorRun run = runEditor({QStringLiteral("--screenshot"), directory.filePath(QStringLiteral("shot.png")),
                                   QStringLiteral("--select"), QStringLiteral("LeftArm,Tail")});
  EXPECT_EQ(run.exitCode, 1);
  EXPECT_TRUE(run.err.contains(QStringLiteral("no joint named \"Tail\""))) << run.err.toStdString();
}

}  // namespace
}  // namespace articula::ui
