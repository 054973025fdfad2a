#pragma once
#include <span>

#include "core/math/transform.h"
#include "core/skeleton/skeleton.h"

namespace articula {

// A pose: one local transform per joint, in the parent's space, indexed like the skeleton.
using Pose = std::vector<Transform>;

// Forward kinematics, local → model space, as ozz's LocalToModelJob.
// Model matrices are affine (they carry scale and mirroring of every ancestor).
struct LocalToModelJob {
  const Skeleton* skeleton = nullptr;
  std::span<const Transform> local;  // input, jointCount() entries, each in its parent's space
  std::span<Affine> model;           // output, jointCount() entries, in model space
  // Optional transform of the skeleton's roots (the character's placement in the world).
  const Affine* root = nullptr;
  // Partial update: only `from` and its descendants are recomputed; the model matrices of
  // every other joint (and of `from`'s parent) must already be up to date.
  // kNoParent updates everything.
  int from = kNoParent;
  // Partial update over a sub-tree listed parent first (Skeleton::subtree): only those joints
  // are recomputed, in time linear in their count, where `from` alone walks every later joint
  // up its parents (quadratic along a long chain). Used instead of `from` when not empty;
  // each joint's parent outside the list must already be up to date.
  std::span<const int> subtree = {};

  // False when: no skeleton, spans shorter than jointCount(), `from` or a sub-tree joint out
  // of range.
  bool validate() const;
  // Validates first; on failure `model` is left untouched.
  bool run() const;

 private:
  void updateJoint(int i) const;
};

// Convenience: full FK into a new vector.
std::vector<Affine> localToModel(const Skeleton& skeleton, std::span<const Transform> local);

}  // namespace articula
