#pragma once
// A rig: IK handles bound to a skeleton, solved on a pose frame after frame.
//
// Spaces: model space is the character's own space (the skeleton roots' parent); every
// handle target, pole and orientation lives there, so a rig works the same wherever the
// character is. World space is where the ground is: the character is placed in it by
// setWorldFromModel() (a moving, turning character changes it every frame), and the ground
// rays are carried between the two spaces.
//
// One solve (Rig::solve):
//  1. FK of the incoming pose; each handle's inputs: weight, enabled flag, target, pole and
//     tip orientation, from the handle and the clip's curves (ik_handle.h names them);
//  2. foot grounding (GroundingSetup): for each leg, a ray from above the hip through the
//     leg's target finds the planted ankle, a longer one through the toe the ground ahead;
//     the stride curve says how planted the foot is, which caps the ankle's height over the
//     planted ankle and the sole's turn off the ground (a cap, not a blend, so a solved pose
//     solved again stays where it is); without a stride curve the ankle is only kept above
//     the surface and the sole lies on it by the ankle's height; a target placed by hand or
//     by curves is only kept above the surface; the pelvis is lowered so no leg has to
//     stretch past its reach;
//  3. handles in order: spine, legs, arms, generic. Each one solves from the pose left by the
//     previous ones, sets its tip's orientation, blends with the pose it started from by its
//     weight (slerp per joint), and updates FK below it. Two cases where an iterative solver
//     alone converges slowly are seeded first: a CCD chain root–hinge–tip (an arm) gets the
//     hinge bend that matches the target's distance and a root swing onto the target; a
//     FABRIK chain that is nearly straight gets an arc bend to the target's distance and the
//     root swing. The Jacobian solvers (JacobianIkJob) see the chain as a tree with one
//     effector, the tip, and in OrientationMode::Target drive its orientation too;
//  4. grounded feet are turned onto the ground (sole along the ground between the ankle's
//     and the toe's hits, sole normal on the surface normal) and toes laid along it; a
//     a leg's foot roll turns the foot about its heel, ball or toe tip, the leg solved again;
//     a handle's followers (IK-foot bones beside a leg) go back onto its solved tip.
// The workspace (FK matrices, solver scratch, curve names) is allocated by bind(): solve()
// allocates nothing.
#include <array>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/anim/clip.h"
#include "core/ik/ik_chain.h"
#include "core/ik/ik_tree.h"
#include "core/ik/jacobian_ik.h"
#include "core/ik/two_bone_ik.h"
#include "core/rig/ground.h"
#include "core/rig/ik_handle.h"
#include "core/rig/rig_definition.h"
#include "core/skeleton/local_to_model.h"

namespace articula {

// What one handle did in the last solve.
struct HandleReport {
  bool solved = false;              // it ran: enabled, weight > 0, and its solver accepted the pose
  bool reached = false;             // errorModel <= the handle's tolerance
  float errorModel = 0.0f;          // tip to target after the blend, model space
  int iterations = 0;               // solver passes
  float weight = 0.0f;              // weight used (after curves)
  Vec3 targetModel = Vec3::Zero();  // target used (after curves and grounding)
  // The tip's turn the solve aimed at, model space, before grounding laid a foot on the
  // ground: the orientation target (Target), the incoming pose's (KeepPose) or the turn the
  // chain left it with (Free). Keyed as the orientation curves, it solves the same.
  Quat orientationModel = Quat::Identity();
};

struct FootReport {
  bool hit = false;      // the ray from above the hip found the ground
  float planted = 0.0f;  // stride-curve value used, [0, 1]
  Vec3 ankleTargetModel = Vec3::Zero();
  Vec3 groundNormalModel = Vec3::UnitY();
};

// The clip curves a rig reads, found by name once (Rig::findCurves): each handle's channels
// (ik_handle.h names them) and the feet's stride curves. A bake or a playback finds them once
// and solves frame after frame without a name look-up; they stay valid while the clip's set of
// curves does (keys may change).
struct RigCurves {
  std::vector<const Curve*> curves;  // null where the clip has no such curve (or an empty one)
};

class Rig {
 public:
  // Curve channels per handle: weight, enabled, target x y z, pole x y z, orientation w x y z,
  // roll.
  static constexpr std::size_t kHandleCurves = 13;

