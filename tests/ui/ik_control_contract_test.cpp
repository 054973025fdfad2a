// The animator's contract for IK controls, through the real window (offscreen), as Maya and
// Blender keep it: a control with animation moved and not keyed changes the current frame
// only and goes back to its curve when the frame changes; one without animation gets a
// static offset in the clip it was moved in, never in another; export bakes what playback
// shows. Each case one undo step (issue 35, item 1).
#include <gtest/gtest.h>

#include <QAction>
#include <QDoubleSpinBox>
#include <QUndoStack>

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "core/anim/clip.h"
#include "core/bake/contact_detection.h"
#include "core/math/euler.h"
#include "core/skeleton/local_to_model.h"
#include "ik_contract_support.h"
#include "ui/commands/clip_list_command.h"
#include "ui/commands/handle_commands.h"
#include "ui/commands/ik_fk_snap_command.h"
#include "ui/commands/rig_set_command.h"
#include "ui/docks/properties_dock.h"
#include "ui/docks/rig_dock.h"
#include "ui/document/document.h"
#include "ui/main_window.h"
#include "ui/widgets/handle_editor.h"
#include "ui_test_support.h"

namespace articula::ui {
namespace {

using test::drag;
using test::largestDistance;
using test::neighbouringKeys;

// Model-space positions of every joint on every frame of the scene's clip `name`.
std::vector<std::vector<Vec3>> motionOf(const Scene& scene, const std::string& name) {
  const auto clip = std::find_if(scene.clips.begin(), scene.clips.end(), [&](const Clip& c) { return c.name == name; });
  std::vector<std::vector<Vec3>> frames;
  if (clip == scene.clips.end()) return frames;
  ClipSampler sampler(&*clip);
  const Skeleton& skeleton = scene.skeleton;
  std::vector<Affine> model(static_cast<std::size_t>(skeleton.jointCount()));
  for (int frame = 0; frame < clip->frameCount(); ++frame) {
    Pose local(skeleton.restPose().begin(), skeleton.restPose().end());
    sampler.sample(clip->startTime + frame / clip->frameRate, local);
    LocalToModelJob fk;
    fk.skeleton = &skeleton;
    fk.local = local;
    fk.model = model;
    fk.run();
    std::vector<Vec3>& positions = frames.emplace_back();
    for (const Affine& joint : model) positions.push_back(joint.translation());
  }
  return frames;
}

// The robot with CMU 02_01 retargeted onto it and the robot's Walking clip beside it (its
// other clips removed, so an export bakes two clips), the humanoid rig built.
class IkControlContract : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(window.openFile(QString::fromStdString(test::dataPath("gltf/RobotExpressive/RobotExpressive.glb"))));
    document = window.document();
    for (int clip = static_cast<int>(document->scene().clips.size()) - 1; clip >= 0; --clip) {
      if (document->scene().clips[static_cast<std::size_t>(clip)].name != "Walking")
        document->undoStack()->push(ClipListCommand::remove(document, clip));
    }
    ASSERT_EQ(document->scene().clips.size(), 1u);
    ASSERT_TRUE(window.retargetFrom(QString::fromStdString(test::dataPath("bvh/cmu-mb-2010/02_01.bvh"))));
    ASSERT_EQ(document->currentClip()->name, "02_01");
    window.rigDock()->buildHumanoidAction()->trigger();
    ASSERT_NE(document->boundRig(), nullptr) << document->rigError().toStdString();
    rightLeg = document->boundRig()->findHandle("right_leg");
    ASSERT_GE(rightLeg, 0);
    height = document->scene().characterHeight();
  }

  int clipNamed(const std::string& name) const { return test::clipIndexNamed(*document, name); }

  std::vector<Vec3> shownPositions() const {
    std::vector<Vec3> positions;
    for (const Affine& joint : document->modelPose()) positions.push_back(joint.translation());
    return positions;
  }

  // shownPositions on each frame of the current clip, in order (leaves the last frame current).
  std::vector<std::vector<Vec3>> shownOnEveryFrame() {
    std::vector<std::vector<Vec3>> shown;
    for (int frame = 0; frame < document->frameCount(); ++frame) {
      document->setFrame(frame);
      shown.push_back(shownPositions());
    }
    return shown;
  }

