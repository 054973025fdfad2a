#pragma once
// The bake as a user asks for it, shared by `articula-cli bake` and the editor's bake dialog
// so both produce the same clip: through the rig as it is (the clip's stride curves, an
// optional ground), or through the foot-skate cleanup (contacts detected, feet held where
// they landed).
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/bake/bake_job.h"
#include "core/bake/character_soles.h"
#include "core/bake/contact_detection.h"
#include "core/bake/skate_cleanup_figures.h"
#include "core/rig/ground.h"
#include "core/rig/rig.h"
#include "core/scene/scene.h"

namespace articula {

struct BakePipelineOptions {
  BakeOptions bake;              // range, step, joints, root motion, reduction
  bool detectContacts = false;   // true: the foot-skate cleanup
  std::optional<Ground> ground;  // with detectContacts false only: what the feet stand on
  // With detectContacts: the character's floor and feet, which no held foot goes below
  // (SkateCleanupOptions::floor).
  const CharacterSoles* floor = nullptr;
};

// What the cleanup did to one foot, for a user to act on (cleanup only).
struct FootCleanupSummary {
  std::string curveName;               // stride curve, e.g. "contact.left_foot"
  std::string handle;                  // its leg handle
  std::vector<ContactInterval> spans;  // planted spans found, frames of the source
  // Per span, how far the held ankle (or toe) slides across the up, relative to the
  // treadmill of an in-place cycle (slidePerContact), model units: source and baked clip.
  std::vector<float> slideBeforeModel;
  std::vector<float> slideAfterModel;
  std::vector<int> unreachedFrames;  // frames where the leg could not reach its held foot
};

struct BakePipelineResult {
  Clip clip;  // named like the source
  BakeReport report;
  std::map<std::string, int> contactsHeld;  // stride curve → contacts locked (cleanup only)
  std::vector<FootCleanupSummary> feet;     // cleanup only
  Vec3 groundVelocityModel = Vec3::Zero();  // cleanup only: the treadmill of an in-place cycle
  CleanupFigures moved;                     // cleanup only: displacement and foot turn against the source
};

// Most joint-frames one bake holds (frames sampled x the joints the clip animates or the rig
// moves): about 1 GB of dense poses and stride samples, three hours of a 65-joint character
// at 30 fps. A clip whose keys sit 1e9 s apart would otherwise sample 2^31 frames until
// memory runs out. Joints nothing moves hold no samples.
inline constexpr double kMaxBakeJointFrames = 20'000'000.0;
// Most joint poses one bake computes (frames x every joint of the skeleton, each posed every
// frame): about a minute. CesiumMan beside a million empty nodes is 49 million; a clip of
// 20 million frames over them would be weeks.
inline constexpr double kMaxBakeJointPoses = 200'000'000.0;

// Leaves of a skinned character that skin no vertex and that the source does not turn get no
// rotation or scale channel (KeyReductionOptions::unseenJoints): what a rig does to them
// shows nowhere, and a reader would make each an animated node of its own.
// Fails, naming the reason, when the rig does not bind to the scene's skeleton, a ground is
// given with detectContacts, the clip is too long to bake (kMaxBakeJointFrames or
// kMaxBakeJointPoses, the message says which), or the bake or cleanup refuses its input; "bake cancelled"
// when `progress` returned false.
Result<BakePipelineResult> bakeThroughRig(const Scene& scene, const Clip& source, const RigDefinition& rig,
                                          const BakePipelineOptions& options,
                                          const std::function<bool(int, int)>& progress = nullptr);
// The same, for a caller that replaces the source with the result: with detectContacts the
// cleanup takes the source's keys instead of copying them (a long take's keys are then held
// once), leaving `source` empty once it has started, even if it then fails.
Result<BakePipelineResult> bakeThroughRig(const Scene& scene, Clip&& source, const RigDefinition& rig,
                                          const BakePipelineOptions& options,
                                          const std::function<bool(int, int)>& progress = nullptr);

// Puts a baked clip among the source's clips, so a bake loses nothing of the source:
// `baked` replaces the clip at `sourceIndex`, or with `keepSource` goes right after it named
// "<source clip> baked" (" 2", " 3", … appended while that name is taken). Returns the baked
// clip's index in `clips`.
std::size_t placeBakedClip(std::vector<Clip>& clips, std::size_t sourceIndex, Clip baked, bool keepSource);

}  // namespace articula
