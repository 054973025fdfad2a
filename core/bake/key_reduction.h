#pragma once
// Key reduction: turns a dense clip (a bake writes one key per frame) into the few keys that
// reproduce it within a tolerance measured in model space, where an animator sees errors.
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/anim/clip.h"
#include "core/bake/dense_clip.h"
#include "core/skeleton/skeleton.h"
#include "core/util/result.h"

namespace articula {

// Tolerances are stated for a character 1.75 m tall: a clip's error in millimetres at that
// height is its model-space error × kReferenceHeightMm / Scene::characterHeight().
inline constexpr float kReferenceHeightMm = 1750.0f;
// The default tolerance, as a fraction of the character's height: 1 mm at 1.75 m.
inline constexpr float kDefaultToleranceOfHeight = 1.0f / kReferenceHeightMm;

// Times (seconds) of keys to keep in each channel of one joint.
struct ChannelKeepTimes {
  std::vector<double> translation;
  std::vector<double> rotation;
  std::vector<double> scale;
};

// The form of reduced keys, as a glTF file stores them.
// - Linear: lines between keys (glTF LINEAR; slerp on rotations). Every reader plays them
//   alike: each rotation segment is held within its budget both as a slerp (the spec,
//   three.js, Babylon.js) and as a per-component lerp then normalise (Blender's importer,
//   which turns a LINEAR quaternion into four linear F-curves). The default.
// - Cubic: cubic segments where one spans more frames than a line would (Bézier keys on
//   translation and scale, glTF cubic-spline keys on rotations), lines elsewhere: fewer keys,
//   played exactly by readers that follow the spec (three.js, Babylon.js, engines). Blender's
//   importer drops CUBICSPLINE tangents and puts automatic handles through the keys, so a
//   cubic file plays tens of millimetres off there (planted feet slide 30–135 mm on CMU 02_01).
enum class KeyInterpolation { Linear, Cubic };

// "linear" or "cubic": the word of `--interpolation`, `--json` and the project file.
const char* keyInterpolationName(KeyInterpolation interpolation);
// The KeyInterpolation a word names (as keyInterpolationName writes it), nullopt for any other.
std::optional<KeyInterpolation> parseKeyInterpolation(std::string_view word);

struct KeyReductionOptions {
  // Largest distance allowed, in model space (the skeleton's units), between where a node
  // (joint, tip or transform node: so every joint and the ends of its children) is in the
  // reduced clip and where it is in the source, on every source frame. Must be positive.
  // Callers usually take kDefaultToleranceOfHeight × Scene::characterHeight().
  float toleranceModel = 1e-3f;
  // Keys at these times (seconds, snapped to the nearest source frame) are kept in every
  // reduced channel.
  std::vector<double> keepTimes;
  // How the reduced keys interpolate (see KeyInterpolation): lines by default, which every
  // glTF reader plays alike.
  KeyInterpolation interpolation = KeyInterpolation::Linear;
  // Keys at `chainKeepTimes` are kept in the tracks of `chainJoints` and of every joint above
  // them: contact starts and ends (contactKeyTimes) matter to the feet and what carries
  // them, not to an arm or the head.
  std::vector<double> chainKeepTimes;
  std::vector<int> chainJoints;
  // Keys at these times are kept in that channel of that joint only: the user's own keys on
  // it. Per channel, so that channels keyed at different times (an earlier reduction) do not
  // each take every other channel's keys.
  std::map<int, ChannelKeepTimes> jointKeepTimes;
  // Joints whose rotation and scale nothing shows (a leaf that skins no vertex and that the
  // source does not turn: a rig's end effector, such as RobotExpressive's shin tails beside
  // its feet). Whatever a rig does to them, those channels get no keys: the node keeps its
  // rest rotation and scale, and a reader sees no animation on it (Blender makes no action
  // for it).
  std::vector<int> unseenJoints = {};
  // Joints whose place between a slow clip's frames shows (the feet and toes): on clips
  // sampled slower than a player's kPlaybackRate, the translation and scale of these and of
  // every joint above them are also held to the line halfway between frames (see
  // fitVec3Channel). Empty: every translation and scale is, for a character whose feet are
  // unknown. A body beside IK feet then fits its bob with cubics: RobotExpressive Walking's
  // took a line between every two of its 24 frames.
  std::vector<int> betweenFramesJoints = {};
  // Round rotation keys to glTF's normalised 16-bit grid (values, and cubic-spline tangents
  // when all of a channel's fit in [-1, 1]), which the glTF writer then stores as SHORT: half
  // the bytes. The rounding (about half a step, 1.5e-5, per component) takes its share of a
  // channel's budget and is measured with the fit, so the tolerance holds for what the file
  // decodes to. A channel whose budget it would mostly use up stays in floats.
  bool quantizeRotations = true;
  // With cubic keys: give each channel the form that costs the fewest bytes in a glTF file
  // (true) instead of the fewest keys (false). A cubic-spline key stores three elements
  // (in-tangent, value, out-tangent) and its tangents are per second, mostly beyond the 16-bit
  // grid's [-1, 1], so slerps with more keys are often smaller. CMU 02_01 detect bake: 6013
  // keys, 106 KB of animation (fewest bytes) against 2445 keys, 136 KB (fewest keys); the
  // per-frame export stores 11008 keys, 171 KB. More keys cost memory too: the 68,800-frame
  // take peaks at 505 MB against 364 MB.
  bool fewestBytes = false;
  // The keys of a glTF file (true): a lines channel whose keys cost more bytes than a key on
  // every frame is keyed on every frame. An editor's keys (false, Merge Down): the fewest
  // keys, whatever they cost in a file.
  bool keysForAFile = true;
};

struct KeyReductionReport {
  // Keys counted as glTF stores them (channelKeyCount): of the source, or for a dense clip
  // one key per frame and animated channel (a per-frame bake); and of the reduced clip.
  std::size_t keysBefore = 0;
  std::size_t keysAfter = 0;
  // Measured by forward kinematics on every source frame, the larger of the reduced clip as
  // the spec plays it and as a reader that lerps LINEAR rotations per component plays it.
  float maxDeviationModel = 0.0f;
  int framesChecked = 0;
  // Passes that tightened the per-channel budgets after a measurement found a deviation
  // above the tolerance (errors of a parent and its children add up along a chain).
  int refinementPasses = 0;
};

// Reduces every joint track of `source` (translation, rotation and scale channels that it
// animates) sampled at the source's frame rate from its start to its end. Named curves
// (stride curves, handle weights) and morph weights are copied unchanged. Translation and
// scale keep their three components keyed at the same times. Consecutive rotation keys are
// never more than 180° apart along the source motion, so a spin survives. A channel that
// never moves by more than its budget keeps a single key. With lines (or fewestBytes), a
// channel whose reduced keys would cost more bytes in a glTF file than a key on every frame
// (whose key times every such channel shares) is keyed on every frame: a capture's noisy
// hips, spine and legs.
struct KeyReductionJob {
  const Skeleton* skeleton = nullptr;  // the skeleton the clip animates (rest pose fills gaps)
  const Clip* source = nullptr;
  KeyReductionOptions options;
  Clip* output = nullptr;  // receives the reduced clip; untouched on failure

