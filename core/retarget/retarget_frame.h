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

// A bone shorter than this fraction of its character's legs has no direction to copy or
// compare (a pelvis joint a few millimetres from the hips).
inline constexpr float kShortBoneOfLegs = 0.01f;

// A bone both characters have: from one mapped joint to the next along a chain, in each
// skeleton. `targetTurns` is the target joint whose rotation aims it (the first joint of the
// target's spine above the hips for the hips → chest bone, else targetFrom; -1 when none
// can); `leg` is 0 or 1 for a bone of the left or right leg, -1 otherwise; `armIk` marks the
// upper arm and the forearm, which a hand's reach (two-bone IK) turns.
struct MappedBone {
  int sourceFrom = -1, sourceTo = -1, targetFrom = -1, targetTo = -1;
  int targetTurns = -1;
  int leg = -1;
  bool armIk = false;
};

// Hips → chest → neck → head (the spine as one bone, as rigs split it into different
// joints), clavicle → upper arm → forearm → hand, thigh → knee → the shin's tail, ankle →
// toe: every bone both maps have, parents' bones before their children's.
std::vector<MappedBone> mappedBones(const HumanoidMap& source, const HumanoidMap& target);

// mappedBones less those shorter than kShortBoneOfLegs of their character's legs at rest in
// either character.
std::vector<MappedBone> longBones(const Skeleton& source, const HumanoidMap& sourceMap, const Skeleton& target,
                                  const HumanoidMap& targetMap);

// Turns the joint that aims `bone` (targetTurns; nothing when it has none) in `targetLocal`
// so that the bone points along `wantedModel` (target model space), by the least rotation:
// what the joint's own rotation gives it about the bone (its roll) stays.
void aimBone(const Skeleton& target, std::vector<Transform>& targetLocal, const MappedBone& bone,
             const Vec3& wantedModel);

// Model-space rotations from local ones, parent before child (the skeleton's order): the
// product of the local rotations along the chain. Scales are left out: rotations compose
// the same under the uniform, positive scales characters carry (units, an armature's size).
std::vector<Quat> modelRotations(const Skeleton& skeleton, std::span<const Transform> local);

// The character's frame in its model space, as the columns of a rotation: its left (from
// the right thigh to the left one), up (from the hips to the head, else neck, else chest)
// and forward (left × up), made orthonormal about up.
Mat3 characterFrame(const HumanoidMap& map, std::span<const Affine> restModel);

// `characterFrame` stood upright on its ground: up the model axis nearest its up (the
// ground's normal), left its left made level, forward left × up. Travel over the ground maps
// between these: between the characters' own frames, one's rest lean against the other's
// tilted the ground (CMU 02_01 on RobotExpressive, whose head is 3.4° ahead of its hips,
// climbed a slope of that much).
Mat3 groundFrame(const Mat3& characterFrame);

// Height along `up` of the lowest foot joint (ankle, toe or the leg's tip) in `model`: where
// the character's floor is when it stands in that pose.
float lowestFootHeight(const HumanoidMap& map, std::span<const Affine> model, const Vec3& up);

// Mean length of the two legs, thigh to knee to the leg's tip, in model units.
float legLength(const HumanoidMap& map, std::span<const Affine> restModel);

// Mean length of the two arms, upper arm to forearm to hand, in model units; 0 when an arm
// lacks one of them.
float armLength(const HumanoidMap& map, std::span<const Affine> restModel);

// The target's rest pose with each mapped bone (mappedBones) turned to point as the source's
// bone does at rest, carried into the target's model space by `sourceToTarget`: the limbs
// of a T-pose on an A-pose, a neck bent forward on an upright one. The arms are aimed level
// and then lowered about the source's facing as its rest lowers them, so a source resting in
// an A-pose gives what its T-pose gives turned by its arms' turn. Local transforms; joints
// that aim no bone keep their rest transform; so do the bones longBones leaves out.
std::vector<Transform> alignedRestPose(const Skeleton& target, const HumanoidMap& targetMap, const Skeleton& source,
                                       const HumanoidMap& sourceMap, const Quat& sourceToTarget);

}  // namespace articula
