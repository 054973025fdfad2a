#include "core/samples/mannequin.h"

#include <cmath>

namespace articula {

namespace {

// Arms hang 45° below horizontal in the rest A-pose.
constexpr float kArmDropRad = 0.25f * kPi;
constexpr float kUpperArmLength = 0.28f;
constexpr float kForeArmLength = 0.26f;

Transform offset(float x, float y, float z) {
  Transform t;
  t.translation = Vec3(x, y, z);
  return t;
}

// Adds one side's arm or leg chain; `side` is +1 for Left (+X), -1 for Right.
void addArm(Skeleton& skeleton, int chest, const char* prefix, float side) {
  const std::string p = prefix;
  // Arm direction in model space (and, rest rotations being identity, in every local space).
  const Vec3 armDir(side * std::cos(kArmDropRad), -std::sin(kArmDropRad), 0.0f);
  const int shoulder = skeleton.addJoint(p + "Shoulder", chest, offset(side * 0.04f, 0.12f, 0.0f));
  const int arm = skeleton.addJoint(p + "Arm", shoulder, offset(side * 0.14f, 0.0f, 0.0f));
  const Vec3 elbow = kUpperArmLength * armDir;
  const int foreArm = skeleton.addJoint(p + "ForeArm", arm, offset(elbow.x(), elbow.y(), elbow.z()));
  const Vec3 wrist = kForeArmLength * armDir;
  skeleton.addJoint(p + "Hand", foreArm, offset(wrist.x(), wrist.y(), wrist.z()));
}

void addLeg(Skeleton& skeleton, int hips, const char* prefix, float side) {
  const std::string p = prefix;
  // Hip joint 6 cm below the pelvis centre; thigh and shin 0.42 m each, ankle 8 cm above
  // the ground, ball of the foot 13 cm ahead of the ankle.
  const int upLeg = skeleton.addJoint(p + "UpLeg", hips, offset(side * 0.09f, -0.06f, 0.0f));
  const int leg = skeleton.addJoint(p + "Leg", upLeg, offset(0.0f, -0.42f, 0.0f));
  const int foot = skeleton.addJoint(p + "Foot", leg, offset(0.0f, -0.42f, 0.0f));
  const int toe = skeleton.addJoint(p + "ToeBase", foot, offset(0.0f, -0.06f, 0.13f));
  skeleton.addJoint(p + "Toe_End", toe, offset(0.0f, 0.0f, 0.07f), NodeKind::Tip);
}

}  // namespace

Skeleton makeMannequinSkeleton() {
  Skeleton skeleton;
  // Offsets are in the parent's space, which in this rest pose is parallel to model space.
  const int hips = skeleton.addJoint("Hips", kNoParent, offset(0.0f, 0.98f, 0.0f));
  const int spine = skeleton.addJoint("Spine", hips, offset(0.0f, 0.08f, 0.0f));
  const int spine1 = skeleton.addJoint("Spine1", spine, offset(0.0f, 0.12f, 0.0f));
  const int spine2 = skeleton.addJoint("Spine2", spine1, offset(0.0f, 0.13f, 0.0f));
  const int neck = skeleton.addJoint("Neck", spine2, offset(0.0f, 0.18f, 0.0f));
  const int head = skeleton.addJoint("Head", neck, offset(0.0f, 0.10f, 0.0f));
  skeleton.addJoint("HeadTop_End", head, offset(0.0f, 0.16f, 0.0f), NodeKind::Tip);
  addArm(skeleton, spine2, "Left", 1.0f);
  addArm(skeleton, spine2, "Right", -1.0f);
  addLeg(skeleton, hips, "Left", 1.0f);
  addLeg(skeleton, hips, "Right", -1.0f);
  return skeleton;
}

Scene makeMannequin() {
  Scene scene;
  scene.skeleton = makeMannequinSkeleton();
  Material material;
  material.name = "Mannequin";
  // Neutral grey-blue, linear RGB.
  material.baseColor = Vec4(0.42f, 0.47f, 0.55f, 1.0f);
  scene.materials.push_back(std::move(material));
  scene.meshes.push_back(makeMannequinMesh(scene.skeleton));
  scene.clips.push_back(makeWalkClip(scene.skeleton));
  return scene;
}

}  // namespace articula
