#pragma once
#include "core/anim/clip.h"
#include "core/rig/rig_definition.h"

namespace articula::ui {

// Whether the editor stands the rig's feet on the ground plane in `clip`: only when the clip
// has a stride curve of one of the rig's feet (GroundingSetup's contactCurve: Detect
// Contacts, a retarget that plants the feet). A clip without one is played as it is keyed,
// so building a rig on it never moves the character (the planting by height that grounding
// falls back to flattened RobotExpressive's heel strikes and lowered its hips by 0.10);
// the viewport and File ▸ Export decide alike.
inline bool groundsFeet(const RigDefinition& rig, const Clip* clip) {
  if (!clip || !rig.grounding.enabled) return false;
  for (const FootGrounding* foot : {&rig.grounding.left, &rig.grounding.right}) {
    if (!foot->contactCurve.empty() && clip->curves.contains(foot->contactCurve)) return true;
  }
  return false;
}

}  // namespace articula::ui
