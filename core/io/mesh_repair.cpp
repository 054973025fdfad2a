#include "core/io/mesh_repair.h"

#include <cmath>
#include <unordered_map>

#include "core/util/message_text.h"

namespace articula {
namespace {

constexpr float kShortestNormal = 1e-6f;
// Inverse bind matrices this close are the same bind: a file's float rounding.
constexpr float kSameBindTolerance = 1e-5f;

bool isUsable(const Vec3& normal) {
  const float length = normal.norm();
  return std::isfinite(length) && length >= kShortestNormal;
}

}  // namespace

int repairNormals(Mesh& mesh) {
  std::vector<std::uint32_t> broken;
  for (std::size_t v = 0; v < mesh.normals.size(); ++v) {
    if (isUsable(mesh.normals[v])) {
      mesh.normals[v].normalize();
    } else {
      broken.push_back(static_cast<std::uint32_t>(v));
    }
  }
  if (broken.empty()) return 0;
  std::unordered_map<std::uint32_t, Vec3> fromFaces;
  for (const std::uint32_t v : broken) fromFaces.emplace(v, Vec3::Zero());
  for (std::size_t t = 0; t + 2 < mesh.indices.size(); t += 3) {
    const std::uint32_t a = mesh.indices[t], b = mesh.indices[t + 1], c = mesh.indices[t + 2];
    if (a >= mesh.positions.size() || b >= mesh.positions.size() || c >= mesh.positions.size()) continue;
    // The cross product's length is twice the triangle's area: larger faces weigh more.
    const Vec3 face = (mesh.positions[b] - mesh.positions[a]).cross(mesh.positions[c] - mesh.positions[a]);
    if (!face.allFinite()) continue;
    for (const std::uint32_t v : {a, b, c}) {
      if (const auto it = fromFaces.find(v); it != fromFaces.end()) it->second += face;
    }
  }
  for (const std::uint32_t v : broken) {
    const Vec3& sum = fromFaces.at(v);
    mesh.normals[v] = isUsable(sum) ? Vec3(sum.normalized()) : Vec3::UnitZ();
  }
  return static_cast<int>(broken.size());
}

std::optional<std::string> mergeDuplicateSkinJoints(Skin& skin, const Skeleton& skeleton, int& merged) {
  merged = 0;
  const std::size_t count = skin.joints.size();
  std::unordered_map<int, std::size_t> firstEntry;  // skeleton joint -> its kept skin entry
  std::vector<std::uint16_t> keptEntry(count);      // old skin entry -> new skin entry
  std::vector<int> joints;
  std::vector<Mat4> matrices;
  for (std::size_t k = 0; k < count; ++k) {
    const auto [it, isNew] = firstEntry.emplace(skin.joints[k], joints.size());
    const Mat4& matrix = k < skin.inverseBindMatrices.size() ? skin.inverseBindMatrices[k] : Mat4::Identity();
    if (!isNew) {
      if (!matrix.isApprox(matrices[it->second], kSameBindTolerance) &&
          !(matrix - matrices[it->second]).isZero(kSameBindTolerance)) {
        return "skin" + (skin.name.empty() ? std::string() : " '" + shortName(skin.name) + "'") + " lists joint '" +
               shortName(skeleton.name(skin.joints[k])) + "' twice (entries " + std::to_string(it->second) + " and " +
               std::to_string(k) + ") with different inverse bind matrices";
      }
      ++merged;
    } else {
      joints.push_back(skin.joints[k]);
      matrices.push_back(matrix);
    }
    keptEntry[k] = static_cast<std::uint16_t>(it->second);
  }
  if (merged == 0) return std::nullopt;
  const auto perVertex = static_cast<std::size_t>(skin.influencesPerVertex);
  for (std::size_t first = 0; perVertex > 0 && first + perVertex <= skin.vertexJoints.size(); first += perVertex) {
    for (std::size_t k = first; k < first + perVertex; ++k) {
      if (skin.vertexWeights[k] == 0.0f) continue;
      skin.vertexJoints[k] = keptEntry[skin.vertexJoints[k]];
      // Two slots of one vertex on one joint: the validator's ACCESSOR_JOINTS_INDEX_DUPLICATE.
      for (std::size_t earlier = first; earlier < k; ++earlier) {
        if (skin.vertexWeights[earlier] == 0.0f || skin.vertexJoints[earlier] != skin.vertexJoints[k]) continue;
        skin.vertexWeights[earlier] += skin.vertexWeights[k];
        skin.vertexWeights[k] = 0.0f;
        skin.vertexJoints[k] = 0;
        break;
      }
    }
  }
  skin.joints = std::move(joints);
  skin.inverseBindMatrices = std::move(matrices);
  return std::nullopt;
}

}  // namespace articula
