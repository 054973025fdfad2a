#include "core/retarget/capture_convention.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "core/skeleton/local_to_model.h"

namespace articula {

namespace {

constexpr float kDegToRad = kPi / 180.0f;
// At most this many frames are read: a fifth of a second at 120 fps in a minute-long take is
// still sampled, and a long clip costs no more than a short one.
constexpr int kMaxSampledFrames = 600;

// The nearest signed model axis when within 25° of v (unit), else v.
Vec3 snapToAxis(const Vec3& v) {
  Eigen::Index axis = 0;
  v.cwiseAbs().maxCoeff(&axis);
  Vec3 snapped = Vec3::Zero();
  snapped[axis] = v[axis] < 0.0f ? -1.0f : 1.0f;
  return v.dot(snapped) >= std::cos(25.0f * kDegToRad) ? snapped : v;
}


float angleDeg(const Vec3& a, const Vec3& b) {
  return std::acos(std::clamp(a.normalized().dot(b.normalized()), -1.0f, 1.0f)) / kDegToRad;
}

// The joints the analysis reads, in model space, at one pose.
struct FigurePoints {
  Vec3 hips, head, leftThigh, rightThigh, leftAnkle, rightAnkle, leftArm, leftForearm, rightArm, rightForearm;
};

int headOf(const HumanoidMap& map) { return map.head >= 0 ? map.head : map.neck >= 0 ? map.neck : map.chest; }

// The joints pointsOf reads (-1 where the map has none).
std::vector<int> figureJoints(const HumanoidMap& map) {
  return {map.hips,          headOf(map),           map.leftLeg.thigh,      map.rightLeg.thigh,
          map.leftLeg.legTip, map.rightLeg.legTip,  map.leftArm.upperArm,   map.leftArm.forearm,
          map.rightArm.upperArm, map.rightArm.forearm};
}

FigurePoints pointsOf(const std::vector<Affine>& model, const HumanoidMap& map) {
  auto at = [&](int j) { return j >= 0 ? Vec3(model[static_cast<std::size_t>(j)].translation()) : Vec3(Vec3::Zero()); };
  return {at(map.hips),
          at(headOf(map)),
          at(map.leftLeg.thigh),
          at(map.rightLeg.thigh),
          at(map.leftLeg.legTip),
          at(map.rightLeg.legTip),
          at(map.leftArm.upperArm),
          at(map.leftArm.forearm),
          at(map.rightArm.upperArm),
          at(map.rightArm.forearm)};
}

// The clip's frames as the analysis sees them: evenly spread, at most kMaxSampledFrames.
// Forward kinematics runs only along the chains from the roots to the joints the analysis
// reads: a file with a million other nodes is analysed as fast as the character.
std::vector<FigurePoints> sampleClip(const Skeleton& skeleton, const HumanoidMap& map, const Clip& clip) {
  const int frames = clip.frameCount();
  // Rounded up without overflow: a clip of absurd length counts std::numeric_limits<int>::max() frames.
  const int step = std::max(1, frames / kMaxSampledFrames + (frames % kMaxSampledFrames != 0 ? 1 : 0));
  std::vector<FigurePoints> points;
  ClipSampler sampler(&clip);
  const std::vector<int> read = skeleton.withAncestors(figureJoints(map));
  Pose pose(skeleton.restPose().begin(), skeleton.restPose().end());
  std::vector<Affine> model(pose.size(), Affine::Identity());
  const LocalToModelJob fk{&skeleton, pose, model, nullptr, kNoParent, read};
  // Counted in samples, so the frame number never passes frames (nor overflows an int).
  const int samples = (frames - 1) / step + 1;
  for (int sample = 0; sample < samples; ++sample) {
    for (const int j : read) pose[static_cast<std::size_t>(j)] = skeleton.restPose()[static_cast<std::size_t>(j)];
    sampler.sample(clip.timeOf(sample * step), pose);
    fk.run();
    points.push_back(pointsOf(model, map));
  }
  return points;
}

float legLengthOf(const Skeleton& skeleton, const HumanoidMap& map) {
  const std::vector<Affine> rest = localToModel(skeleton, skeleton.restPose());
  auto at = [&](int j) { return Vec3(rest[static_cast<std::size_t>(j)].translation()); };
  const HumanoidLeg& l = map.leftLeg;
  return (at(l.knee) - at(l.thigh)).norm() + (at(l.legTip) - at(l.knee)).norm();
}

// A frame stands along `up` when its hips-to-head line is within 35° of it and its hips are
// half a leg above its feet.
bool standsAlong(const FigurePoints& p, const Vec3& up, float legLength) {
  const Vec3 line = p.head - p.hips;
  const float hipsAboveFeet = (p.hips - 0.5f * (p.leftAnkle + p.rightAnkle)).dot(up);
  return line.norm() > 0.0f && line.normalized().dot(up) >= std::cos(35.0f * kDegToRad) &&
         hipsAboveFeet > 0.5f * legLength;
}

// Up (hips-to-head, averaged over the frames where the figure stands along the mean line)
// and the share of frames that stand; up is zero when the line averages out to nothing.
struct MotionUp {
  Vec3 up = Vec3::Zero();
  float standingShare = 0.0f;
};

MotionUp motionUp(const std::vector<FigurePoints>& frames, float legLength) {
  Vec3 sum = Vec3::Zero();
  for (const FigurePoints& p : frames) {
    if ((p.head - p.hips).norm() > 0.0f) sum += (p.head - p.hips).normalized();
  }
  MotionUp result;
  if (!(sum.norm() > 1e-3f * static_cast<float>(frames.size()))) return result;
  const Vec3 mean = sum.normalized();
  Vec3 standingSum = Vec3::Zero();
  int standing = 0;
  for (const FigurePoints& p : frames) {
    if (!standsAlong(p, mean, legLength)) continue;
    standingSum += (p.head - p.hips).normalized();
    ++standing;
  }
  if (standing == 0) return result;
  result.up = standingSum.normalized();
  result.standingShare = static_cast<float>(standing) / static_cast<float>(frames.size());
  return result;
}

// Facing = left × up, left from the right thigh to the left one (averaged across the up).
Vec3 facing(const std::vector<FigurePoints>& frames, const Vec3& up) {
  Vec3 left = Vec3::Zero();
  for (const FigurePoints& p : frames) left += p.leftThigh - p.rightThigh;
  left -= up * up.dot(left);
  return left.norm() > 0.0f ? Vec3(left.normalized().cross(up).normalized()) : Vec3::Zero();
}

// The rotation taking the frame (upFrom, forwardFrom) onto (upTo, forwardTo); each pair unit
// and perpendicular.
Quat turnBetween(const Vec3& upFrom, const Vec3& forwardFrom, const Vec3& upTo, const Vec3& forwardTo) {
  Mat3 from, to;
  from << upFrom.cross(forwardFrom), upFrom, forwardFrom;
  to << upTo.cross(forwardTo), upTo, forwardTo;
  return Quat(Mat3(to * from.transpose())).normalized();
}

// What decides the up when the user did not: the rest's ankles-to-hips axis (snapped), its
// hips-to-head line, and the motion's up (nothing without a clip).
struct UpEvidence {
  const Clip* clip = nullptr;
  Vec3 restUp = Vec3::UnitY();
  Vec3 restLine = Vec3::UnitY();
  MotionUp motion;
};

// The rest's up when it stands in the clip (or the clip never stands long enough to say
// otherwise), else the motion's; fails when neither can be trusted.
std::optional<std::string> decideUp(const UpEvidence& e, CaptureConvention& c) {
  const bool motionStands = e.motion.standingShare >= 0.4f;
  const bool restOnUsualAxis = e.restUp.y() == 1.0f || e.restUp.z() == 1.0f;
  const float restToMotionDeg = motionStands ? angleDeg(e.restLine, e.motion.up) : 0.0f;
  char text[240];
  if (motionStands && restToMotionDeg > 30.0f) {
    c.upModel = snapToAxis(e.motion.up);
    std::snprintf(text, sizeof text,
                  "motion: hips-to-head along %s in the %.0f %% of frames that stand; the rest pose's is %.0f deg "
                  "from it",
                  axisName(c.upModel).c_str(), 100.0 * double(e.motion.standingShare), double(restToMotionDeg));
    c.upDecidedBy = text;
    return std::nullopt;
  }
  if (e.clip && !motionStands && !restOnUsualAxis) {
    std::snprintf(text, sizeof text,
                  "the figure never stands in clip '%s' (its hips are above its feet in %.0f %% of the frames) "
                  "and its rest pose stands along %s, not the model's Y or Z: set the up",
                  e.clip->name.c_str(), 100.0 * double(e.motion.standingShare), axisName(e.restUp).c_str());
    return std::string(text);
  }
  c.upModel = e.restUp;
  if (!e.clip) {
    c.upDecidedBy = "rest pose: ankles-to-hips along " + axisName(e.restUp) + " (no clip)";
  } else if (motionStands) {
    std::snprintf(text, sizeof text, "rest pose: ankles-to-hips along %s, %.0f deg from the clip's own",
                  axisName(e.restUp).c_str(), double(restToMotionDeg));
    c.upDecidedBy = text;
  } else {
    std::snprintf(text, sizeof text, "rest pose: ankles-to-hips along %s (the clip stands in %.0f %% of its frames)",
                  axisName(e.restUp).c_str(), 100.0 * double(e.motion.standingShare));
    c.upDecidedBy = text;
  }
  return std::nullopt;
}

// The user's facing, else left × up over `frames` (the rest alone when it stands along the
// up), snapped to an axis when one is near and perpendicular to the up.
std::optional<std::string> decideForward(const ConventionOverride& userOverride, const std::vector<FigurePoints>& frames,
                                         const char* where, CaptureConvention& c) {
  if (userOverride.forwardModel) {
    if (std::abs(userOverride.forwardModel->dot(c.upModel)) > 1e-6f)
      return "capture convention: the facing " + axisName(*userOverride.forwardModel) +
             " set by the user is not perpendicular to the up " + axisName(c.upModel);
    c.forwardModel = *userOverride.forwardModel;
    c.forwardDecidedBy = "set by the user";
    return std::nullopt;
  }
  const Vec3 forward = facing(frames, c.upModel);
  if (!(forward.norm() > 0.0f)) return std::string("capture convention: the left and right thighs are at one point");
  c.forwardModel = snapToAxis(forward);
  if (std::abs(c.forwardModel.dot(c.upModel)) > 1e-6f) c.forwardModel = forward;
  c.forwardDecidedBy = std::string("the line from the right thigh to the left, crossed with the up, ") + where;
  return std::nullopt;
}

RestPoseKind standingKind(const FigurePoints& rest, const Vec3& up, const HumanoidMap& map, float* elevationDeg) {
  if (map.leftArm.forearm < 0 || map.rightArm.forearm < 0) return RestPoseKind::StandingOther;
  auto below = [&](const Vec3& from, const Vec3& to) {
    const Vec3 d = (to - from).normalized();
    return std::asin(std::clamp(-d.dot(up), -1.0f, 1.0f)) / kDegToRad;
  };
  *elevationDeg = 0.5f * (below(rest.leftArm, rest.leftForearm) + below(rest.rightArm, rest.rightForearm));
  if (*elevationDeg < 20.0f) return RestPoseKind::StandingT;
  if (*elevationDeg < 60.0f) return RestPoseKind::StandingA;
  return RestPoseKind::StandingOther;
}

struct UnitGuess {
  double perMetre;
  const char* name;
  const char* shortName;  // what a user types; empty for a unit only guessed
};
// Each unit a capture is written in; CMU's ASF unit, kept by its BVH conversions, is 1/0.45 in.
constexpr UnitGuess kUnits[] = {{1.0, "metres", "m"},          {10.0, "decimetres", "dm"},
                                {100.0, "centimetres", "cm"},  {1000.0, "millimetres", "mm"},
                                {39.3701, "inches", "in"},     {39.3701 * 0.45, "CMU units (1/0.45 in)", ""}};

void guessUnits(CaptureConvention& c) {
  // A person 1.2-2.2 m tall (joint to joint: the head's top and the soles are not joints).
  char text[160];
  for (const UnitGuess& u : kUnits) {
    const double metres = static_cast<double>(c.heightModel) / u.perMetre;
    if (metres >= 1.2 && metres <= 2.2) {
      c.unitsPerMetre = u.perMetre;
      c.units = u.name;
      std::snprintf(text, sizeof text, "the standing figure is %.4g units tall: %.2f m in %s", double(c.heightModel),
                    metres, u.name);
      c.unitsDecidedBy = text;
      return;
    }
  }
  c.unitsPerMetre = 1.0;
  c.units = "unknown";
  std::snprintf(text, sizeof text, "the standing figure is %.4g units tall: no unit makes that 1.2-2.2 m",
                double(c.heightModel));
  c.unitsDecidedBy = text;
}

// The user's units, else the guess from the height.
void decideUnits(const ConventionOverride& userOverride, CaptureConvention& c) {
  if (!userOverride.unitsPerMetre) {
    guessUnits(c);
    return;
  }
  c.unitsPerMetre = *userOverride.unitsPerMetre;
  c.units = unitsName(c.unitsPerMetre);
  char text[160];
  std::snprintf(text, sizeof text, "set by the user: the standing figure is %.2f m tall in it",
                double(c.heightModel) / c.unitsPerMetre);
  c.unitsDecidedBy = text;
}

float extentAlong(const std::vector<Affine>& model, const Vec3& axis) {
  float low = 0.0f, high = 0.0f;
  for (std::size_t j = 0; j < model.size(); ++j) {
    const float h = model[j].translation().dot(axis);
    low = j == 0 ? h : std::min(low, h);
    high = j == 0 ? h : std::max(high, h);
  }
  return high - low;
}

float floorOf(const std::vector<FigurePoints>& frames, const Vec3& up) {
  std::vector<float> lows;
  for (const FigurePoints& p : frames) lows.push_back(std::min(p.leftAnkle.dot(up), p.rightAnkle.dot(up)));
  const auto at = lows.begin() + static_cast<std::ptrdiff_t>(lows.size() / 20);
  std::nth_element(lows.begin(), at, lows.end());
  return *at;
}

}  // namespace

std::string axisName(const Vec3& v) {
  static const char* const kNames[3] = {"X", "Y", "Z"};
  for (int a = 0; a < 3; ++a) {
    if (std::abs(std::abs(v[a]) - 1.0f) < 1e-6f) return std::string(v[a] < 0.0f ? "-" : "+") + kNames[a];
  }
  char text[64];
  std::snprintf(text, sizeof text, "(%.2f, %.2f, %.2f)", static_cast<double>(v.x()), static_cast<double>(v.y()),
                static_cast<double>(v.z()));
  return text;
}

const char* restPoseKindName(RestPoseKind kind) {
  switch (kind) {
    case RestPoseKind::StandingT: return "standing T";
    case RestPoseKind::StandingA: return "standing A";
    case RestPoseKind::StandingOther: return "standing (arms down)";
    case RestPoseKind::NotStanding: return "not standing";
  }
  return "not standing";
}

std::optional<Vec3> axisFromName(std::string_view name) {
  if (name.size() == 2 && (name[0] == '+' || name[0] == '-')) {
    auto axis = axisFromName(name.substr(1));
    if (axis && name[0] == '-') *axis = -*axis;
    return axis;
  }
  if (name.size() != 1) return std::nullopt;
  switch (name[0]) {
    case 'x': case 'X': return Vec3(Vec3::UnitX());
    case 'y': case 'Y': return Vec3(Vec3::UnitY());
    case 'z': case 'Z': return Vec3(Vec3::UnitZ());
    default: return std::nullopt;
  }
}

std::optional<double> unitsPerMetreFromName(std::string_view name) {
  for (const UnitGuess& u : kUnits) {
    if (name == u.name || (*u.shortName != '\0' && name == u.shortName)) return u.perMetre;
  }
  return std::nullopt;
}

std::vector<double> namedUnitsPerMetre() {
  std::vector<double> units;
  for (const UnitGuess& u : kUnits) {
    if (*u.shortName != '\0') units.push_back(u.perMetre);
  }
  return units;
}

std::string unitsName(double unitsPerMetre) {
  for (const UnitGuess& u : kUnits) {
    if (std::abs(unitsPerMetre - u.perMetre) <= 1e-9 * u.perMetre) return u.name;
  }
  char text[64];
  std::snprintf(text, sizeof text, "%.6g units per metre", unitsPerMetre);
  return text;
}

std::optional<std::string> checkOverride(const ConventionOverride& o) {
  auto isAxis = [](const Vec3& v) { return v.allFinite() && axisName(v).front() != '('; };
  if (o.upModel && !isAxis(*o.upModel)) return "the up " + axisName(*o.upModel) + " is not a model axis (+X ... -Z)";
  if (o.forwardModel && !isAxis(*o.forwardModel))
    return "the facing " + axisName(*o.forwardModel) + " is not a model axis (+X ... -Z)";
  if (o.upModel && o.forwardModel && std::abs(o.upModel->dot(*o.forwardModel)) > 1e-6f)
    return "the facing " + axisName(*o.forwardModel) + " is parallel to the up " + axisName(*o.upModel);
  if (o.unitsPerMetre && !(std::isfinite(*o.unitsPerMetre) && *o.unitsPerMetre > 0.0))
    return "the units must be a positive number of units per metre";
  return std::nullopt;
}

std::optional<std::string> CaptureConventionJob::validate() const {
  if (!skeleton) return std::string("capture convention: no skeleton");
  if (!map) return std::string("capture convention: no humanoid map");
  const int n = skeleton->jointCount();
  for (int j : {map->hips, map->chest, map->leftLeg.thigh, map->rightLeg.thigh, map->leftLeg.knee,
                map->leftLeg.legTip, map->rightLeg.legTip}) {
    if (j < 0 || j >= n) return std::string("capture convention: the map's hips, chest or legs are not in the skeleton");
  }
  if (clip) {
    if (clip->frameCount() < 1) return "capture convention: clip '" + clip->name + "' has no frames";
    if (auto error = clip->validate(n)) return "capture convention: " + *error;
  }
  if (auto error = checkOverride(userOverride)) return "capture convention: " + *error;
  return std::nullopt;
}

Result<CaptureConvention> CaptureConventionJob::run() const {
  if (auto error = validate()) return makeError(*error);
  const HumanoidMap& m = *map;
  const std::vector<Affine> restModel = localToModel(*skeleton, skeleton->restPose());
  const FigurePoints rest = pointsOf(restModel, m);
  const float legLength = legLengthOf(*skeleton, m);
  const Vec3 restLine = rest.head - rest.hips;
  const Vec3 restFeetUp = rest.hips - 0.5f * (rest.leftAnkle + rest.rightAnkle);
  if (!(restLine.norm() > 0.0f) || !(restFeetUp.norm() > 0.0f))
    return makeError("capture convention: the rest pose's hips are level with its head or feet");
  UpEvidence evidence;
  evidence.clip = clip;
  evidence.restUp = snapToAxis(restFeetUp.normalized());
  evidence.restLine = restLine;
  const std::vector<FigurePoints> frames = clip ? sampleClip(*skeleton, m, *clip) : std::vector<FigurePoints>{rest};
  if (clip) evidence.motion = motionUp(frames, legLength);

  CaptureConvention c;
  if (userOverride.upModel) {
    c.upModel = *userOverride.upModel;
    c.upDecidedBy = "set by the user";
  } else if (auto error = decideUp(evidence, c)) {
    return makeError(*error);
  }
  const Vec3& restUp = evidence.restUp;
  const Vec3 restForward = facing({rest}, restUp);
  if (!(restForward.norm() > 0.0f)) return makeError("capture convention: the left and right thighs are at one point");
  const bool restStands = c.upModel == restUp;
  if (auto error = decideForward(userOverride, restStands ? std::vector<FigurePoints>{rest} : frames,
                                 restStands ? "in the rest pose" : "over the clip", c))
    return makeError(*error);
  if (c.upModel != restUp) {
    c.restToStandingModel = turnBetween(restUp, restForward, c.upModel, c.forwardModel.normalized());
  }

  float elevationDeg = 0.0f;
  const Vec3 upInRest = c.restToStandingModel.conjugate() * c.upModel;
  const RestPoseKind kind = standingKind(rest, upInRest, m, &elevationDeg);
  c.restKind = c.upModel == restUp ? kind : RestPoseKind::NotStanding;
  char text[240];
  std::snprintf(text, sizeof text, "%s%s: upper arms %.0f deg below horizontal",
                c.restKind == RestPoseKind::NotStanding ? "stood up, a " : "", restPoseKindName(kind),
                double(elevationDeg));
  c.restKindDecidedBy = text;
  c.heightModel = extentAlong(restModel, upInRest);
  c.floorModel = floorOf(frames, c.upModel);
  decideUnits(userOverride, c);
  if (clip) {
    c.frameRate = clip->frameRate;
    c.frameRateDecidedBy = "the file's frame time (BVH) or its key spacing";
  } else {
    c.frameRateDecidedBy = "no clip";
  }
  return c;
}

}  // namespace articula
