// The document as a project: save/open round trips, failed saves, autosave on a fake ticker,
// recovery after a crash through the recovery dialog (driven without showing it), recent
// files and the main window's title.
#include <gtest/gtest.h>

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QListWidget>
#include <QLocale>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QUndoStack>

#include <fstream>
#include <memory>

#include "core/project/project_file.h"
#include "core/samples/mannequin.h"
#include "ui/commands/handle_commands.h"
#include "ui/commands/key_pose_command.h"
#include "ui/commands/rename_joint_command.h"
#include "ui/commands/replace_clip_command.h"
#include "ui/commands/rig_set_command.h"
#include "ui/commands/set_joint_transform_command.h"
#include "ui/commands/set_rig_enabled_command.h"
#include "ui/dialogs/recovery_dialog.h"
#include "ui/document/document.h"
#include "ui/document/project_session.h"
#include "ui/main_window.h"
#include "ui/viewport/viewport.h"
#include "ui_test_support.h"

namespace articula::ui {
namespace {

// Autosave's clock moved by hand: fire() is one timer expiry.
class FakeTicker : public AutosaveTicker {
 public:
  void start(int intervalMs) override { startedWithMs = intervalMs; }
  void fire() { emit tick(); }
  int startedWithMs = -1;
};

QString dataFile(const char* relative) { return QString::fromStdString(test::dataPath(relative)); }

class ProjectSessionTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(folder.isValid());
    settings = std::make_unique<QSettings>(folder.filePath(QStringLiteral("settings.ini")), QSettings::IniFormat);
  }

  // A document with its session, sharing this test's settings (as two runs of the editor do).
  struct Editor {
    Document document;
    FakeTicker* ticker = new FakeTicker;
    std::unique_ptr<ProjectSession> session;
  };
  std::unique_ptr<Editor> makeEditor() {
    auto editor = std::make_unique<Editor>();
    editor->session = std::make_unique<ProjectSession>(&editor->document, settings.get(),
                                                       folder.filePath(QStringLiteral("recovery")), editor->ticker);
    return editor;
  }

  // Edits every kind of state a project keeps: a clip key moved, a joint renamed, a pose keyed.
  static void edit(Document& document) {
    Clip clip = *document.currentClip();
    ASSERT_FALSE(clip.tracks.empty());
    JointTrack& track = clip.tracks.front();
    Curve& x = track.translation.x;
    const double time = x.keys().empty() ? clip.startTime : x.keys().front().time;
    const double value = x.keys().empty() ? 0.25 : x.keys().front().value + 0.25;
    x.insertKey(time, value);
    document.undoStack()->push(
        new ReplaceClipCommand(&document, document.currentClipIndex(), clip, QStringLiteral("Move key")));
    document.undoStack()->push(new RenameJointCommand(&document, 1, QStringLiteral("renamed_joint")));
    Transform local = document.localPose()[1];
    local.rotation = Quat(Eigen::AngleAxisf(0.4f, Vec3::UnitX())) * local.rotation;
    document.undoStack()->push(
        new SetJointTransformCommand(&document, 1, local, SetJointTransformCommand::Channel::Rotate));
    ASSERT_TRUE(KeyPoseCommand::canKeyPose(document));
    document.undoStack()->push(new KeyPoseCommand(&document));
  }

  QTemporaryDir folder;
  std::unique_ptr<QSettings> settings;
};

