// First-use ergonomics driven through the real window, offscreen, with the keys and clicks an
// animator uses: shortcuts after typing in a field, and the window's View and Playback menus.
#include <gtest/gtest.h>

#include <QAction>
#include <QApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QLabel>
#include <QLocale>
#include <QStatusBar>
#include <QFont>
#include <QHeaderView>
#include <QImage>
#include <QScrollBar>
#include <QSortFilterProxyModel>
#include <QTreeView>
#include <QMenu>
#include <QMenuBar>
#include <QAbstractSpinBox>
#include <QLineEdit>
#include <QSpinBox>
#include <QTableWidget>
#include <QSettings>
#include <QSignalSpy>
#include <QTest>
#include <QTimer>
#include <QUndoStack>
#include <QWheelEvent>

#include <algorithm>
#include <cmath>
#include <functional>

#include "core/io/import.h"
#include "core/project/project_file.h"
#include "core/samples/mannequin.h"
#include "ui/commands/edit_keys_command.h"
#include "ui/dialogs/bake_dialog.h"
#include "ui/dialogs/preferences_dialog.h"
#include "ui/dialogs/shortcuts_dialog.h"
#include "ui/docks/outliner_dock.h"
#include "ui/docks/properties_dock.h"
#include "ui/docks/timeline_dock.h"
#include "ui/document/document.h"
#include "ui/main_window.h"
#include "ui/models/joint_tree_model.h"
#include "ui/timeline/dope_sheet.h"
#include "ui/timeline/key_channel.h"
#include "ui/timeline/playback_controller.h"
#include "ui/timeline/time_ruler.h"
#include "ui/timeline/timeline_widget.h"
#include "ui/viewport/viewport.h"
#include "ui_test_support.h"

namespace articula::ui {
namespace {

// A shown, active window on the mannequin: shortcuts only reach the active window.
class ErgonomicsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    window.openScene(makeMannequin(), QStringLiteral("Mannequin"));
    window.show();
    // Activated directly: running the event loop would expose the window, and the offscreen
    // platform cannot draw the viewport's OpenGL.
    QApplication::setActiveWindow(&window);
    ASSERT_TRUE(window.isActiveWindow());
  }

  // Presses a key where the user's keyboard is: on the focused widget.
  static void press(Qt::Key key, Qt::KeyboardModifiers modifiers = Qt::NoModifier) {
    QWidget* focused = QApplication::focusWidget();
    ASSERT_NE(focused, nullptr);
    QTest::keyClick(focused, key, modifiers);
    // What the key queued (a field handing the keyboard back) runs before the next key.
    QCoreApplication::sendPostedEvents();
  }

  MainWindow window;
};

TEST_F(ErgonomicsTest, TheWindowOpensWithTheKeyboardOnTheViewport) {
  EXPECT_EQ(QApplication::focusWidget(), window.viewport());
  press(Qt::Key_Space);
  EXPECT_TRUE(window.playback()->isPlaying());
}

TEST_F(ErgonomicsTest, EnterInTheOutlinerFilterGivesSpaceBackToPlayback) {
  QLineEdit* filter = window.outlinerDock()->filterEdit();
  QTest::mouseClick(filter, Qt::LeftButton);
  ASSERT_EQ(QApplication::focusWidget(), filter);
  QTest::keyClicks(filter, QStringLiteral("hand"));
  // While the field is edited a space is text, not a shortcut.
  press(Qt::Key_Space);
  EXPECT_EQ(filter->text(), QStringLiteral("hand "));
  EXPECT_FALSE(window.playback()->isPlaying());
  press(Qt::Key_Backspace);

  press(Qt::Key_Return);
  EXPECT_NE(QApplication::focusWidget(), filter);
  press(Qt::Key_Space);
  EXPECT_EQ(filter->text(), QStringLiteral("hand")) << "the filter keeps what was typed";
  EXPECT_TRUE(window.playback()->isPlaying());
  press(Qt::Key_Space);
  EXPECT_FALSE(window.playback()->isPlaying());
}

TEST_F(ErgonomicsTest, EnterInTheFrameBoxGoesToTheFrameAndFFramesTheSelection) {
  Document* document = window.document();
  document->setSelectedJoints({document->scene().skeleton.findJoint("LeftHand")});
  // The viewport frames on its next paint: what is checked here is that F reaches the action.
  QSignalSpy framed(window.findChild<QAction*>(QStringLiteral("actionFrameSelected")), &QAction::triggered);
  QSpinBox* frameBox = window.timelineDock()->timeline()->frameField();
  QTest::mouseClick(frameBox, Qt::LeftButton);
  ASSERT_EQ(QApplication::focusWidget(), frameBox);
  frameBox->selectAll();
  QTest::keyClicks(frameBox, QStringLiteral("12"));
  press(Qt::Key_Return);
  EXPECT_EQ(document->currentFrame(), 12);
  EXPECT_NE(QApplication::focusWidget(), frameBox);
  press(Qt::Key_F);
  EXPECT_EQ(framed.count(), 1) << "F framed the selection";
  // Esc hands the keyboard back as well (to the view that had it before).
  QTest::mouseClick(frameBox, Qt::LeftButton);
  press(Qt::Key_Escape);
  EXPECT_EQ(QApplication::focusWidget(), window.viewport());
}

