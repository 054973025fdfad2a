#include "core/project/rig_json.h"

#include <gtest/gtest.h>

#include "core/samples/mannequin.h"
#include "core/rig/rig_test_util.h"

namespace articula {
namespace {

RigDefinition editedHumanoid(const Skeleton& s) {
  auto def = buildHumanoidRig(s);
  EXPECT_TRUE(def.ok());
  RigDefinition rig = *def;
  // Every kind of field away from its default.
  IkHandle& arm = rig.handles.back();
  arm.limits[0].twistLimited = true;
  arm.limits[0].twistMinRad = -0.5f;
  arm.limits[0].twistMaxRad = 0.25f;
  arm.limits[0].twistReferenceLocal = Quat(Eigen::AngleAxisf(0.1f, Vec3::UnitY()));
  arm.limits[2].halfAngleYRad = 0.3f;
  arm.targetSource = TargetSource::Handle;
  arm.targetModel = Vec3(0.1f, 1.23456789f, -0.3f);
  arm.orientation = OrientationMode::Target;
  arm.orientationModel = Quat(Eigen::AngleAxisf(0.7f, Vec3(1.0f, 2.0f, 3.0f).normalized()));
  arm.pole = {IkPole::Space::Model, -1, Vec3(0.0f, 1.0f, 1.0f / 3.0f)};
  arm.weight = 0.35f;
  arm.enabled = false;
  IkHandle generic;
  generic.name = "tail-1";
  generic.solver = IkSolverKind::DampedLeastSquares;
  generic.chain = {s.findJoint("Neck"), s.findJoint("Head")};
  rig.handles.push_back(generic);
  rig.grounding.maxReach = 0.9f;
  rig.grounding.right.contactCurve = "contact.custom";
  rig.grounding.right.toe = -1;
  return rig;
}

TEST(RigJson, RoundTripEqualsTheOriginal) {
  const Skeleton s = makeMannequinSkeleton();
  const RigDefinition original = editedHumanoid(s);
  const std::string text = rigToJson(original, s);
  auto back = rigFromJson(text, s);
  ASSERT_TRUE(back.ok()) << back.error();
  EXPECT_TRUE(*back == original);
  EXPECT_EQ(rigToJson(*back, s), text);
  // A field that differs is seen by the comparison (the test can fail).
  RigDefinition changed = *back;
  changed.handles[1].pole.position.x() += 1e-6f;
  EXPECT_FALSE(changed == original);
}

TEST(RigJson, CorruptRigIsNamed) {
  const Skeleton s = makeMannequinSkeleton();
  const std::string good = rigToJson(editedHumanoid(s), s);
  auto expectError = [&](const std::string& text, const std::string& expected) {
    auto rig = rigFromJson(text, s);
    ASSERT_FALSE(rig.ok()) << expected;
    EXPECT_NE(rig.error().find(expected), std::string::npos) << rig.error();
  };
  auto replaced = [&](const std::string& from, const std::string& to) {
    std::string text = good;
    const auto at = text.find(from);
    EXPECT_NE(at, std::string::npos) << from;
    if (at != std::string::npos) text.replace(at, from.size(), to);
    return text;
  };
  expectError(good.substr(0, good.size() / 2), "rig JSON: not valid JSON");
  expectError("[]", "rig JSON: is not an object");
  expectError(replaced("\"articula-rig\"", "\"other\""), "\"format\" is 'other', expected 'articula-rig'");
  expectError(replaced("\"version\": 1", "\"version\": 7"), "version 7 is not supported");
  expectError(replaced("\"LeftForeArm\"", "\"LeftForeArmX\""),
              "handles[3] 'left_arm': chain[1]: no joint named 'LeftForeArmX' in the skeleton");
  expectError(replaced("\"solver\": \"fabrik\"", "\"solver\": \"fabric\""),
              "handles[0] 'spine': \"solver\" is 'fabric', expected one of two_bone");
  expectError(replaced("\"weight\": 1.0", "\"weight\": \"heavy\""), "handles[0] 'spine': \"weight\" must be a number");
  expectError(replaced("\"kind\": \"hinge\"", "\"kind\": \"hing\""),
              "handles[3] 'left_arm'.limits[1]: \"kind\" is 'hing'");
  expectError(replaced("\"ankle_height\"", "\"ankle_hieght\""), "grounding.left: missing \"ankle_height\"");
  expectError(replaced("\"up\": [", "\"up\": [1, "), "grounding: \"up\" must be an array of 3 numbers");
}

// What the JSON reader lets through, Rig::bind still checks.
TEST(RigJson, ParsedRigStillGoesThroughBind) {
  const Skeleton s = makeMannequinSkeleton();
  RigDefinition def = editedHumanoid(s);
  def.handles.pop_back();
  def.handles[0].weight = 3.0f;
  auto parsed = rigFromJson(rigToJson(def, s), s);
  ASSERT_TRUE(parsed.ok()) << parsed.error();
  auto rig = Rig::bind(s, *parsed);
  ASSERT_FALSE(rig.ok());
  EXPECT_NE(rig.error().find("handle 'spine': the weight is not in [0, 1]"), std::string::npos) << rig.error();
}

}  // namespace
}  // namespace articula
