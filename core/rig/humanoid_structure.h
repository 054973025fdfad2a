#pragma once
// The humanoid map from the shape of the skeleton alone, for names that say nothing ("j12",
// a studio's own codes): the legs and the arms are the two pairs of sibling chains whose
// bones match in number and length (the longest pairs that do not hold one another), the
// pair nearer the root being the legs; up runs from the hips to the chest, forward along the
// feet (toward the toes) or, without toes, the glTF/Blender facing; left is up × forward.
#include "core/rig/humanoid.h"
#include "core/skeleton/skeleton.h"
#include "core/util/result.h"

namespace articula {

// The error says what the shape lacks (two pairs of matching limbs, a spine between them).
Result<HumanoidMap> mapHumanoidByStructure(const Skeleton& skeleton);

}  // namespace articula
