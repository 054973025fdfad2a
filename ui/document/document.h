#pragma once
#include <QObject>
#include <QString>

#include <map>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "core/anim/clip.h"
#include "core/anim/layer_stack.h"
#include "core/rig/rig.h"
#include "core/scene/scene.h"
#include "ui/document/change_event.h"
#include "ui/document/document_edit_key.h"

class QUndoStack;

namespace articula::ui {

// The rigs of the character: editable definitions (what the Rig panel edits and a project
// stores), one of them active. Indices of joints are the document skeleton's.
struct RigSet {
  std::vector<RigDefinition> rigs;
  int active = -1;  // index into rigs, -1: no rig solves

  const RigDefinition* activeRig() const {
    return active >= 0 && active < static_cast<int>(rigs.size()) ? &rigs[static_cast<std::size_t>(active)] : nullptr;
  }
  bool operator==(const RigSet& other) const = default;
};

// A handle posed by hand at the current time (Document::handlePoses): the parts set replace
// what the handle's definition and the current clip's curves give it, as a pose override
// replaces a joint's keys; nullopt parts stay as the rig and the clip give them.
struct HandlePose {
  std::optional<Vec3> targetModel;       // model space
  std::optional<Vec3> polePosition;      // in the pole's space (IkPole::space)
  std::optional<Quat> orientationModel;  // the tip's, model space (OrientationMode::Target)
  std::optional<float> rollRad;          // foot roll (IkHandle::rollRad)

  bool empty() const { return !targetModel && !polePosition && !orientationModel && !rollRad; }
  bool operator==(const HandlePose& other) const {
    const bool sameOrientation = orientationModel.has_value() == other.orientationModel.has_value() &&
                                 (!orientationModel || orientationModel->coeffs() == other.orientationModel->coeffs());
    return targetModel == other.targetModel && polePosition == other.polePosition && sameOrientation &&
           rollRad == other.rollRad;
  }
};

// The open character: the scene, the clip and time being looked at, the joint selection,
// and the undo stack of every edit made to it.
//
// Views get const access only. Edits to the scene go through QUndoCommands pushed on
// undoStack() (ui/commands/); the edit entry points below take a DocumentEditKey that only
// those commands can make, so nothing bypasses undo and the change signal.
// Time, current clip and selection are view state, not document edits, so they change
// through plain setters and are not undoable (as Tiled treats object selection).
//
// Every change emits changed() exactly once, after the new state is in place; setters that
// change nothing emit nothing.
// A skeleton's rest pose (local transforms, one per node) with the clips that keep its
// motion: what Skeleton ▸ Rest Pose swaps in one undo step.
struct RestAndClips {
  std::vector<Transform> restLocal;
  std::vector<Clip> clips;
};

class Document : public QObject {
  Q_OBJECT

 public:
  explicit Document(QObject* parent = nullptr);
  ~Document() override;

  const Scene& scene() const { return mScene; }
  QUndoStack* undoStack() const { return mUndoStack; }

  // Path the scene was imported from; empty for a scene made in memory (the mannequin).
  const QString& filePath() const { return mFilePath; }
  // File name for title bars, or "Mannequin"/"Untitled" when there is no file.
  QString displayName() const;

  // Takes over a fully imported scene (the open one is only dropped once the new one is
  // complete), selects its first clip at its start time, clears the selection and the undo
  // history. `rigs` (a project's, indexing this scene's skeleton) replace the old ones,
  // which indexed the old skeleton.
  void replaceScene(Scene scene, const QString& filePath, const QString& displayName = QString(), RigSet rigs = {},
                    bool rigEnabled = true);

  // Clip being played and edited, -1 when the scene has none.
  int currentClipIndex() const { return mClipIndex; }
  const Clip* currentClip() const;
  void setCurrentClip(int index);  // out-of-range indices are ignored

  // The layer of the current clip that Key Pose, auto key and Zero Key write to: an index
  // into Clip::layers, -1 for the base. View state like the current clip: a new clip starts
  // on its base, and an edit that removes the layer moves it to the one below.
  int activeLayer() const { return mActiveLayer; }
  const AnimLayer* activeLayerOfClip() const;  // null for the base
  void setActiveLayer(int layer);              // clamped to [-1, layers - 1]
  // The keys the dope sheet and the curve editor show and edit: the current clip (its base)
  // or, with a layer active, that layer's keys as a clip (layerKeysOf: its tracks with the
  // clip's rate and range). Null without a clip. Key edits go back through swapEditedKeys.
  const Clip* editedKeys() const;
  // The current clip's stack below layer `layer` at the current time (local transforms):
  // what that layer's keys play on top of. The base's channels for `layer` 0.
  Pose poseBelowLayer(int layer) const;

  // Current time in seconds, in the current clip's time (between its start and end time).
  double time() const { return mTime; }
  void setTime(double seconds);  // clamped to the clip's range
  // Frame of the current time at the clip's frame rate, 0 at the clip's start time.
  int currentFrame() const;
  // Frames of the current clip (start to end inclusive), 1 when there is no clip.
  int frameCount() const;
  void setFrame(int frame);  // clamped to [0, frameCount() - 1]
  double timeOfFrame(int frame) const;

