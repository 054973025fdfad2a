#pragma once
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "core/scene/scene.h"
#include "core/util/result.h"

namespace articula {

// A foot whose contacts become one stride curve: ankle and (optionally) toe joints.
struct FootJoints {
  std::string curveName;  // e.g. "contact.left_foot"
  int ankle = -1;
  int toe = -1;  // -1 when the skeleton has no toe
  // Where the leg's chain ends: -1 when at the ankle; else the shin's tail, the foot being an
  // IK bone beside the leg that the cleanup moves itself (HumanoidLeg::legTip).
  int legTip = -1;
};

// The left and right feet of a humanoid, found by name and hierarchy (mapHumanoid).
Result<std::vector<FootJoints>> humanoidFeet(const Skeleton& skeleton);

// How far the joints (not the plain transform nodes above them) of one pose spread along
// `up` (unit, model space), in model units; 0 for a pose with one joint height.
float jointExtentAlong(const Skeleton& skeleton, std::span<const Affine> model, const Vec3& up);

// Thresholds; a threshold <= 0 (the default -1) means "derive from the character".
struct ContactDetectionOptions {
  // The character's up in model space (the humanoid rig's grounding.upModel): heights are
  // measured along it and speeds across it, so Z-up captures work as Y-up ones do.
  Vec3 upModel = Vec3::UnitY();
  // A joint counts as low when it is within this height of its own floor level there: the
  // 5th percentile of its heights within `floorWindowSeconds` before or after the frame
  // (local, because captured ground is rarely level in model space; a percentile, so one
  // stray frame does not set it). Default 3 % of the character's height.
  float heightThreshold = -1.0f;
  // Half-width of that window. A foot that stays off the ground for longer than this on both
  // sides of a frame (a very long jump) reads as low there; it still needs to be still.
  // 0 makes every frame low, so speed alone decides.
  double floorWindowSeconds = 1.0;
  // A joint counts as still when its horizontal speed (across `upModel`, units per second,
  // relative to the ground: see ContactDetection::groundVelocityModel) is below this.
  // Default 15 % of the character's height per second (0.26 m/s at 1.75 m).
  float speedThreshold = -1.0f;
  // Hysteresis: a planted joint is released only when it exceeds `release` × a threshold.
  float release = 1.5f;
  // Contacts shorter than this are dropped; gaps shorter than `minGapSeconds` are filled.
  double minContactSeconds = 0.08;
  double minGapSeconds = 0.03;
  // Length of the eased 0 ↔ 1 ramps of the stride curve, outside the contact.
  double transitionSeconds = 0.05;
};

// Frames [first, last] (inclusive, counted from the clip's start at its frame rate).
struct ContactInterval {
  int first = 0;
  int last = 0;
};

struct FootContacts {
  std::string curveName;
  std::vector<ContactInterval> foot;   // the foot is planted: ankle or toe planted
  // The frames of `foot` where the ankle is within the height threshold of its floor: it is
  // held there, whatever its speed (a heel rising about a planted toe is still low).
  std::vector<ContactInterval> ankle;
  // The frames of `foot` where the toe is low and still and the ankle is not held: the ankle
  // turns about the toe (empty without a toe joint).
  std::vector<ContactInterval> toe;
  // Per analysed frame, the ankle's local floor level (model space, along the up): where a
  // held ankle stands, so a capture's dip below its own ground is not kept.
  std::vector<float> ankleFloorModel;
  // Per analysed frame, the joints' heights (model space, along the up): what the detection
  // saw, for plots and for checking a detection by eye.
  std::vector<float> ankleHeightModel;
  std::vector<float> toeHeightModel;  // empty without a toe joint
};

struct ContactDetection {
  std::vector<FootContacts> feet;
  float characterHeight = 0.0f;  // along the up, rest pose: what the default thresholds scale
  float heightThreshold = 0.0f;
  float speedThreshold = 0.0f;
  // An in-place cycle (game walks and runs: the feet end within a foot length, 15 % of the
  // height, of where they started) moves the ground under the character instead: a planted
  // foot travels with it. This is that treadmill velocity (model units per second, across the
  // up), the median velocity of the feet's low frames; zero when the character travels, or
  // when a still ground explains more of those frames than the moving one.
  bool inPlace = false;
  Vec3 groundVelocityModel = Vec3::Zero();
  int frameCount = 0;  // frames analysed: clip.frameCount(), from start to end inclusive
};

// Finds foot contacts from the ankle and toe heights and horizontal speeds over the clip,
// with hysteresis and a minimum length, and writes one stride curve per foot into
// `clip.curves` (1 = planted, 0 = free, short eased transitions; existing curves of the
// same name are replaced). Fails, leaving the clip untouched, on a clip shorter than three
// frames, a bad joint index, bad options (release < 1, negative lengths) or a non-finite pose.
Result<ContactDetection> detectContacts(const Scene& scene, Clip& clip, const std::vector<FootJoints>& feet,
                                        const ContactDetectionOptions& options = {});

}  // namespace articula
