#include "core/retarget/retarget_clip.h"

#include "core/bake/bake_pipeline.h"
#include "core/bake/key_reduction.h"
#include "core/retarget/retarget.h"
#include "core/rig/humanoid_rig.h"

namespace articula {

Result<Clip> retargetClip(const Scene& source, const HumanoidMap& sourceMap, const Clip& clip, const Scene& character,
                          const HumanoidMap& characterMap, const RetargetClipOptions& options) {
  RetargetJob job{&source.skeleton,  &clip, &sourceMap, &character.skeleton, &characterMap, options.frameRate,
                  options.handsReach};
  auto dense = job.run();
  if (!dense) return makeError(dense.error());
  Clip out;
  out.name = clip.name;
  out.frameRate = dense->frameRate;
  out.startTime = dense->startTime;
  out.endTime = dense->timeOf(dense->frames - 1);
  if (!options.detectContacts) {
    KeyReductionOptions reduction;
    reduction.toleranceModel = options.toleranceModel;
    reduceDenseClip(character.skeleton, character.skeleton.restPose(), *dense, reduction, out.tracks);
    return out;
  }
  // The cleanup bakes the clip through the humanoid rig and reduces it once, at the end.
  out.tracks = perFrameTracks(*dense);
  auto rig = buildHumanoidRig(character.skeleton);
  if (!rig) return makeError(rig.error());
  BakePipelineOptions pipeline;
  pipeline.bake.reduction.toleranceModel = options.toleranceModel;
  pipeline.detectContacts = true;
  auto baked = bakeThroughRig(character, out, *rig, pipeline);
  if (!baked) return makeError(baked.error());
  baked->clip.name = clip.name;
  return std::move(baked->clip);
}

}  // namespace articula
