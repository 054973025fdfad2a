// Animation ▸ Retarget… through the real window: another humanoid's clips on the open
// character, one undo step, and bad sources refused without touching the document.
#include <gtest/gtest.h>

#include <QAction>
#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>
#include <QUndoStack>

#include <functional>

#include "core/io/import.h"
#include "core/retarget/retarget_clip.h"
#include "core/rig/humanoid_map.h"
#include "ui/dialogs/retarget_dialog.h"
#include "ui/document/document.h"
#include "ui/main_window.h"
#include "ui_test_support.h"

namespace articula::ui {
namespace {

TEST(RetargetWindow, ACmuWalkOnTheRobotIsOneUndoableNewClip) {
  MainWindow window;
  ASSERT_TRUE(window.openFile(QString::fromStdString(test::dataPath("gltf/RobotExpressive/RobotExpressive.glb"))));
  Document& document = *window.document();
  ASSERT_NE(window.findChild<QAction*>(QStringLiteral("actionRetarget")), nullptr) << "Animation ▸ Retarget…";
  const std::size_t clipsBefore = document.scene().clips.size();
  const std::string before = test::serializeDocument(document);
  const std::string walk = test::dataPath("bvh/cmu-mb-2010/02_01.bvh");

  ASSERT_TRUE(window.retargetFrom(QString::fromStdString(walk)));
  ASSERT_EQ(document.scene().clips.size(), clipsBefore + 1);
  const Clip& added = document.scene().clips.back();
  EXPECT_EQ(added.name, "02_01");
  EXPECT_EQ(document.currentClip(), &added) << "the new clip is shown";
  EXPECT_TRUE(window.statusBar()->currentMessage().contains(QStringLiteral("02_01.bvh")));

  // The clip is what the core gives for the same files.
  auto source = importScene(walk);
  ASSERT_TRUE(source.ok());
  auto robotMap = mapHumanoid(document.scene().skeleton);
  auto walkMap = mapHumanoid(source->skeleton);
  ASSERT_TRUE(robotMap && walkMap);
  RetargetClipOptions options;
  options.toleranceModel = kDefaultToleranceOfHeight * document.scene().characterHeight();
  auto expected = retargetClip(*source, *walkMap, source->clips.front(), document.scene(), *robotMap, options);
  ASSERT_TRUE(expected.ok()) << expected.error();
  EXPECT_EQ(channelKeyCount(added), channelKeyCount(*expected));
  EXPECT_DOUBLE_EQ(added.duration(), expected->duration());

  // A second retarget of the same file gets a name of its own; undo takes each away.
  ASSERT_TRUE(window.retargetFrom(QString::fromStdString(walk)));
  EXPECT_EQ(document.scene().clips.back().name, "02_01 2");
  document.undoStack()->undo();
  document.undoStack()->undo();
  EXPECT_EQ(test::serializeDocument(document), before);
}

TEST(RetargetWindow, ASourceThatIsNotAHumanoidIsRefusedAndChangesNothing) {
  MainWindow window;
  ASSERT_TRUE(window.openFile(QString::fromStdString(test::dataPath("gltf/RobotExpressive/RobotExpressive.glb"))));
  Document& document = *window.document();
  const std::string before = test::serializeDocument(document);
  const int steps = document.undoStack()->count();
  QSignalSpy failures(&window, &MainWindow::animationFailed);
  for (const char* file : {"gltf/RiggedSimple/RiggedSimple.glb", "gltf/BoxAnimated/BoxAnimated.glb",
                           "bvh/cmu-mb-2010/02_01_no_left_arm.bvh"}) {
    EXPECT_FALSE(window.retargetFrom(QString::fromStdString(test::dataPath(file)))) << file;
  }
  ASSERT_EQ(failures.size(), 3);
  EXPECT_TRUE(failures[0][0].toString().contains(QStringLiteral("RiggedSimple.glb: not a humanoid")))
      << failures[0][0].toString().toStdString();
  EXPECT_TRUE(failures[2][0].toString().contains(QStringLiteral("02_01_no_left_arm.bvh: not a humanoid: no left arm")))
      << failures[2][0].toString().toStdString();
  EXPECT_FALSE(window.retargetFrom(QStringLiteral("/nonexistent/walk.bvh")));
  ASSERT_EQ(failures.size(), 4);
  EXPECT_TRUE(failures[3][0].toString().contains(QStringLiteral("/nonexistent/walk.bvh")));
  EXPECT_EQ(document.undoStack()->count(), steps);
  EXPECT_EQ(test::serializeDocument(document), before);
}

// The open character has no skeleton (rigid parts moved by node animation): nothing can play
// a capture, the user is told why, the document stays as it was.
TEST(RetargetWindow, ACharacterWithoutASkeletonRefusesAndChangesNothing) {
  MainWindow window;
  ASSERT_TRUE(window.openFile(QString::fromStdString(test::dataPath("gltf/KenneyPlatformerCharacter/character.glb"))));
  Document& document = *window.document();
  const std::string before = test::serializeDocument(document);
  const int steps = document.undoStack()->count();
  QSignalSpy failures(&window, &MainWindow::animationFailed);
  EXPECT_FALSE(window.retargetFrom(QString::fromStdString(test::dataPath("bvh/cmu-mb-2010/02_01.bvh"))));
  ASSERT_EQ(failures.size(), 1);
  EXPECT_TRUE(failures[0][0].toString().contains(QStringLiteral("not a humanoid")))
      << failures[0][0].toString().toStdString();
  EXPECT_EQ(document.undoStack()->count(), steps);
  EXPECT_EQ(test::serializeDocument(document), before);
}

// The dialog's choices reach the clip: planted feet, the character's frame rate (the robot's
// clips are 24 fps, the capture 120), and a faulty source role map refused, naming the file.
TEST(RetargetWindow, TheDialogsChoicesShapeTheNewClip) {
  MainWindow window;
  ASSERT_TRUE(window.openFile(QString::fromStdString(test::dataPath("gltf/RobotExpressive/RobotExpressive.glb"))));
  Document& document = *window.document();
  const double robotRate = document.scene().clips.front().frameRate;
  RetargetDialog dialog(robotRate, &window);
  dialog.sourceEdit()->setText(QString::fromStdString(test::dataPath("bvh/cmu-mb-2010/02_01.bvh")));
  EXPECT_TRUE(dialog.plantFeetBox()->isChecked()) << "feet planted unless the user says otherwise";
  dialog.rateBox()->setCurrentIndex(1);
  const RetargetRequest request = dialog.request();
  EXPECT_DOUBLE_EQ(request.frameRate, robotRate);
  EXPECT_TRUE(request.sourceMap.isEmpty());
  // The next dialog of the session starts from these choices.
  RetargetDialog next(robotRate, &window);
  next.setRequest(request);
  EXPECT_EQ(next.request().source, request.source);
  EXPECT_DOUBLE_EQ(next.request().frameRate, robotRate);
  EXPECT_EQ(next.rateBox()->currentIndex(), 1) << "the character's rate, not a custom one";

  ASSERT_TRUE(window.retargetFrom(request));
  const Clip& added = document.scene().clips.back();
  EXPECT_DOUBLE_EQ(added.frameRate, robotRate);
  // 02_01's 344 frames at 120 fps, less its T-pose first frame, which the dialog leaves out.
  ASSERT_TRUE(request.skipRestFrame);
  EXPECT_NEAR(added.duration(), 342 / 120.0, 0.5 / robotRate) << "as long as the capture";
  EXPECT_TRUE(added.curves.count("contact.left_foot")) << "feet planted: the stride curves came with it";

  QTemporaryDir dir;
  QFile map(dir.filePath(QStringLiteral("walk_roles.json")));
  ASSERT_TRUE(map.open(QIODevice::WriteOnly));
  map.write(R"({"hips": "Pelvis"})");
  map.close();
  RetargetRequest faulty = request;
  faulty.sourceMap = map.fileName();
  const std::string before = test::serializeDocument(document);
  QSignalSpy failures(&window, &MainWindow::animationFailed);
  EXPECT_FALSE(window.retargetFrom(faulty));
  ASSERT_EQ(failures.size(), 1);
  EXPECT_TRUE(failures[0][0].toString().contains(QStringLiteral("walk_roles.json': role 'hips': no joint named 'Pelvis'")))
      << failures[0][0].toString().toStdString();
  EXPECT_EQ(test::serializeDocument(document), before);
}

// Animation ▸ Retarget… as the animator opens it: `use` runs on the dialog while it is shown
// (and may close it); the dialog is cancelled after that if it is still open.
void useRetargetDialog(MainWindow& window, const std::function<void(RetargetDialog&)>& use) {
  QAction* retarget = window.findChild<QAction*>(QStringLiteral("actionRetarget"));
  EXPECT_TRUE(test::useDialog<RetargetDialog>(window, [retarget] { retarget->trigger(); }, use)) << "the dialog opened";
}

// A refused source leaves the dialog open with the reason in it and every choice as it was;
// the open work is untouched. The next source, fixed in the same dialog, is one undo step
// and closes it.
TEST(RetargetWindow, ARefusalStaysInTheDialogWithTheChoices) {
  MainWindow window;
  ASSERT_TRUE(window.openFile(QString::fromStdString(test::dataPath("gltf/RobotExpressive/RobotExpressive.glb"))));
  Document& document = *window.document();
  const std::string before = test::serializeDocument(document);
  const int steps = document.undoStack()->count();
  const QString oneArmed = QString::fromStdString(test::dataPath("bvh/cmu-mb-2010/02_01_no_left_arm.bvh"));
  useRetargetDialog(window, [&](RetargetDialog& dialog) {
    EXPECT_FALSE(dialog.refusalLabel()->isVisibleTo(&dialog)) << "nothing refused yet";
    dialog.sourceEdit()->setText(oneArmed);
    dialog.plantFeetBox()->setChecked(false);
    dialog.handsReachBox()->setChecked(true);
    dialog.rateBox()->setCurrentIndex(dialog.rateBox()->count() - 1);  // custom
    dialog.rateSpin()->setValue(30.0);
    dialog.retargetButton()->click();

    ASSERT_TRUE(dialog.isVisible()) << "refused: the dialog stays";
    EXPECT_TRUE(dialog.refusalLabel()->isVisibleTo(&dialog));
    EXPECT_TRUE(
        dialog.refusalLabel()->text().contains(QStringLiteral("02_01_no_left_arm.bvh: not a humanoid: no left arm")))
        << dialog.refusalLabel()->text().toStdString();
    EXPECT_FALSE(dialog.refusalLabel()->text().contains(QLatin1Char('\n')));
    // The dialog made room for the wrapped reason: neither it nor the fields are squeezed.
    QLabel& refusal = *dialog.refusalLabel();
    EXPECT_GE(refusal.height(), refusal.heightForWidth(refusal.width()));
    EXPECT_GE(dialog.sourceEdit()->height(), dialog.sourceEdit()->minimumSizeHint().height());
    EXPECT_EQ(dialog.sourceEdit()->text(), oneArmed);
    EXPECT_FALSE(dialog.plantFeetBox()->isChecked());
    EXPECT_TRUE(dialog.handsReachBox()->isChecked());
    EXPECT_DOUBLE_EQ(dialog.request().frameRate, 30.0);
    EXPECT_EQ(document.undoStack()->count(), steps);
    EXPECT_EQ(test::serializeDocument(document), before);

    // Typing another source takes the stale reason away; that one is retargeted.
    dialog.sourceEdit()->selectAll();
    QTest::keyClicks(dialog.sourceEdit(), QString::fromStdString(test::dataPath("bvh/cmu-mb-2010/02_01.bvh")));
    EXPECT_FALSE(dialog.refusalLabel()->isVisibleTo(&dialog));
    dialog.retargetButton()->click();
    EXPECT_FALSE(dialog.isVisible()) << "done: the dialog closes";
    EXPECT_EQ(dialog.result(), QDialog::Accepted);
  });
  EXPECT_EQ(document.undoStack()->count(), steps + 1) << "one undo step, for the retarget that was done";
  EXPECT_EQ(document.scene().clips.back().name, "02_01");
  EXPECT_DOUBLE_EQ(document.scene().clips.back().frameRate, 30.0);
  document.undoStack()->undo();
  EXPECT_EQ(test::serializeDocument(document), before);
}

// A CMU capture's calibration T-pose is not the new clip's first frame unless the user
// keeps it; the status line says when it was left out.
TEST(RetargetWindow, ACapturesTPoseFirstFrameIsLeftOutUnlessKept) {
  MainWindow window;
  ASSERT_TRUE(window.openFile(QString::fromStdString(test::dataPath("gltf/RobotExpressive/RobotExpressive.glb"))));
  Document& document = *window.document();
  const std::string walk = test::dataPath("bvh/cmu-mb-2010/02_01.bvh");
  auto source = importScene(walk);
  ASSERT_TRUE(source.ok());
  const Clip& take = source->clips.front();
  bool firstOpening = true;
  auto retargetThroughTheDialog = [&](const std::string& file, bool leaveOutTPose) {
    useRetargetDialog(window, [&](RetargetDialog& dialog) {
      if (firstOpening) {
        EXPECT_TRUE(dialog.skipRestFrameBox()->isChecked()) << "left out unless the user keeps it";
        firstOpening = false;
      }
      dialog.sourceEdit()->setText(QString::fromStdString(file));
      dialog.plantFeetBox()->setChecked(false);
      dialog.skipRestFrameBox()->setChecked(leaveOutTPose);
      dialog.retargetButton()->click();
      EXPECT_FALSE(dialog.isVisible());
    });
  };

  retargetThroughTheDialog(walk, true);
  const Clip withoutTPose = document.scene().clips.back();
  EXPECT_NEAR(withoutTPose.duration(), take.duration() - 1.0 / take.frameRate, 1e-9);
  EXPECT_TRUE(window.statusBar()->currentMessage().contains(QStringLiteral("without its T-pose first frame")))
      << window.statusBar()->currentMessage().toStdString();
  auto robotMap = mapHumanoid(document.scene().skeleton);
  auto walkMap = mapHumanoid(source->skeleton);
  ASSERT_TRUE(robotMap && walkMap);
  RetargetClipOptions options;
  options.toleranceModel = kDefaultToleranceOfHeight * document.scene().characterHeight();
  options.skipFirstFrame = true;
  auto expected = retargetClip(*source, *walkMap, take, document.scene(), *robotMap, options);
  ASSERT_TRUE(expected.ok()) << expected.error();
  EXPECT_EQ(channelKeyCount(withoutTPose), channelKeyCount(*expected)) << "the core's clip without its first frame";

  retargetThroughTheDialog(walk, false);
  EXPECT_DOUBLE_EQ(document.scene().clips.back().duration(), take.duration()) << "kept: every frame";
  EXPECT_FALSE(window.statusBar()->currentMessage().contains(QStringLiteral("T-pose")));

  // A take that does not start on its rest pose keeps every frame with the box checked.
  const std::string makeHuman = test::dataPath("bvh/makehuman/walk1.bvh");
  retargetThroughTheDialog(makeHuman, true);
  auto makeHumanWalk = importScene(makeHuman);
  ASSERT_TRUE(makeHumanWalk.ok());
  EXPECT_DOUBLE_EQ(document.scene().clips.back().duration(), makeHumanWalk->clips.front().duration());
  EXPECT_FALSE(window.statusBar()->currentMessage().contains(QStringLiteral("T-pose")));
}

// The open character cannot play a capture (no skeleton): the dialog says so and stays.
TEST(RetargetWindow, ACharacterWithoutASkeletonIsRefusedInTheDialog) {
  MainWindow window;
  ASSERT_TRUE(window.openFile(QString::fromStdString(test::dataPath("gltf/KenneyPlatformerCharacter/character.glb"))));
  Document& document = *window.document();
  const std::string before = test::serializeDocument(document);
  useRetargetDialog(window, [&](RetargetDialog& dialog) {
    dialog.sourceEdit()->setText(QString::fromStdString(test::dataPath("bvh/cmu-mb-2010/02_01.bvh")));
    dialog.retargetButton()->click();
    EXPECT_TRUE(dialog.isVisible());
    EXPECT_TRUE(dialog.refusalLabel()->text().contains(QStringLiteral("the open character is not a humanoid")))
        << dialog.refusalLabel()->text().toStdString();
  });
  EXPECT_EQ(document.undoStack()->count(), 0);
  EXPECT_EQ(test::serializeDocument(document), before);
}

// Issue 35: "the character's rate" chosen for one character is the next character's own rate
// when the dialog opens for it, not the last one's number as "Custom".
TEST(RetargetWindow, TheCharactersRateFollowsTheOpenCharacter) {
  RetargetDialog first(24.0);
  first.rateBox()->setCurrentIndex(1);  // the character's
  const RetargetRequest request = first.request();
  ASSERT_DOUBLE_EQ(request.frameRate, 24.0);
  RetargetDialog next(30.0);
  next.setRequest(request);
  EXPECT_EQ(next.rateBox()->currentIndex(), 1);
  EXPECT_DOUBLE_EQ(next.request().frameRate, 30.0);

  RetargetDialog custom(24.0);
  custom.rateBox()->setCurrentIndex(2);  // custom
  RetargetRequest fifty;
  fifty.frameRate = 50.0;
  custom.setRequest(fifty);
  EXPECT_EQ(custom.rateBox()->currentIndex(), 2) << "a custom rate stays custom";
  EXPECT_DOUBLE_EQ(custom.request().frameRate, 50.0);
}

}  // namespace
}  // namespace articula::ui