  MainWindow window;
  Document* document = nullptr;
  int rightLeg = -1;
  float height = 0.0f;
};

// Issue 35's first report: frame 21, the right foot's handle dragged (no key), frame 45,
// export: the file holds the motion as if nothing had been dragged, and so does playback.
TEST_F(IkControlContract, AnUnkeyedDragOfAnAnimatedHandleChangesItsFrameOnlyAndNotTheExport) {
  const auto reference = test::exportedThroughTheWindow(window, "articula_contract_reference");
  ASSERT_TRUE(reference.ok()) << reference.error();
  document->setFrame(45);
  const std::vector<Vec3> frame45 = shownPositions();
  document->setFrame(21);
  const std::vector<Vec3> frame21 = shownPositions();
  const std::string undragged = test::serializeDocument(*document);
  const RigSet rigs = document->rigSet();

  ASSERT_EQ(document->activeHandle(rightLeg)->targetSource, TargetSource::InputPose) << "the handle follows the clip";
  const int steps = document->undoStack()->count();
  drag(*document, rightLeg, MoveHandleCommand::Part::Target, Vec3(0.0f, 0.25f * height, -0.2f * height));
  EXPECT_EQ(document->undoStack()->count(), steps + 1) << "one drag, one undo step";
  EXPECT_TRUE(document->isHandlePosed(rightLeg));
  EXPECT_GT(largestDistance({frame21}, {shownPositions()}), 0.1f * height) << "the drag shows at its frame";
  EXPECT_EQ(document->rigSet(), rigs) << "the rig itself is not changed";

  // Undo, check, redo.
  document->undoStack()->undo();
  EXPECT_EQ(test::serializeDocument(*document), undragged);
  document->undoStack()->redo();
  EXPECT_TRUE(document->isHandlePosed(rightLeg));

  document->setFrame(45);
  EXPECT_FALSE(document->isHandlePosed(rightLeg)) << "the pose goes with the frame";
  EXPECT_LE(largestDistance({frame45}, {shownPositions()}), 1e-6f * height) << "frame 45 plays as before";
  document->setFrame(21);
  EXPECT_LE(largestDistance({frame21}, {shownPositions()}), 1e-6f * height) << "back on its curve";

  const auto exported = test::exportedThroughTheWindow(window, "articula_contract_dragged");
  ASSERT_TRUE(exported.ok()) << exported.error();
  for (const char* clip : {"02_01", "Walking"}) {
    const auto want = motionOf(*reference, clip);
    ASSERT_FALSE(want.empty()) << clip;
    EXPECT_LE(largestDistance(want, motionOf(*exported, clip)), 1e-6f * height) << clip;
  }
}

