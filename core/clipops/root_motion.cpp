#include "core/clipops/root_motion.h"

#include <cmath>
#include <vector>

namespace articula {

std::optional<std::string> checkGround(const Mat3& ground) {
  if (!ground.allFinite() || !(ground.transpose() * ground).isApprox(Mat3::Identity(), 1e-4f))
    return "the ground frame is not three unit, orthogonal axes";
  return std::nullopt;
}

namespace {

std::optional<std::string> checkClip(const Skeleton* skeleton, const Clip* clip, int minFrames) {
  if (skeleton == nullptr) return "no skeleton";
  if (clip == nullptr) return "no clip";
  if (auto error = clip->validate(skeleton->jointCount())) return "clip '" + clip->name + "': " + *error;
  if (clip->frameCount() < minFrames) {
    return "clip '" + clip->name + "' has " + std::to_string(clip->frameCount()) + " frame" +
           (clip->frameCount() == 1 ? "" : "s") + ": at least " + std::to_string(minFrames) + " are needed";
  }
  return std::nullopt;
}

bool inRange(const Skeleton& skeleton, int joint) { return joint >= 0 && joint < skeleton.jointCount(); }

// The joints a root operation rewrites: the root, then its children.
std::vector<int> rootAndChildren(const Skeleton& skeleton, int root) {
  std::vector<int> joints{root};
  for (const int child : skeleton.children(root)) joints.push_back(child);
  return joints;
}

// Writes the re-expressed children (slot k + 1 of each frame is joints[k + 1]).
void writeChildren(Clip& clip, const std::vector<int>& joints, const std::vector<std::vector<Transform>>& frames) {
  std::vector<Transform> column(frames.size());
  for (std::size_t k = 1; k < joints.size(); ++k) {
    for (std::size_t f = 0; f < frames.size(); ++f) column[f] = frames[f][k];
    writePerFrame(clip, joints[k], column);
  }
}

}  // namespace

std::optional<std::string> RootMotionJob::validate() const {
  if (auto error = checkClip(skeleton, clip, 2)) return error;
  if (!inRange(*skeleton, hips)) return "the hips joint is out of range";
  if (!inRange(*skeleton, root)) return "the root joint is out of range";
  if (skeleton->parent(hips) != root) {
    return "'" + skeleton->name(root) + "' is not the parent of the hips '" + skeleton->name(hips) + "'";
  }
  if (auto error = checkGround(groundModel)) return error;
  if (!axes.any()) return "no axis of the travel chosen (x, y, z or yaw)";
  return std::nullopt;
}

Result<Clip> RootMotionJob::run() const {
  if (auto error = validate()) return makeError(*error);
  const Mat3 ground = groundInParentSpace(*skeleton, root, groundModel);
  const std::vector<int> joints = rootAndChildren(*skeleton, root);
  std::size_t hipsSlot = 1;
  while (joints[hipsSlot] != hips) ++hipsSlot;
  std::vector<std::vector<Transform>> frames = sampleJoints(*skeleton, *clip, joints);

  const Transform rootRest = skeleton->restLocal(root);
  const Quat hipsRestParent = (rootRest * skeleton->restLocal(hips)).rotation;
  const bool chosen[3] = {axes.x, axes.y, axes.z};
  std::vector<Transform> rootFrames(frames.size());
  float heading = 0.0f;
  for (std::size_t f = 0; f < frames.size(); ++f) {
    std::vector<Transform>& frame = frames[f];
    const Transform rootOld = frame[0];
    const Transform hipsParent = rootOld * frame[hipsSlot];  // the hips in the root's parent's space
    Transform rootNew = rootRest;
    rootNew.scale = rootOld.scale;  // the root's scale track, if any, stays
    rootNew.translation.setZero();
    for (int a = 0; a < 3; ++a) {
      const Vec3 axis = ground.col(a);
      rootNew.translation += axis * axis.dot(chosen[a] ? hipsParent.translation : rootRest.translation);
    }
    if (axes.yaw) {
      heading = headingRad(hipsParent.rotation, hipsRestParent, ground, heading);
      rootNew.rotation = (Quat(Eigen::AngleAxisf(heading, ground.col(1))) * rootRest.rotation).normalized();
    }
    const Transform toNewRoot = rootNew.inverse() * rootOld;
    for (std::size_t k = 1; k < frame.size(); ++k) {
      frame[k] = toNewRoot * frame[k];
      frame[k].rotation.normalize();
    }
    rootFrames[f] = rootNew;
  }
  Clip out = *clip;
  writePerFrame(out, root, rootFrames);
  writeChildren(out, joints, frames);
  return out;
}

std::optional<std::string> FoldRootMotionJob::validate() const {
  if (auto error = checkClip(skeleton, clip, 1)) return error;
  if (!inRange(*skeleton, root)) return "the root joint is out of range";
  if (skeleton->children(root).empty()) return "the root '" + skeleton->name(root) + "' has no children to fold into";
  return std::nullopt;
}

Result<Clip> FoldRootMotionJob::run() const {
  if (auto error = validate()) return makeError(*error);
  const std::vector<int> joints = rootAndChildren(*skeleton, root);
  std::vector<std::vector<Transform>> frames = sampleJoints(*skeleton, *clip, joints);
  const Transform fromRest = skeleton->restLocal(root).inverse();
  for (std::vector<Transform>& frame : frames) {
    const Transform toRest = fromRest * frame[0];
    for (std::size_t k = 1; k < frame.size(); ++k) {
      frame[k] = toRest * frame[k];
      frame[k].rotation.normalize();
    }
  }
  Clip out = *clip;
  std::erase_if(out.tracks, [this](const JointTrack& track) { return track.joint == root; });
  writeChildren(out, joints, frames);
  return out;
}

}  // namespace articula
