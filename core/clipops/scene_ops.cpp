#include "core/clipops/scene_ops.h"

#include <vector>

#include "core/bake/leading_rest_frame.h"
#include "core/clipops/in_place.h"
#include "core/clipops/loop.h"
#include "core/clipops/root_motion.h"
#include "core/retarget/retarget_clip.h"
#include "core/skeleton/local_to_model.h"

namespace articula {
namespace {

// Indices of the clips an operation runs on: the one named, or every clip.
Result<std::vector<std::size_t>> chosenClips(const Scene& scene, const std::string& name) {
  if (scene.clips.empty()) return makeError("has no animation");
  std::vector<std::size_t> chosen;
  for (std::size_t i = 0; i < scene.clips.size(); ++i) {
    if (name.empty() || scene.clips[i].name == name) chosen.push_back(i);
  }
  if (chosen.empty()) return makeError("has no clip named '" + name + "'");
  return chosen;
}

// Runs `job(clip)` on every chosen clip of `scene`, replacing them only when all succeed.
template <typename Job>
std::optional<std::string> eachClip(Scene& scene, const std::string& name, const Job& job) {
  auto chosen = chosenClips(scene, name);
  if (!chosen) return chosen.error();
  std::vector<Clip> done;
  for (const std::size_t i : *chosen) {
    Result<Clip> clip = job(scene.clips[i]);
    if (!clip) return clip.error();
    done.push_back(std::move(*clip));
  }
  for (std::size_t k = 0; k < chosen->size(); ++k) scene.clips[(*chosen)[k]] = std::move(done[k]);
  return std::nullopt;
}

}  // namespace

Result<int> insertParentJoint(Scene& scene, int child, const std::string& name) {
  const Skeleton& old = scene.skeleton;
  if (child < 0 || child >= old.jointCount()) return makeError("the joint to put a parent above is out of range");
  if (name.empty()) return makeError("the new joint needs a name");
  if (old.findJoint(name) >= 0) return makeError("a joint named '" + name + "' already exists");
  const auto renumbered = [child](int joint) { return joint < child ? joint : joint + 1; };
  Skeleton skeleton;
  for (int j = 0; j < old.jointCount(); ++j) {
    const int parent = old.parent(j) == kNoParent ? kNoParent : renumbered(old.parent(j));
    if (j == child) skeleton.addJoint(name, parent, Transform::identity(), NodeKind::Joint);
    skeleton.addJoint(old.name(j), j == child ? child : parent, old.restLocal(j), old.kind(j));
    skeleton.setRole(renumbered(j), old.role(j));
  }
  const int parent = old.parent(child);
  const Affine insertedModel =
      parent == kNoParent ? Affine::Identity() : localToModel(old, old.restPose())[static_cast<std::size_t>(parent)];
  for (Mesh& mesh : scene.meshes) {
    if (mesh.node >= 0) mesh.node = renumbered(mesh.node);
    bool holdsChild = false;
    for (int& joint : mesh.skin.joints) {
      holdsChild = holdsChild || joint == child;
      joint = renumbered(joint);
    }
    if (holdsChild) {
      mesh.skin.joints.push_back(child);
      mesh.skin.inverseBindMatrices.push_back(insertedModel.inverse().matrix());
    }
  }
  if (!scene.rotationOrders.empty()) {
    scene.rotationOrders.insert(scene.rotationOrders.begin() + child, RotationOrder::XYZ);
  }
  for (Clip& clip : scene.clips) {
    for (JointTrack& track : clip.tracks) track.joint = renumbered(track.joint);
  }
  scene.skeleton = std::move(skeleton);
  return child;
}

std::optional<std::string> extractRootMotion(Scene& scene, const RootMotionOptions& options) {
  auto frame = humanoidTravelFrame(scene.skeleton);
  if (!frame) return frame.error();
  if (auto chosen = chosenClips(scene, options.clip); !chosen) return chosen.error();
  Scene out = scene;
  int hips = frame->hips;
  int root = out.skeleton.parent(hips);
  // Engines read root motion from the skeleton's root bone: travel put on a plain node above
  // the armature (glTF's "Armature", a Z-up holder) moves the object, not a bone.
  if (root != kNoParent && out.skeleton.name(root) == options.rootName && out.skeleton.kind(root) != NodeKind::Joint) {
    return "'" + options.rootName + "' above the hips is a plain node, not a bone, and engines read root motion " +
           "from a root bone: choose another root name and a bone of that name is added above the hips";
  }
  if (root == kNoParent || out.skeleton.name(root) != options.rootName) {
    if (out.skeleton.findJoint(options.rootName) >= 0) {
      return "root name '" + options.rootName + "' is taken by a joint that is not the hips' parent ('" +
             out.skeleton.name(hips) + "'): choose another name";
    }
    auto inserted = insertParentJoint(out, hips, options.rootName);
    if (!inserted) return inserted.error();
    root = *inserted;
    hips = root + 1;
  }
  auto error = eachClip(out, options.clip, [&](const Clip& clip) {
    return RootMotionJob{&out.skeleton, &clip, hips, root, frame->groundModel, options.axes}.run();
  });
  if (error) return error;
  scene = std::move(out);
  return std::nullopt;
}

std::optional<std::string> foldRootMotion(Scene& scene, const std::string& rootName, const std::string& clip) {
  const int root = scene.skeleton.findJoint(rootName);
  if (root < 0) return "has no joint named '" + rootName + "' to fold into its children";
  return eachClip(scene, clip, [&](const Clip& c) { return FoldRootMotionJob{&scene.skeleton, &c, root}.run(); });
}

std::optional<std::string> makeInPlace(Scene& scene, const TravelAxes& axes, const std::string& clip) {
  auto frame = humanoidTravelFrame(scene.skeleton);
  if (!frame) return frame.error();
  return eachClip(scene, clip, [&](const Clip& c) {
    const int joint = travelJoint(scene.skeleton, c, frame->hips);
    InPlaceJob job{&scene.skeleton, &c, joint, carriedJoints(scene.skeleton, c, joint), frame->groundModel, axes};
    return job.run();
  });
}

std::optional<std::string> makeCyclic(Scene& scene, const CyclicOptions& options) {
  return eachClip(scene, options.clip, [&](const Clip& c) -> Result<Clip> {
    Clip source = c;
    // A capture's calibration T-pose is no part of the cycle.
    if (leadsWithRestFrame(scene.skeleton, source)) source.startTime = source.timeOf(1);
    MakeCyclicJob job{&scene.skeleton, &source, options.blendSeconds};
    job.keepEndFrame = options.keepEndFrame;
    if (auto frame = travelFrameOf(scene.skeleton, source)) {
      job.travelJoint = travelJoint(scene.skeleton, source, frame->hips);
      job.carried = carriedJoints(scene.skeleton, source, job.travelJoint);
      job.groundModel = frame->groundModel;
      if (auto seam = seamScore(scene.skeleton, source, *frame)) job.endRepeatsStart = endRepeatsStart(*seam);
    }
    return job.run();
  });
}

}  // namespace articula
