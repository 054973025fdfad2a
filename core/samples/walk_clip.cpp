// The mannequin's walk: a procedural gait model (pelvis path, foot roll over heel, sole and
// ball, swing arcs, two-bone IK for the legs, counter-swinging arms and spine, a stabilised
// head), sampled at regularly spaced frames into ordinary Bézier keys. The keys' tangents
// come from the model's own derivatives, so the clip stays close to the model between keys
// and an animator can edit it like any hand-keyed cycle.
#include <algorithm>
#include <array>
#include <cmath>
#include <string>

#include "core/math/quaternion.h"
#include "core/samples/mannequin.h"

namespace articula {

namespace {

constexpr double kCycleSeconds = 1.0;
constexpr double kFrameRate = 30.0;
constexpr float kSpeed = 1.4f;  // m/s along +Z
constexpr float kStride = kSpeed * static_cast<float>(kCycleSeconds);
// Gait phase (fraction of the cycle after the left heel strike) of the clip's first frame:
// the left foot flat under the body, the right leg passing it. Starting there keeps every
// stride-curve ramp inside the clip, so both curves loop on a plateau.
constexpr float kClipStartPhase = 0.25f;

// Foot phases, as fractions of the cycle after that foot's heel strike: the foot rolls over
// the heel until flat, stays flat, rolls over the ball, then swings.
constexpr float kFootFlat = 0.08f;
constexpr float kHeelOff = 0.40f;
constexpr float kToeOff = 0.62f;
// Foot pitch about model +X, positive = toes down: toes up at heel strike, heel up at toe-off.
constexpr float kHeelStrikePitchRad = -12.0f * kPi / 180.0f;
constexpr float kToeOffPitchRad = 38.0f * kPi / 180.0f;
// Where the flat foot lands: the ankle is planted where the pelvis will be at this phase.
constexpr float kPlantPhase = 0.25f;
constexpr float kSwingLift = 0.035f;  // extra ankle height mid-swing, m

// Pelvis, in model space: walking lowers it (legs never fully straighten), it bobs twice a
// cycle (lowest just after heel strike), sways over the stance foot, and turns, lists and
// tilts with the legs.
constexpr float kPelvisDrop = 0.06f;
constexpr float kBob = 0.016f;
constexpr float kLowPhase = 0.07f;
constexpr float kSway = 0.022f;
constexpr float kSurge = 0.008f;
constexpr float kYawRad = 5.0f * kPi / 180.0f;
constexpr float kListRad = 3.5f * kPi / 180.0f;
constexpr float kTiltRad = 4.0f * kPi / 180.0f;
constexpr float kTiltWobbleRad = 1.5f * kPi / 180.0f;

// Arms, in the chest's frame: brought down from the A-pose to hang 8° out from the body,
// swinging opposite to the legs with a slight lag; the elbow bends more on the way forward.
constexpr float kArmOutRad = 8.0f * kPi / 180.0f;
constexpr float kArmSwingRad = 17.0f * kPi / 180.0f;
constexpr float kArmBackRad = 3.0f * kPi / 180.0f;
constexpr float kArmLag = 0.04f;
constexpr float kElbowBaseRad = 15.0f * kPi / 180.0f;
constexpr float kElbowSwingRad = 14.0f * kPi / 180.0f;

// Key spacing per group, in frames: the legs carry the foot planting and get the most keys.
constexpr int kLegKeyStep = 3;
constexpr int kBodyKeyStep = 3;
constexpr int kArmKeyStep = 5;

constexpr float kTwoPi = 2.0f * kPi;

float smoothstep01(float x) {
  const float t = std::clamp(x, 0.0f, 1.0f);
  return t * t * (3.0f - 2.0f * t);
}

Quat aboutX(float angleRad) { return Quat(Eigen::AngleAxisf(angleRad, Vec3::UnitX())); }
Quat aboutY(float angleRad) { return Quat(Eigen::AngleAxisf(angleRad, Vec3::UnitY())); }
Quat aboutZ(float angleRad) { return Quat(Eigen::AngleAxisf(angleRad, Vec3::UnitZ())); }

// Cubic Hermite on [0, 1] with end tangents per unit s.
template <typename T>
T hermite(const T& p0, const T& m0, const T& p1, const T& m1, float s) {
  const float s2 = s * s;
  const float s3 = s2 * s;
  return (2.0f * s3 - 3.0f * s2 + 1.0f) * p0 + (s3 - 2.0f * s2 + s) * m0 + (-2.0f * s3 + 3.0f * s2) * p1 +
         (s3 - s2) * m1;
}

// Rotation whose frame has `hinge` as its X axis and `up` as its Y axis (both model space).
Quat frameRotation(const Vec3& hinge, const Vec3& up) {
  Mat3 m;
  m.col(0) = hinge;
  m.col(1) = up;
  m.col(2) = hinge.cross(up);
  return Quat(m).normalized();
}

// One foot, in model space: ankle position, foot pitch and toe pitch (toe joint relative to
// the foot, about +X).
struct FootState {
  Vec3 ankle = Vec3::Zero();
  float pitchRad = 0.0f;
  float toePitchRad = 0.0f;
};

struct LegJoints {
  int upLeg = -1, leg = -1, foot = -1, toe = -1;
  Vec3 hipOffset;    // hip joint relative to Hips, in Hips' rest frame
  Vec3 ankleRest;    // model space
  Vec3 heelRest;     // model space: where the heel touches the ground
  Vec3 ballRest;     // model space: ToeBase joint, the pivot of the toe roll
  float thighLength = 0.0f;
  float shinLength = 0.0f;
  float phaseOffset = 0.0f;  // cycle fraction of this foot's heel strike
};

struct ArmJoints {
  int arm = -1, foreArm = -1;
  Vec3 restDir;  // upper-arm direction in the rest pose (model and chest space)
  float side = 1.0f;
};

class WalkModel {
 public:
  explicit WalkModel(const Skeleton& skeleton) : mSkeleton(skeleton) {
    const std::vector<Affine> rest = localToModel(skeleton, skeleton.restPose());
    const auto at = [&](int j) { return rest[static_cast<std::size_t>(j)].translation(); };
    const auto find = [&](const std::string& name) { return skeleton.findJoint(name); };
    mHips = find("Hips");
    mSpine = {find("Spine"), find("Spine1"), find("Spine2")};
    mNeck = find("Neck");
    mHead = find("Head");
    mHipsRest = at(mHips);
    for (std::size_t s = 0; s < 2; ++s) {
      const std::string p = s == 0 ? "Left" : "Right";
      LegJoints& leg = mLegs[s];
      leg.upLeg = find(p + "UpLeg");
      leg.leg = find(p + "Leg");
      leg.foot = find(p + "Foot");
      leg.toe = find(p + "ToeBase");
      leg.hipOffset = at(leg.upLeg) - mHipsRest;
      leg.ankleRest = at(leg.foot);
      // The heel is 4.5 cm behind the ankle, on the sole (see mannequin_mesh.cpp).
      leg.heelRest = Vec3(leg.ankleRest.x(), 0.003f, leg.ankleRest.z() - 0.045f);
      leg.ballRest = at(leg.toe);
      leg.thighLength = (at(leg.leg) - at(leg.upLeg)).norm();
      leg.shinLength = (at(leg.foot) - at(leg.leg)).norm();
      leg.phaseOffset = s == 0 ? 0.0f : 0.5f;

      ArmJoints& arm = mArms[s];
      arm.arm = find(p + "Arm");
      arm.foreArm = find(p + "ForeArm");
      arm.restDir = (at(arm.foreArm) - at(arm.arm)).normalized();
      arm.side = s == 0 ? 1.0f : -1.0f;
    }
  }

