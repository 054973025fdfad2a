#include "ui/viewport/orbit_camera.h"

#include <algorithm>
#include <cmath>

namespace articula::ui {

namespace {
constexpr float kOrbitRadPerPixel = 0.008f;
constexpr float kMaxPitchRad = 1.55f;  // just short of straight up/down, where yaw degenerates
}  // namespace

void OrbitCamera::setView(const Vec3& target, float yawRad, float pitchRad, float distance) {
  mTarget = target;
  mYawRad = yawRad;
  mPitchRad = std::clamp(pitchRad, -kMaxPitchRad, kMaxPitchRad);
  mDistance = std::max(distance, 1e-4f);
}

Vec3 OrbitCamera::eye() const {
  const Vec3 direction(std::cos(mPitchRad) * std::sin(mYawRad), std::sin(mPitchRad),
                       std::cos(mPitchRad) * std::cos(mYawRad));
  return mTarget + mDistance * direction;
}

Mat4 OrbitCamera::viewMatrix() const {
  const Vec3 eyeModel = eye();
  const Vec3 forward = (mTarget - eyeModel).normalized();
  const Vec3 right = forward.cross(Vec3::UnitY()).normalized();
  const Vec3 up = right.cross(forward);
  Mat4 view = Mat4::Identity();
  view.block<1, 3>(0, 0) = right.transpose();
  view.block<1, 3>(1, 0) = up.transpose();
  view.block<1, 3>(2, 0) = -forward.transpose();
  view(0, 3) = -right.dot(eyeModel);
  view(1, 3) = -up.dot(eyeModel);
  view(2, 3) = forward.dot(eyeModel);
  return view;
}

Mat4 OrbitCamera::projectionMatrix(float aspect) const {
  const float nearPlane = std::max(mDistance * 0.01f, 1e-4f);
  const float farPlane = (mDistance + mSceneRadius) * 50.0f;
  const float f = 1.0f / std::tan(mFovYRad * 0.5f);
  Mat4 projection = Mat4::Zero();
  if (mOrthographic) {
    // Half height = distance × tan(fov/2): the perspective view's extent at the target.
    const float halfHeight = mDistance / f;
    const float halfWidth = halfHeight * std::max(aspect, 1e-4f);
    projection(0, 0) = 1.0f / halfWidth;
    projection(1, 1) = 1.0f / halfHeight;
    projection(2, 2) = -2.0f / (farPlane - nearPlane);
    projection(2, 3) = -(farPlane + nearPlane) / (farPlane - nearPlane);
    projection(3, 3) = 1.0f;
    return projection;
  }
  projection(0, 0) = f / std::max(aspect, 1e-4f);
  projection(1, 1) = f;
  projection(2, 2) = (farPlane + nearPlane) / (nearPlane - farPlane);
  projection(2, 3) = 2.0f * farPlane * nearPlane / (nearPlane - farPlane);
  projection(3, 2) = -1.0f;
  return projection;
}

void OrbitCamera::setNamedView(NamedView view) {
  constexpr float kQuarterTurnRad = 1.5707964f;
  switch (view) {
    case NamedView::Front:
      setView(mTarget, 0.0f, 0.0f, mDistance);
      break;
    case NamedView::Side:
      setView(mTarget, kQuarterTurnRad, 0.0f, mDistance);
      break;
    case NamedView::Top:
      setView(mTarget, 0.0f, kMaxPitchRad, mDistance);
      break;
    case NamedView::Perspective:
      setView(mTarget, OrbitCamera().mYawRad, OrbitCamera().mPitchRad, mDistance);
      break;
  }
  mOrthographic = view != NamedView::Perspective;
}

float OrbitCamera::unitsPerPixelAtTarget(float viewportHeight) const {
  return 2.0f * mDistance * std::tan(mFovYRad * 0.5f) / std::max(viewportHeight, 1.0f);
}

void OrbitCamera::orbit(float dxPixels, float dyPixels) {
  // Dragging right turns the character towards the right, as in Maya and Blender.
  // Orbiting out of a front/side/top view returns to perspective (Blender's auto
  // perspective): an orthographic view from an arbitrary angle only confuses.
  mOrthographic = false;
  mYawRad -= dxPixels * kOrbitRadPerPixel;
  mPitchRad = std::clamp(mPitchRad + dyPixels * kOrbitRadPerPixel, -kMaxPitchRad, kMaxPitchRad);
}

void OrbitCamera::pan(float dxPixels, float dyPixels, float viewportHeight) {
  // Model units per pixel at the target's depth, so the point under the mouse stays there.
  const float unitsPerPixel = unitsPerPixelAtTarget(viewportHeight);
  const Mat4 view = viewMatrix();
  const Vec3 right = view.block<1, 3>(0, 0).transpose();
  const Vec3 up = view.block<1, 3>(1, 0).transpose();
  mTarget += (-dxPixels * right + dyPixels * up) * unitsPerPixel;
}

void OrbitCamera::zoom(float factor) { mDistance = std::clamp(mDistance * factor, 1e-4f, 1e7f); }

void OrbitCamera::frame(const Eigen::AlignedBox3f& boxModel, float aspect) {
  if (boxModel.isEmpty()) return;
  mTarget = boxModel.center();
  mSceneRadius = std::max(0.5f * boxModel.diagonal().norm(), 1e-3f);
  const float halfFovY = 0.5f * mFovYRad;
  const float halfFovX = std::atan(std::tan(halfFovY) * std::max(aspect, 1e-4f));
  const float halfFov = std::min(halfFovX, halfFovY);
  // 1.05: a small margin so the silhouette does not touch the viewport's edges.
  mDistance = 1.05f * mSceneRadius / std::sin(halfFov);
}

}  // namespace articula::ui
