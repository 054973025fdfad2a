#include "ui/viewport/scene_bounds.h"

#include <vector>

namespace articula::ui {

Eigen::AlignedBox3f posedBounds(const Scene& scene, std::span<const Affine> modelPose) {
  Eigen::AlignedBox3f box;
  const Skeleton& skeleton = scene.skeleton;
  const auto nodeCount = static_cast<std::size_t>(skeleton.jointCount());
  if (modelPose.size() < nodeCount) return Eigen::AlignedBox3f(Vec3::Constant(-0.5f), Vec3::Constant(0.5f));

  for (int j = 0; j < skeleton.jointCount(); ++j) {
    if (skeleton.kind(j) != NodeKind::Transform) box.extend(modelPose[static_cast<std::size_t>(j)].translation());
  }

  std::vector<Mat4> palette;
  for (const Mesh& mesh : scene.meshes) {
    const bool skinned = mesh.hasSkin && mesh.skin.influencesPerVertex > 0;
    if (skinned) {
      const Skin& skin = mesh.skin;
      palette.resize(skin.joints.size());
      for (std::size_t k = 0; k < skin.joints.size(); ++k) {
        const auto joint = static_cast<std::size_t>(skin.joints[k]);
        const Mat4 inverseBind = k < skin.inverseBindMatrices.size() ? skin.inverseBindMatrices[k] : Mat4::Identity();
        palette[k] = joint < nodeCount ? Mat4(modelPose[joint].matrix() * inverseBind) : Mat4::Identity();
      }
      const auto n = static_cast<std::size_t>(skin.influencesPerVertex);
      for (std::size_t v = 0; v < mesh.vertexCount(); ++v) {
        Vec4 skinnedModel = Vec4::Zero();
        float total = 0.0f;
        for (std::size_t k = 0; k < n && v * n + k < skin.vertexWeights.size(); ++k) {
          const float weight = skin.vertexWeights[v * n + k];
          const std::size_t slot = skin.vertexJoints[v * n + k];
          if (weight <= 0.0f || slot >= palette.size()) continue;
          skinnedModel += weight * (palette[slot] * mesh.positions[v].homogeneous());
          total += weight;
        }
        box.extend(total > 1e-6f ? Vec3(skinnedModel.head<3>() / total) : mesh.positions[v]);
      }
    } else {
      const Affine node = mesh.node >= 0 && static_cast<std::size_t>(mesh.node) < nodeCount
                              ? modelPose[static_cast<std::size_t>(mesh.node)]
                              : Affine::Identity();
      for (const Vec3& p : mesh.positions) box.extend(node * p);
    }
  }

  if (box.isEmpty()) {
    for (std::size_t j = 0; j < nodeCount; ++j) box.extend(modelPose[j].translation());
  }
  if (box.isEmpty()) return Eigen::AlignedBox3f(Vec3::Constant(-0.5f), Vec3::Constant(0.5f));
  return box;
}

}  // namespace articula::ui