// Issue 35: the first key on a handle that follows the clip. The right foot's handle follows
// the retargeted clip; dragged at frame 21 and keyed with S, frame 21 keeps the drag, the
// joints keyed there change the frames up to their neighbouring keys, and every frame beyond
// shows and exports what it did before, within 0.1 mm at 1.75 m: the handle's curves start
// from where the rig solved it on each frame (followCurvesSeeded). A first key alone made
// constant curves, which held the foot at frame 21's place over the whole clip.
TEST_F(IkControlContract, TheFirstKeyOnAHandleThatFollowsTheClipChangesItsFrameOnly) {
  const auto reference = test::exportedThroughTheWindow(window, "articula_first_key_reference");
  ASSERT_TRUE(reference.ok()) << reference.error();
  const std::vector<std::vector<Vec3>> shownBefore = shownOnEveryFrame();
  constexpr int kKeyed = 21;
  document->setFrame(kKeyed);
  const std::string unkeyed = test::serializeDocument(*document);
  const Clip original = *document->currentClip();
  drag(*document, rightLeg, MoveHandleCommand::Part::Target, Vec3(0.0f, 0.25f * height, -0.2f * height));
  const std::vector<Vec3> dragged = shownPositions();
  const int steps = document->undoStack()->count();
  window.findChild<QAction*>(QStringLiteral("actionKeyPose"))->trigger();
  ASSERT_EQ(document->undoStack()->count(), steps + 1) << "one undo step";
  const float tolerance = 1e-4f * height / 1.75f;
  EXPECT_LE(largestDistance({dragged}, {shownPositions()}), tolerance) << "the keyed frame shows the drag";
  const auto y = document->currentClip()->curves.find(handleCurveName("right_leg", "target.y"));
  ASSERT_NE(y, document->currentClip()->curves.end());
  EXPECT_EQ(y->second.size(), static_cast<std::size_t>(document->frameCount())) << "a key on every frame";

  const auto [before, after] = neighbouringKeys(original, *document->currentClip(), document->time());
  std::printf("joint keys around frame %d at frames %.0f and %.0f\n", kKeyed, before * original.frameRate,
              after * original.frameRate);
  ASSERT_GT(after, before);
  const auto far = [&](int frame) {
    const double t = document->timeOfFrame(frame);
    return t <= before + 1e-9 || t >= after - 1e-9;
  };
  int farFrames = 0;
  float worstFar = 0.0f;
  for (int frame = 0; frame < document->frameCount(); ++frame) {
    if (!far(frame)) continue;
    ++farFrames;
    document->setFrame(frame);
    worstFar = std::max(worstFar, largestDistance({shownBefore[static_cast<std::size_t>(frame)]}, {shownPositions()}));
  }
  EXPECT_GT(farFrames, document->frameCount() - 8);
  EXPECT_LE(worstFar, tolerance) << "the other frames still follow the clip";

  const auto exported = test::exportedThroughTheWindow(window, "articula_first_key_keyed");
  ASSERT_TRUE(exported.ok()) << exported.error();
  const auto want = motionOf(*reference, "02_01");
  const auto got = motionOf(*exported, "02_01");
  ASSERT_EQ(want.size(), got.size());
  float worstExported = 0.0f;
  for (int frame = 0; frame < static_cast<int>(want.size()); ++frame) {
    const float moved =
        largestDistance({want[static_cast<std::size_t>(frame)]}, {got[static_cast<std::size_t>(frame)]});
    if (far(frame)) worstExported = std::max(worstExported, moved);
  }
  EXPECT_LE(worstExported, tolerance) << "the export agrees beyond the neighbouring keys";
  EXPECT_GT(largestDistance({want[kKeyed]}, {got[kKeyed]}), 0.1f * height) << "and holds the keyed frame";
  std::printf(
      "first key at frame %d: the frames beyond its neighbouring keys move %.4f mm (export %.4f mm) at 1.75 m\n",
      kKeyed, worstFar / height * 1750.0f, worstExported / height * 1750.0f);

  document->setFrame(kKeyed);
  document->undoStack()->undo();
  document->undoStack()->undo();
  EXPECT_EQ(test::serializeDocument(*document), unkeyed);
}

// On a clip without stride curves the editor does not stand the feet on the floor
// (groundsFeet): a first key on a foot's handle, where it is, starts its curves from the rig
// as the editor solves that clip, so no other frame moves (they came from a rig standing on
// the floor: RobotExpressive Walking's shoes were lifted off their heel strikes).
TEST_F(IkControlContract, AFirstKeyOnAClipWithoutStrideCurvesLeavesTheOtherFrames) {
  document->setCurrentClip(clipNamed("Walking"));
  ASSERT_FALSE(document->currentClip()->curves.contains("contact.right_foot"));
  const std::vector<std::vector<Vec3>> shownBefore = shownOnEveryFrame();
  constexpr int kKeyed = 12;
  document->setFrame(kKeyed);
  document->setSelectedHandle(rightLeg);
  window.findChild<QAction*>(QStringLiteral("actionKeyPose"))->trigger();
  ASSERT_TRUE(document->currentClip()->curves.contains(handleCurveName("right_leg", "target.y")));
  float worst = 0.0f;
  for (int frame = 0; frame < document->frameCount(); ++frame) {
    if (std::abs(frame - kKeyed) <= 1) continue;
    document->setFrame(frame);
    worst = std::max(worst, largestDistance({shownBefore[static_cast<std::size_t>(frame)]}, {shownPositions()}));
  }
  std::printf("Walking, the right foot keyed where it is at frame %d: other frames move %.4f mm at 1.75 m\n", kKeyed,
              worst / height * 1750.0f);
  EXPECT_LE(worst, 1e-4f * height / 1.75f);
}

