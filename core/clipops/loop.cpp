#include "core/clipops/loop.h"

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <sstream>
#include <vector>

#include "core/bake/dense_clip.h"
#include "core/clipops/root_motion.h"
#include "core/math/quaternion.h"
#include "core/skeleton/local_to_model.h"

namespace articula {
namespace {

constexpr double kReferenceMm = 1750.0;
constexpr int kRotationPasses = 3;

double median(std::vector<double> values) {
  if (values.empty()) return 0.0;
  const auto middle = values.begin() + static_cast<std::ptrdiff_t>(values.size() / 2);
  std::nth_element(values.begin(), middle, values.end());
  return *middle;
}

// Per frame, the model position of each joint and tip that travels (under the travel joint
// or a joint carried beside it) relative to the travel joint's ground point (slot 0 holds that
// ground point itself, in model space). What stays behind (unanimated pole targets, mesh
// nodes at the scene's root) is scenery, not pose: the travel would show in it.
std::vector<std::vector<Vec3>> relativePositions(const Skeleton& skeleton, const Clip& clip, int travel,
                                                 const Vec3& upModel) {
  std::vector<int> tops = carriedJoints(skeleton, clip, travel);
  tops.push_back(travel);
  std::vector<int> shown;
  for (int j = 0; j < skeleton.jointCount(); ++j) {
    const bool travels =
        std::any_of(tops.begin(), tops.end(), [&](int top) { return skeleton.isAncestorOrSelf(top, j); });
    if (travels && skeleton.kind(j) != NodeKind::Transform) shown.push_back(j);
  }
  std::vector<std::vector<Vec3>> frames(static_cast<std::size_t>(clip.frameCount()));
  ClipSampler sampler(&clip);
  Pose pose(skeleton.restPose().begin(), skeleton.restPose().end());
  std::vector<Affine> model(pose.size());
  for (std::size_t f = 0; f < frames.size(); ++f) {
    sampler.sample(clip.timeOf(static_cast<int>(f)), pose);
    LocalToModelJob{&skeleton, pose, model}.run();
    const Vec3 travelModel = model[static_cast<std::size_t>(travel)].translation();
    const Vec3 groundPoint = travelModel - upModel * upModel.dot(travelModel);
    std::vector<Vec3>& out = frames[f];
    out.push_back(groundPoint);
    for (const int j : shown) out.push_back(model[static_cast<std::size_t>(j)].translation() - groundPoint);
  }
  return frames;
}

// Largest distance between matching slots of a and b (slot 0 included when `withTravel`).
double largestDistance(const std::vector<Vec3>& a, const std::vector<Vec3>& b, bool withTravel) {
  double largest = 0.0;
  for (std::size_t k = withTravel ? 0 : 1; k < a.size(); ++k) largest = std::max(largest, double((a[k] - b[k]).norm()));
  return largest;
}

std::vector<Vec3> steps(const std::vector<Vec3>& from, const std::vector<Vec3>& to) {
  std::vector<Vec3> out(from.size());
  for (std::size_t k = 0; k < from.size(); ++k) out[k] = to[k] - from[k];
  return out;
}

// Velocity (per frame) at the last of three frames and at the first, each from its own side
// to second order: on a smooth loop the two agree up to the motion's third derivative, a
// jump in velocity at the wrap shows whole.
std::vector<Vec3> velocityAtEnd(const std::vector<Vec3>& a, const std::vector<Vec3>& b, const std::vector<Vec3>& c) {
  std::vector<Vec3> out(a.size());
  for (std::size_t k = 0; k < a.size(); ++k) out[k] = 1.5f * c[k] - 2.0f * b[k] + 0.5f * a[k];
  return out;
}

std::vector<Vec3> velocityAtStart(const std::vector<Vec3>& a, const std::vector<Vec3>& b, const std::vector<Vec3>& c) {
  std::vector<Vec3> out(a.size());
  for (std::size_t k = 0; k < a.size(); ++k) out[k] = -1.5f * a[k] + 2.0f * b[k] - 0.5f * c[k];
  return out;
}

double largestRotationDeg(const Clip& clip) {
  const int frames = clip.frameCount();
  double largest = 0.0;
  for (const JointTrack& track : clip.tracks) {
    if (track.rotation.empty()) continue;
    const Quat first = track.rotation.evaluate(clip.timeOf(0));
    const Quat last = track.rotation.evaluate(clip.timeOf(frames - 1));
    const double cosHalf = std::min(1.0, std::abs(double(first.dot(last))));
    largest = std::max(largest, 2.0 * std::acos(cosHalf) * 180.0 / M_PI);
  }
  return largest;
}

}  // namespace

Result<SeamScore> seamScore(const Skeleton& skeleton, const Clip& clip, const TravelFrame& frame) {
  if (auto error = clip.validate(skeleton.jointCount())) return makeError("clip '" + clip.name + "': " + *error);
  const int n = clip.frameCount();
  if (n < 3) return makeError("clip '" + clip.name + "' has " + std::to_string(n) + " frames: a seam needs 3");
  if (frame.hips < 0 || frame.hips >= skeleton.jointCount()) return makeError("the travel joint is out of range");
  const int travel = travelJoint(skeleton, clip, frame.hips);
  const auto rel = relativePositions(skeleton, clip, travel, frame.groundModel.col(1));
  const double mm = kReferenceMm / frame.heightModel;
  const std::size_t last = rel.size() - 1;
  SeamScore score;
  score.frames = n;
  score.poseMm = largestDistance(rel[last], rel[0], false) * mm;
  score.rotationDeg = largestRotationDeg(clip);
  score.travelMm = (rel[last][0] - rel[0][0]).norm() * mm;
  score.velocityMm = largestDistance(velocityAtEnd(rel[last - 2], rel[last - 1], rel[last]),
                                     velocityAtStart(rel[0], rel[1], rel[2]), true) *
                     mm;
  std::vector<double> stepSizes, stepChanges;
  std::vector<Vec3> previous;
  for (std::size_t f = 1; f < rel.size(); ++f) {
    const std::vector<Vec3> step = steps(rel[f - 1], rel[f]);
    stepSizes.push_back(largestDistance(step, std::vector<Vec3>(step.size(), Vec3::Zero()), false) * mm);
    if (!previous.empty()) stepChanges.push_back(largestDistance(step, previous, true) * mm);
    previous = step;
  }
  score.medianStepMm = median(std::move(stepSizes));
  score.medianVelocityChangeMm = median(std::move(stepChanges));
  return score;
}

namespace {

// The offset curve of the blend at step k of m: weights of (jump, velocity change) such that
// the offset is 0 at k = 0 and 1 and, at k = m, the jump, with its velocity there (the
// backward second-order difference, as seamScore measures it) the velocity change: a cubic
// in k, solved exactly on the frames.
struct BlendWeights {
  std::vector<double> jump, velocityChange;
};

BlendWeights blendWeights(int m) {
  const auto cube = [](double k) { return Eigen::Vector4d(k * k * k, k * k, k, 1.0); };
  Eigen::Matrix4d rows;
  rows.row(0) = cube(0.0);
  rows.row(1) = cube(1.0);
  rows.row(2) = cube(m);
  rows.row(3) = 1.5 * cube(m) - 2.0 * cube(m - 1.0) + 0.5 * cube(m - 2.0);
  const Eigen::FullPivLU<Eigen::Matrix4d> lu(rows);
  const Eigen::Vector4d a = lu.solve(Eigen::Vector4d(0, 0, 1, 0));
  const Eigen::Vector4d b = lu.solve(Eigen::Vector4d(0, 0, 0, 1));
  BlendWeights weights;
  for (int k = 0; k <= m; ++k) {
    weights.jump.push_back(cube(k).dot(a));
    weights.velocityChange.push_back(cube(k).dot(b));
  }
  return weights;
}

// Adds the blend's offset to the last m + 1 values: `jump` at the last, its velocity there
// changed by `velocityChange`.
void addOffset(std::vector<Vec3>& values, const BlendWeights& w, const Vec3& jump, const Vec3& velocityChange) {
  const std::size_t n = values.size();
  const std::size_t m = w.jump.size() - 1;
  for (std::size_t k = 0; k <= m; ++k) {
    values[n - 1 - m + k] += jump * float(w.jump[k]) + velocityChange * float(w.velocityChange[k]);
  }
}

// Velocity (per frame) at the first value, from the first three (forward, second order).
Vec3 startVelocity(const Vec3& r0, const Vec3& r1, const Vec3& r2) { return -1.5f * r0 + 2.0f * r1 - 0.5f * r2; }

// Velocity (per frame) at the last value, from the last three (backward, second order).
Vec3 endVelocity(const Vec3& r0, const Vec3& r1, const Vec3& r2) { return 1.5f * r2 - 2.0f * r1 + 0.5f * r0; }

// Blends a translation or scale channel: its last frame onto its first moved on by `travel`
// (one cycle's, for what travels with the travel joint), its velocity there onto the first's.
void blendVec3(std::vector<Vec3>& p, const BlendWeights& w, const Vec3& travel) {
  const std::size_t n = p.size();
  const Vec3 velocityChange = startVelocity(p[0], p[1], p[2]) - endVelocity(p[n - 3], p[n - 2], p[n - 1]);
  addOffset(p, w, p[0] + travel - p[n - 1], velocityChange);
}

Vec3 rotationVector(const Quat& q) { return 2.0f * quatLog(alignHemisphere(q, Quat::Identity())); }

Quat rotationOf(const Vec3& rotationVector) { return quatExp(0.5f * rotationVector); }

// Rotations likewise, in rotation vectors about the first frame's and the last frame's
// rotations (in the parent's space).
void blendRotation(std::vector<Quat>& q, const BlendWeights& w) {
  const std::size_t n = q.size();
  const Vec3 jump = rotationVector(q[0] * q[n - 1].conjugate());
  const Vec3 velocityChange =
      startVelocity(Vec3::Zero(), rotationVector(q[1] * q[0].conjugate()), rotationVector(q[2] * q[0].conjugate())) -
      endVelocity(rotationVector(q[n - 3] * q[n - 1].conjugate()), rotationVector(q[n - 2] * q[n - 1].conjugate()),
                  Vec3::Zero());
  const std::size_t m = w.jump.size() - 1;
  for (std::size_t k = 0; k <= m; ++k) {
    Quat& value = q[n - 1 - m + k];
    value = (rotationOf(jump * float(w.jump[k]) + velocityChange * float(w.velocityChange[k])) * value).normalized();
  }
}

// One more frame, on from the last at the last step: where the blend brings the start when
// the clip does not already repeat it.
void extendVec3(std::vector<Vec3>& p) { p.push_back(2.0f * p.back() - p[p.size() - 2]); }

void extendRotation(std::vector<Quat>& q) {
  const Quat last = q.back();
  q.push_back((last * q[q.size() - 2].conjugate() * last).normalized());
}

// A time in seconds as a person writes it: "0.25", "5", "0.875".
std::string secondsText(double seconds) {
  std::ostringstream out;
  out << std::setprecision(4) << seconds;
  return out.str();
}

}  // namespace

std::optional<std::string> MakeCyclicJob::validate() const {
  if (skeleton == nullptr) return "no skeleton";
  if (clip == nullptr) return "no clip";
  if (auto error = clip->validate(skeleton->jointCount())) return "clip '" + clip->name + "': " + *error;
  const int n = clip->frameCount();
  if (n < 5) {
    return "clip '" + clip->name + "' has " + std::to_string(n) + (n == 1 ? " frame" : " frames") +
           ": a loop needs at least 5";
  }
  if (!std::isfinite(blendSeconds) || blendSeconds <= 0.0) return "the blend span must be a positive time";
  const long m = std::lround(blendSeconds * clip->frameRate);
  if (m < 3)
    return "a blend span of " + secondsText(blendSeconds) + " s is under 3 frames of clip '" + clip->name + "'";
  if (m > n - 3) {
    return "a blend span of " + secondsText(blendSeconds) + " s (" + std::to_string(m) +
           " frames) is longer than clip '" + clip->name + "' allows: " + std::to_string(n - 3) + " frames (" +
           secondsText((n - 3) / clip->frameRate) + " s), its length less its first two frames";
  }
  if (travelJoint >= skeleton->jointCount()) return "the travel joint is out of range";
  for (const int other : carried) {
    if (travelJoint < 0 || other < 0 || other >= skeleton->jointCount() || other == travelJoint ||
        skeleton->parent(other) != skeleton->parent(travelJoint))
      return "a joint carried along is not beside the travel joint";
  }
  if (travelJoint >= 0) {
    if (auto error = checkGround(groundModel)) return error;
  }
  return std::nullopt;
}

Result<Clip> MakeCyclicJob::run() const {
  if (auto error = validate()) return makeError(*error);
  const int n = clip->frameCount();
  DenseClip dense = sampleDense(*skeleton, *clip, 0, n - 1);
  const BlendWeights weights = blendWeights(static_cast<int>(std::lround(blendSeconds * clip->frameRate)));
  Mat3 travelGround = Mat3::Zero();  // the travel's ground axes (x, z) in the travel joint's parent space
  if (travelJoint >= 0) {
    const Mat3 ground = groundInParentSpace(*skeleton, travelJoint, groundModel);
    travelGround = ground.col(0) * ground.col(0).transpose() + ground.col(2) * ground.col(2).transpose();
  }
  // A clip that does not repeat its start gets the frame that will: one step on from its end.
  const int n1 = endRepeatsStart ? n : n + 1;
  for (DenseTrack& track : dense.tracks) {
    if (endRepeatsStart) break;
    if (track.translates) extendVec3(track.translation);
    if (track.scales) extendVec3(track.scale);
    if (track.rotates) extendRotation(track.rotation);
  }
  // One cycle's travel on the ground (travel joint's parent space), first frame to last.
  Vec3 cycleTravel = Vec3::Zero();
  for (const DenseTrack& track : dense.tracks) {
    if (track.joint == travelJoint && track.translates)
      cycleTravel = travelGround * (track.translation[static_cast<std::size_t>(n1 - 1)] - track.translation[0]);
  }
  for (DenseTrack& track : dense.tracks) {
    if (track.translates) {
      // The travel is no seam: on the ground the next cycle starts where this one ends, and
      // what is carried beside the travel joint goes on with it.
      const bool travels =
          track.joint == travelJoint || std::find(carried.begin(), carried.end(), track.joint) != carried.end();
      blendVec3(track.translation, weights, travels ? cycleTravel : Vec3::Zero());
    }
    if (track.scales) blendVec3(track.scale, weights, Vec3::Zero());
    // Offsets composed with rotations add only to first order: a few passes bring a large
    // seam's velocity on too (each pass leaves the square of the last one's error).
    for (int pass = 0; pass < kRotationPasses && track.rotates; ++pass) blendRotation(track.rotation, weights);
    if (!keepEndFrame) {
      if (track.translates) track.translation.pop_back();
      if (track.scales) track.scale.pop_back();
      if (track.rotates) track.rotation.pop_back();
    }
  }
  dense.frames += (endRepeatsStart ? 0 : 1) - (keepEndFrame ? 0 : 1);
  Clip out = *clip;
  for (JointTrack& track : perFrameTracks(dense)) {
    JointTrack& target = out.trackFor(track.joint);
    if (!track.translation.empty()) target.translation = std::move(track.translation);
    if (!track.rotation.empty()) target.rotation = std::move(track.rotation);
    if (!track.scale.empty()) target.scale = std::move(track.scale);
  }
  out.endTime = dense.timeOf(dense.frames - 1);
  return out;
}

bool endRepeatsStart(const SeamScore& seam) { return seam.poseMm <= 0.5 * seam.medianStepMm; }

}  // namespace articula
