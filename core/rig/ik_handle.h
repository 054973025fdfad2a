#pragma once
// An IK handle: what the animator places (a target, a pole, a weight) and which solver moves
// which chain of joints to follow it. This is editable data; Rig (rig.h) binds handles to a
// skeleton and solves them.
//
// Animated handles. A clip drives a handle through named curves (Clip::curves); a curve that
// exists overrides the handle's own value at the solved time, component by component:
//   ik.<handle>.weight                 IK/FK blend weight, clamped to [0, 1]
//   ik.<handle>.target.x|y|z           target position, model space
//   ik.<handle>.pole.x|y|z             pole position, in the pole's space (IkPole::space)
//   ik.<handle>.orientation.w|x|y|z    tip orientation target, model space (normalised;
//                                      any of the four present switches the handle to
//                                      OrientationMode::Target)
//   ik.<handle>.enabled                on when > 0.5
//   ik.<handle>.roll                   foot roll, radians (IkHandle::rollRad)
// Handle names are therefore restricted to letters, digits, '_' and '-' (no '.').
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/math/types.h"
#include "core/rig/joint_limit.h"

namespace articula {

// One value per solver of core/ik; Rig::bind solves every one of them. A value outside the
// enumeration (a damaged file) is refused by Rig::bind (isSolverAvailable).
enum class IkSolverKind : std::uint8_t {
  TwoBone,          // TwoBoneIkJob, law of cosines (chain of exactly 3 joints)
  TwoBoneTrigFree,  // TwoBoneIkJob, circle intersection (chain of exactly 3 joints)
  Ccd,              // CcdIkJob
  Fabrik,           // FabrikIkJob
  JacobianTranspose,
  JacobianPseudoInverse,
  DampedLeastSquares,
  SelectivelyDampedLeastSquares,
};
inline constexpr int kIkSolverKindCount = 8;

// "two_bone", "two_bone_trig_free", "ccd", "fabrik", "jacobian_transpose",
// "jacobian_pseudo_inverse", "damped_least_squares", "selectively_damped_least_squares".
std::string_view solverKindName(IkSolverKind kind);
std::optional<IkSolverKind> solverKindFromName(std::string_view name);
bool isSolverAvailable(IkSolverKind kind);

// What the handle is for. Rig solves the spine first, then the legs, then the arms, then
// generic handles (each group in the order the handles are listed): the limbs hang from
// the spine, so they must see the spine's result. Legs also take part in foot grounding.
enum class HandleRole : std::uint8_t { Generic, Spine, LeftLeg, RightLeg, LeftArm, RightArm };
std::string_view handleRoleName(HandleRole role);  // "generic", "spine", "left_leg", ...
std::optional<HandleRole> handleRoleFromName(std::string_view name);

// Where the target comes from before curves override it.
enum class TargetSource : std::uint8_t {
  InputPose,  // the tip's position in the incoming (FK) pose: IK changes nothing until a curve,
              // grounding or the handle moves it
  Handle,     // IkHandle::targetModel
};

// What happens to the tip joint's own rotation.
enum class OrientationMode : std::uint8_t {
  Free,      // the tip keeps its local rotation (it turns with the chain)
  KeepPose,  // the tip keeps its model-space orientation from the incoming pose
  Target,    // the tip takes IkHandle::orientationModel
};

struct IkPole {
  enum class Space : std::uint8_t {
    None,   // no pole: the bend plane turns minimally from the pose's
    Model,  // `position` is a model-space point
    Joint,  // `position` is a point in `joint`'s local frame (carried by its incoming-pose
            // model matrix), so the pole follows the animation
  };
  Space space = Space::None;
  int joint = -1;
  Vec3 position = Vec3::Zero();

  bool operator==(const IkPole& o) const { return space == o.space && joint == o.joint && position == o.position; }
};

struct IkHandle {
  std::string name;
  HandleRole role = HandleRole::Generic;
  IkSolverKind solver = IkSolverKind::Ccd;
  std::vector<int> chain;          // skeleton joint indices, root .. tip, an ancestor line
  std::vector<JointLimit> limits;  // empty, or one per chain joint (the tip's limits the
                                   // tip's orientation); two-bone solvers ignore all but the tip's
  TargetSource targetSource = TargetSource::Handle;
  Vec3 targetModel = Vec3::Zero();
  OrientationMode orientation = OrientationMode::Free;
  Quat orientationModel = Quat::Identity();  // the tip's model-space rotation (Target mode)
  IkPole pole;                               // two-bone solvers only
  float weight = 1.0f;                       // 0 = FK pose, 1 = IK result, slerp in between
  int maxIterations = 16;                    // iterative solvers
  float toleranceModel = 1e-4f;              // reached when the tip is this close, model space
  float soften = 1.0f;                       // two-bone softening near full extension (1: off)
  // Foot roll of a leg whose foot the grounding knows (its toe set), as a reverse-foot rig's:
  // > 0 lifts the heel about the ball of the foot (past 40° about the toe tip as well), < 0
  // lifts the toes about the heel. The handle's target stays where it is: the foot turns
  // about the pivot on the ground.
  float rollRad = 0.0f;
  bool enabled = true;
  // Joints outside the chain carried by its tip: each keeps, after the solve, the place and
  // turn it had relative to the tip in the incoming pose (an IK-foot bone beside the leg,
  // as RobotExpressive's Foot.L under the armature's root, stays on the solved shin).
  std::vector<int> followers;

  bool operator==(const IkHandle& o) const;
};

// "ik.<handle>.<channel>", e.g. handleCurveName("left_leg", "target.x").
std::string handleCurveName(std::string_view handle, std::string_view channel);

// nullopt when the name is usable in curve names (non-empty; letters, digits, '_', '-').
std::optional<std::string> validateHandleName(std::string_view name);

}  // namespace articula
