#pragma once
// How two humanoids stand in their own model spaces, so a motion can pass from one to the
// other: their facing, their leg length, and the target's rest pose re-posed with its limbs
// pointing as the source's do at rest (a T-pose source on an A-pose target).
#include <span>
#include <vector>

#include "core/math/transform.h"
#include "core/rig/humanoid_map.h"
#include "core/skeleton/skeleton.h"

namespace articula {

// Model-space rotations from local ones, parent before child (the skeleton's order): the
// product of the local rotations along the chain. Scales are left out: rotations compose
// the same under the uniform, positive scales characters carry (units, an armature's size).
std::vector<Quat> modelRotations(const Skeleton& skeleton, std::span<const Transform> local);

// The character's frame in its model space, as the columns of a rotation: its left (from
// the right thigh to the left one), up (from the hips to the head, else neck, else chest)
// and forward (left × up), made orthonormal about up.
Mat3 characterFrame(const HumanoidMap& map, std::span<const Affine> restModel);

// Height along `up` of the lowest foot joint (ankle, toe or the leg's tip) in `model`: where
// the character's floor is when it stands in that pose.
float lowestFootHeight(const HumanoidMap& map, std::span<const Affine> model, const Vec3& up);

// Mean length of the two legs, thigh to knee to the leg's tip, in model units.
float legLength(const HumanoidMap& map, std::span<const Affine> restModel);

// The target's rest pose with each mapped limb bone (clavicle, upper arm, forearm, thigh,
// shin, foot) turned to point as the source's bone does at rest, carried into the target's
// model space by `sourceToTarget`. Local transforms; joints that are not limb bones keep
// their rest transform.
std::vector<Transform> alignedRestPose(const Skeleton& target, const HumanoidMap& targetMap, const Skeleton& source,
                                       const HumanoidMap& sourceMap, const Quat& sourceToTarget);

}  // namespace articula