  // Local pose at clip time t (seconds, any real t: the model is periodic apart from the
  // root's forward travel).
  Pose pose(double t) const {
    Pose local(mSkeleton.restPose().begin(), mSkeleton.restPose().end());
    const double cycles = gaitCycles(t);
    const float phase = static_cast<float>(cycles - std::floor(cycles));
    const float angle = kTwoPi * phase;

    // Pelvis in model space.
    const float bobAngle = 2.0f * kTwoPi * (phase - kLowPhase);
    const float sideAngle = kTwoPi * (phase - kLowPhase);  // over the left foot at ~0.3
    Transform& hips = local[static_cast<std::size_t>(mHips)];
    hips.translation = Vec3(kSway * std::sin(sideAngle), mHipsRest.y() - kPelvisDrop - kBob * std::cos(bobAngle),
                            static_cast<float>(kSpeed * t) - kSurge * std::sin(bobAngle));
    const float yaw = -kYawRad * std::cos(angle);  // left hip forward at left heel strike
    const float list = kListRad * std::sin(sideAngle);  // swing-side hip drops
    const float tilt = kTiltRad + kTiltWobbleRad * std::cos(bobAngle);
    hips.rotation = aboutY(yaw) * aboutZ(list) * aboutX(tilt);

    // Spine: the chest turns against the pelvis, undoes its list and most of its tilt.
    Quat chestModel = hips.rotation;
    for (int k = 0; k < 3; ++k) {
      const Quat q = aboutY(-0.6f * yaw) * aboutZ(-0.4f * list) * aboutX(-0.28f * tilt);
      local[static_cast<std::size_t>(mSpine[static_cast<std::size_t>(k)])].rotation = q;
      chestModel = chestModel * q;
    }
    // Head: looks straight ahead (model space), the neck taking half of the correction.
    const Quat headTotal = chestModel.conjugate() * aboutX(0.02f);
    const Quat neck = Quat::Identity().slerp(0.5f, headTotal);
    local[static_cast<std::size_t>(mNeck)].rotation = neck;
    local[static_cast<std::size_t>(mHead)].rotation = (neck.conjugate() * headTotal).normalized();

    for (const LegJoints& leg : mLegs) solveLeg(leg, t, hips, local);
    for (std::size_t s = 0; s < 2; ++s) {
      const ArmJoints& arm = mArms[s];
      // Left arm forward when the right leg is (phase 0.5), and the other way round.
      const float armPhase = phase - kArmLag - (s == 0 ? 0.5f : 0.0f);
      const float forward = std::cos(kTwoPi * armPhase);
      const float swing = kArmSwingRad * forward - kArmBackRad;
      const Vec3 hang(arm.side * std::sin(kArmOutRad), -std::cos(kArmOutRad), 0.0f);
      // Rotating about −X swings a hanging arm forward (+Z), in the chest's frame.
      local[static_cast<std::size_t>(arm.arm)].rotation = aboutX(-swing) * fromToRotation(arm.restDir, hang);
      // Elbow hinge in the upper arm's frame: flexion carries the forearm forward.
      const Vec3 hinge = arm.restDir.cross(Vec3::UnitZ()).normalized();
      const float flexion = kElbowBaseRad + kElbowSwingRad * 0.5f * (1.0f + forward);
      local[static_cast<std::size_t>(arm.foreArm)].rotation = Quat(Eigen::AngleAxisf(flexion, hinge));
    }
    return local;
  }

