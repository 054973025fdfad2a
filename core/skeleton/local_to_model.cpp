#include "core/skeleton/local_to_model.h"

namespace articula {

bool LocalToModelJob::validate() const {
  if (skeleton == nullptr) return false;
  const auto n = static_cast<std::size_t>(skeleton->jointCount());
  if (local.size() < n || model.size() < n) return false;
  return from == kNoParent || (from >= 0 && from < skeleton->jointCount());
}

bool LocalToModelJob::run() const {
  if (!validate()) return false;
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
    const Affine localMatrix = local[static_cast<std::size_t>(i)].toAffine();
    if (p == kNoParent) {
      model[static_cast<std::size_t>(i)] = root ? (*root) * localMatrix : localMatrix;
    } else {
      model[static_cast<std::size_t>(i)] = model[static_cast<std::size_t>(p)] * localMatrix;
    }
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
