#pragma once
// The humanoid map every humanoid tool uses, whichever way it was found.
#include "core/rig/humanoid.h"
#include "core/rig/humanoid_names.h"
#include "core/skeleton/skeleton.h"
#include "core/util/result.h"

namespace articula {

// The map every humanoid tool uses: the user's characterisation when the skeleton has role
// labels (mapHumanoidFromRoles, humanoid_roles.h), otherwise mapHumanoidByNames.
Result<HumanoidMap> mapHumanoid(const Skeleton& skeleton);

}  // namespace articula
