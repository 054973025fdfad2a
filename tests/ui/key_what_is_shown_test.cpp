// Issue 35, "key what is on screen" for a foot handle's orientation and twist, through the
// window: at frame 12 the right foot's handle is moved (translated, or turned) and keyed with
// S. The keyed frame shows what was on screen before S for every node, the shin's twist
// children included (RobotExpressive's LowerLeg.R_2 carries the rigid shin); a handle that
// followed the clip still follows it on the other frames; the keyed pose solved again stays.
// On RobotExpressive Walking (no stride curves) and CesiumMan, both keyed on every frame.
#include <gtest/gtest.h>

#include <QAction>
#include <QUndoStack>

#include <cmath>
#include <cstdio>
#include <functional>
#include <string>
#include <vector>

#include "ik_contract_support.h"
#include "ui/commands/handle_commands.h"
#include "ui/docks/rig_dock.h"
#include "ui/document/document.h"
#include "ui/main_window.h"
#include "ui_test_support.h"

namespace articula::ui {
namespace {

struct Character {
  const char* name;
  const char* file;  // under tests/data
  const char* clip;  // empty: the first
};

// Every node's model-space position and rotation as shown.
struct ShownNodes {
  std::vector<Vec3> positions;
  std::vector<Quat> rotations;
};

ShownNodes shownNodes(const Document& document) {
  ShownNodes nodes;
  for (const Affine& node : document.modelPose()) {
    nodes.positions.push_back(node.translation());
    nodes.rotations.push_back(Quat(node.rotation()));
  }
  return nodes;
}

// How far apart two sets of shown nodes are: the largest position difference and the
// largest rotation difference (degrees), each with the node it was found on.
struct NodesApart {
  float positionModel = 0.0f;
  int positionNode = -1;
  float rotationDeg = 0.0f;
  int rotationNode = -1;
};

NodesApart apart(const ShownNodes& a, const ShownNodes& b) {
  NodesApart out;
  for (std::size_t n = 0; n < std::min(a.positions.size(), b.positions.size()); ++n) {
    const float distance = (a.positions[n] - b.positions[n]).norm();
    if (distance > out.positionModel) out = {distance, static_cast<int>(n), out.rotationDeg, out.rotationNode};
    const float angleDeg = a.rotations[n].angularDistance(b.rotations[n]) * 180.0f / kPi;
    if (angleDeg > out.rotationDeg) {
      out.rotationDeg = angleDeg;
      out.rotationNode = static_cast<int>(n);
    }
  }
  return out;
}

class KeyWhatIsShown : public ::testing::TestWithParam<Character> {
 protected:
  void SetUp() override {
    const Character& character = GetParam();
    ASSERT_TRUE(window.openFile(QString::fromStdString(test::dataPath(character.file))));
    document = window.document();
    for (std::size_t clip = 0; clip < document->scene().clips.size(); ++clip) {
      if (document->scene().clips[clip].name == character.clip) document->setCurrentClip(static_cast<int>(clip));
    }
    ASSERT_NE(document->currentClip(), nullptr);
    window.rigDock()->buildHumanoidAction()->trigger();
    ASSERT_NE(document->boundRig(), nullptr) << document->rigError().toStdString();
    rightLeg = document->boundRig()->findHandle("right_leg");
    ASSERT_GE(rightLeg, 0);
    height = document->scene().characterHeight();
  }

  std::string nodeName(int node) const { return node < 0 ? "-" : document->scene().skeleton.name(node); }

