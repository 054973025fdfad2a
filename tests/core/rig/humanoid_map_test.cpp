#include "core/rig/humanoid_map.h"

#include <gtest/gtest.h>

#include <map>

#include "core/io/import.h"
#include "core/samples/mannequin.h"

namespace articula {
namespace {

// Builds a skeleton from (name, parent name) pairs in parent-before-child order.
Skeleton skeletonFrom(const std::vector<std::pair<std::string, std::string>>& joints) {
  Skeleton s;
  for (const auto& [name, parent] : joints) {
    Transform t;
    t.translation = Vec3(0.0f, 0.1f, 0.0f);
    s.addJoint(name, parent.empty() ? kNoParent : s.findJoint(parent), t);
  }
  return s;
}

std::string nameOf(const Skeleton& s, int j) { return j < 0 ? "(none)" : s.name(j); }

struct Expected {
  std::string hips, chest, head, neck;
  std::string thighL, kneeL, ankleL, toeL;
  std::string upperArmR, forearmR, handR, clavicleR;
};

void expectMap(const Skeleton& s, const Expected& e) {
  auto map = mapHumanoid(s);
  ASSERT_TRUE(map.ok()) << map.error();
  EXPECT_EQ(nameOf(s, map->hips), e.hips);
  EXPECT_EQ(nameOf(s, map->chest), e.chest);
  EXPECT_EQ(nameOf(s, map->head), e.head);
  EXPECT_EQ(nameOf(s, map->neck), e.neck);
  EXPECT_EQ(nameOf(s, map->leftLeg.thigh), e.thighL);
  EXPECT_EQ(nameOf(s, map->leftLeg.knee), e.kneeL);
  EXPECT_EQ(nameOf(s, map->leftLeg.ankle), e.ankleL);
  EXPECT_EQ(nameOf(s, map->leftLeg.toe), e.toeL);
  EXPECT_EQ(nameOf(s, map->rightArm.upperArm), e.upperArmR);
  EXPECT_EQ(nameOf(s, map->rightArm.forearm), e.forearmR);
  EXPECT_EQ(nameOf(s, map->rightArm.hand), e.handR);
  EXPECT_EQ(nameOf(s, map->rightArm.clavicle), e.clavicleR);
  ASSERT_FALSE(map->spine.empty());
  EXPECT_EQ(map->spine.front(), map->hips);
  EXPECT_EQ(map->spine.back(), map->chest);
  // Both sides are found and distinct.
  EXPECT_NE(map->leftLeg.ankle, map->rightLeg.ankle);
  EXPECT_NE(map->leftArm.hand, map->rightArm.hand);
}

TEST(NameTokens, SplitsCaseDigitsSeparatorsAndNamespaces) {
  EXPECT_EQ(nameTokens("mixamorig:LeftUpLeg"), (std::vector<std::string>{"left", "up", "leg"}));
  EXPECT_EQ(nameTokens("LHipJoint"), (std::vector<std::string>{"l", "hip", "joint"}));
  EXPECT_EQ(nameTokens("Skeleton_arm_joint_L__4_"), (std::vector<std::string>{"skeleton", "arm", "joint", "l", "4"}));
  EXPECT_EQ(nameTokens("Bip01 R Forearm"), (std::vector<std::string>{"bip", "01", "r", "forearm"}));
  EXPECT_EQ(nameTokens("thigh.L"), (std::vector<std::string>{"thigh", "l"}));
  EXPECT_EQ(nameTokens("Spine1"), (std::vector<std::string>{"spine", "1"}));
}

TEST(MapHumanoid, MixamoNames) {
  std::vector<std::pair<std::string, std::string>> j = {{"mixamorig:Hips", ""},
                                                        {"mixamorig:Spine", "mixamorig:Hips"},
                                                        {"mixamorig:Spine1", "mixamorig:Spine"},
                                                        {"mixamorig:Spine2", "mixamorig:Spine1"},
                                                        {"mixamorig:Neck", "mixamorig:Spine2"},
                                                        {"mixamorig:Head", "mixamorig:Neck"},
                                                        {"mixamorig:HeadTop_End", "mixamorig:Head"}};
  for (std::string side : {"Left", "Right"}) {
    const std::string p = "mixamorig:" + side;
    j.insert(j.end(), {{p + "Shoulder", "mixamorig:Spine2"},
                       {p + "Arm", p + "Shoulder"},
                       {p + "ForeArm", p + "Arm"},
                       {p + "Hand", p + "ForeArm"},
                       {p + "HandIndex1", p + "Hand"},
                       {p + "UpLeg", "mixamorig:Hips"},
                       {p + "Leg", p + "UpLeg"},
                       {p + "Foot", p + "Leg"},
                       {p + "ToeBase", p + "Foot"},
                       {p + "Toe_End", p + "ToeBase"}});
  }
  expectMap(skeletonFrom(j),
            {"mixamorig:Hips", "mixamorig:Spine2", "mixamorig:Head", "mixamorig:Neck", "mixamorig:LeftUpLeg",
             "mixamorig:LeftLeg", "mixamorig:LeftFoot", "mixamorig:LeftToeBase", "mixamorig:RightArm",
             "mixamorig:RightForeArm", "mixamorig:RightHand", "mixamorig:RightShoulder"});
}

TEST(MapHumanoid, UnrealNamesSkipTwistBones) {
  std::vector<std::pair<std::string, std::string>> j = {{"root", ""},
                                                        {"pelvis", "root"},
                                                        {"spine_01", "pelvis"},
                                                        {"spine_02", "spine_01"},
                                                        {"spine_03", "spine_02"},
                                                        {"neck_01", "spine_03"},
                                                        {"head", "neck_01"}};
  for (std::string s : {"l", "r"}) {
    j.insert(j.end(), {{"clavicle_" + s, "spine_03"},
                       {"upperarm_" + s, "clavicle_" + s},
                       {"lowerarm_" + s, "upperarm_" + s},
                       {"lowerarm_twist_01_" + s, "lowerarm_" + s},
                       {"hand_" + s, "lowerarm_twist_01_" + s},
                       {"thigh_" + s, "pelvis"},
                       {"thigh_twist_01_" + s, "thigh_" + s},
                       {"calf_" + s, "thigh_twist_01_" + s},
                       {"foot_" + s, "calf_" + s},
                       {"ball_" + s, "foot_" + s}});
  }
  expectMap(skeletonFrom(j), {"pelvis", "spine_03", "head", "neck_01", "thigh_l", "calf_l", "foot_l", "ball_l",
                              "upperarm_r", "lowerarm_r", "hand_r", "clavicle_r"});
}

TEST(MapHumanoid, BipedNames) {
  std::vector<std::pair<std::string, std::string>> j = {{"Bip01", ""},
                                                        {"Bip01 Pelvis", "Bip01"},
                                                        {"Bip01 Spine", "Bip01 Pelvis"},
                                                        {"Bip01 Spine1", "Bip01 Spine"},
                                                        {"Bip01 Neck", "Bip01 Spine1"},
                                                        {"Bip01 Head", "Bip01 Neck"}};
  for (std::string s : {"L", "R"}) {
    const std::string p = "Bip01 " + s + " ";
    j.insert(j.end(), {{p + "Clavicle", "Bip01 Neck"},
                       {p + "UpperArm", p + "Clavicle"},
                       {p + "Forearm", p + "UpperArm"},
                       {p + "Hand", p + "Forearm"},
                       {p + "Finger0", p + "Hand"},
                       {p + "Thigh", "Bip01 Pelvis"},
                       {p + "Calf", p + "Thigh"},
                       {p + "Foot", p + "Calf"},
                       {p + "Toe0", p + "Foot"}});
  }
  // Biped hangs the clavicles under the neck, so the joint holding both arms is the neck.
  expectMap(skeletonFrom(j),
            {"Bip01 Pelvis", "Bip01 Neck", "Bip01 Head", "(none)", "Bip01 L Thigh", "Bip01 L Calf", "Bip01 L Foot",
             "Bip01 L Toe0", "Bip01 R UpperArm", "Bip01 R Forearm", "Bip01 R Hand", "Bip01 R Clavicle"});
}

TEST(MapHumanoid, MissingLimbIsNamed) {
  const Skeleton s = skeletonFrom(
      {{"Hips", ""}, {"Spine", "Hips"}, {"LeftUpLeg", "Hips"}, {"LeftLeg", "LeftUpLeg"}, {"LeftFoot", "LeftLeg"}});
  auto map = mapHumanoid(s);
  ASSERT_FALSE(map.ok());
  EXPECT_NE(map.error().find("no right leg"), std::string::npos) << map.error();
  // Both arms are missing too, and the message says so once; the left leg is there.
  EXPECT_NE(map.error().find("no right leg: no foot or ankle under a knee"), std::string::npos) << map.error();
  EXPECT_NE(map.error().find("; no arms: no hand or wrist under an elbow"), std::string::npos) << map.error();
  EXPECT_EQ(map.error().find("no left leg"), std::string::npos) << map.error();
  EXPECT_FALSE(mapHumanoid(Skeleton{}).ok());
}

TEST(MapHumanoid, CmuBvh) {
  auto scene = importScene(std::string(ARTICULA_TEST_DATA_DIR) + "/bvh/cmu-mb-2010/02_01.bvh");
  ASSERT_TRUE(scene.ok()) << scene.error();
  expectMap(scene->skeleton, {"Hips", "Spine1", "Head", "Neck", "LeftUpLeg", "LeftLeg", "LeftFoot", "LeftToeBase",
                              "RightArm", "RightForeArm", "RightHand", "RightShoulder"});
}

TEST(MapHumanoid, KhronosSamplesResolveChainsThroughTheHierarchy) {
  auto figure = importScene(std::string(ARTICULA_TEST_DATA_DIR) + "/gltf/RiggedFigure/RiggedFigure.glb");
  ASSERT_TRUE(figure.ok()) << figure.error();
  expectMap(figure->skeleton,
            {"torso_joint_1", "torso_joint_3", "neck_joint_2", "neck_joint_1", "leg_joint_L_1", "leg_joint_L_2",
             "leg_joint_L_3", "leg_joint_L_5", "arm_joint_R_1", "arm_joint_R_2", "arm_joint_R_3", "(none)"});
  // CesiumMan numbers its arm joints from the hand up (L__4_ is the shoulder).
  auto cesium = importScene(std::string(ARTICULA_TEST_DATA_DIR) + "/gltf/CesiumMan/CesiumMan.glb");
  ASSERT_TRUE(cesium.ok()) << cesium.error();
  auto map = mapHumanoid(cesium->skeleton);
  ASSERT_TRUE(map.ok()) << map.error();
  EXPECT_EQ(cesium->skeleton.name(map->leftArm.upperArm), "Skeleton_arm_joint_L__4_");
  EXPECT_EQ(cesium->skeleton.name(map->leftArm.hand), "Skeleton_arm_joint_L__2_");
  EXPECT_EQ(cesium->skeleton.name(map->rightLeg.ankle), "leg_joint_R_3");
  EXPECT_EQ(cesium->skeleton.name(map->hips), "Skeleton_torso_joint_1");
}

// MakeHuman: Z-up, `_L`/`_R` sides, Hips under Root beside Spine1, so Root carries legs and
// spine and is the pelvis.
TEST(MapHumanoid, MakeHumanHipsBesideTheSpine) {
  auto scene = importScene(std::string(ARTICULA_TEST_DATA_DIR) + "/bvh/makehuman/walk1.bvh");
  ASSERT_TRUE(scene.ok()) << scene.error();
  expectMap(scene->skeleton, {"Root", "Spine3", "Head", "Neck", "UpLeg_L", "LoLeg_L", "Foot_L", "Toe_L", "UpArm_R",
                              "LoArm_R", "Hand_R", "Clavicle_R"});
}

// RobotExpressive: `.L`/`.R` sides, the feet are IK bones under the armature's root, and the
// forearms end in palms.
TEST(MapHumanoid, RobotExpressiveFeetBesideTheLegs) {
  auto scene = importScene(std::string(ARTICULA_TEST_DATA_DIR) + "/gltf/RobotExpressive/RobotExpressive.glb");
  ASSERT_TRUE(scene.ok()) << scene.error();
  const Skeleton& s = scene->skeleton;
  expectMap(s, {"Body", "Torso_2", "Head", "Neck", "UpperLeg.L", "LowerLeg.L", "Foot.L", "(none)", "UpperArm.R",
                "LowerArm.R", "Palm2.R", "Shoulder.R"});
  auto map = mapHumanoid(s);
  ASSERT_TRUE(map.ok());
  for (const HumanoidLeg* leg : {&map->leftLeg, &map->rightLeg}) {
    EXPECT_TRUE(leg->footBesideLeg());
    EXPECT_EQ(s.parent(leg->legTip), leg->knee);
    EXPECT_NE(s.name(leg->legTip).find("_end"), std::string::npos) << s.name(leg->legTip);
  }
}

// A helper joint at the ankle's own place between shin and foot is passed over: the knee is
// the shin, not a bone of zero length.
TEST(MapHumanoid, HelperAtTheAnklesPlaceIsNotTheKnee) {
  Skeleton s;
  auto add = [&](const std::string& name, const std::string& parent, const Vec3& offset) {
    Transform t;
    t.translation = offset;
    s.addJoint(name, parent.empty() ? kNoParent : s.findJoint(parent), t);
  };
  add("Hips", "", Vec3(0.0f, 1.0f, 0.0f));
  add("Spine", "Hips", Vec3(0.0f, 0.2f, 0.0f));
  add("Chest", "Spine", Vec3(0.0f, 0.2f, 0.0f));
  add("Head", "Chest", Vec3(0.0f, 0.3f, 0.0f));
  for (const std::string side : {"_L", "_R"}) {
    const float x = side == "_L" ? 1.0f : -1.0f;
    add("UpArm" + side, "Chest", Vec3(0.2f * x, 0.1f, 0.0f));
    add("LoArm" + side, "UpArm" + side, Vec3(0.3f * x, 0.0f, 0.0f));
    add("Hand" + side, "LoArm" + side, Vec3(0.3f * x, 0.0f, 0.0f));
    add("UpLeg" + side, "Hips", Vec3(0.1f * x, -0.05f, 0.0f));
    add("LoLeg" + side, "UpLeg" + side, Vec3(0.0f, -0.45f, 0.0f));
    add("Helper" + side, "LoLeg" + side, Vec3(0.0f, -0.45f, 0.0f));
    add("Foot" + side, "Helper" + side, Vec3::Zero());
  }
  auto map = mapHumanoid(s);
  ASSERT_TRUE(map.ok()) << map.error();
  EXPECT_EQ(s.name(map->leftLeg.knee), "LoLeg_L");
  EXPECT_EQ(s.name(map->rightLeg.thigh), "UpLeg_R");
  EXPECT_FALSE(map->leftLeg.footBesideLeg());
}

TEST(MapHumanoid, Mannequin) {
  const Scene scene = makeMannequin();
  auto map = mapHumanoid(scene.skeleton);
  ASSERT_TRUE(map.ok()) << map.error();
  EXPECT_EQ(scene.skeleton.name(map->hips), "Hips");
  EXPECT_EQ(scene.skeleton.name(map->leftLeg.ankle), "LeftFoot");
  EXPECT_EQ(scene.skeleton.name(map->rightArm.hand), "RightHand");
  EXPECT_GE(map->spine.size(), 3u);
}

// A crafted file's million empty nodes beside an unnamed character (issue 38): the shape is
// found as without them. Asking each joint for its children by a scan of the skeleton made
// this take hours, and the editor hung opening such a file.
TEST(MapHumanoid, ByShapeBesideAMillionEmptyRoots) {
  Skeleton renamed = makeMannequin().skeleton;
  for (int j = 0; j < renamed.jointCount(); ++j) renamed.setName(j, "j" + std::to_string(j));
  const auto plain = mapHumanoid(renamed);
  ASSERT_TRUE(plain.ok()) << plain.error();
  for (int i = 0; i < 1000000; ++i) renamed.addJoint("extra" + std::to_string(i), kNoParent, Transform(), NodeKind::Transform);
  const auto crowded = mapHumanoid(renamed);
  ASSERT_TRUE(crowded.ok()) << crowded.error();
  EXPECT_EQ(crowded->hips, plain->hips);
  EXPECT_EQ(crowded->leftLeg.ankle, plain->leftLeg.ankle);
  EXPECT_EQ(crowded->rightArm.hand, plain->rightArm.hand);
  EXPECT_EQ(crowded->spine, plain->spine);
}

}  // namespace
}  // namespace articula
