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

  // False when: no skeleton, spans shorter than jointCount(), `from` out of range.
  bool validate() const;
  // Validates first; on failure `model` is left untouched.
  bool run() const;
};

// Convenience: full FK into a new vector.
std::vector<Affine> localToModel(const Skeleton& skeleton, std::span<const Transform> local);

}  // namespace articula