TEST_F(ProjectSessionTest, SaveAndOpenRoundTripKeepsClipsRenamesAndViewState) {
  auto first = makeEditor();
  ASSERT_EQ(first->session->open(dataFile("gltf/RiggedSimple/RiggedSimple.glb")), std::nullopt);
  first->document.setFrame(3);
  edit(first->document);
  first->document.setFrame(5);
  ProjectView camera;
  camera.cameraTarget = Vec3(0.5f, 1.0f, -2.0f);
  camera.cameraDistance = 7.5f;
  camera.cameraYawRad = 0.3f;
  camera.cameraPitchRad = -0.2f;
  first->session->setCameraProvider([camera] { return std::optional<ProjectView>(camera); });
  EXPECT_FALSE(first->document.undoStack()->isClean());

  const QString path = folder.filePath(QStringLiteral("rigged.articula"));
  ASSERT_EQ(first->session->saveAs(path), std::nullopt);
  EXPECT_TRUE(first->document.undoStack()->isClean());
  EXPECT_EQ(first->session->projectPath(), path);
  EXPECT_EQ(first->session->displayName(), QStringLiteral("rigged.articula"));

  auto second = makeEditor();
  QSignalSpy opened(second->session.get(), &ProjectSession::projectOpened);
  ASSERT_EQ(second->session->open(path), std::nullopt);
  EXPECT_EQ(test::serializeDocument(second->document), test::serializeDocument(first->document));
  EXPECT_EQ(second->document.currentFrame(), 5);
  EXPECT_EQ(second->document.scene().skeleton.name(1), "renamed_joint");
  EXPECT_TRUE(second->document.undoStack()->isClean());
  ASSERT_EQ(opened.count(), 1);
  const auto view = opened.front().front().value<ProjectView>();
  EXPECT_TRUE(view.hasCamera);
  EXPECT_TRUE(view.cameraTarget.isApprox(camera.cameraTarget));
  EXPECT_FLOAT_EQ(view.cameraDistance, camera.cameraDistance);
  EXPECT_FLOAT_EQ(view.cameraYawRad, camera.cameraYawRad);
  EXPECT_FLOAT_EQ(view.cameraPitchRad, camera.cameraPitchRad);

  // Saving the reopened project again writes the same file (the renames stay renames of the asset).
  QFile saved(path);
  ASSERT_TRUE(saved.open(QIODevice::ReadOnly));
  const QByteArray before = saved.readAll();
  saved.close();
  second->session->setCameraProvider([camera] { return std::optional<ProjectView>(camera); });
  ASSERT_EQ(second->session->save(), std::nullopt);
  ASSERT_TRUE(saved.open(QIODevice::ReadOnly));
  EXPECT_EQ(saved.readAll(), before);
}

TEST_F(ProjectSessionTest, RigsSaveAndReopenWithTheProject) {
  auto first = makeEditor();
  Document& document = first->document;
  document.replaceScene(makeMannequin(), QString(), QStringLiteral("Mannequin"));
  auto humanoid = BuildHumanoidRigCommand::humanoidRig(document);
  ASSERT_TRUE(humanoid) << humanoid.error();
  document.undoStack()->push(new BuildHumanoidRigCommand(&document, std::move(humanoid).value()));
  IkHandle leg = document.activeRig()->handles[1];
  leg.weight = 0.4f;
  leg.maxIterations = 7;
  document.undoStack()->push(new EditHandleCommand(&document, 1, leg, QStringLiteral("Edit Handle")));
  document.undoStack()->push(new SetRigEnabledCommand(&document, false));
  const QString path = folder.filePath(QStringLiteral("rigged.articula"));
  ASSERT_EQ(first->session->saveAs(path), std::nullopt);

  auto second = makeEditor();
  ASSERT_EQ(second->session->open(path), std::nullopt);
  EXPECT_EQ(second->document.rigSet(), document.rigSet());
  EXPECT_FALSE(second->document.rigEnabled());
  ASSERT_NE(second->document.boundRig(), nullptr) << second->document.rigError().toStdString();
  EXPECT_EQ(test::serializeDocument(second->document), test::serializeDocument(document));
  // The rigs came with the file: nothing to undo, nothing unsaved.
  EXPECT_EQ(second->document.undoStack()->count(), 0);
  EXPECT_TRUE(second->document.undoStack()->isClean());
}

TEST_F(ProjectSessionTest, TheMannequinSavesAsTheBuiltinCharacter) {
  auto editor = makeEditor();
  editor->document.replaceScene(makeMannequin(), QString(), QStringLiteral("Mannequin"));
  edit(editor->document);
  const QString path = folder.filePath(QStringLiteral("mannequin.articula"));
  ASSERT_EQ(editor->session->saveAs(path), std::nullopt);
  Result<OpenedProject> opened = openProject(path.toStdString());
  ASSERT_TRUE(opened) << opened.error();
  EXPECT_EQ(opened->project.asset.builtin, "mannequin");
  ASSERT_EQ(opened->project.jointRenames.size(), 1u);
  EXPECT_EQ(opened->project.jointRenames[0].projectName, "renamed_joint");
}

