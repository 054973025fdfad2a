#pragma once
#include <QMainWindow>
#include <QString>

class QAction;
class QMenu;

#include "core/scene/scene.h"

namespace articula::ui {

class CurveEditorDock;
class Document;
class HistoryDock;
class OutlinerDock;
class PropertiesDock;
class PlaybackController;
class TimelineDock;
class Viewport;

// The editor's main window: viewport in the centre, outliner on the left, properties and
// history on the right, timeline at the bottom; File, Edit, Playback and View menus.
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

  // Imports `path` completely and only then replaces the open scene, so a failed import
  // leaves the document exactly as it was. On failure emits openFailed with a message that
  // names the file and returns false; no dialog is shown (File ▸ Open shows one).
  bool openFile(const QString& path);
  // Shows a scene made in memory (the default mannequin); `name` goes in the title bar.
  void openScene(Scene scene, const QString& name);

  // Name filters for an open dialog, built from the extensions the importers accept.
  static QStringList importFileFilters();

 signals:
  void openFailed(const QString& message);

 private:
  void createActions();
  void createAnimationDocks(QMenu* playbackMenu, QMenu* viewMenu);
  void chooseFileToOpen();
  void updateWindowTitle();
  void updateEditActions();

  Document* const mDocument;
  PlaybackController* const mPlayback;
  Viewport* const mViewport;
  OutlinerDock* const mOutlinerDock;
  TimelineDock* const mTimelineDock;
  HistoryDock* const mHistoryDock;
  PropertiesDock* const mPropertiesDock;
  QString mLastOpenDirectory;
  QAction* mKeyPoseAction = nullptr;
  CurveEditorDock* mCurveEditorDock = nullptr;
};

}  // namespace articula::ui
