#include "core/rig/ground.h"

#include <cmath>

namespace articula {

Result<Ground> Ground::plane(const Vec3& pointWorld, const Vec3& normalWorld) {
  if (!pointWorld.allFinite()) return makeError("ground plane: the point is not finite");
  if (!normalWorld.allFinite() || !(normalWorld.squaredNorm() > 0.0f))
    return makeError("ground plane: the normal is zero or not finite");
  Ground g;
  g.mKind = Kind::Plane;
  g.mPoint = pointWorld;
  g.mNormal = normalWorld.normalized();
  return g;
}

Result<Ground> Ground::mesh(std::vector<Vec3> verticesWorld, std::vector<std::uint32_t> indices) {
  if (indices.empty()) return makeError("ground mesh: no triangles");
  if (indices.size() % 3 != 0)
    return makeError("ground mesh: " + std::to_string(indices.size()) + " indices is not a multiple of 3");
  for (std::size_t i = 0; i < indices.size(); ++i) {
    if (indices[i] >= verticesWorld.size())
      return makeError("ground mesh: index " + std::to_string(i) + " (" + std::to_string(indices[i]) +
                       ") is out of range of " + std::to_string(verticesWorld.size()) + " vertices");
  }
  for (std::size_t v = 0; v < verticesWorld.size(); ++v) {
    if (!verticesWorld[v].allFinite()) return makeError("ground mesh: vertex " + std::to_string(v) + " is not finite");
  }
  Ground g;
  g.mKind = Kind::Mesh;
  g.mVertices = std::move(verticesWorld);
  g.mIndices = std::move(indices);
  return g;
}

std::optional<GroundHit> Ground::raycast(const Vec3& origin, const Vec3& direction, float maxParameter) const {
  GroundHit best;
  bool found = false;
  if (mKind == Kind::Plane) {
    const float denom = mNormal.dot(direction);
    if (std::abs(denom) < 1e-12f) return std::nullopt;
    const float s = mNormal.dot(mPoint - origin) / denom;
    if (!(s >= 0.0f && s <= maxParameter)) return std::nullopt;
    best.rayParameter = s;
    best.pointWorld = origin + s * direction;
    best.normalWorld = denom < 0.0f ? mNormal : Vec3(-mNormal);
    return best;
  }
  for (std::size_t t = 0; t + 2 < mIndices.size(); t += 3) {
    const Vec3& a = mVertices[mIndices[t]];
    const Vec3 e1 = mVertices[mIndices[t + 1]] - a;
    const Vec3 e2 = mVertices[mIndices[t + 2]] - a;
    const Vec3 p = direction.cross(e2);
    const float det = e1.dot(p);
    const float scale = e1.norm() * e2.norm() * direction.norm();
    if (!(std::abs(det) > 1e-9f * scale)) continue;  // parallel to the ray or degenerate
    const float inv = 1.0f / det;
    const Vec3 toOrigin = origin - a;
    const float u = toOrigin.dot(p) * inv;
    if (u < 0.0f || u > 1.0f) continue;
    const Vec3 q = toOrigin.cross(e1);
    const float v = direction.dot(q) * inv;
    if (v < 0.0f || u + v > 1.0f) continue;
    const float s = e2.dot(q) * inv;
    if (s < 0.0f || s > maxParameter || (found && s >= best.rayParameter)) continue;
    found = true;
    best.rayParameter = s;
    const Vec3 n = e1.cross(e2).normalized();
    best.normalWorld = n.dot(direction) < 0.0f ? n : Vec3(-n);
  }
  if (!found) return std::nullopt;
  best.pointWorld = origin + best.rayParameter * direction;
  return best;
}

}  // namespace articula
