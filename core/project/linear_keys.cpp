#include "core/project/linear_keys.h"

#include <cmath>
#include <iomanip>
#include <sstream>

#include "core/bake/bake_pipeline.h"
#include "core/bake/dense_clip.h"
#include "core/bake/key_reduction.h"

namespace articula {
namespace {

bool curveHasBezierSegment(const Curve& curve) {
  for (std::size_t j = 0; j + 1 < curve.size(); ++j) {
    if (curve.keys()[j].interpolation == Interpolation::Bezier) return true;
  }
  return false;
}

bool vec3HasBezierSegment(const Vec3Track& track) {
  return curveHasBezierSegment(track.x) || curveHasBezierSegment(track.y) || curveHasBezierSegment(track.z);
}

bool rotationHasCubicSegment(const RotationTrack& track) {
  const std::vector<RotationKey>& keys = track.keys();
  for (std::size_t j = 0; j + 1 < keys.size(); ++j) {
    const RotationInterpolation kind = keys[j].interpolation;
    if (kind == RotationInterpolation::Bezier || kind == RotationInterpolation::CubicSpline) return true;
  }
  return false;
}

// Samples per second the lines are fitted on: a whole multiple of the clip's own rate, at
// least a player's (kPlaybackRate), so every frame of the clip is a sample and a viewer's
// 120 Hz steps see no curve between samples (the mannequin's 30 fps walk: 120 Hz).
double sampleRateFor(const Clip& clip) { return clip.frameRate * std::ceil(kPlaybackRate / clip.frameRate - 1e-9); }

// The samples times the joints, refused past the bake's limit before they are allocated.
std::optional<std::string> sizeRefusal(const Skeleton& skeleton, const Clip& clip, double rate) {
  const double samples = std::round(clip.duration() * rate) + 1.0;
  const double jointSamples = samples * std::max(skeleton.jointCount(), 1);
  if (std::isfinite(jointSamples) && jointSamples <= kMaxBakeJointFrames) return std::nullopt;
  std::ostringstream text;
  text << std::setprecision(3) << "clip '" << clip.name << "' lasts " << clip.duration() << " s: " << samples
       << " samples at " << rate << " Hz x " << skeleton.jointCount() << " joints is more than the "
       << kMaxBakeJointFrames / 1e6 << " million joint-frames its linear keys are fitted on (keep its cubic keys)";
  return text.str();
}

// `clip` as linear keys fitted on samples at sampleRateFor(clip); its frame rate unchanged.
Result<KeyReductionReport> linearized(const Skeleton& skeleton, const Clip& clip, float toleranceModel, Clip& output) {
  const double rate = sampleRateFor(clip);
  if (auto refusal = sizeRefusal(skeleton, clip, rate)) return makeError(*refusal);
  Clip sampled = clip;
  sampled.frameRate = rate;
  KeyReductionJob job;
  job.skeleton = &skeleton;
  job.source = &sampled;
  job.options.toleranceModel = toleranceModel;
  job.options.interpolation = KeyInterpolation::Linear;
  job.output = &output;
  auto report = job.run();
  if (report) output.frameRate = clip.frameRate;
  return report;
}

}  // namespace

bool hasCubicSegments(const Clip& clip) {
  for (const JointTrack& track : clip.tracks) {
    if (vec3HasBezierSegment(track.translation) || vec3HasBezierSegment(track.scale) ||
        rotationHasCubicSegment(track.rotation))
      return true;
  }
  return false;
}

std::optional<std::string> LinearKeysJob::validate() const {
  if (scene == nullptr) return std::string("linear keys: no scene");
  if (!(toleranceModel > 0.0f) || !std::isfinite(toleranceModel)) {
    return "linear keys: the tolerance must be a positive distance (got " + std::to_string(toleranceModel) + ")";
  }
  if (auto error = scene->skeleton.validate()) return "linear keys: " + *error;
  return std::nullopt;
}

Result<LinearKeysReport> LinearKeysJob::run() const {
  if (auto error = validate()) return makeError(*error);
  LinearKeysReport report;
  std::vector<std::pair<std::size_t, Clip>> converted;
  for (std::size_t c = 0; c < scene->clips.size(); ++c) {
    const Clip& clip = scene->clips[c];
    if (!hasCubicSegments(clip)) continue;
    Clip lines;
    auto reduced = linearized(scene->skeleton, clip, toleranceModel, lines);
    if (!reduced) return makeError(reduced.error());
    ++report.clipsConverted;
    report.keysBefore += channelKeyCount(clip);
    report.keysAfter += reduced->keysAfter;
    report.maxDeviationModel = std::max(report.maxDeviationModel, reduced->maxDeviationModel);
    converted.emplace_back(c, std::move(lines));
  }
  for (auto& [index, lines] : converted) scene->clips[index] = std::move(lines);
  return report;
}

}  // namespace articula