TEST_F(ProjectSessionTest, AFailedSaveSaysWhyAndKeepsTheDocumentDirty) {
  auto editor = makeEditor();
  ASSERT_EQ(editor->session->open(dataFile("gltf/RiggedSimple/RiggedSimple.glb")), std::nullopt);
  const QString path = folder.filePath(QStringLiteral("rigged.articula"));
  ASSERT_EQ(editor->session->saveAs(path), std::nullopt);
  QFile saved(path);
  ASSERT_TRUE(saved.open(QIODevice::ReadOnly));
  const QByteArray before = saved.readAll();
  saved.close();
  edit(editor->document);

  // A file where a folder should be: the system refuses (ENOTDIR), whoever runs the test.
  QFile blocker(folder.filePath(QStringLiteral("not_a_folder")));
  ASSERT_TRUE(blocker.open(QIODevice::WriteOnly));
  blocker.close();
  const std::optional<QString> error =
      editor->session->saveAs(folder.filePath(QStringLiteral("not_a_folder/x.articula")));
  ASSERT_TRUE(error.has_value());
  EXPECT_TRUE(error->contains(QStringLiteral("x.articula"))) << error->toStdString();
  EXPECT_FALSE(editor->document.undoStack()->isClean());
  EXPECT_EQ(editor->session->projectPath(), path);

  // Save without a project asks for Save As; the saved project is untouched.
  auto unsaved = makeEditor();
  unsaved->document.replaceScene(makeMannequin(), QString(), QStringLiteral("Mannequin"));
  EXPECT_TRUE(unsaved->session->save().has_value());
  ASSERT_TRUE(saved.open(QIODevice::ReadOnly));
  EXPECT_EQ(saved.readAll(), before);
}

TEST_F(ProjectSessionTest, AutosaveWritesTheRecoveryFileOnlyWhenThereAreNewEdits) {
  settings->setValue(QLatin1String(ProjectSession::kAutosaveMinutesKey), 2);
  auto editor = makeEditor();
  EXPECT_EQ(editor->ticker->startedWithMs, 2 * 60 * 1000);
  editor->document.replaceScene(makeMannequin(), QString(), QStringLiteral("Mannequin"));
  editor->ticker->fire();
  EXPECT_TRUE(QDir(folder.filePath(QStringLiteral("recovery"))).isEmpty()) << "nothing to recover yet";

  edit(editor->document);
  editor->ticker->fire();
  const QString unsavedRecovery = editor->session->recoveryPath();
  EXPECT_TRUE(unsavedRecovery.startsWith(folder.filePath(QStringLiteral("recovery")))) << unsavedRecovery.toStdString();
  ASSERT_TRUE(QFileInfo::exists(unsavedRecovery));
  Result<OpenedProject> recovered = openProject(unsavedRecovery.toStdString());
  ASSERT_TRUE(recovered) << recovered.error();
  EXPECT_EQ(recovered->scene.clips.front().keyCount(), editor->document.scene().clips.front().keyCount());

  // Saved as a project: the recovery file moves beside it and goes when the project is saved.
  const QString path = folder.filePath(QStringLiteral("walk.articula"));
  ASSERT_EQ(editor->session->saveAs(path), std::nullopt);
  EXPECT_FALSE(QFileInfo::exists(unsavedRecovery));
  editor->document.undoStack()->undo();
  editor->ticker->fire();
  EXPECT_EQ(editor->session->recoveryPath(), path + QStringLiteral(".autosave"));
  EXPECT_TRUE(QFileInfo::exists(path + QStringLiteral(".autosave")));
  ASSERT_EQ(editor->session->save(), std::nullopt);
  EXPECT_FALSE(QFileInfo::exists(path + QStringLiteral(".autosave")));
  EXPECT_TRUE(editor->session->pendingRecoveries().isEmpty());
}

