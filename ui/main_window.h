#pragma once
#include <QByteArray>
#include <QMainWindow>
#include <QString>

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

class QAction;
class QDockWidget;
class QMenu;
class QSettings;

#include "core/bake/bake_job.h"
#include "core/bake/bake_pipeline.h"
#include "core/bake/contact_detection.h"
#include "core/io/gltf_export.h"
#include "core/project/project_file.h"
#include "core/scene/scene.h"
#include "ui/dialogs/preferences_dialog.h"
#include "ui/dialogs/retarget_dialog.h"

namespace articula::ui {

class CharacteriseDock;
class CurveEditorDock;
class Document;
class HistoryDock;
class OutlinerDock;
class PropertiesDock;
class PlaybackController;
class PoseActions;
class ProjectSession;
class RigDock;
class LayersDock;
class TimelineDock;
class Viewport;

// The editor's main window: viewport in the centre, outliner and rig panel on the left, properties and
// history on the right, timeline at the bottom; File, Edit, Playback and View menus.
// File ▸ New/Open/Save/Save As/Open Recent go through the ProjectSession, which also
// autosaves; the title shows the project's name and a dirty marker (the undo stack's clean
// state).
class MainWindow : public QMainWindow {
  Q_OBJECT

 public:
  explicit MainWindow(QWidget* parent = nullptr);
  ~MainWindow() override;

  Document* document() const { return mDocument; }
  Viewport* viewport() const { return mViewport; }
  OutlinerDock* outlinerDock() const { return mOutlinerDock; }
  TimelineDock* timelineDock() const { return mTimelineDock; }
  HistoryDock* historyDock() const { return mHistoryDock; }
  PropertiesDock* propertiesDock() const { return mPropertiesDock; }
  PlaybackController* playback() const { return mPlayback; }
  CurveEditorDock* curveEditorDock() const { return mCurveEditorDock; }
  RigDock* rigDock() const { return mRigDock; }
  LayersDock* layersDock() const { return mLayersDock; }
  CharacteriseDock* characteriseDock() const { return mCharacteriseDock; }
  PoseActions* poseActions() const { return mPoseActions; }
  // What a right click in the viewport shows: key pose, the pose tools, IK/FK snap.
  QMenu* viewportMenu() const { return mViewportMenu; }
  ProjectSession* session() const { return mSession; }

  // Opens a project (.articula) or imports an asset completely and only then replaces the
  // open scene, so a failed open leaves the document exactly as it was. On failure emits
  // openFailed with a message that names the file and returns false; no dialog is shown
  // (File ▸ Open shows one).
  bool openFile(const QString& path);
  // Saves to the document's project, or asks for one (Save As) when it has none. A failed
  // save shows why and leaves the document dirty. Returns whether it saved.
  bool saveDocument();
  bool saveDocumentAs();
  // At start-up: when an earlier session crashed with autosaved work, asks (RecoveryDialog)
  // whether to recover it.
  void offerRecovery();
  // Shows a scene made in memory (the default mannequin); `name` goes in the title bar.
  void openScene(Scene scene, const QString& name);

  // Writes the open scene as glTF 2.0 (.glb, or .gltf with its .bin and images beside it),
  // off the GUI thread, and says in the status bar what it wrote: the clips `clips` (indices,
  // ascending; every clip when empty), each as a file of every clip holds it. With the active
  // rig on, each clip is baked through it first, so the file holds what the editor shows. On
  // failure emits exportFailed with a message naming the file and returns false.
  bool exportGltfTo(const QString& path, const std::vector<int>& clips = {});
  // Finds the foot contacts of the current clip off the GUI thread and writes its stride
  // curves (contact.left_foot, contact.right_foot) as one undoable command. On failure
  // emits animationFailed with the reason and returns false; the clip is untouched.
  bool detectContacts(const ContactDetectionOptions& options);
  // Bakes the current clip through the document's active rig, or the humanoid rig built
  // from the joint names when there is none (or the foot-skate cleanup when
  // settings.detectContacts), off the GUI thread, with the same core pipeline as
  // `articula-cli bake` (bakeThroughRig). The result is added as a new clip "<name> baked"
  // after the source, as one undoable command (the status bar says what changed); the
  // source clip is untouched. Returns false on cancel, or on failure after emitting
  // animationFailed with the reason.
  bool bake(const ProjectBakeSettings& settings);
  // What bake() bakes through, or why it cannot bake the open file (no clip, no rig).
  Result<RigDefinition> bakeRig() const;
  // The figure's height standing in the current clip (model units): what the bake's and the
  // contacts' relative settings scale, whatever the rest pose (standingHeightOf).
  float standingHeight() const;
  // Animation ▸ Retarget…: every clip of the humanoid in `sourcePath` (a BVH, glTF, FBX or
  // project) played by the open character, added after its clips as one undoable command;
  // the first of them becomes current. Returns false on cancel, or on failure (a file that
  // does not open, a skeleton that is not humanoid, no clip) after emitting animationFailed
  // with the reason; the document is then untouched.
  bool retargetFrom(const QString& sourcePath);  // named joints, feet and rate as they come
  bool retargetFrom(const RetargetRequest& request);

