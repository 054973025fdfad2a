#pragma once
#include "core/anim/clip.h"
#include "core/scene/scene.h"
#include "core/skeleton/skeleton.h"

namespace articula {

// The default character the editor opens: a mannequin the project builds itself, so no
// third-party asset is needed. Everything is deterministic and takes well under 10 ms.
//
// Conventions (model space): Y up, metres, the character faces +Z, its left side is +X,
// the ground is the plane y = 0. 1.75 m tall (HeadTop_End), hip joints at 0.92 m.
//
// Rest pose: a relaxed A-pose, arms 45° below horizontal, legs straight and vertical.
// Joint-local frames: every rest rotation is the identity and every bone offset is a
// translation, so a joint's local axes are the model axes in the rest pose (glTF-friendly;
// a rotation about local +X pitches a leg or the spine, +Y yaws, +Z rolls).
//
// Joints use Mixamo/MotionBuilder names (Hips, Spine, Spine1, Spine2, Neck, Head,
// LeftShoulder, LeftArm, LeftForeArm, LeftHand, LeftUpLeg, LeftLeg, LeftFoot, LeftToeBase and
// the Right* mirrors): 22 Joint nodes plus the Tip nodes HeadTop_End, LeftToe_End and
// RightToe_End.

// Skeleton, skinned mesh, one grey-blue material and the "walk" clip.
Scene makeMannequin();

// The parts, for callers (and tests) that need only one of them.
Skeleton makeMannequinSkeleton();
// Skinned to `skeleton` (which must be makeMannequinSkeleton()); uses material 0.
Mesh makeMannequinMesh(const Skeleton& skeleton);
// A looping walk of the mannequin along +Z at 1.4 m/s: one 1.0 s cycle at 30 fps, Bézier
// keys, root motion on the Hips translation, and the stride curves `contact.left_foot` and
// `contact.right_foot` (1 = planted). Built for `skeleton` = makeMannequinSkeleton().
Clip makeWalkClip(const Skeleton& skeleton);

}  // namespace articula
