// A property of the whole undo system rather than of one command: whatever sequence of
// edits an animator makes (joint poses, renames, keys, rig builds, handle edits and moves,
// rig on/off, animation layers), undoing all of it gives back the document it started from,
// redoing all of it gives the document it ended with, and saving the project at any point
// and opening it again gives the same document (the pose overrides aside: they are unkeyed
// edits, which a project does not keep, so saves happen when there are none).
#include <gtest/gtest.h>

#include <QSettings>
#include <QTemporaryDir>
#include <QUndoStack>

#include <random>
#include <string>

#include "core/samples/mannequin.h"
#include "ui/commands/edit_keys_command.h"
#include "ui/commands/handle_commands.h"
#include "ui/commands/key_pose_command.h"
#include "ui/commands/layer_commands.h"
#include "ui/commands/rename_joint_command.h"
#include "ui/commands/replace_clip_command.h"
#include "ui/commands/rig_set_command.h"
#include "ui/commands/set_joint_transform_command.h"
#include "ui/commands/set_rig_enabled_command.h"
#include "ui/document/document.h"
#include "ui/document/project_session.h"
#include "ui/timeline/key_channel.h"
#include "ui_test_support.h"

namespace articula::ui {
namespace {

class StillTicker : public AutosaveTicker {
 public:
  void start(int) override {}
};

class RandomEditor {
 public:
  RandomEditor(Document& document, unsigned seed, bool withLayers = false)
      : mDocument(document), mRandom(seed), mWithLayers(withLayers) {}

  // One random edit through an undo command; returns false when the drawn edit was not
  // possible here (nothing to key), so the caller draws again.
  bool editOnce(int step) {
    switch (below(mWithLayers ? 7 : 5)) {
      case 0:
        return poseJoint();
      case 5:
        return editLayers(step);
      case 6:
        return moveLayerKey();
      case 1:
        return renameJoint(step);
      case 2:
        return keyPose();
      case 3:
        return editRig();
      default:
        return moveKey();
    }
  }

  // Moves the time (view state, not an edit) when no unkeyed pose would be dropped by it.
  void maybeMoveTime() {
    if (below(8) == 0 && mDocument.poseOverrides().empty()) mDocument.setFrame(below(mDocument.frameCount()));
  }

  int below(int n) { return std::uniform_int_distribution<int>(0, n - 1)(mRandom); }
  double uniform(double a, double b) { return std::uniform_real_distribution<double>(a, b)(mRandom); }

 private:
  int randomJoint() { return below(mDocument.scene().skeleton.jointCount()); }

  bool poseJoint() {
    const int joint = randomJoint();
    Transform local = mDocument.localPose()[static_cast<std::size_t>(joint)];
    const Vec3 axis = Vec3(static_cast<float>(uniform(-1, 1)), static_cast<float>(uniform(-1, 1)), 1.0f).normalized();
    local.rotation =
        (Quat(Eigen::AngleAxisf(static_cast<float>(uniform(0.05, 0.6)), axis)) * local.rotation).normalized();
    local.translation += Vec3(static_cast<float>(uniform(-0.05, 0.05)), 0.0f, static_cast<float>(uniform(-0.05, 0.05)));
    const auto channel = static_cast<SetJointTransformCommand::Channel>(below(4));
    mDocument.undoStack()->push(new SetJointTransformCommand(&mDocument, joint, local, channel));
    return true;
  }

  bool renameJoint(int step) {
    const int joint = randomJoint();
    const QString name = QStringLiteral("joint_%1").arg(step);
    if (!RenameJointCommand::validate(mDocument, joint, name).isEmpty()) return false;
    mDocument.undoStack()->push(new RenameJointCommand(&mDocument, joint, name));
    return true;
  }

  bool keyPose() {
    if (below(2) == 0) mDocument.setSelectedJoints({randomJoint()});
    if (!KeyPoseCommand::canKeyPose(mDocument)) return false;
    mDocument.undoStack()->push(new KeyPoseCommand(&mDocument));
    return true;
  }

  // The rig: built (or rebuilt), a handle's settings edited, a target or pole moved, the
  // rig switched off or on.
  bool editRig() {
    const RigDefinition* rig = mDocument.activeRig();
    if (rig == nullptr || below(10) == 0) {
      Result<RigDefinition> humanoid = BuildHumanoidRigCommand::humanoidRig(mDocument);
      if (!humanoid) return false;
      auto* build = new BuildHumanoidRigCommand(&mDocument, std::move(humanoid).value());
      if (build->isObsolete()) {
        delete build;
        return false;
      }
      mDocument.undoStack()->push(build);
      return true;
    }
    const int handle = below(static_cast<int>(rig->handles.size()));
    IkHandle value = rig->handles[static_cast<std::size_t>(handle)];
    const Vec3 nudge(static_cast<float>(uniform(-0.1, 0.1)), static_cast<float>(uniform(-0.1, 0.1)),
                     static_cast<float>(uniform(-0.1, 0.1)));
    switch (below(4)) {
      case 0:
        value.weight = static_cast<float>(uniform(0.0, 1.0));
        value.maxIterations = 1 + below(32);
        mDocument.undoStack()->push(new EditHandleCommand(&mDocument, handle, value, QStringLiteral("Edit handle")));
        return true;
      case 1:
        mDocument.undoStack()->push(
            new MoveHandleCommand(&mDocument, handle, MoveHandleCommand::Part::Target, value.targetModel + nudge));
        return true;
      case 2:
        if (value.pole.space == IkPole::Space::None) return false;
        mDocument.undoStack()->push(
            new MoveHandleCommand(&mDocument, handle, MoveHandleCommand::Part::Pole, value.pole.position + nudge));
        return true;
      default:
        mDocument.undoStack()->push(new SetRigEnabledCommand(&mDocument, !mDocument.rigEnabled()));
        return true;
    }
  }