  // nullopt when the job can run. Otherwise a message for: no skeleton, source or output;
  // an invalid skeleton or source clip (Skeleton::validate, Clip::validate); a source with
  // no frames (empty clip); a tolerance that is not a positive finite number; a keep time
  // that is not finite; a joint to keep keys on that is not in the skeleton.
  std::optional<std::string> validate() const;
  // Validates first; on failure returns the message and leaves `output` untouched.
  Result<KeyReductionReport> run() const;
};

// The reduction itself, on samples: fits every track of `dense` and returns the reduced
// tracks in `tracks` (one per dense track, same joints; keys at dense.timeOf(frame)).
// `basePose` (local transforms) holds the channels no track animates, for measuring.
// keysBefore counts one key per frame and scalar channel (rotation: one per frame).
KeyReductionReport reduceDenseClip(const Skeleton& skeleton, std::span<const Transform> basePose,
                                   const DenseClip& dense, const KeyReductionOptions& options,
                                   std::vector<JointTrack>& tracks);

// Keys of the animation channels as a glTF file stores them: one per key time of a
// translation, rotation, scale or morph-weights channel (a translation key is one key, not
// three; its components are keyed at the same times, as imports and reductions key them).
std::size_t channelKeyCount(const Clip& clip);

// `pose` holds `clip` sampled at time t (ClipSampler); replaces each rotation that a slerp
// segment of the clip sets by what a reader that interpolates LINEAR rotation keys per
// component plays there: the stored quaternions lerped, then normalised (Blender's glTF
// importer).
void lerpRotationsPerComponent(const Clip& clip, double t, std::span<Transform> pose);

// Largest model-space distance of any node between `clip` played as the spec plays it
// (slerp) and as lerpRotationsPerComponent plays it, at `rate` samples per second from its start to
// its end; `basePose` holds the channels the clip does not animate. What a plain export of
// per-frame keys may differ by in Blender (0.69 mm at 1.75 m on RobotExpressive's 24 fps
// Walking, nothing visible at 120 fps).
float componentLerpDeviation(const Skeleton& skeleton, std::span<const Transform> basePose, const Clip& clip,
                             double rate);

// Frames where a stride curve (`contact.*`, 1 = planted, 0 = free) starts or ends a planted
// or a free interval, as times: the keys a reduction must keep so contacts stay exact.
std::vector<double> contactKeyTimes(const Clip& clip);

}  // namespace articula