  Rig() = default;

  // Checks the definition against the skeleton and allocates the workspace. Fails, naming
  // the handle, when: a handle name is unusable or repeated; a solver is not available
  // yet; a chain is not an ancestor line (IkChain::build), or a two-bone chain is not 3
  // joints; limits are neither empty nor one per chain joint, or one is invalid; a pole
  // joint is out of range; weight, tolerance or soften are not finite or outside their
  // ranges; maxIterations < 1. With grounding enabled: no pelvis, a zero up vector, a foot's
  // toe not below its ankle, a negative height, maxReach outside (0, 1], or no leg handle.
  static Result<Rig> bind(const Skeleton& skeleton, RigDefinition definition);

  const RigDefinition& definition() const { return mDefinition; }
  const Skeleton& skeleton() const { return mSkeleton; }
  int handleCount() const { return static_cast<int>(mDefinition.handles.size()); }
  const IkHandle& handle(int index) const { return mDefinition.handles[static_cast<std::size_t>(index)]; }
  int findHandle(std::string_view name) const;  // -1 when none

  // Per-frame edits that need no rebinding (an out-of-range index changes nothing).
  void setTarget(int index, const Vec3& targetModel);                  // also switches to TargetSource::Handle
  void setOrientationTarget(int index, const Quat& orientationModel);  // and OrientationMode::Target
  void setPolePosition(int index, const Vec3& position);               // in the pole's space; the pole is then placed
  void setWeight(int index, float weight);                             // clamped to [0, 1]
  void setRoll(int index, float rollRad);                              // IkHandle::rollRad
  void setEnabled(int index, bool enabled);
  // Turns grounding on only when its setup passed bind's checks (which run even when the
  // definition has it off).
  void setGroundingEnabled(bool enabled) { mDefinition.grounding.enabled = enabled && mGroundingReady; }

  // Without grounding (off or no ground), still lower the pelvis (GroundingSetup::pelvis,
  // up, maxReach) so the active leg handles can reach their own targets (handle or curves):
  // a foot locked by target curves, as the skate cleanup writes, then never overextends the
  // leg. Needs a grounding setup that passed bind's checks; off by default.
  void setLowerPelvisToTargets(bool enabled) { mLowerPelvisToTargets = enabled; }

  // The ground, world space; nullopt: no grounding.
  void setGround(std::optional<Ground> groundWorld) { mGround = std::move(groundWorld); }
  const std::optional<Ground>& ground() const { return mGround; }
  // Where the character is in the world (its model space's placement). A matrix that is
  // not finite or is singular is ignored.
  void setWorldFromModel(const Affine& worldFromModel);

  // Solves every enabled handle on `pose` (local transforms, at least jointCount()), in
  // place, at clip time timeSeconds; `clip` (may be null) supplies the handles' curves and
  // the stride curves. False, with the pose untouched, when the rig is not bound (default
  // constructed), the pose is shorter than the skeleton or not finite; a handle whose solver refuses its part of the
  // pose is skipped (its report says solved = false) and the others still run.
  bool solve(std::span<Transform> pose, double timeSeconds, const Clip* clip);
  // The same with the clip's curves found beforehand (findCurves); false, with the pose
  // untouched, also when they were found for a rig with other handles.
  bool solve(std::span<Transform> pose, double timeSeconds, const RigCurves& curves);
  // The curves of `clip` (null: none) this rig reads, into `curves`.
  void findCurves(const Clip* clip, RigCurves& curves) const;

  // Reports of the last solve, one per handle in definition order.
  std::span<const HandleReport> reports() const { return mReports; }
  const FootReport& footReport(bool left) const { return mFeet[left ? 0 : 1].report; }
  // FK of the last solve's result, model space.
  std::span<const Affine> modelMatrices() const { return mModel; }

