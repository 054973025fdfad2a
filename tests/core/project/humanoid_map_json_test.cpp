// Role map files: what `map --json` prints reads back onto the skeleton, and every fault in
// a hand-edited file is named with the file.
#include "core/project/humanoid_map_json.h"

#include <gtest/gtest.h>

#include "core/rig/humanoid_map.h"
#include "core/rig/humanoid_roles.h"
#include "core/samples/mannequin.h"

namespace articula {
namespace {

TEST(HumanoidMapJson, WrittenLabelsReadBackOntoTheSameJoints) {
  Skeleton skeleton = makeMannequin().skeleton;
  auto map = mapHumanoid(skeleton);
  ASSERT_TRUE(map.ok()) << map.error();
  labelRoles(skeleton, *map);
  const std::string text = roleLabelsToJson(skeleton);
  EXPECT_NE(text.find("\"leftThigh\": \"LeftUpLeg\""), std::string::npos) << text;

  Skeleton other = makeMannequin().skeleton;
  ASSERT_FALSE(labelRolesFromJson(text, other, "m.json").has_value());
  for (int j = 0; j < skeleton.jointCount(); ++j) EXPECT_EQ(other.role(j), skeleton.role(j)) << skeleton.name(j);
}

TEST(HumanoidMapJson, FaultsAreNamedAndLeaveTheLabelsAsTheyWere) {
  Skeleton skeleton = makeMannequin().skeleton;
  const int hips = skeleton.findJoint("Hips");
  skeleton.setRole(hips, "hips");
  const std::pair<const char*, const char*> cases[] = {
      {"{\"hips\": ", "m.json: not valid JSON"},
      {"[\"Hips\"]", "m.json: a role map is a JSON object"},
      {R"({"pelvis": "Hips"})", "m.json: unknown role 'pelvis' (the roles are hips, chest"},
      {R"({"hips": 3})", "m.json: role 'hips' must name a joint"},
      {R"({"hips": "Pelvis"})", "m.json: role 'hips': no joint named 'Pelvis' in the skeleton"},
      {R"({"hips": "Hips", "chest": "Hips"})", "m.json: joint 'Hips' has two roles, 'chest' and 'hips'"},
  };
  for (const auto& [text, expected] : cases) {
    const auto error = labelRolesFromJson(text, skeleton, "m.json");
    ASSERT_TRUE(error.has_value()) << text;
    EXPECT_NE(error->find(expected), std::string::npos) << *error;
    EXPECT_EQ(skeleton.findRole("hips"), hips) << text;
    EXPECT_EQ(skeleton.findRole("chest"), -1) << text;
  }
  const auto missing = labelRolesFromFile("/nonexistent/m.json", skeleton);
  ASSERT_TRUE(missing.has_value());
  EXPECT_NE(missing->find("/nonexistent/m.json"), std::string::npos) << *missing;
}

}  // namespace
}  // namespace articula
