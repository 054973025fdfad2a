#include "ui/main_window.h"

#include <QAction>
#include <QActionGroup>
#include <QApplication>
#include <QCloseEvent>
#include <QDir>
#include <QDockWidget>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QLocale>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QSettings>
#include <QStandardPaths>
#include <QStatusBar>
#include <QStatusTipEvent>
#include <QUndoStack>
#include <QUrl>

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "core/bake/bake_pipeline.h"
#include "core/io/gltf_export.h"
#include "core/io/import.h"
#include "core/project/export_options.h"
#include "core/rig/humanoid_rig.h"
#include "core/samples/mannequin.h"
#include "ui/commands/clip_operation_commands.h"
#include "ui/commands/key_pose_command.h"
#include "ui/commands/transient_edits.h"
#include "ui/curves/curve_view.h"
#include "ui/dialogs/bake_dialog.h"
#include "ui/dialogs/contacts_dialog.h"
#include "ui/dialogs/export_clips_dialog.h"
#include "ui/dialogs/filter_dialog.h"
#include "ui/dialogs/make_cyclic_dialog.h"
#include "ui/dialogs/preferences_dialog.h"
#include "ui/dialogs/recovery_dialog.h"
#include "ui/dialogs/retarget_dialog.h"
#include "ui/dialogs/root_motion_dialog.h"
#include "ui/dialogs/shortcuts_dialog.h"
#include "ui/docks/characterise_dock.h"
#include "ui/docks/curve_editor_dock.h"
#include "ui/docks/history_dock.h"
#include "ui/docks/layers_dock.h"
#include "ui/docks/outliner_dock.h"
#include "ui/docks/properties_dock.h"
#include "ui/docks/rig_dock.h"
#include "ui/docks/timeline_dock.h"
#include "ui/document/clip_grounding.h"
#include "ui/document/document.h"
#include "ui/document/project_session.h"
#include "ui/tasks/background_task.h"
#include "ui/timeline/playback_controller.h"
#include "ui/timeline/timeline_widget.h"
#include "ui/viewport/viewport.h"
#include "ui/widgets/focus_return.h"
#include "ui/widgets/pose_actions.h"
#include "ui/widgets/rest_pose_actions.h"

namespace articula::ui {

namespace {

// The clip's active layer when it is locked: what Key Pose refuses to key into.
const AnimLayer* lockedActiveLayer(const Document& document) {
  const AnimLayer* layer = document.activeLayerOfClip();
  return layer && layer->locked ? layer : nullptr;
}

}  // namespace

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
  setAcceptDrops(true);
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
  createAnimationMenu();
  createPoseMenus();
  createWindowAndHelpMenus();
  resize(1280, 800);
  restoreLayout();
  mViewportPreferences = ViewportPreferences::load(*mSettings);
  applyViewportPreferences(mViewportPreferences);
  rememberToggles();
  keepShortcutsOutOfTextFields();
  new TransientEdits(mDocument, this);

  connect(mDocument, &Document::changed, this, [this](const ChangeEvent& event) {
    if (event.type == ChangeEvent::Type::SceneReplaced) {
      updateWindowTitle();
      // They spoke of the previous file.
      showResult(QString());
      mLastCleanup.clear();
      // A character without a mesh (a BVH) is only its bones: hidden, the viewport is empty.
      QAction* showBones = findChild<QAction*>(QStringLiteral("actionShowBones"));
      if (showBones && mDocument->scene().meshes.empty()) showBones->setChecked(true);
    }
    updateEditActions();
  });
  connect(mDocument->undoStack(), &QUndoStack::cleanChanged, this, [this](bool clean) { setWindowModified(!clean); });
  // A result ("Baked …", "Exported …") speaks of the state it left: an undo, a redo or the
  // next edit takes it away (a command that reports its own result shows it after its push).
  connect(mDocument->undoStack(), &QUndoStack::indexChanged, this, [this] {
    mLastResult.clear();
    statusBar()->clearMessage();
  });
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
  // A project reopens with the camera it was saved with (after the scene's frame-all).
  connect(mSession, &ProjectSession::projectOpened, this, [this](const ProjectView& view) {
    if (view.hasCamera)
      mViewport->setCameraView(view.cameraTarget, view.cameraYawRad, view.cameraPitchRad, view.cameraDistance);
  });
  updateWindowTitle();
  updateEditActions();
}

// A normal close: the autosaved recovery file is not needed (a crash never gets here).
MainWindow::~MainWindow() {
  // The document outlives this class's part of the window (it is a child QObject): its undo
  // stack, cleared as it goes, must not reach this window's slots.
  disconnect(mDocument->undoStack(), nullptr, this, nullptr);
  mSession->endCleanly();
  // Qt deletes children in the order they were made, and the document and the playback clock
  // were made first; but widgets read them while they go (a floating dock closes its own
  // window and asks its model for sizes). So every object that is not a widget goes last.
  const QObjectList children = this->children();
  for (QObject* child : children) {
    if (child->isWidgetType()) continue;
    child->setParent(nullptr);
    child->setParent(this);
  }
}

