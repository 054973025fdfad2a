#pragma once
#include <QMainWindow>
#include <QString>

class QAction;
class QMenu;
class QSettings;

#include "core/scene/scene.h"

namespace articula::ui {

class Document;
class HistoryDock;
class OutlinerDock;
class PropertiesDock;
class PlaybackController;
class ProjectSession;
class TimelineDock;
class Viewport;

// The editor's main window: viewport in the centre, outliner on the left, properties and
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

  // Name filters for an open dialog, built from the extensions the importers accept.
  static QStringList importFileFilters();

 signals:
  void openFailed(const QString& message);

 private:
  void createActions();
  void chooseFileToOpen();
  void openShowingErrors(const QString& path);
  void newDocument();
  void rebuildRecentFilesMenu();
  void updateWindowTitle();
  void updateEditActions();

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
  QAction* mKeyPoseAction = nullptr;
};

}  // namespace articula::ui
