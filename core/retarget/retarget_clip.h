#pragma once
// A whole clip of one humanoid put on another: RetargetJob, then keys as few as the
// tolerance allows, or the foot-skate cleanup through the character's humanoid rig.
#include "core/anim/clip.h"
#include "core/bake/key_reduction.h"
#include "core/rig/humanoid_map.h"
#include "core/scene/scene.h"
#include "core/util/result.h"

namespace articula {

struct RetargetClipOptions {
  // Largest joint-position error of the reduced keys, in the character's model units.
  float toleranceModel = 1e-3f;
  // Plant the character's feet: bake through its humanoid rig with contact detection.
  bool detectContacts = false;
  // Frames per second of the result; 0 keeps the source clip's.
  double frameRate = 0.0;
  // Hands reach for the source's hand positions (RetargetJob::handsReach).
  bool handsReach = false;
  // Leave out the source clip's first frame (RetargetJob::skipFirstFrame).
  bool skipFirstFrame = false;
  // How the reduced keys interpolate (lines by default, which every reader plays alike).
  KeyInterpolation interpolation = KeyInterpolation::Linear;
};

// `clip` of `source` played by `character`, named as `clip` (callers make the name unique
// among the character's clips). Fails with RetargetJob's message, or the rig's or the
// cleanup's with detectContacts.
// `reduction`, when given, receives the key reduction's report (its keys and largest error).
Result<Clip> retargetClip(const Scene& source, const HumanoidMap& sourceMap, const Clip& clip, const Scene& character,
                          const HumanoidMap& characterMap, const RetargetClipOptions& options,
                          KeyReductionReport* reduction = nullptr);

}  // namespace articula
