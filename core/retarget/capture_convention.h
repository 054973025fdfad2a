#pragma once
// What a capture assumes without saying: which way is up, which way the figure faces, its
// units, frame rate and whether its rest pose stands. Decided once from the skeleton and
// its motion, so a BVH whose rest lies along +X with every rotation zero (the hips turned
// ~90° each frame to stand it up: LaFAN1, Bandai-Namco) gives the same results as one whose
// rest stands.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/anim/clip.h"
#include "core/rig/humanoid_map.h"
#include "core/scene/scene.h"
#include "core/skeleton/skeleton.h"
#include "core/util/result.h"

namespace articula {

enum class RestPoseKind {
  StandingT,      // upright, upper arms within 20° of horizontal
  StandingA,      // upright, upper arms 20-60° below horizontal
  StandingOther,  // upright, arms lower (or no arms)
  NotStanding,    // the rest's hips-to-head line is not the clip's up (lying, upside down)
};
// "standing T", "standing A", "standing (arms down)", "not standing".
const char* restPoseKindName(RestPoseKind kind);
// "+Y", "-Z" for a model axis; "(0.71, 0.71, 0.00)" otherwise.
std::string axisName(const Vec3& v);
// The signed model axis a user names: "+X", "-y", "Z" (= "+Z"); nullopt for anything else.
std::optional<Vec3> axisFromName(std::string_view name);
// Model units in one metre for a unit a user names: m, dm, cm, mm, in (or metres, decimetres,
// centimetres, millimetres, inches); nullopt for anything else.
std::optional<double> unitsPerMetreFromName(std::string_view name);
// "centimetres" for 100, ...; the number itself ("25 units per metre") for any other.
std::string unitsName(double unitsPerMetre);
// The units a user can name (m, dm, cm, mm, in), as model units per metre.
std::vector<double> namedUnitsPerMetre();
// nullopt when the override can be applied; else why not in one line (an up or facing that
// is not a model axis, a facing parallel to the up, units not above zero).
std::optional<std::string> checkOverride(const ConventionOverride& userOverride);

struct CaptureConvention {
  // The figure's up and facing in model space, each snapped to the nearest model axis when
  // within 25° of it; from the rest pose when it stands in the clip, else from the motion.
  Vec3 upModel = Vec3::UnitY();
  Vec3 forwardModel = Vec3::UnitZ();
  std::string upDecidedBy;
  std::string forwardDecidedBy;
  RestPoseKind restKind = RestPoseKind::StandingT;
  std::string restKindDecidedBy;
  // The model-space turn (about the model's origin) that stands the rest pose up in the
  // clip's up and facing: identity when the rest stands.
  Quat restToStandingModel = Quat::Identity();
  // The standing figure's extent along the up (model units), and the feet's floor: the 5th
  // percentile of the ankles' heights along the up over the clip (the rest's lowest ankle
  // without a clip).
  float heightModel = 0.0f;
  float floorModel = 0.0f;
  // Model units in one metre, guessed from the height (a person 1.2-2.2 m tall), and its name
  // ("metres", "centimetres", "decimetres", "millimetres", "inches", or "unknown" with 1).
  double unitsPerMetre = 1.0;
  std::string units;
  std::string unitsDecidedBy;
  double frameRate = 0.0;  // the clip's; 0 without a clip
  std::string frameRateDecidedBy;
};

struct CaptureConventionJob {
  const Skeleton* skeleton = nullptr;
  const HumanoidMap* map = nullptr;  // of `skeleton`
  // Optional: without a clip the rest pose decides alone (and is taken to stand).
  const Clip* clip = nullptr;
  // What the user set (Scene::convention): a set up, facing or units is taken as it is, and
  // the rest is decided around it (an up the rest does not stand along stands it up).
  ConventionOverride userOverride;

  // nullopt when the job can run; else what is missing (skeleton, map, a map joint outside
  // the skeleton, a clip with no frames or invalid for the skeleton) or an override
  // checkOverride refuses.
  std::optional<std::string> validate() const;
  // Fails when the rest pose does not stand along the model's Y or Z axis and the figure
  // never stands in the clip either (its hips are not above its feet along one direction in
  // 40 % of the frames) and the user set no up: nothing says where up is. Fails too when
  // the facing the user set is parallel to the up decided.
  Result<CaptureConvention> run() const;
};

}  // namespace articula
