#include "core/skeleton/skeleton.h"

#include <gtest/gtest.h>

namespace articula {
namespace {

Skeleton threeJointChain() {
  Skeleton s;
  const int root = s.addJoint("root", kNoParent, Transform{});
  Transform offset;
  offset.translation = Vec3(0, 1, 0);
  const int mid = s.addJoint("mid", root, offset);
  s.addJoint("tip", mid, offset, NodeKind::Tip);
  return s;
}

TEST(Skeleton, EmptyIsValid) { EXPECT_FALSE(Skeleton{}.validate().has_value()); }

TEST(Skeleton, LookupsAndIds) {
  Skeleton s = threeJointChain();
  EXPECT_EQ(s.jointCount(), 3);
  EXPECT_EQ(s.boneCount(), 2);
  EXPECT_EQ(s.findJoint("mid"), 1);
  EXPECT_EQ(s.findJoint("nope"), -1);
  EXPECT_EQ(s.parent(2), 1);
  EXPECT_EQ(s.children(0), std::vector<int>{1});
  EXPECT_EQ(s.children(kNoParent), std::vector<int>{0});
  EXPECT_TRUE(s.isAncestorOrSelf(0, 2));
  EXPECT_FALSE(s.isAncestorOrSelf(2, 0));
  const JointId midId = s.id(1);
  s.setName(1, "knee");
  EXPECT_EQ(s.findJointById(midId), 1);  // ids survive renames
  EXPECT_NE(s.id(0), s.id(1));
  EXPECT_FALSE(s.validate().has_value());
}

TEST(Skeleton, ValidateNamesTheBadJoint) {
  Skeleton s = threeJointChain();
  s.addJoint("mid", 0, Transform{});
  auto error = s.validate();
  ASSERT_TRUE(error.has_value());
  EXPECT_NE(error->find("joint 3 'mid'"), std::string::npos) << *error;
  EXPECT_NE(error->find("name is used"), std::string::npos) << *error;

  Skeleton forward;
  forward.addJoint("a", kNoParent, Transform{});
  forward.addJoint("b", 1, Transform{});  // its own index: not before it
  error = forward.validate();
  ASSERT_TRUE(error.has_value());
  EXPECT_NE(error->find("joint 1 'b'"), std::string::npos) << *error;
  EXPECT_NE(error->find("does not come before"), std::string::npos) << *error;

  Skeleton outOfRange;
  outOfRange.addJoint("a", 7, Transform{});
  error = outOfRange.validate();
  ASSERT_TRUE(error.has_value());
  EXPECT_NE(error->find("out of range"), std::string::npos) << *error;

  Skeleton nan = threeJointChain();
  Transform bad;
  bad.translation.y() = std::numeric_limits<float>::infinity();
  nan.setRestLocal(2, bad);
  error = nan.validate();
  ASSERT_TRUE(error.has_value());
  EXPECT_NE(error->find("joint 2 'tip'"), std::string::npos) << *error;
  EXPECT_NE(error->find("not finite"), std::string::npos) << *error;

  Skeleton zeroScale = threeJointChain();
  Transform flat;
  flat.scale = Vec3(1, 0, 1);
  zeroScale.setRestLocal(1, flat);
  error = zeroScale.validate();
  ASSERT_TRUE(error.has_value());
  EXPECT_NE(error->find("zero scale"), std::string::npos) << *error;

  Skeleton unnamed;
  unnamed.addJoint("", kNoParent, Transform{});
  error = unnamed.validate();
  ASSERT_TRUE(error.has_value());
  EXPECT_NE(error->find("empty name"), std::string::npos) << *error;
}

}  // namespace
}  // namespace articula
