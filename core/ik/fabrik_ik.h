#pragma once
// FABRIK (Aristidou & Lasenby 2011) on a contiguous array of chain-space positions
// (ik_chain.h), with local rotations recovered afterwards: each joint's input rotation is
// turned by the minimal rotation from its input bone direction to the solved one, so the
// twist about each bone is kept from the input pose.
//
// Constraints: the backward pass (tip → root) bounds the angle between neighbouring bones by
// each joint's bounding cone (cones and hinges), where the parents' frames are not known yet;
// the forward pass (root → tip) recovers each joint's rotation in its parent's actual frame
// and projects it onto the constraint (cones, hinges, twist), so a constrained solve ends
// with rotations that honour every limit exactly. Unconstrained chains move positions only
// and recover rotations once the positions are within tolerance (and pass again if FK of
// the recovered rotations is a rounding error outside it). So do chains whose limits are
// all angles between neighbouring bones — circular cones without twist limits about the
// previous bone (Caliko's ball joints), and any circular cone at the root — because there
// both passes honour the limits exactly on positions; the recovery still projects.
#include <optional>
#include <span>
#include <string>

#include "core/ik/ik_chain.h"
#include "core/ik/ik_constraints.h"

namespace articula {

struct FabrikIkJob {
  enum class RootMode : unsigned char {
    Fixed,   // sub-base: the root stays where it is
    Moving,  // the root may translate (Caliko's free base): each forward pass starts where
             // the backward pass left the root, and the root's local translation is written
  };

  // Inputs.
  const IkChain* chain = nullptr;
  // Scratch, sized for `chain` (IkChainWorkspace(chain)); overwritten by run().
  IkChainWorkspace* workspace = nullptr;
  // In: local transforms (at least chain->skeletonJointCount()). Out: the local rotations of
  // every chain joint but the tip, and with RootMode::Moving the root's local translation.
  std::span<Transform> pose;
  // In: model matrices of `pose`; only the chain root's parent is read (the root itself when
  // it is a skeleton root). Not updated by run().
  std::span<const Affine> model;
  // Empty, or one per chain joint (root..tip; the tip's is not used).
  std::span<const JointConstraint> constraints;

  Vec3 targetModel = Vec3::Zero();  // where the tip goes, model space
  float toleranceModel = 1e-3f;     // stop when the tip is this close, model space
  int maxIterations = 16;           // backward + forward passes
  RootMode rootMode = RootMode::Fixed;
  // A nearly straight input chain aimed at a target well inside its reach is FABRIK's slow
  // start (each pass bends it a little more): bend it first into an arc whose chord points
  // at the target, within the limits when they are angles between neighbouring bones, and
  // if that solve misses, solve again from the input pose. false: FABRIK from the input pose.
  bool seedStraightChains = true;

  // Output, optional.
  IkReport* report = nullptr;

  // nullopt when valid, else what is wrong. Fails when: no chain or no workspace; the
  // workspace not sized for the chain; constraints neither empty nor one per chain joint, or
  // one of them invalid; the target not finite; the tolerance negative or not finite;
  // maxIterations < 1; and every failure of IkChainWorkspace::load (short pose or model,
  // non-finite or singular frame, non-uniform scale inside the chain, zero-length bone).
  // Allocates a scratch workspace.
  std::optional<std::string> validate() const;

  // Validates first (without allocating); on failure returns false and writes nothing.
  // Target beyond reach with a fixed root: the chain is laid straight towards it, then
  // constraints are applied root to tip. With constraints, the passes also stop once three
  // in a row bring the tip less than 1 % closer (limits can leave a target out of reach
  // inside the chain's length); reached then says false.
  bool run() const;
};

}  // namespace articula
