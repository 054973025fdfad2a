#pragma once
// Capture conventions rewritten without changing the motion, for the metamorphic tests of
// issue 37: each function takes a scene and returns it in another convention (rest laid down,
// another up axis, other units or frame rate, other joint names, an extra root, an A-pose
// rest) with what a test needs to undo it. A new convention is one function and one line of
// the suite's table.
#include <string>
#include <vector>

#include "core/scene/scene.h"

namespace articula::test {

struct Variant {
  std::string name;
  Scene scene;
  // Variant lengths are the original's times this.
  float unitsPerOriginal = 1.0f;
  // The variant's name of each original node (renames; an extra root keeps the names).
  std::vector<std::string> nodeName;
  // False when the clips were resampled: the variant's frames are other instants.
  bool framesKept = true;
};

// The original itself: the identity transform.
Variant sameAs(const Scene& scene);
// The rest laid along +X with every rotation zero, each joint's frame turned so its motion in
// model space is unchanged (the hips then turn ~90° each frame to stand the figure up), as
// LaFAN1 and Bandai-Namco BVH files are.
Variant restAlongX(const Scene& scene);
// The rest an A-pose (upper arms 45° below the T) with every rotation zero, likewise.
Variant aPoseRest(const Scene& scene);
// The whole figure and its motion turned so the up is +Z (Y-up becomes Z-up, Z-up lies).
Variant zUp(const Scene& scene);
// Every length times `factor` (100: metres to centimetres; 10: to decimetres).
Variant scaled(const Scene& scene, float factor, const std::string& name);
// Each clip sampled at `fps` (linear keys on every frame).
Variant resampled(const Scene& scene, double fps);
// Nodes renamed j0..jn (no names to go by).
Variant indexedNames(const Scene& scene);
// Sides written as suffixes: LeftUpLeg → UpLeg.L, UpperLegR → UpperLeg.R.
Variant sideSuffixNames(const Scene& scene);
// Sides written as prefixes: UpperLeg.L / LHipJoint → LeftUpperLeg / LeftHipJoint.
Variant sidePrefixNames(const Scene& scene);
// Every node prefixed "mixamorig:".
Variant mixamoNames(const Scene& scene);
// A new root node above everything (an armature at the identity).
Variant extraRoot(const Scene& scene);

// Not a convention: the figure somersaulting `turns` times about its left-right axis over each
// clip (the hips turned about their own point, their path kept), a motion that stands too
// seldom for its up to be read from it.
Scene somersaulting(const Scene& scene, float turns);

// The scene's skeleton (one root, Joint and Tip nodes) and first clip as BVH text, every
// joint rotating in ZXY order and the root also translating: a variant as a capture file.
std::string bvhText(const Scene& scene);

}  // namespace articula::test
