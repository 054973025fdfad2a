#include "core/scene/scene.h"

#include <algorithm>
#include <limits>

namespace articula {

int Mesh::maxInfluences() const {
  if (!hasSkin || skin.influencesPerVertex == 0) return 0;
  int best = 0;
  const auto n = static_cast<std::size_t>(skin.influencesPerVertex);
  for (std::size_t v = 0; v < vertexCount(); ++v) {
    int count = 0;
    for (std::size_t k = 0; k < n; ++k) count += skin.vertexWeights[v * n + k] > 0.0f ? 1 : 0;
    best = std::max(best, count);
  }
  return best;
}

int Scene::skeletonCount() const {
  const auto parents = skeleton.parents();
  std::vector<int> rootOf(parents.size());
  std::vector<bool> rootHasJoint(parents.size(), false);
  for (std::size_t i = 0; i < parents.size(); ++i) {
    rootOf[i] = parents[i] == kNoParent ? static_cast<int>(i) : rootOf[static_cast<std::size_t>(parents[i])];
    if (skeleton.kind(static_cast<int>(i)) == NodeKind::Joint) rootHasJoint[static_cast<std::size_t>(rootOf[i])] = true;
  }
  return static_cast<int>(std::count(rootHasJoint.begin(), rootHasJoint.end(), true));
}

float Scene::characterHeight() const {
  float lo = std::numeric_limits<float>::max();
  float hi = std::numeric_limits<float>::lowest();
  const auto model = localToModel(skeleton, skeleton.restPose());
  for (int j = 0; j < skeleton.jointCount(); ++j) {
    if (skeleton.kind(j) == NodeKind::Transform) continue;
    const float y = model[static_cast<std::size_t>(j)].translation().y();
    lo = std::min(lo, y);
    hi = std::max(hi, y);
  }
  for (const Mesh& mesh : meshes) {
    if (mesh.hasSkin) continue;  // skinned vertices are in bind space; bones bound them
    for (const Vec3& p : mesh.positions) {
      const float y = mesh.node >= 0 ? (model[static_cast<std::size_t>(mesh.node)] * p).y() : p.y();
      lo = std::min(lo, y);
      hi = std::max(hi, y);
    }
  }
  return hi > lo ? std::max(hi - lo, 1e-3f) : 1.0f;
}

}  // namespace articula
