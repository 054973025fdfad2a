#include "core/clipops/in_place.h"

#include <vector>

#include "core/clipops/root_motion.h"

namespace articula {

std::optional<std::string> InPlaceJob::validate() const {
  if (skeleton == nullptr) return "no skeleton";
  if (clip == nullptr) return "no clip";
  if (joint < 0 || joint >= skeleton->jointCount()) return "the travel joint is out of range";
  for (const int other : carried) {
    if (other < 0 || other >= skeleton->jointCount() || skeleton->parent(other) != skeleton->parent(joint))
      return "a joint carried along is not beside the travel joint";
  }
  if (auto error = clip->validate(skeleton->jointCount())) return "clip '" + clip->name + "': " + *error;
  if (clip->frameCount() < 2) {
    return "clip '" + clip->name + "' has " + std::to_string(clip->frameCount()) +
           " frame: it has no travel to take out";
  }
  if (auto error = checkGround(groundModel)) return error;
  if (!axes.any()) return "no axis of the travel chosen (x, y, z or yaw)";
  return std::nullopt;
}

Result<Clip> InPlaceJob::run() const {
  if (auto error = validate()) return makeError(*error);
  const Mat3 ground = groundInParentSpace(*skeleton, joint, groundModel);
  std::vector<int> moved{joint};
  moved.insert(moved.end(), carried.begin(), carried.end());
  const std::vector<std::vector<Transform>> samples = sampleJoints(*skeleton, *clip, moved);
  const std::size_t last = samples.size() - 1;
  const Vec3 first = samples.front()[0].translation;
  const Vec3 travel = samples.back()[0].translation - first;
  const bool chosen[3] = {axes.x, axes.y, axes.z};
  const Quat rest = skeleton->restLocal(joint).rotation;
  float heading = 0.0f;
  std::vector<float> headings(samples.size());
  for (std::size_t f = 0; f < samples.size(); ++f) {
    heading = headingRad(samples[f][0].rotation, rest, ground, heading);
    headings[f] = heading;
  }
  const float turn = headings.back() - headings.front();
  std::vector<std::vector<Transform>> frames(moved.size(), std::vector<Transform>(samples.size()));
  for (std::size_t f = 0; f < samples.size(); ++f) {
    const float along = static_cast<float>(f) / static_cast<float>(last);
    Vec3 shift = Vec3::Zero();
    for (int a = 0; a < 3; ++a) {
      if (!chosen[a]) continue;
      const Vec3 axis = ground.col(a);
      const float start = a == 1 ? 0.0f : axis.dot(first);  // height keeps its start
      shift -= axis * (start + along * axis.dot(travel));
    }
    const Quat unturn = axes.yaw ? Quat(Eigen::AngleAxisf(-along * turn, ground.col(1))) : Quat::Identity();
    for (std::size_t k = 0; k < moved.size(); ++k) {
      Transform local = samples[f][k];
      local.translation = unturn * (local.translation + shift);
      local.rotation = (unturn * local.rotation).normalized();
      frames[k][f] = local;
    }
  }
  Clip out = *clip;
  for (std::size_t k = 0; k < moved.size(); ++k) writePerFrame(out, moved[k], frames[k]);
  return out;
}

}  // namespace articula
