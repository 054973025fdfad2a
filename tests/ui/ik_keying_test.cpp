// Animating with IK handles through the real window (offscreen), as an animator does: build
// the humanoid rig, drag the hand's target, Key Pose (S), turn the rig off — the same pose
// shows; animated targets are curves the rig follows from frame to frame; Auto Key keys a
// handle drag.
#include <gtest/gtest.h>

#include <QAction>
#include <QApplication>
#include <QDir>
#include <QFile>
#include <QUndoStack>

#include <algorithm>
#include <vector>

#include "core/io/import.h"
#include "core/samples/mannequin.h"
#include "core/skeleton/local_to_model.h"
#include "ui/commands/handle_commands.h"
#include "ui/curves/curve_view.h"
#include "ui/docks/curve_editor_dock.h"
#include "ui/docks/rig_dock.h"
#include "ui/docks/timeline_dock.h"
#include "ui/document/document.h"
#include "ui/document/project_session.h"
#include "ui/main_window.h"
#include "ui/timeline/auto_key.h"
#include "ui/timeline/dope_sheet.h"
#include "ui/timeline/timeline_widget.h"
#include "ui_test_support.h"

namespace articula::ui {
namespace {

class IkKeyingTest : public ::testing::Test {
 protected:
  void SetUp() override {
    window.openScene(makeMannequin(), QStringLiteral("Mannequin"));
    document = window.document();
    height = document->scene().characterHeight();
    ASSERT_GT(height, 0.0f);
    window.rigDock()->buildHumanoidAction()->trigger();
    ASSERT_NE(document->boundRig(), nullptr) << document->rigError().toStdString();
    leftArm = document->boundRig()->findHandle("left_arm");
    ASSERT_GE(leftArm, 0);
    leftHand = document->activeRig()->handles[static_cast<std::size_t>(leftArm)].chain.back();
  }

  QAction* action(const char* name) const {
    auto* found = window.findChild<QAction*>(QLatin1String(name));
    EXPECT_NE(found, nullptr) << name;
    return found;
  }

  Vec3 handModel() const { return document->modelPose()[static_cast<std::size_t>(leftHand)].translation(); }

  // Drags the left hand's target by `offsetModel` from where the rig shows it, as the
  // viewport does: one mergeable command per mouse move.
  void dragHandTarget(const Vec3& offsetModel) {
    const Vec3 start = document->boundRig()->reports()[static_cast<std::size_t>(leftArm)].targetModel;
    constexpr int kMoves = 4;
    for (int move = 1; move <= kMoves; ++move) {
      auto* command = new MoveHandleCommand(document, leftArm, MoveHandleCommand::Part::Target,
                                            Vec3(start + offsetModel * (static_cast<float>(move) / kMoves)));
      command->setMergeable(move > 1);
      document->undoStack()->push(command);
    }
  }

  // Largest distance between the joints of two model-space poses.
  static float poseDistance(const std::vector<Affine>& a, std::span<const Affine> b) {
    float largest = 0.0f;
    for (std::size_t i = 0; i < a.size() && i < b.size(); ++i)
      largest = std::max(largest, (a[i].translation() - b[i].translation()).norm());
    return largest;
  }

  static std::vector<Affine> copy(std::span<const Affine> pose) { return {pose.begin(), pose.end()}; }

  double targetCurveAt(const char* channel, double time) const {
    const auto found = document->currentClip()->curves.find(handleCurveName("left_arm", channel));
    EXPECT_NE(found, document->currentClip()->curves.end()) << channel;
    return found == document->currentClip()->curves.end() ? 0.0 : found->second.evaluate(time);
  }

