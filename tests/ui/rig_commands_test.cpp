// The rig commands: do → state, undo → the original (the whole serialised document, rigs
// included), redo → the state again; target drags are one undo step and solve live.
#include <gtest/gtest.h>

#include <QSignalSpy>
#include <QUndoStack>

#include <utility>

#include "core/rig/humanoid_rig.h"
#include "core/samples/mannequin.h"
#include "ui/commands/handle_commands.h"
#include "ui/commands/rig_set_command.h"
#include "ui/commands/set_rig_enabled_command.h"
#include "ui/document/document.h"
#include "ui_test_support.h"

namespace articula::ui {
namespace {

class RigCommandsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    document.replaceScene(makeMannequin(), QString(), QStringLiteral("Mannequin"));
    document.setFrame(4);
    leftArm = joint("LeftArm");
    leftForeArm = joint("LeftForeArm");
    leftHand = joint("LeftHand");
  }

  int joint(const char* name) const {
    const int index = document.scene().skeleton.findJoint(name);
    EXPECT_GE(index, 0) << name;
    return index;
  }

  std::string expectUndoable(QUndoCommand* command) { return test::expectUndoable(document, command); }

  void buildHumanoid() {
    auto rig = BuildHumanoidRigCommand::humanoidRig(document);
    ASSERT_TRUE(rig) << rig.error();
    document.undoStack()->push(new BuildHumanoidRigCommand(&document, std::move(rig).value()));
    ASSERT_NE(document.boundRig(), nullptr) << document.rigError().toStdString();
  }

  // Adds a handle on LeftArm → LeftHand solved by `solver`; returns its index.
  int addArmHandle(IkSolverKind solver) {
    document.setSelectedJoints({leftArm, leftHand});
    auto handle = AddHandleCommand::handleFromSelection(document, solver);
    EXPECT_TRUE(handle) << handle.error();
    if (!handle) return -1;
    EXPECT_EQ(AddHandleCommand::validate(document, *handle), QString());
    document.undoStack()->push(new AddHandleCommand(&document, *handle));
    return static_cast<int>(document.activeRig()->handles.size()) - 1;
  }

  Vec3 modelPosition(int index) const { return document.modelPose()[static_cast<std::size_t>(index)].translation(); }

  Document document;
  int leftArm = -1, leftForeArm = -1, leftHand = -1;
};

TEST_F(RigCommandsTest, BuildHumanoidRigThenUndo) {
  const std::string original = test::serializeDocument(document);
  auto rig = BuildHumanoidRigCommand::humanoidRig(document);
  ASSERT_TRUE(rig) << rig.error();
  QSignalSpy changed(&document, &Document::changed);
  expectUndoable(new BuildHumanoidRigCommand(&document, std::move(rig).value()));
  ASSERT_NE(document.activeRig(), nullptr);
  EXPECT_EQ(document.activeRig()->handles.size(), 5u);
  ASSERT_NE(document.boundRig(), nullptr) << document.rigError().toStdString();
  EXPECT_TRUE(document.rigSolved());
  EXPECT_EQ(changed.back().front().value<ChangeEvent>().type, ChangeEvent::Type::RigChanged);
  EXPECT_EQ(document.undoStack()->undoText(), QStringLiteral("Build Humanoid Rig"));
  document.undoStack()->undo();
  EXPECT_EQ(document.activeRig(), nullptr);
  EXPECT_EQ(document.boundRig(), nullptr);
  EXPECT_FALSE(document.rigSolved());
  EXPECT_EQ(test::serializeDocument(document), original);
}

TEST_F(RigCommandsTest, BuildingTheHumanoidRigTwiceReplacesIt) {
  buildHumanoid();
  auto rig = BuildHumanoidRigCommand::humanoidRig(document);
  ASSERT_TRUE(rig);
  auto* again = new BuildHumanoidRigCommand(&document, std::move(rig).value());
  EXPECT_TRUE(again->isObsolete());
  delete again;
  EXPECT_EQ(document.rigSet().rigs.size(), 1u);
}

TEST_F(RigCommandsTest, HumanoidRigFailsWithAMessageOnANonHumanoid) {
  Scene scene;
  scene.skeleton.addJoint("Root", kNoParent, Transform{});
  document.replaceScene(std::move(scene), QString(), QStringLiteral("Bar"));
  const auto rig = BuildHumanoidRigCommand::humanoidRig(document);
  ASSERT_FALSE(rig);
  EXPECT_FALSE(rig.error().empty());
}