// A handle without animation (its own target, no curves) moved in one clip: a static offset
// for that clip, kept on every frame of it, stored as its constant curves; the other clip and
// the rig are not touched.
TEST_F(IkControlContract, AStaticHandleMovedInOneClipIsAnOffsetThereAndNowhereElse) {
  const int walking = clipNamed("Walking");
  const int retargeted = clipNamed("02_01");
  ASSERT_GE(walking, 0);
  // The left arm held by its own target where the hand is at frame 30.
  document->setFrame(30);
  const int leftArm = document->boundRig()->findHandle("left_arm");
  ASSERT_GE(leftArm, 0);
  IkHandle pinned = *document->shownHandle(leftArm);
  pinned.targetSource = TargetSource::Handle;
  auto* pin = new EditHandleCommand(document, leftArm, pinned, QStringLiteral("Pin"));
  document->undoStack()->push(pin);
  ASSERT_EQ(document->activeHandle(leftArm)->targetSource, TargetSource::Handle);

  document->setCurrentClip(walking);
  document->setFrame(10);
  const std::vector<Vec3> walkingBefore = shownPositions();
  const Clip walkingClip = *document->currentClip();
  document->setCurrentClip(retargeted);
  document->setFrame(30);
  const RigSet rigs = document->rigSet();
  const std::string before = test::serializeDocument(*document);
  const Vec3 offset(0.0f, 0.05f * height, 0.05f * height);
  const Vec3 moved = pinned.targetModel + offset;
  const int steps = document->undoStack()->count();
  drag(*document, leftArm, MoveHandleCommand::Part::Target, offset);
  EXPECT_EQ(document->undoStack()->count(), steps + 1);
  EXPECT_FALSE(document->isHandlePosed(leftArm)) << "nothing animated to return to: an offset, not a pose";
  EXPECT_EQ(document->rigSet(), rigs) << "the rig itself is not changed";
  const Clip& clip = *document->currentClip();
  for (const char* axis : {"x", "y", "z"}) {
    const auto curve = clip.curves.find(handleCurveName("left_arm", std::string("target.") + axis));
    ASSERT_NE(curve, clip.curves.end()) << axis;
    EXPECT_EQ(curve->second.size(), 1u) << "one constant key";
  }
  const auto targetAt = [&] { return document->boundRig()->reports()[static_cast<std::size_t>(leftArm)].targetModel; };
  const auto handAt = [&] {
    return document->modelPose()[static_cast<std::size_t>(document->activeHandle(leftArm)->chain.back())].translation();
  };
  EXPECT_LE((handAt() - moved).norm(), 0.01f * height) << "the hand reaches it";
  // A model-space target, as the handle's own was: the walk carries the body away from it.
  for (int frame : {0, document->frameCount() - 1, 30}) {
    document->setFrame(frame);
    EXPECT_LE((targetAt() - moved).norm(), 1e-5f * height) << "the offset holds on frame " << frame;
  }
  document->setFrame(30);
  document->undoStack()->undo();
  EXPECT_EQ(test::serializeDocument(*document), before);
  document->undoStack()->redo();
  EXPECT_LE((targetAt() - moved).norm(), 1e-5f * height);

  document->setCurrentClip(walking);
  document->setFrame(10);
  EXPECT_LE(largestDistance({walkingBefore}, {shownPositions()}), 1e-6f * height) << "Walking is unchanged";
  EXPECT_EQ(document->currentClip()->curves.size(), walkingClip.curves.size());
}

