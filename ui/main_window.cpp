#include "ui/main_window.h"

#include <QAction>
#include <QActionGroup>
#include <QApplication>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QMenuBar>
#include <QMessageBox>
#include <QSettings>
#include <QStandardPaths>
#include <QUndoStack>

#include "core/io/import.h"
#include "core/samples/mannequin.h"
#include "ui/commands/key_pose_command.h"
#include "ui/dialogs/recovery_dialog.h"
#include "ui/docks/history_dock.h"
#include "ui/docks/outliner_dock.h"
#include "ui/docks/properties_dock.h"
#include "ui/docks/timeline_dock.h"
#include "ui/document/document.h"
#include "ui/document/project_session.h"
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
      mTimelineDock(new TimelineDock(mDocument, mPlayback, this)),
      mHistoryDock(new HistoryDock(mDocument, this)),
      mPropertiesDock(new PropertiesDock(mDocument, this)),
      mSettings(new QSettings(this)),
      mSession(new ProjectSession(
          mDocument, mSettings,
          QStandardPaths::writableLocation(QStandardPaths::AppDataLocation) + QStringLiteral("/recovery"), nullptr,
          this)) {
  setObjectName(QStringLiteral("MainWindow"));
  setCentralWidget(mViewport);
  // The timeline spans the full width under the outliner, as in Maya and Blender.
  setCorner(Qt::BottomLeftCorner, Qt::BottomDockWidgetArea);
  setCorner(Qt::BottomRightCorner, Qt::BottomDockWidgetArea);
  addDockWidget(Qt::LeftDockWidgetArea, mOutlinerDock);
  addDockWidget(Qt::BottomDockWidgetArea, mTimelineDock);
  addDockWidget(Qt::RightDockWidgetArea, mPropertiesDock);
  addDockWidget(Qt::RightDockWidgetArea, mHistoryDock);
  resizeDocks({mOutlinerDock, mPropertiesDock}, {250, 290}, Qt::Horizontal);
  resizeDocks({mTimelineDock}, {mTimelineDock->sizeHint().height()}, Qt::Vertical);
  createActions();

  connect(mDocument, &Document::changed, this, [this](const ChangeEvent& event) {
    if (event.type == ChangeEvent::Type::SceneReplaced) updateWindowTitle();
    updateEditActions();
  });
  connect(mDocument->undoStack(), &QUndoStack::cleanChanged, this, [this](bool clean) { setWindowModified(!clean); });
  connect(mSession, &ProjectSession::pathChanged, this, &MainWindow::updateWindowTitle);
  connect(mSession, &ProjectSession::recentFilesChanged, this, &MainWindow::rebuildRecentFilesMenu);
  mSession->setCameraProvider([this] {
    ProjectView view;
    view.cameraTarget = mViewport->camera().target();
    view.cameraDistance = mViewport->camera().distance();
    view.cameraYawRad = mViewport->camera().yawRad();
    view.cameraPitchRad = mViewport->camera().pitchRad();
    return std::optional<ProjectView>(view);
  });
  updateWindowTitle();
  updateEditActions();
  resize(1280, 800);
}

// A normal close: the autosaved recovery file is not needed (a crash never gets here).
MainWindow::~MainWindow() { mSession->endCleanly(); }

