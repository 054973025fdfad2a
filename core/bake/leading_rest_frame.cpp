#include "core/bake/leading_rest_frame.h"

#include <algorithm>
#include <vector>

namespace articula {
namespace {

constexpr float kRestAngleRad = 1.0f * 3.14159265f / 180.0f;
constexpr float kLeastJumpRad = 10.0f * 3.14159265f / 180.0f;
constexpr float kJumpOverTypical = 10.0f;

// The joints `clip` rotates (with rotation keys), each once.
std::vector<int> rotatedJoints(const Clip& clip, int jointCount) {
  std::vector<int> joints;
  for (const JointTrack& track : clip.tracks) {
    if (track.joint >= 0 && track.joint < jointCount && !track.rotation.keys().empty()) joints.push_back(track.joint);
  }
  std::sort(joints.begin(), joints.end());
  joints.erase(std::unique(joints.begin(), joints.end()), joints.end());
  return joints;
}

// The largest local turn of any of `joints` between two poses (radians).
float largestTurn(const std::vector<int>& joints, const std::vector<Transform>& a, const std::vector<Transform>& b) {
  float largest = 0.0f;
  for (const int j : joints) {
    const auto i = static_cast<std::size_t>(j);
    largest = std::max(largest, a[i].rotation.angularDistance(b[i].rotation));
  }
  return largest;
}

}  // namespace

bool leadsWithRestFrame(const Skeleton& skeleton, const Clip& clip) {
  const int frames = clip.frameCount();
  const std::vector<int> joints = rotatedJoints(clip, skeleton.jointCount());
  if (frames < 3 || joints.empty()) return false;
  ClipSampler sampler(&clip);
  std::vector<Transform> previous(skeleton.restPose().begin(), skeleton.restPose().end());
  sampler.sample(clip.timeOf(0), previous);
  const auto atRest = std::count_if(joints.begin(), joints.end(), [&](int j) {
    const auto i = static_cast<std::size_t>(j);
    return previous[i].rotation.angularDistance(skeleton.restLocal(j).rotation) <= kRestAngleRad;
  });
  if (2 * static_cast<std::size_t>(atRest) < joints.size()) return false;
  std::vector<Transform> current = previous;
  sampler.sample(clip.timeOf(1), current);
  const float jump = largestTurn(joints, previous, current);
  if (jump <= kLeastJumpRad) return false;
  std::vector<float> turns;  // per frame after the jump
  turns.reserve(static_cast<std::size_t>(frames - 2));
  for (int f = 2; f < frames; ++f) {
    std::swap(previous, current);
    sampler.sample(clip.timeOf(f), current);
    turns.push_back(largestTurn(joints, previous, current));
  }
  const auto middle = turns.begin() + static_cast<std::ptrdiff_t>(turns.size() / 2);
  std::nth_element(turns.begin(), middle, turns.end());
  return jump > kJumpOverTypical * *middle;
}

}  // namespace articula