TEST_F(ErgonomicsTest, ClickingTheViewportTakesTheKeyboardFromAField) {
  QLineEdit* filter = window.outlinerDock()->filterEdit();
  QTest::mouseClick(filter, Qt::LeftButton);
  ASSERT_EQ(QApplication::focusWidget(), filter);
  QTest::mouseClick(window.viewport(), Qt::LeftButton, Qt::NoModifier, QPoint(5, 5));
  EXPECT_EQ(QApplication::focusWidget(), window.viewport());
  press(Qt::Key_W);
  EXPECT_EQ(window.viewport()->gizmoMode(), GizmoMode::Translate);
  EXPECT_TRUE(filter->text().isEmpty());
}

class DopeSheetNavigationTest : public ErgonomicsTest {
 protected:
  TimelineWidget& timeline() { return *window.timelineDock()->timeline(); }
  DopeSheet& sheet() { return *timeline().dopeSheet(); }

  void wheel(QPointF at, int notches, Qt::KeyboardModifiers modifiers = Qt::NoModifier) {
    QWheelEvent event(at, sheet().mapToGlobal(at), QPoint(), QPoint(0, 120 * notches), Qt::NoButton, modifiers,
                      Qt::NoScrollPhase, false);
    QApplication::sendEvent(&sheet(), &event);
  }
  void drag(Qt::MouseButton button, QPointF from, QPointF to, Qt::KeyboardModifiers modifiers = Qt::NoModifier) {
    QTest::mousePress(&sheet(), button, modifiers, from.toPoint());
    for (int step = 1; step <= 5; ++step) {
      const QPointF at = from + (to - from) * (step / 5.0);
      QMouseEvent move(QEvent::MouseMove, at, sheet().mapToGlobal(at), Qt::NoButton, button, modifiers);
      QApplication::sendEvent(&sheet(), &move);
    }
    QTest::mouseRelease(&sheet(), button, modifiers, to.toPoint());
  }
};

TEST_F(DopeSheetNavigationTest, WheelZoomsTimeAroundTheMouseAndMiddleDragPans) {
  const TimeAxis& axis = timeline().axis();
  const double wholeClip = axis.pixelsPerFrame();
  const QPointF atFrame10(axis.frameToPixel(10), DopeSheet::kRowHeight * 0.5);
  wheel(atFrame10, 2);
  EXPECT_GT(axis.pixelsPerFrame(), wholeClip * 1.3);
  EXPECT_NEAR(axis.frameToPixel(10), atFrame10.x(), 0.5) << "the frame under the mouse stays there";
  const double zoomed = axis.pixelsPerFrame();
  wheel(atFrame10, 1, Qt::ControlModifier);
  EXPECT_GT(axis.pixelsPerFrame(), zoomed) << "Ctrl+wheel zooms time as in the curve editor";
  EXPECT_TRUE(timeline().ruler()->isZoomed());

  const double frame10Before = axis.frameToPixel(10);
  const int frameBefore = window.document()->currentFrame();
  drag(Qt::MiddleButton, atFrame10, atFrame10 + QPointF(60.0, 0.0));
  EXPECT_NEAR(axis.frameToPixel(10), frame10Before + 60.0, 0.5);
  EXPECT_EQ(window.document()->currentFrame(), frameBefore) << "panning is not scrubbing";
  // The ruler reads the same axis: its frame under a pixel is the dope sheet's.
  EXPECT_EQ(timeline().ruler()->axis().pixelToFrame(frame10Before + 60.0), 10);

  wheel(atFrame10, -30);
  EXPECT_FALSE(timeline().ruler()->isZoomed()) << "zoomed all the way out, the whole clip fits again";
  EXPECT_DOUBLE_EQ(axis.pixelsPerFrame(), wholeClip);
}

TEST_F(DopeSheetNavigationTest, ALeftDragOnTheRowsBoxSelectsAndNeverScrubs) {
  Document* document = window.document();
  const int frameBefore = document->currentFrame();
  const TimeAxis& axis = timeline().axis();
  // From just before frame 0 on the summary row to the middle of the clip, two rows down.
  const QPointF from(axis.frameToPixel(0) - 10.0, DopeSheet::kRowHeight * 0.5);
  const QPointF to(axis.frameToPixel(document->frameCount() / 2), DopeSheet::kRowHeight * 2.5);
  ASSERT_TRUE(sheet().keysAt(from).empty());
  drag(Qt::LeftButton, from, to);
  EXPECT_FALSE(sheet().selectedKeys().empty());
  EXPECT_EQ(document->currentFrame(), frameBefore);

  // With Ctrl a box starts on a key too, and moves nothing.
  const QPointF onKey = sheet().keyPosition(0, sheet().selectedKeys().front().time);
  ASSERT_FALSE(sheet().keysAt(onKey).empty());
  const int undoCount = document->undoStack()->count();
  drag(Qt::LeftButton, onKey, onKey + QPointF(40.0, DopeSheet::kRowHeight), Qt::ControlModifier);
  EXPECT_EQ(document->undoStack()->count(), undoCount);
  EXPECT_FALSE(sheet().selectedKeys().empty());
  EXPECT_EQ(document->currentFrame(), frameBefore);
}

// The mannequin as Mixamo names it: every joint in the `mixamorig:` namespace.
Scene mixamoNamedMannequin() {
  Scene scene = makeMannequin();
  for (int joint = 0; joint < scene.skeleton.jointCount(); ++joint)
    scene.skeleton.setName(joint, "mixamorig:" + scene.skeleton.name(joint));
  return scene;
}