TEST_F(RigCommandsTest, AddHandleFromSelectionWithEverySolverBindAccepts) {
  int available = 0;
  for (int k = 0; k < kIkSolverKindCount; ++k) {
    const auto solver = static_cast<IkSolverKind>(k);
    document.setSelectedJoints({leftHand, leftArm});
    const auto handle = AddHandleCommand::handleFromSelection(document, solver);
    ASSERT_TRUE(handle) << handle.error();
    EXPECT_EQ(handle->chain, (std::vector<int>{leftArm, leftForeArm, leftHand}));
    EXPECT_TRUE(handle->targetModel.isApprox(modelPosition(leftHand)));
    const QString error = AddHandleCommand::validate(document, *handle);
    EXPECT_EQ(error.isEmpty(), isSolverAvailable(solver)) << solverKindName(solver) << ": " << error.toStdString();
    if (!error.isEmpty()) continue;
    ++available;
    const std::string before = test::serializeDocument(document);
    expectUndoable(new AddHandleCommand(&document, *handle));
    EXPECT_EQ(document.activeRig()->handles.back().solver, solver);
    document.undoStack()->undo();
    EXPECT_EQ(test::serializeDocument(document), before);
  }
  EXPECT_GE(available, 4);
}

TEST_F(RigCommandsTest, AddHandleNamesAreUniqueAndOneJointMakesAThreeJointChain) {
  document.setSelectedJoints({leftHand});
  auto first = AddHandleCommand::handleFromSelection(document, IkSolverKind::TwoBone);
  ASSERT_TRUE(first) << first.error();
  EXPECT_EQ(first->chain, (std::vector<int>{leftArm, leftForeArm, leftHand}));
  document.undoStack()->push(new AddHandleCommand(&document, *first));
  auto second = AddHandleCommand::handleFromSelection(document, IkSolverKind::Ccd);
  ASSERT_TRUE(second);
  EXPECT_NE(second->name, first->name);
  EXPECT_FALSE(validateHandleName(second->name));
}

TEST_F(RigCommandsTest, AddHandleRefusesJointsOffOneLine) {
  document.setSelectedJoints({});
  EXPECT_FALSE(AddHandleCommand::handleFromSelection(document, IkSolverKind::Ccd));
  document.setSelectedJoints({leftHand, joint("RightHand")});
  const auto handle = AddHandleCommand::handleFromSelection(document, IkSolverKind::Ccd);
  ASSERT_FALSE(handle);
  EXPECT_NE(handle.error().find("ancestor"), std::string::npos) << handle.error();
  // Two-bone needs exactly three joints: bind's message comes back from validate.
  document.setSelectedJoints({joint("LeftShoulder"), leftHand});
  const auto longChain = AddHandleCommand::handleFromSelection(document, IkSolverKind::TwoBone);
  ASSERT_TRUE(longChain);
  EXPECT_FALSE(AddHandleCommand::validate(document, *longChain).isEmpty());
}

TEST_F(RigCommandsTest, RemoveHandleRoundTrip) {
  buildHumanoid();
  expectUndoable(new RemoveHandleCommand(&document, 0));
  EXPECT_EQ(document.activeRig()->handles.size(), 4u);
}

TEST_F(RigCommandsTest, EditHandleRoundTripsForEveryField) {
  buildHumanoid();
  const RigDefinition& rig = *document.activeRig();
  const int leg = static_cast<int>(
      std::find_if(rig.handles.begin(), rig.handles.end(), [](const IkHandle& h) { return h.name == "left_leg"; }) -
      rig.handles.begin());
  ASSERT_LT(leg, static_cast<int>(rig.handles.size()));
  const IkHandle base = rig.handles[static_cast<std::size_t>(leg)];
  std::vector<std::pair<const char*, IkHandle>> edits;
  auto edit = [&](const char* what, auto change) {
    IkHandle h = base;
    change(h);
    edits.emplace_back(what, h);
  };
  edit("solver", [](IkHandle& h) { h.solver = IkSolverKind::Fabrik; });
  edit("weight", [](IkHandle& h) { h.weight = 0.25f; });
  edit("iterations", [](IkHandle& h) { h.maxIterations = 40; });
  edit("tolerance", [](IkHandle& h) { h.toleranceModel = 0.01f; });
  edit("enabled", [](IkHandle& h) { h.enabled = false; });
  edit("pole", [](IkHandle& h) { h.pole.position += Vec3(0.3f, 0.0f, 0.0f); });
  edit("limits", [](IkHandle& h) {
    h.limits.assign(h.chain.size(), JointLimit::free());
    h.limits[0] = JointLimit::cone(Vec3::UnitY(), 0.5f);
  });
  // Every edit moves the target first so each one changes the solved pose too.
  for (auto& [what, value] : edits) {
    SCOPED_TRACE(what);
    value.targetSource = TargetSource::Handle;
    value.targetModel = modelPosition(base.chain.back()) + Vec3(0.0f, 0.15f, 0.1f);
    ASSERT_EQ(EditHandleCommand::validate(document, leg, value), QString());
    QSignalSpy changed(&document, &Document::changed);
    expectUndoable(new EditHandleCommand(&document, leg, value, QStringLiteral("Edit")));
    EXPECT_TRUE(document.activeRig()->handles[static_cast<std::size_t>(leg)] == value);
    ASSERT_FALSE(changed.isEmpty());
    const auto event = changed.back().front().value<ChangeEvent>();
    EXPECT_EQ(event.type, ChangeEvent::Type::HandleEdited);
    EXPECT_EQ(event.handle, leg);
    document.undoStack()->undo();
  }
  IkHandle bad = base;
  bad.maxIterations = 0;
  EXPECT_FALSE(EditHandleCommand::validate(document, leg, bad).isEmpty());
  EXPECT_FALSE(EditHandleCommand::validate(document, 99, base).isEmpty());
}

