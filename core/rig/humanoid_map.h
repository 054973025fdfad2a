#pragma once
#include <string>
#include <vector>

#include "core/skeleton/skeleton.h"
#include "core/util/result.h"

namespace articula {

// Which joints of a skeleton play which humanoid role, found from names and hierarchy.
// Every index refers to the skeleton; -1 means "this skeleton has none" for the optional
// roles (toe, clavicle, neck, head).
struct HumanoidLeg {
  int thigh = -1;  // hip joint: rotates the thigh (LeftUpLeg, thigh_l, leg_joint_L_1)
  int knee = -1;   // rotates the shin (LeftLeg, calf_l)
  int ankle = -1;  // rotates the foot (LeftFoot)
  int toe = -1;    // optional: toe joint (LeftToeBase)
  // Where the thigh–knee chain ends: the ankle, or, when the foot is an IK bone beside the
  // leg rather than under it (Blender rigs such as RobotExpressive: Foot.L under the
  // armature's root), the node at the shin's tail, which the animation keeps on the foot.
  int legTip = -1;
  bool footBesideLeg() const { return legTip != ankle; }
};

struct HumanoidArm {
  int clavicle = -1;  // optional: shoulder/collar bone (LeftShoulder, clavicle_l)
  int upperArm = -1;  // shoulder joint: rotates the upper arm (LeftArm)
  int forearm = -1;   // elbow (LeftForeArm)
  int hand = -1;      // wrist (LeftHand)
};

struct HumanoidMap {
  // Pelvis: common ancestor of both thighs and the chest (a Root above Hips and Spine1
  // beside it, as in MakeHuman, is the pelvis: it carries both).
  int hips = -1;
  std::vector<int> spine;  // hips .. chest inclusive, parent before child
  int chest = -1;          // common ancestor of both upper arms (last of `spine`)
  int neck = -1;
  int head = -1;
  HumanoidLeg leftLeg, rightLeg;
  HumanoidArm leftArm, rightArm;
};

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

// The map every humanoid tool uses: the user's characterisation when the skeleton has role
// labels (mapHumanoidFromRoles, humanoid_roles.h), otherwise mapHumanoidByNames.
Result<HumanoidMap> mapHumanoid(const Skeleton& skeleton);

// Lower-case word tokens of a joint name: namespaces ("mixamorig:") dropped, camelCase and
// separators split ("LHipJoint" → l, hip, joint; "leg_joint_L__4_" → leg, joint, l, 4).
std::vector<std::string> nameTokens(const std::string& name);

}  // namespace articula