  // Moves the right foot's handle at frame 12 with `edit`, then S. Checks the keyed frame
  // against the screen before S (every node), the other frames (beyond the keys the joints'
  // new keys interpolate to) against the clip before the edit, and the keyed pose solved
  // again (leaving the frame and coming back, then Key All Controls) against itself.
  void keyAfter(const char* what, const std::function<void()>& edit) {
    std::vector<ShownNodes> before;
    for (int frame = 0; frame < document->frameCount(); ++frame) {
      document->setFrame(frame);
      before.push_back(shownNodes(*document));
    }
    constexpr int keyedFrame = 12;
    document->setFrame(keyedFrame);
    document->setSelectedHandle(rightLeg);
    const Clip original = *document->currentClip();
    edit();
    const ShownNodes dragged = shownNodes(*document);
    ASSERT_GT(apart(before[static_cast<std::size_t>(keyedFrame)], dragged).positionModel, 0.01f * height)
        << what << ": the edit shows";
    window.findChild<QAction*>(QStringLiteral("actionKeyPose"))->trigger();
    const NodesApart keyed = apart(dragged, shownNodes(*document));

    const auto [firstKept, lastKept] = test::neighbouringKeys(original, *document->currentClip(), document->time());
    const ShownNodes keyedNodes = shownNodes(*document);
    NodesApart others;
    for (int frame = 0; frame < document->frameCount(); ++frame) {
      const double t = document->timeOfFrame(frame);
      if (frame == keyedFrame || (t > firstKept + 1e-9 && t < lastKept - 1e-9)) continue;
      document->setFrame(frame);
      const NodesApart moved = apart(before[static_cast<std::size_t>(frame)], shownNodes(*document));
      if (moved.positionModel > others.positionModel) others = moved;
    }
    document->setFrame(keyedFrame);
    const NodesApart again = apart(keyedNodes, shownNodes(*document));
    window.findChild<QAction*>(QStringLiteral("actionKeyAllControls"))->trigger();
    const NodesApart keyAll = apart(keyedNodes, shownNodes(*document));

    const float mm = 1750.0f / height;  // model units to millimetres at 1.75 m
    std::printf(
        "%s, %s at frame %d then S: keyed frame %.4f mm (%s) %.4f deg (%s); other frames %.4f mm (%s); "
        "solved again %.4f mm, Key All Controls %.4f mm\n",
        GetParam().name, what, keyedFrame, keyed.positionModel * mm, nodeName(keyed.positionNode).c_str(),
        keyed.rotationDeg, nodeName(keyed.rotationNode).c_str(), others.positionModel * mm,
        nodeName(others.positionNode).c_str(), again.positionModel * mm, keyAll.positionModel * mm);
    EXPECT_LE(keyed.positionModel, 1e-4f * height) << what << ": the keyed frame is the screen";
    EXPECT_LE(keyed.rotationDeg, 0.01f) << what << ": the keyed frame's turns are the screen's";
    EXPECT_LE(others.positionModel, 1e-4f * height) << what << ": the other frames still follow the clip";
    EXPECT_LE(again.positionModel, 0.1f / mm) << what << ": solved again within 0.1 mm";
    EXPECT_LE(keyAll.positionModel, 0.1f / mm) << what << ": keyed again within 0.1 mm";
  }

  MainWindow window;
  Document* document = nullptr;
  int rightLeg = -1;
  float height = 0.0f;
};

TEST_P(KeyWhatIsShown, AFootHandleMovedUpAndKeyed) {
  keyAfter("the right foot moved up",
           [&] { test::drag(*document, rightLeg, MoveHandleCommand::Part::Target, Vec3(0.0f, 0.1f * height, 0.0f)); });
}

// Out of reach: RobotExpressive's leg folds (the handle lands closer to the hip than the shin
// is longer than the thigh, missed by 0.174 units); the folded leg solved again after S kept
// its pose only if the knee's bend axis did not reverse (its shin turned 180°).
TEST_P(KeyWhatIsShown, AFootHandleDraggedOutOfReachAndKeyed) {
  keyAfter("the right foot dragged up and back out of reach", [&] {
    test::drag(*document, rightLeg, MoveHandleCommand::Part::Target, Vec3(0.0f, 0.25f * height, -0.2f * height));
  });
}

TEST_P(KeyWhatIsShown, AFootHandleTurnedAndKeyed) {
  keyAfter("the right foot turned 30 degrees", [&] {
    const Quat shown = *shownOrientation(*document, rightLeg);
    const Quat turned = Quat(Eigen::AngleAxisf(30.0f * kPi / 180.0f, Vec3::UnitX())) * shown;
    document->undoStack()->push(new MoveHandleCommand(document, rightLeg, turned));
  });
}

INSTANTIATE_TEST_SUITE_P(
    Characters, KeyWhatIsShown,
    ::testing::Values(Character{"RobotExpressive", "gltf/RobotExpressive/RobotExpressive.glb", "Walking"},
                      Character{"CesiumMan", "gltf/CesiumMan/CesiumMan.glb", ""}),
    [](const ::testing::TestParamInfo<Character>& character) { return std::string(character.param.name); });

}  // namespace
}  // namespace articula::ui
