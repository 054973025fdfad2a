#pragma once
// Rigs as JSON values, for the project file that embeds them (core/io only: this header
// exposes nlohmann::json). The format and the error messages are rig_json.h's; the text
// functions there wrap these.
#include <nlohmann/json.hpp>

#include "core/rig/rig.h"

namespace articula {

// Joint indices of the definition must be valid for the skeleton (Rig::bind checks that).
nlohmann::ordered_json rigToJsonValue(const RigDefinition& rig, const Skeleton& skeleton);

// Resolves joint names against the skeleton; errors as rigFromJson's.
Result<RigDefinition> rigFromJsonValue(const nlohmann::ordered_json& root, const Skeleton& skeleton);

}  // namespace articula
