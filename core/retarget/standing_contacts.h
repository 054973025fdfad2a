#pragma once
// Foot contacts of a capture in any convention, found the one way articula-cli contacts and
// the editor's Detect Contacts both use: a rest lying down is stood up first (standUpright,
// the motion unchanged) and heights are read along the clip's own up.
#include <cstddef>

#include "core/bake/contact_detection.h"
#include "core/retarget/rest_pose.h"

namespace articula {

struct StandingContacts {
  // The scene stood up; its clip `clipIndex` carries the stride curves.
  StandingCapture capture;
  ContactDetection detection;
};

// Detects contacts in clip `clipIndex` of `scene` with `options`, whose upModel is replaced by
// the capture's up. Fails, naming the file, when the convention cannot be decided, the
// skeleton has no humanoid feet, or the detection refuses the clip.
Result<StandingContacts> detectStandingContacts(Scene scene, std::size_t clipIndex, ContactDetectionOptions options);

}  // namespace articula
