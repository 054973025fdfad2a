// Animation layers in the editor (issue 40): each Layers dock action is one undo step, Key
// Pose writes to the active layer, and an animator's session (add a layer, key on it,
// weight it, merge) leaves the capture's own keys alone until the merge.
#include <gtest/gtest.h>

#include <QAction>
#include <QDoubleSpinBox>
#include <QLabel>
#include <QListWidget>
#include <QUndoStack>

#include <cstring>
#include <functional>

#include "core/samples/mannequin.h"
#include "ui/commands/key_pose_command.h"
#include "ui/commands/layer_commands.h"
#include "ui/commands/set_joint_transform_command.h"
#include "ui/docks/layers_dock.h"
#include "ui/document/document.h"
#include "ui/main_window.h"
#include "ui_test_support.h"

namespace articula::ui {
namespace {

Quat raise20() { return Quat(Eigen::AngleAxisf(20.0f * kPi / 180.0f, Vec3::UnitZ())); }

// Runs `action` (one layer action) and checks it pushed one step that undo and redo swap.
void expectOneUndoStep(Document& document, const std::function<std::optional<QString>()>& action) {
  const std::string before = test::serializeDocument(document);
  const int steps = document.undoStack()->count();
  const std::optional<QString> refusal = action();
  ASSERT_FALSE(refusal.has_value()) << refusal->toStdString();
  ASSERT_EQ(document.undoStack()->count(), steps + 1);
  const std::string after = test::serializeDocument(document);
  EXPECT_NE(after, before);
  document.undoStack()->undo();
  EXPECT_EQ(test::serializeDocument(document), before);
  document.undoStack()->redo();
  EXPECT_EQ(test::serializeDocument(document), after);
}

bool sameRotationKeys(const JointTrack& a, const JointTrack& b) {
  if (a.rotation.size() != b.rotation.size()) return false;
  for (std::size_t i = 0; i < a.rotation.size(); ++i) {
    const RotationKey& x = a.rotation.keys()[i];
    const RotationKey& y = b.rotation.keys()[i];
    if (x.time != y.time || std::memcmp(x.value.coeffs().data(), y.value.coeffs().data(), 4 * sizeof(float)) != 0)
      return false;
  }
  return true;
}

TEST(LayerCommands, EachActionIsOneUndoStep) {
  Document document;
  document.replaceScene(makeMannequin(), QString(), QStringLiteral("Mannequin"));
  document.setFrame(5);
  expectOneUndoStep(document, [&] { return addLayer(document, LayerMode::Additive); });
  expectOneUndoStep(document, [&] { return addLayer(document, LayerMode::Override); });
  EXPECT_EQ(document.currentClip()->layers[1].name, "Layer 2");
  expectOneUndoStep(document, [&] { return renameLayer(document, 1, QStringLiteral("hips down")); });
  expectOneUndoStep(document, [&] { return keyLayerWeight(document, 1, 0.4); });
  expectOneUndoStep(document, [&] { return setLayerFlag(document, 0, LayerFlag::Solo, true); });
  expectOneUndoStep(document, [&] { return setLayerFlag(document, 0, LayerFlag::Mute, true); });
  expectOneUndoStep(document, [&] { return setLayerFlag(document, 0, LayerFlag::Mute, false); });
  expectOneUndoStep(document, [&] { return moveLayer(document, 1, -1); });
  EXPECT_EQ(document.currentClip()->layers[0].name, "hips down");
  document.setActiveLayer(0);
  document.setSelectedJoints({document.scene().skeleton.findJoint("Hips")});
  expectOneUndoStep(document, [&] { return zeroKeyActiveLayer(document); });
  expectOneUndoStep(document, [&] { return setLayerFlag(document, 1, LayerFlag::Solo, false); });
  expectOneUndoStep(document, [&] { return mergeLayerDown(document, 1); });
  expectOneUndoStep(document, [&] { return mergeAllLayers(document); });
  EXPECT_TRUE(document.currentClip()->layers.empty());
  EXPECT_EQ(document.activeLayer(), -1);
}

TEST(LayerCommands, KeyPoseOnAnAdditiveLayerKeysTheDifferenceAndLeavesTheBase) {
  Document document;
  document.replaceScene(makeMannequin(), QString(), QStringLiteral("Mannequin"));
  const Clip original = *document.currentClip();
  const int arm = document.scene().skeleton.findJoint("LeftArm");
  document.setFrame(10);
  ASSERT_FALSE(addLayer(document, LayerMode::Additive).has_value());
  EXPECT_EQ(document.activeLayer(), 0) << "a new layer is the active one";
  Transform raised = document.localPose()[static_cast<std::size_t>(arm)];
  const Quat below = raised.rotation;
  raised.rotation = (raised.rotation * raise20()).normalized();
  document.undoStack()->push(
      new SetJointTransformCommand(&document, arm, raised, SetJointTransformCommand::Channel::Rotate));
  document.undoStack()->push(new KeyPoseCommand(&document));
  const Clip& keyed = *document.currentClip();
  for (std::size_t t = 0; t < original.tracks.size(); ++t)
    EXPECT_TRUE(sameRotationKeys(keyed.tracks[t], original.tracks[t])) << t;
  const JointTrack* layerTrack = keyed.layers[0].findTrack(arm);
  ASSERT_NE(layerTrack, nullptr);
  ASSERT_EQ(layerTrack->rotation.size(), 1u);
  EXPECT_TRUE(layerTrack->rotation.keys()[0].value.isApprox(raise20(), 1e-5f));
  EXPECT_TRUE(layerTrack->translation.empty()) << "the arm did not move: no translation key";
  EXPECT_TRUE(document.localPose()[static_cast<std::size_t>(arm)].rotation.isApprox(below * raise20(), 1e-5f));

  // A locked layer takes no key.
  ASSERT_FALSE(setLayerFlag(document, 0, LayerFlag::Lock, true).has_value());
  document.setSelectedJoints({arm});
  EXPECT_FALSE(KeyPoseCommand::canKeyPose(document));
}

TEST(LayerCommands, OddInputIsOneLineAndChangesNothing) {
  Document document;
  Scene empty;
  empty.clips.emplace_back().name = "nothing";
  empty.clips[0].endTime = 1.0;
  document.replaceScene(std::move(empty), QString(), QStringLiteral("Empty"));
  const std::optional<QString> noJoints = addLayer(document, LayerMode::Additive);
  ASSERT_TRUE(noJoints.has_value());
  EXPECT_EQ(*noJoints, QStringLiteral("Clip 'nothing' animates no joints: there is nothing to layer."));
  EXPECT_EQ(document.undoStack()->count(), 0);

  document.replaceScene(makeMannequin(), QString(), QStringLiteral("Mannequin"));
  const std::string before = test::serializeDocument(document);
  const std::optional<QString> nothingBelow = mergeLayerDown(document, document.activeLayer());
  ASSERT_TRUE(nothingBelow.has_value());
  EXPECT_NE(nothingBelow->indexOf(QStringLiteral("the base has nothing below it")), -1) << nothingBelow->toStdString();
  ASSERT_FALSE(addLayer(document, LayerMode::Override).has_value());
  const std::string withLayer = test::serializeDocument(document);
  const std::optional<QString> tooHeavy = keyLayerWeight(document, 0, 1.5);
  ASSERT_TRUE(tooHeavy.has_value());
  EXPECT_EQ(*tooHeavy, QStringLiteral("A layer's weight is between 0 and 1 (got 1.5)."));
  EXPECT_EQ(test::serializeDocument(document), withLayer);
  EXPECT_EQ(document.undoStack()->count(), 1);
  document.undoStack()->undo();
  EXPECT_EQ(test::serializeDocument(document), before);
}

// The user-level session on the CMU walk, through the window's Layers dock and Key Pose.
TEST(LayersWindow, AddKeyWeightAndMergeALayerOnACapture) {
  MainWindow window;
  ASSERT_TRUE(window.openFile(QString::fromStdString(test::dataPath("bvh/cmu-mb-2010/02_01.bvh"))));
  Document& document = *window.document();
  LayersDock& dock = *window.layersDock();
  const Clip original = *document.currentClip();
  const int arm = document.scene().skeleton.findJoint("LeftArm");
  document.setFrame(120);
  const std::string opened = test::serializeDocument(document);

  dock.action(QStringLiteral("addAdditiveLayer"))->trigger();
  ASSERT_EQ(dock.list()->count(), 2);  // the layer above the base
  EXPECT_EQ(dock.list()->currentRow(), 0);
  document.setSelectedJoints({arm});
  Transform raised = document.localPose()[static_cast<std::size_t>(arm)];
  raised.rotation = (raised.rotation * raise20()).normalized();
  document.undoStack()->push(
      new SetJointTransformCommand(&document, arm, raised, SetJointTransformCommand::Channel::Rotate));
  window.findChild<QAction*>(QStringLiteral("actionKeyPose"))->trigger();
  const Clip& layered = *document.currentClip();
  ASSERT_EQ(layered.layers.size(), 1u);
  EXPECT_NE(layered.layers[0].findTrack(arm), nullptr);
  for (std::size_t t = 0; t < original.tracks.size(); ++t)
    EXPECT_TRUE(sameRotationKeys(layered.tracks[t], original.tracks[t])) << "base key changed on track " << t;

  dock.weightBox()->setValue(0.5);
  emit dock.weightBox()->editingFinished();
  EXPECT_EQ(document.undoStack()->undoText(), QStringLiteral("Key Layer Weight"));
  EXPECT_DOUBLE_EQ(document.currentClip()->layers[0].weightAt(document.time()), 0.5);
  const Quat halfWay = document.localPose()[static_cast<std::size_t>(arm)].rotation;

  dock.action(QStringLiteral("mergeAllLayers"))->trigger();
  EXPECT_TRUE(dock.message()->text().isEmpty()) << dock.message()->text().toStdString();
  EXPECT_TRUE(document.currentClip()->layers.empty());
  EXPECT_EQ(dock.list()->count(), 1);
  EXPECT_TRUE(document.localPose()[static_cast<std::size_t>(arm)].rotation.isApprox(halfWay, 1e-5f));
  EXPECT_FALSE(sameRotationKeys(*document.currentClip()->findTrack(arm), *original.findTrack(arm)));

  dock.action(QStringLiteral("mergeLayerDown"))->trigger();  // disabled: nothing happens
  while (document.undoStack()->canUndo()) document.undoStack()->undo();
  EXPECT_EQ(test::serializeDocument(document), opened);
}

}  // namespace
}  // namespace articula::ui
