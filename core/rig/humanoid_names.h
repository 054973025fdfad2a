#pragma once
// The humanoid map found from joint names (and, where names say nothing, from the shape).
#include <string>
#include <vector>

#include "core/rig/humanoid.h"
#include "core/skeleton/skeleton.h"
#include "core/util/result.h"

namespace articula {

// Maps the conventions in use: the project's mannequin and Mixamo (LeftUpLeg, mixamorig:),
// CMU/MotionBuilder BVH (LHipJoint, LeftUpLeg, Spine1, Neck1), Unreal/Biped-like
// (thigh_l, calf_l, "Bip01 L Thigh"), and the Khronos samples (leg_joint_L_1..5,
// arm_joint_L_*, torso_joint_*), whose digits are not always in chain order — chains are
// resolved through the hierarchy, names only pick the anchors. Names may carry `.L`/`_L`
// sides and namespaces; helper joints at their child's position are passed over; a foot
// beside the leg (an IK bone) is matched to the shin's tail. The error names every limb
// that could not be found. Where the names give no humanoid, the skeleton's shape may
// (mapHumanoidByStructure, humanoid_structure.h).
Result<HumanoidMap> mapHumanoidByNames(const Skeleton& skeleton);

// Lower-case word tokens of a joint name: namespaces ("mixamorig:") dropped, camelCase and
// separators split ("LHipJoint" → l, hip, joint; "leg_joint_L__4_" → leg, joint, l, 4).
std::vector<std::string> nameTokens(const std::string& name);

}  // namespace articula
