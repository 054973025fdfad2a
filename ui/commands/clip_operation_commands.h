#pragma once
// Animation ▸ Make Cyclic…, In Place and Root Motion… on the current clip (issue 41): the core's
// clip operations (core/clipops/scene_ops.h, as `articula-cli loop` and `root-motion` run
// them) pushed as one ReplaceClipCommand. Only the current clip changes.
#include <QString>

#include <optional>
#include <string>

#include "core/clipops/scene_ops.h"

namespace articula::ui {

class Document;

// Clip `clipIndex` of `scene` with its end blended into its start (makeCyclic on it alone,
// as articula-cli loop runs it); the error is one line naming the clip.
Result<Clip> cyclicClip(const Scene& scene, int clipIndex, const CyclicOptions& options);

// Takes the travel across the ground out of the current clip (InPlaceJob on the humanoid's
// hips, IK feet beside them carried along). Returns why not (one line), changing nothing.
std::optional<QString> makeCurrentClipInPlace(Document& document);

// What Animation ▸ Root Motion… asks: the travel moved from the hips onto their parent joint
// `rootName` on `axes`, or (fold) that joint's motion folded back into the hips.
struct RootMotionChoice {
  bool fold = false;
  std::string rootName;
  TravelAxes axes;
};

// The joint Root Motion… offers: the humanoid's hips' parent when it is a bone, else "root"
// (the hips have no parent, or a plain node such as glTF's "Armature", or no humanoid).
std::string defaultRootName(const Scene& scene);

// Clip `clipIndex` of `scene` with `choice` applied (extractRootMotion / foldRootMotion on it
// alone); the error is one line naming the clip. The editor does not add joints: a root that
// is not already the hips' parent is refused (articula-cli root-motion adds it).
Result<Clip> rootMotionClip(const Scene& scene, int clipIndex, const RootMotionChoice& choice);

}  // namespace articula::ui
