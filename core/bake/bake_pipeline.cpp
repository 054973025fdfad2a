#include "core/bake/bake_pipeline.h"

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <optional>
#include <sstream>

#include "core/bake/layer_merge.h"
#include "core/bake/rig_corrector.h"
#include "core/bake/skate_cleanup.h"
#include "core/util/message_text.h"

namespace articula {

namespace {

FootCleanupSummary summarise(const Skeleton& skeleton, const Clip& baked, std::size_t footIndex, const Vec3& upModel,
                             const SkateCleanupReport& cleaned) {
  const FootLock& foot = cleaned.feet[footIndex];
  FootCleanupSummary summary;
  summary.curveName = foot.joints.curveName;
  summary.handle = foot.handle;
  summary.spans = foot.foot;
  summary.slideBeforeModel = cleaned.slideBeforeModel[footIndex];
  summary.slideAfterModel = slidePerContact(skeleton, baked, foot, upModel, cleaned.groundVelocityModel);
  const auto& names = cleaned.bake.handleNames;
  for (const BakeMiss& miss : cleaned.bake.unreached) {
    const auto handle = static_cast<std::size_t>(miss.handle);
    if (handle < names.size() && names[handle] == foot.handle) summary.unreachedFrames.push_back(miss.frame);
  }
  return summary;
}

// Leaves of a character with a skinned mesh that skin no vertex and that `source` does not
// turn or scale: their rotation and scale show nowhere, whatever a rig does to them (a leg's
// end effector beside its foot). A skeleton without a skinned mesh shows its bones, so there
// every joint is seen.
std::vector<int> unseenJoints(const Scene& scene, const Clip& source) {
  const auto n = static_cast<std::size_t>(scene.skeleton.jointCount());
  std::vector<bool> seen(n, false);
  bool skinned = false;
  for (const Mesh& mesh : scene.meshes) {
    if (!mesh.hasSkin) continue;
    skinned = true;
    const Skin& skin = mesh.skin;
    for (std::size_t k = 0; k < skin.vertexWeights.size() && k < skin.vertexJoints.size(); ++k) {
      if (!(skin.vertexWeights[k] > 0.0f) || skin.vertexJoints[k] >= skin.joints.size()) continue;
      const int joint = skin.joints[skin.vertexJoints[k]];
      if (joint >= 0 && static_cast<std::size_t>(joint) < n) seen[static_cast<std::size_t>(joint)] = true;
    }
  }
  if (!skinned) return {};
  for (std::size_t j = 0; j < n; ++j) {
    const int parent = scene.skeleton.parent(static_cast<int>(j));
    if (parent != kNoParent) seen[static_cast<std::size_t>(parent)] = true;  // it carries a child
  }
  for (const JointTrack& track : source.tracks) {
    if (!track.rotation.empty() || !track.scale.empty()) seen[static_cast<std::size_t>(track.joint)] = true;
  }
  std::vector<int> unseen;
  for (std::size_t j = 0; j < n; ++j) {
    if (!seen[j]) unseen.push_back(static_cast<int>(j));
  }
  return unseen;
}

// How many joints a bake of `source` through `rig` holds samples of: those the clip (its base
// or a layer) animates and those the rig's handles move.
int movedJointCount(const Skeleton& skeleton, const Clip& source, const RigDefinition& rig) {
  std::vector<bool> moved(static_cast<std::size_t>(skeleton.jointCount()), false);
  const auto mark = [&](int joint) {
    if (joint >= 0 && joint < skeleton.jointCount()) moved[static_cast<std::size_t>(joint)] = true;
  };
  for (const JointTrack& track : source.tracks) mark(track.joint);
  for (const AnimLayer& layer : source.layers) {
    for (const JointTrack& track : layer.tracks) mark(track.joint);
  }
  for (const IkHandle& handle : rig.handles) {
    for (const int joint : handle.chain) mark(joint);
    for (const int joint : handle.followers) mark(joint);
  }
  mark(rig.grounding.pelvis);
  return static_cast<int>(std::count(moved.begin(), moved.end(), true));
}

// The clip's frames times the joints it moves (kMaxBakeJointFrames) and times every joint
// (kMaxBakeJointPoses), refused past either before a byte is allocated for them.
std::optional<std::string> bakeSizeRefusal(const Skeleton& skeleton, const Clip& source, const RigDefinition& rig) {
  const double frames = std::round(source.duration() * source.frameRate) + 1.0;
  const int moved = movedJointCount(skeleton, source, rig);
  const double jointFrames = frames * std::max(moved, 1);
  const double jointPoses = frames * std::max(skeleton.jointCount(), 1);
  std::ostringstream text;
  text << std::setprecision(3) << "clip '" << shortName(source.name) << "' lasts " << source.duration() << " s: ";
  if (!std::isfinite(jointFrames) || jointFrames > kMaxBakeJointFrames) {
    text << frames << " frames x " << moved << " moving joints is more than the " << kMaxBakeJointFrames / 1e6
         << " million joint-frames a bake takes";
    return text.str();
  }
  if (!std::isfinite(jointPoses) || jointPoses > kMaxBakeJointPoses) {
    text << frames << " frames x " << skeleton.jointCount() << " joints is more than the "
         << kMaxBakeJointPoses / 1e6 << " million joint poses a bake computes";
    return text.str();
  }
  return std::nullopt;
}

// `consumed`: the source, when the caller gives its keys away (then the cleanup takes them).
Result<BakePipelineResult> bake(const Scene& scene, const Clip& source, Clip* consumed, const RigDefinition& rig,
                                BakePipelineOptions options, const std::function<bool(int, int)>& progress) {
  if (auto refusal = bakeSizeRefusal(scene.skeleton, source, rig)) return makeError(*refusal);
  BakePipelineResult result;
  const std::string name = source.name;
  const std::vector<int> unseen = unseenJoints(scene, source);
  std::vector<int>& unseenOption = options.bake.reduction.unseenJoints;
  unseenOption.insert(unseenOption.end(), unseen.begin(), unseen.end());
  // The feet, where the humanoid map finds them: what carries them is held between a slow
  // clip's frames; without them every translation is.
  if (auto feet = humanoidFeet(scene.skeleton)) {
    for (const FootJoints& foot : *feet) {
      for (const int joint : {foot.ankle, foot.toe}) {
        if (joint >= 0) options.bake.reduction.betweenFramesJoints.push_back(joint);
      }
    }
  }
  if (options.detectContacts) {
    if (options.ground) {
      return makeError("a ground works with the clip's own contacts: detecting holds each foot where it landed");
    }
    SkateCleanupJob job;
    job.scene = &scene;
    if (consumed != nullptr) {
      job.consumedSource = consumed;
    } else {
      job.source = &source;
    }
    job.rig = &rig;
    job.options.bake = options.bake;
    job.options.floor = options.floor;
    job.output = &result.clip;
    job.progress = progress;
    auto cleaned = job.run();
    if (!cleaned) return makeError(cleaned.error());
    result.report = std::move(cleaned->bake);
    result.groundVelocityModel = cleaned->groundVelocityModel;
    result.moved = cleaned->moved;
    for (std::size_t i = 0; i < cleaned->feet.size(); ++i) {
      result.contactsHeld[cleaned->feet[i].joints.curveName] = static_cast<int>(cleaned->feet[i].foot.size());
      result.feet.push_back(summarise(scene.skeleton, result.clip, i, rig.grounding.upModel, *cleaned));
    }
  } else {
    auto bound = Rig::bind(scene.skeleton, rig);
    if (!bound) return makeError(bound.error());
    if (options.ground) bound->setGround(*options.ground);
    RigPoseCorrector corrector(*bound);
    BakeJob job;
    job.skeleton = &scene.skeleton;
    job.source = &source;
    job.corrector = &corrector;
    job.options = options.bake;
    job.output = &result.clip;
    job.progress = progress;
    auto baked = job.run();
    if (!baked) return makeError(baked.error());
    result.report = std::move(*baked);
  }
  result.clip.name = name;
  return result;
}

}  // namespace

Result<BakePipelineResult> bakeThroughRig(const Scene& scene, const Clip& source, const RigDefinition& rig,
                                          const BakePipelineOptions& options,
                                          const std::function<bool(int, int)>& progress) {
  if (!source.layers.empty()) return bakeThroughRig(scene, Clip(source), rig, options, progress);
  return bake(scene, source, nullptr, rig, options, progress);
}

Result<BakePipelineResult> bakeThroughRig(const Scene& scene, Clip&& source, const RigDefinition& rig,
                                          const BakePipelineOptions& options,
                                          const std::function<bool(int, int)>& progress) {
  // The bake plays the stack: layers merged into the base first, so the baked clip has none.
  if (!source.layers.empty()) {
    auto flat = flattenLayers(scene.skeleton, source, options.bake.reduction.toleranceModel);
    if (!flat) return makeError(flat.error());
    source = std::move(*flat);
  }
  return bake(scene, source, &source, rig, options, progress);
}

std::size_t placeBakedClip(std::vector<Clip>& clips, std::size_t sourceIndex, Clip baked, bool keepSource) {
  if (!keepSource) {
    clips[sourceIndex] = std::move(baked);
    return sourceIndex;
  }
  const auto taken = [&clips](const std::string& name) {
    return std::any_of(clips.begin(), clips.end(), [&name](const Clip& clip) { return clip.name == name; });
  };
  const std::string base = clips[sourceIndex].name + " baked";
  baked.name = base;
  for (int n = 2; taken(baked.name); ++n) baked.name = base + " " + std::to_string(n);
  clips.insert(clips.begin() + static_cast<std::ptrdiff_t>(sourceIndex) + 1, std::move(baked));
  return sourceIndex + 1;
}

}  // namespace articula
