#include "ui/viewport/rig_overlay.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>

#include "ui/viewport/screen_projection.h"
#include "ui/viewport/skeleton_overlay.h"

namespace articula::ui {

namespace {

using Color = std::array<float, 4>;
constexpr Color kReachedColor = {0.35f, 0.90f, 0.45f, 1.0f};
constexpr Color kUnreachedColor = {0.95f, 0.35f, 0.30f, 1.0f};
constexpr Color kDisabledColor = {0.55f, 0.55f, 0.58f, 1.0f};
constexpr Color kActiveColor = {1.0f, 0.85f, 0.20f, 1.0f};
constexpr Color kPoleColor = {0.45f, 0.70f, 1.0f, 1.0f};
constexpr Color kLimitColor = {0.95f, 0.60f, 0.95f, 1.0f};
// Cyan: no other overlay (bones, gizmo, handles, limits) uses it, so a trail reads apart.
constexpr Color kTrailColor = {0.30f, 0.92f, 0.95f, 1.0f};
constexpr Color kTrailTickColor = {0.30f, 0.92f, 0.95f, 0.6f};
constexpr Color kContactColor = {1.0f, 0.55f, 0.15f, 1.0f};
constexpr int kCircleSegments = 32;

void appendLine(std::vector<OverlayVertex>& out, const Vec3& a, const Vec3& b, const Color& c) {
  out.push_back({{a.x(), a.y(), a.z()}, {0.0f, 1.0f, 0.0f}, {c[0], c[1], c[2], c[3]}});
  out.push_back({{b.x(), b.y(), b.z()}, {0.0f, 1.0f, 0.0f}, {c[0], c[1], c[2], c[3]}});
}

void appendDiamond(std::vector<OverlayVertex>& out, const Vec3& centre, float size, const Color& color) {
  const std::array<Vec3, 6> tips = {centre + size * Vec3::UnitX(), centre - size * Vec3::UnitX(),
                                    centre + size * Vec3::UnitY(), centre - size * Vec3::UnitY(),
                                    centre + size * Vec3::UnitZ(), centre - size * Vec3::UnitZ()};
  // Every tip joined to the four tips not on its own axis: the 12 edges of an octahedron.
  for (std::size_t a = 0; a < 6; ++a)
    for (std::size_t b = a + 1; b < 6; ++b)
      if (a / 2 != b / 2) appendLine(out, tips[a], tips[b], color);
}

std::optional<ScreenPoint> toScreen(const GizmoView& view, const Vec3& pointModel) {
  return projectToScreen(view.viewProjection, view.width, view.height, pointModel);
}

Vec3 fromScreen(const GizmoView& view, const Vec2& pixel, float ndcZ) {
  const Vec4 ndc(2.0f * pixel.x() / view.width - 1.0f, 1.0f - 2.0f * pixel.y() / view.height, ndcZ, 1.0f);
  const Vec4 model = view.viewProjection.inverse() * ndc;
  return model.head<3>() / model.w();
}

Vec3 unitOr(const Vec3& v, const Vec3& fallback) { return v.squaredNorm() > 1e-12f ? v.normalized() : fallback; }

}  // namespace

std::optional<Vec3> poleModel(const IkHandle& handle, std::span<const Affine> inputModel) {
  switch (handle.pole.space) {
    case IkPole::Space::None:
      return std::nullopt;
    case IkPole::Space::Model:
      return handle.pole.position;
    case IkPole::Space::Joint:
      if (handle.pole.joint < 0 || handle.pole.joint >= static_cast<int>(inputModel.size())) return std::nullopt;
      return inputModel[static_cast<std::size_t>(handle.pole.joint)] * handle.pole.position;
  }
  return std::nullopt;
}

Vec3 poleInPoleSpace(const IkHandle& handle, std::span<const Affine> inputModel, const Vec3& pointModel) {
  if (handle.pole.space == IkPole::Space::Joint && handle.pole.joint >= 0 &&
      handle.pole.joint < static_cast<int>(inputModel.size())) {
    return inputModel[static_cast<std::size_t>(handle.pole.joint)].inverse() * pointModel;
  }
  return pointModel;
}

void handleMarkers(const RigDefinition& rig, std::span<const HandleReport> reports, std::span<const Affine> inputModel,
                   std::span<const Affine> modelPose, std::vector<HandleMarker>& markers) {
  markers.clear();
  for (std::size_t i = 0; i < rig.handles.size(); ++i) {
    const IkHandle& handle = rig.handles[i];
    if (handle.chain.empty()) continue;
    const auto inPose = [&](int joint) { return joint >= 0 && joint < static_cast<int>(modelPose.size()); };
    if (!std::all_of(handle.chain.begin(), handle.chain.end(), inPose)) continue;
    HandleMarker marker;
    marker.handle = static_cast<int>(i);
    marker.enabled = handle.enabled;
    const Vec3 tipModel = modelPose[static_cast<std::size_t>(handle.chain.back())].translation();
    if (i < reports.size() && reports[i].solved) {
      marker.targetModel = reports[i].targetModel;
      marker.reached = reports[i].reached;
    } else {
      marker.targetModel = handle.targetSource == TargetSource::Handle ? handle.targetModel : tipModel;
      marker.reached = (marker.targetModel - tipModel).norm() <= handle.toleranceModel;
    }
    if (const auto pole = poleModel(handle, inputModel)) {
      marker.hasPole = true;
      marker.poleModel = *pole;
      marker.chainMiddleModel =
          modelPose[static_cast<std::size_t>(handle.chain[handle.chain.size() / 2])].translation();
    }
    markers.push_back(marker);
  }
}

HandlePick pickHandle(std::span<const HandleMarker> markers, const GizmoView& view, const Vec2& mouse,
                      float radiusPixels) {
  HandlePick best;
  float bestDistance = std::numeric_limits<float>::max();
  // Targets first: a pole is only picked where no target is in reach.
  for (bool pole : {false, true}) {
    for (const HandleMarker& marker : markers) {
      if (pole && !marker.hasPole) continue;
      const auto screen = toScreen(view, pole ? marker.poleModel : marker.targetModel);
      if (!screen) continue;
      const float distance = (screen->pixel - mouse).norm();
      if (distance <= radiusPixels && distance < bestDistance) {
        bestDistance = distance;
        best = HandlePick{marker.handle, pole};
      }
    }
    if (best.handle >= 0) break;
  }
  return best;
}

Vec3 dragOnViewPlane(const Vec3& startModel, const GizmoView& view, const Vec2& mouseStart, const Vec2& mouseNow) {
  const auto screen = toScreen(view, startModel);
  if (!screen) return startModel;
  const Vec3 delta = fromScreen(view, mouseNow, screen->depth) - fromScreen(view, mouseStart, screen->depth);
  return delta.allFinite() ? startModel + delta : startModel;
}

void buildHandleLines(std::span<const HandleMarker> markers, int activeHandle, float sizeModel,
                      std::vector<OverlayVertex>& lines) {
  for (const HandleMarker& marker : markers) {
    const Color color = marker.handle == activeHandle ? kActiveColor
                        : !marker.enabled             ? kDisabledColor
                        : marker.reached              ? kReachedColor
                                                      : kUnreachedColor;
    appendDiamond(lines, marker.targetModel, sizeModel, color);
    for (int axis = 0; axis < 3; ++axis) {
      const Vec3 arm = 1.8f * sizeModel * Vec3::Unit(axis);
      appendLine(lines, marker.targetModel - arm, marker.targetModel + arm, color);
    }
    if (!marker.hasPole) continue;
    appendDiamond(lines, marker.poleModel, 0.6f * sizeModel, marker.handle == activeHandle ? kActiveColor : kPoleColor);
    appendLine(lines, marker.chainMiddleModel, marker.poleModel, kPoleColor);
  }
}

void buildJointLimitLines(const RigDefinition& rig, const Skeleton& skeleton, std::span<const Affine> modelPose,
                          int joint, float lengthModel, std::vector<OverlayVertex>& lines) {
  if (joint < 0 || joint >= static_cast<int>(modelPose.size())) return;
  for (const IkHandle& handle : rig.handles) {
    const auto found = std::find(handle.chain.begin(), handle.chain.end(), joint);
    if (found == handle.chain.end() || handle.limits.size() != handle.chain.size()) continue;
    const JointLimit& limit = handle.limits[static_cast<std::size_t>(found - handle.chain.begin())];
    if (limit.kind == JointLimit::Kind::Free) continue;
    const int parent = skeleton.parent(joint);
    // Limit axes are in the parent's space; its rotation (scale removed) takes them to model space.
    const Mat3 parentRotation = parent == kNoParent || parent >= static_cast<int>(modelPose.size())
                                    ? Mat3::Identity()
                                    : Mat3(modelPose[static_cast<std::size_t>(parent)].rotation());
    const Vec3 originModel = modelPose[static_cast<std::size_t>(joint)].translation();
    const Vec3 axisModel = unitOr(parentRotation * limit.axisParent, Vec3::UnitY());
    if (limit.kind == JointLimit::Kind::Cone) {
      Vec3 xModel = parentRotation * limit.xParent;
      xModel = unitOr(xModel - xModel.dot(axisModel) * axisModel, axisModel.unitOrthogonal());
      const Vec3 yModel = axisModel.cross(xModel);
      const float ax = std::min(limit.halfAngleXRad, kPi), ay = std::min(limit.halfAngleYRad, kPi);
      Vec3 previous = Vec3::Zero();
      for (int s = 0; s <= kCircleSegments; ++s) {
        const float theta = 2.0f * kPi * static_cast<float>(s) / kCircleSegments;
        const float c = std::cos(theta), n = std::sin(theta);
        // The elliptical cone's half-angle towards direction theta.
        const float half = 1.0f / std::sqrt((c * c) / (ax * ax) + (n * n) / (ay * ay));
        const Vec3 point =
            originModel + lengthModel * (std::cos(half) * axisModel + std::sin(half) * (c * xModel + n * yModel));
        if (s > 0) appendLine(lines, previous, point, kLimitColor);
        if (s % 8 == 0) appendLine(lines, originModel, point, kLimitColor);
        previous = point;
      }
      appendLine(lines, originModel, originModel + lengthModel * axisModel, kLimitColor);
    } else {
      // θ = 0 points the bone where referenceLocal puts it: the first child's direction.
      const auto children = skeleton.children(joint);
      const Vec3 boneLocal =
          children.empty()
              ? Vec3::UnitX()
              : unitOr(skeleton.restPose()[static_cast<std::size_t>(children.front())].translation, Vec3::UnitX());
      Vec3 zeroModel = parentRotation * (limit.referenceLocal * boneLocal);
      zeroModel = unitOr(zeroModel - zeroModel.dot(axisModel) * axisModel, axisModel.unitOrthogonal());
      const float from = std::max(limit.minAngleRad, -kPi), to = std::min(limit.maxAngleRad, kPi);
      Vec3 previous = Vec3::Zero();
      for (int s = 0; s <= kCircleSegments; ++s) {
        const float theta = from + (to - from) * static_cast<float>(s) / kCircleSegments;
        const Vec3 point = originModel + lengthModel * (Eigen::AngleAxisf(theta, axisModel) * zeroModel);
        if (s > 0) appendLine(lines, previous, point, kLimitColor);
        if (s == 0 || s == kCircleSegments) appendLine(lines, originModel, point, kLimitColor);
        previous = point;
      }
      appendLine(lines, originModel - 0.4f * lengthModel * axisModel, originModel + 0.4f * lengthModel * axisModel,
                 kLimitColor);
    }
    return;
  }
}

void buildTrailLines(std::span<const Vec3> pointsModel, float tickModel, std::vector<OverlayVertex>& lines) {
  for (std::size_t i = 0; i < pointsModel.size(); ++i) {
    const Vec3& point = pointsModel[i];
    if (i > 0) appendLine(lines, pointsModel[i - 1], point, kTrailColor);
    for (int axis = 0; axis < 3; ++axis) {
      appendLine(lines, point - tickModel * Vec3::Unit(axis), point + tickModel * Vec3::Unit(axis), kTrailTickColor);
    }
  }
}

void buildTrailCursor(const Vec3& pointModel, float sizeModel, std::vector<OverlayVertex>& lines) {
  appendDiamond(lines, pointModel, sizeModel, kTrailColor);
}

void buildContactMarkers(std::span<const ContactFoot> feet, const Clip& clip, double timeSeconds,
                         std::span<const Affine> modelPose, float radiusModel, std::vector<OverlayVertex>& lines) {
  for (const ContactFoot& foot : feet) {
    const auto curve = clip.curves.find(foot.curve);
    if (curve == clip.curves.end() || curve->second.empty()) continue;
    if (foot.joint < 0 || foot.joint >= static_cast<int>(modelPose.size())) continue;
    // Planted: the stride curve is 1 (its ramps ease between 0 and 1).
    if (curve->second.evaluate(timeSeconds) < 0.999) continue;
    const Vec3 ankle = modelPose[static_cast<std::size_t>(foot.joint)].translation();
    const Vec3 centre(ankle.x(), 0.0f, ankle.z());
    Vec3 previous = Vec3::Zero();
    for (int s = 0; s <= kCircleSegments; ++s) {
      const float theta = 2.0f * kPi * static_cast<float>(s) / kCircleSegments;
      const Vec3 point = centre + radiusModel * Vec3(std::cos(theta), 0.0f, std::sin(theta));
      if (s > 0) appendLine(lines, previous, point, kContactColor);
      previous = point;
    }
    appendLine(lines, centre - radiusModel * Vec3::UnitX(), centre + radiusModel * Vec3::UnitX(), kContactColor);
    appendLine(lines, centre - radiusModel * Vec3::UnitZ(), centre + radiusModel * Vec3::UnitZ(), kContactColor);
  }
}

}  // namespace articula::ui