  // The foot of `leg` at clip time t, in model space.
  FootState foot(const LegJoints& leg, double t) const {
    const double cycles = gaitCycles(t) - leg.phaseOffset;
    const double step = std::floor(cycles);
    const float footPhase = static_cast<float>(cycles - step);
    const Vec3 plant = plantedAnkle(leg, step);
    if (footPhase < kToeOff) return stance(leg, plant, footPhase);

    // Swing: Hermite from the toe-off state to the next heel strike, matching both ends'
    // velocities (per unit of swing), plus a lift for toe clearance.
    constexpr float kSwing = 1.0f - kToeOff;
    constexpr float kEps = 1e-3f;
    const Vec3 next = plantedAnkle(leg, step + 1.0);
    const FootState a = stance(leg, plant, kToeOff);
    const FootState aBefore = stance(leg, plant, kToeOff - kEps);
    const FootState b = stance(leg, next, 0.0f);
    const FootState bAfter = stance(leg, next, kEps);
    const float s = (footPhase - kToeOff) / kSwing;
    FootState f;
    f.ankle = hermite<Vec3>(a.ankle, (a.ankle - aBefore.ankle) * (kSwing / kEps), b.ankle,
                            (bAfter.ankle - b.ankle) * (kSwing / kEps), s);
    // The lift peaks early (s ≈ 0.3), when the toes are lowest, and has zero slope at both
    // ends so it adds nothing to the matched velocities.
    const float early = 1.0f - (1.0f - s) * (1.0f - s);
    const float lift = std::sin(kPi * early);
    f.ankle.y() += kSwingLift * lift * lift;
    f.pitchRad = hermite<float>(a.pitchRad, (a.pitchRad - aBefore.pitchRad) * (kSwing / kEps), b.pitchRad,
                                (bAfter.pitchRad - b.pitchRad) * (kSwing / kEps), s);
    f.toePitchRad = a.toePitchRad * (1.0f - smoothstep01(s / 0.6f));
    return f;
  }

