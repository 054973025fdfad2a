#pragma once
// Analytic two-bone IK (a leg: hip, knee, ankle; an arm: shoulder, elbow, wrist), after ozz's
// IKTwoBoneJob, with the result written as local rotations so it can be keyed and baked.
//
// Geometry is solved in the start joint's parent space (chain space, see ik_chain.h), where
// the bones are rigid whatever the transforms above the start joint (translation, rotation,
// non-uniform scale, mirroring): the end joint lands on the target in model space. The stages
// (two_bone_ik.cpp), as ozz's: setup (bones, chain frame), soften (the reach), mid joint (the
// knee's turn about the bend axis), start joint (the limb onto the target, the bend plane onto
// the pole), weight (slerp from the input, into the input's hemisphere).
//
// The knee bends in the plane holding the start joint, the target and the pole, on the
// pole's side. Both methods turn the knee by the law of cosines in its half-angle form
// (cos²(β/2), sin²(β/2) as the products (a + b − d)(a + b + d) and (d − a + b)(d + a − b),
// precise near the straight and folded limb), with no trigonometry; they differ in how the
// start joint turns, and give the same rotations within float rounding:
//  - LawOfCosines: the limb, knee turned, is swung onto the target and turned about the
//    start–target axis into the pole's plane;
//  - TrigFree: the upper bone goes to the knee's place on the intersection circle of the
//    spheres about the start (radius of the upper bone) and the target (lower bone), picked
//    in the pole's plane.
// Only a non-zero twistAngleRad costs one sin/cos pair.
#include <optional>
#include <span>
#include <string>

#include "core/ik/ik_chain.h"
#include "core/math/transform.h"
#include "core/skeleton/skeleton.h"

namespace articula {

struct TwoBoneIkJob {
  enum class Method : unsigned char { LawOfCosines, TrigFree };
  enum class PoleMode : unsigned char {
    Vector,  // poleModel is a direction (model space): the knee points along it
    Target,  // poleModel is a point (model space): the knee points towards it
  };

  // Inputs.
  const Skeleton* skeleton = nullptr;
  // The three joints, each on the parent line of the next; joints in between (twist bones)
  // are carried rigidly.
  int startJoint = kNoParent;
  int midJoint = kNoParent;
  int endJoint = kNoParent;
  // In: local transforms (jointCount() entries); a rotation that is not unit is read as the
  // rotation it stands for. Out: the unit local rotations of startJoint and midJoint;
  // nothing else is written.
  std::span<Transform> pose;
  // In: model matrices of `pose` (LocalToModelJob). Only the start joint's parent is read
  // (the start joint itself when it is a skeleton root). Not updated by run().
  std::span<const Affine> model;

  Vec3 targetModel = Vec3::Zero();  // where the end joint goes, model space
  PoleMode poleMode = PoleMode::Vector;
  Vec3 poleModel = Vec3::UnitY();  // model space, see PoleMode
  // Hinge axis of the mid joint, in mid-joint local space (its rotation space): a positive
  // rotation mid.rotation * rot(axis, θ) bends the limb. Used only when the input limb is
  // straight (its bend plane is undefined) and the pole is on the upper bone's line;
  // otherwise the knee turns about its current bend axis, turned to the pole's side, and
  // within a few degrees of straight (where that axis is noise) eased into the axis across
  // the upper bone and the pole. The component along the bone is ignored.
  Vec3 fallbackBendAxisMidLocal = Vec3::UnitZ();
  // Rotation of the solved limb about the start–target axis, radians, right-handed in model
  // space (mirrored parents turn the same way as seen in model space).
  float twistAngleRad = 0.0f;
  // Softening near full extension (ozz's `soften`): beyond soften × (upper + lower length),
  // the reach grows as 1 − (3 / (3 + α))³ of the remaining length, α the excess in units of
  // that remaining length — slope 1 where it starts, so the knee never snaps straight. 1: off.
  float soften = 0.97f;
  // 0 keeps the input rotations, 1 applies the solve; in between, slerp per joint.
  float weight = 1.0f;
  float toleranceModel = 1e-3f;  // reached when the end is this close to the target, model space
  Method method = Method::LawOfCosines;

  // Output, optional: reached, final error, iterations (1 when solved).
  IkReport* report = nullptr;

  // nullopt when valid, else what is wrong. Fails when: no skeleton; a joint index out of
  // range, or start/mid/end not an ancestor line (mid strictly below start, end strictly
  // below mid); pose or model shorter than the skeleton; the target, pole, fallback axis,
  // twist, soften, weight or tolerance not finite; a zero pole vector (PoleMode::Vector) or a
  // zero fallback axis; soften or weight outside [0, 1]; a negative tolerance; a local
  // transform on the start→end path not finite or with a zero rotation (of the end joint,
  // whose rotation and scale move nothing solved, only the translation); a non-uniform scale
  // on the start joint or a joint between start and mid (the upper bone would not be rigid);
  // the start joint's parent model matrix singular or not finite; a zero-length bone.
  // A target at the start joint, a pole on the limb axis or a straight limb are valid: see
  // run().
  std::optional<std::string> validate() const;

  // Validates first; on failure returns false and writes nothing. Target beyond reach: the
  // limb points straight at it (with soften = 1; softening keeps a slight bend). Target
  // closer than |upper − lower|: the limb folds towards it. Either solved again towards the
  // same target, its pole carried by the start joint, stays as it is. Target at the start
  // joint: the limb keeps its current direction. Pole collinear with the start–target axis:
  // the bend plane turns minimally from the current one.
  bool run() const;
};

}  // namespace articula