  // A layer action of the Layers dock (layer_commands.h); a refused one changes nothing and
  // draws again. Picking the active layer (view state) goes with it, so keys land on layers.
  bool editLayers(int step) {
    const Clip* clip = mDocument.currentClip();
    const int layers = clip ? static_cast<int>(clip->layers.size()) : 0;
    if (layers > 0 && below(3) == 0) mDocument.setActiveLayer(below(layers + 1) - 1);
    const int layer = mDocument.activeLayer();
    const auto before = mDocument.undoStack()->count();
    std::optional<QString> refusal;
    switch (below(layers == 0 ? 1 : 9)) {
      case 0:
        refusal = addLayer(mDocument, below(2) == 0 ? LayerMode::Additive : LayerMode::Override);
        break;
      case 1:
        refusal = setLayerFlag(mDocument, layer, static_cast<LayerFlag>(below(3)), below(2) == 0);
        break;
      case 2:
        refusal = keyLayerWeight(mDocument, layer, uniform(0.0, 1.0));
        break;
      case 3:
        refusal = renameLayer(mDocument, layer, QStringLiteral("layer %1").arg(step));
        break;
      case 4:
        refusal = moveLayer(mDocument, layer, below(2) == 0 ? 1 : -1);
        break;
      case 5:
        refusal = mergeLayerDown(mDocument, layer);
        break;
      case 6:
        refusal = mergeAllLayers(mDocument);
        break;
      case 7:
        if (below(2) == 0) mDocument.setSelectedJoints({randomJoint()});
        refusal = zeroKeyActiveLayer(mDocument);
        break;
      default:
        refusal = deleteLayer(mDocument, layer);
        break;
    }
    return !refusal && mDocument.undoStack()->count() > before;
  }

  // What the dope sheet and the curve editor do on a layer: a key of the active layer moved
  // in time by a few frames, as the whole of its keys or as the part a drag swaps.
  bool moveLayerKey() {
    const Clip* keys = mDocument.editedKeys();
    const int layer = mDocument.activeLayer();
    if (keys == nullptr || layer < 0) return false;
    const std::vector<KeyChannel> channels = allKeyedChannels(*keys);
    if (channels.empty()) return false;
    const KeyChannel& channel = channels[static_cast<std::size_t>(below(static_cast<int>(channels.size())))];
    const std::vector<double> times = keyTimes(*keys, channel);
    const KeyRef key{channel, times[static_cast<std::size_t>(below(static_cast<int>(times.size())))]};
    const double offsetSeconds = (below(7) - 3) / keys->frameRate;
    // Within the clip: a key moved past an end grows the range, and the replay below goes
    // back to the end's frame counted from the clip's start.
    if (key.time + offsetSeconds < keys->startTime || key.time + offsetSeconds > keys->endTime) return false;
    const bool part = below(2) == 0;
    Clip moved = movedKeys(part ? clipPart(*keys, std::span(&channel, 1)) : *keys, std::span(&key, 1), offsetSeconds);
    const auto before = mDocument.undoStack()->count();
    mDocument.undoStack()->push(
        new EditKeysCommand(&mDocument, mDocument.currentClipIndex(), layer,
                            part ? EditKeysCommand::Scope::Part : EditKeysCommand::Scope::WholeClip, std::move(moved),
                            QStringLiteral("Move Layer Key")));
    return mDocument.undoStack()->count() > before;  // a locked layer takes none
  }

  // The generic clip edit: one key of a translation channel moved in value, or a new key.
  bool moveKey() {
    const Clip* current = mDocument.currentClip();
    if (current == nullptr || current->tracks.empty()) return false;
    Clip clip = *current;
    JointTrack& track = clip.tracks[static_cast<std::size_t>(below(static_cast<int>(clip.tracks.size())))];
    Curve* channels[] = {&track.translation.x, &track.translation.y, &track.translation.z};
    Curve& curve = *channels[below(3)];
    if (!curve.keys().empty() && below(3) != 0) {
      const std::size_t index = static_cast<std::size_t>(below(static_cast<int>(curve.keys().size())));
      CurveKey key = curve.keys()[index];
      key.value += uniform(-0.1, 0.1);
      curve.setKey(index, key);
    } else {
      curve.insertKey(clip.timeOf(below(mDocument.frameCount())), uniform(-0.5, 0.5));
    }
    mDocument.undoStack()->push(
        new ReplaceClipCommand(&mDocument, mDocument.currentClipIndex(), std::move(clip), QStringLiteral("Move key")));
    return true;
  }

