#include "ui/viewport/gizmo.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>

#include "ui/viewport/screen_projection.h"
#include "ui/viewport/skeleton_overlay.h"

namespace articula::ui {

namespace {

constexpr int kRingSegments = 64;

std::optional<ScreenPoint> project(const GizmoView& view, const Vec3& pointModel) {
  return projectToScreen(view.viewProjection, view.width, view.height, pointModel);
}

float distanceToSegment(const Vec2& point, const Vec2& a, const Vec2& b) {
  const Vec2 ab = b - a;
  const float lengthSquared = ab.squaredNorm();
  const float t = lengthSquared > 0.0f ? std::clamp((point - a).dot(ab) / lengthSquared, 0.0f, 1.0f) : 0.0f;
  return (point - (a + t * ab)).norm();
}

// Point of ring `axis` at angle `angleRad`: a circle in the plane of the two other axes.
Vec3 ringPoint(const GizmoFrame& frame, int axis, float angleRad) {
  const Vec3 u = frame.axesModel.col((axis + 1) % 3);
  const Vec3 v = frame.axesModel.col((axis + 2) % 3);
  return frame.originModel + frame.sizeModel * (std::cos(angleRad) * u + std::sin(angleRad) * v);
}

Quat rotationOf(const Affine& model) { return Transform::fromMatrix(model.matrix()).rotation; }

void addLine(std::vector<OverlayVertex>& lines, const Vec3& a, const Vec3& b, const Vec4& color) {
  for (const Vec3* point : {&a, &b}) {
    OverlayVertex vertex{};
    for (int i = 0; i < 3; ++i) vertex.position[i] = (*point)[i];
    vertex.normal[1] = 1.0f;
    for (int i = 0; i < 4; ++i) vertex.color[i] = color[i];
    lines.push_back(vertex);
  }
}

}  // namespace

GizmoFrame gizmoFrameOf(const Affine& jointModel, GizmoSpace space, const GizmoView& view, float sizePixels) {
  GizmoFrame frame;
  frame.originModel = jointModel.translation();
  if (space == GizmoSpace::Local) frame.axesModel = rotationOf(jointModel).toRotationMatrix();
  // Pixels per model unit for a segment parallel to the screen at the origin's depth: row 1
  // of the view-projection is the projection's y scale times the camera's unit up vector.
  const float w = view.viewProjection.row(3).dot(frame.originModel.homogeneous());
  const float yScale = view.viewProjection.block<1, 3>(1, 0).norm();
  const float pixelsPerUnit = 0.5f * view.height * yScale / std::max(std::abs(w), 1e-6f);
  frame.sizeModel = sizePixels / std::max(pixelsPerUnit, 1e-6f);
  return frame;
}

int pickGizmoAxis(GizmoMode mode, const GizmoFrame& frame, const GizmoView& view, const Vec2& mouse,
                  float radiusPixels) {
  if (mode == GizmoMode::None) return -1;
  int best = -1;
  float bestDistance = radiusPixels;
  for (int axis = 0; axis < 3; ++axis) {
    float distance = std::numeric_limits<float>::max();
    if (mode == GizmoMode::Translate) {
      const auto origin = project(view, frame.originModel);
      const auto tip = project(view, frame.originModel + frame.sizeModel * frame.axesModel.col(axis));
      if (origin && tip) distance = distanceToSegment(mouse, origin->pixel, tip->pixel);
    } else {
      std::optional<ScreenPoint> previous = project(view, ringPoint(frame, axis, 0.0f));
      for (int segment = 1; segment <= kRingSegments; ++segment) {
        const float angleRad = 2.0f * std::numbers::pi_v<float> * static_cast<float>(segment) / kRingSegments;
        const auto point = project(view, ringPoint(frame, axis, angleRad));
        if (previous && point) distance = std::min(distance, distanceToSegment(mouse, previous->pixel, point->pixel));
        previous = point;
      }
    }
    if (distance <= bestDistance) {
      best = axis;
      bestDistance = distance;
    }
  }
  return best;
}

Vec3 translateDragModel(const GizmoFrame& frame, int axis, const GizmoView& view, const Vec2& mouseStart,
                        const Vec2& mouseNow) {
  if (axis < 0 || axis > 2) return Vec3::Zero();
  const Vec3 axisModel = frame.axesModel.col(axis);
  const auto origin = project(view, frame.originModel);
  const auto tip = project(view, frame.originModel + frame.sizeModel * axisModel);
  if (!origin || !tip) return Vec3::Zero();
  const Vec2 axisPixels = tip->pixel - origin->pixel;  // sizeModel units of the axis on screen
  const float lengthSquared = axisPixels.squaredNorm();
  if (lengthSquared < 1.0f) return Vec3::Zero();
  const float units = (mouseNow - mouseStart).dot(axisPixels) / lengthSquared * frame.sizeModel;
  return units * axisModel;
}

Quat rotateDragModel(const GizmoFrame& frame, int axis, const GizmoView& view, const Vec2& mouseStart,
                     const Vec2& mouseNow, float radiansPerPixel) {
  if (axis < 0 || axis > 2) return Quat::Identity();
  const auto centre = project(view, frame.originModel);
  const auto tip = project(view, frame.originModel + frame.sizeModel * frame.axesModel.col(axis));
  if (!centre || !tip) return Quat::Identity();
  const Vec2 from = mouseStart - centre->pixel;
  if (from.squaredNorm() < 1.0f) return Quat::Identity();
  // Pixels have y down: this tangent points the way a clockwise turn (as seen) moves the grab.
  const Vec2 clockwiseTangent = Vec2(-from.y(), from.x()).normalized();
  const float clockwiseRad = (mouseNow - mouseStart).dot(clockwiseTangent) * radiansPerPixel;
  // Right-hand rule: a positive angle turns counter-clockwise seen from the axis' tip. When
  // the axis points away from the eye we see the ring from behind.
  const bool axisTowardsEye = tip->depth < centre->depth;
  const float angleRad = axisTowardsEye ? -clockwiseRad : clockwiseRad;
  return Quat(Eigen::AngleAxisf(angleRad, frame.axesModel.col(axis)));
}

Transform translatedLocal(const Transform& local, const Affine& parentModel, const Vec3& deltaModel) {
  // The local translation is a point in the parent's space: map the model-space delta
  // back through the parent's linear part (exact with any scale, even non-uniform).
  const Mat3 linear = parentModel.linear();
  if (std::abs(linear.determinant()) < 1e-12f) return local;
  Transform moved = local;
  moved.translation += linear.inverse() * deltaModel;
  return moved;
}

Transform rotatedLocal(const Transform& local, const Affine& parentModel, const Quat& rotationModel) {
  // model rotation' = rotationModel × parent × local, so local' = parent⁻¹ × rotationModel ×
  // parent × local (with the parent's rotation from its polar decomposition).
  const Quat parentRotation = rotationOf(parentModel);
  Transform turned = local;
  turned.rotation = (parentRotation.conjugate() * rotationModel * parentRotation * local.rotation).normalized();
  return turned;
}

void buildGizmoLines(GizmoMode mode, const GizmoFrame& frame, int activeAxis, std::vector<OverlayVertex>& lines) {
  lines.clear();
  if (mode == GizmoMode::None) return;
  const Vec4 colors[3] = {Vec4(0.95f, 0.25f, 0.25f, 1.0f), Vec4(0.35f, 0.9f, 0.3f, 1.0f), Vec4(0.3f, 0.5f, 1.0f, 1.0f)};
  const Vec4 active(1.0f, 0.85f, 0.2f, 1.0f);
  for (int axis = 0; axis < 3; ++axis) {
    const Vec4& color = axis == activeAxis ? active : colors[axis];
    const Vec3 direction = frame.axesModel.col(axis);
    if (mode == GizmoMode::Translate) {
      const Vec3 tip = frame.originModel + frame.sizeModel * direction;
      addLine(lines, frame.originModel, tip, color);
      // Arrow head: four barbs back from the tip.
      const Vec3 u = frame.axesModel.col((axis + 1) % 3) * (0.06f * frame.sizeModel);
      const Vec3 v = frame.axesModel.col((axis + 2) % 3) * (0.06f * frame.sizeModel);
      const Vec3 base = tip - 0.18f * frame.sizeModel * direction;
      for (const Vec3& offset : {u, Vec3(-u), v, Vec3(-v)}) addLine(lines, tip, base + offset, color);
    } else {
      for (int segment = 0; segment < kRingSegments; ++segment) {
        const float step = 2.0f * std::numbers::pi_v<float> / kRingSegments;
        addLine(lines, ringPoint(frame, axis, step * static_cast<float>(segment)),
                ringPoint(frame, axis, step * static_cast<float>(segment + 1)), color);
      }
    }
  }
}

}  // namespace articula::ui
