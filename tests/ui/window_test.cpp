// Window-level behaviour: the layout persists and resets, the shortcut page lists the
// window's real shortcuts.
#include <gtest/gtest.h>

#include <QAction>
#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QDockWidget>
#include <QDoubleSpinBox>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFile>
#include <QFileInfo>
#include <QInputDialog>
#include <QLabel>
#include <QLineEdit>
#include <QMimeData>
#include <QProgressDialog>
#include <QSettings>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStatusBar>
#include <QTableWidget>
#include <QTimer>
#include <QUndoStack>
#include <QUrl>

#include "core/bake/bake_pipeline.h"
#include "core/io/import.h"
#include "core/rig/humanoid_rig.h"
#include "core/samples/mannequin.h"
#include "ui/curves/curve_view.h"
#include "ui/dialogs/bake_dialog.h"
#include "ui/dialogs/contacts_dialog.h"
#include "ui/dialogs/preferences_dialog.h"
#include "ui/dialogs/shortcuts_dialog.h"
#include "ui/docks/curve_editor_dock.h"
#include "ui/docks/history_dock.h"
#include "ui/docks/outliner_dock.h"
#include "ui/document/document.h"
#include "ui/document/project_session.h"
#include "ui/main_window.h"
#include "ui/timeline/playback_controller.h"
#include "ui/viewport/viewport.h"
#include "ui_test_support.h"