 private:
  struct BoundHandle {
    IkChain chain;
    IkChainWorkspace workspace;
    std::vector<int> fkSubtree;                // the chain root and its descendants: what the handle moves
    std::vector<JointConstraint> constraints;  // empty or one per chain joint
    bool tipLimited = false;
    JointConstraint tipConstraint;
    Vec3 tipBoneAxisLocal = Vec3::UnitX();  // tip's rotation space, for its limit
    bool hingeSeed = false;                 // CCD on root–hinge–tip: seeded analytically (seedHinge)
    // Jacobian solvers: the chain as an IkTree with one effector, the tip; [0] drives its
    // position only, [1] its orientation too (OrientationMode::Target).
    std::array<IkTree, 2> trees;
    std::array<IkTreeWorkspace, 2> treeWorkspaces;
    std::vector<JointConstraint> treeConstraints;  // empty or one per tree node (same nodes in both trees)
    std::array<IkEffectorTarget, 1> treeTarget;
    std::vector<Quat> startRotations;                   // chain joints' local rotations before the handle
    std::vector<std::vector<int>> followerSubtrees;      // IkHandle::followers and their descendants
    std::vector<Affine> followersOnTip;                  // each follower in the tip's frame, incoming pose
    std::array<std::string, kHandleCurves> curveNames;  // in RigCurves' order
    // Inputs of this frame.
    bool active = false;
    // The target is placed (TargetSource::Handle, or the clip's curves): grounding only keeps
    // it above the surface, as an animator's control is where they put it.
    bool targetPlaced = false;
    // The pole is placed (a model-space point, the clip's curves, or setPolePosition): it
    // turns the bend plane even where the tip is on its target. A pole only carried by a
    // joint follows the animation: a tip on its target leaves the chain as it is (else each
    // solve of the solved pose turned the knee again about the hip–ankle line, the carrying
    // thigh having turned).
    bool polePlaced = false;
    bool poleSetByHand = false;
    float weight = 0.0f;
    Vec3 targetModel = Vec3::Zero();
    Vec3 poleModel = Vec3::Zero();
    bool hasPole = false;
    OrientationMode orientation = OrientationMode::Free;
    float rollRad = 0.0f;
    Vec3 tipXModel = Vec3::UnitX();  // wanted tip axes, model space (KeepPose / Target)
    Vec3 tipYModel = Vec3::UnitY();
  };

  struct BoundFoot {
    int handle = -1;  // leg handle index, -1 when the side has none
    int thigh = -1, knee = -1, ankle = -1, toe = -1, toeTip = -1;
    float legLength = 0.0f;
    float soleLength = 0.0f;                // ankle to toe along the ground, rest pose
    Vec3 soleForwardAnkle = Vec3::UnitZ();  // ankle's rotation space, rest pose
    Vec3 soleUpAnkle = Vec3::UnitY();
    float toeElevationRad = 0.0f;  // toe bone above the sole plane, rest pose
    std::vector<int> toeSubtree;   // the toe and its descendants
    // This frame.
    bool grounded = false;  // ray hit and the leg is active
    float planted = 0.0f;
    Vec3 forwardModel = Vec3::UnitZ();  // planted sole forward and normal, model space
    Vec3 normalModel = Vec3::UnitY();
    Vec3 toeNormalModel = Vec3::UnitY();
    FootReport report;
  };

  // bind's stages: one handle (its checks, chain, limits, curve names), a Jacobian solver's
  // trees, the grounding's feet (nullopt when the setup is valid), one foot's rest geometry.
  static Result<BoundHandle> bindHandle(const Skeleton& skeleton, const IkHandle& h);
  static std::optional<std::string> bindTrees(const Skeleton& skeleton, const IkHandle& h, BoundHandle& b);
  std::optional<std::string> bindGrounding(const RigDefinition& definition);
  std::optional<std::string> bindFoot(BoundFoot& foot, const IkHandle& leg, const FootGrounding& fg,
                                      std::span<const Affine> rest, const Vec3& up, const Vec3& forward);

