#include "ui/document/project_session.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QSettings>
#include <QTimer>
#include <QUndoStack>
#include <QVariantMap>

#include <algorithm>

#include "core/io/import.h"
#include "core/samples/mannequin.h"
#include "ui/document/document.h"

namespace articula::ui {
namespace {

constexpr const char* kBuiltinMannequin = "mannequin";

bool isProjectPath(const QString& path) { return path.endsWith(QLatin1String(".articula"), Qt::CaseInsensitive); }

int clipIndexNamed(const Scene& scene, const std::string& name) {
  for (std::size_t i = 0; i < scene.clips.size(); ++i) {
    if (scene.clips[i].name == name) return static_cast<int>(i);
  }
  return -1;
}

}  // namespace

TimerAutosaveTicker::TimerAutosaveTicker(QObject* parent) : AutosaveTicker(parent), mTimer(new QTimer(this)) {
  connect(mTimer, &QTimer::timeout, this, &AutosaveTicker::tick);
}

void TimerAutosaveTicker::start(int intervalMs) { mTimer->start(intervalMs); }

ProjectSession::ProjectSession(Document* document, QSettings* settings, const QString& recoveryFolder,
                               AutosaveTicker* ticker, QObject* parent)
    : QObject(parent),
      mDocument(document),
      mSettings(settings),
      mRecoveryFolder(recoveryFolder),
      mTicker(ticker ? ticker : new TimerAutosaveTicker(this)) {
  mTicker->setParent(this);
  connect(mTicker, &AutosaveTicker::tick, this, [this] { autosave(); });
  connect(mDocument->undoStack(), &QUndoStack::indexChanged, this, [this] { mEditedSinceAutosave = true; });
  connect(mDocument, &Document::changed, this, [this](const ChangeEvent& event) {
    if (event.type == ChangeEvent::Type::SceneReplaced && !mReplacing) onSceneReplaced();
  });
  onSceneReplaced();
  mTicker->start(autosaveIntervalMs());
}

ProjectSession::~ProjectSession() = default;

QString ProjectSession::displayName() const {
  if (!mProjectPath.isEmpty()) return QFileInfo(mProjectPath).fileName();
  return mDocument->displayName();
}

void ProjectSession::setCameraProvider(std::function<std::optional<ProjectView>()> provider) {
  mCameraProvider = std::move(provider);
}

// A scene replaced from outside the session (the mannequin at start-up): a new document
// without a project, its character the file it came from or the bundled mannequin.
void ProjectSession::onSceneReplaced() {
  forgetRecovery();
  mProjectPath.clear();
  mAssetPath = mDocument->filePath();
  mBuiltinMannequin = mAssetPath.isEmpty();
  const auto names = mDocument->scene().skeleton.names();
  mAssetJointNames.assign(names.begin(), names.end());
  mGround = {};
  mBake = {};
  emit pathChanged();
}

void ProjectSession::adoptOpened(OpenedProject opened, const QString& projectPath, const QString& assetFolder) {
  const Project& project = opened.project;
  forgetRecovery();
  mBuiltinMannequin = project.asset.builtin == kBuiltinMannequin;
  mAssetPath = mBuiltinMannequin
                   ? QString()
                   : QDir::cleanPath(QDir(assetFolder).absoluteFilePath(QString::fromStdString(project.asset.path)));
  const auto names = opened.scene.skeleton.names();
  mAssetJointNames.assign(names.begin(), names.end());
  for (const ProjectJointRename& rename : project.jointRenames) {
    const int joint = opened.scene.skeleton.findJoint(rename.projectName);
    if (joint >= 0) mAssetJointNames[static_cast<std::size_t>(joint)] = rename.assetName;
  }
  mGround = project.ground;
  mBake = project.bake;
  mProjectPath = projectPath;
  mReplacing = true;
  RigSet rigs{project.rigs.rigs, project.rigs.active};
  mDocument->replaceScene(std::move(opened.scene), mAssetPath,
                          mBuiltinMannequin ? QStringLiteral("Mannequin") : QString(), std::move(rigs),
                          project.rigs.enabled);
  mReplacing = false;
  const int clip = clipIndexNamed(mDocument->scene(), project.view.clip);
  if (clip >= 0) mDocument->setCurrentClip(clip);
  mDocument->setFrame(project.view.frame);
  mEditedSinceAutosave = false;
  emit pathChanged();
  emit projectOpened(project.view);
}

Result<ProjectSession::LoadedFile> ProjectSession::load(const QString& path) {
  LoadedFile loaded;
  loaded.path = QFileInfo(path).absoluteFilePath();
  if (isProjectPath(path)) {
    Result<OpenedProject> opened = openProject(loaded.path.toStdString());
    if (!opened) return makeError(opened.error());
    loaded.project = std::move(*opened);
  } else {
    Result<Scene> imported = importScene(loaded.path.toStdString());
    if (!imported) return makeError(imported.error());
    loaded.scene = std::move(*imported);
  }
  return loaded;
}

void ProjectSession::adopt(LoadedFile loaded) {
  if (loaded.project) {
    adoptOpened(std::move(*loaded.project), loaded.path, QFileInfo(loaded.path).absolutePath());
  } else {
    // onSceneReplaced makes it a new document naming the asset.
    mDocument->replaceScene(std::move(*loaded.scene), loaded.path);
  }
  addRecentFile(loaded.path);
}

std::optional<QString> ProjectSession::open(const QString& path) {
  Result<LoadedFile> loaded = load(path);
  if (!loaded) return QString::fromStdString(loaded.error());
  adopt(std::move(*loaded));
  return std::nullopt;
}

Result<Project> ProjectSession::currentProject(const QString& projectPath) const {
  Project project;
  const Scene& scene = mDocument->scene();
  if (mBuiltinMannequin) {
    project.asset.builtin = kBuiltinMannequin;
  } else {
    Result<Project> forAsset = projectForAsset(mAssetPath.toStdString(), projectPath.toStdString(), scene);
    if (!forAsset) return makeError(forAsset.error());
    project.asset = forAsset->asset;
  }
  for (int joint = 0; joint < scene.skeleton.jointCount(); ++joint) {
    const std::string& assetName = mAssetJointNames[static_cast<std::size_t>(joint)];
    if (scene.skeleton.name(joint) != assetName)
      project.jointRenames.push_back({assetName, scene.skeleton.name(joint)});
  }
  project.clips = scene.clips;
  project.convention = scene.convention;
  project.rigs.rigs = mDocument->rigSet().rigs;
  // The document treats an index outside its rigs as none; the file says so plainly.
  project.rigs.active = mDocument->activeRig() ? mDocument->rigSet().active : -1;
  project.rigs.enabled = mDocument->rigEnabled();
  project.ground = mGround;
  project.bake = mBake;
  if (const Clip* clip = mDocument->currentClip()) project.view.clip = clip->name;
  project.view.frame = mDocument->currentFrame();
  if (mCameraProvider) {
    if (std::optional<ProjectView> camera = mCameraProvider()) {
      project.view.hasCamera = true;
      project.view.cameraTarget = camera->cameraTarget;
      project.view.cameraDistance = camera->cameraDistance;
      project.view.cameraYawRad = camera->cameraYawRad;
      project.view.cameraPitchRad = camera->cameraPitchRad;
    }
  }
  return project;
}

std::optional<QString> ProjectSession::save() {
  if (mProjectPath.isEmpty()) return tr("the document has no project file yet: use Save As");
  return saveAs(mProjectPath);
}

std::optional<QString> ProjectSession::saveAs(const QString& path) {
  const QString absolute = QFileInfo(path).absoluteFilePath();
  Result<Project> project = currentProject(absolute);
  if (!project) return QString::fromStdString(project.error());
  if (std::optional<std::string> error = saveProject(absolute.toStdString(), *project, mDocument->scene().skeleton)) {
    return QString::fromStdString(*error);
  }
  // The saved project holds every edit: the recovery file is not needed any more.
  forgetRecovery();
  mProjectPath = absolute;
  mDocument->undoStack()->setClean();
  addRecentFile(absolute);
  emit pathChanged();
  return std::nullopt;
}

QStringList ProjectSession::recentFiles() const {
  QStringList files = mSettings->value(QLatin1String(kRecentFilesKey)).toStringList();
  files.erase(std::remove_if(files.begin(), files.end(), [](const QString& f) { return !QFileInfo::exists(f); }),
              files.end());
  return files.mid(0, kMaxRecentFiles);
}

void ProjectSession::addRecentFile(const QString& path) {
  QStringList files = mSettings->value(QLatin1String(kRecentFilesKey)).toStringList();
  files.removeAll(path);
  files.prepend(path);
  mSettings->setValue(QLatin1String(kRecentFilesKey), files.mid(0, kMaxRecentFiles));
  emit recentFilesChanged();
}

int ProjectSession::autosaveMinutes() const {
  const int minutes = mSettings->value(QLatin1String(kAutosaveMinutesKey), kDefaultAutosaveMinutes).toInt();
  return std::clamp(minutes, kMinAutosaveMinutes, kMaxAutosaveMinutes);
}

int ProjectSession::autosaveIntervalMs() const { return autosaveMinutes() * 60 * 1000; }

void ProjectSession::setAutosaveMinutes(int minutes) {
  mSettings->setValue(QLatin1String(kAutosaveMinutesKey),
                      std::clamp(minutes, kMinAutosaveMinutes, kMaxAutosaveMinutes));
  mTicker->start(autosaveIntervalMs());
}

QString ProjectSession::recoveryPath() const {
  if (!mRecoveryPath.isEmpty()) return mRecoveryPath;
  if (!mProjectPath.isEmpty()) return mProjectPath + QStringLiteral(".autosave");
  // Unique per document, so two editors running at once do not overwrite each other's.
  const QString stem = QFileInfo(displayName()).completeBaseName();
  return QDir(mRecoveryFolder)
      .absoluteFilePath(QStringLiteral("%1-%2.articula.autosave")
                            .arg(stem.isEmpty() ? QStringLiteral("Untitled") : stem)
                            .arg(QDateTime::currentMSecsSinceEpoch()));
}

std::optional<QString> ProjectSession::autosave() {
  if (!mEditedSinceAutosave) return std::nullopt;
  if (mDocument->undoStack()->isClean()) {
    // Back to what is saved: nothing to recover.
    forgetRecovery();
    mEditedSinceAutosave = false;
    return std::nullopt;
  }
  const QString path = recoveryPath();
  QDir().mkpath(QFileInfo(path).absolutePath());
  Result<Project> project = currentProject(path);
  if (!project) return QString::fromStdString(project.error());
  if (std::optional<std::string> error = saveProject(path.toStdString(), *project, mDocument->scene().skeleton)) {
    return QString::fromStdString(*error);
  }
  mRecoveryPath = path;
  mEditedSinceAutosave = false;
  QVariantMap pending = mSettings->value(QLatin1String(kPendingRecoveryKey)).toMap();
  pending.insert(path, mProjectPath);
  mSettings->setValue(QLatin1String(kPendingRecoveryKey), pending);
  mSettings->sync();
  return std::nullopt;
}

QList<RecoveryCandidate> ProjectSession::pendingRecoveries() const {
  QList<RecoveryCandidate> candidates;
  const QVariantMap pending = mSettings->value(QLatin1String(kPendingRecoveryKey)).toMap();
  for (auto it = pending.begin(); it != pending.end(); ++it) {
    // This session's own file is not a left-over.
    if (it.key() == mRecoveryPath) continue;
    const QFileInfo file(it.key());
    if (!file.exists()) continue;
    candidates.append({it.key(), it.value().toString(), file.lastModified()});
  }
  std::sort(candidates.begin(), candidates.end(),
            [](const RecoveryCandidate& a, const RecoveryCandidate& b) { return a.savedAt > b.savedAt; });
  return candidates;
}

std::optional<QString> ProjectSession::recover(const RecoveryCandidate& candidate) {
  Result<OpenedProject> opened = openProject(candidate.recoveryPath.toStdString());
  if (!opened) return QString::fromStdString(opened.error());
  adoptOpened(std::move(*opened), candidate.projectPath, QFileInfo(candidate.recoveryPath).absolutePath());
  // The recovered edits are in no saved project: dirty until saved. The recovery file stays
  // (and is this document's from now on) until then, in case of another crash.
  mRecoveryPath = candidate.recoveryPath;
  mDocument->undoStack()->resetClean();
  emit pathChanged();
  return std::nullopt;
}

void ProjectSession::discardRecovery(const QString& recoveryPath) {
  QFile::remove(recoveryPath);
  QVariantMap pending = mSettings->value(QLatin1String(kPendingRecoveryKey)).toMap();
  pending.remove(recoveryPath);
  mSettings->setValue(QLatin1String(kPendingRecoveryKey), pending);
  mSettings->sync();
}

void ProjectSession::forgetRecovery() {
  if (mRecoveryPath.isEmpty()) return;
  discardRecovery(mRecoveryPath);
  mRecoveryPath.clear();
}

void ProjectSession::endCleanly() { forgetRecovery(); }

}  // namespace articula::ui