void MainWindow::createActions() {
  QMenu* fileMenu = menuBar()->addMenu(tr("&File"));
  QAction* newAction = fileMenu->addAction(tr("&New"), this, &MainWindow::newDocument);
  newAction->setObjectName(QStringLiteral("actionNew"));
  newAction->setShortcut(QKeySequence::New);
  fileMenu->addAction(mTimelineDock->timeline()->newClipAction());
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
  QAction* exportAction = fileMenu->addAction(tr("&Export glTF…"), this, &MainWindow::chooseFileToExport);
  exportAction->setObjectName(QStringLiteral("actionExportGltf"));
  exportAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_E));
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
    if (const AnimLayer* layer = lockedActiveLayer(*mDocument)) {
      showResult(tr("Layer '%1' is locked: unlock it in the Layers panel to key it.")
                     .arg(QString::fromStdString(layer->name)));
    } else if (KeyPoseCommand::canKeyPose(*mDocument)) {
      mDocument->undoStack()->push(new KeyPoseCommand(mDocument));
    }
  });
  mKeyPoseAction->setObjectName(QStringLiteral("actionKeyPose"));
  mKeyPoseAction->setShortcut(Qt::Key_S);
  editMenu->addSeparator();
  QAction* preferencesAction = editMenu->addAction(tr("&Preferences…"), this, &MainWindow::editPreferences);
  preferencesAction->setObjectName(QStringLiteral("actionPreferences"));
  preferencesAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_Comma));
  preferencesAction->setMenuRole(QAction::PreferencesRole);

  TimelineWidget* timeline = mTimelineDock->timeline();
  QMenu* playbackMenu = menuBar()->addMenu(tr("&Playback"));
  // In the menu bar the Space shortcut works wherever the focus is in the window.
  playbackMenu->addAction(timeline->playAction());
  playbackMenu->addAction(timeline->loopAction());
  addPlaybackRangeActions(playbackMenu);

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
  viewMenu->setObjectName(QStringLiteral("menuView"));
  // Maya's keys: F frames the selection, A frames everything.
  QAction* frameSelectedAction = viewMenu->addAction(tr("Frame &Selected"), mViewport, &Viewport::frameSelected);
  frameSelectedAction->setObjectName(QStringLiteral("actionFrameSelected"));
  frameSelectedAction->setShortcut(Qt::Key_F);
  QAction* frameAction = viewMenu->addAction(tr("Frame &All"), mViewport, &Viewport::frameAll);
  frameAction->setObjectName(QStringLiteral("actionFrameAll"));
  frameAction->setShortcut(Qt::Key_A);
  // Blender's "lock camera to object": the camera keeps the walking character in view.
  QAction* followAction = viewMenu->addAction(tr("Fo&llow Character"));
  followAction->setObjectName(QStringLiteral("actionFollow"));
  followAction->setToolTip(tr("Move the camera with the character's hips during playback and scrubbing"));
  followAction->setCheckable(true);
  connect(followAction, &QAction::toggled, mViewport, &Viewport::setFollow);
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
  // Ghosts of the skeleton before (red) and after (green) the current one; how many and
  // how far apart is in Edit ▸ Preferences (2 each side, 3 frames apart at first).
  mOnionSkinAction = viewMenu->addAction(tr("&Onion Skin"));
  mOnionSkinAction->setObjectName(QStringLiteral("actionOnionSkin"));
  mOnionSkinAction->setShortcut(Qt::Key_O);
  mOnionSkinAction->setCheckable(true);
  connect(mOnionSkinAction, &QAction::toggled, mViewport, [this] { applyViewportPreferences(mViewportPreferences); });
  // Paths of the selected joints and the selected IK handle's tip, over the whole clip or
  // a window around the current frame (Edit ▸ Preferences).
  QAction* trailsAction = viewMenu->addAction(tr("&Trails"));
  trailsAction->setObjectName(QStringLiteral("actionTrails"));
  trailsAction->setCheckable(true);
  connect(trailsAction, &QAction::toggled, mViewport, &Viewport::setShowTrails);
  addDisplayToggles(viewMenu);
  viewMenu->addSeparator();
  viewMenu->addAction(mOutlinerDock->toggleViewAction());
  viewMenu->addAction(mTimelineDock->toggleViewAction());
  viewMenu->addAction(mPropertiesDock->toggleViewAction());
  viewMenu->addAction(mHistoryDock->toggleViewAction());
  createAnimationDocks(playbackMenu, viewMenu);
}