  const LegJoints& leg(std::size_t side) const { return mLegs[side]; }

 private:
  // Gait time in cycles since a left heel strike, at clip time t.
  static double gaitCycles(double t) { return t / kCycleSeconds + kClipStartPhase; }

  // Ankle of the flat foot during step `step` (the foot's heel strikes at the start of it);
  // the pelvis is at z = 0 at the clip's start.
  static Vec3 plantedAnkle(const LegJoints& leg, double step) {
    const float z = static_cast<float>((step + leg.phaseOffset + kPlantPhase - kClipStartPhase) * kStride);
    return Vec3(leg.ankleRest.x(), leg.ankleRest.y(), leg.ankleRest.z() + z);
  }

  // Stance: roll over the heel, flat, roll over the ball; the pivot stays on the ground.
  static FootState stance(const LegJoints& leg, const Vec3& plant, float footPhase) {
    FootState f;
    if (footPhase < kFootFlat) {
      f.pitchRad = kHeelStrikePitchRad * (1.0f - smoothstep01(footPhase / kFootFlat));
      const Vec3 heel = plant + (leg.heelRest - leg.ankleRest);
      f.ankle = heel + aboutX(f.pitchRad) * (leg.ankleRest - leg.heelRest);
    } else if (footPhase < kHeelOff) {
      f.ankle = plant;
    } else {
      const float s = (footPhase - kHeelOff) / (kToeOff - kHeelOff);
      f.pitchRad = kToeOffPitchRad * s * s * (2.0f - s);
      const Vec3 ball = plant + (leg.ballRest - leg.ankleRest);
      f.ankle = ball + aboutX(f.pitchRad) * (leg.ankleRest - leg.ballRest);
      f.toePitchRad = -f.pitchRad;  // toes stay flat on the ground
    }
    return f;
  }

  // Two-bone IK in model space: hip to ankle target with the knee pointing forward (+Z),
  // then the thigh, shin and foot model rotations turned into local ones.
  void solveLeg(const LegJoints& leg, double t, const Transform& hips, Pose& local) const {
    const FootState f = foot(leg, t);
    const Vec3 hip = hips.transformPoint(leg.hipOffset);
    const Vec3 toTarget = f.ankle - hip;
    const float reach = leg.thighLength + leg.shinLength;
    const float distance = std::clamp(toTarget.norm(), std::abs(leg.thighLength - leg.shinLength) + 1e-4f, reach * 0.9999f);
    const Vec3 dir = toTarget.normalized();
    const float along = (leg.thighLength * leg.thighLength - leg.shinLength * leg.shinLength + distance * distance) /
                        (2.0f * distance);
    const float across = std::sqrt(std::max(leg.thighLength * leg.thighLength - along * along, 0.0f));
    const Vec3 pole = (Vec3::UnitZ() - Vec3::UnitZ().dot(dir) * dir).normalized();
    const Vec3 knee = hip + along * dir + across * pole;
    const Vec3 ankle = hip + distance * dir;
    // Knee hinge (model space): +X for a straight leg pointing down with the knee forward.
    const Vec3 hinge = pole.cross(dir).normalized();
    // Rest bones point straight down with identity rotations, so the rest frame of thigh and
    // shin is the identity: the frame built from the posed bone is the model rotation.
    const Quat thighModel = frameRotation(hinge, (hip - knee).normalized());
    const Quat shinModel = frameRotation(hinge, (knee - ankle).normalized());
    const Quat footModel = aboutX(f.pitchRad);
    local[static_cast<std::size_t>(leg.upLeg)].rotation = (hips.rotation.conjugate() * thighModel).normalized();
    local[static_cast<std::size_t>(leg.leg)].rotation = (thighModel.conjugate() * shinModel).normalized();
    local[static_cast<std::size_t>(leg.foot)].rotation = (shinModel.conjugate() * footModel).normalized();
    local[static_cast<std::size_t>(leg.toe)].rotation = aboutX(f.toePitchRad);
  }

