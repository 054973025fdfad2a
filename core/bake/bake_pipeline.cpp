#include "core/bake/bake_pipeline.h"

#include <algorithm>

#include "core/bake/rig_corrector.h"
#include "core/bake/skate_cleanup.h"

namespace articula {

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
    for (const FootLock& foot : cleaned->feet) {
      result.contactsHeld[foot.joints.curveName] = static_cast<int>(foot.foot.size());
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
