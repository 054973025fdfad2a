#pragma once
// What readers repair in a mesh rather than pass through to a file the glTF validator would
// reject (issue 38): normals of zero or non-unit length (ACCESSOR_VECTOR3_NON_UNIT) and a
// skin that lists one joint twice (DUPLICATE_ELEMENTS). Each repair is exact where it can be
// and says what it did; what cannot be repaired without changing the look is refused.
#include <optional>
#include <string>

#include "core/scene/scene.h"

namespace articula {

// Normals shorter than 1e-6, longer than a float's range or not finite become the
// area-weighted normal of the vertex's triangles (the unit +Z when those are degenerate
// too), as Blender and Assimp's GenNormals do; other normals are scaled to unit length.
// Returns how many were zero or not finite (rescaled ones are not counted: a file's
// rounding, not damage).
int repairNormals(Mesh& mesh);

// A skin listing joint J twice (and every later time) keeps its first entry: vertices bound
// to a repeat are bound to the first, a vertex's weights on both are summed into one slot.
// That is exact when the repeats' inverse bind matrices equal the first's; otherwise the
// skin is refused (nullopt on success, else why, naming the skin entries). `merged` counts
// the entries removed.
std::optional<std::string> mergeDuplicateSkinJoints(Skin& skin, const Skeleton& skeleton, int& merged);

}  // namespace articula
