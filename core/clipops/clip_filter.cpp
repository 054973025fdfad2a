#include "core/clipops/clip_filter.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <set>
#include <sstream>

#include "core/bake/bake_pipeline.h"
#include "core/bake/key_reduction.h"
#include "core/clipops/butterworth.h"
#include "core/clipops/clip_splice.h"
#include "core/clipops/dense_filters.h"

namespace articula {
namespace {

std::optional<double> parseNumber(std::string_view text) {
  double value = 0.0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size() || !std::isfinite(value)) return std::nullopt;
  return value;
}

std::vector<std::string_view> splitColons(std::string_view word) {
  std::vector<std::string_view> parts;
  std::size_t start = 0;
  while (true) {
    const std::size_t colon = word.find(':', start);
    parts.push_back(word.substr(start, colon == std::string_view::npos ? std::string_view::npos : colon - start));
    if (colon == std::string_view::npos) return parts;
    start = colon + 1;
  }
}

std::string formatNumber(double value) {
  std::ostringstream text;
  text << value;
  return text.str();
}

const char* kindName(FilterKind kind) {
  switch (kind) {
    case FilterKind::Butterworth:
      return "butterworth";
    case FilterKind::Unroll:
      return "unroll";
    case FilterKind::Resample:
      return "resample";
    case FilterKind::Peaks:
      return "peaks";
    case FilterKind::Reduce:
      return "reduce";
  }
  return "";
}

// Frames the range needs at least for the filter to mean something.
int minimumFrames(const FilterSettings& settings) {
  switch (settings.kind) {
    case FilterKind::Butterworth:
      return butterworthMinimumFrames(settings.order);
    case FilterKind::Peaks:
      return 3;
    case FilterKind::Resample:
    case FilterKind::Reduce:
      return 2;
    case FilterKind::Unroll:
      return 1;
  }
  return 1;
}

std::optional<std::string> checkSettings(const FilterSettings& s, double frameRate) {
  const std::string name = kindName(s.kind);
  switch (s.kind) {
    case FilterKind::Butterworth:
      if (s.order < 1 || s.order > kMaxButterworthOrder)
        return name + ": order " + std::to_string(s.order) + " is outside 1.." + std::to_string(kMaxButterworthOrder);
      if (!(s.cutoffHz > 0.0) || !(s.cutoffHz < frameRate / 2.0))
        return name + ": cutoff " + formatNumber(s.cutoffHz) + " Hz must lie between 0 and half the frame rate (" +
               formatNumber(frameRate / 2.0) + " Hz)";
      return std::nullopt;
    case FilterKind::Resample:
      if (!(s.rateHz > 0.0) || !std::isfinite(s.rateHz) || s.rateHz > 1000.0)
        return name + ": rate " + formatNumber(s.rateHz) + " must be a number of keys per second in (0, 1000]";
      return std::nullopt;
    case FilterKind::Peaks:
      if (!(s.peakFactor > 1.0) || !std::isfinite(s.peakFactor))
        return name + ": factor " + formatNumber(s.peakFactor) + " must be a number above 1";
      return std::nullopt;
    case FilterKind::Reduce:
      if (!(s.toleranceModel > 0.0f) || !std::isfinite(s.toleranceModel))
        return name + ": the tolerance must be a positive distance";
      return std::nullopt;
    case FilterKind::Unroll:
      return std::nullopt;
  }
  return std::nullopt;
}

// The selected joints' tracks alone, for sampling.
Clip selectedTracks(const Clip& clip, const std::vector<int>& joints) {
  Clip part;
  part.frameRate = clip.frameRate;
  part.startTime = clip.startTime;
  part.endTime = clip.endTime;
  const std::set<int> wanted(joints.begin(), joints.end());
  for (const JointTrack& track : clip.tracks) {
    if (wanted.contains(track.joint)) part.tracks.push_back(track);
  }
  return part;
}

struct FilterRun {
  const ClipFilterJob& job;
  int first = 0;
  int last = 0;

  // Samples the range, runs `filter` on the samples and returns the range's keys. Frames
  // outside the range are not read: a capture's T-pose first frame left out of the range
  // must not bleed into it.
  template <typename Filter>
  std::vector<JointTrack> throughSamples(const Filter& filter) const {
    DenseClip dense = sampleDense(*job.skeleton, selectedTracks(*job.clip, job.joints), first, last);
    filter(dense);
    return perFrameTracks(dense);
  }