TEST_F(ErgonomicsTest, TheOutlinerShowsNamespacedNamesWholeWithTheNamespaceOnce) {
  window.openScene(mixamoNamedMannequin(), QStringLiteral("Mixamo"));
  OutlinerDock* outliner = window.outlinerDock();
  QTreeView* tree = outliner->treeView();
  const JointTreeModel* model = outliner->model();
  EXPECT_EQ(model->namePrefix(), QStringLiteral("mixamorig:"));
  EXPECT_TRUE(model->headerData(JointTreeModel::NameColumn, Qt::Horizontal).toString().contains(model->namePrefix()));
  const int leftHand = window.document()->scene().skeleton.findJoint("mixamorig:LeftHand");
  const QModelIndex item = outliner->viewIndexOfJoint(leftHand);
  EXPECT_EQ(item.data().toString(), QStringLiteral("LeftHand"));
  EXPECT_EQ(item.data(Qt::ToolTipRole).toString(), QStringLiteral("mixamorig:LeftHand"));
  EXPECT_EQ(item.data(Qt::EditRole).toString(), QStringLiteral("mixamorig:LeftHand"));

  // Whole names: the Kind column is optional (hidden), the name column as wide as its
  // widest item, so a narrow dock scrolls sideways instead of cutting names.
  EXPECT_TRUE(tree->isColumnHidden(JointTreeModel::KindColumn));
  outliner->showKindAction()->trigger();
  EXPECT_FALSE(tree->isColumnHidden(JointTreeModel::KindColumn));
  outliner->showKindAction()->trigger();
  EXPECT_EQ(tree->textElideMode(), Qt::ElideMiddle);
  QCoreApplication::sendPostedEvents();
  tree->doItemsLayout();
  const QModelIndex deepest = outliner->viewIndexOfJoint(leftHand);
  EXPECT_GE(tree->visualRect(deepest).width(), tree->fontMetrics().horizontalAdvance(deepest.data().toString()))
      << "room for the whole name after its indentation";
  outliner->setFloating(true);
  outliner->resize(120, 400);
  QCoreApplication::sendPostedEvents();
  tree->doItemsLayout();
  EXPECT_GT(tree->horizontalScrollBar()->maximum(), 0) << "too narrow for the deepest names: it scrolls";
  outliner->setFloating(false);
}

TEST_F(ErgonomicsTest, FilterMatchesStandOutAndTheirParentsAreGreyed) {
  window.openScene(mixamoNamedMannequin(), QStringLiteral("Mixamo"));
  OutlinerDock* outliner = window.outlinerDock();
  const Skeleton& skeleton = window.document()->scene().skeleton;
  QTest::keyClicks(outliner->filterEdit(), QStringLiteral("hand"));
  const QModelIndex match = outliner->viewIndexOfJoint(skeleton.findJoint("mixamorig:LeftHand"));
  const QModelIndex context = outliner->viewIndexOfJoint(skeleton.findJoint("mixamorig:LeftForeArm"));
  ASSERT_TRUE(match.isValid());
  ASSERT_TRUE(context.isValid()) << "kept for the tree's shape";
  EXPECT_TRUE(match.data(Qt::FontRole).value<QFont>().bold());
  EXPECT_FALSE(context.data(Qt::FontRole).value<QFont>().bold());
  EXPECT_TRUE(context.data(Qt::ForegroundRole).isValid()) << "greyed";
  EXPECT_FALSE(match.data(Qt::ForegroundRole).isValid()) << "the palette's text colour";
  EXPECT_FALSE(outliner->viewIndexOfJoint(skeleton.findJoint("mixamorig:LeftFoot")).isValid());
  // The namespace the tree leaves out still filters.
  outliner->filterEdit()->setText(QStringLiteral("mixamorig:RightHand"));
  EXPECT_TRUE(outliner->viewIndexOfJoint(skeleton.findJoint("mixamorig:RightHand")).isValid());
  EXPECT_FALSE(outliner->viewIndexOfJoint(skeleton.findJoint("mixamorig:LeftHand")).isValid());
}

TEST_F(ErgonomicsTest, APlaybackRangeFromThePlaybackMenuLoopsInsideTheClip) {
  Document* document = window.document();
  PlaybackController* playback = window.playback();
  test::FakeClock clock;
  playback->setClock(clock.clock());
  const double frameRate = document->currentClip()->frameRate;
  document->setFrame(10);
  press(Qt::Key_I, Qt::ControlModifier | Qt::AltModifier);
  document->setFrame(14);
  press(Qt::Key_O, Qt::ControlModifier | Qt::AltModifier);
  ASSERT_TRUE(playback->hasRange());
  EXPECT_EQ(playback->firstPlayedFrame(), 10);
  EXPECT_EQ(playback->lastPlayedFrame(), 14);

  document->setFrame(0);
  press(Qt::Key_Space);
  ASSERT_TRUE(playback->isPlaying());
  EXPECT_EQ(document->currentFrame(), 10) << "outside the range, playback starts at its in frame";
  // 4 frames on: the out frame; 2 more: wrapped to 11 (10, 11, 12, 13, 14, 10, 11).
  clock.advanceSeconds(4.0 / frameRate);
  playback->advance();
  EXPECT_EQ(document->currentFrame(), 14);
  clock.advanceSeconds(2.0 / frameRate);
  playback->advance();
  EXPECT_EQ(document->currentFrame(), 11);
  press(Qt::Key_Space);

  press(Qt::Key_P, Qt::ControlModifier | Qt::AltModifier);
  EXPECT_FALSE(playback->hasRange());
  EXPECT_EQ(playback->lastPlayedFrame(), document->frameCount() - 1);
  // A new scene starts without the old range.
  document->setFrame(3);
  press(Qt::Key_O, Qt::ControlModifier | Qt::AltModifier);
  ASSERT_TRUE(playback->hasRange());
  window.openScene(makeMannequin(), QStringLiteral("Mannequin"));
  EXPECT_FALSE(playback->hasRange());

  // The shortcuts page lists the range keys.
  ShortcutsDialog dialog(&window);
  const auto* table = dialog.findChild<QTableWidget*>();
  ASSERT_NE(table, nullptr);
  bool listed = false;
  for (int row = 0; row < table->rowCount(); ++row)
    listed = listed || table->item(row, 0)->text() == QStringLiteral("Playback ▸ Set Range In");
  EXPECT_TRUE(listed);
}

