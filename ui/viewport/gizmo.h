#pragma once
#include <optional>
#include <vector>

#include "core/math/transform.h"
#include "core/math/types.h"

namespace articula::ui {

struct OverlayVertex;

// Translate and rotate manipulators on a joint, as pure maths so picking and dragging are
// tested without a window. Screen coordinates are pixels, y down, in a viewport `width` ×
// `height`; `viewProjection` maps model space to clip space.
enum class GizmoMode { None, Translate, Rotate };
// Local: the handles follow the joint's own axes (Maya's "object"); World: model axes.
enum class GizmoSpace { Local, World };

struct GizmoFrame {
  Vec3 originModel = Vec3::Zero();    // the joint's position in model space
  Mat3 axesModel = Mat3::Identity();  // columns: unit X, Y, Z handle axes in model space
  float sizeModel = 1.0f;             // handle length (ring radius) in model units
};

struct GizmoView {
  Mat4 viewProjection = Mat4::Identity();
  float width = 1.0f;
  float height = 1.0f;
};

// Frame of the gizmo on a joint whose model matrix is `jointModel`, `sizePixels` long on
// screen at the joint's depth. World space uses the model axes.
GizmoFrame gizmoFrameOf(const Affine& jointModel, GizmoSpace space, const GizmoView& view, float sizePixels);

// Handle under `mouse`: the axis index 0..2, or -1. Translate handles are the three arrows
// from the origin; rotate handles are the three rings (circles about each axis).
int pickGizmoAxis(GizmoMode mode, const GizmoFrame& frame, const GizmoView& view, const Vec2& mouse,
                  float radiusPixels = 7.0f);

// Translation in model space of a drag along `axis` from `mouseStart` to `mouseNow`: the
// mouse motion projected on the axis as drawn on screen, converted to model units at the
// gizmo's depth. Zero when the axis points at the eye (it has no on-screen direction).
Vec3 translateDragModel(const GizmoFrame& frame, int axis, const GizmoView& view, const Vec2& mouseStart,
                        const Vec2& mouseNow);

// How fast a ring turns: radians per pixel of mouse motion along the ring (0.4°, Maya's and
// Blender's calm rate; the viewport divides motion by 10 while Shift is held).
inline constexpr float kRotateRadiansPerPixel = 0.4f * 3.14159265f / 180.0f;

// Rotation in model space of a drag on ring `axis` grabbed at `mouseStart`: the mouse motion
// along the ring's on-screen tangent there (round the gizmo's centre), `radiansPerPixel` per
// pixel, about the axis, with the sign that makes the ring follow the mouse whichever way the
// axis faces the eye. Identity when grabbed at the centre itself.
Quat rotateDragModel(const GizmoFrame& frame, int axis, const GizmoView& view, const Vec2& mouseStart,
                     const Vec2& mouseNow, float radiansPerPixel = kRotateRadiansPerPixel);

// A joint's new local transform (in its parent's space) after moving it by `deltaModel` or
// turning it by `rotationModel` (about its own origin), both in model space; `parentModel`
// is the parent's model matrix (identity for a root).
Transform translatedLocal(const Transform& local, const Affine& parentModel, const Vec3& deltaModel);
Transform rotatedLocal(const Transform& local, const Affine& parentModel, const Quat& rotationModel);

// Lines (pairs of vertices) drawing the gizmo; `activeAxis` is highlighted.
void buildGizmoLines(GizmoMode mode, const GizmoFrame& frame, int activeAxis, std::vector<OverlayVertex>& lines);

}  // namespace articula::ui
