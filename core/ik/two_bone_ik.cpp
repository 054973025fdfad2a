#include "core/ik/two_bone_ik.h"

#include <algorithm>
#include <cmath>

#include "core/ik/ik_frames.h"
#include "core/math/quaternion.h"

namespace articula {

namespace {

// Everything run() reads from the skeleton, the pose and the model matrices, in chain space
// (the start joint's parent space), where the bones are rigid.
struct TwoBoneSetup {
  Mat3 chainToModel = Mat3::Identity();
  Mat3 modelToChain = Mat3::Identity();
  float chainDeterminant = 1.0f;  // of chainToModel: negative for a mirror
  Vec3 originModel = Vec3::Zero();
  Vec3 startChain = Vec3::Zero();        // start joint position
  Vec3 upperLocal = Vec3::Zero();        // start → mid, start joint's rotation space
  Vec3 lowerLocal = Vec3::Zero();        // mid → end, mid joint's rotation space
  Quat linkRotation = Quat::Identity();  // start rotation space → mid parent space, with linkScale
  float linkScale = 1.0f;
  Quat startRotation = Quat::Identity();  // input local rotations, unit
  Quat midRotation = Quat::Identity();
};

// The limb as it stands now, in chain space.
struct LimbChain {
  Vec3 upper;      // start → mid
  Vec3 lower;      // mid → end
  Quat midParent;  // rotation of the mid joint's parent frame
  float upperLength;
  float lowerLength;
};

std::string label(const Skeleton& skeleton, int j) {
  return "joint " + std::to_string(j) + " '" + skeleton.name(j) + "'";
}

bool finite(float v) { return std::isfinite(v); }

// Folds a uniform (possibly mirroring) scale into a running signed scale and rotation.
void accumulateUniform(const Vec3& s, float& scale, Quat& rotation) {
  const ik::SignedScale split = ik::decomposeUniform(s);
  scale *= split.scale;
  rotation = rotation * split.rotation;
}

// Rotation by θ about a unit axis from (c, s) ∝ (cos θ, sin θ), with no trigonometry, by the
// half angles: the larger of cos(θ/2) = √((1 + cos θ) / 2) and |sin(θ/2)| = √((1 − cos θ) / 2)
// from its root, the other from sin θ = 2 sin(θ/2) cos(θ/2), precise from 0 to a half turn.
Quat rotationFromCosSin(const Vec3& axis, float c, float s) {
  const float r = std::hypot(c, s);
  if (!(r > 0.0f)) return Quat::Identity();
  float cosHalf;
  float sinHalf;
  if (c >= 0.0f) {
    cosHalf = std::sqrt(0.5f * (1.0f + c / r));
    sinHalf = s / r / (2.0f * cosHalf);
  } else {
    sinHalf = std::copysign(std::sqrt(0.5f * (1.0f - c / r)), s);
    cosHalf = s / r / (2.0f * sinHalf);
  }
  return Quat(cosHalf, axis.x() * sinHalf, axis.y() * sinHalf, axis.z() * sinHalf).normalized();
}

// Shortest-arc rotation taking unit `a` onto unit `b` without trigonometry: the half-way
// quaternion (1 + a·b, a × b) while it is well conditioned; past 120° through m, a's quarter
// turn in the plane of a and b (any direction across a when they are opposite), where both
// half-way quaternions are. m is made across a twice: once is not enough when b is nearly −a
// (the rounding of a·b then leaves a part along a of the size of what is across it).
Quat fromToUnitTrigFree(const Vec3& a, const Vec3& b) {
  const float d = a.dot(b);
  if (d > -0.5f) {
    const Vec3 c = a.cross(b);
    return Quat(1.0f + d, c.x(), c.y(), c.z()).normalized();
  }
  Vec3 across = b - a * d;
  across -= a * a.dot(across);
  const float acrossNorm = across.norm();
  const Vec3 m = acrossNorm > 1e-6f ? Vec3(across / acrossNorm) : a.unitOrthogonal();
  const Vec3 am = a.cross(m);
  const Vec3 mb = m.cross(b);
  const Quat toM = Quat(1.0f + a.dot(m), am.x(), am.y(), am.z()).normalized();
  const Quat toB = Quat(1.0f + m.dot(b), mb.x(), mb.y(), mb.z()).normalized();
  return (toB * toM).normalized();
}

// --- Validation -----------------------------------------------------------------------------

// The skeleton, the three joints and the pose and model sizes.
std::optional<std::string> checkJoints(const TwoBoneIkJob& job) {
  if (job.skeleton == nullptr) return std::string("two-bone IK: no skeleton");
  const Skeleton& skeleton = *job.skeleton;
  const int count = skeleton.jointCount();
  for (const int j : {job.startJoint, job.midJoint, job.endJoint}) {
    if (j < 0 || j >= count) return "two-bone IK: joint index " + std::to_string(j) + " is not in the skeleton";
  }
  auto below = [&](int child, int ancestor) {
    int j = child;
    while (j > ancestor) j = skeleton.parent(j);
    return j == ancestor && child != ancestor;
  };
  if (!below(job.midJoint, job.startJoint))
    return "two-bone IK: mid " + label(skeleton, job.midJoint) + " is not below start " +
           label(skeleton, job.startJoint);
  if (!below(job.endJoint, job.midJoint))
    return "two-bone IK: end " + label(skeleton, job.endJoint) + " is not below mid " + label(skeleton, job.midJoint);
  if (job.pose.size() < static_cast<std::size_t>(count))
    return std::string("two-bone IK: the pose has fewer joints than the skeleton");
  if (job.model.size() < static_cast<std::size_t>(count))
    return std::string("two-bone IK: the model matrices are fewer than the skeleton's joints");
  return std::nullopt;
}

// What a caller sets per run: target, pole, axis and the scalar parameters.
std::optional<std::string> checkParameters(const TwoBoneIkJob& job) {
  if (!ik::isFinite(job.targetModel)) return std::string("two-bone IK: the target is not finite");
  if (!ik::isFinite(job.poleModel)) return std::string("two-bone IK: the pole is not finite");
  if (job.poleMode == TwoBoneIkJob::PoleMode::Vector && job.poleModel.squaredNorm() == 0.0f)
    return std::string("two-bone IK: the pole vector is zero");
  if (!ik::isFinite(job.fallbackBendAxisMidLocal) || job.fallbackBendAxisMidLocal.squaredNorm() == 0.0f)
    return std::string("two-bone IK: the fallback bend axis is zero or not finite");
  if (!finite(job.twistAngleRad)) return std::string("two-bone IK: the twist angle is not finite");
  if (!(job.soften >= 0.0f && job.soften <= 1.0f)) return std::string("two-bone IK: soften is not in [0, 1]");
  if (!(job.weight >= 0.0f && job.weight <= 1.0f)) return std::string("two-bone IK: weight is not in [0, 1]");
  if (!(job.toleranceModel >= 0.0f) || !finite(job.toleranceModel))
    return std::string("two-bone IK: the tolerance is negative or not finite");
  return std::nullopt;
}

// A local transform on the limb's path: finite where it is read (of the end joint only the
// translation: its rotation and scale move nothing solved), a non-zero rotation, a uniform
// scale where the upper bone must stay rigid.
std::optional<std::string> checkLocal(const TwoBoneIkJob& job, int j, bool isEnd, bool mustBeUniform) {
  const Transform& t = job.pose[static_cast<std::size_t>(j)];
  const bool finiteTransform = isEnd ? ik::isFinite(t.translation) : ik::isFinite(t);
  if (!finiteTransform) return "two-bone IK: the local transform of " + label(*job.skeleton, j) + " is not finite";
  if (!isEnd && t.rotation.coeffs().squaredNorm() < 1e-12f)
    return "two-bone IK: the local rotation of " + label(*job.skeleton, j) + " is zero";
  if (mustBeUniform && !ik::isUniform(t.scale))
    return "two-bone IK: " + label(*job.skeleton, j) +
           " has a non-uniform scale above the mid joint (the upper bone would not be rigid)";
  return std::nullopt;
}

// --- Setup: the limb's bones and the chain frame --------------------------------------------

// Lower bone: mid → end through the joints in between, in the mid joint's rotation space (any
// scale: nothing below the mid joint's rotation is solved).
std::optional<std::string> readLowerBone(const TwoBoneIkJob& job, TwoBoneSetup& setup) {
  const Skeleton& skeleton = *job.skeleton;
  if (auto e = checkLocal(job, job.endJoint, true, false)) return e;
  Vec3 offset = job.pose[static_cast<std::size_t>(job.endJoint)].translation;
  for (int j = skeleton.parent(job.endJoint); j != job.midJoint; j = skeleton.parent(j)) {
    if (auto e = checkLocal(job, j, false, false)) return e;
    const Transform& t = job.pose[static_cast<std::size_t>(j)];
    offset = t.translation + t.rotation.normalized() * t.scale.cwiseProduct(offset);
  }
  if (auto e = checkLocal(job, job.midJoint, false, false)) return e;
  const Transform& mid = job.pose[static_cast<std::size_t>(job.midJoint)];
  setup.lowerLocal = mid.scale.cwiseProduct(offset);
  setup.midRotation = mid.rotation.normalized();
  return std::nullopt;
}

// Upper bone: start → mid in the start joint's rotation space, and the link (a signed uniform
// scale times a rotation) from that space into the mid joint's parent space. The start joint
// and the joints in between must scale uniformly, so that the upper bone is rigid.
std::optional<std::string> readUpperBone(const TwoBoneIkJob& job, TwoBoneSetup& setup) {
  const Skeleton& skeleton = *job.skeleton;
  Vec3 offset = job.pose[static_cast<std::size_t>(job.midJoint)].translation;
  Quat link = Quat::Identity();
  float linkScale = 1.0f;
  for (int j = skeleton.parent(job.midJoint); j != job.startJoint; j = skeleton.parent(j)) {
    if (auto e = checkLocal(job, j, false, true)) return e;
    const Transform& t = job.pose[static_cast<std::size_t>(j)];
    Quat between = t.rotation.normalized();
    offset = t.translation + between * t.scale.cwiseProduct(offset);
    accumulateUniform(t.scale, linkScale, between);
    link = between * link;
  }
  if (auto e = checkLocal(job, job.startJoint, false, true)) return e;
  const Transform& start = job.pose[static_cast<std::size_t>(job.startJoint)];
  setup.upperLocal = start.scale.cwiseProduct(offset);
  Quat own = Quat::Identity();
  accumulateUniform(start.scale, linkScale, own);
  setup.linkRotation = own * link;
  setup.linkScale = linkScale;
  setup.startRotation = start.rotation.normalized();
  setup.startChain = start.translation;
  return std::nullopt;
}

// The chain frame (the start joint's parent space) in model space and its inverse; for a
// start joint that is a skeleton root, its model matrix times the inverse of its local
// transform. The inverse as adjugate / determinant: the adjugate's rows are cross products of
// the columns, and the determinant comes with them.
std::optional<std::string> readChainFrame(const TwoBoneIkJob& job, TwoBoneSetup& setup) {
  const int parent = job.skeleton->parent(job.startJoint);
  const auto start = static_cast<std::size_t>(job.startJoint);
  const Affine frame = parent != kNoParent ? job.model[static_cast<std::size_t>(parent)]
                                           : ik::frameAboveRoot(job.model[start], job.pose[start]);
  setup.chainToModel = frame.linear();
  setup.originModel = frame.translation();
  auto above = [&](const char* problem) {
    return "two-bone IK: the model matrix above " + label(*job.skeleton, job.startJoint) + problem;
  };
  if (!ik::isFinite(setup.chainToModel) || !ik::isFinite(setup.originModel)) return above(" is not finite");
  const Vec3 c0 = setup.chainToModel.col(0);
  const Vec3 c1 = setup.chainToModel.col(1);
  const Vec3 c2 = setup.chainToModel.col(2);
  const Vec3 r0 = c1.cross(c2);
  const float determinant = c0.dot(r0);
  const float maxEntry = setup.chainToModel.cwiseAbs().maxCoeff();
  if (!(std::abs(determinant) > 1e-12f * maxEntry * maxEntry * maxEntry)) return above(" is singular");
  setup.modelToChain.row(0) = r0.transpose() / determinant;
  setup.modelToChain.row(1) = c2.cross(c0).transpose() / determinant;
  setup.modelToChain.row(2) = c0.cross(c1).transpose() / determinant;
  setup.chainDeterminant = determinant;
  return std::nullopt;
}

// Every check of validate(), in its order, filling `setup` on the way.
std::optional<std::string> setupLimb(const TwoBoneIkJob& job, TwoBoneSetup& setup) {
  if (auto e = checkJoints(job)) return e;
  if (auto e = checkParameters(job)) return e;
  if (auto e = readLowerBone(job, setup)) return e;
  if (auto e = readUpperBone(job, setup)) return e;
  if (auto e = readChainFrame(job, setup)) return e;
  const float upper = setup.upperLocal.norm();
  const float lower = std::abs(setup.linkScale) * setup.lowerLocal.norm();
  const Skeleton& skeleton = *job.skeleton;
  if (!(upper > 1e-6f * (upper + lower)))
    return "two-bone IK: zero-length bone from " + label(skeleton, job.startJoint) + " to " +
           label(skeleton, job.midJoint);
  if (!(lower > 1e-6f * (upper + lower)))
    return "two-bone IK: zero-length bone from " + label(skeleton, job.midJoint) + " to " +
           label(skeleton, job.endJoint);
  return std::nullopt;
}

// --- Solve ------------------------------------------------------------------------------------

// The bones in chain space: the upper bone turned by the start rotation, the lower bone by
// the start rotation, the link and the mid rotation, scaled by the link's signed scale.
LimbChain limbInChain(const TwoBoneSetup& su) {
  LimbChain limb;
  limb.upper = su.startRotation * su.upperLocal;
  limb.midParent = su.startRotation * su.linkRotation;
  limb.lower = su.linkScale * ((limb.midParent * su.midRotation) * su.lowerLocal);
  limb.upperLength = limb.upper.norm();
  limb.lowerLength = limb.lower.norm();
  return limb;
}

// The straight limb's bend axis from the pole, chain space, unit: the turn about it carries
// the knee towards the pole's side of the upper bone (the same orientation as the wanted axis,
// poleAcross × u, u the start → end direction); false without a usable pole (along the upper
// bone). A limb folded with the end behind the start (the lower bone the longer) has u against
// the upper bone: the axis across the upper bone is then reversed, or the start joint would
// twist the limb a half turn to meet the wanted axis on every solve (RobotExpressive's right
// leg folded to a foot handle within |upper − lower|: its shin turned 180° when keyed).
bool poleBendAxis(const LimbChain& limb, const Vec3& poleChain, Vec3& k) {
  const Vec3 upperDir = limb.upper / limb.upperLength;
  const Vec3 poleAcross = poleChain - upperDir * poleChain.dot(upperDir);
  if (!(poleAcross.squaredNorm() > 1e-10f * poleChain.squaredNorm() && poleChain.squaredNorm() > 0.0f)) return false;
  const bool endBehindStart = (limb.upper + limb.lower).dot(limb.upper) < 0.0f;
  k = poleAcross.normalized().cross(endBehindStart ? Vec3(-upperDir) : upperDir);
  return true;
}

// Below kNoiseBendSin the direction a limb bends in is capture noise (a knee held straight
// wavers by a degree or two about any axis); above kClearBendSin it is the limb's own. In
// between the bend axis eases from the pole's to the limb's. (sin 2°, sin 6°)
constexpr float kNoiseBendSin = 0.0349f;
constexpr float kClearBendSin = 0.1045f;

// The limb's bend axes, chain space, unit: a positive rotation of the lower bone about either
// bends the limb more. `own` is the axis the limb bends about now (upper × lower), `wanted` the
// one it is to bend about. With a usable pole, `own` is turned to the pole's side (a limb bent
// backwards straightens through and bends towards the pole, as a knee does), and `wanted` is
// `own` eased into the pole's axis as the limb nears straight: there its own axis is noise,
// and a knee bent about it would turn about a sideways axis for a frame (CMU 09_11: a straight
// leg pulled to the 0.995 reach limit turned its knee 16° about its local Z and back). Without
// a pole both are upper × lower for a bent limb; for a straight one the mid joint's fallback
// axis (rotations about a similarity frame turn with its rotation part only, so the mid-local
// axis maps into chain space by the mid's rotation in chain space), else any axis across the
// upper bone.
struct BendAxes {
  Vec3 own;
  Vec3 wanted;
};

BendAxes bendAxes(const TwoBoneIkJob& job, const TwoBoneSetup& su, const LimbChain& limb, const Vec3& poleChain) {
  const Vec3 upperDir = limb.upper / limb.upperLength;
  const Vec3 cross = limb.upper.cross(limb.lower);
  const float bendSin = cross.norm() / (limb.upperLength * limb.lowerLength);
  Vec3 kPole;
  if (poleBendAxis(limb, poleChain, kPole)) {
    if (!(bendSin > 1e-4f)) return {kPole, kPole};
    const Vec3 own = cross.dot(kPole) < 0.0f ? Vec3(-cross / cross.norm()) : Vec3(cross / cross.norm());
    const float s = std::clamp((bendSin - kNoiseBendSin) / (kClearBendSin - kNoiseBendSin), 0.0f, 1.0f);
    const float ownWeight = s * s * (3.0f - 2.0f * s);
    return {own, (ownWeight * own + (1.0f - ownWeight) * kPole).normalized()};
  }
  if (bendSin > 1e-4f) return {cross / cross.norm(), cross / cross.norm()};
  Vec3 k = (limb.midParent * su.midRotation) * job.fallbackBendAxisMidLocal;
  k -= upperDir * k.dot(upperDir);
  if (k.squaredNorm() < 1e-12f * job.fallbackBendAxisMidLocal.squaredNorm() || k.squaredNorm() == 0.0f)
    k = upperDir.unitOrthogonal();
  return {k.normalized(), k.normalized()};
}

// Softening (ozz's soften) near full extension, then the reach clamped to what the bones
// allow: beyond softStart = soften (a + b) the reach is softStart + softLength (1 − r³),
// r = 3 / (3 + α), α the excess over softStart in units of softLength = a + b − softStart.
float softenedReach(float distance, float a, float b, float soften) {
  const float longest = a + b;
  const float softStart = soften * longest;
  const float softLength = longest - softStart;
  float d = distance;
  if (d > softStart && softLength > 0.0f) {
    const float r = 3.0f / (3.0f + (d - softStart) / softLength);
    d = softStart + softLength * (1.0f - r * r * r);
  }
  return std::clamp(d, std::abs(a - b), longest);
}

// The knee's turn, chain space, from the interior angle now (β0, about the limb's own axis)
// to the one that puts the end at distance d (β1, about the wanted axis k), with no
// trigonometry, by the half angles:
//   now:    |û − l̂| = 2 cos(β0/2), |û + l̂| = 2 sin(β0/2) (û, l̂ the bones' directions),
//   wanted: (a + b)² − d² = 4ab cos²(β1/2), d² − (a − b)² = 4ab sin²(β1/2)
// (products that stay precise near the straight and folded limb). The turn straightens the
// limb about its own axis (by π − β0: the quaternion (sin(β0/2), −own cos(β0/2))), then bends
// it about k (by π − β1: (sin(β1/2), k cos(β1/2))); k is across the upper bone, so across the
// straightened lower one, and the reach is exact whichever k. When k is the own axis the two
// are one turn by Δ = β0 − β1. `sinHalf1` receives sin(β1/2) and `cosHalf1` cos(β1/2).
Quat kneeTurn(const LimbChain& limb, const BendAxes& axes, float d, float& cosHalf1, float& sinHalf1) {
  const float a = limb.upperLength;
  const float b = limb.lowerLength;
  const Vec3 upperDir = limb.upper / a;
  const Vec3 lowerDir = limb.lower / b;
  const float cosHalf0 = 0.5f * (upperDir - lowerDir).norm();
  // Signed about the own axis: a straight limb's fallback axis may face the other way.
  const float sinHalf0 = std::copysign(0.5f * (upperDir + lowerDir).norm(), upperDir.cross(lowerDir).dot(axes.own));
  const float rootAb = 2.0f * std::sqrt(a * b);
  cosHalf1 = std::sqrt(std::max(0.0f, (a + b - d) * (a + b + d))) / rootAb;
  sinHalf1 = std::sqrt(std::max(0.0f, (d - a + b) * (d + a - b))) / rootAb;
  const Vec3& k = axes.wanted;
  const Quat straighten(sinHalf0, -axes.own.x() * cosHalf0, -axes.own.y() * cosHalf0, -axes.own.z() * cosHalf0);
  const Quat bend(sinHalf1, k.x() * cosHalf1, k.y() * cosHalf1, k.z() * cosHalf1);
  return (bend * straighten).normalized();
}

// LawOfCosines' start turn, chain space: the limb after the knee's turn (`reach`, start → end,
// |reach| = d) swung onto the target direction u, then turned about u until its bend axis is
// the wanted one (kWanted, across u). `reach` is zero only for equal bones folded onto the
// start: then only the turn about u.
Quat startTurnLawOfCosines(const Vec3& reach, const Vec3& k, const Vec3& u, const Vec3* kWanted, float longest) {
  const float reachNorm = reach.norm();
  const Quat swing = reachNorm > 1e-7f * longest ? fromToUnitTrigFree(reach / reachNorm, u) : Quat::Identity();
  if (kWanted == nullptr) return swing;
  // Only the part of the swung axis across u turns about u.
  Vec3 kNow = swing * k;
  kNow -= u * kNow.dot(u);
  return rotationFromCosSin(u, kNow.dot(*kWanted), kNow.cross(*kWanted).dot(u)) * swing;
}

// TrigFree's start turn, chain space: the knee goes to the circle where the spheres (start, a)
// and (target, b) meet, on the side of v = u × kWanted: along u (d² + a² − b²) / 2d, across
// ab sin β1 / d (a when folded, d = 0); then the turn about the new upper bone that brings k
// onto kWanted.
Quat startTurnTrigFree(const LimbChain& limb, const Vec3& k, const Vec3& u, const Vec3& kWanted, float d,
                       float sinBeta1) {
  const float a = limb.upperLength;
  const float b = limb.lowerLength;
  const bool folded = !(d > 1e-7f * (a + b));
  const float along = folded ? 0.0f : (d * d + a * a - b * b) / (2.0f * d);
  const float across = folded ? a : a * b * sinBeta1 / d;
  const Vec3 upperWantedDir = (u * along + u.cross(kWanted) * across) / a;
  const Quat turnUpper = fromToUnitTrigFree(limb.upper / a, upperWantedDir);
  Vec3 kTurned = turnUpper * k;
  kTurned -= upperWantedDir * kTurned.dot(upperWantedDir);
  return rotationFromCosSin(upperWantedDir, kTurned.dot(kWanted), kTurned.cross(kWanted).dot(upperWantedDir)) *
         turnUpper;
}

// The unit direction to the target, chain space; a target at the start joint itself keeps the
// limb's direction (its reach, else its upper bone).
Vec3 targetDirection(const Vec3& toTarget, const LimbChain& limb) {
  const float longest = limb.upperLength + limb.lowerLength;
  const float distance = toTarget.norm();
  if (distance > 1e-7f * longest) return toTarget / distance;
  const Vec3 reach = limb.upper + limb.lower;
  return reach.squaredNorm() > 1e-12f * longest * longest ? Vec3(reach.normalized()) : Vec3(limb.upper.normalized());
}

// The wanted bend axis kWanted = v × u, v the pole's unit direction across the start–target
// axis u (chain space); false without a usable pole (on that axis).
bool wantedBendAxis(const Vec3& poleChain, const Vec3& u, Vec3& kWanted) {
  const Vec3 poleAcross = poleChain - u * poleChain.dot(u);
  if (!(poleAcross.squaredNorm() > 1e-10f * poleChain.squaredNorm() && poleChain.squaredNorm() > 0.0f)) return false;
  kWanted = poleAcross.normalized().cross(u);
  return true;
}

// The start joint's turn in chain space by the job's method, with its twist about u (a mirror
// in the frame reverses the turn: the axis is the same line in model space).
Quat startTurn(const TwoBoneIkJob& job, const TwoBoneSetup& su, const LimbChain& limb, const Quat& knee, const Vec3& k,
               const Vec3& u, const Vec3& poleChain, float d, float sinBeta1) {
  const Vec3 reach = limb.upper + knee * limb.lower;
  Vec3 kWanted;
  const bool hasPole = wantedBendAxis(poleChain, u, kWanted);
  Quat turn;
  if (job.method == TwoBoneIkJob::Method::LawOfCosines) {
    turn = startTurnLawOfCosines(reach, k, u, hasPole ? &kWanted : nullptr, limb.upperLength + limb.lowerLength);
  } else {
    // Without a usable pole, the current bend plane swung minimally with the reach onto u.
    if (!hasPole) kWanted = fromToUnitTrigFree(reach.normalized(), u) * k;
    turn = startTurnTrigFree(limb, k, u, kWanted, d, sinBeta1);
  }
  if (job.twistAngleRad == 0.0f) return turn;
  const float angleRad = su.chainDeterminant < 0.0f ? -job.twistAngleRad : job.twistAngleRad;
  return Quat(Eigen::AngleAxisf(angleRad, u)) * turn;
}

// The turns into local rotations, blended by the job's weight, in their inputs' hemispheres,
// written to the pose; the report from FK of the written rotations. The start joint's parent
// space is chain space; the knee's turn is carried into the mid joint's parent space by that
// frame's rotation: midParent⁻¹ (w, v) midParent = (w, midParent⁻¹ v).
void writeResult(const TwoBoneIkJob& job, const TwoBoneSetup& su, const LimbChain& limb, const Quat& start,
                 const Quat& knee, const Vec3& toTarget) {
  Quat startOut = (start * su.startRotation).normalized();
  const Vec3 kneeAxisMidParent = limb.midParent.conjugate() * knee.vec();
  const Quat kneeMidParent(knee.w(), kneeAxisMidParent.x(), kneeAxisMidParent.y(), kneeAxisMidParent.z());
  Quat midOut = (kneeMidParent * su.midRotation).normalized();
  if (job.weight < 1.0f) {
    startOut = su.startRotation.slerp(job.weight, startOut).normalized();
    midOut = su.midRotation.slerp(job.weight, midOut).normalized();
  }
  startOut = alignHemisphere(startOut, su.startRotation);
  midOut = alignHemisphere(midOut, su.midRotation);
  job.pose[static_cast<std::size_t>(job.startJoint)].rotation = startOut;
  job.pose[static_cast<std::size_t>(job.midJoint)].rotation = midOut;
  if (job.report == nullptr) return;
  const Vec3 endFromStart = startOut * (su.upperLocal + su.linkScale * (su.linkRotation * (midOut * su.lowerLocal)));
  job.report->errorModel = (su.chainToModel * (endFromStart - toTarget)).norm();
  job.report->reached = job.report->errorModel <= job.toleranceModel;
  job.report->iterations = 1;
}

}  // namespace

std::optional<std::string> TwoBoneIkJob::validate() const {
  TwoBoneSetup setup;
  return setupLimb(*this, setup);
}

bool TwoBoneIkJob::run() const {
  TwoBoneSetup su;
  if (setupLimb(*this, su)) return false;
  const LimbChain limb = limbInChain(su);
  // Target and pole in chain space, from the start joint.
  const Vec3 toTarget = su.modelToChain * (targetModel - su.originModel) - su.startChain;
  const Vec3 poleChain = poleMode == PoleMode::Vector
                             ? Vec3(su.modelToChain * poleModel)
                             : Vec3(su.modelToChain * (poleModel - su.originModel) - su.startChain);
  const BendAxes axes = bendAxes(*this, su, limb, poleChain);
  const Vec3& k = axes.wanted;
  const Vec3 u = targetDirection(toTarget, limb);
  const float d = softenedReach(toTarget.norm(), limb.upperLength, limb.lowerLength, soften);
  float cosHalf1 = 0.0f;
  float sinHalf1 = 0.0f;
  const Quat knee = kneeTurn(limb, axes, d, cosHalf1, sinHalf1);
  const Quat start = startTurn(*this, su, limb, knee, k, u, poleChain, d, 2.0f * cosHalf1 * sinHalf1);
  writeResult(*this, su, limb, start, knee, toTarget);
  return true;
}

}  // namespace articula
