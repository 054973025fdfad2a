#pragma once
// Humanoid role maps as JSON files, one role key → joint name per line (as QtMeshEditor's
// .bonemap files): {"hips": "Hips", "leftThigh": "LeftUpLeg", ...}. What `articula-cli map
// --json` prints, what --source-map / --target-map and the Characterise panel read, and
// what a project stores as "humanoid_roles".
#include <optional>
#include <string>
#include <string_view>

#include "core/skeleton/skeleton.h"

namespace articula {

// The skeleton's role labels (Skeleton::role), in humanoidRoles() order.
std::string roleLabelsToJson(const Skeleton& skeleton);

// Replaces the skeleton's labels with the roles of `text`. On error the skeleton is
// unchanged and the message names `where` and the fault: not JSON, an unknown role (the
// known ones listed), a joint name the skeleton does not have, a joint given two roles.
// Whether the labels make a humanoid is mapHumanoid's to say.
std::optional<std::string> labelRolesFromJson(std::string_view text, Skeleton& skeleton, const std::string& where);

// The same, read from a file (its path in every message).
std::optional<std::string> labelRolesFromFile(const std::string& path, Skeleton& skeleton);

}  // namespace articula
