#pragma once
#include <vector>

#include "core/math/types.h"

namespace articula::ui {

struct OverlayVertex;

// Onion skin: ghosts of the skeleton at frames around the current one, so an animator sees
// the arc of the motion while posing.
struct OnionSkinSettings {
  int ghostsEachSide = 0;  // 0: off
  int spacingFrames = 3;   // frames between two ghosts
};

// A ghost frame and which side of the current frame it lies on.
struct GhostFrame {
  int frame = 0;
  bool past = false;
  float weight = 1.0f;  // 1 for the ghost nearest the current frame, fading outwards
};

// Frames current ± k·spacing (k = 1 … ghostsEachSide) inside [0, frameCount - 1], nearest
// first on each side. Empty when onion skinning is off or the clip has one frame.
std::vector<GhostFrame> ghostFrames(int currentFrame, int frameCount, const OnionSkinSettings& settings);

// Recolours an overlay as a translucent ghost: the past tinted red, the future green (the
// Blender/Maya convention), more transparent with a smaller weight.
void tintGhost(std::vector<OverlayVertex>& vertices, bool past, float weight);

}  // namespace articula::ui