  void resolveInputs(int index, const RigCurves& curves, double timeSeconds, bool keepTarget);
  void resolveOrientation(const IkHandle& h, BoundHandle& b, const Curve* const* curve, double timeSeconds);
  void groundFeet(std::span<Transform> pose, const RigCurves& curves, double timeSeconds);
  void lowerPelvisToTargets(std::span<Transform> pose, const RigCurves& curves, double timeSeconds);
  void lowerPelvis(std::span<Transform> pose, const RigCurves& curves, double timeSeconds, float drop);
  void solveHandle(int index, std::span<Transform> pose);
  // The handle's solver kind's adapter: its job set up from the handle and run; false when
  // the solver refused the pose.
  bool runSolver(const IkHandle& h, BoundHandle& b, std::span<Transform> pose, bool needsWork, IkReport& report);
  bool solveTwoBone(const IkHandle& h, const BoundHandle& b, std::span<Transform> pose, IkReport& report);
  template <typename ChainJob>
  void fillChainJob(ChainJob& job, const IkHandle& h, BoundHandle& b, std::span<Transform> pose, IkReport& report);
  bool solveCcd(const IkHandle& h, BoundHandle& b, std::span<Transform> pose, bool needsWork, IkReport& report);
  bool solveFabrik(const IkHandle& h, BoundHandle& b, std::span<Transform> pose, bool needsWork, IkReport& report);
  // The tip turned to its orientation target or kept orientation, laid on the ground when its
  // foot is grounded, within its limit.
  void orientTip(const BoundHandle& b, const BoundFoot* foot, std::span<Transform> pose);
  bool solveJacobian(const IkHandle& h, BoundHandle& b, std::span<Transform> pose, IkReport& report);
  void seedHinge(BoundHandle& b, std::span<Transform> pose);
  void swingRoot(BoundHandle& b, std::span<Transform> pose);
  void bendToReach(BoundHandle& b, std::span<Transform> pose);
  bool nearlyStraight(const BoundHandle& b) const;
  Affine chainFrame(const BoundHandle& b) const;  // model matrix of the chain root's parent
  void alignToe(BoundFoot& foot, std::span<Transform> pose, float weight);
  // The solved foot of `foot`'s leg turned by its roll (IkHandle::rollRad) about the heel, the
  // ball or the toe tip on the ground: the leg solved again to the turned ankle, the foot and
  // (about the heel or the toe tip) the toes turned with it.
  void rollFoot(const IkHandle& h, BoundHandle& b, const BoundFoot& foot, std::span<Transform> pose, IkReport& report);
  // IkHandle::followers back on the solved tip (followersOnTip, kept before the solve).
  void carryFollowers(const IkHandle& h, BoundHandle& b, std::span<Transform> pose);
  // HandleReport::orientationModel of `b` on the tip's model matrix as it is now.
  Quat aimedOrientation(const BoundHandle& b) const;
  // FK of a sub-tree (Skeleton::subtree, kept from bind), linear in its size; empty: all.
  void updateModel(std::span<const Transform> pose, std::span<const int> subtree);

  Skeleton mSkeleton;
  RigDefinition mDefinition;
  bool mGroundingReady = false;
  bool mLowerPelvisToTargets = false;
  std::vector<BoundHandle> mBound;
  std::vector<int> mOrder;          // handle indices in solve order
  std::array<BoundFoot, 2> mFeet;   // left, right
  std::vector<int> mPelvisSubtree;  // the grounding's pelvis and its descendants
  std::vector<HandleReport> mReports;
  RigCurves mFrameCurves;  // solve(pose, time, clip)'s look-ups, sized by bind
  std::vector<Affine> mModel;
  std::optional<Ground> mGround;
  Affine mWorldFromModel = Affine::Identity();
};

}  // namespace articula