TEST_F(ProjectSessionTest, RecoveryIsOfferedAfterACrashAndRestoresTheDocument) {
  auto crashed = makeEditor();
  ASSERT_EQ(crashed->session->open(dataFile("gltf/RiggedSimple/RiggedSimple.glb")), std::nullopt);
  const QString path = folder.filePath(QStringLiteral("rigged.articula"));
  ASSERT_EQ(crashed->session->saveAs(path), std::nullopt);
  edit(crashed->document);
  crashed->ticker->fire();
  const std::string lost = test::serializeDocument(crashed->document);
  // A crash: the editor ends without endCleanly().
  crashed.reset();

  auto next = makeEditor();
  next->document.replaceScene(makeMannequin(), QString(), QStringLiteral("Mannequin"));
  const QList<RecoveryCandidate> candidates = next->session->pendingRecoveries();
  ASSERT_EQ(candidates.size(), 1);
  EXPECT_EQ(candidates.front().projectPath, path);
  EXPECT_LT(std::abs(candidates.front().savedAt.secsTo(QDateTime::currentDateTime())), 60);

  RecoveryDialog dialog(candidates);
  ASSERT_EQ(dialog.candidateList()->count(), 1);
  const QString shown = dialog.candidateList()->item(0)->text();
  EXPECT_TRUE(shown.contains(QStringLiteral("rigged.articula"))) << shown.toStdString();
  EXPECT_TRUE(shown.contains(QLocale().toString(candidates.front().savedAt, QLocale::ShortFormat)))
      << shown.toStdString();
  dialog.recoverButton()->click();
  EXPECT_EQ(dialog.result(), QDialog::Accepted);
  ASSERT_EQ(dialog.choice(), RecoveryDialog::Choice::Recover);
  ASSERT_TRUE(dialog.chosen().has_value());

  ASSERT_EQ(next->session->recover(*dialog.chosen()), std::nullopt);
  EXPECT_EQ(test::serializeDocument(next->document), lost);
  EXPECT_EQ(next->session->projectPath(), path);
  EXPECT_FALSE(next->document.undoStack()->isClean()) << "recovered edits are not saved yet";
  // Still recoverable until saved; saving to the project ends it.
  EXPECT_TRUE(QFileInfo::exists(candidates.front().recoveryPath));
  ASSERT_EQ(next->session->save(), std::nullopt);
  EXPECT_FALSE(QFileInfo::exists(candidates.front().recoveryPath));
  EXPECT_TRUE(next->session->pendingRecoveries().isEmpty());
  Result<OpenedProject> reopened = openProject(path.toStdString());
  ASSERT_TRUE(reopened) << reopened.error();
  EXPECT_EQ(reopened->scene.skeleton.name(1), "renamed_joint");
}

TEST_F(ProjectSessionTest, DiscardingRecoveryDeletesTheFilesAndACleanEndLeavesNone) {
  auto crashed = makeEditor();
  crashed->document.replaceScene(makeMannequin(), QString(), QStringLiteral("Mannequin"));
  edit(crashed->document);
  crashed->ticker->fire();
  const QString recovery = crashed->session->recoveryPath();
  crashed.reset();

  auto next = makeEditor();
  const QList<RecoveryCandidate> candidates = next->session->pendingRecoveries();
  ASSERT_EQ(candidates.size(), 1);
  RecoveryDialog dialog(candidates);
  EXPECT_TRUE(dialog.candidateList()->item(0)->text().contains(QStringLiteral("Unsaved document")));
  dialog.discardButton()->click();
  ASSERT_EQ(dialog.choice(), RecoveryDialog::Choice::DiscardAll);
  EXPECT_FALSE(dialog.chosen().has_value());
  next->session->discardRecovery(candidates.front().recoveryPath);
  EXPECT_FALSE(QFileInfo::exists(recovery));
  EXPECT_TRUE(next->session->pendingRecoveries().isEmpty());

  next->document.replaceScene(makeMannequin(), QString(), QStringLiteral("Mannequin"));
  edit(next->document);
  next->ticker->fire();
  ASSERT_TRUE(QFileInfo::exists(next->session->recoveryPath()));
  next->session->endCleanly();
  EXPECT_TRUE(QDir(folder.filePath(QStringLiteral("recovery"))).isEmpty());
  EXPECT_TRUE(makeEditor()->session->pendingRecoveries().isEmpty());
}