  // Selected joints: skeleton indices, sorted, without duplicates.
  const std::vector<int>& selectedJoints() const { return mSelectedJoints; }
  bool isSelected(int joint) const;
  void setSelectedJoints(std::vector<int> joints);  // invalid indices are dropped
  // The selected IK handle of the active rig (-1: none). Selecting one keeps the joint
  // selection; both changes emit SelectionChanged. A rig change that removes it clears it.
  int selectedHandle() const { return mSelectedHandle; }
  void setSelectedHandle(int handle);  // an index outside the active rig selects none

  // The scene evaluated at the current time: local transforms (each in its parent's
  // space) and model-space matrices, one per skeleton node. Without a clip this is the
  // rest pose.
  std::span<const Transform> localPose() const { return mLocalPose; }
  std::span<const Affine> modelPose() const { return mModelPose; }

  // Rigs. The active rig is bound to the skeleton (Rig::bind) with the ground plane y = 0
  // under the character, and while it is enabled it solves the evaluated pose after the
  // clip and the pose overrides (Rig::solve at the current time, the current clip giving
  // its curves), so localPose() and modelPose() are the rig's result.
  const RigSet& rigSet() const { return mRigSet; }
  const RigDefinition* activeRig() const { return mRigSet.activeRig(); }
  // Handle `handle` of the active rig; null when there is no active rig or no such handle.
  const IkHandle* activeHandle(int handle) const;
  bool rigEnabled() const { return mRigEnabled; }
  // The bound active rig (its reports describe the last solve), null when there is no
  // active rig or it did not bind (rigError() says why).
  const Rig* boundRig() const { return mRig ? &*mRig : nullptr; }
  const QString& rigError() const { return mRigError; }
  // Whether the bound rig solved the current pose (enabled, bound, and the solve ran).
  bool rigSolved() const { return mRigSolved; }
  // Model-space matrices of the pose the rig started from (clip + overrides, before IK):
  // what IkPole::Space::Joint poles are carried by. Equals modelPose() when no rig solved.
  std::span<const Affine> inputModelPose() const { return mRigSolved ? mInputModelPose : mModelPose; }
  // Local transforms of that same pose (clip + overrides, before IK): comparing them with
  // localPose() tells which joints the rig moved. Equals localPose() when no rig solved.
  std::span<const Transform> inputLocalPose() const { return mRigSolved ? mInputLocalPose : mLocalPose; }

  // Handles of the active rig posed by hand at the current time (a drag of an animated
  // target or pole, MoveHandleCommand): the posed parts replace what the handle's definition
  // and the current clip's curves give it, as a pose override replaces a joint's keys. They
  // never change the rig or the clip: moving the time, changing the clip or the rigs drops
  // them; keying writes them.
  const std::map<int, HandlePose>& handlePoses() const { return mHandlePoses; }
  bool isHandlePosed(int handle) const { return mHandlePoses.contains(handle); }
  // Handle `handle` of the active rig with the target and pole the rig solves it with at the
  // current time (before grounding): its definition with the current clip's target and pole
  // curves over it. A target that follows the incoming pose without curves keeps
  // TargetSource::InputPose, its targetModel the tip there. nullopt for a bad index.
  std::optional<IkHandle> animatedHandle(int handle) const;
  // The same with the handle's pose (handlePoses) over it: what the viewport shows.
  std::optional<IkHandle> shownHandle(int handle) const;

  // Pose overrides: joints posed by hand at the current time, as local transforms that
  // replace what the clip gives. As in Maya and Blender, such an edit shows at once but is
  // not animation until it is keyed (KeyPoseCommand writes it into the clip); moving the
  // time or changing the clip drops it.
  const std::map<int, Transform>& poseOverrides() const { return mPoseOverrides; }
  bool hasPoseOverride(int joint) const { return mPoseOverrides.contains(joint); }

