#pragma once
#include <span>
#include <vector>

#include "core/math/types.h"
#include "core/skeleton/skeleton.h"

namespace articula::ui {

// A drawn bone: from a Joint node to one of its children that is a Joint or a Tip (a Tip
// ends a chain). Transform nodes are neither drawn nor pickable.
struct Bone {
  int joint = -1;  // owner: clicking the bone selects this joint
  int child = -1;
};

std::vector<Bone> bonesOf(const Skeleton& skeleton);

// Vertex of the editor overlays (grid, bones, joint markers), in model space.
struct OverlayVertex {
  float position[3];
  float normal[3];
  float color[4];  // display (sRGB) colour
};

// Triangles of every bone (an octahedron from joint to child, widest a tenth of the way
// along, like Blender's bones) and of a small marker at every Joint node. Selected joints
// and the bones they own get the highlight colour.
void buildSkeletonOverlay(const Skeleton& skeleton, std::span<const Bone> bones, std::span<const Affine> modelPose,
                          std::span<const int> selectedJoints, float characterHeight,
                          std::vector<OverlayVertex>& triangles);

// Lines of the ground grid on y = 0: cells of a round size (a power of ten) near a quarter
// of the character's height, with the X and Z axes coloured.
void buildGroundGrid(float characterHeight, std::vector<OverlayVertex>& lines);

// Screen-space pick of a joint. `viewProjection` maps model space to clip space; the
// viewport is `width` × `height` pixels with y down from the top; `mouse` is in the same
// pixels. Joint markers win over bone bodies; among several hits the nearest on screen
// wins, then the nearest to the eye. -1 when nothing lies within `radiusPixels`.
int pickJoint(const Skeleton& skeleton, std::span<const Bone> bones, std::span<const Affine> modelPose,
              const Mat4& viewProjection, float width, float height, const Vec2& mouse, float radiusPixels = 8.0f);

}  // namespace articula::ui