TEST_F(ErgonomicsTest, TheViewMenuShowsAndHidesMeshBonesRigAndGrid) {
  Viewport* viewport = window.viewport();
  const struct {
    const char* action;
    bool (Viewport::*shown)() const;
  } toggles[] = {{"actionShowMesh", &Viewport::showMesh},
                 {"actionShowBones", &Viewport::showBones},
                 {"actionShowRig", &Viewport::showRig},
                 {"actionShowGrid", &Viewport::showGrid}};
  for (const auto& toggle : toggles) {
    SCOPED_TRACE(toggle.action);
    QAction* action = window.findChild<QAction*>(QLatin1String(toggle.action));
    ASSERT_NE(action, nullptr);
    EXPECT_TRUE(action->isChecked());
    EXPECT_TRUE((viewport->*toggle.shown)());
    action->trigger();
    EXPECT_FALSE((viewport->*toggle.shown)());
    action->trigger();
    EXPECT_TRUE((viewport->*toggle.shown)());
  }
}

// Not shown: export and bake wait in a local event loop, which would expose the window and
// the offscreen platform cannot draw the viewport.
TEST(ErgonomicsFeedback, ExportAndBakeSayWhatTheyDidAndANewFileClearsIt) {
  MainWindow window;
  window.openScene(makeMannequin(), QStringLiteral("Mannequin"));
  const QString path =
      QDir::temp().filePath(QStringLiteral("articula_ergonomics_%1.glb").arg(QCoreApplication::applicationPid()));
  ASSERT_TRUE(window.exportGltfTo(path));
  const qint64 bytes = QFileInfo(path).size();
  QFile::remove(path);
  const QString exported = window.statusBar()->currentMessage();
  EXPECT_TRUE(exported.contains(QFileInfo(path).fileName())) << exported.toStdString();
  EXPECT_TRUE(exported.contains(QStringLiteral("1 clip"))) << exported.toStdString();
  EXPECT_TRUE(exported.contains(QStringLiteral("%1 keys").arg(window.document()->currentClip()->keyCount())))
      << exported.toStdString();
  EXPECT_TRUE(exported.contains(QLocale().formattedDataSize(bytes))) << exported.toStdString();

  ProjectBakeSettings settings;
  settings.firstFrame = 0;
  settings.lastFrame = 20;
  settings.detectContacts = true;
  ASSERT_TRUE(window.bake(settings));
  const QString baked = window.statusBar()->currentMessage();
  EXPECT_TRUE(baked.contains(QStringLiteral("“walk baked”"))) << baked.toStdString();
  EXPECT_TRUE(baked.contains(QStringLiteral("21 frame"))) << baked.toStdString();
  EXPECT_TRUE(baked.contains(QStringLiteral("keys "))) << baked.toStdString();
  EXPECT_TRUE(baked.contains(QStringLiteral("contact.left_foot: "))) << baked.toStdString();

  // Nothing of the previous file stays: the status bar and the rig panel's message.
  auto* rigMessage = window.findChild<QLabel*>(QStringLiteral("rigMessage"));
  ASSERT_NE(rigMessage, nullptr);
  rigMessage->setText(QStringLiteral("a message about the previous file"));
  window.setUnsavedChangesPrompt([] { return MainWindow::UnsavedChoice::Discard; });
  ASSERT_TRUE(window.openFile(QString::fromStdString(test::dataPath("gltf/CesiumMan/CesiumMan.glb"))));
  EXPECT_TRUE(window.statusBar()->currentMessage().isEmpty());
  EXPECT_TRUE(rigMessage->text().isEmpty());
}

// Edit ▸ Preferences as the animator opens it: `edit` runs on the dialog while it is shown,
// then OK (`accept`) or Cancel closes it.
void editPreferences(MainWindow& window, const std::function<void(PreferencesDialog&)>& edit, bool accept) {
  QAction* preferences = window.findChild<QAction*>(QStringLiteral("actionPreferences"));
  EXPECT_TRUE(test::useDialog<PreferencesDialog>(window, [preferences] { preferences->trigger(); },
                                                 [&](PreferencesDialog& dialog) {
                                                   edit(dialog);
                                                   if (accept) dialog.accept();
                                                 }))
      << "the dialog opened";
}

