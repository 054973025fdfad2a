#include "ui/viewport/skeleton_overlay.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <optional>

#include "ui/viewport/screen_projection.h"

namespace articula::ui {

namespace {

using Color = std::array<float, 4>;
constexpr Color kBoneColor = {0.62f, 0.64f, 0.70f, 1.0f};
constexpr Color kJointColor = {0.78f, 0.80f, 0.86f, 1.0f};
constexpr Color kSelectedColor = {1.0f, 0.58f, 0.16f, 1.0f};
constexpr Color kGridColor = {0.40f, 0.40f, 0.42f, 1.0f};
constexpr Color kGridMajorColor = {0.47f, 0.47f, 0.50f, 1.0f};
constexpr Color kAxisXColor = {0.78f, 0.30f, 0.30f, 1.0f};
constexpr Color kAxisZColor = {0.30f, 0.48f, 0.82f, 1.0f};

void appendVertex(std::vector<OverlayVertex>& out, const Vec3& p, const Vec3& n, const Color& c) {
  out.push_back({{p.x(), p.y(), p.z()}, {n.x(), n.y(), n.z()}, {c[0], c[1], c[2], c[3]}});
}

void appendTriangle(std::vector<OverlayVertex>& out, const Vec3& a, const Vec3& b, const Vec3& c, const Color& color) {
  // Flat shading: every corner carries the face normal.
  const Vec3 normal = (b - a).cross(c - a).normalized();
  appendVertex(out, a, normal, color);
  appendVertex(out, b, normal, color);
  appendVertex(out, c, normal, color);
}

// Two unit vectors perpendicular to `axis` and to each other.
void perpendicularBasis(const Vec3& axis, Vec3& u, Vec3& v) {
  const Vec3 helper = std::abs(axis.y()) < 0.9f ? Vec3::UnitY() : Vec3::UnitX();
  u = axis.cross(helper).normalized();
  v = axis.cross(u);
}

void appendBone(std::vector<OverlayVertex>& out, const Vec3& head, const Vec3& tail, const Color& color) {
  const Vec3 along = tail - head;
  const float length = along.norm();
  if (length < 1e-6f) return;
  const Vec3 axis = along / length;
  Vec3 u, v;
  perpendicularBasis(axis, u, v);
  const Vec3 ringCentre = head + 0.1f * along;
  const float width = 0.1f * length;
  const std::array<Vec3, 4> ring = {ringCentre + width * u, ringCentre + width * v, ringCentre - width * u,
                                    ringCentre - width * v};
  for (std::size_t i = 0; i < 4; ++i) {
    const Vec3& a = ring[i];
    const Vec3& b = ring[(i + 1) % 4];
    appendTriangle(out, head, b, a, color);
    appendTriangle(out, tail, a, b, color);
  }
}

// A low-poly sphere (8 segments × 6 rings).
void appendMarker(std::vector<OverlayVertex>& out, const Vec3& centre, float radius, const Color& color) {
  constexpr int kSegments = 8;
  constexpr int kRings = 6;
  auto point = [&](int ring, int segment) {
    const float theta = kPi * static_cast<float>(ring) / kRings;
    const float phi = 2.0f * kPi * static_cast<float>(segment) / kSegments;
    return Vec3(std::sin(theta) * std::cos(phi), std::cos(theta), std::sin(theta) * std::sin(phi));
  };
  for (int ring = 0; ring < kRings; ++ring) {
    for (int segment = 0; segment < kSegments; ++segment) {
      const Vec3 a = point(ring, segment);
      const Vec3 b = point(ring + 1, segment);
      const Vec3 c = point(ring + 1, segment + 1);
      const Vec3 d = point(ring, segment + 1);
      // Smooth normals: the unit direction is the normal of a sphere.
      if (ring != 0) {
        appendVertex(out, centre + radius * a, a, color);
        appendVertex(out, centre + radius * d, d, color);
        appendVertex(out, centre + radius * b, b, color);
      }
      if (ring != kRings - 1) {
        appendVertex(out, centre + radius * d, d, color);
        appendVertex(out, centre + radius * c, c, color);
        appendVertex(out, centre + radius * b, b, color);
      }
    }
  }
}

// Distance from p to segment ab, and the segment parameter of the closest point.
float distanceToSegment(const Vec2& p, const Vec2& a, const Vec2& b, float& parameter) {
  const Vec2 ab = b - a;
  const float lengthSquared = ab.squaredNorm();
  parameter = lengthSquared > 0.0f ? std::clamp((p - a).dot(ab) / lengthSquared, 0.0f, 1.0f) : 0.0f;
  return (a + parameter * ab - p).norm();
}

}  // namespace

std::vector<Bone> bonesOf(const Skeleton& skeleton) {
  std::vector<Bone> bones;
  for (int child = 0; child < skeleton.jointCount(); ++child) {
    const int joint = skeleton.parent(child);
    if (joint == kNoParent || skeleton.kind(joint) != NodeKind::Joint) continue;
    if (skeleton.kind(child) == NodeKind::Transform) continue;
    bones.push_back({joint, child});
  }
  return bones;
}

void buildSkeletonOverlay(const Skeleton& skeleton, std::span<const Bone> bones, std::span<const Affine> modelPose,
                          std::span<const int> selectedJoints, float characterHeight,
                          std::vector<OverlayVertex>& triangles) {
  triangles.clear();
  if (modelPose.size() < static_cast<std::size_t>(skeleton.jointCount())) return;
  auto position = [&](int joint) -> Vec3 { return modelPose[static_cast<std::size_t>(joint)].translation(); };
  auto selected = [&](int joint) { return std::binary_search(selectedJoints.begin(), selectedJoints.end(), joint); };

  // Marker size follows the bones around each joint so a finger's marker stays small and
  // a hip's stays visible; joints without bones fall back to a fraction of the height.
  std::vector<float> nearbyBoneLength(static_cast<std::size_t>(skeleton.jointCount()), 0.0f);
  for (const Bone& bone : bones) {
    const float length = (position(bone.child) - position(bone.joint)).norm();
    for (int end : {bone.joint, bone.child}) {
      float& slot = nearbyBoneLength[static_cast<std::size_t>(end)];
      slot = slot == 0.0f ? length : std::min(slot, length);
    }
  }
  const float fallbackRadius = 0.012f * characterHeight;
  const float maxRadius = 0.03f * characterHeight;

  for (const Bone& bone : bones) {
    appendBone(triangles, position(bone.joint), position(bone.child),
               selected(bone.joint) ? kSelectedColor : kBoneColor);
  }
  for (int joint = 0; joint < skeleton.jointCount(); ++joint) {
    if (skeleton.kind(joint) != NodeKind::Joint) continue;
    const float nearby = nearbyBoneLength[static_cast<std::size_t>(joint)];
    const float radius = nearby > 0.0f ? std::min(0.09f * nearby, maxRadius) : fallbackRadius;
    appendMarker(triangles, position(joint), std::max(radius, 0.002f * characterHeight),
                 selected(joint) ? kSelectedColor : kJointColor);
  }
}

void buildGroundGrid(float characterHeight, std::vector<OverlayVertex>& lines) {
  lines.clear();
  const float cell = std::pow(10.0f, std::round(std::log10(std::max(characterHeight, 1e-6f) * 0.25f)));
  constexpr int kHalfCells = 10;
  const float extent = cell * kHalfCells;
  const Vec3 up = Vec3::UnitY();
  for (int i = -kHalfCells; i <= kHalfCells; ++i) {
    const float offset = cell * static_cast<float>(i);
    const Color& alongX = i == 0 ? kAxisXColor : (i % 5 == 0 ? kGridMajorColor : kGridColor);
    const Color& alongZ = i == 0 ? kAxisZColor : (i % 5 == 0 ? kGridMajorColor : kGridColor);
    appendVertex(lines, Vec3(-extent, 0.0f, offset), up, alongX);
    appendVertex(lines, Vec3(extent, 0.0f, offset), up, alongX);
    appendVertex(lines, Vec3(offset, 0.0f, -extent), up, alongZ);
    appendVertex(lines, Vec3(offset, 0.0f, extent), up, alongZ);
  }
}

int pickJoint(const Skeleton& skeleton, std::span<const Bone> bones, std::span<const Affine> modelPose,
              const Mat4& viewProjection, float width, float height, const Vec2& mouse, float radiusPixels) {
  if (modelPose.size() < static_cast<std::size_t>(skeleton.jointCount())) return -1;
  auto screen = [&](int joint) {
    return projectToScreen(viewProjection, width, height, modelPose[static_cast<std::size_t>(joint)].translation());
  };

  int best = -1;
  float bestDistance = std::numeric_limits<float>::max();
  float bestDepth = std::numeric_limits<float>::max();
  auto consider = [&](int joint, float distance, float depth, float radius) {
    if (distance > radius) return;
    // Within a pixel counts as a tie: then the one nearer to the eye wins.
    const bool closer = distance < bestDistance - 1.0f;
    const bool tie = std::abs(distance - bestDistance) <= 1.0f;
    if (closer || (tie && depth < bestDepth)) {
      best = joint;
      bestDistance = distance;
      bestDepth = depth;
    }
  };

  for (int joint = 0; joint < skeleton.jointCount(); ++joint) {
    if (skeleton.kind(joint) != NodeKind::Joint) continue;
    if (const auto point = screen(joint)) consider(joint, (point->pixel - mouse).norm(), point->depth, radiusPixels);
  }
  if (best >= 0) return best;

  for (const Bone& bone : bones) {
    const auto head = screen(bone.joint);
    const auto tail = screen(bone.child);
    if (!head || !tail) continue;
    float parameter = 0.0f;
    const float distance = distanceToSegment(mouse, head->pixel, tail->pixel, parameter);
    // The octahedron is a fifth of the bone's length across; accept clicks on its body.
    const float bodyRadius = std::max(radiusPixels * 0.75f, 0.1f * (tail->pixel - head->pixel).norm());
    consider(bone.joint, distance, head->depth + parameter * (tail->depth - head->depth), bodyRadius);
  }
  return best;
}

}  // namespace articula::ui
