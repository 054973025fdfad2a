#include "ui/viewport/onion_skin.h"

#include <algorithm>

#include "ui/viewport/skeleton_overlay.h"

namespace articula::ui {

std::vector<GhostFrame> ghostFrames(int currentFrame, int frameCount, const OnionSkinSettings& settings) {
  std::vector<GhostFrame> ghosts;
  if (settings.ghostsEachSide <= 0 || settings.spacingFrames <= 0 || frameCount < 2) return ghosts;
  for (int k = 1; k <= settings.ghostsEachSide; ++k) {
    const float weight = 1.0f - static_cast<float>(k - 1) / static_cast<float>(settings.ghostsEachSide);
    const int before = currentFrame - k * settings.spacingFrames;
    const int after = currentFrame + k * settings.spacingFrames;
    if (before >= 0) ghosts.push_back({before, true, weight});
    if (after <= frameCount - 1) ghosts.push_back({after, false, weight});
  }
  return ghosts;
}

void tintGhost(std::vector<OverlayVertex>& vertices, bool past, float weight) {
  const Vec3 tint = past ? Vec3(0.95f, 0.35f, 0.3f) : Vec3(0.35f, 0.9f, 0.4f);
  const float alpha = 0.15f + 0.35f * std::clamp(weight, 0.0f, 1.0f);
  for (OverlayVertex& vertex : vertices) {
    for (int i = 0; i < 3; ++i) vertex.color[i] = 0.3f * vertex.color[i] + 0.7f * tint[i];
    vertex.color[3] = alpha;
  }
}

}  // namespace articula::ui
