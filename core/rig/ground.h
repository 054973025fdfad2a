#pragma once
// The ground feet are planted on, in WORLD space (where the character is placed by its root
// transform; Rig converts its model-space rays): an infinite plane or a triangle mesh.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/math/types.h"
#include "core/util/result.h"

namespace articula {

struct GroundHit {
  float rayParameter = 0.0f;  // hit = origin + rayParameter * direction
  Vec3 pointWorld = Vec3::Zero();
  Vec3 normalWorld = Vec3::UnitY();  // unit, facing against the ray (towards its origin)
};

class Ground {
 public:
  enum class Kind : std::uint8_t { Plane, Mesh };

  // The plane through pointWorld with normal normalWorld (any length but zero).
  static Result<Ground> plane(const Vec3& pointWorld, const Vec3& normalWorld);
  // Triangles (three indices each) over vertices, world space. Degenerate triangles are
  // skipped when casting. Fails when: no triangles, the index count is not a multiple of 3,
  // an index is out of range, a vertex is not finite.
  static Result<Ground> mesh(std::vector<Vec3> verticesWorld, std::vector<std::uint32_t> indices);

  Kind kind() const { return mKind; }
  const Vec3& planePointWorld() const { return mPoint; }
  const Vec3& planeNormalWorld() const { return mNormal; }
  const std::vector<Vec3>& vertices() const { return mVertices; }
  const std::vector<std::uint32_t>& indices() const { return mIndices; }

  // Nearest hit along origin + s * direction with s in [0, maxParameter], or nullopt. The
  // mesh is tested triangle by triangle (Möller–Trumbore, both faces): fine for the few
  // hundred triangles of a set; a large terrain would want a spatial index.
  std::optional<GroundHit> raycast(const Vec3& originWorld, const Vec3& directionWorld, float maxParameter) const;

 private:
  Kind mKind = Kind::Plane;
  Vec3 mPoint = Vec3::Zero();
  Vec3 mNormal = Vec3::UnitY();
  std::vector<Vec3> mVertices;
  std::vector<std::uint32_t> mIndices;
};

}  // namespace articula
