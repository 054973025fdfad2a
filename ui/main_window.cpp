#include "ui/main_window.h"

#include <QAction>
#include <QApplication>
#include <QFileDialog>
#include <QFileInfo>
#include <QMenuBar>
#include <QMessageBox>
#include <QUndoStack>

#include "core/io/import.h"
#include "ui/docks/outliner_dock.h"
#include "ui/docks/timeline_dock.h"
#include "ui/document/document.h"
#include "ui/timeline/playback_controller.h"
#include "ui/timeline/timeline_widget.h"
#include "ui/viewport/viewport.h"

namespace articula::ui {

MainWindow::MainWindow(QWidget* parent)
    : QMainWindow(parent),
      mDocument(new Document(this)),
      mPlayback(new PlaybackController(mDocument, this)),
      mViewport(new Viewport(mDocument, this)),
      mOutlinerDock(new OutlinerDock(mDocument, this)),
      mTimelineDock(new TimelineDock(mDocument, mPlayback, this)) {
  setObjectName(QStringLiteral("MainWindow"));
  setCentralWidget(mViewport);
  // The timeline spans the full width under the outliner, as in Maya and Blender.
  setCorner(Qt::BottomLeftCorner, Qt::BottomDockWidgetArea);
  setCorner(Qt::BottomRightCorner, Qt::BottomDockWidgetArea);
  addDockWidget(Qt::LeftDockWidgetArea, mOutlinerDock);
  addDockWidget(Qt::BottomDockWidgetArea, mTimelineDock);
  resizeDocks({mOutlinerDock}, {260}, Qt::Horizontal);
  resizeDocks({mTimelineDock}, {mTimelineDock->sizeHint().height()}, Qt::Vertical);
  createActions();

  connect(mDocument, &Document::changed, this, [this](const ChangeEvent& event) {
    if (event.type == ChangeEvent::Type::SceneReplaced) updateWindowTitle();
  });
  connect(mDocument->undoStack(), &QUndoStack::cleanChanged, this, [this](bool clean) { setWindowModified(!clean); });
  updateWindowTitle();
  resize(1280, 800);
}

MainWindow::~MainWindow() = default;

void MainWindow::createActions() {
  QMenu* fileMenu = menuBar()->addMenu(tr("&File"));
  QAction* openAction = fileMenu->addAction(tr("&Open…"), this, &MainWindow::chooseFileToOpen);
  openAction->setObjectName(QStringLiteral("actionOpen"));
  openAction->setShortcut(QKeySequence::Open);
  fileMenu->addSeparator();
  QAction* quitAction = fileMenu->addAction(tr("&Quit"), this, &QWidget::close);
  quitAction->setObjectName(QStringLiteral("actionQuit"));
  quitAction->setShortcut(QKeySequence::Quit);
  quitAction->setMenuRole(QAction::QuitRole);

  QMenu* editMenu = menuBar()->addMenu(tr("&Edit"));
  QAction* undoAction = mDocument->undoStack()->createUndoAction(this, tr("&Undo"));
  undoAction->setShortcut(QKeySequence::Undo);
  QAction* redoAction = mDocument->undoStack()->createRedoAction(this, tr("&Redo"));
  redoAction->setShortcut(QKeySequence::Redo);
  editMenu->addAction(undoAction);
  editMenu->addAction(redoAction);

  TimelineWidget* timeline = mTimelineDock->timeline();
  QMenu* playbackMenu = menuBar()->addMenu(tr("&Playback"));
  // In the menu bar the Space shortcut works wherever the focus is in the window.
  playbackMenu->addAction(timeline->playAction());
  playbackMenu->addAction(timeline->loopAction());

  QMenu* viewMenu = menuBar()->addMenu(tr("&View"));
  QAction* frameAction = viewMenu->addAction(tr("&Frame All"), mViewport, &Viewport::frameAll);
  frameAction->setObjectName(QStringLiteral("actionFrameAll"));
  frameAction->setShortcut(Qt::Key_F);
  viewMenu->addSeparator();
  viewMenu->addAction(mOutlinerDock->toggleViewAction());
  viewMenu->addAction(mTimelineDock->toggleViewAction());
}

QStringList MainWindow::importFileFilters() {
  QStringList patterns;
  for (const char* extension : importableExtensions()) patterns << QLatin1Char('*') + QLatin1String(extension);
  QStringList filters;
  filters << tr("Scenes (%1)").arg(patterns.join(QLatin1Char(' ')));
  filters << tr("glTF 2.0 (*.gltf *.glb)");
  for (const QString& pattern : std::as_const(patterns)) {
    if (pattern == QLatin1String("*.gltf") || pattern == QLatin1String("*.glb")) continue;
    filters << tr("%1 files (%2)").arg(pattern.mid(2).toUpper(), pattern);
  }
  filters << tr("All files (*)");
  return filters;
}

bool MainWindow::openFile(const QString& path) {
  QGuiApplication::setOverrideCursor(Qt::WaitCursor);
  Result<Scene> imported = importScene(path.toStdString());
  QGuiApplication::restoreOverrideCursor();
  if (!imported) {
    emit openFailed(QString::fromStdString(imported.error()));
    return false;
  }
  mDocument->replaceScene(std::move(imported).value(), QFileInfo(path).absoluteFilePath());
  mLastOpenDirectory = QFileInfo(path).absolutePath();
  return true;
}

void MainWindow::openScene(Scene scene, const QString& name) { mDocument->replaceScene(std::move(scene), QString(), name); }

void MainWindow::chooseFileToOpen() {
  const QStringList filters = importFileFilters();
  const QString path = QFileDialog::getOpenFileName(this, tr("Open Character or Animation"), mLastOpenDirectory,
                                                    filters.join(QStringLiteral(";;")));
  if (path.isEmpty()) return;
  QString message;
  const auto connection = connect(this, &MainWindow::openFailed, this, [&message](const QString& m) { message = m; });
  const bool opened = openFile(path);
  disconnect(connection);
  if (!opened) QMessageBox::warning(this, tr("Cannot Open File"), message);
}

void MainWindow::updateWindowTitle() {
  setWindowTitle(tr("%1[*] — Articula").arg(mDocument->displayName()));
  setWindowModified(!mDocument->undoStack()->isClean());
}

}  // namespace articula::ui