std::vector<int> ghostFramesOf(const Viewport& viewport) {
  std::vector<int> frames;
  for (const GhostFrame& ghost : viewport.ghosts()) frames.push_back(ghost.frame);
  return frames;
}

TEST_F(ErgonomicsTest, OnionSkinAndTheTrailWindowFollowPreferencesLiveAndPersist) {
  struct ForgetPreferences {
    ~ForgetPreferences() { QSettings().remove(QStringLiteral("preferences")); }
  } forget;
  // The dialog's event loop would expose a shown window, whose OpenGL the offscreen
  // platform cannot draw.
  window.hide();
  Document* document = window.document();
  Viewport* viewport = window.viewport();
  const int frames = document->frameCount();
  ASSERT_GE(frames, 20);
  document->setFrame(frames / 2);
  const int current = document->currentFrame();
  window.findChild<QAction*>(QStringLiteral("actionOnionSkin"))->trigger();
  EXPECT_EQ(ghostFramesOf(*viewport), (std::vector<int>{current - 3, current + 3, current - 6, current + 6}))
      << "two ghosts each side, three frames apart, until Preferences say otherwise";
  const int hand = document->scene().skeleton.findJoint("LeftHand");
  ASSERT_GE(hand, 0);
  document->setSelectedJoints({hand});
  window.findChild<QAction*>(QStringLiteral("actionTrails"))->trigger();
  ASSERT_EQ(viewport->trails().size(), 1u);
  EXPECT_EQ(static_cast<int>(viewport->trails().front().size()), frames) << "the whole clip at first";

  // Where the hand is at every frame, as the window evaluates it.
  std::vector<Vec3> handModel;
  for (int frame = 0; frame < frames; ++frame) {
    document->setFrame(frame);
    handModel.push_back(document->modelPose()[static_cast<std::size_t>(hand)].translation());
  }
  document->setFrame(current);

  editPreferences(
      window,
      [&](PreferencesDialog& dialog) {
        dialog.onionGhostsField()->setValue(3);
        dialog.onionSpacingField()->setValue(2);
        EXPECT_EQ(ghostFramesOf(*viewport),
                  (std::vector<int>{current - 2, current + 2, current - 4, current + 4, current - 6, current + 6}))
            << "applied while the dialog is open";
        dialog.trailWindowField()->setValue(4);
        EXPECT_EQ(viewport->trailFrames(), std::make_pair(current - 4, current + 4));
      },
      true);
  auto expectTrailAt = [&](int first, int last) {
    EXPECT_EQ(viewport->trailFrames(), std::make_pair(first, last));
    const std::vector<Vec3>& trail = viewport->trails().front();
    ASSERT_EQ(static_cast<int>(trail.size()), last - first + 1);
    for (int frame = first; frame <= last; ++frame) {
      EXPECT_LT((trail[static_cast<std::size_t>(frame - first)] - handModel[static_cast<std::size_t>(frame)]).norm(),
                1e-4f)
          << "frame " << frame;
    }
  };
  expectTrailAt(current - 4, current + 4);
  // The window moves with the current frame and stops at the clip's ends.
  document->setFrame(current + 7);
  expectTrailAt(current + 3, current + 11);
  document->setFrame(1);
  expectTrailAt(0, 5);

  // Cancel puts back what the dialog started from.
  editPreferences(
      window,
      [](PreferencesDialog& dialog) {
        dialog.onionGhostsField()->setValue(1);
        dialog.trailWindowField()->setValue(0);
      },
      false);
  EXPECT_EQ(viewport->onionSkin().ghostsEachSide, 3);
  EXPECT_EQ(viewport->trailWindowFrames(), 4);

  // OK kept them in the settings: a new window starts with them.
  MainWindow reopened;
  EXPECT_EQ(reopened.viewport()->onionSkin().ghostsEachSide, 3);
  EXPECT_EQ(reopened.viewport()->onionSkin().spacingFrames, 2);
  EXPECT_EQ(reopened.viewport()->trailWindowFrames(), 4);
}

