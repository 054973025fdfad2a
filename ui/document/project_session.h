#pragma once
// The document as a .articula project on disk: open, save, save as, recent files, autosave
// and crash recovery. The main window's File menu and the recovery dialog drive it; tests
// drive it directly, with a fake autosave ticker and their own settings file.
#include <QDateTime>
#include <QList>
#include <QObject>
#include <QString>
#include <QStringList>

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "core/project/project_file.h"
#include "core/scene/scene.h"

class QSettings;
class QTimer;

namespace articula::ui {

class Document;

// What drives autosave: a QTimer in the editor (TimerAutosaveTicker), a fake moved by hand
// in tests.
class AutosaveTicker : public QObject {
  Q_OBJECT

 public:
  using QObject::QObject;
  virtual void start(int intervalMs) = 0;

 signals:
  void tick();
};

class TimerAutosaveTicker : public AutosaveTicker {
  Q_OBJECT

 public:
  explicit TimerAutosaveTicker(QObject* parent = nullptr);
  void start(int intervalMs) override;

 private:
  QTimer* const mTimer;
};

// A recovery file a session left behind without ending cleanly (a crash).
struct RecoveryCandidate {
  QString recoveryPath;  // the autosaved project
  QString projectPath;   // the project it belongs to, empty for a document never saved
  QDateTime savedAt;     // when it was autosaved (the file's modification time)
};

class ProjectSession : public QObject {
  Q_OBJECT

 public:
  // QSettings keys: the autosave interval (minutes, default kDefaultAutosaveMinutes),
  // the recent files and the recovery files not yet discarded.
  static constexpr const char* kAutosaveMinutesKey = "autosave/intervalMinutes";
  static constexpr const char* kRecentFilesKey = "recentFiles";
  static constexpr const char* kPendingRecoveryKey = "recovery/pending";
  static constexpr int kDefaultAutosaveMinutes = 3;
  static constexpr int kMinAutosaveMinutes = 1;
  static constexpr int kMaxAutosaveMinutes = 120;
  static constexpr int kMaxRecentFiles = 8;

  // `settings` (not owned) outlives the session. `recoveryFolder` holds the recovery files of
  // documents never saved as a project. `ticker` (owned, reparented) defaults to a QTimer.
  ProjectSession(Document* document, QSettings* settings, const QString& recoveryFolder,
                 AutosaveTicker* ticker = nullptr, QObject* parent = nullptr);
  ~ProjectSession() override;

  // The project the document saves to; empty until it is opened from or saved as one.
  const QString& projectPath() const { return mProjectPath; }
  // For the title bar: the project's file name, or the document's name without a project.
  QString displayName() const;

  // A file read completely but not yet shown: a project with its scene, or an asset.
  struct LoadedFile {
    QString path;  // absolute
    std::optional<OpenedProject> project;
    std::optional<Scene> scene;  // the asset, when `project` is empty
  };
  // The reading half of open(): touches no document, so it may run on any thread (the
  // editor runs it off the GUI thread). The message names the file and what is wrong.
  static Result<LoadedFile> load(const QString& path);
  // The showing half, on the GUI thread: the loaded file becomes the document.
  void adopt(LoadedFile loaded);
  // Opens a project (its clips, current clip and frame; the camera goes out through
  // projectOpened) or imports an asset: load() then adopt(). On failure the document is
  // exactly as it was and the message names the file and what is wrong.
  std::optional<QString> open(const QString& path);

  // The bake dialog's last settings, saved in the project.
  const ProjectBakeSettings& bakeSettings() const { return mBake; }
  void setBakeSettings(const ProjectBakeSettings& settings) { mBake = settings; }
  // Saves to projectPath() (which must be set) or to `path`, atomically (saveProject): a
  // failed save leaves the file on disk as it was, the document dirty, and says why.
  std::optional<QString> save();
  std::optional<QString> saveAs(const QString& path);

  // The camera written into saved projects (the viewport's), nullopt for none.
  void setCameraProvider(std::function<std::optional<ProjectView>()> provider);

  // Most recent first, at most kMaxRecentFiles, files that no longer exist dropped.
  QStringList recentFiles() const;

  int autosaveIntervalMs() const;
  int autosaveMinutes() const;
  // Persists the interval (clamped to kMinAutosaveMinutes..kMaxAutosaveMinutes) and restarts
  // the ticker with it.
  void setAutosaveMinutes(int minutes);
  // Where autosave writes for the current document: "<project>.autosave" beside the
  // project, or a file in the recovery folder for a document never saved.
  QString recoveryPath() const;
  // Writes the recovery file when the document has edits it does not hold yet (the ticker
  // calls this). Returns why writing failed; nullopt when written or nothing to write.
  std::optional<QString> autosave();

  // Recovery files of sessions that did not end cleanly, newest first.
  QList<RecoveryCandidate> pendingRecoveries() const;
  // Opens a recovery file as the document, dirty, belonging to its project (if any).
  std::optional<QString> recover(const RecoveryCandidate& candidate);
  // Deletes a recovery file and forgets it.
  void discardRecovery(const QString& recoveryPath);
  // The editor closes normally: the current document's recovery file is not needed.
  void endCleanly();

 signals:
  // projectPath() or displayName() changed.
  void pathChanged();
  void recentFilesChanged();
  // A project was opened or recovered; carries the view it was saved with.
  void projectOpened(const articula::ProjectView& view);

 private:
  void adoptOpened(OpenedProject opened, const QString& projectPath, const QString& assetFolder);
  Result<Project> currentProject(const QString& projectPath) const;
  void addRecentFile(const QString& path);
  void forgetRecovery();
  void onSceneReplaced();

  Document* const mDocument;
  QSettings* const mSettings;
  const QString mRecoveryFolder;
  AutosaveTicker* const mTicker;
  std::function<std::optional<ProjectView>()> mCameraProvider;

  QString mProjectPath;
  // The character: the bundled mannequin, or an asset file by absolute path.
  bool mBuiltinMannequin = true;
  QString mAssetPath;
  // Per skeleton node, its name in the asset: a joint renamed since is saved as a rename.
  std::vector<std::string> mAssetJointNames;
  ProjectGround mGround;
  ProjectBakeSettings mBake;
  // The recovery file this document wrote (empty before the first autosave), and whether
  // edits were made since.
  QString mRecoveryPath;
  bool mEditedSinceAutosave = false;
  // Set while the session itself replaces the scene (open, recover).
  bool mReplacing = false;
};

}  // namespace articula::ui

Q_DECLARE_METATYPE(articula::ProjectView)