  // Edit entry points for the undo commands. Each swaps in the new value, returns the one
  // it replaced (so a command's undo is the same call with the returned value) and emits
  // one change event.
  // nullopt removes the override. Ignored (returns nullopt) for an invalid joint.
  std::optional<Transform> setPoseOverride(DocumentEditKey, int joint, std::optional<Transform> local);
  std::map<int, Transform> setPoseOverrides(DocumentEditKey, std::map<int, Transform> overrides);
  std::string renameJoint(DocumentEditKey, int joint, std::string name);
  // Puts one role label per joint (Skeleton::role; "" for none) in place and returns the
  // labels it replaced. Must hold one per joint.
  std::vector<std::string> setJointRoles(DocumentEditKey, std::vector<std::string> roles);
  // Puts the user's capture convention (up, facing, units; Scene::convention) in place and
  // returns the one it replaced. Emits RolesChanged: it is part of how the humanoid is read.
  ConventionOverride setConvention(DocumentEditKey, ConventionOverride convention);
  // Replaces clip `clipIndex` (which must exist) and re-evaluates the pose.
  Clip replaceClip(DocumentEditKey, int clipIndex, Clip clip);
  // Swaps a part of clip `clipIndex` with `part`: the joint tracks of `part` (matched by
  // joint), its named curves (matched by name) and its time range; the clip's other tracks
  // and curves stay where they are. Returns the part it replaced, so swapping that back
  // undoes it. A key drag swaps only the dragged channels this way: the cost of a mouse move
  // follows the keys dragged, not the length of the clip. Tracks and curves the clip lacks
  // are left in the returned part untouched.
  Clip swapClipPart(DocumentEditKey, int clipIndex, Clip part);
  // The same for the keys of layer `layer` of clip `clipIndex` (layer_keys.h: swapLayerKeys):
  // `keys` replaces the layer's tracks (or with `part` the tracks it holds) and the clip's
  // range; the base and the other layers stay as they are. Returns what it replaced.
  Clip swapLayerKeys(DocumentEditKey, int clipIndex, int layer, bool part, Clip keys);
  // Puts a rest pose (one local transform per skeleton node) and a clip list of as many clips
  // in place at once (RestPoseJob: a new rest keys the channels the clips left at the old
  // one), keeps the current clip and time, rebinds the active rig and re-evaluates the pose;
  // returns what it replaced. Emits CurrentClipChanged, whose listeners re-read the clips.
  // Ignored (returns `edit`) when the sizes do not match.
  RestAndClips setRestAndClips(DocumentEditKey, RestAndClips edit);
  // Replaces the scene's clip list (clip duplicate, delete) and makes clip `currentIndex`
  // current at its start time (-1 when the list is empty); returns the list it replaced.
  // Emits CurrentClipChanged, whose listeners re-read the list.
  std::vector<Clip> replaceClips(DocumentEditKey, std::vector<Clip> clips, int currentIndex);
  // Replaces every rig (an out-of-range active index means no active rig), rebinds the
  // active one and re-evaluates the pose. Emits RigChanged.
  RigSet setRigSet(DocumentEditKey, RigSet rigs);
  // Replaces handle `handle` of the active rig. A change of target or pole position only
  // (a drag) goes to the bound rig without rebinding; anything else rebinds. Emits
  // HandleEdited. Ignored (returns nullopt) without an active rig or for a bad index.
  std::optional<IkHandle> setHandle(DocumentEditKey, int handle, IkHandle value);
  // Replaces the handle poses (indices outside the active rig are dropped), re-evaluates
  // the pose and emits HandleEdited (the handle whose pose changed, -1 for several), nothing
  // when they are the same; returns the poses it replaced.
  std::map<int, HandlePose> setHandlePoses(DocumentEditKey, std::map<int, HandlePose> poses);
  // Puts the named curves of clip `clipIndex` in place (nullopt removes one) and returns
  // what each name held before (nullopt: no such curve), so swapping that back undoes it.
  // Emits ClipEdited with `handle` (the handle whose static offset this is, or -1).
  std::map<std::string, std::optional<Curve>> setClipCurves(DocumentEditKey, int clipIndex,
                                                            std::map<std::string, std::optional<Curve>> curves,
                                                            int handle = -1);
  // Emits RigEnabledChanged; returns the previous state.
  bool setRigEnabled(DocumentEditKey, bool enabled);

 signals:
  void changed(const articula::ui::ChangeEvent& event);

 private:
  // After a swap of clip `clipIndex`'s keys: the current clip's sampler, time and pose follow
  // it, and listeners hear of the edit.
  void clipKeysSwapped(int clipIndex);
  void evaluatePose();
  void clampActiveLayer();
  void emitChanged(ChangeEvent::Type type, int joint = -1, int clip = -1, int handle = -1);
  void bindRig();
  void applyHandlePoses();
  void dropHandlePoses();
  const Clip* clipForSolve();

  Scene mScene;
  QString mFilePath;
  QString mDisplayName;
  QUndoStack* const mUndoStack;
  int mClipIndex = -1;
  double mTime = 0.0;
  std::vector<int> mSelectedJoints;
  int mSelectedHandle = -1;
  LayeredClipSampler mSampler;  // what plays: the base and its layers
  int mActiveLayer = -1;
  Clip mActiveLayerKeys;  // editedKeys() while a layer is active, refreshed by emitChanged
  std::map<int, Transform> mPoseOverrides;
  Pose mLocalPose;
  std::vector<Affine> mModelPose;
  RigSet mRigSet;
  bool mRigEnabled = true;
  std::optional<Rig> mRig;
  QString mRigError;
  bool mRigSolved = false;
  std::vector<Affine> mInputModelPose;
  Pose mInputLocalPose;
  std::map<int, HandlePose> mHandlePoses;
  Clip mSolveCurves;  // the current clip's curves without the posed parts' (clipForSolve)
};

}  // namespace articula::ui
