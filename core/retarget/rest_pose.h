#pragma once
// A skeleton's rest pose set without changing its motion, and the standing reference poses a
// capture whose rest lies down is characterised, baked and retargeted from.
//
// A key holds a joint's whole local transform (glTF's rule), not an offset from the rest, so
// the rest only shows where a clip leaves a channel unkeyed: setting it rewrites exactly
// those channels (a constant key holding the old rest) and every joint's model-space motion
// is unchanged to the float. A skin's inverse bind matrices describe the mesh's bind pose,
// not the rest, so they stay valid and are kept.
#include <optional>
#include <span>
#include <string>

#include "core/retarget/capture_convention.h"
#include "core/scene/scene.h"
#include "core/skeleton/local_to_model.h"

namespace articula {

struct RestPoseJob {
  const Scene* scene = nullptr;
  // The new rest: one local transform per node of scene->skeleton, in its parent's space.
  std::span<const Transform> restLocal;

  // nullopt when the job can run; else what is wrong (no scene, a pose of another size, a
  // non-finite transform or a zero rotation or scale, a clip invalid for the skeleton).
  std::optional<std::string> validate() const;
  // The scene with the new rest, each clip keying every channel whose rest changed and it
  // did not key (at its start time, the old rest's value).
  Result<Scene> run() const;
};

// `clip`, made for `keyedOn`'s rest, made for `target`'s (the same joints): each channel it
// leaves unkeyed whose rest differs gets a constant key holding `keyedOn`'s rest, so its motion
// is unchanged. How a clip baked on a stood-up capture goes back to the document's rest.
Clip clipOnRest(Clip clip, const Skeleton& keyedOn, const Skeleton& target);

// The local pose of `clip` at `frame` (counted from its start at its frame rate).
Pose poseAtFrame(const Skeleton& skeleton, const Clip& clip, int frame);

// `standingLocal` with its limbs laid out as a T: spine, neck and head straight up, legs
// straight down, upper arms, forearms and hands straight out to each side, each bone turned
// by the least rotation (so twists are kept); hips, clavicles, feet, hands' children as they
// were. `upModel` and `forwardModel` unit and perpendicular (CaptureConvention's).
Pose tPoseOf(const Skeleton& skeleton, const HumanoidMap& map, const Pose& standingLocal, const Vec3& upModel,
             const Vec3& forwardModel);

// The rest pose turned as a whole (at the hips' root joint) by the convention's
// restToStandingModel: the reference a rest that lies down stands up to.
Pose standingReferencePose(const Skeleton& skeleton, const HumanoidMap& map, const CaptureConvention& convention);

// A scene ready for the humanoid tools: when its rest pose does not stand in its clip, the
// rest is set to standingReferencePose (RestPoseJob), so characterisation, the humanoid rig,
// contacts and retargeting read an upright figure while the motion is unchanged.
struct StandingCapture {
  Scene scene;
  // Absent when the skeleton is not a humanoid (the scene is then returned as it was).
  std::optional<CaptureConvention> convention;
  bool restChanged = false;
};
// Clip `clipIndex` of the scene when the convention can read it (it has frames and is valid
// for the skeleton), else nullptr: the rest pose then decides alone.
const Clip* conventionClip(const Scene& scene, std::size_t clipIndex = 0);
// The convention job of clip `clipIndex` (conventionClip) with the user's override
// (Scene::convention): what every reader of a scene's convention runs. `map` is of
// scene.skeleton; both outlive the job.
CaptureConventionJob conventionJobFor(const Scene& scene, const HumanoidMap& map, std::size_t clipIndex = 0);

// The standing figure's height (model units): the convention's, else Scene::characterHeight.
float standingHeight(const StandingCapture& capture);
// The standing figure's height (model units) in clip `clipIndex` (conventionClip), whatever
// the rest pose: the convention's, else Scene::characterHeight.
float standingHeightOf(const Scene& scene, std::size_t clipIndex = 0);
// Analyses clip `clipIndex` (through conventionClip). Fails, naming the file, when
// the convention cannot be decided (CaptureConventionJob::run).
Result<StandingCapture> standUpright(Scene scene, std::size_t clipIndex = 0);

}  // namespace articula