// In and out frames at the playhead, as Blender's preview range (Ctrl+Alt+P there sets it by
// dragging; here it clears it): playback then starts at the in frame and loops within.
void MainWindow::addPlaybackRangeActions(QMenu* playbackMenu) {
  playbackMenu->addSeparator();
  const struct {
    QString text;
    QKeySequence key;
    void (PlaybackController::*run)();
    const char* name;
  } actions[] = {
      {tr("Set Range &In"), QKeySequence(Qt::CTRL | Qt::ALT | Qt::Key_I), &PlaybackController::setRangeInAtCurrentFrame,
       "actionRangeIn"},
      {tr("Set Range &Out"), QKeySequence(Qt::CTRL | Qt::ALT | Qt::Key_O),
       &PlaybackController::setRangeOutAtCurrentFrame, "actionRangeOut"},
      {tr("&Clear Range"), QKeySequence(Qt::CTRL | Qt::ALT | Qt::Key_P), &PlaybackController::clearRange,
       "actionClearRange"},
  };
  for (const auto& entry : actions) {
    QAction* action = playbackMenu->addAction(entry.text, mPlayback, entry.run);
    action->setObjectName(QLatin1String(entry.name));
    action->setShortcut(entry.key);
  }
}

// What the viewport draws, each part on its own (the rig's handles and contact rings too).
void MainWindow::addDisplayToggles(QMenu* viewMenu) {
  viewMenu->addSeparator();
  const struct {
    QString text;
    void (Viewport::*set)(bool);
    bool shown;
    const char* name;
  } toggles[] = {
      {tr("Show &Mesh"), &Viewport::setShowMesh, mViewport->showMesh(), "actionShowMesh"},
      {tr("Show &Bones"), &Viewport::setShowBones, mViewport->showBones(), "actionShowBones"},
      {tr("Show &Rig"), &Viewport::setShowRig, mViewport->showRig(), "actionShowRig"},
      {tr("Show &Grid"), &Viewport::setShowGrid, mViewport->showGrid(), "actionShowGrid"},
  };
  for (const auto& toggle : toggles) {
    QAction* action = viewMenu->addAction(toggle.text);
    action->setObjectName(QLatin1String(toggle.name));
    action->setCheckable(true);
    action->setChecked(toggle.shown);
    connect(action, &QAction::toggled, mViewport, toggle.set);
  }
}

// The curve editor beside the timeline, and the timeline's stepping, key and auto-key
// actions in the Playback menu so their keys work wherever the focus is.
void MainWindow::createAnimationDocks(QMenu* playbackMenu, QMenu* viewMenu) {
  mCurveEditorDock = new CurveEditorDock(mDocument, this);
  addDockWidget(Qt::BottomDockWidgetArea, mCurveEditorDock);
  splitDockWidget(mTimelineDock, mCurveEditorDock, Qt::Horizontal);
  resizeDocks({mTimelineDock, mCurveEditorDock}, {700, 580}, Qt::Horizontal);
  resizeDocks({mTimelineDock}, {260}, Qt::Vertical);
  TimelineWidget* timeline = mTimelineDock->timeline();
  playbackMenu->addSeparator();
  for (QAction* action : {timeline->stepBackAction(), timeline->stepForwardAction(), timeline->previousKeyAction(),
                          timeline->nextKeyAction(), timeline->autoKeyAction()})
    playbackMenu->addAction(action);
  viewMenu->addAction(mCurveEditorDock->toggleViewAction());
  viewMenu->addAction(mCurveEditorDock->curveView()->timeInSecondsAction());
}