  std::vector<JointTrack> butterworth() const {
    const FilterSettings& s = job.settings;
    // Long enough for the response to settle: two periods of the cutoff, and scipy's padding.
    const int pad = std::max(3 * (s.order + 1), static_cast<int>(std::ceil(2.0 * job.clip->frameRate / s.cutoffHz)));
    return throughSamples([&](DenseClip& dense) { butterworthDense(dense, s.order, s.cutoffHz, pad); });
  }

  std::vector<JointTrack> peaks(int& replaced) const {
    return throughSamples(
        [&](DenseClip& dense) { replaced = removePeaksDense(dense, 0, dense.frames - 1, job.settings.peakFactor); });
  }

  std::vector<JointTrack> reduce() const {
    const DenseClip dense = sampleDense(*job.skeleton, selectedTracks(*job.clip, job.joints), first, last);
    KeyReductionOptions options;
    options.toleranceModel = job.settings.toleranceModel;
    options.keepTimes = {dense.timeOf(0), dense.timeOf(dense.frames - 1)};  // the range's ends stay where they are
    options.keysForAFile = false;  // the fewest keys for the animator, not a file's fewest bytes
    std::vector<JointTrack> tracks;
    reduceDenseClip(*job.skeleton, job.skeleton->restPose(), dense, options, tracks);
    return tracks;
  }

  // Keys every `1 / rateHz` s from the range's start, and at its end, sampled from the clip.
  std::vector<JointTrack> resample() const {
    const Clip part = selectedTracks(*job.clip, job.joints);
    const double start = job.clip->timeOf(first);
    const double end = job.clip->timeOf(last);
    DenseClip dense;
    dense.startTime = start;
    dense.frameRate = job.settings.rateHz;
    for (const JointTrack& track : part.tracks) {
      DenseTrack& out = dense.tracks.emplace_back();
      out.joint = track.joint;
      out.translates = !track.translation.empty();
      out.rotates = !track.rotation.empty();
      out.scales = !track.scale.empty();
    }
    ClipSampler sampler(&part);
    Pose pose(job.skeleton->restPose().begin(), job.skeleton->restPose().end());
    const int steps = static_cast<int>(std::floor((end - start) * job.settings.rateHz + 1e-6));
    for (int k = 0; k <= steps; ++k) {
      sampler.sample(dense.timeOf(k), pose);
      dense.appendFrame(pose);
    }
    std::vector<JointTrack> tracks = perFrameTracks(dense);
    if (sameKeyTime(dense.timeOf(steps), end)) return tracks;
    sampler.sample(end, pose);
    for (JointTrack& track : tracks) appendKeyAt(track, end, pose[static_cast<std::size_t>(track.joint)]);
    return tracks;
  }
};

}  // namespace

Result<FilterSettings> parseFilter(std::string_view word) {
  const std::vector<std::string_view> parts = splitColons(word);
  const std::string quoted = "--filter '" + std::string(word) + "': ";
  FilterSettings settings;
  auto number = [&](std::size_t i) { return i < parts.size() ? parseNumber(parts[i]) : std::nullopt; };
  if (parts[0] == "butterworth" && (parts.size() == 2 || parts.size() == 3)) {
    const auto cutoff = number(1);
    const auto order = parts.size() == 3 ? number(2) : std::optional<double>(2.0);
    if (!cutoff || !order || *order != std::floor(*order))
      return makeError(quoted + "expected butterworth:CUTOFF_HZ[:ORDER], e.g. butterworth:6");
    settings.cutoffHz = *cutoff;
    settings.order = static_cast<int>(std::clamp(*order, -1.0, 99.0));
    return settings;
  }
  if (parts[0] == "resample" && parts.size() == 2 && number(1)) {
    settings.kind = FilterKind::Resample;
    settings.rateHz = *number(1);
    return settings;
  }
  if (parts[0] == "peaks" && parts.size() <= 2) {
    settings.kind = FilterKind::Peaks;
    if (parts.size() == 2 && !number(1)) return makeError(quoted + "expected peaks[:FACTOR], e.g. peaks:10");
    if (parts.size() == 2) settings.peakFactor = *number(1);
    return settings;
  }
  if (parts.size() == 1 && parts[0] == "unroll") {
    settings.kind = FilterKind::Unroll;
    return settings;
  }
  if (parts.size() == 1 && parts[0] == "reduce") {
    settings.kind = FilterKind::Reduce;
    return settings;
  }
  return makeError(quoted + "expected butterworth:CUTOFF_HZ[:ORDER], unroll, resample:RATE, peaks[:FACTOR] or reduce");
}

