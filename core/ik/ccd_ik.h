#pragma once
// Cyclic coordinate descent: from the joint next to the tip back to the root, each joint turns
// so that the tip points at the target, limited to maxAngleStepRad per step (damping against
// curling), then projected onto its constraint. Solved in chain space (ik_chain.h); within a
// sweep only the tip's position is tracked (it may stop the sweep early), and one FK along the
// chain ends each sweep and decides whether the tip is within tolerance.
#include <optional>
#include <span>
#include <string>

#include "core/ik/ik_chain.h"
#include "core/ik/ik_constraints.h"

namespace articula {

struct CcdIkJob {
  // Inputs.
  const IkChain* chain = nullptr;
  // Scratch, sized for `chain` (IkChainWorkspace(chain)); overwritten by run().
  IkChainWorkspace* workspace = nullptr;
  // In: local transforms (at least chain->skeletonJointCount()). Out: the local rotations of
  // every chain joint but the tip; nothing else is written.
  std::span<Transform> pose;
  // In: model matrices of `pose`; only the chain root's parent is read (the root itself when
  // it is a skeleton root). Not updated by run().
  std::span<const Affine> model;
  // Empty, or one per chain joint (root..tip; the tip's is not used).
  std::span<const JointConstraint> constraints;

  Vec3 targetModel = Vec3::Zero();  // where the tip goes, model space
  float toleranceModel = 1e-3f;     // stop when the tip is this close, model space
  int maxIterations = 32;           // sweeps over the chain
  // Damping: the most a joint turns in one step, radians, in (0, π]. π: no damping.
  float maxAngleStepRad = 0.5f;

  // Output, optional.
  IkReport* report = nullptr;

  // nullopt when valid, else what is wrong. Fails when: no chain or no workspace; the
  // workspace not sized for the chain; constraints neither empty nor one per chain joint, or
  // one of them invalid; the target not finite; the tolerance negative or not finite;
  // maxIterations < 1; maxAngleStepRad not in (0, π]; and every failure of
  // IkChainWorkspace::load (short pose or model, non-finite or singular frame, non-uniform
  // scale inside the chain, zero-length bone). Allocates a scratch workspace.
  std::optional<std::string> validate() const;

  // Validates first (without allocating); on failure returns false and writes nothing.
  // Target beyond reach with a fixed root: the chain is laid straight towards it (the limit
  // CCD converges to), then constraints are applied root to tip.
  bool run() const;
};

}  // namespace articula
