#pragma once
// Filters on a clip's channels: what an animator cleaning a capture runs on the joints they
// selected over the frames they selected (MotionBuilder's and Blender's filters): a
// zero-phase Butterworth low-pass, continuity (sign flips unrolled), resampling, peak removal
// and key reduction within the bake's error bound. Everything outside the joints and frames
// asked for is left as it was.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/anim/clip.h"
#include "core/skeleton/skeleton.h"
#include "core/util/result.h"

namespace articula {

enum class FilterKind { Butterworth, Unroll, Resample, Peaks, Reduce };

// What to run and its parameters; the fields a kind does not read are ignored.
struct FilterSettings {
  FilterKind kind = FilterKind::Butterworth;
  double cutoffHz = 6.0;     // Butterworth: -3 dB point of the two passes together
  int order = 2;             // Butterworth: single-pass order (2: Winter's 4th-order zero-lag)
  double rateHz = 30.0;      // Resample: keys per second
  double peakFactor = 10.0;  // Peaks: a spike stands this many times above the channel's median
  // Reduce: largest model-space distance of any node from the unreduced motion (the skeleton's
  // units); callers take kDefaultToleranceOfHeight × Scene::characterHeight(), as a bake does.
  float toleranceModel = 0.0f;
};

// "butterworth:CUTOFF[:ORDER]", "unroll", "resample:RATE", "peaks[:FACTOR]", "reduce": the
// words of `--filter`. An error names the word and what was expected.
Result<FilterSettings> parseFilter(std::string_view word);
// The word parseFilter reads back ("butterworth:6:2", "resample:30", …).
std::string filterWord(const FilterSettings& settings);

struct FilterReport {
  std::string filter;  // filterWord
  int firstFrame = 0;  // frames of the source clip, inclusive
  int lastFrame = 0;
  int joints = 0;              // joints whose channels the filter rewrote
  int channels = 0;            // translation, rotation and scale channels rewritten
  std::size_t keysBefore = 0;  // keys of those channels within the range, as glTF counts them
  std::size_t keysAfter = 0;
  int framesChanged = 0;  // Peaks: spikes replaced (frame × channel); Unroll: keys flipped
};

struct FilterResult {
  Clip clip;
  FilterReport report;
};

// Runs one filter on the channels (translation, rotation, scale) that `clip` animates of
// `joints` between frames firstFrame and lastFrame (inclusive, at the clip's frame rate).
// Butterworth and Peaks key those channels at every frame of the range (linear, slerp):
// rotations are filtered as quaternions made continuous in sign, their four components
// filtered then normalised (never as Euler angles); the filter reads only the range, its ends
// padded by odd reflection so they do not droop. Reduce keeps the fewest keys within the
// tolerance (the bake's reduceDenseClip; keys stay at the range's ends). Resample keys the
// range every 1 / rateHz s and at its end; the clip takes that rate when the range is the
// whole clip and every track is among the joints. Unroll flips rotation keys into their
// predecessor's hemisphere. Keys outside the range, the other joints' tracks, named curves and
// morph weights are copied as they are.
struct ClipFilterJob {
  const Skeleton* skeleton = nullptr;
  const Clip* clip = nullptr;
  std::vector<int> joints;  // skeleton indices
  int firstFrame = 0;
  int lastFrame = -1;  // -1: the clip's last frame
  FilterSettings settings;

  // nullopt when the job can run; otherwise one line for: no skeleton or clip, a clip that
  // does not validate (a NaN key, named), no joints, a joint outside the skeleton, joints
  // the clip does not animate, a range outside the clip or reversed, a range with fewer
  // frames than the filter needs (Butterworth: butterworthMinimumFrames; Peaks: 3; Reduce
  // and Resample: 2), a cutoff not below half the frame rate, an order outside
  // 1..kMaxButterworthOrder, a resample rate or peak factor that is not a positive number,
  // a reduction tolerance that is not, a range whose frames × joints pass
  // kMaxBakeJointFrames (what a bake samples at most).
  std::optional<std::string> validate() const;
  // Validates first; the clip in the result is the filtered copy.
  Result<FilterResult> run() const;
};

// ClipFilterJob on every joint `clip` animates over its whole range, `clip` replaced by the
// result (unchanged on failure): what `articula-cli bake|export --filter` runs. A Reduce
// tolerance of 0 takes the bake's, kDefaultToleranceOfHeight × `heightModel`.
Result<FilterReport> filterWholeClip(const Skeleton& skeleton, float heightModel, Clip& clip, FilterSettings settings);

}  // namespace articula