TEST_F(ProjectSessionTest, RecentFilesAreNewestFirstWithoutDuplicatesOrMissingFiles) {
  auto editor = makeEditor();
  const QString rigged = dataFile("gltf/RiggedSimple/RiggedSimple.glb");
  const QString bvh = dataFile("bvh/cmu-mb-2010/09_11.bvh");
  ASSERT_EQ(editor->session->open(rigged), std::nullopt);
  ASSERT_EQ(editor->session->open(bvh), std::nullopt);
  ASSERT_EQ(editor->session->open(rigged), std::nullopt);
  const QString project = folder.filePath(QStringLiteral("gone.articula"));
  ASSERT_EQ(editor->session->saveAs(project), std::nullopt);
  EXPECT_EQ(editor->session->recentFiles(),
            (QStringList{project, QFileInfo(rigged).absoluteFilePath(), QFileInfo(bvh).absoluteFilePath()}));
  QFile::remove(project);
  EXPECT_EQ(editor->session->recentFiles().size(), 2);
  EXPECT_TRUE(editor->session->open(folder.filePath(QStringLiteral("missing.glb"))).has_value());
  EXPECT_EQ(editor->session->recentFiles().size(), 2);
}

TEST(MainWindowProject, TitleShowsTheProjectAndADirtyMarker) {
  QStandardPaths::setTestModeEnabled(true);
  QTemporaryDir folder;
  MainWindow window;
  ASSERT_TRUE(window.openFile(dataFile("gltf/RiggedSimple/RiggedSimple.glb")));
  EXPECT_TRUE(window.windowTitle().startsWith(QStringLiteral("RiggedSimple.glb[*]")))
      << window.windowTitle().toStdString();
  EXPECT_FALSE(window.isWindowModified());
  window.document()->undoStack()->push(new RenameJointCommand(window.document(), 1, QStringLiteral("renamed_joint")));
  EXPECT_TRUE(window.isWindowModified());
  const QString path = folder.filePath(QStringLiteral("titled.articula"));
  ASSERT_EQ(window.session()->saveAs(path), std::nullopt);
  EXPECT_TRUE(window.windowTitle().startsWith(QStringLiteral("titled.articula[*]")))
      << window.windowTitle().toStdString();
  EXPECT_FALSE(window.isWindowModified());
  // Opening the project through the window (File ▸ Open's path) gives the same title.
  window.openScene(makeMannequin(), QStringLiteral("Mannequin"));
  EXPECT_TRUE(window.windowTitle().startsWith(QStringLiteral("Mannequin[*]")));
  ASSERT_TRUE(window.openFile(path));
  EXPECT_TRUE(window.windowTitle().startsWith(QStringLiteral("titled.articula[*]")));
  EXPECT_EQ(window.document()->scene().skeleton.name(1), "renamed_joint");
}

TEST(MainWindowProject, ReopeningAProjectRestoresItsCamera) {
  QStandardPaths::setTestModeEnabled(true);
  QTemporaryDir folder;
  MainWindow window;
  window.openScene(makeMannequin(), QStringLiteral("Mannequin"));
  const Vec3 target(0.2f, 0.8f, -0.1f);
  window.viewport()->setCameraView(target, 1.1f, -0.3f, 4.25f);
  const QString path = folder.filePath(QStringLiteral("camera.articula"));
  ASSERT_EQ(window.session()->saveAs(path), std::nullopt);
  window.openScene(makeMannequin(), QStringLiteral("Mannequin"));
  window.viewport()->setCameraView(Vec3::Zero(), 0.0f, 0.0f, 9.0f);
  ASSERT_TRUE(window.openFile(path));
  const OrbitCamera& camera = window.viewport()->camera();
  EXPECT_TRUE(camera.target().isApprox(target)) << camera.target().transpose();
  EXPECT_FLOAT_EQ(camera.yawRad(), 1.1f);
  EXPECT_FLOAT_EQ(camera.pitchRad(), -0.3f);
  EXPECT_FLOAT_EQ(camera.distance(), 4.25f);
}

