#pragma once
// The Jacobian family of IK solvers on a tree of joints with several end effectors (ik_tree.h):
// three rotational degrees of freedom per solved joint, position targets and optional
// orientation targets. Each iteration: FK and the analytic Jacobian J in tree space, a step
//  - Transpose:          Δθ = α Jᵀe, α = (e·JJᵀe)/|JJᵀe|² (Buss 2004);
//  - PseudoInverse:      Δθ = J⁺e through the SVD of J (singular values below 1e-4 of the
//                        largest dropped);
//  - DampedLeastSquares: Δθ = Jᵀ(JJᵀ + λ²I)⁻¹e;
//  - SelectivelyDamped:  Buss & Kim 2005: each singular direction's step is bounded by how far
//                        it moves the effectors, γᵢ = min(1, Nᵢ/Mᵢ)·γmax;
// then each joint's step is clamped to maxAngleStepRad and its rotation projected onto its
// constraint. The SVD comes from the eigen-decomposition of the small symmetric JJᵀ (rows =
// 3 per effector, 6 with orientation): σᵢ² its eigenvalues, uᵢ its eigenvectors,
// vᵢ = Jᵀuᵢ/σᵢ. Buffers live in the workspace; run() allocates nothing.
#include <optional>
#include <span>
#include <string>

#include "core/ik/ik_chain.h"
#include "core/ik/ik_constraints.h"
#include "core/ik/ik_tree.h"

namespace articula {

// What one effector should reach, model space.
struct IkEffectorTarget {
  Vec3 positionModel = Vec3::Zero();
  // Wanted rotation of the effector's frame (its model matrix without scale), model space.
  // Only for effectors built with orientation = true; needs a frame above the tree without
  // mirroring or non-uniform scale (a rotation times a positive uniform scale).
  bool hasOrientation = false;
  Quat orientationModel = Quat::Identity();
};

struct JacobianIkJob {
  enum class Method : unsigned char { Transpose, PseudoInverse, DampedLeastSquares, SelectivelyDamped };

  // Inputs.
  const IkTree* tree = nullptr;
  // Scratch, sized for `tree` (IkTreeWorkspace(tree)); overwritten by run().
  IkTreeWorkspace* workspace = nullptr;
  // In: local transforms (at least tree->skeletonJointCount()). Out: the local rotations of
  // the solved nodes; nothing else is written.
  std::span<Transform> pose;
  // In: model matrices of `pose`; only the tree root's parent is read (the root itself when
  // it is a skeleton root). Not updated by run().
  std::span<const Affine> model;
  // One per effector of the tree, in the tree's effector order.
  std::span<const IkEffectorTarget> targets;
  // Empty, or one per tree node (IkTree node order); each joint's bone axis points to its
  // first child node. Applied as clamping after every step.
  std::span<const JointConstraint> constraints;

  Method method = Method::DampedLeastSquares;
  // λ of DampedLeastSquares, as a fraction of the tree's length (sum of its bones).
  float damping = 0.1f;
  // The most a joint turns in one iteration, radians, in (0, π]; also SDLS's γmax.
  float maxAngleStepRad = 0.5f;
  // Rows of orientation errors are weighted by orientationWeight × the tree's length (an
  // error of one radian counts as that distance).
  float orientationWeight = 0.5f;
  float toleranceModel = 1e-3f;  // every effector this close, model space
  float toleranceRad = 1e-3f;    // every orientation target this close, radians
  int maxIterations = 200;

  // Output, optional: errorModel is the largest effector distance, orientationErrorRad the
  // largest orientation error.
  IkReport* report = nullptr;

  // nullopt when valid, else what is wrong. Fails when: no tree or no workspace; the
  // workspace not sized for the tree; targets not one per effector; a target position or
  // orientation not finite, or an orientation zero; an orientation target on an effector
  // built without orientation; constraints neither empty nor one per node, or one invalid;
  // damping, maxAngleStepRad, orientationWeight or a tolerance out of range or not finite
  // (damping ≥ 0, maxAngleStepRad in (0, π], orientationWeight > 0, tolerances ≥ 0);
  // maxIterations < 1; an orientation target under a mirroring or non-uniformly scaled frame;
  // and every failure of IkTreeWorkspace::load. Allocates a scratch workspace.
  std::optional<std::string> validate() const;

  // Validates first (without allocating); on failure returns false and writes nothing.
  // One effector without orientation whose target is beyond reach of its joint line: the
  // line is laid straight towards the target (then constraints apply), reached = false.
  bool run() const;
};

}  // namespace articula
