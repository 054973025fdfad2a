// Animation ▸ Make Loop and Animation ▸ In Place (issue 41) as an animator runs them: on the
// current clip only, one undo step each, a refusal in one line that changes nothing.
#include <gtest/gtest.h>

#include <QAbstractItemModel>
#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QMessageBox>
#include <QTimer>
#include <QUndoStack>

#include <cmath>

#include "core/clipops/loop.h"
#include "ui/commands/clip_list_command.h"
#include "ui/document/document.h"
#include "ui/main_window.h"
#include "ui_test_support.h"

namespace articula::ui {
namespace {

void trigger(MainWindow& window, const char* action) {
  QAction* found = window.findChild<QAction*>(QLatin1String(action));
  ASSERT_NE(found, nullptr) << action;
  found->trigger();
}

int clipNamed(const Document& document, const std::string& name) {
  const auto& clips = document.scene().clips;
  for (std::size_t i = 0; i < clips.size(); ++i) {
    if (clips[i].name == name) return static_cast<int>(i);
  }
  return -1;
}

SeamScore seamOf(const Document& document) {
  const auto frame = travelFrameOf(document.scene().skeleton, *document.currentClip());
  EXPECT_TRUE(frame.has_value());
  const auto seam = seamScore(document.scene().skeleton, *document.currentClip(), *frame);
  EXPECT_TRUE(seam.ok()) << seam.error();
  return seam.ok() ? *seam : SeamScore{};
}

// The robot's Death ends lying down: looped, its last frame comes back to its first pose
// (as `articula-cli loop` makes it: 99.7° → 0°, the ground travel kept for the next cycle),
// and the other thirteen clips keep every key.
TEST(ClipOperationsWindow, MakeLoopClosesTheCurrentClipsSeamAndNoOtherClip) {
  MainWindow window;
  ASSERT_TRUE(window.openFile(QString::fromStdString(test::dataPath("gltf/RobotExpressive/RobotExpressive.glb"))));
  Document& document = *window.document();
  const int death = clipNamed(document, "Death");
  ASSERT_GE(death, 0);
  document.setCurrentClip(death);
  const std::string before = test::serializeDocument(document);
  const std::vector<Clip> clipsBefore = document.scene().clips;
  const SeamScore seamBefore = seamOf(document);
  const int steps = document.undoStack()->count();

  trigger(window, "actionMakeLoop");
  EXPECT_EQ(document.undoStack()->count(), steps + 1);
  EXPECT_EQ(document.undoStack()->undoText(), QStringLiteral("Make Loop"));
  const SeamScore seamAfter = seamOf(document);
  EXPECT_GT(seamBefore.rotationDeg, 90.0) << "Death ends lying down";
  EXPECT_LT(seamAfter.rotationDeg, 0.01) << "the loop's end repeats its start";
  EXPECT_LT(seamAfter.poseMm, seamAfter.travelMm + 1.0) << "apart from the travel, kept for the next cycle";
  for (std::size_t c = 0; c < clipsBefore.size(); ++c) {
    if (static_cast<int>(c) == death) continue;
    const Clip& now = document.scene().clips[c];
    ASSERT_EQ(now.tracks.size(), clipsBefore[c].tracks.size()) << now.name;
    for (std::size_t t = 0; t < now.tracks.size(); ++t) {
      const JointTrack& was = clipsBefore[c].tracks[t];
      EXPECT_EQ(now.tracks[t].rotation.keys().size(), was.rotation.keys().size()) << now.name;
      for (double time : {now.startTime, 0.5 * (now.startTime + now.endTime), now.endTime}) {
        EXPECT_EQ(now.tracks[t].translation.evaluate(time, Vec3::Zero()), was.translation.evaluate(time, Vec3::Zero()))
            << now.name;
      }
    }
  }
  document.undoStack()->undo();
  EXPECT_EQ(test::serializeDocument(document), before);
}

// The seam the clip list shows for clip `clip`: its popup's second column.
QString listedSeam(MainWindow& window, int clip) {
  auto* clips = window.findChild<QComboBox*>(QStringLiteral("clipSelector"));
  EXPECT_NE(clips, nullptr);
  return clips == nullptr ? QString() : clips->model()->index(clip, 1).data().toString();
}

// Each clip's seam as `articula-cli info --json` gives it (RobotExpressive Death: 2876.2 mm,
// 99.7°), in the clip list beside its name; Make Loop and its undo refresh it.
TEST(ClipOperationsWindow, ClipListShowsEachClipsSeamRefreshedAfterEdits) {
  MainWindow window;
  ASSERT_TRUE(window.openFile(QString::fromStdString(test::dataPath("gltf/RobotExpressive/RobotExpressive.glb"))));
  Document& document = *window.document();
  const auto seamText = [&](int clip) {
    document.setCurrentClip(clip);
    const SeamScore seam = seamOf(document);
    return QStringLiteral("seam %1 mm, %2°").arg(seam.poseMm, 0, 'f', 1).arg(seam.rotationDeg, 0, 'f', 1);
  };
  const int clipCount = static_cast<int>(document.scene().clips.size());
  ASSERT_EQ(clipCount, 14);
  for (int c = 0; c < clipCount; ++c) EXPECT_EQ(listedSeam(window, c), seamText(c)) << document.scene().clips[c].name;
  const int death = clipNamed(document, "Death");
  EXPECT_EQ(listedSeam(window, death), QStringLiteral("seam 2876.2 mm, 99.7°"));

  document.setCurrentClip(death);
  trigger(window, "actionMakeLoop");
  EXPECT_EQ(listedSeam(window, death), seamText(death));
  EXPECT_TRUE(listedSeam(window, death).endsWith(QStringLiteral(", 0.0°"))) << listedSeam(window, death).toStdString();
  document.undoStack()->undo();
  EXPECT_EQ(listedSeam(window, death), QStringLiteral("seam 2876.2 mm, 99.7°"));
}

// CMU 02_01 walks 3.7 m forward; in place, the hips end where they began on the ground.
TEST(ClipOperationsWindow, InPlaceTakesTheWalksTravelOut) {
  MainWindow window;
  ASSERT_TRUE(window.openFile(QString::fromStdString(test::dataPath("bvh/cmu-mb-2010/02_01.bvh"))));
  Document& document = *window.document();
  const int hips = document.scene().skeleton.findJoint("Hips");
  ASSERT_GE(hips, 0);
  const auto groundTravel = [&] {
    document.setFrame(1);
    const Vec3 first = document.modelPose()[static_cast<std::size_t>(hips)].translation();
    document.setFrame(document.frameCount() - 1);
    const Vec3 last = document.modelPose()[static_cast<std::size_t>(hips)].translation();
    const Vec3 step = last - first;
    return std::hypot(step.x(), step.z());  // CMU is Y up
  };
  const float travelBefore = groundTravel();
  const std::string before = test::serializeDocument(document);

  trigger(window, "actionInPlace");
  EXPECT_EQ(document.undoStack()->undoText(), QStringLiteral("In Place"));
  EXPECT_GT(travelBefore, 20.0f) << "inches";
  EXPECT_LT(groundTravel(), 0.01f * travelBefore);
  document.undoStack()->undo();
  EXPECT_EQ(test::serializeDocument(document), before);
}

// A new clip has no joint keys: Make Loop says so and changes nothing (it keyed every frame
// at rest and called the result a seamless loop).
TEST(ClipOperationsWindow, MakeLoopOnAClipWithoutKeysIsRefusedInOneLine) {
  MainWindow window;
  ASSERT_TRUE(window.openFile(QString::fromStdString(test::dataPath("bvh/cmu-mb-2010/02_01.bvh"))));
  Document& document = *window.document();
  Clip empty = document.scene().clips.front();
  empty.tracks.clear();
  document.undoStack()->push(
      ClipListCommand::insertAfter(&document, 0, std::move(empty), "new", QStringLiteral("New Clip")));
  const std::string before = test::serializeDocument(document);
  const int steps = document.undoStack()->count();
  QString said;
  QTimer::singleShot(0, &window, [&said] {
    if (auto* box = qobject_cast<QMessageBox*>(QApplication::activeModalWidget())) {
      said = box->text();
      box->close();
    }
  });
  trigger(window, "actionMakeLoop");
  EXPECT_TRUE(said.contains(QStringLiteral("no joint keys"))) << said.toStdString();
  EXPECT_EQ(document.undoStack()->count(), steps);
  EXPECT_EQ(test::serializeDocument(document), before);
}

// A box is no humanoid: In Place says so and changes nothing.
TEST(ClipOperationsWindow, InPlaceOnAClipWithoutAHumanoidIsRefusedInOneLine) {
  MainWindow window;
  ASSERT_TRUE(window.openFile(QString::fromStdString(test::dataPath("gltf/BoxAnimated/BoxAnimated.glb"))));
  Document& document = *window.document();
  const std::string before = test::serializeDocument(document);
  const int steps = document.undoStack()->count();
  bool warned = false;
  // The refusal is a message box: closed as soon as it shows.
  QTimer::singleShot(0, &window, [&warned] {
    if (QWidget* box = QApplication::activeModalWidget()) {
      warned = true;
      box->close();
    }
  });
  trigger(window, "actionInPlace");
  EXPECT_TRUE(warned);
  EXPECT_EQ(document.undoStack()->count(), steps);
  EXPECT_EQ(test::serializeDocument(document), before);
}

}  // namespace
}  // namespace articula::ui