void MainWindow::createActions() {
  QMenu* fileMenu = menuBar()->addMenu(tr("&File"));
  QAction* newAction = fileMenu->addAction(tr("&New"), this, &MainWindow::newDocument);
  newAction->setObjectName(QStringLiteral("actionNew"));
  newAction->setShortcut(QKeySequence::New);
  QAction* openAction = fileMenu->addAction(tr("&Open…"), this, &MainWindow::chooseFileToOpen);
  openAction->setObjectName(QStringLiteral("actionOpen"));
  openAction->setShortcut(QKeySequence::Open);
  mRecentFilesMenu = fileMenu->addMenu(tr("Open &Recent"));
  mRecentFilesMenu->setObjectName(QStringLiteral("menuRecentFiles"));
  rebuildRecentFilesMenu();
  fileMenu->addSeparator();
  QAction* saveAction = fileMenu->addAction(tr("&Save"), this, &MainWindow::saveDocument);
  saveAction->setObjectName(QStringLiteral("actionSave"));
  saveAction->setShortcut(QKeySequence::Save);
  QAction* saveAsAction = fileMenu->addAction(tr("Save &As…"), this, &MainWindow::saveDocumentAs);
  saveAsAction->setObjectName(QStringLiteral("actionSaveAs"));
  saveAsAction->setShortcut(QKeySequence::SaveAs);
  fileMenu->addSeparator();
  QAction* quitAction = fileMenu->addAction(tr("&Quit"), this, &QWidget::close);
  quitAction->setObjectName(QStringLiteral("actionQuit"));
  quitAction->setShortcut(QKeySequence::Quit);
  quitAction->setMenuRole(QAction::QuitRole);

  QMenu* editMenu = menuBar()->addMenu(tr("&Edit"));
  QAction* undoAction = mDocument->undoStack()->createUndoAction(this, tr("&Undo"));
  undoAction->setObjectName(QStringLiteral("actionUndo"));
  undoAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_Z));
  QAction* redoAction = mDocument->undoStack()->createRedoAction(this, tr("&Redo"));
  redoAction->setObjectName(QStringLiteral("actionRedo"));
  redoAction->setShortcuts({QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_Z), QKeySequence(Qt::CTRL | Qt::Key_Y)});
  editMenu->addAction(undoAction);
  editMenu->addAction(redoAction);
  editMenu->addSeparator();
  // Maya's S: key what is posed (and selected) at the current frame.
  mKeyPoseAction = editMenu->addAction(tr("&Key Pose"), this, [this] {
    if (KeyPoseCommand::canKeyPose(*mDocument)) mDocument->undoStack()->push(new KeyPoseCommand(mDocument));
  });
  mKeyPoseAction->setObjectName(QStringLiteral("actionKeyPose"));
  mKeyPoseAction->setShortcut(Qt::Key_S);

  TimelineWidget* timeline = mTimelineDock->timeline();
  QMenu* playbackMenu = menuBar()->addMenu(tr("&Playback"));
  // In the menu bar the Space shortcut works wherever the focus is in the window.
  playbackMenu->addAction(timeline->playAction());
  playbackMenu->addAction(timeline->loopAction());

  // Maya's tool keys: Q select only, W move, E rotate.
  QMenu* toolsMenu = menuBar()->addMenu(tr("&Tools"));
  auto* toolGroup = new QActionGroup(this);
  const struct {
    QString text;
    GizmoMode mode;
    Qt::Key key;
    const char* name;
  } tools[] = {{tr("&Select"), GizmoMode::None, Qt::Key_Q, "actionSelectTool"},
               {tr("&Move"), GizmoMode::Translate, Qt::Key_W, "actionMoveTool"},
               {tr("&Rotate"), GizmoMode::Rotate, Qt::Key_E, "actionRotateTool"}};
  for (const auto& tool : tools) {
    QAction* action =
        toolsMenu->addAction(tool.text, mViewport, [this, mode = tool.mode] { mViewport->setGizmoMode(mode); });
    action->setObjectName(QLatin1String(tool.name));
    action->setShortcut(tool.key);
    action->setCheckable(true);
    action->setChecked(mViewport->gizmoMode() == tool.mode);
    toolGroup->addAction(action);
  }
  toolsMenu->addSeparator();
  QAction* localAction = toolsMenu->addAction(tr("&Local Axes"));
  localAction->setObjectName(QStringLiteral("actionLocalAxes"));
  localAction->setShortcut(Qt::Key_L);
  localAction->setCheckable(true);
  localAction->setChecked(mViewport->gizmoSpace() == GizmoSpace::Local);
  connect(localAction, &QAction::toggled, mViewport,
          [this](bool local) { mViewport->setGizmoSpace(local ? GizmoSpace::Local : GizmoSpace::World); });

  QMenu* viewMenu = menuBar()->addMenu(tr("&View"));
  // Maya's keys: F frames the selection, A frames everything.
  QAction* frameSelectedAction = viewMenu->addAction(tr("Frame &Selected"), mViewport, &Viewport::frameSelected);
  frameSelectedAction->setObjectName(QStringLiteral("actionFrameSelected"));
  frameSelectedAction->setShortcut(Qt::Key_F);
  QAction* frameAction = viewMenu->addAction(tr("Frame &All"), mViewport, &Viewport::frameAll);
  frameAction->setObjectName(QStringLiteral("actionFrameAll"));
  frameAction->setShortcut(Qt::Key_A);
  viewMenu->addSeparator();
  // Blender's numpad keys (on the number row too): 1 front, 3 side, 7 top, 5 perspective.
  const struct {
    QString text;
    OrbitCamera::NamedView view;
    Qt::Key key;
  } namedViews[] = {{tr("&Front"), OrbitCamera::NamedView::Front, Qt::Key_1},
                    {tr("Si&de"), OrbitCamera::NamedView::Side, Qt::Key_3},
                    {tr("&Top"), OrbitCamera::NamedView::Top, Qt::Key_7},
                    {tr("&Perspective"), OrbitCamera::NamedView::Perspective, Qt::Key_5}};
  for (const auto& named : namedViews) {
    QAction* action =
        viewMenu->addAction(named.text, mViewport, [this, view = named.view] { mViewport->setNamedView(view); });
    action->setShortcuts({QKeySequence(named.key), QKeySequence(Qt::KeypadModifier | named.key)});
  }
  viewMenu->addSeparator();
  // Ghosts of the skeleton 3 and 6 frames before (red) and after (green) the current one.
  QAction* onionAction = viewMenu->addAction(tr("&Onion Skin"));
  onionAction->setObjectName(QStringLiteral("actionOnionSkin"));
  onionAction->setShortcut(Qt::Key_O);
  onionAction->setCheckable(true);
  connect(onionAction, &QAction::toggled, mViewport, [this](bool on) {
    mViewport->setOnionSkin(OnionSkinSettings{on ? 2 : 0, 3});
  });
  viewMenu->addSeparator();
  viewMenu->addAction(mOutlinerDock->toggleViewAction());
  viewMenu->addAction(mTimelineDock->toggleViewAction());
  viewMenu->addAction(mPropertiesDock->toggleViewAction());
  viewMenu->addAction(mHistoryDock->toggleViewAction());
}

