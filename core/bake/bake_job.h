#pragma once
// Bake: play a clip through a pose corrector (an IK rig) frame by frame and write what it
// produces as ordinary keys in a new clip, then reduce them. Non-destructive: the source
// clip is only read, so an editor can keep it for undo.
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "core/anim/clip.h"
#include "core/bake/key_reduction.h"
#include "core/skeleton/skeleton.h"
#include "core/util/result.h"

namespace articula {

// What a bake runs on every frame: corrects a sampled local pose in place (an IK rig with
// its handles, grounding and stride curves). core/rig adapts Rig to it.
class PoseCorrector {
 public:
  virtual ~PoseCorrector() = default;
  // The clip of the correct() calls that follow, until the next begin(); called by a bake
  // before its frames, so that what a corrector finds in the clip by name is found once.
  virtual void begin(const Clip& /*clip*/) {}
  // Corrects `pose` (local transforms, one per skeleton node) at clip time `timeSeconds`;
  // `clip` supplies animated handle inputs and stride curves. False when it refused the pose.
  virtual bool correct(std::span<Transform> pose, double timeSeconds, const Clip& clip) = 0;
  // Joints whose local rotation / translation the corrector may change (baked even when the
  // source does not animate them).
  virtual std::vector<int> rotatedJoints() const = 0;
  virtual std::vector<int> translatedJoints() const = 0;
  // Handles of the last correct() that did not reach their targets, by index, and a name
  // for each index, for reports.
  virtual void unreachedHandles(std::vector<int>& handles) const = 0;
  virtual std::string handleName(int handle) const = 0;
};

struct BakeOptions {
  // Frames of the source clip (frame f at source.timeOf(f)), inclusive; lastFrame -1 means
  // the clip's last frame. The bake keys every `step`-th frame from firstFrame (and always
  // lastFrame).
  int firstFrame = 0;
  int lastFrame = -1;
  int step = 1;
  // Samples per step: above 1, the bake also solves at evenly spaced times between the
  // stepped frames (keys may land there), so what plays between them is what the corrector
  // wants, not an interpolation of its frames: a leg held by IK at a capture's 24 fps swings
  // its foot between keys when a player steps at 120 Hz. Frames in reports stay the source's.
  int subframes = 1;
  // With `subframes` above 1: the spans of time (seconds, from and to) where the corrector
  // solves between frames; elsewhere a frame's sub-frame samples are what plays between its
  // keys (so they cost none). Empty: everywhere.
  std::vector<std::pair<double, double>> subframeSpans;
  // Joints to bake; empty: every joint the source animates and every joint the corrector
  // moves.
  std::vector<int> joints;
  // Keep the source's keys outside the range as they are (true), or return only the range.
  bool keepOutsideRange = true;
  // False: the top-most translated joint (the hips) keeps, on its parent's X and Z axes, its
  // value at the first baked frame: the motion plays in place (Y-up characters).
  bool rootMotion = true;
  // Give the output the source's named curves (stride curves, handle curves) as copies
  // (true), or none (false), for a caller that moves them over itself: the skate cleanup's
  // lock curves hold a key per frame, which a long take would hold twice.
  bool copyCurves = true;
  // With `reduce`, keep keys where a stride curve of the source starts or ends a contact, on
  // the joints the corrector moves and those above them (KeyReductionOptions::chainKeepTimes),
  // where a rig following the curve changes course. Off for the skate cleanup, whose locks
  // ease in and out: there they only cost keys (CMU 02_01: 6 %, RobotExpressive Walking: 27 %).
  bool keyContactEdges = true;
  // Reduce the baked keys (true) with `reduction`, or keep one key per baked frame.
  bool reduce = true;
  KeyReductionOptions reduction;
};

struct BakeMiss {
  int frame = 0;   // source frame
  int handle = 0;  // corrector handle index (BakeReport::handleNames)
};

struct BakeReport {
  int framesBaked = 0;
  std::vector<BakeMiss> unreached;       // every frame a handle did not reach its target
  std::vector<std::string> handleNames;  // names of the handles in `unreached`, by index
  int refusedFrames = 0;                 // frames the corrector refused (baked uncorrected)
  bool reduced = false;
  KeyReductionReport reduction;  // keys and deviation of the baked range
};

struct BakeJob {
  const Skeleton* skeleton = nullptr;
  const Clip* source = nullptr;
  PoseCorrector* corrector = nullptr;  // null: bake the source as it plays (resample)
  BakeOptions options;
  Clip* output = nullptr;  // the baked clip; untouched on failure and on cancel
  // Called with (frames done, frames to do) as the bake goes; returning false cancels it.
  std::function<bool(int, int)> progress;

  // nullopt when the job can run. Otherwise a message for: no skeleton, source or output;
  // an invalid skeleton or source clip; an empty clip; a frame range outside the clip or
  // reversed; a step or a sub-frame count below 1; a joint to bake out of range; with reduction, an invalid
  // tolerance or keep time (KeyReductionJob's rules).
  std::optional<std::string> validate() const;
  // Validates, bakes, reduces. On failure or cancel, returns the message ("bake cancelled")
  // and leaves `output` untouched.
  Result<BakeReport> run() const;
};

}  // namespace articula
