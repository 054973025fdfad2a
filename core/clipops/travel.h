#pragma once
// Where a character's travel is, for the clip operations (root motion, in place, loops): the
// joint whose translation carries it and the ground it moves over.
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "core/anim/clip.h"
#include "core/skeleton/skeleton.h"
#include "core/util/result.h"

namespace articula {

// Which parts of the travel an operation takes, named as engines name them in a Y-up world:
// x across (the character's left at rest, levelled), y up (height), z forward (x × y on the
// ground). A Z-up capture's ground is still x and z.
struct TravelAxes {
  bool x = true;
  bool y = false;
  bool z = true;
  bool yaw = false;  // facing: the turn about up
  bool any() const { return x || y || z || yaw; }
};

// "xz", "x", "xyz", ...: the translation axes (letters x, y, z, each once, any order); yaw
// is not a letter. The error quotes the text.
Result<TravelAxes> parseTravelAxes(const std::string& text);

// The character's travel joint and ground, from its humanoid map.
struct TravelFrame {
  int hips = -1;  // the humanoid's pelvis (MakeHuman: its Root, which carries legs and spine)
  // Columns x (left), y (up), z (forward), unit, in model space at rest: the ground frame of
  // core/retarget (up the model axis nearest the character's up).
  Mat3 groundModel = Mat3::Zero();
  float heightModel = 1.0f;  // rest extent of the joints along up, model units (> 0)
};

// From mapHumanoid; the error says the skeleton is no humanoid and what it misses.
Result<TravelFrame> humanoidTravelFrame(const Skeleton& skeleton);

// A frame for any skeleton: the humanoid's, else the first joint (parent before child) that
// `clip` translates, with the model's own Y up. nullopt when the clip translates no joint.
std::optional<TravelFrame> travelFrameOf(const Skeleton& skeleton, const Clip& clip);

// `groundModel` carried into the rest space of `joint`'s parent (model space for a root).
Mat3 groundInParentSpace(const Skeleton& skeleton, int joint, const Mat3& groundModel);

// The top of the joints carrying `hips`' travel in `clip`: `hips`, or its highest ancestor
// with a translation track (a root joint holding the root motion).
int travelJoint(const Skeleton& skeleton, const Clip& clip, int hips);

// The joints `clip` moves (a translation that changes) beside `travel` under the same parent
// (RobotExpressive's IK feet beside its pelvis): they go along with the travel. A constant
// translation (a pole target an exporter keyed once) stays behind.
std::vector<int> carriedJoints(const Skeleton& skeleton, const Clip& clip, int travel);

// Heading (radians, about `ground`'s up, positive counter-clockwise seen from above) that
// `rotation` gives the forward axis relative to `restRotation`, both in `ground`'s space;
// `previous` (radians) when the turned forward stands along up.
float headingRad(const Quat& rotation, const Quat& restRotation, const Mat3& ground, float previous);

// The local transforms of `joints` at every frame of `clip` (frame f at clip.timeOf(f)), from
// the rest pose where the clip does not animate them: result[f][k] is joints[k] at frame f.
std::vector<std::vector<Transform>> sampleJoints(const Skeleton& skeleton, const Clip& clip,
                                                 std::span<const int> joints);

// Replaces `joint`'s translation and rotation tracks in `clip` with one linear (slerp) key
// per frame, frame f at clip.timeOf(f); its scale track stays.
void writePerFrame(Clip& clip, int joint, std::span<const Transform> frames);

}  // namespace articula
