#pragma once
// The editable description of a rig, as ozz's RawAnimation is of an animation: plain data the
// editor changes, the project file stores (rig_json.h) and Rig::bind turns into the runtime
// rig, checking it against a skeleton. Its validity rules are Rig::bind's.
#include <string>
#include <vector>

#include "core/math/transform.h"
#include "core/rig/ik_handle.h"

namespace articula {

// One foot of the grounding, for the leg handle of its side (a 3-joint chain thigh, knee,
// ankle with role LeftLeg or RightLeg).
struct FootGrounding {
  int toe = -1;              // toe joint (ball of the foot), optional
  float ankleHeight = 0.0f;  // ankle above the sole, model units, along the sole normal
  // Stride curve (1 = planted, 0 = free). Without one, the foot is planted where the clip
  // puts its ankle at the sole's height (up to 10 % of the leg's length above it), free from
  // 20 % above.
  std::string contactCurve;

  bool operator==(const FootGrounding& o) const {
    return toe == o.toe && ankleHeight == o.ankleHeight && contactCurve == o.contactCurve;
  }
};

struct GroundingSetup {
  bool enabled = false;
  int pelvis = -1;               // joint translated down so the legs reach their targets
  Vec3 upModel = Vec3::UnitY();  // the character's up, model space
  FootGrounding left, right;
  // Longest distance from hip to ankle a grounded leg is given, as a fraction of its length
  // (1 = fully straight); the pelvis is lowered to keep both legs within it.
  float maxReach = 0.995f;

  bool operator==(const GroundingSetup& o) const {
    return enabled == o.enabled && pelvis == o.pelvis && upModel == o.upModel && left == o.left && right == o.right &&
           maxReach == o.maxReach;
  }
};

// The editable rig: its handles, solved in role order (spine, legs, arms, generic), and the
// foot grounding.
struct RigDefinition {
  std::string name;
  std::vector<IkHandle> handles;
  GroundingSetup grounding;

  bool operator==(const RigDefinition& o) const {
    return name == o.name && handles == o.handles && grounding == o.grounding;
  }
};

}  // namespace articula
