#include "core/bake/bake_job.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include "core/bake/channel_fit.h"
#include "core/bake/dense_clip.h"

namespace articula {
namespace {

constexpr int kProgressEveryFrames = 256;

// A source key this close to the baked range's first or last frame, in frames, is that frame's
// key and the bake replaces it: keys read from a glTF file are float seconds, a few 1e-8 s off
// the frame's double time (RobotExpressive Wave's last key at 1.83333337 s against frame 44's
// 1.83333333 s was kept after the baked one, a jump Blender played 16.5 mm off).
constexpr double kEdgeSlackFrames = 1e-3;

// Keys of `keys` outside [startTime, endTime] (seconds). The last key before and the first
// after the range get Free handles at their current positions: their automatic handles
// would otherwise be recomputed from the new keys next to them, and the curve outside the
// range must not change.
// `slack` (seconds): keys that close outside the range count as inside it.
std::vector<CurveKey> curveKeysOutside(const Curve& curve, double startTime, double endTime, double slack) {
  std::vector<CurveKey> kept;
  const auto& keys = curve.keys();
  for (std::size_t i = 0; i < keys.size(); ++i) {
    const CurveKey& key = keys[i];
    const bool before = key.time < startTime - slack;
    const bool after = key.time > endTime + slack;
    if (!before && !after) continue;
    CurveKey copy = key;
    const bool lastBefore = before && (i + 1 == keys.size() || keys[i + 1].time >= startTime - slack);
    const bool firstAfter = after && (i == 0 || keys[i - 1].time <= endTime + slack);
    if (lastBefore || firstAfter) copy.leftType = copy.rightType = HandleType::Free;
    kept.push_back(copy);
  }
  return kept;
}

std::vector<RotationKey> rotationKeysOutside(const RotationTrack& track, double startTime, double endTime,
                                             double slack) {
  std::vector<RotationKey> kept;
  for (const RotationKey& key : track.keys()) {
    if (key.time < startTime - slack || key.time > endTime + slack) kept.push_back(key);
  }
  return kept;
}

// A channel the reduction kept as one key (it did not move within its budget) holds that
// value to the range's end: spliced before the source's later keys, it would otherwise
// interpolate towards them across the range.
CurveKey heldTo(CurveKey key, double endTime) {
  key.time = endTime;
  key.left = key.right = Vec2d(endTime, key.value);
  return key;
}

// The uncorrected value of a channel just outside the range, for channels only the bake
// animates: keyed there, the clip outside the range stays as it was.
struct Guards {
  std::optional<double> beforeTime, afterTime;
  Pose before, after;
  double edgeSlack = kSameKeyTimeSeconds;  // seconds (kEdgeSlackFrames)
};

void spliceVec3(Vec3Track& destination, const Vec3Track& source, const Vec3Track& baked, double startTime,
                double endTime, const Guards& guards, int joint, bool isScale, bool keepOutside) {
  Curve* dst[3] = {&destination.x, &destination.y, &destination.z};
  const Curve* src[3] = {&source.x, &source.y, &source.z};
  const Curve* add[3] = {&baked.x, &baked.y, &baked.z};
  const bool newChannel = source.empty();
  for (int c = 0; c < 3; ++c) {
    std::vector<CurveKey> keys =
        keepOutside ? curveKeysOutside(*src[c], startTime, endTime, guards.edgeSlack) : std::vector<CurveKey>{};
    keys.insert(keys.end(), add[c]->keys().begin(), add[c]->keys().end());
    if (keepOutside && guards.afterTime && add[c]->size() == 1) keys.push_back(heldTo(add[c]->keys().front(), endTime));
    if (keepOutside && newChannel) {
      auto value = [&](const Pose& pose) {
        const Transform& t = pose[static_cast<std::size_t>(joint)];
        return (isScale ? t.scale : t.translation)[c];
      };
      if (guards.beforeTime) keys.push_back(linearKey(*guards.beforeTime, value(guards.before)));
      if (guards.afterTime) keys.push_back(linearKey(*guards.afterTime, value(guards.after)));
    }
    dst[c]->setKeys(std::move(keys));
  }
}

void spliceRotation(RotationTrack& destination, const RotationTrack& source, const RotationTrack& baked,
                    double startTime, double endTime, const Guards& guards, int joint, bool keepOutside) {
  std::vector<RotationKey> keys =
      keepOutside ? rotationKeysOutside(source, startTime, endTime, guards.edgeSlack) : std::vector<RotationKey>{};
  keys.insert(keys.end(), baked.keys().begin(), baked.keys().end());
  if (keepOutside && guards.afterTime && baked.keys().size() == 1) {
    RotationKey held = baked.keys().front();
    held.time = endTime;
    keys.push_back(held);
  }
  if (keepOutside && source.empty()) {
    for (const auto& [time, pose] :
         {std::pair{guards.beforeTime, &guards.before}, std::pair{guards.afterTime, &guards.after}}) {
      if (!time) continue;
      RotationKey key;
      key.time = *time;
      key.value = (*pose)[static_cast<std::size_t>(joint)].rotation;
      keys.push_back(key);
    }
  }
  destination.setKeys(std::move(keys));
}

// Times of the user's own keys on each channel of the baked joints: keys of channels that
// are not sampled data (a channel with a key on at least every other frame is mocap or a
// per-frame bake).
void addUserKeyTimes(const Clip& source, const std::set<int>& joints, int frames,
                     std::map<int, ChannelKeepTimes>& timesByJoint) {
  auto add = [&](const auto& keys, std::vector<double>& times) {
    if (keys.size() * 2 > static_cast<std::size_t>(frames)) return;
    for (const auto& key : keys) times.push_back(key.time);
  };
  for (const JointTrack& track : source.tracks) {
    if (joints.count(track.joint) == 0) continue;
    ChannelKeepTimes& times = timesByJoint[track.joint];
    for (const Curve* curve : {&track.translation.x, &track.translation.y, &track.translation.z})
      add(curve->keys(), times.translation);
    for (const Curve* curve : {&track.scale.x, &track.scale.y, &track.scale.z}) add(curve->keys(), times.scale);
    add(track.rotation.keys(), times.rotation);
  }
}

// Largest change, in weight units, that reducing a morph-weights track may make: a
// thousandth of a full target.
constexpr float kMorphWeightTolerance = 1e-3f;

// Reduces the morph weights of `result` between frames first and last (every `step`-th)
// to the linear keys that follow `source`'s within kMorphWeightTolerance; keys outside the
// range stay as they are. Weights are copied, not baked, but a per-frame source would
// otherwise outweigh the reduced joints in the file.
void reduceMorphWeights(const Clip& source, int first, int last, int step, Clip& result) {
  const double startTime = source.timeOf(first);
  const double endTime = source.timeOf(last);
  const int frames = (last - first) / step + 1;
  const std::vector<int> ends{0, frames - 1};
  for (MorphWeightsTrack& track : result.morphWeights) {
    const std::size_t width = track.weights.size();
    std::vector<float> samples(static_cast<std::size_t>(frames) * width);
    for (std::size_t c = 0; c < width; ++c) {
      CurveCursor cursor;
      for (int k = 0; k < frames; ++k) {
        const double t = source.timeOf(first + k * step);
        samples[static_cast<std::size_t>(k) * width + c] =
            track.weights[c].empty() ? 0.0f : static_cast<float>(track.weights[c].evaluate(t, cursor));
      }
    }
    const std::vector<int> kept = fitLinearChannel(samples, width, ends, kMorphWeightTolerance);
    for (std::size_t c = 0; c < width; ++c) {
      if (track.weights[c].empty()) continue;
      std::vector<CurveKey> keys =
          curveKeysOutside(track.weights[c], startTime, endTime, kEdgeSlackFrames / source.frameRate);
      for (const int k : kept) {
        keys.push_back(linearKey(source.timeOf(first + k * step), samples[static_cast<std::size_t>(k) * width + c]));
      }
      if (kept.size() == 1 && last < source.frameCount() - 1) keys.push_back(heldTo(keys.back(), endTime));
      track.weights[c].setKeys(std::move(keys));
    }
  }
}

// `clip` with its morph weights and range, its curves (when `copyCurves`) and (when
// `keepOtherTracks`) the tracks of joints the bake did not touch; a baked joint's track is
// left empty, in its place, for the splice to fill. Not a copy of the whole clip: a long
// take's keys would be held twice.
Clip clipWithoutBakedTracks(const Clip& clip, const std::vector<JointTrack>& baked, bool copyCurves,
                            bool keepOtherTracks) {
  Clip result;
  result.name = clip.name;
  result.startTime = clip.startTime;
  result.endTime = clip.endTime;
  result.frameRate = clip.frameRate;
  if (copyCurves) result.curves = clip.curves;
  result.morphWeights = clip.morphWeights;
  if (!keepOtherTracks) return result;
  std::set<int> bakedJoints;
  for (const JointTrack& track : baked) bakedJoints.insert(track.joint);
  for (const JointTrack& track : clip.tracks) {
    if (bakedJoints.count(track.joint) != 0) {
      result.tracks.emplace_back().joint = track.joint;
    } else {
      result.tracks.push_back(track);
    }
  }
  return result;
}

// Whether `misses` (in frame order) already holds `handle` at `frame`: a frame's sub-frame
// samples report a miss once.
bool alreadyUnreached(const std::vector<BakeMiss>& misses, int frame, int handle) {
  for (auto it = misses.rbegin(); it != misses.rend() && it->frame == frame; ++it) {
    if (it->handle == handle) return true;
  }
  return false;
}

}  // namespace

std::optional<std::string> BakeJob::validate() const {
  if (skeleton == nullptr) return std::string("bake: no skeleton");
  if (source == nullptr) return std::string("bake: no source clip");
  if (output == nullptr) return std::string("bake: no output clip");
  if (auto error = skeleton->validate()) return "bake: " + *error;
  const std::string clipName = "bake: clip '" + source->name + "'";
  if (auto error = source->validate(skeleton->jointCount())) return clipName + ": " + *error;
  const int frames = source->frameCount();
  if (frames == 0) return clipName + " is empty (no keys, no frames)";
  const int last = options.lastFrame < 0 ? frames - 1 : options.lastFrame;
  if (options.firstFrame < 0 || last >= frames || options.firstFrame > last) {
    return clipName + ": frame range " + std::to_string(options.firstFrame) + ".." + std::to_string(last) +
           " is not within its frames 0.." + std::to_string(frames - 1);
  }
  if (options.step < 1) return "bake: the frame step must be at least 1 (got " + std::to_string(options.step) + ")";
  if (options.subframes < 1) {
    return "bake: the samples per frame step must be at least 1 (got " + std::to_string(options.subframes) + ")";
  }
  if ((last - options.firstFrame) % options.step != 0) {
    return "bake: the frame range " + std::to_string(options.firstFrame) + ".." + std::to_string(last) +
           " is not a whole number of steps of " + std::to_string(options.step) + " frames";
  }
  for (const int joint : options.joints) {
    if (joint < 0 || joint >= skeleton->jointCount())
      return "bake: joint " + std::to_string(joint) + " is not in the skeleton";
  }
  if (options.reduce) {
    KeyReductionJob reduction{skeleton, source, options.reduction, output};
    if (auto error = reduction.validate()) return "bake: " + *error;
  }
  return std::nullopt;
}

Result<BakeReport> BakeJob::run() const {
  if (auto error = validate()) return makeError(*error);
  const Clip& clip = *source;
  const int first = options.firstFrame;
  const int last = options.lastFrame < 0 ? clip.frameCount() - 1 : options.lastFrame;
  const int step = options.step;
  const int subframes = options.subframes;
  const int total = (last - first) / step * subframes + 1;

  // Joints and channels to bake.
  std::set<int> joints(options.joints.begin(), options.joints.end());
  std::set<int> rotated, translated;
  if (corrector != nullptr) {
    corrector->begin(clip);
    for (const int j : corrector->rotatedJoints()) rotated.insert(j);
    for (const int j : corrector->translatedJoints()) translated.insert(j);
  }
  if (joints.empty()) {
    for (const JointTrack& track : clip.tracks) joints.insert(track.joint);
    joints.insert(rotated.begin(), rotated.end());
    joints.insert(translated.begin(), translated.end());
  }
  DenseClip dense;
  dense.startTime = clip.timeOf(first);
  dense.frameRate = clip.frameRate * subframes / step;
  for (const int joint : joints) {
    const JointTrack* track = clip.findTrack(joint);
    DenseTrack& out = dense.tracks.emplace_back();
    out.joint = joint;
    out.translates = (track != nullptr && !track->translation.empty()) || translated.count(joint) != 0;
    out.rotates = (track != nullptr && !track->rotation.empty()) || rotated.count(joint) != 0;
    out.scales = track != nullptr && !track->scale.empty();
    if (!out.translates && !out.scales) out.rotates = true;  // a joint asked for by name bakes its rotation
    // Room for every frame at once: grown by doubling, a long take's samples could take
    // twice their size at the end.
    if (out.translates) out.translation.reserve(static_cast<std::size_t>(total));
    if (out.rotates) out.rotation.reserve(static_cast<std::size_t>(total));
    if (out.scales) out.scale.reserve(static_cast<std::size_t>(total));
  }
  // The root of the motion: the first translated baked joint in skeleton order (parents
  // come before children, so no translated joint above it is baked).
  const auto root =
      std::find_if(dense.tracks.begin(), dense.tracks.end(), [](const DenseTrack& t) { return t.translates; });
  const int rootJoint = root != dense.tracks.end() ? root->joint : -1;

  BakeReport report;
  ClipSampler sampler(&clip);
  const Pose rest(skeleton->restPose().begin(), skeleton->restPose().end());
  Pose pose = rest;
  Vec3 rootStart = Vec3::Zero();
  std::vector<int> misses;
  // Time of sample k; whether the corrector solves the sub-frame samples after it.
  auto sampleTime = [&](int k) {
    return clip.startTime + (first + static_cast<double>(k) * step / subframes) / clip.frameRate;
  };
  auto solvesBetween = [&](int k) {
    if (options.subframeSpans.empty()) return true;
    const double from = sampleTime(k), to = sampleTime(k + subframes);
    return std::any_of(options.subframeSpans.begin(), options.subframeSpans.end(),
                       [&](const std::pair<double, double>& span) { return span.first < to && span.second > from; });
  };
  std::vector<int> interpolatedFrom;  // samples whose sub-frames are interpolated
  for (int k = 0; k < total; ++k) {
    // The source frame this sample is in (reports name it), and the sample's own time.
    const int frame = first + k / subframes * step;
    const double t = sampleTime(k);
    if (subframes > 1 && k % subframes == 0 && k + 1 < total && !solvesBetween(k)) interpolatedFrom.push_back(k);
    std::copy(rest.begin(), rest.end(), pose.begin());
    sampler.sample(t, pose);
    const bool interpolated =
        k % subframes != 0 && !interpolatedFrom.empty() && interpolatedFrom.back() == k - k % subframes;
    if (corrector != nullptr && !interpolated) {
      if (!corrector->correct(pose, t, clip)) {
        ++report.refusedFrames;
      } else {
        misses.clear();
        corrector->unreachedHandles(misses);
        for (const int handle : misses) {
          if (alreadyUnreached(report.unreached, frame, handle)) continue;
          report.unreached.push_back({frame, handle});
          if (static_cast<std::size_t>(handle) >= report.handleNames.size())
            report.handleNames.resize(static_cast<std::size_t>(handle) + 1);
          if (report.handleNames[static_cast<std::size_t>(handle)].empty()) {
            report.handleNames[static_cast<std::size_t>(handle)] = corrector->handleName(handle);
          }
        }
      }
    }
    if (!options.rootMotion && rootJoint >= 0) {
      Vec3& translation = pose[static_cast<std::size_t>(rootJoint)].translation;
      if (k == 0) rootStart = translation;
      translation.x() = rootStart.x();
      translation.z() = rootStart.z();
    }
    dense.appendFrame(pose);
    if (progress && ((k + 1) % kProgressEveryFrames == 0 || k + 1 == total) && !progress(k + 1, total)) {
      return makeError("bake cancelled");
    }
  }
  for (const int k : interpolatedFrom) dense.interpolateBetween(k, k + subframes);
  report.framesBaked = (last - first) / step + 1;

  std::vector<JointTrack> baked;
  if (options.reduce) {
    KeyReductionOptions reduction = options.reduction;
    // The stride curves drive the corrector, so their starts and ends matter to the joints it
    // moves (and those above them).
    if (options.keyContactEdges) reduction.chainKeepTimes = contactKeyTimes(clip);
    reduction.chainJoints.assign(rotated.begin(), rotated.end());
    reduction.chainJoints.insert(reduction.chainJoints.end(), translated.begin(), translated.end());
    addUserKeyTimes(clip, joints, clip.frameCount(), reduction.jointKeepTimes);
    report.reduction = reduceDenseClip(*skeleton, rest, dense, reduction, baked);
    report.reduced = true;
  } else {
    baked = perFrameTracks(dense);
  }

  // Splice the baked range into the result.
  const double startTime = clip.timeOf(first);
  const double endTime = clip.timeOf(last);
  Clip result = clipWithoutBakedTracks(clip, baked, options.copyCurves, options.keepOutsideRange);
  if (!options.keepOutsideRange) {
    result.startTime = startTime;
    result.endTime = endTime;
  }
  Guards guards;
  guards.edgeSlack = kEdgeSlackFrames / clip.frameRate;
  if (options.keepOutsideRange) {
    auto sampleAt = [&](int frame, Pose& out) {
      out = rest;
      ClipSampler(&clip).sample(clip.timeOf(frame), out);
    };
    if (first > 0) {
      guards.beforeTime = clip.timeOf(first - 1);
      sampleAt(first - 1, guards.before);
    }
    if (last < clip.frameCount() - 1) {
      guards.afterTime = clip.timeOf(last + 1);
      sampleAt(last + 1, guards.after);
    }
  }
  const bool keepOutside = options.keepOutsideRange;
  for (const JointTrack& bakedTrack : baked) {
    const JointTrack* sourceTrack = clip.findTrack(bakedTrack.joint);
    const JointTrack empty;
    const JointTrack& from = sourceTrack != nullptr ? *sourceTrack : empty;
    JointTrack& to = result.trackFor(bakedTrack.joint);
    if (!bakedTrack.translation.empty()) {
      spliceVec3(to.translation, from.translation, bakedTrack.translation, startTime, endTime, guards, bakedTrack.joint,
                 false, keepOutside);
    }
    if (!bakedTrack.rotation.empty()) {
      spliceRotation(to.rotation, from.rotation, bakedTrack.rotation, startTime, endTime, guards, bakedTrack.joint,
                     keepOutside);
    }
    if (!bakedTrack.scale.empty()) {
      spliceVec3(to.scale, from.scale, bakedTrack.scale, startTime, endTime, guards, bakedTrack.joint, true,
                 keepOutside);
    }
  }
  if (options.reduce) reduceMorphWeights(clip, first, last, step, result);
  *output = std::move(result);
  return report;
}

}  // namespace articula
