#pragma once
// Foot-skate cleanup: every planted foot stays where it landed (position and yaw) for its
// contact. The contacts (detected, or the clip's own stride curves) become target,
// orientation and weight curves of the rig's leg handles in a working copy of the clip; the
// legs reach them, the pelvis drops when a leg would overextend, and the result is baked and
// reduced like any other rig bake.
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "core/bake/bake_job.h"
#include "core/bake/contact_detection.h"
#include "core/rig/rig.h"
#include "core/scene/scene.h"

namespace articula {

// One foot to lock: its leg handle (a chain ending at the ankle) and its contacts, in frames
// of the clip.
struct FootLock {
  std::string handle;                  // leg handle name, e.g. "left_leg"
  FootJoints joints;                   // ankle, toe (optional), stride curve
  std::vector<ContactInterval> foot;   // the foot is planted (the stride curve's 1s)
  std::vector<ContactInterval> ankle;  // the ankle stays where it landed
  std::vector<ContactInterval> toe;    // the toe stays where it landed (the ankle turns about it)
  // Per frame of the clip, the level (model space, along the up) a held ankle does not sink
  // below (FootContacts::ankleFloorModel); empty: the animated height is kept.
  std::vector<float> ankleFloorModel;
};

// Writes, for each foot, `ik.<handle>.target.x|y|z` (the ankle, model space),
// and `ik.<handle>.orientation.w|x|y|z` (the ankle's model rotation with the yaw it landed
// with) into `clip`, one linear key per frame, blended from the animation to the lock by the
// stride curve's ramp into a contact and back over a release after it (the offset the
// contact ends with eased out over 0.15 s, or half the gap to the next contact; on a
// treadmill the stride curve's ramp), so the handle solves at full weight: any weight curve
// of it is removed.
// Within a foot contact the ankle is held where
// it landed (across the up; its height is the animation's, raised to ankleFloorModel) on its
// `ankle` frames, and turns about the held toe on the `toe` frames that are not (a rigid
// foot cannot hold both while the heel rises); each hold starts where the ankle is, so it
// never jumps. Outside contacts the targets follow the animation and, where the stride
// curve ramps, hold the nearest contact's. The orientation is the animated one turned to
// the yaw the foot landed with. `upModel`: the character's up. `groundVelocityModel`: the
// treadmill of an in-place cycle (ContactDetection::groundVelocityModel): held feet travel
// with it. A foot beside its leg (joints.legTip set) gets keys of its own for the lock, and
// the leg's target follows it. Fails on a bad joint index, a missing stride curve, an
// interval outside the clip or a floor that is not one level per frame.
std::optional<std::string> writeFootLockCurves(const Skeleton& skeleton, Clip& clip, const std::vector<FootLock>& feet,
                                               const Vec3& upModel, const Vec3& groundVelocityModel = Vec3::Zero());

// Per foot contact of `lock`, how far the held joint slides in `clip`: the path (model
// units) across `upModel`, relative to a ground moving at `groundVelocityModel`, of the ankle
// between frames where it is held, and of the toe between frames where the toe alone is
// (the ankle rolling about it moves by design). Frames are the clip's (clip.timeOf).
std::vector<float> slidePerContact(const Skeleton& skeleton, const Clip& clip, const FootLock& lock,
                                   const Vec3& upModel, const Vec3& groundVelocityModel);

struct SkateCleanupOptions {
  // True: find contacts (detectContacts, which also rewrites the stride curves); false: use
  // the clip's stride curves as they are (a foot is planted where its curve is 1; the ankle
  // is held for the whole contact).
  bool detect = true;
  ContactDetectionOptions detection;
  BakeOptions bake;  // frame range, reduction (contact starts and ends are always kept)
};

struct SkateCleanupReport {
  std::vector<FootLock> feet;  // what was locked
  // Per foot, per contact: how far the held joint slid in the source (slidePerContact).
  std::vector<std::vector<float>> slideBeforeModel;
  Vec3 groundVelocityModel = Vec3::Zero();  // the treadmill the held feet travelled with
  BakeReport bake;
};

// Runs the cleanup on `source` (a clip of `scene`) with a humanoid rig definition (its leg
// handles, and the grounding setup's pelvis, up and reach; its other handles are left off,
// so nothing but the legs and the pelvis moves).
struct SkateCleanupJob {
  const Scene* scene = nullptr;
  const Clip* source = nullptr;
  // Instead of `source`: a clip the job takes apart once it is valid (its keys are moved into
  // the job, not copied, and it is left empty, also on a later failure), for a caller that
  // replaces it with the output, as articula-cli does: a long take's keys are held once.
  Clip* consumedSource = nullptr;
  const RigDefinition* rig = nullptr;
  SkateCleanupOptions options;
  Clip* output = nullptr;  // the cleaned clip (stride curves kept, the lock curves not); untouched on failure
  std::function<bool(int, int)> progress;  // BakeJob::progress

  // nullopt when the job can run; otherwise: no scene, clip, rig or output; both a source and
  // a clip to consume; no feet found
  // (humanoidFeet); no leg handle ending at a foot's ankle; a rig that does not bind.
  std::optional<std::string> validate() const;
  Result<SkateCleanupReport> run() const;
};

}  // namespace articula
