#pragma once
// Model space to the viewport's pixels, as picking, the gizmo and the rig's handles need it.
#include <optional>

#include "core/math/types.h"

namespace articula::ui {

struct ScreenPoint {
  Vec2 pixel;   // y down from the top
  float depth;  // normalised device depth, smaller is nearer the eye
};

// Through the view-projection matrix onto a width × height viewport; nullopt behind the
// eye (clip w ≤ 1e-6).
inline std::optional<ScreenPoint> projectToScreen(const Mat4& viewProjection, float width, float height,
                                                  const Vec3& pointModel) {
  const Vec4 clip = viewProjection * pointModel.homogeneous();
  if (clip.w() <= 1e-6f) return std::nullopt;
  const Vec3 ndc = clip.head<3>() / clip.w();
  return ScreenPoint{Vec2((ndc.x() * 0.5f + 0.5f) * width, (0.5f - ndc.y() * 0.5f) * height), ndc.z()};
}

}  // namespace articula::ui