TEST_F(RigCommandsTest, WeightSliderDragIsOneUndoStep) {
  const int handle = addArmHandle(IkSolverKind::TwoBone);
  ASSERT_GE(handle, 0);
  const int before = document.undoStack()->count();
  bool mergeUndo = false;
  for (int step = 1; step <= 10; ++step) {
    IkHandle value = document.activeRig()->handles[static_cast<std::size_t>(handle)];
    value.weight = 1.0f - 0.05f * static_cast<float>(step);
    auto* command = new EditHandleCommand(&document, handle, value, QStringLiteral("IK/FK Blend"));
    command->setMergeable(std::exchange(mergeUndo, true));
    document.undoStack()->push(command);
  }
  EXPECT_EQ(document.undoStack()->count(), before + 1);
  EXPECT_FLOAT_EQ(document.activeRig()->handles[static_cast<std::size_t>(handle)].weight, 0.5f);
}

// The leg's target follows the clip (animated): a move poses it for this frame; its pole has
// no curves (static): a move is an offset in the clip. The rig itself never changes.
TEST_F(RigCommandsTest, MoveTargetAndPoleRoundTrip) {
  buildHumanoid();
  const int leg = document.boundRig()->findHandle("left_leg");
  ASSERT_GE(leg, 0);
  const RigSet rigs = document.rigSet();
  const Vec3 target =
      document.boundRig()->reports()[static_cast<std::size_t>(leg)].targetModel + Vec3(0.05f, 0.1f, 0.1f);
  expectUndoable(new MoveHandleCommand(&document, leg, MoveHandleCommand::Part::Target, target));
  ASSERT_TRUE(document.isHandlePosed(leg));
  EXPECT_TRUE(document.handlePoses().at(leg).targetModel->isApprox(target));
  EXPECT_EQ(document.rigSet(), rigs);
  document.undoStack()->undo();
  EXPECT_FALSE(document.isHandlePosed(leg));
  document.undoStack()->redo();
  const Vec3 pole = document.shownHandle(leg)->pole.position + Vec3(0.4f, 0.0f, 0.0f);
  expectUndoable(new MoveHandleCommand(&document, leg, MoveHandleCommand::Part::Pole, pole));
  EXPECT_TRUE(document.shownHandle(leg)->pole.position.isApprox(pole));
  EXPECT_TRUE(document.currentClip()->curves.contains(handleCurveName("left_leg", "pole.x")));
  EXPECT_FALSE(document.handlePoses().at(leg).polePosition) << "a static pole is not posed";
  EXPECT_EQ(document.rigSet(), rigs);
}

TEST_F(RigCommandsTest, SetRigEnabledRoundTrip) {
  const int handle = addArmHandle(IkSolverKind::TwoBone);
  ASSERT_GE(handle, 0);
  const Vec3 target = modelPosition(leftHand) + Vec3(0.0f, 0.2f, 0.15f);
  document.undoStack()->push(new MoveHandleCommand(&document, handle, MoveHandleCommand::Part::Target, target));
  ASSERT_LT((modelPosition(leftHand) - target).norm(), 1e-3f);
  expectUndoable(new SetRigEnabledCommand(&document, false));
  EXPECT_FALSE(document.rigEnabled());
  EXPECT_FALSE(document.rigSolved());
  EXPECT_GT((modelPosition(leftHand) - target).norm(), 0.1f);
  auto* same = new SetRigEnabledCommand(&document, false);
  EXPECT_TRUE(same->isObsolete());
  delete same;
}

