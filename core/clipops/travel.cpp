#include "core/clipops/travel.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/bake/dense_clip.h"
#include "core/retarget/retarget_frame.h"
#include "core/rig/humanoid_map.h"
#include "core/skeleton/local_to_model.h"

namespace articula {

Result<TravelAxes> parseTravelAxes(const std::string& text) {
  TravelAxes axes{false, false, false, false};
  const auto bad = [&text] {
    return makeError("axes '" + text + "': expected the letters x, y and z, each at most once (xz: the ground)");
  };
  if (text.empty()) return bad();
  for (const char c : text) {
    bool* axis = c == 'x' ? &axes.x : c == 'y' ? &axes.y : c == 'z' ? &axes.z : nullptr;
    if (axis == nullptr || *axis) return bad();
    *axis = true;
  }
  return axes;
}

namespace {

float extentAlong(const Skeleton& skeleton, std::span<const Affine> restModel, const Vec3& up) {
  float lo = std::numeric_limits<float>::max();
  float hi = std::numeric_limits<float>::lowest();
  for (int j = 0; j < skeleton.jointCount(); ++j) {
    if (skeleton.kind(j) == NodeKind::Transform) continue;
    const float h = up.dot(restModel[static_cast<std::size_t>(j)].translation());
    lo = std::min(lo, h);
    hi = std::max(hi, h);
  }
  return hi > lo ? std::max(hi - lo, 1e-6f) : 1.0f;
}

// True when `curve`'s keys do not all hold one value.
bool varies(const Curve& curve) {
  const auto& keys = curve.keys();
  return std::any_of(keys.begin(), keys.end(), [&](const CurveKey& key) { return key.value != keys.front().value; });
}

}  // namespace

Result<TravelFrame> humanoidTravelFrame(const Skeleton& skeleton) {
  auto map = mapHumanoid(skeleton);
  if (!map) return makeError("no humanoid to find the hips and the ground of: " + map.error());
  const std::vector<Affine> restModel = localToModel(skeleton, skeleton.restPose());
  TravelFrame frame;
  frame.hips = map->hips;
  frame.groundModel = groundFrame(characterFrame(*map, restModel));
  frame.heightModel = extentAlong(skeleton, restModel, frame.groundModel.col(1));
  return frame;
}

std::optional<TravelFrame> travelFrameOf(const Skeleton& skeleton, const Clip& clip) {
  if (auto humanoid = humanoidTravelFrame(skeleton)) return *humanoid;
  int first = -1;
  for (const JointTrack& track : clip.tracks) {
    if (!track.translation.empty() && track.joint >= 0 && track.joint < skeleton.jointCount() &&
        (first < 0 || track.joint < first))
      first = track.joint;
  }
  if (first < 0) return std::nullopt;
  TravelFrame frame;
  frame.hips = first;
  frame.groundModel = Mat3::Identity();  // x left, y up, z forward: the model's own axes
  frame.heightModel = extentAlong(skeleton, localToModel(skeleton, skeleton.restPose()), Vec3::UnitY());
  return frame;
}

Mat3 groundInParentSpace(const Skeleton& skeleton, int joint, const Mat3& groundModel) {
  const int parent = skeleton.parent(joint);
  if (parent == kNoParent) return groundModel;
  const std::vector<Affine> restModel = localToModel(skeleton, skeleton.restPose());
  Mat3 linear = restModel[static_cast<std::size_t>(parent)].linear();
  const Mat3 parentRotation = linear.colwise().normalized();
  return parentRotation.transpose() * groundModel;
}

int travelJoint(const Skeleton& skeleton, const Clip& clip, int hips) {
  int top = hips;
  for (int j = skeleton.parent(hips); j != kNoParent; j = skeleton.parent(j)) {
    const JointTrack* track = clip.findTrack(j);
    if (track != nullptr && !track->translation.empty()) top = j;
  }
  return top;
}

std::vector<int> carriedJoints(const Skeleton& skeleton, const Clip& clip, int travel) {
  std::vector<int> carried;
  for (const int sibling : skeleton.children(skeleton.parent(travel))) {
    const JointTrack* track = clip.findTrack(sibling);
    if (sibling == travel || track == nullptr) continue;
    const Vec3Track& moves = track->translation;
    if (varies(moves.x) || varies(moves.y) || varies(moves.z)) carried.push_back(sibling);
  }
  return carried;
}

float headingRad(const Quat& rotation, const Quat& restRotation, const Mat3& ground, float previous) {
  const Vec3 up = ground.col(1);
  const Vec3 forward = ground.col(2);
  Vec3 turned = rotation * (restRotation.conjugate() * forward);
  turned -= up * up.dot(turned);
  if (turned.squaredNorm() < 1e-8f) return previous;
  const float angle = std::atan2(forward.cross(turned).dot(up), forward.dot(turned));
  // Unwrapped: the nearest turn to the previous frame's, so a full circle keeps counting.
  const float twoPi = 2.0f * static_cast<float>(M_PI);
  return angle + twoPi * std::round((previous - angle) / twoPi);
}

std::vector<std::vector<Transform>> sampleJoints(const Skeleton& skeleton, const Clip& clip,
                                                 std::span<const int> joints) {
  const int frames = std::max(clip.frameCount(), 0);
  std::vector<std::vector<Transform>> samples(static_cast<std::size_t>(frames));
  ClipSampler sampler(&clip);
  Pose pose(skeleton.restPose().begin(), skeleton.restPose().end());
  for (int f = 0; f < frames; ++f) {
    sampler.sample(clip.timeOf(f), pose);
    auto& out = samples[static_cast<std::size_t>(f)];
    out.reserve(joints.size());
    for (const int joint : joints) out.push_back(pose[static_cast<std::size_t>(joint)]);
  }
  return samples;
}

void writePerFrame(Clip& clip, int joint, std::span<const Transform> frames) {
  JointTrack& track = clip.trackFor(joint);
  std::vector<CurveKey> keys[3];
  std::vector<RotationKey> rotations(frames.size());
  for (std::size_t f = 0; f < frames.size(); ++f) {
    const double time = clip.timeOf(static_cast<int>(f));
    for (int c = 0; c < 3; ++c) keys[c].push_back(linearKey(time, frames[f].translation[c]));
    rotations[f].time = time;
    rotations[f].value = frames[f].rotation;
  }
  track.translation.x.setKeys(std::move(keys[0]));
  track.translation.y.setKeys(std::move(keys[1]));
  track.translation.z.setKeys(std::move(keys[2]));
  track.rotation.setKeys(std::move(rotations));
}

}  // namespace articula
