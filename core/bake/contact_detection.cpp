#include "core/bake/contact_detection.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/rig/humanoid_map.h"
#include "core/skeleton/local_to_model.h"

namespace articula {

float jointExtentAlong(const Skeleton& skeleton, std::span<const Affine> model, const Vec3& up) {
  float lo = std::numeric_limits<float>::max();
  float hi = std::numeric_limits<float>::lowest();
  for (int j = 0; j < skeleton.jointCount(); ++j) {
    if (skeleton.kind(j) == NodeKind::Transform) continue;
    const float h = model[static_cast<std::size_t>(j)].translation().dot(up);
    lo = std::min(lo, h);
    hi = std::max(hi, h);
  }
  return hi > lo ? hi - lo : 0.0f;
}

Result<std::vector<FootJoints>> humanoidFeet(const Skeleton& skeleton) {
  auto map = mapHumanoid(skeleton);
  if (!map) return makeError(map.error());
  auto foot = [](const char* curve, const HumanoidLeg& leg) {
    return FootJoints{curve, leg.ankle, leg.toe, leg.footBesideLeg() ? leg.legTip : -1};
  };
  return std::vector<FootJoints>{foot("contact.left_foot", map->leftLeg), foot("contact.right_foot", map->rightLeg)};
}

namespace {

// A foot's length as a fraction of the character's height: a clip whose feet end within it
// of where they started is an in-place cycle.
constexpr float kFootLengthOfHeight = 0.15f;
// On an in-place cycle, a foot moving against the treadmill by less than this share of the
// treadmill's speed is still (ContactDetectionOptions::speedThreshold left to derive).
constexpr float kTreadmillSpeedShare = 0.75f;
// Half the time over which a joint's speed is measured: 2 frames at 120 fps, 1 at 60 or 30.
constexpr double kSpeedHalfWindowSeconds = 1.0 / 60.0;

// Heights and horizontal speeds of one joint over the clip's frames, in model space.
struct JointMotion {
  std::vector<float> floor;   // the joint's local floor level along the up (localFloor)
  std::vector<float> height;  // above that floor level
  std::vector<float> speed;   // horizontal (XZ) speed, units per second
};

// Per frame, the joint's floor level there: a low percentile (the 5th) of its heights within
// `window` frames either side. Local rather than one level for the clip, because captured
// ground is rarely level in model space (the CMU walk 02_01 climbs by a quarter of a step's
// lift over its three strides); a percentile rather than the minimum, so a stray frame (the
// reference pose CMU files start with, a glitch) does not set it. O(frames × window).
std::vector<float> localFloor(const std::vector<float>& heights, std::size_t window) {
  const std::size_t n = heights.size();
  std::vector<float> floor(n);
  std::vector<float> scratch;
  scratch.reserve(std::min(n, 2 * window + 1));
  for (std::size_t i = 0; i < n; ++i) {
    const std::size_t first = i > window ? i - window : 0;
    const std::size_t last = std::min(n - 1, i + window);
    scratch.assign(heights.begin() + static_cast<std::ptrdiff_t>(first),
                   heights.begin() + static_cast<std::ptrdiff_t>(last + 1));
    const auto k = static_cast<std::ptrdiff_t>(scratch.size() / 20);
    std::nth_element(scratch.begin(), scratch.begin() + k, scratch.end());
    floor[i] = scratch[static_cast<std::size_t>(k)];
  }
  return floor;
}

Vec3 across(const Vec3& v, const Vec3& up) { return v - up * up.dot(v); }

// Velocity across the up at frame i, units per second: a central difference over the same
// time whatever the frame rate (kSpeedHalfWindowSeconds each side, at least a frame), so a
// capture resampled from 120 to 60 fps reads the same speeds at the frames both share and
// its contacts start and end at the same times (a difference over one frame each side made
// 120 fps speeds noisier than 60 fps ones: CMU 09_11's spans started 5 frames apart).
Vec3 groundPlaneVelocity(const std::vector<Vec3>& positions, std::size_t i, double frameRate, const Vec3& up) {
  const auto h = static_cast<std::size_t>(std::max(1L, std::lround(kSpeedHalfWindowSeconds * frameRate)));
  const std::size_t a = i >= h ? i - h : 0;
  const std::size_t b = std::min(positions.size() - 1, i + h);
  if (a == b) return Vec3::Zero();
  return across(positions[b] - positions[a], up) * static_cast<float>(frameRate / static_cast<double>(b - a));
}

// Heights along `up` and speeds across it, relative to a ground moving at `groundVelocity`.
JointMotion jointMotion(const std::vector<Vec3>& positions, double frameRate, std::size_t floorWindow, const Vec3& up,
                        const Vec3& groundVelocity) {
  JointMotion m;
  const std::size_t n = positions.size();
  std::vector<float> heights(n);
  for (std::size_t i = 0; i < n; ++i) heights[i] = positions[i].dot(up);
  m.floor = localFloor(heights, floorWindow);
  m.height.resize(n);
  m.speed.resize(n);
  for (std::size_t i = 0; i < n; ++i) {
    m.height[i] = heights[i] - m.floor[i];
    m.speed[i] = (groundPlaneVelocity(positions, i, frameRate, up) - groundVelocity).norm();
  }
  return m;
}

// Rest-pose extent of the joints along `up`: the character's height in its own up, whatever
// the file's axes (Scene::characterHeight measures along Y).
float heightAlong(const Skeleton& skeleton, const Vec3& up) {
  const float extent = jointExtentAlong(skeleton, localToModel(skeleton, skeleton.restPose()), up);
  return extent > 0.0f ? std::max(extent, 1e-3f) : 1.0f;
}

// Of an even count, the middle value nearer zero (the slower treadmill): so median(-v) =
// -median(v), and a capture turned from Y-up to Z-up (an axis negated) finds the same one.
float median(std::vector<float> values) {
  const auto mid = values.begin() + static_cast<std::ptrdiff_t>(values.size() / 2);
  std::nth_element(values.begin(), mid, values.end());
  if (values.size() % 2 == 1) return *mid;
  const float below = *std::max_element(values.begin(), mid);
  return std::abs(below) < std::abs(*mid) ? below : *mid;
}

// The treadmill of an in-place cycle: per axis, the median velocity of the ankles over
// their low frames (within `lowHeight` of the clip's 5th-percentile height), where a planted
// foot moves with the ground. Zero when a still ground explains more of those frames (a foot
// still within `stillSpeed` against it) than the moving one (within kTreadmillSpeedShare of
// its speed): feet that stand, then shuffle, are not on a treadmill.
Vec3 treadmillVelocity(const std::vector<std::vector<Vec3>>& ankles, double frameRate, const Vec3& up,
                       float lowHeight, float stillSpeed) {
  std::vector<Vec3> lows;
  std::vector<float> vx, vy, vz;
  for (const std::vector<Vec3>& track : ankles) {
    std::vector<float> heights(track.size());
    for (std::size_t i = 0; i < track.size(); ++i) heights[i] = track[i].dot(up);
    const float floor = localFloor(heights, track.size())[0];
    for (std::size_t i = 0; i < track.size(); ++i) {
      if (heights[i] - floor >= lowHeight) continue;
      const Vec3 v = groundPlaneVelocity(track, i, frameRate, up);
      lows.push_back(v);
      vx.push_back(v.x());
      vy.push_back(v.y());
      vz.push_back(v.z());
    }
  }
  if (vx.empty()) return Vec3::Zero();
  const Vec3 ground = across(Vec3(median(vx), median(vy), median(vz)), up);
  const float movingSpeed = std::max(stillSpeed, kTreadmillSpeedShare * ground.norm());
  const auto onTreadmill =
      std::count_if(lows.begin(), lows.end(), [&](const Vec3& v) { return (v - ground).norm() < movingSpeed; });
  const auto onStillGround =
      std::count_if(lows.begin(), lows.end(), [&](const Vec3& v) { return v.norm() < stillSpeed; });
  return onTreadmill > onStillGround ? ground : Vec3::Zero();
}

// Low-and-still with hysteresis: enter below the thresholds, leave above release × them.
std::vector<bool> plantedFrames(const JointMotion& m, float heightThreshold, float speedThreshold, float release) {
  std::vector<bool> planted(m.height.size(), false);
  bool state = false;
  for (std::size_t i = 0; i < planted.size(); ++i) {
    if (!state) {
      state = m.height[i] < heightThreshold && m.speed[i] < speedThreshold;
    } else {
      state = !(m.height[i] > release * heightThreshold || m.speed[i] > release * speedThreshold);
    }
    planted[i] = state;
  }
  return planted;
}

std::vector<ContactInterval> intervalsOf(const std::vector<bool>& planted, int minGap, int minLength) {
  std::vector<ContactInterval> runs;
  for (int i = 0; i < static_cast<int>(planted.size()); ++i) {
    if (!planted[static_cast<std::size_t>(i)]) continue;
    if (!runs.empty() && i - runs.back().last - 1 < minGap) {
      runs.back().last = i;
    } else if (runs.empty() || runs.back().last != i - 1) {
      runs.push_back({i, i});
    } else {
      runs.back().last = i;
    }
  }
  std::erase_if(runs, [&](const ContactInterval& r) { return r.last - r.first + 1 < minLength; });
  return runs;
}

// The frames of `contacts` where `keep(frame)` holds, as intervals.
template <typename Keep>
std::vector<ContactInterval> framesWithin(const std::vector<ContactInterval>& contacts, Keep keep) {
  std::vector<ContactInterval> runs;
  for (const ContactInterval& c : contacts) {
    for (int i = c.first; i <= c.last; ++i) {
      if (!keep(static_cast<std::size_t>(i))) continue;
      if (!runs.empty() && runs.back().last == i - 1)
        runs.back().last = i;
      else
        runs.push_back({i, i});
    }
  }
  return runs;
}

// Stride curve: 1 over each contact, 0 elsewhere, with eased ramps placed outside the
// contact (so the foot is fully planted for every contact frame). Auto-clamped handles are
// flat at 0 and 1, which makes each ramp an ease-in-out.
Curve strideCurve(const std::vector<ContactInterval>& contacts, double start, double frameRate, int lastFrame,
                  double transition) {
  std::vector<CurveKey> keys;
  auto key = [&](double t, double v) {
    CurveKey k;
    k.time = t;
    k.value = v;
    k.interpolation = Interpolation::Bezier;
    k.leftType = k.rightType = HandleType::AutoClamped;
    keys.push_back(k);
  };
  const double dt = 1.0 / frameRate;
  const double end = start + lastFrame * dt;
  if (contacts.empty()) {
    key(start, 0.0);
    return Curve(std::move(keys));
  }
  for (std::size_t c = 0; c < contacts.size(); ++c) {
    const double t0 = start + contacts[c].first * dt;
    const double t1 = start + contacts[c].last * dt;
    // Ramps never reach into the neighbouring contact: at most half the gap.
    const double before = c == 0 ? transition : std::min(transition, 0.5 * (t0 - (start + contacts[c - 1].last * dt)));
    const double after =
        c + 1 == contacts.size() ? transition : std::min(transition, 0.5 * (start + contacts[c + 1].first * dt - t1));
    if (contacts[c].first > 0) key(std::max(start, t0 - before), 0.0);
    key(t0, 1.0);
    if (t1 > t0) key(t1, 1.0);
    if (contacts[c].last < lastFrame) key(std::min(end, t1 + after), 0.0);
  }
  return Curve(std::move(keys));
}

}  // namespace

Result<ContactDetection> detectContacts(const Scene& scene, Clip& clip, const std::vector<FootJoints>& feet,
                                        const ContactDetectionOptions& options) {
  const Skeleton& skeleton = scene.skeleton;
  if (!(clip.frameRate > 0.0) || !std::isfinite(clip.frameRate))
    return makeError("clip '" + clip.name + "': the frame rate must be positive");
  // frameCount() counts frames from start to end inclusive; the last one is frameCount() - 1.
  const int lastFrame = clip.frameCount() - 1;
  if (lastFrame < 2) return makeError("clip '" + clip.name + "': too short to find contacts (fewer than 3 frames)");
  if (feet.empty()) return makeError("no feet given to find contacts for");
  for (const FootJoints& foot : feet) {
    if (foot.ankle < 0 || foot.ankle >= skeleton.jointCount()) {
      return makeError("foot '" + foot.curveName + "': ankle joint " + std::to_string(foot.ankle) +
                       " does not exist (the skeleton has " + std::to_string(skeleton.jointCount()) + " nodes)");
    }
    if (foot.toe < -1 || foot.toe >= skeleton.jointCount()) {
      return makeError("foot '" + foot.curveName + "': toe joint " + std::to_string(foot.toe) +
                       " does not exist (the skeleton has " + std::to_string(skeleton.jointCount()) + " nodes)");
    }
  }
  if (!(options.release >= 1.0f) || !std::isfinite(options.release)) {
    return makeError("contact detection: release must be a finite factor of at least 1 (hysteresis)");
  }
  if (!(options.minContactSeconds >= 0.0) || !(options.minGapSeconds >= 0.0) || !(options.transitionSeconds >= 0.0) ||
      !(options.floorWindowSeconds >= 0.0) ||
      !std::isfinite(options.minContactSeconds + options.minGapSeconds + options.transitionSeconds +
                     options.floorWindowSeconds)) {
    return makeError(
        "contact detection: minimum lengths, the floor window and the transition must be finite and not negative");
  }

  if (!(options.upModel.norm() > 0.0f) || !options.upModel.allFinite())
    return makeError("contact detection: the up vector is zero or not finite");
  const Vec3 up = options.upModel.normalized();
  const float height = heightAlong(skeleton, up);
  ContactDetection result;
  result.characterHeight = height;
  result.heightThreshold = options.heightThreshold > 0.0f ? options.heightThreshold : 0.03f * height;
  result.speedThreshold = options.speedThreshold > 0.0f ? options.speedThreshold : 0.15f * height;
  result.frameCount = lastFrame + 1;

  // Model-space positions of every ankle and toe at every frame.
  const std::size_t frames = static_cast<std::size_t>(lastFrame) + 1;
  std::vector<std::vector<Vec3>> ankles(feet.size(), std::vector<Vec3>(frames, Vec3::Zero()));
  std::vector<std::vector<Vec3>> toes(feet.size(), std::vector<Vec3>(frames, Vec3::Zero()));
  Pose pose(skeleton.restPose().begin(), skeleton.restPose().end());
  std::vector<Affine> model(pose.size(), Affine::Identity());
  ClipSampler sampler(&clip);
  LocalToModelJob fk;
  fk.skeleton = &skeleton;
  fk.local = pose;
  fk.model = model;
  for (std::size_t i = 0; i < frames; ++i) {
    const double t = std::min(clip.endTime, clip.startTime + static_cast<double>(i) / clip.frameRate);
    sampler.sample(t, pose);
    fk.run();
    for (std::size_t f = 0; f < feet.size(); ++f) {
      ankles[f][i] = model[static_cast<std::size_t>(feet[f].ankle)].translation();
      // A foot without a toe joint leaves its toe track unset: only the ankle is read.
      if (feet[f].toe >= 0) toes[f][i] = model[static_cast<std::size_t>(feet[f].toe)].translation();
      if (!ankles[f][i].allFinite() || (feet[f].toe >= 0 && !toes[f][i].allFinite()))
        return makeError("clip '" + clip.name + "': the pose of foot '" + feet[f].curveName +
                         "' is not finite at frame " + std::to_string(i));
    }
  }

  float travel = 0.0f;
  for (const std::vector<Vec3>& track : ankles)
    travel = std::max(travel, across(track.back() - track.front(), up).norm());
  result.inPlace = travel < kFootLengthOfHeight * height;
  if (result.inPlace) {
    result.groundVelocityModel =
        treadmillVelocity(ankles, clip.frameRate, up, result.heightThreshold, result.speedThreshold);
    result.inPlace = result.groundVelocityModel.squaredNorm() > 0.0f;
    // A game cycle's stance foot keeps the treadmill's direction but not its pace (the
    // animator's spacing eases in and out), so on the treadmill a foot counts as still while
    // its speed against the ground stays within a share of the ground's own speed.
    if (!(options.speedThreshold > 0.0f))
      result.speedThreshold =
          std::max(result.speedThreshold, kTreadmillSpeedShare * result.groundVelocityModel.norm());
  }

  const int minLength = std::max(1, static_cast<int>(std::lround(options.minContactSeconds * clip.frameRate)));
  const int minGap = std::max(0, static_cast<int>(std::lround(options.minGapSeconds * clip.frameRate)));
  const auto floorWindow = static_cast<std::size_t>(std::lround(options.floorWindowSeconds * clip.frameRate));
  std::map<std::string, Curve> curves;
  for (std::size_t f = 0; f < feet.size(); ++f) {
    FootContacts contacts;
    contacts.curveName = feet[f].curveName;
    for (std::size_t i = 0; i < frames; ++i) {
      contacts.ankleHeightModel.push_back(ankles[f][i].dot(up));
      if (feet[f].toe >= 0) contacts.toeHeightModel.push_back(toes[f][i].dot(up));
    }
    const Vec3& ground = result.groundVelocityModel;
    const JointMotion ankleMotion = jointMotion(ankles[f], clip.frameRate, floorWindow, up, ground);
    std::vector<bool> foot = plantedFrames(ankleMotion, result.heightThreshold, result.speedThreshold, options.release);
    std::vector<bool> toe(frames, false);
    if (feet[f].toe >= 0) {
      toe = plantedFrames(jointMotion(toes[f], clip.frameRate, floorWindow, up, ground), result.heightThreshold,
                          result.speedThreshold, options.release);
      for (std::size_t i = 0; i < frames; ++i) foot[i] = foot[i] || toe[i];
    }
    contacts.foot = intervalsOf(foot, minGap, minLength);
    // Within a contact the ankle is held wherever it is low, whatever its speed: a heel
    // rising about the toe, or still coming down, is a sliding foot to anyone who measures
    // the ankle. The toe holds where it is planted once the ankle has lifted.
    const auto ankleLow = [&](std::size_t i) { return ankleMotion.height[i] < result.heightThreshold; };
    contacts.ankle = framesWithin(contacts.foot, ankleLow);
    contacts.toe = framesWithin(contacts.foot, [&](std::size_t i) { return toe[i] && !ankleLow(i); });
    contacts.ankleFloorModel = ankleMotion.floor;
    curves[contacts.curveName] =
        strideCurve(contacts.foot, clip.startTime, clip.frameRate, lastFrame, options.transitionSeconds);
    result.feet.push_back(std::move(contacts));
  }
  // Only now, with everything computed, touch the clip.
  for (auto& [name, curve] : curves) clip.curves[name] = std::move(curve);
  return result;
}

}  // namespace articula
