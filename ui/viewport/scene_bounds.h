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

// Model-space box the character fills over the whole of `clip`: posedBounds of `modelPose`
// (the pose shown) grown by its joints at every frame (a longer clip, or a skeleton of more
// than 200 joints: fewer frames spread evenly over it, kMotionBoundsSamples at most and
// kMotionBoundsJointSamples joints in all), each frame's joints with the margin the posed mesh has
// around them now, so a capture that walks away or lies down stays in view at every frame.
inline constexpr int kMotionBoundsSamples = 1000;
inline constexpr int kMotionBoundsJointSamples = 200000;
Eigen::AlignedBox3f motionBounds(const Scene& scene, const Clip* clip, std::span<const Affine> modelPose);

}  // namespace articula::ui
