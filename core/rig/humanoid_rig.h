#pragma once
// The humanoid rig, built from a skeleton's joint names and hierarchy (mapHumanoid): the
// project's mannequin, CMU/MotionBuilder BVH, Mixamo, Unreal- and Biped-like names and the
// Khronos samples all work. The result is an ordinary RigDefinition: edit it by hand, save
// it (core/project/rig_json.h), bind it (Rig::bind).
//
// Handles (names fixed, so clips can address them: ik.left_leg.target.x, ...):
//  - "spine"      FABRIK from the joint above the pelvis to the chest (the pelvis is not
//                 turned, so the legs do not swing; with a single bone between pelvis and
//                 chest, as in the Khronos samples, the chest can only move on a sphere);
//                 the chest keeps its model-space orientation (OrientationMode::KeepPose);
//  - "left_leg", "right_leg"   two-bone thigh–knee–ankle (or the shin's tail when the foot is
//                 an IK bone beside the leg), pole a leg length in front of
//                 the knee, carried by the thigh (IkPole::Space::Joint) so it follows the
//                 animation; the foot keeps its animated orientation, and grounding lays
//                 foot and toe on the ground;
//  - "left_arm", "right_arm"   CCD upper arm–forearm–hand: shoulder ball-and-socket cone
//                 around the rest direction, elbow hinge (flexion towards the front), wrist
//                 cone; the hand keeps its animated orientation within its cone.
// Every target follows the incoming pose (TargetSource::InputPose) until the animator or a clip
// curve moves it. Grounding is set up (pelvis, up, feet, stride curves contact.left_foot
// and contact.right_foot) and enabled when `grounding` is true.
#include "core/rig/humanoid_map.h"
#include "core/rig/rig.h"

namespace articula {

struct HumanoidRigOptions {
  bool grounding = true;
  float shoulderConeRad = 2.0f * kPi / 3.0f;  // 120°
  float elbowFlexionRad = 150.0f * kPi / 180.0f;
  float wristConeRad = 80.0f * kPi / 180.0f;
};

// Fails with mapHumanoid's message (naming the missing limbs), or when the rest pose is
// degenerate (a limb bone of zero length, both thighs at one point).
Result<RigDefinition> buildHumanoidRig(const Skeleton& skeleton, const HumanoidRigOptions& options = {});
Result<RigDefinition> buildHumanoidRig(const Skeleton& skeleton, const HumanoidMap& map,
                                       const HumanoidRigOptions& options = {});

// The character's up and forward in model space, from the rest pose: up from the ankles to
// the hips, forward = left × up (left from the right thigh to the left one); each snapped
// to the nearest model axis when within 25° of it.
struct HumanoidFrame {
  Vec3 upModel = Vec3::UnitY();
  Vec3 forwardModel = Vec3::UnitZ();
};
Result<HumanoidFrame> humanoidFrame(const Skeleton& skeleton, const HumanoidMap& map);

}  // namespace articula
