// articula: the editor. Parses the command line, opens the file (or the built-in
// mannequin) and shows the main window; with --screenshot it instead renders one frame of
// the window to a PNG and exits, so rendering can be checked without a person looking;
// with --benchmark-viewport it plays the clip through a 1280×720 viewport and prints the
// median time per frame.
#include <QApplication>
#include <QCommandLineParser>
#include <QElapsedTimer>
#include <QImage>
#include <QOpenGLContext>
#include <QOpenGLFunctions>
#include <QSurfaceFormat>

#include <QUndoStack>

#include <algorithm>
#include <cstdio>
#include <ctime>
#include <vector>

#include "core/samples/mannequin.h"
#include "ui/commands/rig_set_command.h"
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

// Selects the comma-separated joints in `names` (empty: none); a name that is no joint but
// an IK handle of the active rig selects that handle (its curves then show in the dope
// sheet and the curve editor). Returns an error message, empty on success.
QString selectJoints(articula::ui::Document* document, const QString& names) {
  if (names.isEmpty()) return {};
  std::vector<int> joints;
  int handle = -1;
  for (const QString& name : names.split(QLatin1Char(','))) {
    const int joint = document->scene().skeleton.findJoint(name.toStdString());
    const int rigHandle = document->boundRig() ? document->boundRig()->findHandle(name.toStdString()) : -1;
    if (joint < 0 && rigHandle < 0)
      return QStringLiteral("--select: no joint named \"%1\", nor an IK handle of the active rig").arg(name);
    if (joint >= 0) {
      joints.push_back(joint);
    } else {
      handle = rigHandle;
    }
  }
  document->setSelectedJoints(std::move(joints));
  document->setSelectedHandle(handle);
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

// Plays the current clip in a bare 1280×720 viewport, one frame per step, and prints the
// median wall time of a step: evaluate the pose at the new frame (the humanoid rig solving
// it, when the skeleton has one), draw it, wait for the GPU. Also prints the process's CPU
// time per frame (llvmpipe's threads included), which a loaded machine inflates less than
// wall time. The last line is "viewport: X.XX ms/frame" for scripts.
int benchmarkViewport(articula::ui::Document* document, const QString& framesText) {
  bool ok = false;
  const int frames = framesText.toInt(&ok);
  if (!ok || frames < 1) return fail(QStringLiteral("--frames expects a frame count >= 1, got \"%1\"").arg(framesText));
  // What an animator works with: the rig solving every frame.
  QString rigState = QStringLiteral("no rig");
  if (auto rig = articula::ui::BuildHumanoidRigCommand::humanoidRig(*document)) {
    document->undoStack()->push(new articula::ui::BuildHumanoidRigCommand(document, std::move(rig).value()));
    rigState = document->boundRig()
                   ? QStringLiteral("humanoid rig solving (%1 handles)").arg(document->boundRig()->handleCount())
                   : QStringLiteral("humanoid rig not bound: %1").arg(document->rigError());
  } else {
    rigState = QStringLiteral("no humanoid rig: %1").arg(QString::fromStdString(rig.error()));
  }
  articula::ui::Viewport viewport(document);
  viewport.resize(1280, 720);
  viewport.show();
  viewport.frameAll();
  QElapsedTimer waited;
  waited.start();
  while (!viewport.hasRenderedFrame() && viewport.glError().isEmpty() && waited.elapsed() < 10000) {
    QApplication::processEvents(QEventLoop::AllEvents, 20);
  }
  if (!viewport.glError().isEmpty()) return fail(viewport.glError());
  if (!viewport.hasRenderedFrame()) return fail(QStringLiteral("the viewport did not render within 10 s"));
  viewport.makeCurrent();
  const auto* renderer = reinterpret_cast<const char*>(viewport.context()->functions()->glGetString(GL_RENDERER));
  std::printf("viewport benchmark: %s, %d frames at %dx%d, %s, %d MSAA samples, %s\n",
              qPrintable(document->displayName()), frames, viewport.width(), viewport.height(),
              renderer ? renderer : "unknown renderer", viewport.format().samples(), qPrintable(rigState));
  viewport.doneCurrent();

  std::vector<double> milliseconds;
  milliseconds.reserve(static_cast<std::size_t>(frames));
  const int frameCount = document->frameCount();
  const std::clock_t cpuStart = std::clock();
  for (int i = 0; i < frames; ++i) {
    QElapsedTimer timer;
    timer.start();
    document->setFrame(i % frameCount);
    if (!viewport.renderFrameNow()) return fail(QStringLiteral("the viewport lost its OpenGL context"));
    milliseconds.push_back(static_cast<double>(timer.nsecsElapsed()) * 1e-6);
  }
  const double cpuMilliseconds = 1000.0 * static_cast<double>(std::clock() - cpuStart) / CLOCKS_PER_SEC;
  std::sort(milliseconds.begin(), milliseconds.end());
  const double median = milliseconds[milliseconds.size() / 2];
  std::printf("min %.2f ms, max %.2f ms over %d frames of a %d-frame clip\n", milliseconds.front(), milliseconds.back(),
              frames, frameCount);
  std::printf("cpu %.2f ms/frame (mean, all threads)\n", cpuMilliseconds / frames);
  std::printf("viewport: %.2f ms/frame\n", median);
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
  const QCommandLineOption screenshotOption(
      QStringLiteral("screenshot"), QStringLiteral("Render the window to <png> and exit."), QStringLiteral("png"));
  const QCommandLineOption clipOption(QStringLiteral("clip"), QStringLiteral("Clip to pose (default: the first)."),
                                      QStringLiteral("name"));
  const QCommandLineOption frameOption(QStringLiteral("frame"),
                                       QStringLiteral("Frame of the clip to pose (default: 0)."), QStringLiteral("n"));
  const QCommandLineOption benchmarkOption(
      QStringLiteral("benchmark-viewport"),
      QStringLiteral("Play the clip in a 1280x720 viewport, print the median ms/frame "
                     "and exit."));
  const QCommandLineOption framesOption(QStringLiteral("frames"),
                                        QStringLiteral("Frames to render with --benchmark-viewport (default: 300)."),
                                        QStringLiteral("n"), QStringLiteral("300"));
  const QCommandLineOption selectOption(QStringLiteral("select"),
                                        QStringLiteral("Joints (or an IK handle) to select (comma-separated names); "
                                                       "the gizmo shows on the first."),
                                        QStringLiteral("names"));
  const QCommandLineOption onionOption(QStringLiteral("onion-skin"),
                                       QStringLiteral("Show ghosts 3 and 6 frames before and after."));
  parser.addOption(selectOption);
  parser.addOption(onionOption);
  parser.addOption(screenshotOption);
  parser.addOption(benchmarkOption);
  parser.addOption(framesOption);
  parser.addOption(clipOption);
  parser.addOption(frameOption);
  parser.addPositionalArgument(
      QStringLiteral("file"),
      QStringLiteral("Project or character or animation to open (.articula, glTF, FBX, BVH, Collada, ...)."),
      QStringLiteral("[file]"));
  parser.process(app);
  if (parser.positionalArguments().size() > 1) return fail(QStringLiteral("expected at most one file"));

  articula::ui::MainWindow window;
  if (parser.positionalArguments().isEmpty()) {
    window.openScene(articula::makeMannequin(), QStringLiteral("Mannequin"));
  } else {
    QString error;
    QObject::connect(&window, &articula::ui::MainWindow::openFailed,
                     [&error](const QString& message) { error = message; });
    if (!window.openFile(parser.positionalArguments().front())) return fail(error);
  }

  const QString poseError = poseClip(window.document(), parser.value(clipOption), parser.value(frameOption));
  if (!poseError.isEmpty()) return fail(poseError);
  const QString selectError = selectJoints(window.document(), parser.value(selectOption));
  if (!selectError.isEmpty()) return fail(selectError);
  if (parser.isSet(onionOption)) window.viewport()->setOnionSkin(articula::ui::OnionSkinSettings{2, 3});
  if (parser.isSet(screenshotOption)) return takeScreenshot(window, parser.value(screenshotOption));
  if (parser.isSet(benchmarkOption)) return benchmarkViewport(window.document(), parser.value(framesOption));
  window.show();
  window.offerRecovery();
  return QApplication::exec();
}