// Dragged in clip A, clip B shows as it did (the animated case).
TEST_F(IkControlContract, ADragInOneClipLeavesAnotherClipAsItWas) {
  const int walking = clipNamed("Walking");
  document->setCurrentClip(walking);
  document->setFrame(12);
  const std::vector<Vec3> walkingBefore = shownPositions();
  document->setCurrentClip(clipNamed("02_01"));
  document->setFrame(21);
  drag(*document, rightLeg, MoveHandleCommand::Part::Target, Vec3(0.0f, 0.25f * height, 0.0f));
  drag(*document, rightLeg, MoveHandleCommand::Part::Pole, Vec3(0.3f * height, 0.0f, 0.0f));
  document->setCurrentClip(walking);
  document->setFrame(12);
  EXPECT_LE(largestDistance({walkingBefore}, {shownPositions()}), 1e-6f * height);
}

// Pose ▸ Key All Controls (Maya's character set): every joint and every handle keyed at the
// frame, one undo step.
TEST_F(IkControlContract, KeyAllControlsKeysEveryJointAndHandle) {
  document->setFrame(21);
  QAction* keyAll = window.findChild<QAction*>(QStringLiteral("actionKeyAllControls"));
  ASSERT_NE(keyAll, nullptr);
  ASSERT_TRUE(keyAll->isEnabled());
  const std::string before = test::serializeDocument(*document);
  const int steps = document->undoStack()->count();
  keyAll->trigger();
  ASSERT_EQ(document->undoStack()->count(), steps + 1);
  const Clip& clip = *document->currentClip();
  const double time = document->time();
  for (const IkHandle& handle : document->activeRig()->handles) {
    for (const char* channel : {"target.x", "target.y", "target.z", "weight"}) {
      const auto curve = clip.curves.find(handleCurveName(handle.name, channel));
      ASSERT_NE(curve, clip.curves.end()) << handle.name << ' ' << channel;
      EXPECT_TRUE(std::any_of(curve->second.keys().begin(), curve->second.keys().end(),
                              [&](const CurveKey& key) { return std::abs(key.time - time) < 1e-9; }))
          << handle.name << ' ' << channel;
    }
  }
  const std::string keyed = test::serializeDocument(*document);
  document->undoStack()->undo();
  EXPECT_EQ(test::serializeDocument(*document), before);
  document->undoStack()->redo();
  EXPECT_EQ(test::serializeDocument(*document), keyed);
}

// Issue 35, item 6: IK <-> FK snaps exact with every solver, one test each: the left arm
// (CCD with the humanoid's cone, hinge and cone limits, as built) switched to the solver and
// its target dragged off the arm at frame 21. Snap FK to IK, then the rig off: the arm stays
// where the solve put it. Snap IK to FK (the FK snap undone): the solve leaves the arm on its
// FK rotations on the body as the rig solved it. Both within 0.1 mm at 1.75 m over the arm
// and the hand's fingers.
class SnapEverySolver : public IkControlContract, public ::testing::WithParamInterface<IkSolverKind> {
 protected:
  // Model-space positions of the joints under `root` in `local` (the whole skeleton's pose).
  std::vector<Vec3> armOf(std::span<const Transform> local, int root) const {
    const Skeleton& skeleton = document->scene().skeleton;
    const std::vector<Affine> model = localToModel(skeleton, local);
    std::vector<Vec3> positions;
    for (int joint : skeleton.subtree(root)) positions.push_back(model[static_cast<std::size_t>(joint)].translation());
    return positions;
  }
};

