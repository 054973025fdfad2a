#pragma once
#include <Eigen/Geometry>
#include <span>

#include "core/scene/scene.h"

namespace articula::ui {

// Model-space bounding box of the scene as posed: every Joint and Tip node, and every mesh
// vertex (skinned meshes are skinned on the CPU with all their influences, rigid meshes
// follow their node). Falls back to all nodes when the scene has neither bones nor meshes,
// and to a unit box around the origin when it is empty.
Eigen::AlignedBox3f posedBounds(const Scene& scene, std::span<const Affine> modelPose);

}  // namespace articula::ui
