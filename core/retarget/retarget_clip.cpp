#include "core/retarget/retarget_clip.h"

#include <algorithm>
#include <vector>

#include "core/bake/bake_pipeline.h"
#include "core/bake/key_reduction.h"
#include "core/retarget/retarget.h"
#include "core/rig/humanoid_rig.h"

namespace articula {

Result<Clip> retargetClip(const Scene& source, const HumanoidMap& sourceMap, const Clip& clip, const Scene& character,
                          const HumanoidMap& characterMap, const RetargetClipOptions& options,
                          KeyReductionReport* reduction) {
  // Planted feet stand on the character's floor, not only stay put.
  const CharacterSoles soles = options.detectContacts ? characterSoles(character, characterMap) : CharacterSoles{};
  RetargetJob job{&source.skeleton,   &clip,
                  &sourceMap,         &character.skeleton,
                  &characterMap,      options.frameRate,
                  options.handsReach, options.skipFirstFrame,
                  options.detectContacts ? &soles : nullptr};
  auto dense = job.run();
  if (!dense) return makeError(dense.error());
  Clip out;
  out.name = clip.name;
  out.frameRate = dense->frameRate;
  out.startTime = dense->startTime;
  out.endTime = dense->timeOf(dense->frames - 1);
  if (!options.detectContacts) {
    KeyReductionOptions reductionOptions;
    reductionOptions.toleranceModel = options.toleranceModel;
    reductionOptions.interpolation = options.interpolation;
    const KeyReductionReport reduced =
        reduceDenseClip(character.skeleton, character.skeleton.restPose(), *dense, reductionOptions, out.tracks);
    if (reduction != nullptr) *reduction = reduced;
    return out;
  }
  // The cleanup bakes the clip through the humanoid rig and reduces it once, at the end.
  out.tracks = perFrameTracks(*dense);
  auto rig = buildHumanoidRig(character.skeleton);
  if (!rig) return makeError(rig.error());
  BakePipelineOptions pipeline;
  pipeline.bake.reduction.toleranceModel = options.toleranceModel;
  pipeline.bake.reduction.interpolation = options.interpolation;
  pipeline.detectContacts = true;
  pipeline.floor = &soles;
  auto baked = bakeThroughRig(character, out, *rig, pipeline);
  if (!baked) return makeError(baked.error());
  if (reduction != nullptr) *reduction = baked->report.reduction;
  baked->clip.name = clip.name;
  return std::move(baked->clip);
}

}  // namespace articula
