#include "core/project/humanoid_map_json.h"

#include <nlohmann/json.hpp>

#include "core/io/atomic_file.h"
#include "core/rig/humanoid_roles.h"

namespace articula {

std::string roleLabelsToJson(const Skeleton& skeleton) {
  std::string text = "{";
  bool first = true;
  for (const HumanoidRole& role : humanoidRoles()) {
    const int joint = skeleton.findRole(role.key);
    if (joint < 0) continue;
    text += (first ? "\n  " : ",\n  ") + nlohmann::json(role.key).dump() + ": " +
            nlohmann::json(skeleton.name(joint)).dump();
    first = false;
  }
  return text + (first ? "}\n" : "\n}\n");
}

std::optional<std::string> labelRolesFromJson(std::string_view text, Skeleton& skeleton, const std::string& where) {
  const nlohmann::json json = nlohmann::json::parse(text, nullptr, false);
  if (json.is_discarded()) return where + ": not valid JSON (a damaged or truncated file?)";
  if (!json.is_object()) return where + ": a role map is a JSON object of role → joint name";
  std::vector<std::string> roles(static_cast<std::size_t>(skeleton.jointCount()));
  for (const auto& [key, value] : json.items()) {
    if (key == "convention") continue;  // what `map --json` reports beside the roles (capture_convention.h)
    if (!findHumanoidRole(key)) {
      std::string known;
      for (const HumanoidRole& role : humanoidRoles()) known += (known.empty() ? "" : ", ") + std::string(role.key);
      return where + ": unknown role '" + key + "' (the roles are " + known + ")";
    }
    if (!value.is_string()) return where + ": role '" + key + "' must name a joint";
    const std::string name = value.get<std::string>();
    const int joint = skeleton.findJoint(name);
    if (joint < 0) return where + ": role '" + key + "': no joint named '" + name + "' in the skeleton";
    std::string& slot = roles[static_cast<std::size_t>(joint)];
    if (!slot.empty()) return where + ": joint '" + name + "' has two roles, '" + slot + "' and '" + key + "'";
    slot = key;
  }
  for (int joint = 0; joint < skeleton.jointCount(); ++joint) {
    skeleton.setRole(joint, std::move(roles[static_cast<std::size_t>(joint)]));
  }
  return std::nullopt;
}

std::optional<std::string> labelRolesFromFile(const std::string& path, Skeleton& skeleton) {
  std::string text;
  if (auto error = readWholeFile(path, text)) return "role map " + *error;
  return labelRolesFromJson(text, skeleton, "role map '" + path + "'");
}

}  // namespace articula
