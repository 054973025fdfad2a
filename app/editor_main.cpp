// articula: the editor. Parses the command line, opens the file (or the built-in
// mannequin) and shows the main window; with --screenshot it instead renders one frame of
// the window to a PNG and exits, so rendering can be checked without a person looking.
#include <QApplication>
#include <QCommandLineParser>
#include <QElapsedTimer>
#include <QImage>
#include <QSurfaceFormat>

#include <cstdio>

#include "core/samples/mannequin.h"
#include "ui/document/document.h"
#include "ui/main_window.h"
#include "ui/viewport/viewport.h"

namespace {

int fail(const QString& message) {
  std::fprintf(stderr, "articula: %s\n", qPrintable(message));
  return 1;
}

// Poses the clip named `clipName` (empty: keep the first) at frame `frameText` (empty:
// keep frame 0). Returns an error message, empty on success.
QString poseClip(articula::ui::Document* document, const QString& clipName, const QString& frameText) {
  const auto& clips = document->scene().clips;
  if (!clipName.isEmpty()) {
    int found = -1;
    QStringList names;
    for (std::size_t i = 0; i < clips.size(); ++i) {
      names << QString::fromStdString(clips[i].name);
      if (names.back() == clipName && found < 0) found = static_cast<int>(i);
    }
    if (found < 0) {
      return QStringLiteral("no clip named \"%1\" (clips: %2)")
          .arg(clipName, names.isEmpty() ? QStringLiteral("none") : names.join(QStringLiteral(", ")));
    }
    document->setCurrentClip(found);
  }
  if (!frameText.isEmpty()) {
    bool ok = false;
    const int frame = frameText.toInt(&ok);
    if (!ok || frame < 0) return QStringLiteral("--frame expects a frame number >= 0, got \"%1\"").arg(frameText);
    if (frame >= document->frameCount()) {
      return QStringLiteral("frame %1 is past the clip's last frame %2").arg(frame).arg(document->frameCount() - 1);
    }
    document->setFrame(frame);
  }
  return {};
}

// Frames the character, shows the window at 1280×800 and saves its grab (QWidget::grab
// includes the QOpenGLWidget's framebuffer).
int takeScreenshot(articula::ui::MainWindow& window, const QString& outPath) {
  window.resize(1280, 800);
  window.show();
  window.viewport()->frameAll();
  // Wait for the window to be exposed and the viewport to draw one complete frame.
  QElapsedTimer waited;
  waited.start();
  while (!window.viewport()->hasRenderedFrame() && window.viewport()->glError().isEmpty() && waited.elapsed() < 10000) {
    QApplication::processEvents(QEventLoop::AllEvents, 20);
  }
  if (!window.viewport()->glError().isEmpty()) return fail(window.viewport()->glError());
  if (!window.viewport()->hasRenderedFrame()) return fail(QStringLiteral("the viewport did not render within 10 s"));
  // A last round so every dock has laid out and painted at its final size.
  QApplication::processEvents();

  const QImage image = window.grab().toImage();
  if (image.isNull() || !image.save(outPath, "PNG")) return fail(QStringLiteral("cannot write %1").arg(outPath));
  return 0;
}

}  // namespace

int main(int argc, char* argv[]) {
  // Every GL context (the viewport's included) is 3.3 core; this must precede QApplication.
  QSurfaceFormat::setDefaultFormat(articula::ui::Viewport::surfaceFormat());
  QApplication app(argc, argv);
  QApplication::setApplicationName(QStringLiteral("Articula"));
  QApplication::setOrganizationName(QStringLiteral("Articula"));

  QCommandLineParser parser;
  parser.setApplicationDescription(QStringLiteral("Animation authoring editor for skeletal characters."));
  parser.addHelpOption();
  const QCommandLineOption screenshotOption(QStringLiteral("screenshot"),
                                            QStringLiteral("Render the window to <png> and exit."), QStringLiteral("png"));
  const QCommandLineOption clipOption(QStringLiteral("clip"), QStringLiteral("Clip to pose (default: the first)."),
                                      QStringLiteral("name"));
  const QCommandLineOption frameOption(QStringLiteral("frame"), QStringLiteral("Frame of the clip to pose (default: 0)."),
                                       QStringLiteral("n"));
  parser.addOption(screenshotOption);
  parser.addOption(clipOption);
  parser.addOption(frameOption);
  parser.addPositionalArgument(QStringLiteral("file"), QStringLiteral("Character or animation to open (glTF, FBX, BVH, Collada, ...)."),
                               QStringLiteral("[file]"));
  parser.process(app);
  if (parser.positionalArguments().size() > 1) return fail(QStringLiteral("expected at most one file"));

  articula::ui::MainWindow window;
  if (parser.positionalArguments().isEmpty()) {
    window.openScene(articula::makeMannequin(), QStringLiteral("Mannequin"));
  } else {
    QString error;
    QObject::connect(&window, &articula::ui::MainWindow::openFailed, [&error](const QString& message) { error = message; });
    if (!window.openFile(parser.positionalArguments().front())) return fail(error);
  }

  const QString poseError = poseClip(window.document(), parser.value(clipOption), parser.value(frameOption));
  if (!poseError.isEmpty()) return fail(poseError);
  if (parser.isSet(screenshotOption)) return takeScreenshot(window, parser.value(screenshotOption));
  window.show();
  return QApplication::exec();
}
