#include "ui/viewport/scene_bounds.h"

#include <algorithm>
#include <cmath>
#include <vector>

#include "core/anim/layer_stack.h"

#include "core/skeleton/local_to_model.h"

namespace articula::ui {

namespace {

// Joint and Tip nodes (what the bones are drawn between), model space.
Eigen::AlignedBox3f jointBounds(const Skeleton& skeleton, std::span<const Affine> modelPose) {
  Eigen::AlignedBox3f box;
  for (int j = 0; j < skeleton.jointCount(); ++j) {
    if (skeleton.kind(j) != NodeKind::Transform) box.extend(modelPose[static_cast<std::size_t>(j)].translation());
  }
  return box;
}

}  // namespace

Eigen::AlignedBox3f posedBounds(const Scene& scene, std::span<const Affine> modelPose) {
  Eigen::AlignedBox3f box;
  const Skeleton& skeleton = scene.skeleton;
  const auto nodeCount = static_cast<std::size_t>(skeleton.jointCount());
  if (modelPose.size() < nodeCount) return Eigen::AlignedBox3f(Vec3::Constant(-0.5f), Vec3::Constant(0.5f));

  box.extend(jointBounds(skeleton, modelPose));

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

Eigen::AlignedBox3f motionBounds(const Scene& scene, const Clip* clip, std::span<const Affine> modelPose) {
  Eigen::AlignedBox3f box = posedBounds(scene, modelPose);
  const Skeleton& skeleton = scene.skeleton;
  const int frames = clip ? clip->frameCount() : 0;
  if (frames < 2 || modelPose.size() < static_cast<std::size_t>(skeleton.jointCount())) return box;
  const Eigen::AlignedBox3f jointsNow = jointBounds(skeleton, modelPose);
  if (jointsNow.isEmpty()) return box;
  // How far the mesh (or a lone joint's room) reaches past the joints, below and above.
  const Vec3 below = box.min() - jointsNow.min();
  const Vec3 above = box.max() - jointsNow.max();
  LayeredClipSampler sampler(clip);
  const auto rest = skeleton.restPose();
  Pose local;
  std::vector<Affine> model(rest.size());
  // At most kMotionBoundsJointSamples joints posed in all: a scene of 100,000 animated nodes
  // is framed on 2 frames, not on 1,000 (10^8 joints).
  const int affordable = std::max(2, kMotionBoundsJointSamples / std::max(1, skeleton.jointCount()));
  const int samples = std::min({frames, kMotionBoundsSamples, affordable});
  for (int i = 0; i < samples; ++i) {
    const int frame = static_cast<int>(std::lround(static_cast<double>(i) * (frames - 1) / (samples - 1)));
    local.assign(rest.begin(), rest.end());
    sampler.sample(clip->timeOf(frame), local);
    LocalToModelJob job;
    job.skeleton = &skeleton;
    job.local = local;
    job.model = model;
    if (!job.run()) return box;
    const Eigen::AlignedBox3f joints = jointBounds(skeleton, model);
    if (joints.isEmpty() || !joints.min().allFinite() || !joints.max().allFinite()) continue;
    box.extend(joints.min() + below);
    box.extend(joints.max() + above);
  }
  return box;
}

}  // namespace articula::ui
