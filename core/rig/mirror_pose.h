#pragma once
// Left ↔ right of a humanoid pose across the character's own symmetry plane (Maya's Mirror
// Pose, Blender's Paste X-Flipped Pose). Joints are paired by the humanoid role map
// (mapHumanoid: legs and arms side for side, the hips, spine, neck and head each with
// itself); the plane passes through the hips of the rest pose, its normal the character's
// left (humanoidFrame), so a character modelled off the origin or facing any axis mirrors
// onto itself.
#include <span>
#include <vector>

#include "core/skeleton/local_to_model.h"
#include "core/util/result.h"

namespace articula {

struct PoseMirror {
  // Per skeleton joint: its partner on the other side, itself on the centre line, -1 for a
  // joint the map does not pair (fingers, props), which keeps its local transform.
  std::vector<int> partner;
  std::vector<int> leftJoints;  // the left limbs' joints, ascending
  // Reflection across the symmetry plane, model space (determinant -1).
  Affine reflectionModel = Affine::Identity();
  // Rest pose, model space: a joint takes its partner's pose relative to the rest pose, so
  // the rest pose mirrors onto itself whatever the joints' local axes are.
  std::vector<Affine> restModel;
};

// Fails with mapHumanoid's or humanoidFrame's message when the skeleton is not humanoid.
Result<PoseMirror> buildPoseMirror(const Skeleton& skeleton);

// `local` (one local transform per joint, each in its parent's space) where every joint of
// `targets` with a partner takes its partner's pose reflected across the plane, in model
// space; every other joint keeps its local transform (so it moves with its parent). Flip:
// targets = every paired joint; mirror one side: targets = the other side's joints.
Pose mirroredPose(const PoseMirror& mirror, const Skeleton& skeleton, std::span<const Transform> local,
                  std::span<const int> targets);

}  // namespace articula