// A drag of 50 mouse moves is one undo step, solves at every move and leaves the tip on
// the target, within the handle's tolerance, for each solver.
TEST_F(RigCommandsTest, FiftyMoveTargetDragIsOneUndoStepAndReachesTheTarget) {
  for (IkSolverKind solver : {IkSolverKind::TwoBone, IkSolverKind::Ccd, IkSolverKind::Fabrik}) {
    SCOPED_TRACE(std::string(solverKindName(solver)));
    document.replaceScene(makeMannequin(), QString(), QStringLiteral("Mannequin"));
    document.setFrame(4);
    const int handle = addArmHandle(solver);
    ASSERT_GE(handle, 0);
    const std::string beforeDrag = test::serializeDocument(document);
    const int stepsBefore = document.undoStack()->count();
    const Vec3 start = modelPosition(leftHand);
    // Towards the chest and up: inside the arm's reach all the way.
    const Vec3 end = start + Vec3(-0.12f, 0.15f, 0.2f);
    bool mergeUndo = false;
    float worstError = 0.0f;
    for (int move = 1; move <= 50; ++move) {
      const Vec3 target = start + (end - start) * (static_cast<float>(move) / 50.0f);
      auto* command = new MoveHandleCommand(&document, handle, MoveHandleCommand::Part::Target, target);
      command->setMergeable(std::exchange(mergeUndo, true));
      document.undoStack()->push(command);
      worstError = std::max(worstError, (modelPosition(leftHand) - target).norm());
    }
    EXPECT_EQ(document.undoStack()->count(), stepsBefore + 1);
    const float tolerance = document.activeRig()->handles[static_cast<std::size_t>(handle)].toleranceModel;
    EXPECT_LE((modelPosition(leftHand) - end).norm(), tolerance);
    EXPECT_TRUE(document.boundRig()->reports()[static_cast<std::size_t>(handle)].reached);
    EXPECT_LE(worstError, 10.0f * tolerance) << "the tip lagged behind the target during the drag";
    document.undoStack()->undo();
    EXPECT_EQ(test::serializeDocument(document), beforeDrag);
    document.undoStack()->redo();
    EXPECT_LE((modelPosition(leftHand) - end).norm(), tolerance);
  }
}

TEST_F(RigCommandsTest, DragBackToTheStartLeavesNoUndoStep) {
  const int handle = addArmHandle(IkSolverKind::TwoBone);
  const std::string original = test::serializeDocument(document);
  const int steps = document.undoStack()->count();
  const Vec3 start = document.activeRig()->handles[static_cast<std::size_t>(handle)].targetModel;
  document.undoStack()->push(
      new MoveHandleCommand(&document, handle, MoveHandleCommand::Part::Target, start + Vec3(0.0f, 0.1f, 0.0f)));
  auto* back = new MoveHandleCommand(&document, handle, MoveHandleCommand::Part::Target, start);
  back->setMergeable(true);
  document.undoStack()->push(back);
  EXPECT_EQ(document.undoStack()->count(), steps);
  EXPECT_EQ(test::serializeDocument(document), original);
}

TEST_F(RigCommandsTest, NewSceneDropsTheRigs) {
  buildHumanoid();
  document.replaceScene(makeMannequin(), QString(), QStringLiteral("Mannequin"));
  EXPECT_TRUE(document.rigSet().rigs.empty());
  EXPECT_EQ(document.boundRig(), nullptr);
}

TEST_F(RigCommandsTest, ActiveHandleIsNullOutsideTheActiveRig) {
  EXPECT_EQ(document.activeHandle(0), nullptr) << "no rig";
  buildHumanoid();
  const RigDefinition& rig = *document.activeRig();
  ASSERT_EQ(rig.handles.size(), 5u);
  EXPECT_EQ(document.activeHandle(0), &rig.handles[0]);
  EXPECT_EQ(document.activeHandle(4), &rig.handles[4]);
  EXPECT_EQ(document.activeHandle(5), nullptr) << "past the end";
  EXPECT_EQ(document.activeHandle(-1), nullptr) << "negative";
}

TEST_F(RigCommandsTest, HandleSelectionFollowsTheActiveRig) {
  document.setSelectedHandle(0);
  EXPECT_EQ(document.selectedHandle(), -1) << "no rig, nothing to select";
  buildHumanoid();
  QSignalSpy changed(&document, &Document::changed);
  document.setSelectedHandle(4);
  EXPECT_EQ(document.selectedHandle(), 4);
  ASSERT_EQ(changed.size(), 1);
  EXPECT_EQ(changed.front().front().value<ChangeEvent>().type, ChangeEvent::Type::SelectionChanged);
  document.setSelectedHandle(5);
  EXPECT_EQ(document.selectedHandle(), -1) << "out of range selects none";
  document.setSelectedHandle(4);
  document.undoStack()->push(new RemoveHandleCommand(&document, 0));
  EXPECT_EQ(document.selectedHandle(), -1) << "the fifth handle is gone";
  document.setSelectedHandle(1);
  document.undoStack()->undo();
  EXPECT_EQ(document.selectedHandle(), 1) << "an index still in the rig stays selected";
  document.undoStack()->undo();
  EXPECT_EQ(document.selectedHandle(), -1) << "no rig after undoing its build";
}

}  // namespace
}  // namespace articula::ui
