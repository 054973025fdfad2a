// Animation ▸ In Place and the clip list's seams (issue 41) as an animator meets them: on the
// current clip only, one undo step, a refusal in one line that changes nothing; Make Cyclic…
// has its own tests (make_cyclic_window_test.cpp).
#include <gtest/gtest.h>

#include <QAbstractItemModel>
#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QPushButton>
#include <QTimer>
#include <QUndoStack>

#include <cmath>

#include "core/clipops/loop.h"
#include "ui/dialogs/make_cyclic_dialog.h"
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

SeamScore seamOf(const Document& document) {
  const auto frame = travelFrameOf(document.scene().skeleton, *document.currentClip());
  EXPECT_TRUE(frame.has_value());
  const auto seam = seamScore(document.scene().skeleton, *document.currentClip(), *frame);
  EXPECT_TRUE(seam.ok()) << seam.error();
  return seam.ok() ? *seam : SeamScore{};
}

// The seam the clip list shows for clip `clip`: its popup's second column.
QString listedSeam(MainWindow& window, int clip) {
  auto* clips = window.findChild<QComboBox*>(QStringLiteral("clipSelector"));
  EXPECT_NE(clips, nullptr);
  return clips == nullptr ? QString() : clips->model()->index(clip, 1).data().toString();
}

// Each clip's seam as `articula-cli info --json` gives it (RobotExpressive Death: 2876.2 mm,
// 99.7°), in the clip list beside its name; Make Cyclic… and its undo refresh it.
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
  const int death = test::clipIndexNamed(document, "Death");
  EXPECT_EQ(listedSeam(window, death), QStringLiteral("seam 2876.2 mm, 99.7°"));

  document.setCurrentClip(death);
  trigger(window, "actionMakeCyclic");
  auto* dialog = window.findChild<MakeCyclicDialog*>();
  ASSERT_NE(dialog, nullptr);
  dialog->buttons()->button(QDialogButtonBox::Ok)->click();
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