TEST_F(DopeSheetNavigationTest, AKeyDragOverManyMovesIsOneStepThatSwapsOnlyTheDraggedTracks) {
  Result<Scene> take = importScene(test::dataPath("bvh/cmu-mb-2010/02_01.bvh"));
  ASSERT_TRUE(take) << take.error();
  window.openScene(std::move(take).value(), QStringLiteral("02_01"));
  Document* document = window.document();
  const int forearm = document->scene().skeleton.findJoint("LeftForeArm");
  ASSERT_GE(forearm, 0);
  document->setSelectedJoints({forearm});
  const Clip before = *document->currentClip();
  const std::string original = test::serializeDocument(*document);
  const TimeAxis& axis = timeline().axis();
  // The joint's summary diamond at frame 40 (every channel it keys there), selected by a
  // click, then dragged right by 6.3 frames in thirty mouse moves.
  const QPointF from = sheet().keyPosition(0, before.timeOf(40));
  QTest::mouseClick(&sheet(), Qt::LeftButton, Qt::NoModifier, from.toPoint());
  QTest::mousePress(&sheet(), Qt::LeftButton, Qt::NoModifier, from.toPoint());
  const std::vector<KeyRef> grabbed = sheet().selectedKeys();
  ASSERT_FALSE(grabbed.empty());
  const QPointF to = from + QPointF(6.3 * axis.pixelsPerFrame(), 0.0);
  const int undoCount = document->undoStack()->count();
  for (int step = 1; step <= 30; ++step) {
    const QPointF at = from + (to - from) * (step / 30.0);
    QMouseEvent move(QEvent::MouseMove, at, sheet().mapToGlobal(at), Qt::NoButton, Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(&sheet(), &move);
  }
  QTest::mouseRelease(&sheet(), Qt::LeftButton, Qt::NoModifier, to.toPoint());

  ASSERT_EQ(document->undoStack()->count(), undoCount + 1) << "one History entry for the whole drag";
  const auto* command = dynamic_cast<const EditKeysCommand*>(document->undoStack()->command(undoCount));
  ASSERT_NE(command, nullptr);
  EXPECT_EQ(command->text(), QStringLiteral("Move Keys"));
  EXPECT_EQ(command->scope(), EditKeysCommand::Scope::Part) << "the drag swapped the dragged tracks, not the clip";
  // The keys moved by whole frames, about as many as the mouse (the press lands on a whole
  // pixel, a frame is about two).
  ASSERT_EQ(sheet().selectedKeys().size(), grabbed.size());
  const double offset = sheet().selectedKeys().front().time - grabbed.front().time;
  const double frames = offset * before.frameRate;
  EXPECT_NEAR(frames, 6.3, 1.0);
  EXPECT_NEAR(frames, std::round(frames), 1e-6);
  // Compared whole (the documents print a few megabytes): no dump on failure.
  const std::string dragged = test::serializeDocument(*document);
  EXPECT_TRUE(dragged != original);

  document->undoStack()->undo();
  EXPECT_TRUE(test::serializeDocument(*document) == original) << "undo restores the clip exactly";
  document->undoStack()->redo();
  EXPECT_TRUE(test::serializeDocument(*document) == dragged);
  document->undoStack()->undo();

  // The result is the whole-clip edit of the same keys by the same offset.
  document->undoStack()->push(new EditKeysCommand(document, document->currentClipIndex(),
                                                  movedKeys(before, grabbed, offset), QStringLiteral("Expected")));
  EXPECT_TRUE(test::serializeDocument(*document) == dragged);
}

// CMU 02_01 keys every joint on every frame (344 frames at 120 fps): with the whole take in
// view a key sits under every pixel of a row, as on any mocap take (QA drove CMU 01_01).
class DenseDopeSheetTest : public DopeSheetNavigationTest {
 protected:
  void SetUp() override {
    DopeSheetNavigationTest::SetUp();
    Result<Scene> take = importScene(test::dataPath("bvh/cmu-mb-2010/02_01.bvh"));
    ASSERT_TRUE(take) << take.error();
    window.openScene(std::move(take).value(), QStringLiteral("02_01"));
    forearm = document().scene().skeleton.findJoint("LeftForeArm");
    ASSERT_GE(forearm, 0);
    document().setSelectedJoints({forearm});
    const auto& rows = sheet().rows();
    const auto found = std::find_if(rows.begin(), rows.end(),
                                    [](const DopeSheet::Row& row) { return row.label == QStringLiteral("Rotation"); });
    ASSERT_NE(found, rows.end());
    rotationRow = static_cast<int>(found - rows.begin());
    ASSERT_EQ(found->channels.size(), 1u);
    rotation = found->channels.front();
  }

  Document& document() { return *window.document(); }
  // Centre of the rotation row at `frame` (a fraction falls between two keys' diamonds).
  QPointF onRotationRow(double frame) {
    const Clip& clip = *document().currentClip();
    return sheet().keyPosition(rotationRow, clip.startTime + frame / clip.frameRate);
  }
  void click(QPointF at, Qt::KeyboardModifiers modifiers = Qt::NoModifier) {
    QTest::mouseClick(&sheet(), Qt::LeftButton, modifiers, at.toPoint());
  }
  // The selected keys as frames of the rotation row (-1 for a key of another channel).
  std::vector<int> selectedFrames() {
    const Clip& clip = *document().currentClip();
    std::vector<int> frames;
    for (const KeyRef& key : sheet().selectedKeys()) {
      frames.push_back(
          key.channel == rotation ? static_cast<int>(std::lround((key.time - clip.startTime) * clip.frameRate)) : -1);
    }
    return frames;
  }
  static std::vector<int> frames(int first, int last) {
    std::vector<int> range;
    for (int frame = first; frame <= last; ++frame) range.push_back(frame);
    return range;
  }
  // The forearm's rotation keys, time and quaternion, flat.
  std::vector<double> rotationKeys() {
    std::vector<double> flat;
    for (const RotationKey& key : document().currentClip()->findTrack(forearm)->rotation.keys()) {
      flat.push_back(key.time);
      for (const float c : key.value.coeffs()) flat.push_back(c);
    }
    return flat;
  }

  int forearm = -1;
  int rotationRow = -1;
  KeyChannel rotation;
};

TEST_F(DenseDopeSheetTest, ADragFromAnUnselectedKeyBoxSelectsTheKeysItCrosses) {
  // Every pixel of the row between frames 40 and 60 is on a key: a drag can only start on one.
  for (double x = onRotationRow(40).x(); x <= onRotationRow(60).x(); x += 1.0)
    ASSERT_FALSE(sheet().keysAt({x, onRotationRow(40).y()}).empty()) << "pixel " << x;
  const std::vector<double> keysBefore = rotationKeys();
  const int undoCount = document().undoStack()->count();
  // From between frames 39 and 40 to between 60 and 61, across the row a little off its middle.
  drag(Qt::LeftButton, onRotationRow(39.5) + QPointF(0.0, 3.0), onRotationRow(60.5) - QPointF(0.0, 2.0));
  EXPECT_EQ(selectedFrames(), frames(40, 60));
  EXPECT_EQ(document().undoStack()->count(), undoCount) << "nothing moved";
  EXPECT_TRUE(rotationKeys() == keysBefore);

  // A Shift drag from an unselected key adds its box to the selection.
  drag(Qt::LeftButton, onRotationRow(99.5), onRotationRow(102.5), Qt::ShiftModifier);
  std::vector<int> expected = frames(40, 60);
  for (const int frame : frames(100, 102)) expected.push_back(frame);
  EXPECT_EQ(selectedFrames(), expected);
  EXPECT_EQ(document().undoStack()->count(), undoCount);
}

TEST_F(DenseDopeSheetTest, AClickSelectsAKeyAndADragOnASelectedKeyMovesTheSelection) {
  const Clip before = *document().currentClip();
  click(onRotationRow(50));
  EXPECT_EQ(selectedFrames(), std::vector<int>{50});
  drag(Qt::LeftButton, onRotationRow(39.5), onRotationRow(60.5));
  ASSERT_EQ(selectedFrames(), frames(40, 60));
  // A click without a drag on one of the selected keys selects it alone; Shift+click adds.
  click(onRotationRow(45));
  EXPECT_EQ(selectedFrames(), std::vector<int>{45});
  click(onRotationRow(47), Qt::ShiftModifier);
  ASSERT_EQ(selectedFrames(), (std::vector<int>{45, 47}));
  const int undoCount = document().undoStack()->count();

  // Grabbing a selected key moves every selected key, five frames here, as one step.
  drag(Qt::LeftButton, onRotationRow(47), onRotationRow(52.2));
  ASSERT_EQ(document().undoStack()->count(), undoCount + 1);
  EXPECT_EQ(document().undoStack()->command(undoCount)->text(), QStringLiteral("Move Keys"));
  EXPECT_EQ(selectedFrames(), (std::vector<int>{50, 52}));
  const RotationTrack& moved = document().currentClip()->findTrack(forearm)->rotation;
  const RotationTrack& original = before.findTrack(forearm)->rotation;
  EXPECT_TRUE(moved.evaluate(before.timeOf(50)).isApprox(original.evaluate(before.timeOf(45)), 1e-6f));
  EXPECT_TRUE(moved.evaluate(before.timeOf(52)).isApprox(original.evaluate(before.timeOf(47)), 1e-6f));
}

TEST_F(DenseDopeSheetTest, ALoneSelectedKeyIsDrawnOverItsNeighbours) {
  click(onRotationRow(200));
  ASSERT_EQ(selectedFrames(), std::vector<int>{200});
  const QImage image = sheet().grab().toImage();
  const QPoint centre = (onRotationRow(200) * image.devicePixelRatio()).toPoint();
  EXPECT_EQ(image.pixelColor(centre).name(), QColor(255, 170, 60).name()) << "the selected key's colour";
}

TEST_F(DenseDopeSheetTest, UndoAndRedoOfAKeyEditSelectTheKeysWhereTheyAre) {
  const std::vector<double> keysBefore = rotationKeys();
  drag(Qt::LeftButton, onRotationRow(39.5), onRotationRow(60.5));
  ASSERT_EQ(selectedFrames(), frames(40, 60));
  drag(Qt::LeftButton, onRotationRow(50), onRotationRow(55.2));
  ASSERT_EQ(selectedFrames(), frames(45, 65));
  const std::vector<double> keysMoved = rotationKeys();
  ASSERT_EQ(QApplication::focusWidget(), &sheet());

  // Ctrl+Z puts the keys back and selects them there, not on the frames they had moved to.
  press(Qt::Key_Z, Qt::ControlModifier);
  EXPECT_TRUE(rotationKeys() == keysBefore);
  EXPECT_EQ(selectedFrames(), frames(40, 60));
  press(Qt::Key_Z, Qt::ControlModifier | Qt::ShiftModifier);
  EXPECT_TRUE(rotationKeys() == keysMoved);
  EXPECT_EQ(selectedFrames(), frames(45, 65));

  // Deleted keys come back selected.
  press(Qt::Key_Delete);
  EXPECT_TRUE(selectedFrames().empty());
  press(Qt::Key_Z, Qt::ControlModifier);
  EXPECT_TRUE(rotationKeys() == keysMoved);
  EXPECT_EQ(selectedFrames(), frames(45, 65));
  // Back past both edits with the History's steps, then forward again.
  document().undoStack()->setIndex(document().undoStack()->index() - 1);
  EXPECT_EQ(selectedFrames(), frames(40, 60));
  document().undoStack()->setIndex(document().undoStack()->count());
  EXPECT_TRUE(selectedFrames().empty()) << "the delete redone";
}

// Every visible field and label of the Properties panel, for stale values.
struct PanelText {
  QStringList fields;
  QStringList labels;
};
PanelText panelText(const PropertiesDock& dock) {
  PanelText text;
  for (const QAbstractSpinBox* box : dock.findChildren<QAbstractSpinBox*>()) {
    if (box->isVisibleTo(&dock)) text.fields << box->text();
  }
  for (const QLabel* label : dock.findChildren<QLabel*>()) {
    if (label->isVisibleTo(&dock)) text.labels << label->text();
  }
  return text;
}

// What the Bake dialog shows of the last foot-skate cleanup when it opens (hidden: empty).
QString bakeDialogLastCleanup(MainWindow& window) {
  QString shown;
  QTimer::singleShot(0, &window, [&] {
    auto* dialog = window.findChild<BakeDialog*>();
    if (!dialog) return;
    if (dialog->lastCleanup()->isVisibleTo(dialog)) shown = dialog->lastCleanup()->text();
    dialog->reject();
  });
  window.findChild<QAction*>(QStringLiteral("actionBake"))->trigger();
  return shown;
}

// Not shown (see ExportAndBakeSayWhatTheyDidAndANewFileClearsIt).
TEST(ErgonomicsPanels, AnotherFileOrNoSelectionLeavesNoStaleValuesInThePanels) {
  MainWindow window;
  window.setUnsavedChangesPrompt([] { return MainWindow::UnsavedChoice::Discard; });
  ASSERT_TRUE(window.openFile(QString::fromStdString(test::dataPath("bvh/cmu-mb-2010/02_01.bvh"))));
  Document& document = *window.document();
  const PropertiesDock& properties = *window.propertiesDock();
  document.setFrame(30);
  document.setSelectedJoints({document.scene().skeleton.findJoint("LeftForeArm")});
  PanelText shown = panelText(properties);
  ASSERT_TRUE(shown.labels.contains(QStringLiteral("LeftForeArm")));
  ASSERT_FALSE(shown.fields.isEmpty());
  for (const QString& field : shown.fields) EXPECT_FALSE(field.isEmpty());
  ProjectBakeSettings settings;
  settings.firstFrame = 0;
  settings.lastFrame = 30;
  settings.detectContacts = true;
  ASSERT_TRUE(window.bake(settings));
  ASSERT_FALSE(bakeDialogLastCleanup(window).isEmpty()) << "the cleanup of this file is listed";

  ASSERT_TRUE(window.openFile(QString::fromStdString(test::dataPath("gltf/CesiumMan/CesiumMan.glb"))));
  shown = panelText(properties);
  EXPECT_FALSE(shown.labels.contains(QStringLiteral("LeftForeArm")));
  for (const QString& field : shown.fields) EXPECT_TRUE(field.isEmpty()) << field.toStdString();
  EXPECT_TRUE(bakeDialogLastCleanup(window).isEmpty()) << "no cleanup of the previous file";

  // A joint of the new file fills the fields; deselecting empties them again.
  const int joint = document.scene().skeleton.jointCount() / 2;
  document.setSelectedJoints({joint});
  shown = panelText(properties);
  EXPECT_TRUE(shown.labels.contains(QString::fromStdString(document.scene().skeleton.name(joint))));
  for (const QString& field : shown.fields) EXPECT_FALSE(field.isEmpty());
  document.setSelectedJoints({});
  shown = panelText(properties);
  EXPECT_FALSE(shown.labels.contains(QString::fromStdString(document.scene().skeleton.name(joint))));
  for (const QString& field : shown.fields) EXPECT_TRUE(field.isEmpty()) << field.toStdString();
}

// Hovering a menu item sends its status tip to the window (QMenu sends it to the widget the
// menu was opened from, here the menu bar): an empty one for nearly every item.
TEST(ErgonomicsFeedback, TheExportSummaryOutlastsHoveringTheMenus) {
  MainWindow window;
  window.openScene(makeMannequin(), QStringLiteral("Mannequin"));
  const QString path =
      QDir::temp().filePath(QStringLiteral("articula_ergonomics_tip_%1.glb").arg(QCoreApplication::applicationPid()));
  ASSERT_TRUE(window.exportGltfTo(path));
  QFile::remove(path);
  const QString summary = window.statusBar()->currentMessage();
  ASSERT_TRUE(summary.contains(QFileInfo(path).fileName())) << summary.toStdString();

  // Every item of every menu, as the pointer goes down them.
  for (QAction* title : window.menuBar()->actions()) {
    ASSERT_NE(title->menu(), nullptr);
    for (QAction* item : title->menu()->actions()) {
      item->showStatusText(window.menuBar());
      if (item->statusTip().isEmpty()) {
        EXPECT_EQ(window.statusBar()->currentMessage(), summary) << item->text().toStdString();
      }
    }
  }
  // A tip that says something is shown while its item is hovered; the summary comes back after.
  QAction tipped(QStringLiteral("Tipped"));
  tipped.setStatusTip(QStringLiteral("What this item does"));
  tipped.showStatusText(window.menuBar());
  EXPECT_EQ(window.statusBar()->currentMessage(), QStringLiteral("What this item does"));
  QAction plain(QStringLiteral("Plain"));
  plain.showStatusText(window.menuBar());
  EXPECT_EQ(window.statusBar()->currentMessage(), summary);

  // Only a new file ends it.
  window.openScene(makeMannequin(), QStringLiteral("Mannequin"));
  plain.showStatusText(window.menuBar());
  EXPECT_TRUE(window.statusBar()->currentMessage().isEmpty());
}

}  // namespace
}  // namespace articula::ui