  Document& mDocument;
  std::mt19937 mRandom;
  const bool mWithLayers;
};

// Saves the document as a project, opens it into a fresh document and returns that one's
// serialisation (the current clip and frame come back from the project's view).
std::string savedAndReopened(ProjectSession& session, QSettings& settings, const QString& path,
                             const QString& recoveryFolder) {
  if (std::optional<QString> error = session.saveAs(path)) return "save failed: " + error->toStdString();
  Document reopened;
  ProjectSession reader(&reopened, &settings, recoveryFolder, new StillTicker);
  if (std::optional<QString> error = reader.open(path)) return "open failed: " + error->toStdString();
  return test::serializeDocument(reopened);
}

TEST(CommandProperty, RandomEditsUndoToTheStartRedoToTheEndAndSurviveSaveAndOpen) {
  constexpr int kEditsPerRun = 150;
  for (const unsigned seed : {1u, 2u, 3u}) {
    SCOPED_TRACE("seed " + std::to_string(seed));
    QTemporaryDir folder;
    ASSERT_TRUE(folder.isValid());
    QSettings settings(folder.filePath(QStringLiteral("settings.ini")), QSettings::IniFormat);
    const QString recoveryFolder = folder.filePath(QStringLiteral("recovery"));
    Document document;
    ProjectSession session(&document, &settings, recoveryFolder, new StillTicker);
    document.replaceScene(makeMannequin(), QString(), QStringLiteral("Mannequin"));
    const int startFrame = 2;
    document.setFrame(startFrame);
    const std::string original = test::serializeDocument(document);

    RandomEditor editor(document, seed);
    int saves = 0;
    for (int step = 0; step < kEditsPerRun; ++step) {
      while (!editor.editOnce(step)) {
      }
      editor.maybeMoveTime();
      // Pose overrides and handle poses are of the moment, not saved.
      if (editor.below(15) == 0 && document.poseOverrides().empty() && document.handlePoses().empty()) {
        const std::string before = test::serializeDocument(document);
        const QString path = folder.filePath(QStringLiteral("step_%1.articula").arg(step));
        ASSERT_EQ(savedAndReopened(session, settings, path, recoveryFolder), before) << "saved at step " << step;
        ASSERT_EQ(test::serializeDocument(document), before) << "saving changed the document";
        ++saves;
      }
    }
    EXPECT_GT(saves, 0);
    EXPECT_GT(document.undoStack()->count(), kEditsPerRun / 2);
    const std::string end = test::serializeDocument(document);
    const int endFrame = document.currentFrame();

    while (document.undoStack()->canUndo()) document.undoStack()->undo();
    // Time is view state, not undone; the original had no pose overrides to lose by moving it.
    document.setFrame(startFrame);
    EXPECT_EQ(test::serializeDocument(document), original);

    document.setFrame(endFrame);
    while (document.undoStack()->canRedo()) document.undoStack()->redo();
    EXPECT_EQ(test::serializeDocument(document), end);
  }
}

// The same edits with the layer actions among them (add, flags, weight keys, rename,
// reorder, merges, Zero Key, delete, Key Pose and key moves on the active layer): undoing
// all of them gives back the start, redoing all of them the end. (Saving is covered key by key in
// test_project; a project reopened after layer edits evaluates its pose up to 1e-7 apart
// from the one edited, which the save check above compares exactly.)
TEST(CommandProperty, RandomEditsWithLayersUndoToTheStartAndRedoToTheEnd) {
  constexpr int kEditsPerRun = 150;
  for (const unsigned seed : {1u, 2u, 3u}) {
    SCOPED_TRACE("seed " + std::to_string(seed));
    Document document;
    document.replaceScene(makeMannequin(), QString(), QStringLiteral("Mannequin"));
    document.setFrame(2);
    const std::string original = test::serializeDocument(document);
    RandomEditor editor(document, seed, true);
    int layerSteps = 0;
    for (int step = 0; step < kEditsPerRun; ++step) {
      while (!editor.editOnce(step)) {
      }
      editor.maybeMoveTime();
      if (document.currentClip() && !document.currentClip()->layers.empty()) ++layerSteps;
    }
    EXPECT_GT(layerSteps, kEditsPerRun / 4);
    const std::string end = test::serializeDocument(document);
    const int endFrame = document.currentFrame();
    while (document.undoStack()->canUndo()) document.undoStack()->undo();
    document.setFrame(2);
    EXPECT_EQ(test::serializeDocument(document), original);
    document.setFrame(endFrame);
    while (document.undoStack()->canRedo()) document.undoStack()->redo();
    EXPECT_EQ(test::serializeDocument(document), end);
  }
}

}  // namespace
}  // namespace articula::ui