TEST(MainWindowProject, UnsavedEditsAreSavedDiscardedOrKeptBeforeTheyWouldBeLost) {
  QStandardPaths::setTestModeEnabled(true);
  QTemporaryDir folder;
  MainWindow window;
  window.openScene(makeMannequin(), QStringLiteral("Mannequin"));
  const QString path = folder.filePath(QStringLiteral("unsaved.articula"));
  ASSERT_EQ(window.session()->saveAs(path), std::nullopt);
  int asked = 0;
  MainWindow::UnsavedChoice answer = MainWindow::UnsavedChoice::Cancel;
  window.setUnsavedChangesPrompt([&] {
    ++asked;
    return answer;
  });
  QAction* newAction = window.findChild<QAction*>(QStringLiteral("actionNew"));
  ASSERT_NE(newAction, nullptr);

  // Nothing unsaved: no question.
  EXPECT_TRUE(window.confirmDiscardingChanges());
  EXPECT_EQ(asked, 0);

  window.document()->undoStack()->push(new RenameJointCommand(window.document(), 1, QStringLiteral("kept_name")));
  // Cancel: File ▸ New and closing leave the document and its edit as they are.
  newAction->trigger();
  EXPECT_EQ(asked, 1);
  EXPECT_EQ(window.document()->scene().skeleton.name(1), "kept_name");
  window.show();
  EXPECT_FALSE(window.close());
  EXPECT_EQ(asked, 2);
  EXPECT_EQ(window.document()->scene().skeleton.name(1), "kept_name");

  // Save: the project on disk gets the edit, then the window closes.
  answer = MainWindow::UnsavedChoice::Save;
  EXPECT_TRUE(window.close());
  EXPECT_TRUE(window.document()->undoStack()->isClean());
  const auto reopened = openProject(path.toStdString());
  ASSERT_TRUE(reopened.ok()) << reopened.error();
  EXPECT_EQ(reopened->scene.skeleton.name(1), "kept_name");

  // Discard: File ▸ New replaces the edited document.
  window.document()->undoStack()->push(new RenameJointCommand(window.document(), 1, QStringLiteral("dropped")));
  answer = MainWindow::UnsavedChoice::Discard;
  newAction->trigger();
  EXPECT_EQ(asked, 4);
  EXPECT_NE(window.document()->scene().skeleton.name(1), "dropped");
}

// The project names its asset by a content hash: an asset changed since the save may no
// longer fit the project's clips, so opening it says so in the status bar (and still opens).
TEST(MainWindowProject, OpeningAProjectWhoseAssetChangedSaysSo) {
  QStandardPaths::setTestModeEnabled(true);
  QTemporaryDir folder;
  const QString asset = folder.filePath(QStringLiteral("walk.bvh"));
  ASSERT_TRUE(QFile::copy(dataFile("bvh/cmu-mb-2010/02_01.bvh"), asset));
  MainWindow window;
  ASSERT_TRUE(window.openFile(asset));
  const QString project = folder.filePath(QStringLiteral("walk.articula"));
  ASSERT_EQ(window.session()->saveAs(project), std::nullopt);
  ASSERT_TRUE(window.openFile(project));
  EXPECT_FALSE(window.statusBar()->currentMessage().contains(QStringLiteral("has changed")));

  std::ofstream(asset.toStdString(), std::ios::app) << "\n";  // the same motion, other bytes
  ASSERT_TRUE(window.openFile(project));
  const QString message = window.statusBar()->currentMessage();
  EXPECT_TRUE(message.contains(QStringLiteral("walk.bvh' has changed since the project was saved"))) << message.toStdString();
}

}  // namespace
}  // namespace articula::ui