std::string filterWord(const FilterSettings& settings) {
  std::string word = kindName(settings.kind);
  if (settings.kind == FilterKind::Butterworth)
    word += ":" + formatNumber(settings.cutoffHz) + ":" + std::to_string(settings.order);
  if (settings.kind == FilterKind::Resample) word += ":" + formatNumber(settings.rateHz);
  if (settings.kind == FilterKind::Peaks) word += ":" + formatNumber(settings.peakFactor);
  return word;
}

std::optional<std::string> ClipFilterJob::validate() const {
  if (skeleton == nullptr || clip == nullptr) return std::string("filter: no skeleton or clip");
  if (auto error = clip->validate(skeleton->jointCount())) return "clip '" + clip->name + "': " + *error;
  if (auto error = checkSettings(settings, clip->frameRate)) return "clip '" + clip->name + "': " + *error;
  if (joints.empty()) return "clip '" + clip->name + "': no joints to filter";
  bool animated = false;
  for (const int joint : joints) {
    if (joint < 0 || joint >= skeleton->jointCount())
      return "clip '" + clip->name + "': joint " + std::to_string(joint) + " is not in the skeleton";
    animated = animated || clip->findTrack(joint) != nullptr;
  }
  if (!animated)
    return "clip '" + clip->name + "': none of the " + std::to_string(joints.size()) + " joints is animated";
  const int frames = clip->frameCount();
  const int last = lastFrame < 0 ? frames - 1 : lastFrame;
  if (firstFrame < 0 || last >= frames || last < firstFrame)
    return "clip '" + clip->name + "': frames " + std::to_string(firstFrame) + ".." + std::to_string(last) +
           " are not a range of its " + std::to_string(frames) + " frames";
  // Sampled frames x joints, as a bake limits them (a clip whose keys sit 1e9 s apart).
  const double rangeFrames = settings.kind == FilterKind::Resample
                                 ? (clip->timeOf(last) - clip->timeOf(firstFrame)) * settings.rateHz + 2.0
                                 : double(last - firstFrame + 1);
  if (rangeFrames * double(joints.size()) > kMaxBakeJointFrames)
    return "clip '" + clip->name + "': " + std::to_string(joints.size()) + " joints over " + formatNumber(rangeFrames) +
           " frames is past the most a filter samples (" + formatNumber(kMaxBakeJointFrames) + " joint-frames)";
  const int needed = minimumFrames(settings);
  if (last - firstFrame + 1 < needed)
    return "clip '" + clip->name + "': " + kindName(settings.kind) + " needs at least " + std::to_string(needed) +
           " frames, the range has " + std::to_string(last - firstFrame + 1);
  return std::nullopt;
}

Result<FilterResult> ClipFilterJob::run() const {
  if (auto error = validate()) return makeError(*error);
  FilterRun filter{*this, firstFrame, lastFrame < 0 ? clip->frameCount() - 1 : lastFrame};
  const double start = clip->timeOf(filter.first);
  const double end = clip->timeOf(filter.last);
  FilterResult result{*clip, {}};
  FilterReport& report = result.report;
  report.filter = filterWord(settings);
  report.firstFrame = filter.first;
  report.lastFrame = filter.last;
  report.keysBefore = keysInRange(*clip, joints, start, end);
  switch (settings.kind) {
    case FilterKind::Butterworth:
      spliceRange(result.clip, filter.butterworth(), start, end);
      break;
    case FilterKind::Peaks:
      spliceRange(result.clip, filter.peaks(report.framesChanged), start, end);
      break;
    case FilterKind::Reduce:
      spliceRange(result.clip, filter.reduce(), start, end);
      break;
    case FilterKind::Resample:
      spliceRange(result.clip, filter.resample(), start, end);
      if (filter.first == 0 && filter.last == clip->frameCount() - 1 && coversEveryTrack(*clip, joints))
        result.clip.frameRate = settings.rateHz;
      break;
    case FilterKind::Unroll:
      report.framesChanged = unrollRotations(result.clip, joints, start, end);
      break;
  }
  report.keysAfter = keysInRange(result.clip, joints, start, end);
  countChannels(*clip, joints, report.joints, report.channels);
  return result;
}

Result<FilterReport> filterWholeClip(const Skeleton& skeleton, float heightModel, Clip& clip, FilterSettings settings) {
  if (settings.kind == FilterKind::Reduce && settings.toleranceModel == 0.0f)
    settings.toleranceModel = kDefaultToleranceOfHeight * heightModel;
  ClipFilterJob job;
  job.skeleton = &skeleton;
  job.clip = &clip;
  for (const JointTrack& track : clip.tracks) job.joints.push_back(track.joint);
  job.settings = settings;
  auto result = job.run();
  if (!result) return makeError(result.error());
  clip = std::move(result->clip);
  return std::move(result->report);
}

}  // namespace articula