  // What the user answers when unsaved edits would be lost.
  enum class UnsavedChoice { Save, Discard, Cancel };
  // The question asked before New, Open, a drop or closing with unsaved edits: a Save /
  // Don't Save / Cancel box by default; tests answer with their own function.
  void setUnsavedChangesPrompt(std::function<UnsavedChoice()> prompt);
  // True when the open document may be replaced or closed: it has no unsaved edits, or the
  // user saved them (and the save worked) or chose to discard them.
  bool confirmDiscardingChanges();

  // Name filters for an open dialog, built from the extensions the importers accept.
  static QStringList importFileFilters();

 signals:
  void openFailed(const QString& message);
  void exportFailed(const QString& message);
  void animationFailed(const QString& message);

 protected:
  bool event(QEvent* event) override;
  void closeEvent(QCloseEvent* event) override;
  // Files dropped on the window open as if chosen in File ▸ Open.
  void dragEnterEvent(QDragEnterEvent* event) override;
  void dropEvent(QDropEvent* event) override;

 private:
  void createActions();
  void createAnimationDocks(QMenu* playbackMenu, QMenu* viewMenu);
  void createAnimationMenu();
  // The Rig panel under the outliner and its actions in Animation ▸ Rig.
  void createRigDock(QMenu* animationMenu, QMenu* viewMenu);
  void createLayersDock(QMenu* viewMenu);
  void placeFloatingDock(QDockWidget* dock);
  void createCharacteriseDock(QMenu* animationMenu, QMenu* viewMenu);
  void createPoseMenus();
  void createWindowAndHelpMenus();
  void addPlaybackRangeActions(QMenu* playbackMenu);
  // View ▸ Show Mesh, Bones, Rig and Grid.
  void addDisplayToggles(QMenu* viewMenu);
  // Dock layout and window geometry persist in QSettings; the layout the window starts
  // with is kept so Window ▸ Reset Layout can return to it.
  void restoreLayout();
  void saveLayout() const;
  // The working toggles (tool, local axes, onion skin, trails, loop, auto key, what the
  // viewport shows) come back as the animator left them, each saved in QSettings the moment
  // it changes.
  void rememberToggles();
  // Enter or Esc in a text field gives the keyboard back to the last view (or the
  // viewport), so Space, F, W… work again after typing a filter or a frame.
  void keepShortcutsOutOfTextFields();
  void editPreferences();
  // Onion skin (when View ▸ Onion Skin is on) and trails as `preferences` say.
  void applyViewportPreferences(const ViewportPreferences& preferences);
  void resetLayout();
  void chooseFileToOpen();
  void chooseFileToExport();
  void openShowingErrors(const QString& path);
  void newDocument();
  void rebuildRecentFilesMenu();
  void updateWindowTitle();
  void updateEditActions();
  // The status bar's report of a finished export (file, clips, keys, size on disk) and bake
  // (frames, keys before → after, contacts held, frames off target).
  QString exportSummary(const QString& path, const GltfExportReport& written, const std::vector<int>& clips) const;
  // The status bar's report of the last export, bake, retarget or open warning, kept until
  // another file opens: a menu's status tips do not wipe it (event()).
  void showResult(const QString& message);
  QString bakeSummary(const QString& sourceName, const BakeReport& report,
                      const std::map<std::string, int>& contactsHeld) const;

  Document* const mDocument;
  PlaybackController* const mPlayback;
  Viewport* const mViewport;
  OutlinerDock* const mOutlinerDock;
  TimelineDock* const mTimelineDock;
  HistoryDock* const mHistoryDock;
  PropertiesDock* const mPropertiesDock;
  QSettings* const mSettings;
  ProjectSession* const mSession;
  QMenu* mRecentFilesMenu = nullptr;
  QString mLastOpenDirectory;
  QString mLastResult;                           // what showResult() last said
  std::vector<FootCleanupSummary> mLastCleanup;  // the last bake's per-foot report (Bake dialog)
  QByteArray mDefaultLayout;
  QAction* mKeyPoseAction = nullptr;
  CurveEditorDock* mCurveEditorDock = nullptr;
  std::function<UnsavedChoice()> mUnsavedChangesPrompt;
  RigDock* mRigDock = nullptr;
  LayersDock* mLayersDock = nullptr;
  CharacteriseDock* mCharacteriseDock = nullptr;
  std::optional<RetargetRequest> mLastRetarget;  // the Retarget dialog's last choices
  PoseActions* mPoseActions = nullptr;
  QMenu* mViewportMenu = nullptr;
  ViewportPreferences mViewportPreferences;
  QAction* mOnionSkinAction = nullptr;
};

}  // namespace articula::ui