TEST_P(SnapEverySolver, IkToFkAndFkToIkLeaveTheArmWithin0_1mm) {
  document->setFrame(21);
  const int leftArm = document->boundRig()->findHandle("left_arm");
  ASSERT_GE(leftArm, 0);
  IkHandle handle = *document->activeHandle(leftArm);
  handle.solver = GetParam();
  ASSERT_EQ(EditHandleCommand::validate(*document, leftArm, handle), QString());
  document->undoStack()->push(new EditHandleCommand(document, leftArm, handle, QStringLiteral("Solver")));
  drag(*document, leftArm, MoveHandleCommand::Part::Target, Vec3(0.0f, 0.05f * height, 0.05f * height));
  const int root = handle.chain.front();
  const std::vector<Vec3> ikArm = armOf(document->localPose(), root);
  ASSERT_GT(largestDistance({ikArm}, {armOf(document->inputLocalPose(), root)}), 0.01f * height)
      << "the solve moved the arm off its FK pose";
  const float tolerance = 1e-4f * height / 1.75f;

  document->undoStack()->push(new SnapFkToIkCommand(document, leftArm));
  window.rigDock()->enableRigAction()->trigger();
  ASSERT_FALSE(document->rigSolved());
  const float fkToIk = largestDistance({ikArm}, {armOf(document->localPose(), root)});
  EXPECT_LE(fkToIk, tolerance) << "the FK arm where the solve put it";
  window.rigDock()->enableRigAction()->trigger();
  document->undoStack()->undo();

  document->undoStack()->push(new SnapIkToFkCommand(document, leftArm));
  // The FK arm on the body as the rig solved it: the solved pose with the chain's FK turns.
  std::vector<Transform> fkOnBody(document->localPose().begin(), document->localPose().end());
  for (int joint : handle.chain)
    fkOnBody[static_cast<std::size_t>(joint)].rotation =
        document->inputLocalPose()[static_cast<std::size_t>(joint)].rotation;
  const float ikToFk = largestDistance({armOf(fkOnBody, root)}, {armOf(document->localPose(), root)});
  EXPECT_LE(ikToFk, tolerance) << "the solve leaves the FK arm";
  std::printf("%s: FK to IK %.4f mm, IK to FK %.4f mm at 1.75 m\n", std::string(solverKindName(GetParam())).c_str(),
              fkToIk / height * 1750.0f, ikToFk / height * 1750.0f);
}

static_assert(kIkSolverKindCount == 8, "every solver has its snap test below");
INSTANTIATE_TEST_SUITE_P(Solvers, SnapEverySolver,
                         ::testing::Values(IkSolverKind::TwoBone, IkSolverKind::TwoBoneTrigFree, IkSolverKind::Ccd,
                                           IkSolverKind::Fabrik, IkSolverKind::JacobianTranspose,
                                           IkSolverKind::JacobianPseudoInverse, IkSolverKind::DampedLeastSquares,
                                           IkSolverKind::SelectivelyDampedLeastSquares),
                         [](const ::testing::TestParamInfo<IkSolverKind>& solver) {
                           return std::string(solverKindName(solver.param));
                         });

// Issue 35, items 2 and 5: Key Pose (S) and Key All Controls on a frame where a retargeted
// foot blends between planted and free (stride curves from Animation ▸ Detect Contacts) key
// the pose on screen, which the rig then solves again to within 0.1 mm (at 1.75 m): the
// keyed pose is where grounding leaves it.
TEST_F(IkControlContract, KeyingAPoseWhereAFootBlendsLeavesItOnScreen) {
  ASSERT_TRUE(window.detectContacts(ContactDetectionOptions{}));
  const Clip& clip = *document->currentClip();
  const auto stride = clip.curves.find("contact.right_foot");
  ASSERT_NE(stride, clip.curves.end());
  int blending = -1;
  for (int frame = 0; frame < document->frameCount() && blending < 0; ++frame) {
    const double value = stride->second.evaluate(document->timeOfFrame(frame));
    if (value > 0.05 && value < 0.95) blending = frame;
  }
  ASSERT_GE(blending, 0);
  const float tolerance = 1e-4f * height / 1.75f;
  for (const char* name : {"actionKeyPose", "actionKeyAllControls"}) {
    document->setFrame(blending);
    const std::vector<Vec3> shown = shownPositions();
    window.findChild<QAction*>(QString::fromLatin1(name))->trigger();
    const float moved = largestDistance({shown}, {shownPositions()});
    std::printf("%s at frame %d (right stride %.2f): the keyed pose solved again moves a joint %.4f mm at 1.75 m\n",
                name, blending, stride->second.evaluate(document->time()), moved / height * 1750.0f);
    EXPECT_LE(moved, tolerance) << name;
    document->undoStack()->undo();
  }
}

