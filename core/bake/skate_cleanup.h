#pragma once
// Foot-skate cleanup: every planted foot holds the point it stands on for its contact and
// keeps the source's turn about it. The contacts (detected, or the clip's own stride curves)
// become target and orientation curves of the rig's leg handles in a working copy of the
// clip; the pelvis is lowered, eased, where a leg could not reach, the legs reach them, and
// the result is baked and reduced like any other rig bake.
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "core/bake/bake_job.h"
#include "core/bake/character_soles.h"
#include "core/bake/contact_detection.h"
#include "core/bake/skate_cleanup_figures.h"
#include "core/rig/rig.h"
#include "core/scene/scene.h"

namespace articula {

// How long a held foot takes to reach its lock before a contact and to rejoin its animation
// after it: the offset a contact starts with (half the source's skate, up to a few
// centimetres, the contact being centred on it) eases in over this, and the one it ends with
// eases out, or over half the gap to the neighbouring contact if shorter, so the knee
// neither snaps the foot forward nor back; the pelvis eases down and up over it too.
inline constexpr double kLockEaseSeconds = 0.15;

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

// Writes, for each foot, `ik.<handle>.target.x|y|z` (the ankle, model space) and
// `ik.<handle>.orientation.w|x|y|z` (the ankle's model rotation in the source: the foot keeps
// its own turn, and the leg's solve never flips it) into `clip`, one linear key per frame,
// so the handle solves at full weight: any weight curve of it is removed.
// Within a foot contact the point that carries the weight is held: the ankle on its `ankle`
// frames (heel strike, flat foot; its height is the animation's, raised to
// ankleFloorModel), the toe on the `toe` frames that are not (push-off), the ankle turning
// about it as the source's does, so a pivot on the ball stays a pivot. Each hold starts where
// the ankle is, so it never jumps, and the contact as a whole sits at the middle of the
// source's path over it (for a steady skate, where the source's contact is at its middle
// frame). Before a contact the offset it starts with eases in with the stride curve's ramp;
// after it, the offset it ends with eases out over a release (0.15 s, or half the gap to the
// next contact; on a treadmill the stride curve's ramp). `upModel`: the character's up.
// `groundVelocityModel`: the treadmill of an in-place cycle
// (ContactDetection::groundVelocityModel): held feet travel with it. A foot beside its leg
// (joints.legTip set) gets keys of its own for the lock, and the leg's target follows it.
// `floor`: the character's floor and feet (in the order of `feet`), when known: no target
// puts the foot's lowest point below it (a retarget's: the floor read from the character's
// mesh, which the animation's own floor only approximates).
// Fails on a bad joint index, a missing stride curve, an interval outside the clip or a
// floor that is not one level per frame.
std::optional<std::string> writeFootLockCurves(const Skeleton& skeleton, Clip& clip, const std::vector<FootLock>& feet,
                                               const Vec3& upModel, const Vec3& groundVelocityModel = Vec3::Zero(),
                                               const CharacterSoles* floor = nullptr);

// Writes, for each foot's leg handle of `rig` with a pole in a joint's space (the thigh's),
// `ik.<handle>.pole.x|y|z`, one linear key per frame: a point a leg length from the knee, on
// the side the knee of `clip` bends to across the hip–tip axis, so the leg's solve keeps the
// source's knee plane on every frame instead of turning it to the rig's rest pole (the rest
// pole still decides for a leg within about 0.3° of straight, eased in, so it never flips).
void writeKneePoleCurves(const Skeleton& skeleton, Clip& clip, const RigDefinition& rig,
                         const std::vector<FootLock>& feet);

// Lowers the pelvis (the rig's grounding.pelvis) in `clip` only where a leg cannot reach
// its lock target (the `ik.<handle>.target` curves writeFootLockCurves wrote for `feet`),
// by as little as lets it reach (the rig's grounding.maxReach of the leg's rest length, or
// as far as the animation stretches the leg on that frame, up to its length: a stretched
// leg keeps its stretch), eased in and out over 0.15 s on either side:
// the pelvis's translation gets one linear key per frame. Leaves the clip as it is where
// every leg reaches. First the target of a leg whose foot is beside it (joints.legTip; the
// foot holds itself) comes towards the animation's distance from the hip by up to 0.25 % of
// the leg's length, so a leg the animation holds straight stays straight for a hold a hair
// off the source's, and the pelvis lowers only for what that leaves.
void lowerPelvisToReachLocks(const Skeleton& skeleton, Clip& clip, const RigDefinition& rig,
                             const std::vector<FootLock>& feet);

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
  // The character's floor and feet (left, right), when known: the held and eased feet never
  // go below it (writeFootLockCurves). A retarget reads it from the character's mesh.
  const CharacterSoles* floor = nullptr;
  BakeOptions bake;  // frame range, reduction (contact starts and ends are always kept)
};

struct SkateCleanupReport {
  std::vector<FootLock> feet;  // what was locked
  // Per foot, per contact: how far the held joint slid in the source (slidePerContact).
  std::vector<std::vector<float>> slideBeforeModel;
  Vec3 groundVelocityModel = Vec3::Zero();  // the treadmill the held feet travelled with
  BakeReport bake;
  // The cleaned clip against the source over the baked frames: each joint group's largest
  // displacement and each foot's turn (feet in the order of `feet`).
  CleanupFigures moved;
};

// Runs the cleanup on `source` (a clip of `scene`) with a humanoid rig definition (its leg
// handles, and the grounding setup's pelvis, up and reach; its other handles are left off,
// so nothing but the legs and the pelvis moves). A capture's calibration frame before the
// take (leadsWithRestFrame) is in no contact and eases nothing: the take is cleaned as if it
// were the clip, and the bake passes the frame through as the source has it, its stride
// curves 0.
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
