#pragma once
#include <Eigen/Geometry>

#include "core/math/types.h"

namespace articula::ui {

// Turntable camera orbiting a target point, Y up (the scene's up axis: importers bake any
// other convention into the root nodes). Angles in radians, distances in model units.
class OrbitCamera {
 public:
  Vec3 target() const { return mTarget; }
  float distance() const { return mDistance; }
  float yawRad() const { return mYawRad; }
  float pitchRad() const { return mPitchRad; }
  float fovYRad() const { return mFovYRad; }
  void setView(const Vec3& target, float yawRad, float pitchRad, float distance);

  // Orthographic projection (the front, side and top views) shows the same height of the
  // scene as the perspective view shows at the target's depth.
  bool isOrthographic() const { return mOrthographic; }
  void setOrthographic(bool orthographic) { mOrthographic = orthographic; }
  // The standard views, looking at the current target from the same distance: front from
  // +Z (the character's front), side from +X (its left), top from +Y; all orthographic.
  // Perspective returns to the default three-quarter angle, in perspective.
  enum class NamedView { Front, Side, Top, Perspective };
  void setNamedView(NamedView view);
  // Model units per pixel at the target's depth, for a viewport `viewportHeight` pixels tall.
  float unitsPerPixelAtTarget(float viewportHeight) const;

  // Eye position in model space.
  Vec3 eye() const;
  // Model space → view space (right-handed, looking down -Z).
  Mat4 viewMatrix() const;
  // View space → clip space for a viewport of this width / height ratio.
  Mat4 projectionMatrix(float aspect) const;

  // Mouse navigation, deltas in pixels of a viewport `viewportHeight` pixels tall.
  void orbit(float dxPixels, float dyPixels);
  void pan(float dxPixels, float dyPixels, float viewportHeight);
  // factor > 1 moves away from the target, < 1 moves closer.
  void zoom(float factor);

  // Aims at the box's centre from the current direction and backs off until the box's
  // bounding sphere fits the narrower of the two fields of view (in orthographic views the
  // distance sets the visible height the same way).
  void frame(const Eigen::AlignedBox3f& boxModel, float aspect);

 private:
  Vec3 mTarget = Vec3::Zero();
  float mYawRad = 0.45f;    // about +Y, 0 looks from +Z (the glTF front) at the target
  float mPitchRad = 0.22f;  // above the horizon
  float mDistance = 5.0f;
  float mFovYRad = 0.7f;      // about 40°
  float mSceneRadius = 1.0f;  // size of the last framed box, bounds near/far planes
  bool mOrthographic = false;
};

}  // namespace articula::ui
