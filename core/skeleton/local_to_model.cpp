#include "core/skeleton/local_to_model.h"

namespace articula {

bool LocalToModelJob::validate() const {
  if (skeleton == nullptr) return false;
  const auto n = static_cast<std::size_t>(skeleton->jointCount());
  if (local.size() < n || model.size() < n) return false;
  for (const int j : subtree) {
    if (j < 0 || j >= skeleton->jointCount()) return false;
  }
  return from == kNoParent || (from >= 0 && from < skeleton->jointCount());
}

void LocalToModelJob::updateJoint(int i) const {
  const int p = skeleton->parent(i);
  const Affine localMatrix = local[static_cast<std::size_t>(i)].toAffine();
  if (p == kNoParent) {
    model[static_cast<std::size_t>(i)] = root ? (*root) * localMatrix : localMatrix;
  } else {
    model[static_cast<std::size_t>(i)] = model[static_cast<std::size_t>(p)] * localMatrix;
  }
}

bool LocalToModelJob::run() const {
  if (!validate()) return false;
  if (!subtree.empty()) {
    for (const int j : subtree) updateJoint(j);
    return true;
  }
  const auto parents = skeleton->parents();
  const int count = skeleton->jointCount();
  const int begin = from == kNoParent ? 0 : from;
  for (int i = begin; i < count; ++i) {
    const int p = parents[static_cast<std::size_t>(i)];
    if (from != kNoParent && i != from) {
      // Parent-before-child order does not make a subtree contiguous (breadth-first files
      // interleave siblings), so walk up: ancestors have smaller indices, stop below `from`.
      int a = p;
      while (a > from) a = parents[static_cast<std::size_t>(a)];
      if (a != from) continue;
    }
    updateJoint(i);
  }
  return true;
}

std::vector<Affine> localToModel(const Skeleton& skeleton, std::span<const Transform> local) {
  std::vector<Affine> model(static_cast<std::size_t>(skeleton.jointCount()), Affine::Identity());
  LocalToModelJob job;
  job.skeleton = &skeleton;
  job.local = local;
  job.model = model;
  job.run();
  return model;
}

}  // namespace articula
