#include "core/rig/humanoid_map.h"

#include "core/rig/humanoid_roles.h"

namespace articula {

Result<HumanoidMap> mapHumanoid(const Skeleton& skeleton) {
  return skeleton.hasRoles() ? mapHumanoidFromRoles(skeleton) : mapHumanoidByNames(skeleton);
}

}  // namespace articula