QStringList MainWindow::importFileFilters() {
  QStringList patterns;
  for (const char* extension : importableExtensions()) patterns << QLatin1Char('*') + QLatin1String(extension);
  QStringList filters;
  filters << tr("Projects and scenes (*.articula %1)").arg(patterns.join(QLatin1Char(' ')));
  filters << tr("Articula projects (*.articula)");
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
  const std::optional<QString> error = mSession->open(path);
  QGuiApplication::restoreOverrideCursor();
  if (error) {
    emit openFailed(*error);
    return false;
  }
  mLastOpenDirectory = QFileInfo(path).absolutePath();
  return true;
}

bool MainWindow::saveDocument() {
  if (mSession->projectPath().isEmpty()) return saveDocumentAs();
  if (const std::optional<QString> error = mSession->save()) {
    QMessageBox::warning(this, tr("Cannot Save"), *error);
    return false;
  }
  return true;
}

bool MainWindow::saveDocumentAs() {
  const QString suggested =
      mSession->projectPath().isEmpty()
          ? QDir(mLastOpenDirectory)
                .filePath(QFileInfo(mSession->displayName()).completeBaseName() + QStringLiteral(".articula"))
          : mSession->projectPath();
  QString path =
      QFileDialog::getSaveFileName(this, tr("Save Project"), suggested, tr("Articula projects (*.articula)"));
  if (path.isEmpty()) return false;
  if (!path.endsWith(QLatin1String(".articula"), Qt::CaseInsensitive)) path += QStringLiteral(".articula");
  if (const std::optional<QString> error = mSession->saveAs(path)) {
    QMessageBox::warning(this, tr("Cannot Save"), *error);
    return false;
  }
  mLastOpenDirectory = QFileInfo(path).absolutePath();
  return true;
}

void MainWindow::newDocument() { openScene(makeMannequin(), tr("Mannequin")); }

void MainWindow::rebuildRecentFilesMenu() {
  mRecentFilesMenu->clear();
  const QStringList files = mSession->recentFiles();
  for (const QString& file : files) {
    mRecentFilesMenu->addAction(QFileInfo(file).fileName(), this, [this, file] { openShowingErrors(file); })
        ->setToolTip(file);
  }
  mRecentFilesMenu->setEnabled(!files.isEmpty());
}

void MainWindow::offerRecovery() {
  const QList<RecoveryCandidate> candidates = mSession->pendingRecoveries();
  if (candidates.isEmpty()) return;
  RecoveryDialog dialog(candidates, this);
  dialog.exec();
  if (dialog.choice() == RecoveryDialog::Choice::DiscardAll) {
    for (const RecoveryCandidate& candidate : candidates) mSession->discardRecovery(candidate.recoveryPath);
  } else if (const std::optional<RecoveryCandidate> chosen = dialog.chosen()) {
    if (const std::optional<QString> error = mSession->recover(*chosen)) {
      QMessageBox::warning(this, tr("Cannot Recover"), *error);
    }
  }
}

void MainWindow::openScene(Scene scene, const QString& name) {
  mDocument->replaceScene(std::move(scene), QString(), name);
}

void MainWindow::chooseFileToOpen() {
  const QStringList filters = importFileFilters();
  const QString path = QFileDialog::getOpenFileName(this, tr("Open Project, Character or Animation"),
                                                    mLastOpenDirectory, filters.join(QStringLiteral(";;")));
  if (!path.isEmpty()) openShowingErrors(path);
}

void MainWindow::openShowingErrors(const QString& path) {
  QString message;
  const auto connection = connect(this, &MainWindow::openFailed, this, [&message](const QString& m) { message = m; });
  const bool opened = openFile(path);
  disconnect(connection);
  if (!opened) QMessageBox::warning(this, tr("Cannot Open File"), message);
}

void MainWindow::updateEditActions() { mKeyPoseAction->setEnabled(KeyPoseCommand::canKeyPose(*mDocument)); }

void MainWindow::updateWindowTitle() {
  setWindowTitle(tr("%1[*] — Articula").arg(mSession->displayName()));
  setWindowModified(!mDocument->undoStack()->isClean());
}

}  // namespace articula::ui