  MainWindow window;
  Document* document = nullptr;
  float height = 0.0f;
  int leftArm = -1, leftHand = -1;
};

// Issue 25's sequence: drag the hand target with nothing selected, S, rig off: same pose.
TEST_F(IkKeyingTest, KeyPoseKeysThePoseTheRigShowsSoTurningTheRigOffKeepsIt) {
  document->setFrame(12);
  const Vec3 offsetModel(0.1f * height, 0.25f * height, 0.15f * height);
  const Vec3 handBefore = handModel();
  dragHandTarget(offsetModel);
  ASSERT_GT((handModel() - handBefore).norm(), 0.1f * height) << "the rig follows the drag";
  const std::vector<Affine> shown = copy(document->modelPose());
  const std::string dragged = test::serializeDocument(*document);

  QAction* keyPose = action("actionKeyPose");
  ASSERT_TRUE(keyPose->isEnabled()) << "the rig moved joints: there is a pose to key";
  const int commands = document->undoStack()->count();
  keyPose->trigger();
  EXPECT_EQ(document->undoStack()->count(), commands + 1) << "one undo step";
  // The arm stays; the feet are re-planted by grounding from the keyed pose (a solve on
  // its own result moves them by a few millimetres), which the rig-off check below does not
  // see: there the keys alone pose the character.
  for (int joint : document->activeRig()->handles[static_cast<std::size_t>(leftArm)].chain) {
    const auto index = static_cast<std::size_t>(joint);
    EXPECT_LE((document->modelPose()[index].translation() - shown[index].translation()).norm(), 1e-4f * height)
        << "keying leaves the arm: " << document->scene().skeleton.name(joint);
  }

  window.rigDock()->enableRigAction()->trigger();
  ASSERT_FALSE(document->rigEnabled());
  EXPECT_LE(poseDistance(shown, document->modelPose()), 1e-4f * height) << "the FK keys hold the shown pose";

  document->undoStack()->undo();  // rig on
  document->undoStack()->undo();  // the key
  EXPECT_EQ(test::serializeDocument(*document), dragged);
}

// With the handle selected, S also keys its target and weight (pole: the arm has none), and
// the arm keyed with the upper arm alone selected still matches (issue 25: the forearm
// snapped straight).
TEST_F(IkKeyingTest, KeyPoseWithTheHandleSelectedKeysItsTargetAndChain) {
  document->setFrame(6);
  document->setSelectedJoints({document->activeRig()->handles[static_cast<std::size_t>(leftArm)].chain.front()});
  document->setSelectedHandle(leftArm);
  dragHandTarget(Vec3(0.0f, 0.2f * height, 0.2f * height));
  const Vec3 targetModel = document->boundRig()->reports()[static_cast<std::size_t>(leftArm)].targetModel;
  const std::vector<Affine> shown = copy(document->modelPose());
  action("actionKeyPose")->trigger();
  const double time = document->time();
  EXPECT_NEAR(targetCurveAt("target.x", time), targetModel.x(), 1e-5);
  EXPECT_NEAR(targetCurveAt("target.y", time), targetModel.y(), 1e-5);
  EXPECT_NEAR(targetCurveAt("target.z", time), targetModel.z(), 1e-5);
  EXPECT_NEAR(targetCurveAt("weight", time), 1.0, 1e-6);
  EXPECT_TRUE(document->handlePoses().empty()) << "the keyed target is animation now";
  for (int joint : document->activeRig()->handles[static_cast<std::size_t>(leftArm)].chain) {
    const JointTrack* track = document->currentClip()->findTrack(joint);
    ASSERT_NE(track, nullptr) << document->scene().skeleton.name(joint);
    EXPECT_FALSE(track->rotation.empty()) << document->scene().skeleton.name(joint);
  }
  window.rigDock()->enableRigAction()->trigger();
  EXPECT_LE(poseDistance(shown, document->modelPose()), 1e-4f * height);

  // The keyed channels are the handle's rows in the dope sheet and curves in the curve
  // editor while it is selected, and leave both views when it is not.
  const QString targetX = QString::fromStdString(handleCurveName("left_arm", "target.x"));
  const CurveView* curves = window.curveEditorDock()->curveView();
  EXPECT_NE(curves->findEntry(targetX), nullptr);
  const DopeSheet* dopeSheet = window.timelineDock()->timeline()->dopeSheet();
  auto hasRow = [&](const QString& label) {
    return std::any_of(dopeSheet->rows().begin(), dopeSheet->rows().end(),
                       [&](const DopeSheet::Row& row) { return row.label == label; });
  };
  EXPECT_TRUE(hasRow(QStringLiteral("target.x")));
  document->setSelectedHandle(-1);
  EXPECT_EQ(curves->findEntry(targetX), nullptr);
  EXPECT_FALSE(hasRow(QStringLiteral("target.x")));
}

// An animated target: keyed high at frame 0 and low at frame 20, the rig follows the curve
// in between; dragging it at a keyed frame shows the drag (the handle is posed) until the
// time moves.
TEST_F(IkKeyingTest, AKeyedTargetAnimatesTheArmAndCanBeDraggedAgain) {
  document->setSelectedHandle(leftArm);
  document->setFrame(0);
  dragHandTarget(Vec3(0.0f, 0.3f * height, 0.1f * height));
  action("actionKeyPose")->trigger();
  const Vec3 highModel = handModel();
  document->setFrame(20);
  dragHandTarget(Vec3(0.0f, -0.1f * height, 0.25f * height));
  action("actionKeyPose")->trigger();
  const Vec3 lowModel = handModel();
  ASSERT_GT((highModel - lowModel).norm(), 0.1f * height);

  document->setFrame(0);
  EXPECT_LE((handModel() - highModel).norm(), 1e-3f * height) << "playback follows the target curves";
  document->setFrame(10);
  const Vec3 midModel = handModel();
  EXPECT_GT((midModel - highModel).norm(), 0.05f * height);
  EXPECT_GT((midModel - lowModel).norm(), 0.05f * height);

  // A drag over the curves shows at once; moving the time goes back to the curves.
  const Vec3 before = handModel();
  dragHandTarget(Vec3(0.15f * height, 0.0f, 0.0f));
  EXPECT_EQ(document->handlePoses().count(leftArm), 1u);
  EXPECT_GT((handModel() - before).norm(), 0.1f * height);
  document->undoStack()->undo();
  EXPECT_TRUE(document->handlePoses().empty());
  EXPECT_LE((handModel() - before).norm(), 1e-3f * height) << "undo puts the curves' target back";
  dragHandTarget(Vec3(0.15f * height, 0.0f, 0.0f));
  document->setFrame(11);
  document->setFrame(10);
  EXPECT_LE((handModel() - before).norm(), 1e-3f * height) << "an unkeyed drag is dropped with the time";
}

// QA P3: the drag and its key are one undo step; one Ctrl+Z takes back both.
TEST_F(IkKeyingTest, AutoKeyKeysAHandleDragInTheDragsUndoStep) {
  document->setFrame(8);
  AutoKey* autoKey = window.timelineDock()->timeline()->autoKey();
  window.timelineDock()->timeline()->autoKeyAction()->setChecked(true);
  ASSERT_TRUE(autoKey->isEnabled());
  const std::string original = test::serializeDocument(*document);
  const std::vector<Affine> before = copy(document->modelPose());
  const int commands = document->undoStack()->count();
  dragHandTarget(Vec3(0.0f, 0.2f * height, 0.2f * height));
  const std::vector<Affine> shown = copy(document->modelPose());
  const Vec3 targetModel = document->boundRig()->reports()[static_cast<std::size_t>(leftArm)].targetModel;
  QApplication::processEvents();
  ASSERT_EQ(document->undoStack()->count(), commands + 1) << "the drag and its key, one step";
  EXPECT_NEAR(targetCurveAt("target.y", document->time()), targetModel.y(), 1e-5);
  const std::string keyed = test::serializeDocument(*document);
  document->undoStack()->undo();
  EXPECT_EQ(test::serializeDocument(*document), original) << "one Ctrl+Z: no key and no offset";
  EXPECT_LE(poseDistance(before, document->modelPose()), 1e-6f * height);
  document->undoStack()->redo();
  EXPECT_EQ(test::serializeDocument(*document), keyed);
  window.timelineDock()->timeline()->autoKeyAction()->setChecked(false);
  window.rigDock()->enableRigAction()->trigger();
  EXPECT_LE(poseDistance(shown, document->modelPose()), 1e-4f * height);
}

// Export bakes the rig's result: the file's FK clip puts the hand where the editor shows it.
TEST_F(IkKeyingTest, ExportHoldsThePoseTheRigShows) {
  document->setSelectedHandle(leftArm);
  document->setFrame(9);
  dragHandTarget(Vec3(0.0f, 0.3f * height, 0.1f * height));
  action("actionKeyPose")->trigger();
  document->setFrame(0);
  document->setFrame(9);
  const Vec3 shownHand = handModel();
  const auto reimported = test::exportedThroughTheWindow(window, "articula_ik_export");
  ASSERT_TRUE(reimported.ok()) << reimported.error();
  ASSERT_FALSE(reimported->clips.empty());
  const Skeleton& skeleton = reimported->skeleton;
  Pose local(skeleton.restPose().begin(), skeleton.restPose().end());
  ClipSampler sampler(&reimported->clips[0]);
  sampler.sample(document->time(), local);
  std::vector<Affine> model(local.size());
  LocalToModelJob job;
  job.skeleton = &skeleton;
  job.local = local;
  job.model = model;
  ASSERT_TRUE(job.run());
  const int hand = skeleton.findJoint(document->scene().skeleton.name(leftHand));
  ASSERT_GE(hand, 0);
  EXPECT_LE((model[static_cast<std::size_t>(hand)].translation() - shownHand).norm(), 2e-3f * height);
}

// Snap FK to IK: the FK joints take the IK result, so the rig off shows the same arm.
TEST_F(IkKeyingTest, SnapFkToIkPosesTheChainWhereTheSolvePutIt) {
  document->setFrame(5);
  document->setSelectedHandle(leftArm);
  dragHandTarget(Vec3(0.0f, 0.25f * height, 0.2f * height));
  const std::vector<Affine> shown = copy(document->modelPose());
  QAction* snap = action("actionSnapFkToIk");
  ASSERT_TRUE(snap->isEnabled());
  const int commands = document->undoStack()->count();
  snap->trigger();
  EXPECT_EQ(document->undoStack()->count(), commands + 1) << "one undo step";
  const std::vector<int>& chain = document->activeRig()->handles[static_cast<std::size_t>(leftArm)].chain;
  for (int joint : chain) EXPECT_TRUE(document->hasPoseOverride(joint)) << joint;
  window.rigDock()->enableRigAction()->trigger();
  for (int joint : chain) {
    const auto index = static_cast<std::size_t>(joint);
    EXPECT_LE((document->modelPose()[index].translation() - shown[index].translation()).norm(), 1e-4f * height)
        << document->scene().skeleton.name(joint);
  }
  EXPECT_FALSE(snap->isEnabled()) << "no solve to snap to while the rig is off";
}

// Snap IK to FK: the target goes to the FK hand, so the solve leaves the FK arm; it holds
// over keyed target curves (the arm keyed raised at frame 15, then its target dragged off
// the keyed arm), and Auto Key keys it.
TEST_F(IkKeyingTest, SnapIkToFkPutsTheTargetOnTheFkHand) {
  document->setSelectedHandle(leftArm);
  document->setFrame(15);
  dragHandTarget(Vec3(0.0f, 0.3f * height, 0.2f * height));
  action("actionKeyPose")->trigger();
  dragHandTarget(Vec3(0.0f, -0.2f * height, 0.1f * height));
  const Vec3 fkHand = document->inputModelPose()[static_cast<std::size_t>(leftHand)].translation();
  ASSERT_GT((handModel() - fkHand).norm(), 0.05f * height) << "the keyed target pulls the hand off the FK pose";

  window.timelineDock()->timeline()->autoKeyAction()->setChecked(true);
  const int commands = document->undoStack()->count();
  action("actionSnapIkToFk")->trigger();
  QApplication::processEvents();
  ASSERT_EQ(document->undoStack()->count(), commands + 1) << "the snap and its key, one step";
  window.timelineDock()->timeline()->autoKeyAction()->setChecked(false);
  EXPECT_LE((handModel() - fkHand).norm(), 1e-3f * height);
  EXPECT_NEAR(targetCurveAt("target.x", document->time()), fkHand.x(), 1e-4);
  document->setFrame(14);
  document->setFrame(15);
  EXPECT_LE((handModel() - fkHand).norm(), 1e-3f * height) << "the keyed snap plays back";
}

// A project keeps the handle's curves: reopened, the arm follows the keyed target.
TEST_F(IkKeyingTest, AProjectKeepsTheAnimatedTarget) {
  document->setSelectedHandle(leftArm);
  document->setFrame(10);
  dragHandTarget(Vec3(0.0f, 0.3f * height, 0.1f * height));
  action("actionKeyPose")->trigger();
  const Vec3 keyedHand = handModel();
  const QString path =
      QDir::temp().filePath(QStringLiteral("articula_ik_keys_%1.articula").arg(QCoreApplication::applicationPid()));
  const std::optional<QString> saveError = window.session()->saveAs(path);
  ASSERT_FALSE(saveError) << saveError->toStdString();
  window.openScene(makeMannequin(), QStringLiteral("Mannequin"));
  ASSERT_TRUE(window.openFile(path));
  QFile::remove(path);
  ASSERT_NE(document->boundRig(), nullptr);
  document->setFrame(10);
  EXPECT_NEAR(targetCurveAt("target.y", document->time()),
              document->boundRig()->reports()[static_cast<std::size_t>(leftArm)].targetModel.y(), 1e-5);
  EXPECT_LE((handModel() - keyedHand).norm(), 1e-4f * height);
}

// The README's screenshot project: its keyed target raises the left hand mid-walk and the
// arm reaches it.
TEST(IkKeyingProject, TheKeyedTargetOfTheWaveProjectRaisesTheArm) {
  MainWindow window;
  ASSERT_TRUE(window.openFile(QString::fromStdString(test::dataPath("projects/mannequin_ik_wave_v2.articula"))));
  Document* document = window.document();
  ASSERT_NE(document->boundRig(), nullptr) << document->rigError().toStdString();
  const int leftArm = document->boundRig()->findHandle("left_arm");
  ASSERT_GE(leftArm, 0);
  const int hand = document->activeRig()->handles[static_cast<std::size_t>(leftArm)].chain.back();
  const auto handHeight = [&] { return document->modelPose()[static_cast<std::size_t>(hand)].translation().y(); };
  document->setFrame(0);
  const float low = handHeight();
  document->setFrame(15);
  EXPECT_TRUE(document->boundRig()->reports()[static_cast<std::size_t>(leftArm)].reached);
  EXPECT_NEAR(handHeight(), 1.52f, 1e-3f);
  EXPECT_GT(handHeight() - low, 0.3f);
}

}  // namespace
}  // namespace articula::ui
