// A characterisation set by hand (role labels on joints) on real skeletons: the same map as
// the name mapping where that works, a rig where names say nothing, and named faults.
#include "core/rig/humanoid_map.h"
#include "core/rig/humanoid_roles.h"

#include <gtest/gtest.h>

#include "core/io/import.h"
#include "core/rig/humanoid_rig.h"

namespace articula {
namespace {

Skeleton skeletonOf(const std::string& file) {
  auto scene = importScene(std::string(ARTICULA_TEST_DATA_DIR) + "/" + file);
  EXPECT_TRUE(scene.ok()) << scene.error();
  return scene.ok() ? scene->skeleton : Skeleton();
}

void expectSameMap(const HumanoidMap& a, const HumanoidMap& b) {
  EXPECT_EQ(roleJoints(a), roleJoints(b));
  EXPECT_EQ(a.spine, b.spine);
  EXPECT_EQ(a.leftLeg.legTip, b.leftLeg.legTip);
  EXPECT_EQ(a.rightLeg.legTip, b.rightLeg.legTip);
}

// Labelling each joint with the role the names gave it and mapping by the labels gives the
// same map back: the spine from the hierarchy, a foot beside its leg (the robot's IK feet)
// matched to the shin's tail.
TEST(HumanoidRoles, LabelsOfTheNameMapGiveTheSameMapOnCmuMakeHumanAndTheRobot) {
  for (const char* file : {"bvh/cmu-mb-2010/02_01.bvh", "bvh/makehuman/walk1.bvh", "gltf/RobotExpressive/RobotExpressive.glb"}) {
    SCOPED_TRACE(file);
    Skeleton skeleton = skeletonOf(file);
    auto byNames = mapHumanoidByNames(skeleton);
    ASSERT_TRUE(byNames.ok()) << byNames.error();
    labelRoles(skeleton, *byNames);
    ASSERT_TRUE(skeleton.hasRoles());
    auto byRoles = mapHumanoid(skeleton);
    ASSERT_TRUE(byRoles.ok()) << byRoles.error();
    expectSameMap(*byRoles, *byNames);
  }
}

// Names that say nothing (every joint renamed "j<index>"): the shape gives the map the names
// gave — the CMU walk (Y up, pelvis bones before the thighs) and the MakeHuman walk (Z up,
// Hips beside the spine under Root) — and the humanoid rig builds on it.
TEST(HumanoidRoles, ASkeletonWithMeaninglessNamesIsMappedByItsShape) {
  for (const char* file : {"bvh/cmu-mb-2010/02_01.bvh", "bvh/makehuman/walk1.bvh"}) {
    SCOPED_TRACE(file);
    Skeleton skeleton = skeletonOf(file);
    auto byNames = mapHumanoidByNames(skeleton);
    ASSERT_TRUE(byNames.ok());
    for (int j = 0; j < skeleton.jointCount(); ++j) skeleton.setName(j, "j" + std::to_string(j));
    auto byShape = mapHumanoid(skeleton);
    ASSERT_TRUE(byShape.ok()) << byShape.error();
    expectSameMap(*byShape, *byNames);
    auto rig = buildHumanoidRig(skeleton);
    ASSERT_TRUE(rig.ok()) << rig.error();
    EXPECT_FALSE(rig->handles.empty());
  }
}

// A shape with one arm is no humanoid by names or by shape; the message says both.
TEST(HumanoidRoles, AOneArmedSkeletonIsRefusedByNamesAndByShape) {
  Skeleton skeleton = skeletonOf("bvh/cmu-mb-2010/02_01_no_left_arm.bvh");
  auto map = mapHumanoid(skeleton);
  ASSERT_FALSE(map.ok());
  EXPECT_NE(map.error().find("no left arm"), std::string::npos) << map.error();
  EXPECT_NE(map.error().find("by its shape"), std::string::npos) << map.error();
}

// Labels set by hand win over names and shape: the neck said to be the head's parent.
TEST(HumanoidRoles, LabelsWinOverWhatTheNamesSay) {
  Skeleton skeleton = skeletonOf("bvh/cmu-mb-2010/02_01.bvh");
  auto byNames = mapHumanoidByNames(skeleton);
  ASSERT_TRUE(byNames.ok());
  labelRoles(skeleton, *byNames);
  skeleton.setRole(byNames->neck, "");
  skeleton.setRole(skeleton.findJoint("Neck1"), "neck");
  auto map = mapHumanoid(skeleton);
  ASSERT_TRUE(map.ok()) << map.error();
  EXPECT_EQ(map->neck, skeleton.findJoint("Neck1"));
  EXPECT_EQ(map->leftLeg.knee, byNames->leftLeg.knee);
}

TEST(HumanoidRoles, TheErrorListsEveryMissingRoleAndEveryBrokenChain) {
  Skeleton skeleton = skeletonOf("bvh/cmu-mb-2010/02_01.bvh");
  auto byNames = mapHumanoidByNames(skeleton);
  ASSERT_TRUE(byNames.ok());
  labelRoles(skeleton, *byNames);
  skeleton.setRole(byNames->leftArm.hand, "");
  skeleton.setRole(byNames->rightLeg.knee, "");
  // The right thigh's role put on the left forearm: not under the hips' legs, and the right
  // knee is gone.
  skeleton.setRole(byNames->rightLeg.thigh, "");
  skeleton.setRole(byNames->leftArm.forearm, "");
  skeleton.setRole(byNames->leftArm.forearm, "rightThigh");
  auto map = mapHumanoid(skeleton);
  ASSERT_FALSE(map.ok());
  const std::string& error = map.error();
  EXPECT_NE(error.find("leftHand"), std::string::npos) << error;
  EXPECT_NE(error.find("rightKnee"), std::string::npos) << error;
  EXPECT_NE(error.find("leftForearm"), std::string::npos) << error;
  EXPECT_EQ(error.find('\n'), std::string::npos) << error;
}

TEST(HumanoidRoles, AKneeNotUnderItsThighIsNamed) {
  Skeleton skeleton = skeletonOf("bvh/cmu-mb-2010/02_01.bvh");
  auto byNames = mapHumanoidByNames(skeleton);
  ASSERT_TRUE(byNames.ok());
  labelRoles(skeleton, *byNames);
  // Swap the knees: each is now under the other side's thigh.
  skeleton.setRole(byNames->leftLeg.knee, "rightKnee");
  skeleton.setRole(byNames->rightLeg.knee, "leftKnee");
  auto map = mapHumanoid(skeleton);
  ASSERT_FALSE(map.ok());
  EXPECT_NE(map.error().find("Left shin (knee) (" + skeleton.name(byNames->rightLeg.knee) + ") is not under the left thigh"),
            std::string::npos)
      << map.error();
}

}  // namespace
}  // namespace articula