void MainWindow::createAnimationMenu() {
  QMenu* animationMenu = menuBar()->addMenu(tr("&Animation"));
  QAction* contactsAction = animationMenu->addAction(tr("Detect &Contacts…"), this, [this] {
    ContactsDialog dialog(standingHeight(), this);
    if (dialog.exec() != QDialog::Accepted) return;
    QString message;
    const auto connection =
        connect(this, &MainWindow::animationFailed, this, [&message](const QString& m) { message = m; });
    const bool done = detectContacts(dialog.options());
    disconnect(connection);
    if (!done && !message.isEmpty()) QMessageBox::warning(this, tr("Cannot Detect Contacts"), message);
  });
  contactsAction->setObjectName(QStringLiteral("actionDetectContacts"));

  QAction* filterAction = animationMenu->addAction(tr("&Filter…"), this, [this] {
    const Clip* clip = mDocument->currentClip();
    if (clip == nullptr) {
      QMessageBox::warning(this, tr("Cannot Filter"), tr("There is no clip to filter."));
      return;
    }
    // The selected joints (all the clip animates if none) over the timeline's range (the whole clip if none).
    std::vector<int> joints = mDocument->selectedJoints();
    if (joints.empty()) {
      for (const JointTrack& track : clip->tracks) joints.push_back(track.joint);
    }
    const bool range = mPlayback->hasRange();
    auto* dialog = new FilterDialog(mDocument, std::move(joints), range ? mPlayback->firstPlayedFrame() : 0,
                                    range ? mPlayback->lastPlayedFrame() : -1, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->open();
  });
  filterAction->setObjectName(QStringLiteral("actionFilter"));

  // Game-ready clips: the current clip made a seamless loop, or its travel taken out. Make
  // Cyclic… opens on the quick loop's settings (0.25 s, end frame kept): Enter applies them.
  QAction* cyclicAction = animationMenu->addAction(tr("Make Cyc&lic…"), this, [this] {
    if (mDocument->currentClip() == nullptr) {
      QMessageBox::warning(this, tr("Cannot Make Cyclic"), tr("There is no clip."));
      return;
    }
    auto* dialog = new MakeCyclicDialog(mDocument, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->open();
  });
  cyclicAction->setObjectName(QStringLiteral("actionMakeCyclic"));
  QAction* inPlaceAction = animationMenu->addAction(tr("In &Place"), this, [this] {
    if (const std::optional<QString> error = makeCurrentClipInPlace(*mDocument))
      QMessageBox::warning(this, tr("Cannot Make In Place"), *error);
    else
      showResult(tr("The clip's travel across the ground is taken out: it plays in place."));
  });
  inPlaceAction->setObjectName(QStringLiteral("actionInPlace"));
  QAction* rootMotionAction = animationMenu->addAction(tr("&Root Motion…"), this, [this] {
    if (mDocument->currentClip() == nullptr) {
      QMessageBox::warning(this, tr("Cannot Move Root Motion"), tr("There is no clip."));
      return;
    }
    auto* dialog = new RootMotionDialog(mDocument, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->open();
  });
  rootMotionAction->setObjectName(QStringLiteral("actionRootMotion"));

  QAction* bakeAction = animationMenu->addAction(tr("&Bake…"), this, [this] {
    // Refused before the dialog asks for anything: no clip, or no rig to bake through.
    if (const Result<RigDefinition> rig = bakeRig(); !rig) {
      QMessageBox::warning(this, tr("Cannot Bake"), QString::fromStdString(rig.error()));
      return;
    }
    const Clip* clip = mDocument->currentClip();
    BakeDialog dialog(mSession->bakeSettings(), clip != nullptr ? clip->frameCount() : 0, this);
    dialog.showLastCleanup(mLastCleanup, kReferenceHeightMm / standingHeight());
    if (dialog.exec() != QDialog::Accepted) return;
    mSession->setBakeSettings(dialog.settings());
    QString message;
    const auto connection =
        connect(this, &MainWindow::animationFailed, this, [&message](const QString& m) { message = m; });
    const bool done = bake(mSession->bakeSettings());
    disconnect(connection);
    if (!done && !message.isEmpty()) QMessageBox::warning(this, tr("Cannot Bake"), message);
  });
  bakeAction->setObjectName(QStringLiteral("actionBake"));
  bakeAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_B));
  QAction* retargetAction = animationMenu->addAction(tr("&Retarget…"), this, [this] {
    const Clip* first = mDocument->scene().clips.empty() ? nullptr : &mDocument->scene().clips.front();
    RetargetDialog dialog(first != nullptr ? first->frameRate : 0.0, this);
    if (mLastRetarget) dialog.setRequest(*mLastRetarget);
    // A refusal stays in the dialog with the choices that met it; a cancelled run says nothing.
    connect(&dialog, &RetargetDialog::retargetRequested, this, [this, &dialog](const RetargetRequest& request) {
      mLastRetarget = request;
      QString message;
      const auto connection =
          connect(this, &MainWindow::animationFailed, this, [&message](const QString& m) { message = m; });
      const bool done = retargetFrom(request);
      disconnect(connection);
      if (done) {
        dialog.accept();
      } else {
        dialog.showRefusal(message);
      }
    });
    dialog.exec();
  });
  retargetAction->setObjectName(QStringLiteral("actionRetarget"));
  QMenu* viewMenu = findChild<QMenu*>(QStringLiteral("menuView"));
  createRigDock(animationMenu, viewMenu);
  createLayersDock(viewMenu);
}

void MainWindow::createLayersDock(QMenu* viewMenu) {
  mLayersDock = new LayersDock(mDocument, this);
  // Shown from View ▸ Layers, floating until docked: its rows of actions would widen the
  // right-hand docks and narrow the timeline and curve editor of every session.
  addDockWidget(Qt::RightDockWidgetArea, mLayersDock);
  mLayersDock->setFloating(true);
  mLayersDock->hide();
  viewMenu->addAction(mLayersDock->toggleViewAction());
  connect(mLayersDock->toggleViewAction(), &QAction::triggered, this, [this](bool shown) {
    if (shown && mLayersDock->isFloating()) placeFloatingDock(mLayersDock);
  });
}

// A floating dock Qt has never placed opens at the screen's corner, over the menu bar and
// the left docks: it opens over the viewport's top-right corner instead. One the user moved
// somewhere else in the window (restored with the layout) stays there.
void MainWindow::placeFloatingDock(QDockWidget* dock) {
  const QRect menus(menuBar()->mapToGlobal(QPoint(0, 0)), menuBar()->size());
  if (dock->frameGeometry().intersects(frameGeometry()) && !dock->frameGeometry().intersects(menus)) return;
  QWidget* view = centralWidget();
  const QPoint viewTopRight = view->mapToGlobal(view->rect().topRight());
  dock->adjustSize();
  dock->move(viewTopRight.x() - dock->frameGeometry().width() - 16, viewTopRight.y() + 16);
}

void MainWindow::createRigDock(QMenu* animationMenu, QMenu* viewMenu) {
  mRigDock = new RigDock(mDocument, this);
  addDockWidget(Qt::LeftDockWidgetArea, mRigDock);
  splitDockWidget(mOutlinerDock, mRigDock, Qt::Vertical);
  resizeDocks({mOutlinerDock, mRigDock}, {230, 290}, Qt::Vertical);
  // Room for the handle list beside the outliner and for the properties' handle and limit
  // editors beside their scroll bar; the timeline and curve editor keep their height.
  resizeDocks({mOutlinerDock, mPropertiesDock}, {300, 330}, Qt::Horizontal);
  resizeDocks({mTimelineDock}, {260}, Qt::Vertical);

  QMenu* rigMenu = animationMenu->addMenu(tr("&Rig"));
  rigMenu->setObjectName(QStringLiteral("menuRig"));
  rigMenu->addAction(mRigDock->buildHumanoidAction());
  rigMenu->addAction(mRigDock->addHandleAction());
  rigMenu->addAction(mRigDock->removeHandleAction());
  rigMenu->addSeparator();
  rigMenu->addAction(mRigDock->snapFkToIkAction());
  rigMenu->addAction(mRigDock->snapIkToFkAction());
  rigMenu->addSeparator();
  rigMenu->addAction(mRigDock->enableRigAction());
  viewMenu->addAction(mRigDock->toggleViewAction());
  // A refusal from the menu or Shift+I is written in the panel: make sure it is seen.
  connect(mRigDock, &RigDock::problem, this, [this] {
    mRigDock->show();
    mRigDock->raise();
  });
  createCharacteriseDock(animationMenu, viewMenu);
}

void MainWindow::createCharacteriseDock(QMenu* animationMenu, QMenu* viewMenu) {
  mCharacteriseDock = new CharacteriseDock(mDocument, this);
  addDockWidget(Qt::RightDockWidgetArea, mCharacteriseDock);
  tabifyDockWidget(mPropertiesDock, mCharacteriseDock);
  mPropertiesDock->raise();
  auto* show = animationMenu->addAction(tr("C&haracterise…"));
  show->setObjectName(QStringLiteral("actionCharacterise"));
  show->setToolTip(tr("Say which joint plays each humanoid role (hips, spine, limbs)"));
  auto showDock = [this] {
    mCharacteriseDock->show();
    mCharacteriseDock->raise();
  };
  connect(show, &QAction::triggered, this, showDock);
  connect(mRigDock, &RigDock::characteriseRequested, this, showDock);
  connect(mCharacteriseDock, &CharacteriseDock::problem, this, showDock);
  viewMenu->addAction(mCharacteriseDock->toggleViewAction());
}

void MainWindow::createPoseMenus() {
  mPoseActions = new PoseActions(mDocument, this);
  QMenu* poseMenu = menuBar()->addMenu(tr("P&ose"));
  poseMenu->setObjectName(QStringLiteral("menuPose"));
  mPoseActions->addTo(poseMenu);
  connect(mPoseActions, &PoseActions::problem, this,
          [this](const QString& message) { QMessageBox::information(this, tr("Pose"), message); });
  auto* restPoseActions = new RestPoseActions(mDocument, this);
  QMenu* skeletonMenu = menuBar()->addMenu(tr("&Skeleton"));
  skeletonMenu->setObjectName(QStringLiteral("menuSkeleton"));
  restPoseActions->addTo(skeletonMenu->addMenu(tr("&Rest Pose")));
  connect(restPoseActions, &RestPoseActions::problem, this,
          [this](const QString& message) { QMessageBox::information(this, tr("Rest Pose"), message); });
  mViewportMenu = new QMenu(this);
  mViewportMenu->setObjectName(QStringLiteral("menuViewportContext"));
  mViewportMenu->addAction(mKeyPoseAction);
  mViewportMenu->addSeparator();
  mPoseActions->addTo(mViewportMenu);
  mViewportMenu->addSeparator();
  mViewportMenu->addAction(mRigDock->snapFkToIkAction());
  mViewportMenu->addAction(mRigDock->snapIkToFkAction());
  // Alt+right drag dollies the camera (Maya): only a plain right click opens the menu.
  mViewport->setContextMenuPolicy(Qt::CustomContextMenu);
  connect(mViewport, &QWidget::customContextMenuRequested, this, [this](const QPoint& position) {
    if (!(QGuiApplication::keyboardModifiers() & Qt::AltModifier))
      mViewportMenu->popup(mViewport->mapToGlobal(position));
  });
}

void MainWindow::createWindowAndHelpMenus() {
  QMenu* windowMenu = menuBar()->addMenu(tr("&Window"));
  QAction* resetAction = windowMenu->addAction(tr("&Reset Layout"), this, &MainWindow::resetLayout);
  resetAction->setObjectName(QStringLiteral("actionResetLayout"));

  QMenu* helpMenu = menuBar()->addMenu(tr("&Help"));
  QAction* shortcutsAction = helpMenu->addAction(tr("&Keyboard Shortcuts"), this, [this] {
    ShortcutsDialog dialog(this);
    dialog.exec();
  });
  shortcutsAction->setObjectName(QStringLiteral("actionKeyboardShortcuts"));
  shortcutsAction->setShortcut(QKeySequence::HelpContents);
}

void MainWindow::keepShortcutsOutOfTextFields() {
  new FocusReturn(this, mViewport);
  // The window opens with the keyboard on the viewport, not on the outliner's filter.
  mViewport->setFocus(Qt::OtherFocusReason);
}

void MainWindow::restoreLayout() {
  mDefaultLayout = saveState();
  restoreGeometry(mSettings->value(QStringLiteral("window/geometry")).toByteArray());
  restoreState(mSettings->value(QStringLiteral("window/layout")).toByteArray());
}

void MainWindow::saveLayout() const {
  mSettings->setValue(QStringLiteral("window/geometry"), saveGeometry());
  mSettings->setValue(QStringLiteral("window/layout"), saveState());
}

void MainWindow::rememberToggles() {
  static constexpr const char* kRemembered[] = {"actionSelectTool",
                                                "actionMoveTool",
                                                "actionRotateTool",
                                                "actionLocalAxes",
                                                "actionOnionSkin",
                                                "actionTrails",
                                                "actionLoop",
                                                "actionAutoKey",
                                                "actionShowMesh",
                                                "actionShowBones",
                                                "actionShowRig",
                                                "actionShowGrid",
                                                "actionCurvesTimeInSeconds",
                                                "actionFollow"};
  for (const char* name : kRemembered) {
    QAction* action = findChild<QAction*>(QLatin1String(name));
    if (!action) continue;
    const QString key = QStringLiteral("preferences/%1").arg(QLatin1String(name));
    // trigger() runs what the menu runs; a checked tool of an exclusive group cannot be
    // unchecked by it, so a group comes back through its checked member.
    if (mSettings->contains(key) && mSettings->value(key).toBool() != action->isChecked()) action->trigger();
    connect(action, &QAction::toggled, this, [this, key](bool on) { mSettings->setValue(key, on); });
  }
}

void MainWindow::editPreferences() {
  PreferencesDialog dialog(mSession->autosaveMinutes(), this);
  dialog.setViewportPreferences(mViewportPreferences);
  connect(&dialog, &PreferencesDialog::viewportPreferencesChanged, this, &MainWindow::applyViewportPreferences);
  if (dialog.exec() != QDialog::Accepted) {
    applyViewportPreferences(mViewportPreferences);
    return;
  }
  mSession->setAutosaveMinutes(dialog.autosaveMinutes());
  mViewportPreferences = dialog.viewportPreferences();
  mViewportPreferences.save(*mSettings);
}

void MainWindow::applyViewportPreferences(const ViewportPreferences& preferences) {
  const bool onion = mOnionSkinAction && mOnionSkinAction->isChecked();
  mViewport->setOnionSkin(
      OnionSkinSettings{onion ? preferences.onionGhostsEachSide : 0, preferences.onionSpacingFrames});
  mViewport->setTrailWindowFrames(preferences.trailWindowFrames);
}

void MainWindow::resetLayout() {
  restoreState(mDefaultLayout);
  // Docks the user closed come back too: the default layout has every dock shown.
  for (QDockWidget* dock : findChildren<QDockWidget*>()) dock->show();
}

void MainWindow::setUnsavedChangesPrompt(std::function<UnsavedChoice()> prompt) {
  mUnsavedChangesPrompt = std::move(prompt);
}

bool MainWindow::confirmDiscardingChanges() {
  if (mDocument->undoStack()->isClean()) return true;
  UnsavedChoice choice = UnsavedChoice::Cancel;
  if (mUnsavedChangesPrompt) {
    choice = mUnsavedChangesPrompt();
  } else {
    const auto button = QMessageBox::warning(
        this, tr("Unsaved Changes"), tr("Save the changes to %1 before closing it?").arg(mSession->displayName()),
        QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel, QMessageBox::Save);
    choice = button == QMessageBox::Save      ? UnsavedChoice::Save
             : button == QMessageBox::Discard ? UnsavedChoice::Discard
                                              : UnsavedChoice::Cancel;
  }
  switch (choice) {
    case UnsavedChoice::Save:
      return saveDocument();
    case UnsavedChoice::Discard:
      return true;
    case UnsavedChoice::Cancel:
      return false;
  }
  return false;
}

void MainWindow::showResult(const QString& message) {
  mLastResult = message;
  statusBar()->showMessage(message);
}

bool MainWindow::event(QEvent* event) {
  // Hovering a menu item sends its status tip, empty for nearly all of them, and Qt shows
  // it in place of the message: the result would be gone before it was read. An empty tip
  // (the pointer off an item with one) brings the result back instead.
  if (event->type() == QEvent::StatusTip && static_cast<QStatusTipEvent*>(event)->tip().isEmpty()) {
    statusBar()->showMessage(mLastResult);
    return true;
  }
  return QMainWindow::event(event);
}

void MainWindow::closeEvent(QCloseEvent* event) {
  if (!confirmDiscardingChanges()) {
    event->ignore();
    return;
  }
  saveLayout();
  QMainWindow::closeEvent(event);
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
  // Off the GUI thread: a large FBX takes seconds. Importers cannot stop half-way, so Cancel
  // discards the result when the reading ends; the open document is untouched either way.
  std::optional<Result<ProjectSession::LoadedFile>> outcome =
      runInBackground<Result<ProjectSession::LoadedFile>>(this, tr("Opening %1…").arg(QFileInfo(path).fileName()),
                                                          [path](TaskProgress&) { return ProjectSession::load(path); });
  if (!outcome) return false;
  if (!*outcome) {
    emit openFailed(QString::fromStdString(outcome->error()));
    return false;
  }
  // What the user must know but that does not stop the opening (a project whose asset
  // changed since it was saved): said in the status bar once the new document is shown.
  std::vector<std::string> warnings;
  if ((*outcome)->project) warnings = (*outcome)->project->warnings;
  const bool asset = !(*outcome)->project;
  mSession->adopt(std::move(**outcome));
  // A character or capture opens framed on its whole clip, so a walk stays in view at every
  // frame; a project opens with the camera it was saved with.
  if (asset) mViewport->frameMotion();
  mLastOpenDirectory = QFileInfo(path).absolutePath();
  if (!warnings.empty()) showResult(tr("Warning: %1").arg(QString::fromStdString(warnings.front())));
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

void MainWindow::newDocument() {
  if (confirmDiscardingChanges()) openScene(makeMannequin(), tr("Mannequin"));
}

void MainWindow::rebuildRecentFilesMenu() {
  mRecentFilesMenu->clear();
  const QStringList files = mSession->recentFiles();
  for (const QString& file : files) {
    mRecentFilesMenu
        ->addAction(QFileInfo(file).fileName(), this,
                    [this, file] {
                      if (confirmDiscardingChanges()) openShowingErrors(file);
                    })
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
  if (!confirmDiscardingChanges()) return;
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
  if (!opened && !message.isEmpty()) QMessageBox::warning(this, tr("Cannot Open File"), message);
}

namespace {

// What the editor shows is what the file holds: with the rig on, every clip is baked through
// it (its handles' curves, the stride curves, the ground plane the document solves a clip
// with stride curves on: groundsFeet) and
// reduced to linear keys within 1 mm at 1.75 m (the bake's default, which every reader plays
// alike) before it is written; without it, a clip with Bézier keys is written as lines within
// the same tolerance (writeSceneGltf), unless the user asked the Bake dialog for cubic keys
// (`keys`). `written` receives what the file holds.
// Clips `keys` leaves out are not baked, but for the first, which gives the file its up.
std::optional<std::string> exportThroughRig(Scene scene, const std::optional<RigDefinition>& rig,
                                            const KeyWriteOptions& keys, const std::string& file,
                                            TaskProgress& progress, GltfExportReport& written) {
  if (rig) {
    BakePipelineOptions options;
    options.bake.reduction.toleranceModel = kDefaultToleranceOfHeight * scene.characterHeight();
    options.bake.reduction.interpolation = keys.interpolation;
    Result<Ground> ground = Ground::plane(Vec3::Zero(), Vec3::UnitY());
    for (std::size_t c = 0; c < scene.clips.size(); ++c) {
      Clip& clip = scene.clips[c];
      const bool chosen = keys.clips.empty() || std::ranges::find(keys.clips, static_cast<int>(c)) != keys.clips.end();
      if (clip.frameCount() < 1 || (c > 0 && !chosen)) continue;
      options.ground.reset();
      if (ground && groundsFeet(*rig, &clip)) options.ground = *ground;
      Result<BakePipelineResult> baked = bakeThroughRig(
          scene, clip, *rig, options, [&progress](int done, int total) { return progress.report(done, total); });
      if (!baked) return file + ": clip '" + clip.name + "' does not bake through the rig: " + baked.error();
      clip = std::move(baked->clip);
    }
  }
  return writeSceneGltf(std::move(scene), file, keys, &written);
}

}  // namespace

bool MainWindow::exportGltfTo(const QString& path, const std::vector<int>& clips) {
  // The worker writes a copy: the document may repaint (or be edited) while it runs.
  const std::string file = path.toStdString();
  std::optional<RigDefinition> rig;
  if (mDocument->rigEnabled() && mDocument->boundRig()) rig = *mDocument->activeRig();
  KeyWriteOptions keys;
  if (mSession->bakeSettings().cubicKeys) keys.interpolation = KeyInterpolation::Cubic;
  keys.clips = clips;
  // Shared with the worker, which may outlive a cancelled wait.
  const auto written = std::make_shared<GltfExportReport>();
  std::optional<std::optional<std::string>> outcome = runInBackground<std::optional<std::string>>(
      this, tr("Exporting %1…").arg(QFileInfo(path).fileName()),
      [scene = mDocument->scene(), rig = std::move(rig), keys, file, written](TaskProgress& progress) {
        return exportThroughRig(scene, rig, keys, file, progress, *written);
      });
  if (!outcome) return false;
  if (*outcome) {
    emit exportFailed(QString::fromStdString(**outcome));
    return false;
  }
  showResult(exportSummary(path, *written, clips));
  return true;
}

QString MainWindow::exportSummary(const QString& path, const GltfExportReport& written,
                                  const std::vector<int>& clips) const {
  const Scene& scene = mDocument->scene();
  std::size_t keys = 0;
  std::size_t clipCount = 0;
  for (std::size_t c = 0; c < scene.clips.size(); ++c) {
    if (!clips.empty() && std::ranges::find(clips, static_cast<int>(c)) == clips.end()) continue;
    keys += scene.clips[c].keyCount();
    ++clipCount;
  }
  // A .gltf's buffers are the .bin beside it.
  const QFileInfo file(path);
  qint64 bytes = file.size();
  const QFileInfo buffers(file.dir().filePath(file.completeBaseName() + QStringLiteral(".bin")));
  if (file.suffix().compare(QLatin1String("gltf"), Qt::CaseInsensitive) == 0 && buffers.exists())
    bytes += buffers.size();
  // No translation is installed to give "%n clip(s)" its plural: spell both out.
  const QString clipText = clipCount == 1 ? tr("1 clip") : tr("%1 clips").arg(clipCount);
  // What the keys are safe for: every reader, or those that follow the spec (Blender's
  // importer drops cubic tangents).
  const QString form = written.cubicChannels > 0
                           ? tr("cubic keys: exact in three.js, Babylon.js and engines, not in Blender")
                           : tr("linear keys: plays alike in Blender, three.js, Babylon.js and engines");
  return tr("Exported %1: %2, %3 keys, %4; %5")
      .arg(file.fileName(), clipText)
      .arg(keys)
      .arg(QLocale().formattedDataSize(bytes), form);
}

void MainWindow::chooseFileToExport() {
  // Which clips, when there is a choice; then where.
  std::vector<int> clips;
  if (mDocument->scene().clips.size() > 1) {
    ExportClipsDialog chooser(mDocument->scene(), this);
    if (chooser.exec() != QDialog::Accepted) return;
    clips = chooser.chosenClips();
  }
  const QString suggested = mDocument->filePath().isEmpty()
                                ? QStringLiteral("mannequin.glb")
                                : QFileInfo(mDocument->filePath()).completeBaseName() + QStringLiteral(".glb");
  const QString path =
      QFileDialog::getSaveFileName(this, tr("Export glTF 2.0"), QDir(mLastOpenDirectory).filePath(suggested),
                                   tr("glTF binary (*.glb);;glTF JSON with .bin (*.gltf)"));
  if (path.isEmpty()) return;
  QString message;
  const auto connection = connect(this, &MainWindow::exportFailed, this, [&message](const QString& m) { message = m; });
  const bool exported = exportGltfTo(path, clips);
  disconnect(connection);
  if (!exported && !message.isEmpty()) QMessageBox::warning(this, tr("Cannot Export"), message);
}

void MainWindow::dragEnterEvent(QDragEnterEvent* event) {
  if (event->mimeData()->hasUrls() && event->mimeData()->urls().size() == 1 &&
      event->mimeData()->urls()[0].isLocalFile()) {
    event->acceptProposedAction();
  }
}

void MainWindow::dropEvent(QDropEvent* event) {
  const QString path = event->mimeData()->urls().value(0).toLocalFile();
  if (path.isEmpty()) return;
  event->acceptProposedAction();
  if (!confirmDiscardingChanges()) return;
  QString message;
  const auto connection = connect(this, &MainWindow::openFailed, this, [&message](const QString& m) { message = m; });
  const bool opened = openFile(path);
  disconnect(connection);
  if (!opened && !message.isEmpty()) QMessageBox::warning(this, tr("Cannot Open File"), message);
}

// Enabled on a locked layer too, so S says why it keys nothing there.
void MainWindow::updateEditActions() {
  mKeyPoseAction->setEnabled(KeyPoseCommand::canKeyPose(*mDocument) || lockedActiveLayer(*mDocument) != nullptr);
}

void MainWindow::updateWindowTitle() {
  setWindowTitle(tr("%1[*] — Articula").arg(mSession->displayName()));
  setWindowModified(!mDocument->undoStack()->isClean());
}

}  // namespace articula::ui
