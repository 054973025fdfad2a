#pragma once
// The humanoid map: which joints of a skeleton play which humanoid role. Only the types, so
// each way of finding one (names, the user's role labels, the shape) includes this alone.
#include <vector>

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

}  // namespace articula
