#pragma once
// Parent transforms every spatial test loops over (ozz's habit): a result that holds only
// at the origin is not a result.
#include <string>
#include <vector>

#include "core/math/types.h"

namespace articula::test {

struct FrameOfReference {
  std::string name;
  Affine parentModel;  // transform of the chain's parent, in model space
};

inline std::vector<FrameOfReference> framesOfReference() {
  const Quat rotated = Quat(Eigen::AngleAxisf(0.7f, Vec3(1.0f, 2.0f, -0.5f).normalized()));
  std::vector<FrameOfReference> frames;
  frames.push_back({"identity", Affine::Identity()});
  frames.push_back({"translated", Affine(Eigen::Translation3f(3.0f, -1.5f, 0.25f))});
  frames.push_back({"rotated", Affine(rotated)});
  frames.push_back({"uniform_scaled", Affine(Eigen::Translation3f(0.5f, 1.0f, 2.0f)) * rotated * Eigen::Scaling(2.5f)});
  frames.push_back({"nonuniform_scaled", Affine(rotated) * Eigen::Scaling(Vec3(1.0f, 2.0f, 0.5f))});
  frames.push_back({"mirrored", Affine(rotated) * Eigen::Scaling(Vec3(-1.0f, 1.0f, 1.0f))});
  return frames;
}

}  // namespace articula::test