  const Skeleton& mSkeleton;
  int mHips = -1;
  std::array<int, 3> mSpine{};
  int mNeck = -1;
  int mHead = -1;
  Vec3 mHipsRest;
  std::array<LegJoints, 2> mLegs;  // Left, Right
  std::array<ArmJoints, 2> mArms;
};

// Bézier key times: every `stepFrames` frames over one cycle, both ends included.
std::vector<double> keyTimes(int stepFrames) {
  const int frames = static_cast<int>(std::lround(kCycleSeconds * kFrameRate));
  std::vector<double> times;
  for (int f = 0; f < frames; f += stepFrames) times.push_back(f / kFrameRate);
  times.push_back(kCycleSeconds);
  return times;
}

// Rotation keys of one joint, sampled from the model. Controls sit a third of the way to the
// neighbouring keys along the model's angular velocity (body frame, central difference),
// the spherical analogue of Hermite tangents. The last key repeats the first exactly.
RotationTrack rotationTrack(const std::vector<Pose>& poses, const std::vector<Pose>& before,
                            const std::vector<Pose>& after, double h, const std::vector<double>& times, int joint) {
  const auto j = static_cast<std::size_t>(joint);
  std::vector<RotationKey> keys;
  Quat previous = Quat::Identity();
  for (std::size_t i = 0; i + 1 < times.size(); ++i) {
    const double span = times[i + 1] - times[i];
    RotationKey key;
    key.time = times[i];
    key.interpolation = RotationInterpolation::Bezier;
    key.value = alignHemisphere(poses[i][j].rotation, previous);
    previous = key.value;
    const Quat delta = alignHemisphere(before[i][j].rotation.conjugate() * after[i][j].rotation, Quat::Identity());
    const Vec3 third = quatLog(delta) * static_cast<float>(span / (6.0 * h));
    key.outControl = (key.value * quatExp(third)).normalized();
    key.inControl = (key.value * quatExp(-third)).normalized();
    keys.push_back(key);
  }
  RotationKey last = keys.front();
  last.time = times.back();
  keys.push_back(last);
  RotationTrack track;
  track.setKeys(std::move(keys));
  return track;
}

// Scalar keys with aligned handles a third of a segment long along the model's slope.
// `advance` is added to the repeated last key (the root's forward travel per cycle).
Curve scalarCurve(const std::vector<double>& values, const std::vector<double>& slopes, const std::vector<double>& times,
                  double advance) {
  std::vector<CurveKey> keys;
  for (std::size_t i = 0; i < times.size(); ++i) {
    const std::size_t src = i + 1 == times.size() ? 0 : i;
    const double third = (i + 1 == times.size() ? times[i] - times[i - 1] : times[i + 1] - times[i]) / 3.0;
    CurveKey key;
    key.time = times[i];
    key.value = values[src] + (i + 1 == times.size() ? advance : 0.0);
    key.interpolation = Interpolation::Bezier;
    key.leftType = HandleType::Aligned;
    key.rightType = HandleType::Aligned;
    key.left = Vec2d(key.time - third, key.value - slopes[src] * third);
    key.right = Vec2d(key.time + third, key.value + slopes[src] * third);
    keys.push_back(key);
  }
  Curve curve;
  curve.setKeys(std::move(keys));
  return curve;
}

// Stride curve of one foot, keyed at the foot's events: eases in over the heel roll, is 1
// while the sole is flat, eases out as the heel lifts, until just after the other heel
// strikes. AutoClamped keys are flat at these extrema, so each ramp is an ease-in-out.
Curve contactCurve(float phaseOffset) {
  constexpr float kRelease = kHeelOff + 0.12f;
  const auto clipTime = [&](float footPhase) {
    const float p = footPhase + phaseOffset - kClipStartPhase;
    return static_cast<double>(p - std::floor(p)) * kCycleSeconds;
  };
  // The loop point falls on a plateau (kClipStartPhase), never inside a ramp.
  const float startPhase = kClipStartPhase - phaseOffset - std::floor(kClipStartPhase - phaseOffset);
  const double atLoop = startPhase >= kFootFlat && startPhase <= kHeelOff ? 1.0 : 0.0;
  Curve curve;
  curve.insertKey(0.0, atLoop);
  curve.insertKey(kCycleSeconds, atLoop);
  curve.insertKey(clipTime(0.0f), 0.0);
  curve.insertKey(clipTime(kFootFlat), 1.0);
  curve.insertKey(clipTime(kHeelOff), 1.0);
  curve.insertKey(clipTime(kRelease), 0.0);
  return curve;
}

}  // namespace

Clip makeWalkClip(const Skeleton& skeleton) {
  const WalkModel model(skeleton);
  Clip clip;
  clip.name = "walk";
  clip.frameRate = kFrameRate;

  // Finite-difference step for the keys' tangents, seconds.
  constexpr double kH = 1e-3;
  const auto sample = [&](const std::vector<double>& times, double shift) {
    std::vector<Pose> poses;
    for (double t : times) poses.push_back(model.pose(t + shift));
    return poses;
  };

  const auto addRotations = [&](int stepFrames, std::initializer_list<const char*> names) {
    const std::vector<double> times = keyTimes(stepFrames);
    const std::vector<Pose> poses = sample(times, 0.0);
    const std::vector<Pose> before = sample(times, -kH);
    const std::vector<Pose> after = sample(times, kH);
    for (const char* name : names) {
      const int joint = skeleton.findJoint(name);
      clip.trackFor(joint).rotation = rotationTrack(poses, before, after, kH, times, joint);
    }
  };
  addRotations(kBodyKeyStep, {"Hips", "Spine", "Spine1", "Spine2", "Neck", "Head"});
  addRotations(kLegKeyStep, {"LeftUpLeg", "LeftLeg", "LeftFoot", "LeftToeBase", "RightUpLeg", "RightLeg", "RightFoot",
                             "RightToeBase"});
  addRotations(kArmKeyStep, {"LeftArm", "LeftForeArm", "RightArm", "RightForeArm"});

  // Root translation: sway (x), bob (y) and forward travel with a slight surge (z).
  {
    const int hips = skeleton.findJoint("Hips");
    const std::vector<double> times = keyTimes(kBodyKeyStep);
    std::array<std::vector<double>, 3> values, slopes;
    for (double t : times) {
      const Vec3 p = model.pose(t)[static_cast<std::size_t>(hips)].translation;
      const Vec3 dp = (model.pose(t + kH)[static_cast<std::size_t>(hips)].translation -
                       model.pose(t - kH)[static_cast<std::size_t>(hips)].translation) /
                      static_cast<float>(2.0 * kH);
      for (int c = 0; c < 3; ++c) {
        values[static_cast<std::size_t>(c)].push_back(p[c]);
        slopes[static_cast<std::size_t>(c)].push_back(dp[c]);
      }
    }
    Vec3Track& translation = clip.trackFor(hips).translation;
    translation.x = scalarCurve(values[0], slopes[0], times, 0.0);
    translation.y = scalarCurve(values[1], slopes[1], times, 0.0);
    translation.z = scalarCurve(values[2], slopes[2], times, kStride);
  }

  clip.curves["contact.left_foot"] = contactCurve(model.leg(0).phaseOffset);
  clip.curves["contact.right_foot"] = contactCurve(model.leg(1).phaseOffset);
  clip.startTime = 0.0;
  clip.endTime = kCycleSeconds;
  return clip;
}

}  // namespace articula
