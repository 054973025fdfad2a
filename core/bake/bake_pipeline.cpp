#include "core/bake/bake_pipeline.h"

#include <algorithm>

#include "core/bake/rig_corrector.h"
#include "core/bake/skate_cleanup.h"

namespace articula {

namespace {

FootCleanupSummary summarise(const Skeleton& skeleton, const Clip& source, const Clip& baked, const FootLock& foot,
                             const Vec3& upModel, const SkateCleanupReport& cleaned) {
  FootCleanupSummary summary;
  summary.curveName = foot.joints.curveName;
  summary.handle = foot.handle;
  summary.spans = foot.foot;
  const Vec3& ground = cleaned.groundVelocityModel;
  summary.slideBeforeModel = slidePerContact(skeleton, source, foot, upModel, ground);
  summary.slideAfterModel = slidePerContact(skeleton, baked, foot, upModel, ground);
  const auto& names = cleaned.bake.handleNames;
  for (const BakeMiss& miss : cleaned.bake.unreached) {
    const auto handle = static_cast<std::size_t>(miss.handle);
    if (handle < names.size() && names[handle] == foot.handle) summary.unreachedFrames.push_back(miss.frame);
  }
  return summary;
}

}  // namespace

Result<BakePipelineResult> bakeThroughRig(const Scene& scene, const Clip& source, const RigDefinition& rig,
                                          const BakePipelineOptions& options,
                                          const std::function<bool(int, int)>& progress) {
  BakePipelineResult result;
  if (options.detectContacts) {
    if (options.ground) {
      return makeError("a ground works with the clip's own contacts: detecting holds each foot where it landed");
    }
    SkateCleanupJob job;
    job.scene = &scene;
    job.source = &source;
    job.rig = &rig;
    job.options.bake = options.bake;
    job.output = &result.clip;
    job.progress = progress;
    auto cleaned = job.run();
    if (!cleaned) return makeError(cleaned.error());
    result.report = std::move(cleaned->bake);
    result.groundVelocityModel = cleaned->groundVelocityModel;
    for (const FootLock& foot : cleaned->feet) {
      result.contactsHeld[foot.joints.curveName] = static_cast<int>(foot.foot.size());
      result.feet.push_back(summarise(scene.skeleton, source, result.clip, foot, rig.grounding.upModel, *cleaned));
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
  result.clip.name = source.name;
  return result;
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