namespace articula::ui {
namespace {

QString keysFor(const QTableWidget& table, const QString& command) {
  for (int row = 0; row < table.rowCount(); ++row) {
    if (table.item(row, 0)->text() == command) return table.item(row, 1)->text();
  }
  return QString();
}

TEST(MainWindowLayout, PersistsAcrossSessionsAndResets) {
  {
    MainWindow window;
    window.show();
    window.historyDock()->hide();
    window.close();  // saves the layout
  }
  MainWindow reopened;
  reopened.show();
  EXPECT_FALSE(reopened.historyDock()->isVisible()) << "the closed dock stays closed";
  QAction* reset = reopened.findChild<QAction*>(QStringLiteral("actionResetLayout"));
  ASSERT_NE(reset, nullptr);
  reset->trigger();
  EXPECT_TRUE(reopened.historyDock()->isVisible());
  reopened.close();
}

TEST(MainWindowPreferences, WorkingTogglesComeBackAsTheyWereLeft) {
  // Later windows of this process start from the defaults again.
  struct ForgetToggles {
    ~ForgetToggles() { QSettings().remove(QStringLiteral("preferences")); }
  } forget;
  GizmoSpace toggledSpace = GizmoSpace::Local;
  {
    MainWindow window;
    toggledSpace = window.viewport()->gizmoSpace() == GizmoSpace::Local ? GizmoSpace::World : GizmoSpace::Local;
    for (const char* name : {"actionRotateTool", "actionLocalAxes", "actionOnionSkin", "actionTrails", "actionAutoKey",
                             "actionCurvesTimeInSeconds"}) {
      QAction* action = window.findChild<QAction*>(QLatin1String(name));
      ASSERT_NE(action, nullptr) << name;
      action->trigger();
    }
    QAction* loop = window.findChild<QAction*>(QStringLiteral("actionLoop"));
    ASSERT_NE(loop, nullptr);
    ASSERT_TRUE(loop->isChecked()) << "loop starts on";
    loop->trigger();
  }
  MainWindow reopened;
  for (const char* name :
       {"actionRotateTool", "actionOnionSkin", "actionTrails", "actionAutoKey", "actionCurvesTimeInSeconds"}) {
    EXPECT_TRUE(reopened.findChild<QAction*>(QLatin1String(name))->isChecked()) << name;
  }
  EXPECT_FALSE(reopened.findChild<QAction*>(QStringLiteral("actionLoop"))->isChecked());
  EXPECT_FALSE(reopened.findChild<QAction*>(QStringLiteral("actionMoveTool"))->isChecked());
  // Restored through the actions, so what they drive follows.
  EXPECT_EQ(reopened.viewport()->gizmoMode(), GizmoMode::Rotate);
  EXPECT_EQ(reopened.viewport()->gizmoSpace(), toggledSpace) << "local axes toggled once from the default";
  EXPECT_FALSE(reopened.playback()->isLooping());
  EXPECT_TRUE(reopened.viewport()->showTrails());
  EXPECT_TRUE(reopened.curveEditorDock()->curveView()->timeInSeconds());
}

// Issue 35: bones hidden and a filter typed for one character, File ▸ Open of a BVH (no mesh,
// only bones) shows its skeleton in the viewport and its joints in the outliner.
TEST(MainWindowPreferences, AFileWithoutAMeshOpensWithItsBonesAndJointsShown) {
  struct ForgetToggles {
    ~ForgetToggles() { QSettings().remove(QStringLiteral("preferences")); }
  } forget;
  MainWindow window;
  QAction* showBones = window.findChild<QAction*>(QStringLiteral("actionShowBones"));
  ASSERT_NE(showBones, nullptr);
  showBones->trigger();
  ASSERT_FALSE(window.viewport()->showBones());
  window.outlinerDock()->filterEdit()->setText(QStringLiteral("zzz"));
  ASSERT_TRUE(window.openFile(QString::fromStdString(test::dataPath("bvh/cmu-mb-2010/02_01.bvh"))));
  EXPECT_TRUE(showBones->isChecked());
  EXPECT_TRUE(window.viewport()->showBones());
  EXPECT_TRUE(window.outlinerDock()->filterEdit()->text().isEmpty());
  EXPECT_TRUE(window.outlinerDock()->viewIndexOfJoint(0).isValid());
}

TEST(MainWindowPreferences, TheAutosaveIntervalIsSetInPreferencesAndPersists) {
  MainWindow window;
  const int before = window.session()->autosaveMinutes();
  PreferencesDialog dialog(before, &window);
  EXPECT_EQ(dialog.autosaveMinutesField()->value(), before);
  dialog.autosaveMinutesField()->setValue(500);
  EXPECT_EQ(dialog.autosaveMinutes(), ProjectSession::kMaxAutosaveMinutes) << "the field keeps to its range";
  dialog.autosaveMinutesField()->setValue(7);
  window.session()->setAutosaveMinutes(dialog.autosaveMinutes());
  EXPECT_EQ(window.session()->autosaveIntervalMs(), 7 * 60 * 1000);
  MainWindow reopened;
  EXPECT_EQ(reopened.session()->autosaveMinutes(), 7);
  reopened.session()->setAutosaveMinutes(0);
  EXPECT_EQ(reopened.session()->autosaveMinutes(), ProjectSession::kMinAutosaveMinutes);
  reopened.session()->setAutosaveMinutes(before);
}

TEST(ShortcutsDialog, ListsEveryShortcutOfTheWindow) {
  MainWindow window;
  ShortcutsDialog dialog(&window);
  const QTableWidget& table = *dialog.table();
  EXPECT_EQ(keysFor(table, QStringLiteral("Edit ▸ Undo")),
            QKeySequence(Qt::CTRL | Qt::Key_Z).toString(QKeySequence::NativeText));
  EXPECT_EQ(keysFor(table, QStringLiteral("Edit ▸ Key Pose")), QStringLiteral("S"));
  EXPECT_EQ(keysFor(table, QStringLiteral("View ▸ Frame Selected")), QStringLiteral("F"));
  EXPECT_FALSE(keysFor(table, QStringLiteral("Viewport ▸ Orbit")).isEmpty());
  // Every action with a shortcut in the menus has a row.
  int withShortcut = 0;
  for (QAction* action : window.findChildren<QAction*>()) {
    if (!action->shortcuts().isEmpty() && !action->associatedObjects().isEmpty()) ++withShortcut;
  }
  EXPECT_GE(table.rowCount(), withShortcut / 2);
}

TEST(MainWindowFiles, ExportWritesAGlbThatImportsBack) {
  MainWindow window;
  window.openScene(makeMannequin(), QStringLiteral("Mannequin"));
  const auto reimported = test::exportedThroughTheWindow(window, "articula_window_export");
  ASSERT_TRUE(reimported.ok()) << reimported.error();
  // Every joint comes back by name (glTF adds a node for the skinned mesh).
  for (const std::string& name : window.document()->scene().skeleton.names()) {
    EXPECT_GE(reimported->skeleton.findJoint(name), 0) << name;
  }
  ASSERT_EQ(reimported->clips.size(), 1u);
  EXPECT_EQ(reimported->clips[0].curves.count("contact.left_foot"), 1u);
  // The summary says what the keys are and which readers play them right: the mannequin's
  // walk is authored with Bézier keys, written as lines that every reader plays alike.
  EXPECT_TRUE(window.statusBar()->currentMessage().contains(QStringLiteral("linear keys: plays alike in Blender")))
      << window.statusBar()->currentMessage().toStdString();

  // Cubic keys asked for in the Bake dialog: the walk's Bézier keys are written as they are.
  ProjectBakeSettings cubic = window.session()->bakeSettings();
  cubic.cubicKeys = true;
  window.session()->setBakeSettings(cubic);
  ASSERT_TRUE(test::exportedThroughTheWindow(window, "articula_window_export_cubic").ok());
  EXPECT_TRUE(window.statusBar()->currentMessage().contains(QStringLiteral("cubic keys: exact in three.js")))
      << window.statusBar()->currentMessage().toStdString();

  QSignalSpy failed(&window, &MainWindow::exportFailed);
  EXPECT_FALSE(window.exportGltfTo(QStringLiteral("/nonexistent/folder/out.glb")));
  ASSERT_EQ(failed.size(), 1);
  EXPECT_TRUE(failed[0][0].toString().contains(QStringLiteral("/nonexistent/folder/out.glb")))
      << failed[0][0].toString().toStdString();
}

// A Z-up capture (MakeHuman walk1) exported from the window stands up in the file as it does
// from the CLI: its roots under the "Y up" node that turns the scene onto glTF's +Y.
TEST(MainWindowFiles, ExportStandsAZUpCaptureUpAsTheCliDoes) {
  MainWindow window;
  ASSERT_TRUE(window.openFile(QStringLiteral(ARTICULA_TEST_DATA_DIR "/bvh/makehuman/walk1.bvh")));
  const auto reimported = test::exportedThroughTheWindow(window, "articula_window_export_zup");
  ASSERT_TRUE(reimported.ok()) << reimported.error();
  EXPECT_TRUE(window.statusBar()->currentMessage().contains(QStringLiteral("linear keys: plays alike in Blender")))
      << window.statusBar()->currentMessage().toStdString();
  const int up = reimported->skeleton.findJoint("Y up");
  ASSERT_GE(up, 0);
  EXPECT_EQ(reimported->skeleton.parent(up), kNoParent);
  const int root = reimported->skeleton.findJoint("Root");
  ASSERT_GE(root, 0);
  EXPECT_TRUE(reimported->skeleton.isAncestorOrSelf(up, root));
}

TEST(MainWindowFiles, ADroppedFileOpens) {
  MainWindow window;
  window.openScene(makeMannequin(), QStringLiteral("Mannequin"));
  const QString file = QStringLiteral(ARTICULA_TEST_DATA_DIR "/gltf/RiggedSimple/RiggedSimple.glb");
  QMimeData data;
  data.setUrls({QUrl::fromLocalFile(file)});
  QDragEnterEvent enter(QPoint(10, 10), Qt::CopyAction, &data, Qt::LeftButton, Qt::NoModifier);
  QApplication::sendEvent(&window, &enter);
  EXPECT_TRUE(enter.isAccepted());
  QDropEvent drop(QPointF(10, 10), Qt::CopyAction, &data, Qt::LeftButton, Qt::NoModifier);
  QApplication::sendEvent(&window, &drop);
  EXPECT_EQ(window.document()->filePath(), QFileInfo(file).absoluteFilePath());
  EXPECT_EQ(window.document()->scene().skeleton.findJoint("Bone.001") >= 0, true);
}

// File ▸ New Clip asks a name and adds an empty clip to the open character, shown at once
// (its rest pose, as long and at the rate of the clip that was shown); one undo step.
TEST(MainWindowFiles, NewClipAddsANamedEmptyClipToTheOpenCharacterAsOneUndoStep) {
  MainWindow window;
  ASSERT_TRUE(window.openFile(QString::fromStdString(test::dataPath("bvh/cmu-mb-2010/02_01.bvh"))));
  Document& document = *window.document();
  const std::string before = test::serializeDocument(document);
  const Clip walk = *document.currentClip();
  QAction* newClip = window.findChild<QAction*>(QStringLiteral("actionNewClip"));
  ASSERT_NE(newClip, nullptr);
  const bool asked = test::useDialog<QInputDialog>(
      window, [&] { newClip->trigger(); },
      [](QInputDialog& dialog) {
        dialog.setTextValue(QStringLiteral("Jump"));
        dialog.accept();
      });
  ASSERT_TRUE(asked);
  ASSERT_EQ(document.scene().clips.size(), 2u);
  const Clip* added = document.currentClip();
  ASSERT_EQ(document.currentClipIndex(), 1);
  EXPECT_EQ(added->name, "Jump");
  EXPECT_EQ(added->keyCount(), 0u);
  EXPECT_EQ(added->frameRate, walk.frameRate);
  EXPECT_EQ(added->frameCount(), walk.frameCount());
  const Skeleton& skeleton = document.scene().skeleton;
  const auto rest = skeleton.restPose();
  for (int joint = 0; joint < skeleton.jointCount(); ++joint) {
    const Transform& posed = document.localPose()[static_cast<std::size_t>(joint)];
    const Transform& atRest = rest[static_cast<std::size_t>(joint)];
    EXPECT_LT((posed.translation - atRest.translation).norm(), 1e-5f) << skeleton.name(joint);
    EXPECT_LT(posed.rotation.angularDistance(atRest.rotation), 1e-5f) << skeleton.name(joint);
  }
  EXPECT_EQ(document.undoStack()->count(), 1);
  document.undoStack()->undo();
  EXPECT_EQ(test::serializeDocument(document), before);
  document.undoStack()->redo();
  EXPECT_EQ(document.currentClip()->name, "Jump");
}

TEST(MainWindowAnimation, DetectContactsWritesStrideCurvesAsOneUndoStep) {
  MainWindow window;
  Scene scene = makeMannequin();
  scene.clips[0].curves.clear();  // the walk's authored stride curves
  window.openScene(std::move(scene), QStringLiteral("Mannequin"));
  QUndoStack* undo = window.document()->undoStack();
  ASSERT_TRUE(window.detectContacts(ContactDetectionOptions{}));
  EXPECT_EQ(undo->count(), 1);
  const Clip* clip = window.document()->currentClip();
  EXPECT_EQ(clip->curves.count("contact.left_foot"), 1u);
  EXPECT_EQ(clip->curves.count("contact.right_foot"), 1u);
  undo->undo();
  EXPECT_TRUE(window.document()->currentClip()->curves.empty());
}

TEST(MainWindowAnimation, ContactsOnACharacterWithoutLegsIsNamedAndChangesNothing) {
  MainWindow window;
  ASSERT_TRUE(window.openFile(QStringLiteral(ARTICULA_TEST_DATA_DIR "/gltf/RiggedSimple/RiggedSimple.glb")));
  const std::size_t keys = window.document()->currentClip()->keyCount();
  QSignalSpy failed(&window, &MainWindow::animationFailed);
  EXPECT_FALSE(window.detectContacts(ContactDetectionOptions{}));
  ASSERT_EQ(failed.size(), 1);
  EXPECT_TRUE(failed[0][0].toString().contains(QStringLiteral("leg"))) << failed[0][0].toString().toStdString();
  EXPECT_EQ(window.document()->undoStack()->count(), 0);
  EXPECT_EQ(window.document()->currentClip()->keyCount(), keys);
}

// The mannequin's walk baked through the window and through the core pipeline that
// articula-cli bake runs, with the same settings (`cubic`: --interpolation cubic,
// `fewestBytes`: --fewest-bytes): the same clip, added as one undo step.
void bakeThroughWindowAndPipeline(bool cubic, bool fewestBytes) {
  MainWindow window;
  window.openScene(makeMannequin(), QStringLiteral("Mannequin"));
  ProjectBakeSettings settings;
  settings.firstFrame = 2;
  settings.lastFrame = 26;
  settings.toleranceRelative = 2e-3f;
  settings.detectContacts = true;
  settings.fewestBytes = fewestBytes;
  settings.cubicKeys = cubic;
  ASSERT_TRUE(window.bake(settings));
  const Scene& scene = window.document()->scene();
  ASSERT_EQ(scene.clips.size(), 2u);
  EXPECT_EQ(scene.clips[1].name, "walk baked");
  EXPECT_EQ(window.document()->currentClipIndex(), 1);
  // The status gives the error in the unit the dialog asked for.
  EXPECT_TRUE(window.statusBar()->currentMessage().contains(QStringLiteral(" mm at 1.75 m")))
      << window.statusBar()->currentMessage().toStdString();

  BakePipelineOptions options;
  options.bake.firstFrame = 2;
  options.bake.lastFrame = 26;
  options.bake.reduction.toleranceModel = 2e-3f * scene.characterHeight();
  options.bake.reduction.fewestBytes = fewestBytes;
  options.bake.reduction.interpolation = cubic ? KeyInterpolation::Cubic : KeyInterpolation::Linear;
  options.detectContacts = true;
  const auto rig = buildHumanoidRig(scene.skeleton);
  ASSERT_TRUE(rig.ok()) << rig.error();
  const auto expected = bakeThroughRig(scene, scene.clips[0], *rig, options);
  ASSERT_TRUE(expected.ok()) << expected.error();
  const Clip& baked = scene.clips[1];
  ASSERT_EQ(baked.keyCount(), expected->clip.keyCount());
  for (int f = 0; f < baked.frameCount(); ++f) {
    Pose a(scene.skeleton.restPose().begin(), scene.skeleton.restPose().end());
    Pose b = a;
    ClipSampler(&baked).sample(baked.timeOf(f), a);
    ClipSampler(&expected->clip).sample(baked.timeOf(f), b);
    for (std::size_t j = 0; j < a.size(); ++j) {
      ASSERT_EQ(a[j].translation, b[j].translation) << "frame " << f << " joint " << j;
      ASSERT_EQ(a[j].rotation.coeffs(), b[j].rotation.coeffs()) << "frame " << f << " joint " << j;
    }
  }
  window.document()->undoStack()->undo();
  EXPECT_EQ(window.document()->scene().clips.size(), 1u);
  EXPECT_TRUE(window.statusBar()->currentMessage().isEmpty()) << "the bake's summary went with it";
}

// The document's current clip baked through the window and through the core pipeline that
// articula-cli bake runs: linear keys (the default), and cubic keys fitted for the fewest
// keys and for the smallest file.
TEST(MainWindowAnimation, BakeAddsTheSameClipAsTheCommandLinePipelineAsOneUndoStep) {
  {
    SCOPED_TRACE("linear");
    bakeThroughWindowAndPipeline(false, false);
  }
  for (const bool fewestBytes : {false, true}) {
    SCOPED_TRACE(fewestBytes ? "cubic, fewest bytes" : "cubic, fewest keys");
    bakeThroughWindowAndPipeline(true, fewestBytes);
  }
}

TEST(MainWindowAnimation, CancelledBakeLeavesTheDocumentUnchanged) {
  MainWindow window;
  Scene scene = makeMannequin();
  scene.clips[0].endTime = 200.0;  // 6,000 frames: long enough to cancel
  window.openScene(std::move(scene), QStringLiteral("Mannequin"));
  // Cancel as soon as the bake's progress dialog exists.
  QTimer::singleShot(0, &window, [&window] {
    if (auto* dialog = window.findChild<QProgressDialog*>(QStringLiteral("taskProgressDialog"))) dialog->cancel();
  });
  EXPECT_FALSE(window.bake(ProjectBakeSettings{}));
  EXPECT_EQ(window.document()->scene().clips.size(), 1u);
  EXPECT_EQ(window.document()->undoStack()->count(), 0);
}

// A character with no skeleton (Kenney's, four clips of its mesh nodes) is refused before the
// Bake dialog asks for anything, naming the file and the reason; nothing of it changes.
TEST(MainWindowAnimation, BakeRefusesACharacterWithNoSkeletonNamingTheFile) {
  MainWindow window;
  ASSERT_TRUE(window.openFile(QString::fromStdString(test::dataPath("gltf/KenneyPlatformerCharacter/character.glb"))));
  const std::string before = test::serializeDocument(*window.document());
  const auto rig = window.bakeRig();
  ASSERT_FALSE(rig.ok());
  EXPECT_NE(rig.error().find("character.glb"), std::string::npos) << rig.error();
  EXPECT_NE(rig.error().find("no joints"), std::string::npos) << rig.error();
  QSignalSpy failed(&window, &MainWindow::animationFailed);
  EXPECT_FALSE(window.bake(ProjectBakeSettings{}));
  ASSERT_EQ(failed.size(), 1);
  EXPECT_EQ(failed[0][0].toString().toStdString(), rig.error());
  EXPECT_EQ(test::serializeDocument(*window.document()), before);
  EXPECT_EQ(window.document()->undoStack()->count(), 0);
}

TEST(BakeDialog, EditsTheProjectsBakeSettingsAndKeepsTheRangeOrdered) {
  ProjectBakeSettings start;
  start.lastFrame = -1;
  start.detectContacts = true;
  BakeDialog dialog(start, 31);
  EXPECT_EQ(dialog.lastFrame()->value(), 30);  // -1: the clip's last frame
  dialog.firstFrame()->setValue(20);
  dialog.lastFrame()->setValue(10);
  EXPECT_EQ(dialog.firstFrame()->value(), 10);
  EXPECT_DOUBLE_EQ(dialog.toleranceMm()->value(), 1.0) << "the default, in mm at 1.75 m";
  EXPECT_FLOAT_EQ(dialog.settings().toleranceRelative, kDefaultToleranceOfHeight) << "exactly, not rounded";
  dialog.toleranceMm()->setValue(0.5);
  dialog.rootMotion()->setChecked(false);
  // Linear keys by default; the smallest-file fit is a choice among cubic fits only.
  EXPECT_EQ(dialog.interpolation()->currentIndex(), 0);
  EXPECT_TRUE(dialog.interpolation()->currentText().contains(QStringLiteral("Blender")));
  EXPECT_FALSE(dialog.settings().cubicKeys);
  EXPECT_FALSE(dialog.fewestBytes()->isEnabled());
  EXPECT_FALSE(dialog.fewestBytes()->isChecked());
  dialog.interpolation()->setCurrentIndex(1);
  EXPECT_TRUE(dialog.fewestBytes()->isEnabled());
  dialog.fewestBytes()->setChecked(true);
  const ProjectBakeSettings settings = dialog.settings();
  EXPECT_TRUE(settings.cubicKeys);
  EXPECT_EQ(settings.firstFrame, 10);
  EXPECT_EQ(settings.lastFrame, 10);
  EXPECT_FLOAT_EQ(settings.toleranceRelative, 0.5f / 1750.0f);
  EXPECT_TRUE(settings.detectContacts);
  EXPECT_FALSE(settings.rootMotion);
  EXPECT_TRUE(settings.fewestBytes);
  EXPECT_TRUE(BakeDialog(settings, 31).fewestBytes()->isChecked());
  EXPECT_EQ(BakeDialog(settings, 31).interpolation()->currentIndex(), 1);
}

// The last cleanup's report, per foot: spans held, slide per span before → after (mean and
// largest, mm at 1.75 m) and the frames a leg could not reach; hidden before any cleanup.
TEST(BakeDialog, ListsTheLastCleanupPerFoot) {
  BakeDialog dialog(ProjectBakeSettings{}, 31);
  EXPECT_TRUE(dialog.lastCleanup()->isHidden());
  FootCleanupSummary left;
  left.curveName = "contact.left_foot";
  left.spans = {{2, 10}, {20, 28}};
  left.slideBeforeModel = {0.10f, 0.30f};
  left.slideAfterModel = {0.001f, 0.003f};
  FootCleanupSummary right;
  right.curveName = "contact.right_foot";
  right.spans = {{12, 18}};
  right.slideBeforeModel = {0.2f};
  right.slideAfterModel = {0.0f};
  right.unreachedFrames = {14, 15};
  dialog.showLastCleanup({left, right}, 100.0f);
  EXPECT_FALSE(dialog.lastCleanup()->isHidden());
  const QString text = dialog.lastCleanup()->text();
  EXPECT_TRUE(
      text.contains(QStringLiteral("contact.left_foot: 2 span(s) held, slide per span 20.00 (30.00) → 0.20 (0.30) mm, "
                                   "every frame reached")))
      << text.toStdString();
  EXPECT_TRUE(
      text.contains(QStringLiteral("contact.right_foot: 1 span(s) held, slide per span 20.00 (20.00) → 0.00 (0.00) mm, "
                                   "unreached at frame(s) 14, 15")))
      << text.toStdString();
  dialog.showLastCleanup({}, 100.0f);
  EXPECT_TRUE(dialog.lastCleanup()->isHidden());
}

TEST(ContactsDialog, TurnsPercentagesOfTheCharacterIntoDistances) {
  ContactsDialog dialog(2.0f);
  EXPECT_LT(dialog.options().heightThreshold, 0.0f) << "derived from the character by default";
  dialog.autoThresholds()->setChecked(false);
  dialog.heightPercent()->setValue(5.0);
  dialog.speedPercent()->setValue(20.0);
  dialog.minContactSeconds()->setValue(0.1);
  const ContactDetectionOptions options = dialog.options();
  EXPECT_FLOAT_EQ(options.heightThreshold, 0.1f);
  EXPECT_FLOAT_EQ(options.speedThreshold, 0.4f);
  EXPECT_DOUBLE_EQ(options.minContactSeconds, 0.1);
}

}  // namespace
}  // namespace articula::ui