// Issue 35, item 2: the selected handle's position and rotation in Properties (model space)
// show where it is and move it as a drag does: a leg that follows the clip is posed for the
// frame, lifted off the ground, and turned; each edit one undo step.
TEST_F(IkControlContract, TheHandlesPositionAndRotationFieldsMoveItAsADragDoes) {
  document->setFrame(21);
  document->setSelectedHandle(rightLeg);
  HandleEditor* editor = window.propertiesDock()->handleEditor();
  ASSERT_EQ(editor->handle(), rightLeg);
  const Vec3 target = *shownTargetModel(*document, rightLeg);
  for (int axis = 0; axis < 3; ++axis) EXPECT_NEAR(editor->targetBox(axis)->value(), target[axis], 1e-4);
  const std::string before = test::serializeDocument(*document);
  const int steps = document->undoStack()->count();
  const int tip = document->activeHandle(rightLeg)->chain.back();
  const double lifted = target.y() + 0.1 * height;
  editor->targetBox(1)->setValue(lifted);
  EXPECT_EQ(document->undoStack()->count(), steps + 1);
  EXPECT_TRUE(document->isHandlePosed(rightLeg)) << "posed for this frame";
  EXPECT_NEAR(document->modelPose()[static_cast<std::size_t>(tip)].translation().y(), lifted, 1e-3 * height)
      << "the foot is lifted where it was typed";

  const Vec3 anglesDeg(editor->orientationBox(0)->value() + 20.0, editor->orientationBox(1)->value(),
                       editor->orientationBox(2)->value());
  editor->orientationBox(0)->setValue(anglesDeg.x());
  EXPECT_EQ(document->undoStack()->count(), steps + 2);
  const Quat typed = eulerToQuat(anglesDeg * (kPi / 180.0f), RotationOrder::XYZ);
  const Quat tipModel(document->modelPose()[static_cast<std::size_t>(tip)].rotation());
  EXPECT_LE(tipModel.angularDistance(typed), 1e-3f) << "the foot turned as typed";
  EXPECT_LE(shownOrientation(*document, rightLeg)->angularDistance(typed), 1e-5f);

  // The foot's roll, typed: a value of the handle like the others (a static offset in this
  // clip), which S keys.
  const std::string rolledBefore = test::serializeDocument(*document);
  editor->rollBox()->setValue(20.0);
  EXPECT_EQ(document->undoStack()->count(), steps + 3);
  EXPECT_NEAR(document->shownHandle(rightLeg)->rollRad, 20.0f * kPi / 180.0f, 1e-6f);
  window.findChild<QAction*>(QStringLiteral("actionKeyPose"))->trigger();
  const auto roll = document->currentClip()->curves.find(handleCurveName("right_leg", "roll"));
  ASSERT_NE(roll, document->currentClip()->curves.end()) << "S keys the roll";
  EXPECT_NEAR(roll->second.evaluate(document->time()), 20.0 * kPi / 180.0, 1e-6);
  document->undoStack()->undo();
  document->undoStack()->undo();
  EXPECT_EQ(test::serializeDocument(*document), rolledBefore);
  document->undoStack()->undo();
  document->undoStack()->undo();
  EXPECT_EQ(test::serializeDocument(*document), before);
}

// Issue 35, item 6: Snap IK to FK also puts an orientation target back on the FK tip's turn
// (it matched the position and the pole only, leaving the hand turned away).
TEST_F(IkControlContract, SnapIkToFkAlsoMatchesTheOrientationTarget) {
  document->setFrame(21);
  const int leftArm = document->boundRig()->findHandle("left_arm");
  const int hand = document->activeHandle(leftArm)->chain.back();
  const Quat fkHand(document->inputModelPose()[static_cast<std::size_t>(hand)].rotation());
  const Quat turned = Quat(Eigen::AngleAxisf(0.5f, Vec3::UnitX())) * fkHand;
  document->undoStack()->push(new MoveHandleCommand(document, leftArm, turned));
  ASSERT_GT(Quat(document->modelPose()[static_cast<std::size_t>(hand)].rotation()).angularDistance(fkHand), 0.4f);
  document->undoStack()->push(new SnapIkToFkCommand(document, leftArm));
  EXPECT_LE(shownOrientation(*document, leftArm)->angularDistance(fkHand), 1e-4f);
  EXPECT_LE(Quat(document->modelPose()[static_cast<std::size_t>(hand)].rotation()).angularDistance(fkHand), 1e-4f)
      << "the hand turns back as FK has it";
}

}  // namespace
}  // namespace articula::ui
