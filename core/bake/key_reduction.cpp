#include "core/bake/key_reduction.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <set>

#include "core/anim/short_grid.h"
#include "core/bake/channel_fit.h"
#include "core/bake/dense_clip.h"
#include "core/math/quaternion.h"

namespace articula {
namespace {

// Channels start at twice the share of the tolerance that independent errors would allow
// (most chains do not reach it) and offenders are tightened by 0.7 per pass: fewer keys
// than a cautious start, and the measurement still bounds every frame.
constexpr float kInitialBudgetScale = 2.0f;
constexpr float kBudgetTightening = 0.7f;
constexpr int kMaxRefinementPasses = 10;
// The chord (radians, for small turns) of rounding a unit quaternion's components to the
// nearest of glTF's 16-bit steps, half a step each: 2 · |(½, ½, ½, ½) / 32767|. A channel
// quantises only where its chord budget is this many times larger.
constexpr float kShortGridChord = static_cast<float>(2.0 / kShortGridSteps);
constexpr float kShortGridShare = 4.0f;

// How far a channel's error reaches in model space, per joint, from the rest pose:
// `lever` is the farthest node of the joint's subtree (a rotation or scale error of the
// joint moves it by up to error × lever), or the joint's own bone when it has no children;
// `parentScale` is the largest scale of the parent's model matrix (a translation error is
// scaled by it). A measurement after fitting catches what the rest pose does not predict.
struct Reach {
  std::vector<float> lever;
  std::vector<float> parentScale;
};

// Ancestors a node's lever reaches: every one in a character (fingertips sit 12 levels deep),
// a bounded walk in a crafted chain 100,000 deep, where walking to the root from every node
// took minutes. Above that a lever is short, and the measurement after fitting tightens it.
constexpr int kLeverAncestors = 1000;

Reach reachOf(const Skeleton& skeleton) {
  const auto model = localToModel(skeleton, skeleton.restPose());
  const auto n = static_cast<std::size_t>(skeleton.jointCount());
  Reach reach{std::vector<float>(n, 0.0f), std::vector<float>(n, 1.0f)};
  for (std::size_t j = 0; j < n; ++j) {
    const Vec3 p = model[j].translation();
    int walked = 0;
    for (int a = skeleton.parent(static_cast<int>(j)); a != kNoParent && walked < kLeverAncestors;
         a = skeleton.parent(a), ++walked) {
      auto& lever = reach.lever[static_cast<std::size_t>(a)];
      lever = std::max(lever, (p - model[static_cast<std::size_t>(a)].translation()).norm());
    }
    const int parent = skeleton.parent(static_cast<int>(j));
    if (parent != kNoParent)
      reach.parentScale[j] = model[static_cast<std::size_t>(parent)].linear().colwise().norm().maxCoeff();
  }
  for (std::size_t j = 0; j < n; ++j) {
    const int parent = skeleton.parent(static_cast<int>(j));
    if (reach.lever[j] == 0.0f && parent != kNoParent) {
      reach.lever[j] = (model[j].translation() - model[static_cast<std::size_t>(parent)].translation()).norm();
    }
    reach.lever[j] = std::max(reach.lever[j], 1e-6f);
  }
  return reach;
}

// Animated tracks on the longest root-to-leaf path through each joint: errors of that many
// channels can add up at a leaf, so each starts from tolerance / sqrt(count) (errors of
// independent channels rarely align) and measurement tightens where they do.
std::vector<int> chainDepths(const Skeleton& skeleton, const DenseClip& source) {
  const auto n = static_cast<std::size_t>(skeleton.jointCount());
  std::vector<int> animated(n, 0);
  for (const DenseTrack& track : source.tracks) animated[static_cast<std::size_t>(track.joint)] = 1;
  std::vector<int> above(n, 0);
  for (std::size_t j = 0; j < n; ++j) {
    const int parent = skeleton.parent(static_cast<int>(j));
    above[j] = animated[j] + (parent == kNoParent ? 0 : above[static_cast<std::size_t>(parent)]);
  }
  std::vector<int> below(n, 0);
  for (std::size_t j = n; j-- > 0;) {
    const int parent = skeleton.parent(static_cast<int>(j));
    if (parent != kNoParent) {
      auto& b = below[static_cast<std::size_t>(parent)];
      b = std::max(b, animated[j] + below[j]);
    }
  }
  std::vector<int> depth(n);
  for (std::size_t j = 0; j < n; ++j) depth[j] = std::max(1, above[j] + below[j]);
  return depth;
}

void writeVec3Track(const Vec3Fit& fit, std::span<const Vec3> samples, const DenseClip& clip, Vec3Track& track) {
  std::vector<CurveKey> keys[3];
  for (auto& k : keys) k.reserve(fit.frames.size());
  for (std::size_t i = 0; i < fit.frames.size(); ++i) {
    const int frame = fit.frames[i];
    const double time = clip.timeOf(frame);
    const Vec3& value = samples[static_cast<std::size_t>(frame)];
    const bool hasNext = i + 1 < fit.frames.size();
    const Vec3Segment segment = hasNext ? fit.segments[i] : Vec3Segment{};
    const double nextTime = hasNext ? clip.timeOf(fit.frames[i + 1]) : time;
    const Vec3& nextValue = hasNext ? samples[static_cast<std::size_t>(fit.frames[i + 1])] : value;
    for (int c = 0; c < 3; ++c) {
      CurveKey key;
      key.time = time;
      key.value = value[c];
      key.interpolation = segment.bezier ? Interpolation::Bezier : Interpolation::Linear;
      key.leftType = key.rightType = HandleType::Free;
      key.left = Vec2d(time, value[c]);
      // Inner control points at a third of the segment: the Bézier's time is then linear in
      // its parameter, exactly the curve the fit measured.
      const double rightValue = segment.bezier ? segment.control1[c] : value[c] + (nextValue[c] - value[c]) / 3.0;
      key.right = Vec2d(time + (nextTime - time) / 3.0, rightValue);
      if (i > 0) {
        const Vec3Segment& previous = fit.segments[i - 1];
        const double previousTime = clip.timeOf(fit.frames[i - 1]);
        const double previousValue = samples[static_cast<std::size_t>(fit.frames[i - 1])][c];
        const double leftValue = previous.bezier ? previous.control2[c] : value[c] + (previousValue - value[c]) / 3.0;
        key.left = Vec2d(time - (time - previousTime) / 3.0, leftValue);
      }
      keys[c].push_back(key);
    }
  }
  track.x.setKeys(std::move(keys[0]));
  track.y.setKeys(std::move(keys[1]));
  track.z.setKeys(std::move(keys[2]));
}

Quat quatFromCoeffs(const Vec4& xyzw) { return Quat(xyzw.w(), xyzw.x(), xyzw.y(), xyzw.z()); }

Quat onShortGrid(const Quat& tangent) {
  Vec4 rounded;
  for (int c = 0; c < 4; ++c) {
    rounded[c] = static_cast<float>(std::round(tangent.coeffs()[c] * kShortGridSteps) / kShortGridSteps);
  }
  return quatFromCoeffs(rounded);
}

// Normalising a grid point moves each component by its length's miss of 1; below this, far
// less than the half step rounding allows, the writer finds the grid point again.
constexpr double kUnitMissOnGrid = 5e-6;

// The grid point next to `q` (each component rounded down or up) nearest to it among those
// whose length misses 1 by less than kUnitMissOnGrid (the track normalises its keys), or the
// one that misses least.
Quat nearUnitOnShortGrid(const Quat& q) {
  const Eigen::Vector4d scaled = q.coeffs().cast<double>() * kShortGridSteps;
  Eigen::Vector4d best = q.coeffs().cast<double>();
  double bestMiss = std::numeric_limits<double>::infinity();
  double bestDistance = std::numeric_limits<double>::infinity();
  for (int corner = 0; corner < 16; ++corner) {
    Eigen::Vector4d candidate;
    for (int c = 0; c < 4; ++c) {
      const double down = std::floor(scaled[c]);
      const double step = (corner >> c & 1) ? down + 1.0 : down;
      candidate[c] = std::clamp(step, -kShortGridSteps, kShortGridSteps) / kShortGridSteps;
    }
    const double miss = std::abs(candidate.norm() - 1.0);
    const double distance = (candidate - q.coeffs().cast<double>()).norm();
    const bool better =
        miss < kUnitMissOnGrid ? (bestMiss >= kUnitMissOnGrid || distance < bestDistance) : miss < bestMiss;
    if (better) {
      best = candidate;
      bestMiss = miss;
      bestDistance = distance;
    }
  }
  return quatFromCoeffs(best.cast<float>());
}

bool fitsShortGrid(const Quat& tangent) { return tangent.coeffs().cwiseAbs().maxCoeff() <= 1.0f; }

// Rounds a channel's keys to the grid the glTF writer stores as SHORT: the values, and the
// cubic-spline tangents when every one fits in [-1, 1]. Tangents are per second, so a fast
// turn's do not; such a channel stays in floats, values included, since one accessor holds
// both. The measurement after fitting sees the rounded keys, as a reader of the file does.
void quantizeRotationKeys(std::vector<RotationKey>& keys) {
  for (const RotationKey& key : keys) {
    if (!fitsShortGrid(key.inControl) || !fitsShortGrid(key.outControl)) return;
  }
  for (RotationKey& key : keys) {
    key.value = nearUnitOnShortGrid(key.value);
    key.inControl = onShortGrid(key.inControl);
    key.outControl = onShortGrid(key.outControl);
  }
}

// Most parts a slerp segment is cut into for a reader that lerps components.
constexpr int kMaxLerpParts = 8;
// The most Blender may play a joint's lever end away from the slerp, as a share of the
// tolerance: below what the glTF writer allows (GltfExportOptions::componentLerpTolerance,
// 0.44 mm at 1.75 m at the default 1 mm), so it adds no key to the reduced ones (which would
// also take the channel off the 16-bit grid).
constexpr float kLerpApartShare = 0.4f;

// Slerp keys between frames where a segment (one frame long, or fitted with a tight budget)
// turns so far that Blender's per-component lerp parts from the slerp by more than
// `lerpApartChord`: the keys lie on the slerp, so the spec plays the same motion, and each
// part turns 1/n as far, which brings the two readers n³ times closer (RobotExpressive's
// 24 fps feet turn up to 0.25 rad a frame: 1.05 mm apart at 1.75 m with a key per frame).
// `sharedCuts`: a segment that needs a cut takes kMaxLerpParts parts, so channels keyed on
// every frame that are cut on the same segments (the jump from a capture's rest frame to the
// take) keep the same key times.
std::vector<RotationKey> cutForComponentLerp(const std::vector<RotationKey>& keys, float lerpApartChord,
                                             bool sharedCuts) {
  std::vector<RotationKey> cut;
  cut.reserve(keys.size());
  for (std::size_t i = 0; i < keys.size(); ++i) {
    cut.push_back(keys[i]);
    if (i + 1 == keys.size()) break;
    const RotationKey& a = keys[i];
    const RotationKey& b = keys[i + 1];
    const float apart = componentLerpApart(a.value, b.value);
    int parts = 1;
    while (parts < kMaxLerpParts && apart > lerpApartChord * static_cast<float>(parts * parts * parts)) ++parts;
    if (sharedCuts && parts > 1) parts = kMaxLerpParts;
    for (int m = 1; m < parts; ++m) {
      const float u = static_cast<float>(m) / static_cast<float>(parts);
      RotationKey between = a;
      between.time = a.time + static_cast<double>(u) * (b.time - a.time);
      between.value = a.value.slerp(u, b.value);
      cut.push_back(between);
    }
  }
  return cut;
}

// `lerpApartChord`: with slerp keys, how far Blender's per-component lerp may part from the
// slerp between keys (cutForComponentLerp, with `sharedCuts`).
void writeRotationTrack(const RotationFit& fit, std::span<const Quat> samples, const DenseClip& clip, bool quantize,
                        float lerpApartChord, RotationTrack& track, bool sharedCuts = false) {
  std::vector<RotationKey> keys(fit.frames.size());
  for (std::size_t i = 0; i < fit.frames.size(); ++i) {
    RotationKey& key = keys[i];
    key.time = clip.timeOf(fit.frames[i]);
    key.value = samples[static_cast<std::size_t>(fit.frames[i])];
    key.interpolation = RotationInterpolation::Slerp;
    key.inControl = key.outControl = Quat(0.0f, 0.0f, 0.0f, 0.0f);  // zero tangents unless a spline sets them
  }
  // glTF cubic-spline tangents (per second) from the Bézier control points of each segment.
  // A cubic-spline channel is one on every segment, so export writes it as one CUBICSPLINE
  // sampler, key for key. The last key keeps Slerp: spliced into a longer clip, its segment
  // leads to the source's next key.
  for (std::size_t i = 0; i < fit.segments.size(); ++i) {
    const RotationSegment& segment = fit.segments[i];
    if (!segment.cubic) continue;
    RotationKey& a = keys[i];
    RotationKey& b = keys[i + 1];
    const float duration = static_cast<float>(b.time - a.time);
    a.outControl = quatFromCoeffs(3.0f * (segment.control1 - a.value.coeffs()) / duration);
    b.inControl = quatFromCoeffs(3.0f * (b.value.coeffs() - segment.control2) / duration);
  }
  if (fit.cubicSpline) {
    for (std::size_t i = 0; i + 1 < keys.size(); ++i) keys[i].interpolation = RotationInterpolation::CubicSpline;
  } else {
    keys = cutForComponentLerp(keys, lerpApartChord, sharedCuts);
  }
  if (quantize) quantizeRotationKeys(keys);
  track.setKeys(std::move(keys));
}

bool isCubicSpline(const RotationTrack& track) {
  return std::any_of(track.keys().begin(), track.keys().end(),
                     [](const RotationKey& k) { return k.interpolation == RotationInterpolation::CubicSpline; });
}

bool tangentsFitShortGrid(const RotationTrack& track) {
  return std::all_of(track.keys().begin(), track.keys().end(),
                     [](const RotationKey& k) { return fitsShortGrid(k.inControl) && fitsShortGrid(k.outControl); });
}

// How far Blender's lerp may part from a channel's slerps: as fitRotationChannel holds them,
// half the budget, within the cap; a refinement's last pass (budget 0, every frame kept) cuts
// at the cap.
float lerpApartFor(float chordBudget, float lerpApartCap) {
  return chordBudget > 0.0f ? std::min(0.5f * chordBudget, lerpApartCap) : lerpApartCap;
}

// A rotation channel fitted within `chordBudget` (splines allowed with `cubic`) and, with
// `quantize`, where every tangent of that fit lies within the grid's [-1, 1], fitted again
// with the rounding's share taken from the budget and rounded to the grid: a channel that
// stays in floats keeps its whole budget.
// `lerpApartCap`: the most Blender's per-component lerp may part from the slerp between keys
// (chord), whatever the budget.
void fitRotationTrack(std::span<const Quat> samples, std::span<const int> breakpoints, float chordBudget,
                      float lerpApartCap, bool cubic, bool quantize, const DenseClip& clip, RotationTrack& track) {
  const float lerpApart = lerpApartFor(chordBudget, lerpApartCap);
  writeRotationTrack(fitRotationChannel(samples, breakpoints, chordBudget, cubic), samples, clip, false, lerpApart,
                     track);
  if (!quantize || !tangentsFitShortGrid(track)) return;
  writeRotationTrack(fitRotationChannel(samples, breakpoints, chordBudget - kShortGridChord, cubic), samples, clip,
                     true, lerpApart, track);
}

// Bytes a reduced channel costs in a glTF file: per key its time (reduced channels seldom
// share key times) and one element, or three for a cubic spline (in-tangent, value,
// out-tangent); rotations on the SHORT grid take 2 bytes a component, anything else 4.
constexpr std::size_t kTimeBytes = 4;

std::size_t vec3Bytes(const Vec3Track& track) {
  const std::vector<CurveKey>& keys = track.x.keys();
  const bool bezier =
      std::any_of(keys.begin(), keys.end(), [](const CurveKey& k) { return k.interpolation == Interpolation::Bezier; });
  return keys.size() * (kTimeBytes + 3 * 4 * (bezier ? 3 : 1));
}

std::size_t rotationBytes(const RotationTrack& track, bool quantized) {
  const std::vector<RotationKey>& keys = track.keys();
  const bool shorts = quantized && tangentsFitShortGrid(track);
  return keys.size() * (kTimeBytes + 4 * (shorts ? 2 : 4) * (isCubicSpline(track) ? 3 : 1));
}

// A key on every frame: the line between frames is what a per-frame bake plays, so the
// channel is exact but for the rounding to the grid.
template <typename Fit>
Fit everyFrameFit(int frames) {
  Fit fit;
  fit.frames.resize(static_cast<std::size_t>(frames));
  for (int f = 0; f < frames; ++f) fit.frames[static_cast<std::size_t>(f)] = f;
  fit.segments.resize(fit.frames.size() - 1);
  return fit;
}

// A noisy channel (a capture's hips, spine and legs at 1 mm) keeps most frames as a reduced
// channel, each key with a time of its own: keyed on every frame instead it costs the
// elements only, since such channels share one time accessor in the file (the root's
// translation keeps every frame of a capture; cuts for Blender's lerp are shared, see
// cutForComponentLerp), so it is smaller once it keeps two thirds of the frames (CMU 02_01's
// bake: 115,088 -> 98,212 bytes). `quantize`: rounded to the 16-bit grid, as the reduced
// channel was.
void keepSmallerEveryFrame(std::span<const Quat> samples, float lerpApart, bool quantize, const DenseClip& clip,
                           RotationTrack& track) {
  if (clip.frames < 2) return;
  RotationTrack everyFrame;
  writeRotationTrack(everyFrameFit<RotationFit>(clip.frames), samples, clip, quantize, lerpApart, everyFrame, true);
  if (everyFrame.size() * (quantize ? 8 : 16) < rotationBytes(track, quantize)) track = std::move(everyFrame);
}

// A translation or scale channel fitted with lines, or with Bézier segments where those reach
// further; with `fewestBytes`, the Bézier fit only when it costs fewer bytes than lines alone
// (one Bézier segment makes the whole channel a cubic spline in the file).
void fitVec3Track(std::span<const Vec3> samples, std::span<const int> breakpoints, float budget, bool bezier,
                  bool halfways, bool fewestBytes, bool keysForAFile, const DenseClip& clip, Vec3Track& track) {
  const Vec3Fit fit = fitVec3Channel(samples, breakpoints, budget, bezier, halfways);
  writeVec3Track(fit, samples, clip, track);
  const bool anyBezier =
      std::any_of(fit.segments.begin(), fit.segments.end(), [](const Vec3Segment& segment) { return segment.bezier; });
  if (anyBezier && !fewestBytes) return;
  if (anyBezier) {
    Vec3Track lines;
    writeVec3Track(fitVec3Channel(samples, breakpoints, budget, false, false), samples, clip, lines);
    if (vec3Bytes(lines) < vec3Bytes(track)) track = std::move(lines);
  }
  // As keepSmallerEveryFrame does for rotations.
  if (keysForAFile && clip.frames > 1 && static_cast<std::size_t>(clip.frames) * 12 < vec3Bytes(track))
    writeVec3Track(everyFrameFit<Vec3Fit>(clip.frames), samples, clip, track);
}

// Largest model-space distance between the dense source's nodes and the reduced clip's on
// every frame; marks the nodes that exceed `tolerance`. Channels neither animates stay at
// `base` (the rest pose, or the pose the bake started from).
// The joints either clip moves: each animated joint and its descendants, parent first. The
// others stand still at `base` in both, so the measurement leaves them out (a file with a
// million still nodes is measured as fast as its character).
std::vector<int> movedJoints(const Skeleton& skeleton, const DenseClip& source, const Clip& reduced) {
  std::vector<char> moved(static_cast<std::size_t>(skeleton.jointCount()), 0);
  for (const DenseTrack& track : source.tracks) moved[static_cast<std::size_t>(track.joint)] = 1;
  for (const JointTrack& track : reduced.tracks) {
    if (track.joint >= 0 && track.joint < skeleton.jointCount()) moved[static_cast<std::size_t>(track.joint)] = 1;
  }
  std::vector<int> joints;
  for (int j = 0; j < skeleton.jointCount(); ++j) {
    const int p = skeleton.parent(j);
    if (p != kNoParent && moved[static_cast<std::size_t>(p)] != 0) moved[static_cast<std::size_t>(j)] = 1;
    if (moved[static_cast<std::size_t>(j)] != 0) joints.push_back(j);
  }
  return joints;
}

float measureDeviation(const Skeleton& skeleton, std::span<const Transform> base, const DenseClip& source,
                       const Clip& reduced, float tolerance, std::vector<bool>& offending) {
  ClipSampler reducedSampler(&reduced);
  Pose sourcePose(base.begin(), base.end());
  Pose reducedPose = sourcePose;
  Pose lerpedPose = sourcePose;
  // Every node placed once at `base`; then, per frame, only the moved ones.
  const std::vector<Affine> baseModel = localToModel(skeleton, base);
  std::vector<Affine> sourceModel = baseModel;
  std::vector<Affine> reducedModel = baseModel;
  std::vector<Affine> lerpedModel = baseModel;
  const std::vector<int> moved = movedJoints(skeleton, source, reduced);
  if (moved.empty()) return 0.0f;  // an empty sub-tree would make each job place every node
  const LocalToModelJob sourceFk{&skeleton, sourcePose, sourceModel, nullptr, kNoParent, moved};
  const LocalToModelJob reducedFk{&skeleton, reducedPose, reducedModel, nullptr, kNoParent, moved};
  const LocalToModelJob lerpedFk{&skeleton, lerpedPose, lerpedModel, nullptr, kNoParent, moved};
  float worst = 0.0f;
  for (int f = 0; f < source.frames; ++f) {
    const double t = source.timeOf(f);
    source.samplePose(f, sourcePose);
    reducedSampler.sample(t, reducedPose);
    for (const int j : moved) lerpedPose[static_cast<std::size_t>(j)] = reducedPose[static_cast<std::size_t>(j)];
    lerpRotationsPerComponent(reduced, t, lerpedPose);
    sourceFk.run();
    reducedFk.run();
    lerpedFk.run();
    for (const int joint : moved) {
      const auto j = static_cast<std::size_t>(joint);
      const Vec3& p = sourceModel[j].translation();
      const float d = std::max((p - reducedModel[j].translation()).norm(), (p - lerpedModel[j].translation()).norm());
      worst = std::max(worst, d);
      if (d > tolerance) offending[j] = true;
    }
  }
  return worst;
}

// Frames of `dense` nearest to `times`, with its first and last frame, ascending.
std::vector<int> keptFrames(const DenseClip& dense, std::span<const double> times) {
  const int last = dense.frames - 1;
  std::set<int> frames{0, last};
  for (const double t : times) {
    const double frame = std::round((t - dense.startTime) * dense.frameRate);
    if (frame >= 0.0 && frame <= last) frames.insert(static_cast<int>(frame));
  }
  return {frames.begin(), frames.end()};
}

}  // namespace

std::optional<std::string> KeyReductionJob::validate() const {
  if (skeleton == nullptr) return std::string("key reduction: no skeleton");
  if (source == nullptr) return std::string("key reduction: no source clip");
  if (output == nullptr) return std::string("key reduction: no output clip");
  if (auto error = skeleton->validate()) return "key reduction: " + *error;
  if (auto error = source->validate(skeleton->jointCount()))
    return "key reduction: clip '" + source->name + "': " + *error;
  if (source->frameCount() == 0) return "key reduction: clip '" + source->name + "' is empty (no keys, no frames)";
  if (!(options.toleranceModel > 0.0f) || !std::isfinite(options.toleranceModel)) {
    return "key reduction: the tolerance must be a positive distance (got " + std::to_string(options.toleranceModel) +
           ")";
  }
  std::vector<const std::vector<double>*> keepLists{&options.keepTimes, &options.chainKeepTimes};
  for (const auto& [joint, times] : options.jointKeepTimes) {
    if (joint < 0 || joint >= skeleton->jointCount())
      return "key reduction: joint " + std::to_string(joint) + " (of the keys to keep) is not in the skeleton";
    keepLists.insert(keepLists.end(), {&times.translation, &times.rotation, &times.scale});
  }
  for (const auto* times : keepLists) {
    for (const double t : *times) {
      if (!std::isfinite(t)) return std::string("key reduction: a time of a key to keep is not finite");
    }
  }
  for (const int joint : options.unseenJoints) {
    if (joint < 0 || joint >= skeleton->jointCount())
      return "key reduction: joint " + std::to_string(joint) + " (whose rotation shows nowhere) is not in the skeleton";
  }
  for (const int joint : options.betweenFramesJoints) {
    if (joint < 0 || joint >= skeleton->jointCount())
      return "key reduction: joint " + std::to_string(joint) + " (a foot to hold between frames) is not in the skeleton";
  }
  for (const int joint : options.chainJoints) {
    if (joint < 0 || joint >= skeleton->jointCount())
      return "key reduction: joint " + std::to_string(joint) + " (of the keys to keep) is not in the skeleton";
  }
  return std::nullopt;
}

// Per node: whether it is one of `joints` or an ancestor of one. Each walk to the root stops
// at a node already marked, so this is linear in the skeleton however deep it is (asking
// isAncestorOrSelf per track and joint was quadratic in a deep chain).
std::vector<bool> ancestorsOrSelf(const Skeleton& skeleton, std::span<const int> joints) {
  std::vector<bool> marked(static_cast<std::size_t>(skeleton.jointCount()), false);
  for (const int joint : joints) {
    for (int a = joint; a != kNoParent && !marked[static_cast<std::size_t>(a)]; a = skeleton.parent(a))
      marked[static_cast<std::size_t>(a)] = true;
  }
  return marked;
}

KeyReductionReport reduceDenseClip(const Skeleton& skeleton, std::span<const Transform> basePose,
                                   const DenseClip& dense, const KeyReductionOptions& options,
                                   std::vector<JointTrack>& tracks) {
  const std::vector<bool> chainCarriers = ancestorsOrSelf(skeleton, options.chainJoints);
  auto carriesChain = [&](int joint) { return bool(chainCarriers[static_cast<std::size_t>(joint)]); };
  // Frames each channel keeps: the shared keep times, the contact times where its track
  // carries a contact chain, and the channel's own keys.
  struct Breakpoints {
    std::vector<int> translation, rotation, scale;
  };
  std::vector<Breakpoints> trackBreakpoints;
  for (const DenseTrack& track : dense.tracks) {
    std::vector<double> shared = options.keepTimes;
    if (carriesChain(track.joint))
      shared.insert(shared.end(), options.chainKeepTimes.begin(), options.chainKeepTimes.end());
    const auto own = options.jointKeepTimes.find(track.joint);
    auto channel = [&](std::vector<double> ChannelKeepTimes::*times) {
      std::vector<double> kept = shared;
      if (own != options.jointKeepTimes.end()) {
        const std::vector<double>& mine = own->second.*times;
        kept.insert(kept.end(), mine.begin(), mine.end());
      }
      return keptFrames(dense, kept);
    };
    trackBreakpoints.push_back({channel(&ChannelKeepTimes::translation), channel(&ChannelKeepTimes::rotation),
                                channel(&ChannelKeepTimes::scale)});
  }

  const Reach reach = reachOf(skeleton);
  const std::vector<int> depth = chainDepths(skeleton, dense);
  const float tolerance = options.toleranceModel;
  const std::size_t trackCount = dense.tracks.size();
  std::vector<float> budget(trackCount);
  for (std::size_t i = 0; i < trackCount; ++i) {
    const DenseTrack& track = dense.tracks[i];
    const int channels = int(track.translates) + int(track.rotates) + int(track.scales);
    budget[i] = kInitialBudgetScale * tolerance /
                std::sqrt(static_cast<float>(depth[static_cast<std::size_t>(track.joint)] * std::max(channels, 1)));
  }

  Clip reduced;
  reduced.tracks.resize(trackCount);
  // Translations that carry a foot are also held between frames where a player steps between
  // them: a foot moved by its own translation (an IK foot) sank 9–13 mm into the floor
  // between the 24 fps frames of RobotExpressive's clips. Rotations are not (their curves are
  // smoother, and twice the keys on every clip paid for it).
  const bool slowClip = dense.frameRate < kPlaybackRate - 1e-3;
  const std::vector<bool> footCarriers = ancestorsOrSelf(skeleton, options.betweenFramesJoints);
  auto heldBetweenFrames = [&](int joint) {
    return slowClip && (options.betweenFramesJoints.empty() || footCarriers[static_cast<std::size_t>(joint)]);
  };
  std::vector<bool> unseen(static_cast<std::size_t>(skeleton.jointCount()), false);
  for (const int joint : options.unseenJoints) unseen[static_cast<std::size_t>(joint)] = true;
  // The last refinement pass keeps every frame in floats: only that reproduces the source.
  std::vector<bool> quantizeTrack(trackCount, options.quantizeRotations);
  const bool cubic = options.interpolation == KeyInterpolation::Cubic;
  auto reduceTrack = [&](std::size_t i) {
    const DenseTrack& source = dense.tracks[i];
    const auto joint = static_cast<std::size_t>(source.joint);
    const Breakpoints& breakpoints = trackBreakpoints[i];
    JointTrack& track = reduced.tracks[i];
    track.joint = source.joint;
    const bool halfways = heldBetweenFrames(source.joint);
    if (source.translates) {
      const float local = budget[i] / reach.parentScale[joint];
      fitVec3Track(source.translation, breakpoints.translation, local, cubic, halfways, options.fewestBytes,
                   options.keysForAFile, dense, track.translation);
    }
    if (source.rotates && !unseen[joint]) {
      const float chordBudget = budget[i] / reach.lever[joint];
      // A budget the rounding to the grid would mostly use up keeps the channel in floats.
      const bool quantize = quantizeTrack[i] && chordBudget > kShortGridChord * kShortGridShare;
      const float lerpApartCap = kLerpApartShare * tolerance / reach.lever[joint];
      fitRotationTrack(source.rotation, breakpoints.rotation, chordBudget, lerpApartCap, cubic, quantize, dense,
                       track.rotation);
      if (options.fewestBytes && isCubicSpline(track.rotation)) {
        // Fewer spline keys can still cost more bytes than the slerps (three elements a key).
        RotationTrack slerps;
        fitRotationTrack(source.rotation, breakpoints.rotation, chordBudget, lerpApartCap, false, quantize, dense,
                         slerps);
        if (rotationBytes(slerps, quantize) < rotationBytes(track.rotation, quantize))
          track.rotation = std::move(slerps);
      }
      if ((!cubic || options.fewestBytes) && options.keysForAFile) {
        keepSmallerEveryFrame(source.rotation, lerpApartFor(chordBudget, lerpApartCap), quantize, dense,
                              track.rotation);
      }
    }
    if (source.scales && !unseen[joint]) {
      // A scale error e moves the farthest child by e × lever (in the joint's space).
      const float local = budget[i] / (reach.lever[joint] * reach.parentScale[joint]);
      fitVec3Track(source.scale, breakpoints.scale, local, cubic, halfways, options.fewestBytes, options.keysForAFile,
                   dense, track.scale);
    }
  };
  for (std::size_t i = 0; i < trackCount; ++i) reduceTrack(i);

  KeyReductionReport report;
  report.framesChecked = dense.frames;
  std::vector<bool> offending(static_cast<std::size_t>(skeleton.jointCount()), false);
  report.maxDeviationModel = measureDeviation(skeleton, basePose, dense, reduced, tolerance, offending);
  // Errors along a chain can add up beyond what the budgets assumed: tighten every track
  // above a node that strayed and fit again, until every frame is within the tolerance. The
  // last pass keeps every frame of those tracks (budget 0), which reproduces the source.
  while (report.maxDeviationModel > tolerance && report.refinementPasses < kMaxRefinementPasses) {
    ++report.refinementPasses;
    const bool lastPass = report.refinementPasses == kMaxRefinementPasses;
    std::vector<int> offendingNodes;
    for (std::size_t node = 0; node < offending.size(); ++node) {
      if (offending[node]) offendingNodes.push_back(static_cast<int>(node));
    }
    const std::vector<bool> aboveOffending = ancestorsOrSelf(skeleton, offendingNodes);
    for (std::size_t i = 0; i < trackCount; ++i) {
      if (!aboveOffending[static_cast<std::size_t>(dense.tracks[i].joint)]) continue;
      budget[i] = lastPass ? 0.0f : budget[i] * kBudgetTightening;
      if (lastPass) quantizeTrack[i] = false;
      reduceTrack(i);
    }
    std::fill(offending.begin(), offending.end(), false);
    report.maxDeviationModel = measureDeviation(skeleton, basePose, dense, reduced, tolerance, offending);
  }

  for (const DenseTrack& track : dense.tracks) {
    report.keysBefore += static_cast<std::size_t>(dense.frames) *
                         (std::size_t(track.translates) + std::size_t(track.rotates) + std::size_t(track.scales));
  }
  report.keysAfter = channelKeyCount(reduced);
  tracks = std::move(reduced.tracks);
  return report;
}

Result<KeyReductionReport> KeyReductionJob::run() const {
  if (auto error = validate()) return makeError(*error);
  const DenseClip dense = sampleDense(*skeleton, *source, 0, source->frameCount() - 1);
  Clip reduced = *source;
  KeyReductionReport report = reduceDenseClip(*skeleton, skeleton->restPose(), dense, options, reduced.tracks);
  report.keysBefore = channelKeyCount(*source);
  *output = std::move(reduced);
  return report;
}

std::size_t channelKeyCount(const Clip& clip) {
  auto vec3Keys = [](const Vec3Track& track) { return std::max({track.x.size(), track.y.size(), track.z.size()}); };
  std::size_t count = 0;
  for (const JointTrack& track : clip.tracks) {
    count += vec3Keys(track.translation) + track.rotation.size() + vec3Keys(track.scale);
  }
  for (const MorphWeightsTrack& track : clip.morphWeights) {
    std::size_t keys = 0;
    for (const Curve& weight : track.weights) keys = std::max(keys, weight.size());
    count += keys;
  }
  return count;
}

const char* keyInterpolationName(KeyInterpolation interpolation) {
  return interpolation == KeyInterpolation::Cubic ? "cubic" : "linear";
}

std::optional<KeyInterpolation> parseKeyInterpolation(std::string_view word) {
  if (word == "linear") return KeyInterpolation::Linear;
  if (word == "cubic") return KeyInterpolation::Cubic;
  return std::nullopt;
}

void lerpRotationsPerComponent(const Clip& clip, double t, std::span<Transform> pose) {
  for (const JointTrack& track : clip.tracks) {
    const std::vector<RotationKey>& keys = track.rotation.keys();
    if (keys.size() < 2 || track.joint < 0 || static_cast<std::size_t>(track.joint) >= pose.size()) continue;
    const auto next = std::upper_bound(keys.begin(), keys.end(), t,
                                       [](double time, const RotationKey& key) { return time < key.time; });
    if (next == keys.begin() || next == keys.end()) continue;
    const RotationKey& a = *(next - 1);
    if (a.interpolation != RotationInterpolation::Slerp) continue;
    const auto u = static_cast<float>((t - a.time) / (next->time - a.time));
    const Vec4 lerped = ((1.0f - u) * a.value.coeffs() + u * next->value.coeffs()).normalized();
    pose[static_cast<std::size_t>(track.joint)].rotation = Quat(lerped.w(), lerped.x(), lerped.y(), lerped.z());
  }
}

float componentLerpDeviation(const Skeleton& skeleton, std::span<const Transform> basePose, const Clip& clip,
                             double rate) {
  ClipSampler sampler(&clip);
  Pose specPose(basePose.begin(), basePose.end());
  Pose lerpedPose = specPose;
  const auto n = static_cast<std::size_t>(skeleton.jointCount());
  std::vector<Affine> specModel(n);
  std::vector<Affine> lerpedModel(n);
  LocalToModelJob specFk{&skeleton, specPose, specModel};
  LocalToModelJob lerpedFk{&skeleton, lerpedPose, lerpedModel};
  const double start = clip.startTime;
  const auto samples = static_cast<int>(std::round(std::max(clip.endTime - start, 0.0) * rate));
  float worst = 0.0f;
  for (int k = 0; k <= samples; ++k) {
    const double t = start + static_cast<double>(k) / rate;
    sampler.sample(t, specPose);
    lerpedPose = specPose;
    lerpRotationsPerComponent(clip, t, lerpedPose);
    specFk.run();
    lerpedFk.run();
    for (std::size_t j = 0; j < n; ++j)
      worst = std::max(worst, (specModel[j].translation() - lerpedModel[j].translation()).norm());
  }
  return worst;
}

std::vector<double> contactKeyTimes(const Clip& clip) {
  std::set<double> times;
  const int frames = clip.frameCount();
  constexpr double kEdge = 1e-3;  // within this of 1 is planted, of 0 is free
  for (const auto& [name, curve] : clip.curves) {
    if (name.rfind("contact.", 0) != 0 || curve.empty()) continue;
    int previousState = -1;  // 1 planted, 0 free, 2 in between
    for (int f = 0; f < frames; ++f) {
      const double v = curve.evaluate(clip.timeOf(f));
      const int state = v >= 1.0 - kEdge ? 1 : (v <= kEdge ? 0 : 2);
      if (f > 0 && state != previousState) {
        // The last frame of the old state and the first of the new one.
        if (previousState != 2) times.insert(clip.timeOf(f - 1));
        if (state != 2) times.insert(clip.timeOf(f));
      }
      previousState = state;
    }
  }
  return {times.begin(), times.end()};
}

}  // namespace articula
