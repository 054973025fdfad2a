#pragma once
// What the viewport draws of a rig, and the picking and dragging of its handles, as pure
// maths so it is tested without a window. Every position is in model space; screen
// coordinates are pixels, y down (as in gizmo.h).
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "core/rig/rig.h"
#include "ui/viewport/gizmo.h"

namespace articula::ui {

struct OverlayVertex;

// Where one handle of the active rig is drawn.
struct HandleMarker {
  int handle = -1;
  Vec3 targetModel = Vec3::Zero();  // the target the last solve used (curves and grounding applied)
  bool hasPole = false;
  Vec3 poleModel = Vec3::Zero();
  Vec3 chainMiddleModel = Vec3::Zero();  // the joint the pole line starts from
  bool reached = false;
  bool enabled = true;
};

// One marker per handle. `reports` is the last solve's (may be empty when the rig did not
// solve: targets are then the handles' own, or the tip for TargetSource::InputPose);
// `inputModel` carries Joint-space poles; `modelPose` is the solved pose.
// `markers` is cleared and refilled (its capacity kept: called at every frame).
void handleMarkers(const RigDefinition& rig, std::span<const HandleReport> reports, std::span<const Affine> inputModel,
                   std::span<const Affine> modelPose, std::vector<HandleMarker>& markers);

// The pole of `handle` in model space, nullopt when it has none (IkPole::Space::None or a
// bad joint).
std::optional<Vec3> poleModel(const IkHandle& handle, std::span<const Affine> inputModel);
// A model-space point in the pole's own space (what IkPole::position holds).
Vec3 poleInPoleSpace(const IkHandle& handle, std::span<const Affine> inputModel, const Vec3& pointModel);

// The handle part under `mouse`: targets win over poles, then the nearest on screen.
struct HandlePick {
  int handle = -1;
  bool pole = false;
};
HandlePick pickHandle(std::span<const HandleMarker> markers, const GizmoView& view, const Vec2& mouse,
                      float radiusPixels = 9.0f);

// Where a point grabbed at `startModel` goes when the mouse moves from `mouseStart` to
// `mouseNow`: it slides in the plane through it facing the camera, so it stays under the
// mouse. Unchanged when the point is behind the eye.
Vec3 dragOnViewPlane(const Vec3& startModel, const GizmoView& view, const Vec2& mouseStart, const Vec2& mouseNow);

// Lines: each target a cross and a diamond (green when reached, red when not, grey when
// disabled; the handle `activeHandle` highlighted), each pole a smaller diamond with a line
// from the chain's middle joint. `sizeModel` is the diamond's half-size. Appends to `lines`.
void buildHandleLines(std::span<const HandleMarker> markers, int activeHandle, float sizeModel,
                      std::vector<OverlayVertex>& lines);

// Lines of the limit of joint `joint` in the active rig (the first handle whose chain holds
// it with a Cone or Hinge limit): a cone's rim and spokes, or a hinge's arc between its
// angles and its axis, drawn at the joint, `lengthModel` long. Nothing for a free joint.
void buildJointLimitLines(const RigDefinition& rig, const Skeleton& skeleton, std::span<const Affine> modelPose,
                          int joint, float lengthModel, std::vector<OverlayVertex>& lines);

// Appends a trail (one model-space point per frame): lines joining successive points and a
// tick (a small cross, `tickModel` half-size) at every frame, so the spacing shows the
// speed. Independent of the current frame, so it is built once per trail change.
void buildTrailLines(std::span<const Vec3> pointsModel, float tickModel, std::vector<OverlayVertex>& lines);
// Appends the marker of the current frame on a trail: a diamond of half-size `sizeModel`.
void buildTrailCursor(const Vec3& pointModel, float sizeModel, std::vector<OverlayVertex>& lines);

// A foot contact to mark on the ground: the joint and its stride curve.
struct ContactFoot {
  int joint = -1;
  std::string curve;  // "contact.left_foot", ...
};
// Rings on the ground (y = 0) under each foot whose stride curve is 1 (planted) at
// `timeSeconds`; `radiusModel` is the ring's radius.
void buildContactMarkers(std::span<const ContactFoot> feet, const Clip& clip, double timeSeconds,
                         std::span<const Affine> modelPose, float radiusModel, std::vector<OverlayVertex>& lines);

}  // namespace articula::ui
