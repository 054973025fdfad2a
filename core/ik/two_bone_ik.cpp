#include "core/ik/two_bone_ik.h"

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstring>

#include "core/ik/ik_frames.h"
#include "core/ik/ik_simd.h"
#include "core/math/quaternion.h"

namespace articula {

namespace {

using ik::simd::broadcast;
using ik::simd::F4;
using ik::simd::first;
using ik::simd::lane;
using ik::simd::load3;
using ik::simd::load4;
using ik::simd::make;
using ik::simd::shuffle;
using ik::simd::splat;
using ik::simd::swizzle;

F4 load(const Vec4& v) { return load4(v.data()); }
F4 load(const Vec3& v) { return load3(v.data()); }
F4 load(const Quat& q) { return load4(q.coeffs().data()); }
Vec3 toVec3(F4 v) {
  Vec4 r;
  ik::simd::store4(r.data(), v);
  return r.head<3>();
}
Quat toQuat(F4 q) {
  Quat r;
  ik::simd::store4(r.coeffs().data(), q);
  return r;
}
Vec4 padded(const Vec3& v) { return Vec4(v.x(), v.y(), v.z(), 0.0f); }

// m v for a matrix held as (x, y, z, 0) columns.
F4 mul3x3(const Vec4 (&columns)[3], F4 v) {
  return load(columns[0]) * broadcast<0>(v) + load(columns[1]) * broadcast<1>(v) + load(columns[2]) * broadcast<2>(v);
}

// |q|² summed as the packed input check sums it (ik::simd::sums), so that the per-run check
// and validate() draw the line at 1e-12 on the same side.
float quatNorm2(const Quat& q) { return (q.x() * q.x() + q.z() * q.z()) + (q.y() * q.y() + q.w() * q.w()); }

// Folds a uniform (possibly mirroring) scale into a running signed scale and rotation.
void accumulateUniform(const Vec3& s, float& scale, Quat& rotation) {
  const ik::SignedScale split = ik::decomposeUniform(s);
  scale *= split.scale;
  rotation = rotation * split.rotation;
}

bool finite(float v) { return std::isfinite(v); }

// Shortest-arc rotation taking unit `a` onto unit `b` without trigonometry (the shared
// fromToRotation uses atan2 near 180°): past 120° it goes through the 90° turn to the part of
// `b` across `a`, where both half-way quaternions are well conditioned.
Quat fromToUnitTrigFree(const Vec3& a, const Vec3& b) {
  const float d = a.dot(b);
  if (d > -0.5f) {
    const Vec3 c = a.cross(b);
    Quat q(1.0f + d, c.x(), c.y(), c.z());
    q.coeffs() *= 1.0f / q.coeffs().norm();
    return q;
  }
  const Vec3 across = b - a * d;
  const float acrossNorm = across.norm();
  const Vec3 m = acrossNorm > 1e-6f ? Vec3(across * (1.0f / acrossNorm)) : a.unitOrthogonal();
  const Vec3 am = a.cross(m);
  const Vec3 mb = m.cross(b);
  const Quat toM = Quat(1.0f, am.x(), am.y(), am.z()).normalized();
  const Quat toB = Quat(1.0f + m.dot(b), mb.x(), mb.y(), mb.z()).normalized();
  return (toB * toM).normalized();
}

std::string label(const Skeleton& skeleton, int j) {
  return "joint " + std::to_string(j) + " '" + skeleton.name(j) + "'";
}

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
  const bool finiteTransform =
      ik::isFinite(t.translation) && (isEnd || (ik::isFinite(t.scale) && ik::allFinite(t.rotation.coeffs().data(), 4)));
  // The common case first, without building anything.
  if (finiteTransform && (isEnd || quatNorm2(t.rotation) >= 1e-12f) && (!mustBeUniform || ik::isUniform(t.scale)))
    return std::nullopt;
  if (!finiteTransform) return "two-bone IK: the local transform of " + label(*job.skeleton, j) + " is not finite";
  if (!isEnd && quatNorm2(t.rotation) < 1e-12f)
    return "two-bone IK: the local rotation of " + label(*job.skeleton, j) + " is zero";
  return "two-bone IK: " + label(*job.skeleton, j) +
         " has a non-uniform scale above the mid joint (the upper bone would not be rigid)";
}

// The solved joints' rotations, read at every run.
std::optional<std::string> checkSolvedRotation(const TwoBoneIkJob& job, int j) {
  const Quat& q = job.pose[static_cast<std::size_t>(j)].rotation;
  if (!ik::allFinite(q.coeffs().data(), 4))
    return "two-bone IK: the local transform of " + label(*job.skeleton, j) + " is not finite";
  if (quatNorm2(q) < 1e-12f) return "two-bone IK: the local rotation of " + label(*job.skeleton, j) + " is zero";
  return std::nullopt;
}

// The chain frame of a start joint that is a skeleton root: its model matrix times the
// inverse of its local transform, built in `rootFrame`. Out of line: rare, and heavy.
[[gnu::noinline]] const Affine& rootChainFrame(const TwoBoneIkJob& job, Affine& rootFrame) {
  rootFrame = ik::frameAboveRoot(job.model[static_cast<std::size_t>(job.startJoint)],
                                 job.pose[static_cast<std::size_t>(job.startJoint)]);
  return rootFrame;
}

// The start joint's parent's model matrix; null for a skeleton root.
const Affine* parentModel(const TwoBoneIkJob& job) {
  const int parent = job.skeleton->parent(job.startJoint);
  return parent != kNoParent ? &job.model[static_cast<std::size_t>(parent)] : nullptr;
}

// The chain frame (the start joint's parent space) in model space: the parent's model
// matrix, read where it is, or rootChainFrame.
const Affine& chainFrame(const TwoBoneIkJob& job, Affine& rootFrame) {
  if (const Affine* parent = parentModel(job)) return *parent;
  return rootChainFrame(job, rootFrame);
}

// What a run reads of the job's vectors, loaded once: the target and the pole (model space).
struct RunInputs {
  F4 target;
  F4 pole;
};

// checkParameters as one packed test that builds no message: true exactly when it passes,
// as at nearly every run; inputsError names the failure otherwise. `in` receives what the
// solve reads.
bool inputsValid(const TwoBoneIkJob& job, RunInputs& in) {
  const F4 target = load(job.targetModel);
  const F4 pole = load(job.poleModel);
  const F4 axis = load(job.fallbackBendAxisMidLocal);
  in = {target, pole};
  const F4 zero = splat(0.0f);
  // x * 0 is 0 for a finite x and NaN otherwise.
  const F4 zeros = target * zero + pole * zero + axis * zero;
  // The twist finite, soften and weight in [0, 1], the tolerance in [0, ∞); NaN fails both.
  // Lanes in the members' order, which they are read in.
  const F4 scalars = make(job.twistAngleRad, job.soften, job.weight, job.toleranceModel);
  const F4 inRange = (make(-FLT_MAX, 0.0f, 0.0f, 0.0f) <= scalars) & (scalars <= make(FLT_MAX, 1.0f, 1.0f, FLT_MAX));
  // A non-zero pole (a direction only in PoleMode::Vector; lanes 0 and 2) and axis (1, 3).
  const F4 normsValid = zero < ik::simd::sums(pole * pole, axis * axis);
  const int poleFree = job.poleMode == TwoBoneIkJob::PoleMode::Vector ? 0 : 0x5;
  return ik::simd::movemask((zeros == zero) & inRange) == 0xF && (ik::simd::movemask(normsValid) | poleFree) == 0xF;
}

// A solved joint's rotation as it is in the pose, with |q|² in every lane (summed as
// quatNorm2 sums it, so that the run and validate() draw the line at 1e-12 on the same side).
struct SolvedRotation {
  F4 q;
  F4 norm2;
};
SolvedRotation readSolvedRotation(const Quat& rotation) {
  const F4 q = load(rotation);
  return {q, ik::simd::sums(q * q, q * q)};
}

// checkSolvedRotation of both solved joints as one packed test: all lanes set when both pass.
F4 solvedRotationsValid(const SolvedRotation& start, const SolvedRotation& mid) {
  const F4 zero = splat(0.0f);
  const F4 finite = start.q * zero + mid.q * zero == zero;
  return finite & (splat(1e-12f) <= shuffle<0, 0, 0, 0>(start.norm2, mid.norm2));
}

// checkSolvedRotation of both solved joints, packed, for a job whose joints are valid.
bool solvedRotationsValid(const TwoBoneIkJob& job) {
  return ik::simd::movemask(solvedRotationsValid(
             readSolvedRotation(job.pose[static_cast<std::size_t>(job.startJoint)].rotation),
             readSolvedRotation(job.pose[static_cast<std::size_t>(job.midJoint)].rotation))) == 0xF;
}

// What inputsValid or solvedRotationsValid refused, in validate()'s order.
std::optional<std::string> inputsError(const TwoBoneIkJob& job) {
  if (auto e = checkParameters(job)) return e;
  if (auto e = checkSolvedRotation(job, job.startJoint)) return e;
  return checkSolvedRotation(job, job.midJoint);
}

// Derives the limb; every check but checkJoints and inputsValid, which come first.
std::optional<std::string> deriveLimb(const TwoBoneIkJob& job, const Affine& frame, TwoBoneLimb& limb) {
  const Skeleton& skeleton = *job.skeleton;

  // Lower bone: mid → end through the joints in between (any scale: nothing below the mid
  // joint's rotation is solved).
  Vec3 offset = job.pose[static_cast<std::size_t>(job.endJoint)].translation;
  if (auto e = checkLocal(job, job.endJoint, true, false)) return e;
  for (int j = skeleton.parent(job.endJoint); j != job.midJoint; j = skeleton.parent(j)) {
    if (auto e = checkLocal(job, j, false, false)) return e;
    const Transform& t = job.pose[static_cast<std::size_t>(j)];
    offset = t.translation + t.rotation.normalized() * t.scale.cwiseProduct(offset);
  }
  if (auto e = checkLocal(job, job.midJoint, false, false)) return e;
  const Transform& mid = job.pose[static_cast<std::size_t>(job.midJoint)];
  const Vec3 lowerLocal = mid.scale.cwiseProduct(offset);

  // Upper bone: start → mid; the start joint and the joints in between must scale uniformly.
  offset = mid.translation;
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
  const Vec3 upperLocal = start.scale.cwiseProduct(offset);
  Quat own = Quat::Identity();
  accumulateUniform(start.scale, linkScale, own);
  limb.upperLocal = padded(upperLocal);
  limb.lowerLocal = padded(lowerLocal);
  limb.linkRotation = own * link;
  limb.linkIsIdentity = limb.linkRotation.coeffs() == Quat::Identity().coeffs();
  limb.linkScale = linkScale;
  limb.start = padded(start.translation);

  const Mat3 chainToModel = frame.linear();
  if (!ik::isFinite(chainToModel) || !ik::isFinite(Vec3(frame.translation())))
    return "two-bone IK: the model matrix above " + label(skeleton, job.startJoint) + " is not finite";
  const float maxEntry = chainToModel.cwiseAbs().maxCoeff();
  // The inverse as adjugate / determinant: the adjugate's rows are cross products of the
  // columns, and the determinant comes with them.
  const Vec3 c0 = chainToModel.col(0);
  const Vec3 c1 = chainToModel.col(1);
  const Vec3 c2 = chainToModel.col(2);
  const Vec3 r0 = c1.cross(c2);
  const float determinant = c0.dot(r0);
  if (!(std::abs(determinant) > 1e-12f * maxEntry * maxEntry * maxEntry))
    return "two-bone IK: the model matrix above " + label(skeleton, job.startJoint) + " is singular";
  const float inverseDeterminant = 1.0f / determinant;
  Mat3 modelToChain;
  modelToChain.row(0) = r0.transpose() * inverseDeterminant;
  modelToChain.row(1) = c2.cross(c0).transpose() * inverseDeterminant;
  modelToChain.row(2) = c0.cross(c1).transpose() * inverseDeterminant;
  for (int c = 0; c < 3; ++c) {
    limb.chainToModel[c] = padded(chainToModel.col(c));
    limb.modelToChain[c] = padded(modelToChain.col(c));
  }
  limb.originModel = padded(frame.translation());
  limb.chainDeterminant = determinant;

  const float upper = upperLocal.norm();
  const float lower = std::abs(linkScale) * lowerLocal.norm();
  if (!(upper > 1e-6f * (upper + lower)))
    return "two-bone IK: zero-length bone from " + label(skeleton, job.startJoint) + " to " +
           label(skeleton, job.midJoint);
  if (!(lower > 1e-6f * (upper + lower)))
    return "two-bone IK: zero-length bone from " + label(skeleton, job.midJoint) + " to " +
           label(skeleton, job.endJoint);
  limb.upperLength = upper;
  limb.lowerLength = lower;
  limb.upperInverse = 1.0f / upper;
  limb.squaresDifference = upper * upper - lower * lower;
  limb.halfUpperInverse = 0.5f * limb.upperInverse;
  limb.upperDir = padded(upperLocal * limb.upperInverse);
  limb.lowerDirScale = linkScale / lower;
  const float halfInverseRootAb = 0.5f / std::sqrt(upper * lower);
  limb.halfAngleScale = Vec4(0.5f, 0.5f, halfInverseRootAb, halfInverseRootAb);
  limb.kneeNormScale = 0.0625f / (upper * lower);
  return std::nullopt;
}

// The workspace's limb was derived for this skeleton, its hierarchy as it is, and these
// joints, and the pose and model are large enough to read them.
bool sameJoints(const TwoBoneIkJob& job, const TwoBoneIkWorkspace& ws) {
  return job.skeleton != nullptr && ws.skeleton == job.skeleton &&
         ws.hierarchyRevision == job.skeleton->hierarchyRevision() && ws.startJoint == job.startJoint &&
         ws.midJoint == job.midJoint && ws.endJoint == job.endJoint &&
         job.pose.size() >= static_cast<std::size_t>(ws.jointCount) &&
         job.model.size() >= static_cast<std::size_t>(ws.jointCount);
}

// The start joint is the mid joint's parent and the mid joint the end joint's.
bool isDirect(const TwoBoneIkJob& job) {
  const Skeleton& skeleton = *job.skeleton;
  return skeleton.parent(job.endJoint) == job.midJoint && skeleton.parent(job.midJoint) == job.startJoint;
}

// Compares what the limb comes from with `record`, as the hierarchy, the pose and the frame
// are now: the path from the end joint up to the start joint, and the frame; true, with them
// recorded, when they differ from the record the limb was derived from (or there is none). A
// path that no longer reaches the start joint counts as a change.
// A direct limb (`direct`: each joint the next one's parent), as in most rigs, is its three
// joints, passed without walking the hierarchy and without their keys: the workspace is keyed
// on the hierarchy and the joints, and re-derives (a new record) when they change.
bool sourceChanged(const TwoBoneIkJob& job, bool direct, const Affine& frame, IkInputRecord& record) {
  const std::span<Transform> pose = job.pose;
  if (direct) {
    return record.pass(3, frame, [&](auto& pass) {
      pass.addValues(pose[static_cast<std::size_t>(job.endJoint)], false, false);
      pass.addValues(pose[static_cast<std::size_t>(job.midJoint)], false);
      pass.addValues(pose[static_cast<std::size_t>(job.startJoint)], false);
    });
  }
  // Parents come before their children, so the path has at most end − start + 1 joints; the
  // count also bounds the walk.
  const Skeleton& skeleton = *job.skeleton;
  const auto joints = static_cast<std::size_t>(job.endJoint - job.startJoint + 1);
  bool reachesStart = false;
  const bool changed = record.pass(joints, frame, [&](auto& pass) {
    int j = job.endJoint;
    for (std::size_t n = 0; n < joints && j != kNoParent && j >= job.startJoint; ++n, j = skeleton.parent(j)) {
      const bool solved = j == job.startJoint || j == job.midJoint || j == job.endJoint;
      pass.add(j, pose[static_cast<std::size_t>(j)], !solved, j != job.endJoint);
      if (j == job.startJoint) {
        reachesStart = true;
        return;
      }
    }
  });
  return changed || !reachesStart;
}

// sourceChanged for a start joint that is a skeleton root. Out of line, with the frame it
// builds: rare, and the runs of other limbs need no room for it.
[[gnu::noinline]] bool rootSourceChanged(const TwoBoneIkJob& job, bool direct, IkInputRecord& record) {
  Affine rootFrame;
  return sourceChanged(job, direct, rootChainFrame(job, rootFrame), record);
}

// Every check of validate(), then the limb derived into `limb` and, with a workspace, what
// it came from recorded there; false (with the message in `error`) when invalid. Out of line:
// the runs that reuse a workspace's limb skip it.
[[gnu::noinline]] bool checkAndDerive(const TwoBoneIkJob& job, TwoBoneLimb& limb, TwoBoneIkWorkspace* ws,
                                      std::optional<std::string>& error) {
  error = checkJoints(job);
  RunInputs in;
  if (!error && !(inputsValid(job, in) && solvedRotationsValid(job))) error = inputsError(job);
  if (error) return false;
  Affine rootFrame;
  const Affine& frame = chainFrame(job, rootFrame);
  if (ws != nullptr) {
    ws->source.invalidate();
    sourceChanged(job, isDirect(job), frame, ws->source);
  }
  error = deriveLimb(job, frame, limb);
  return !error;
}

// The workspace's limb re-derived, and the whole job checked, with what it came from
// recorded; null when the job is invalid.
const TwoBoneLimb* rederive(const TwoBoneIkJob& job, TwoBoneIkWorkspace& ws) {
  std::optional<std::string> error;
  if (!checkAndDerive(job, ws.limb, &ws, error)) return nullptr;
  ws.skeleton = job.skeleton;
  ws.hierarchyRevision = job.skeleton->hierarchyRevision();
  ws.jointCount = job.skeleton->jointCount();
  ws.startJoint = job.startJoint;
  ws.midJoint = job.midJoint;
  ws.endJoint = job.endJoint;
  ws.startParent = job.skeleton->parent(job.startJoint);
  ws.direct = isDirect(job);
  ws.source.markValid();
  return &ws.limb;
}

// The workspace's limb, re-derived first when what it came from changed; null when the job
// is invalid. With the limb unchanged the per-run inputs are left to the caller
// (inputsValid).
const TwoBoneLimb* workspaceLimb(const TwoBoneIkJob& job, TwoBoneIkWorkspace& ws) {
  if (sameJoints(job, ws)) {
    // The hierarchy is the one the limb was derived from: so are the start joint's parent
    // and the limb's directness.
    const bool changed =
        ws.startParent != kNoParent
            ? sourceChanged(job, ws.direct, job.model[static_cast<std::size_t>(ws.startParent)], ws.source)
            : rootSourceChanged(job, ws.direct, ws.source);
    if (!ARTICULA_IK_RARE(changed)) return &ws.limb;
  }
  return rederive(job, ws);
}

// frameTurn for a rotation nearly a half turn from its reference, where the product with it
// cancels: the column of K for the largest of 4x², 4y², 4z², 4w² (Shepperd's method), that
// is the quaternion times 4x (or 4y, 4z, 4w), with no square root and in either hemisphere.
// `diagonal` is K's diagonal, `axial` (M₂₁ − M₁₂, M₀₂ − M₂₀, M₁₀ − M₀₁) and `symmetric`
// (M₀₁ + M₁₀, M₁₂ + M₂₁, M₂₀ + M₀₂). Out of line: it would crowd the common path's registers.
[[gnu::noinline]] F4 frameTurnAcross(F4 diagonal, F4 axial, F4 symmetric) {
  const float x = first(diagonal);
  const float y = lane<1>(diagonal);
  const float z = lane<2>(diagonal);
  const float w = lane<3>(diagonal);
  if (w >= x && w >= y && w >= z) return axial + make(0.0f, 0.0f, 0.0f, w);
  if (x >= y && x >= z) return make(x, first(symmetric), lane<2>(symmetric), first(axial));
  if (y >= z) return make(first(symmetric), y, lane<1>(symmetric), lane<1>(axial));
  return make(lane<2>(symmetric), lane<1>(symmetric), z, lane<2>(axial));
}

// 1 / √s as √s · (1 / s): the square root and the division side by side instead of one after
// the other, for a scale on the chain through the input rotations (within an ulp or two of
// the quotient). `root` is √s where the caller has it already.
F4 inverseNorm(F4 s, F4 root) { return root * (splat(1.0f) / s); }
F4 inverseNorm(F4 s) { return inverseNorm(s, ik::simd::sqrt(s)); }

// A start rotation q, not normalised, with |q|² and ⟨q, r⟩ (r the input rotation) in lanes 0
// and 1, and again in 2 and 3: what normalises it and picks its hemisphere.
struct StartTurn {
  F4 q;
  F4 squares;
};
StartTurn withSquares(F4 q, F4 r) { return {q, ik::simd::sums(q * q, q * r)}; }

// The rotation q taking the orthonormal frame (x0, y0, z0 = x0 × y0) onto (x1, y1, z1 =
// x1 × y1) (the third axes given: callers have them without the cross product, or off the
// path to x0 and y0), not normalised: K r = 4 ⟨q, r⟩ q
// for a reference quaternion r with |r|² = r2, so in r's hemisphere. With M = Σ bᵢ aᵢᵀ over
// the frames' axes, K = 4 q qᵀ (Horn's symmetric 4×4) has the diagonal 1 + 2 Mᵢᵢ − tr M for
// x, y, z and 1 + tr M for w, the off-diagonal sums Mᵢⱼ + Mⱼᵢ, and the axial vector
// Σ aᵢ × bᵢ between the vector part and w; the sums of the products a ⋅ b.yzx and a.yzx ⋅ b
// give M's off-diagonal sums and differences together. No square root. A solve run frame
// after frame from its last result turns little from its input rotation, the reference:
// there the product is well conditioned; within ~6° of orthogonal to it (a turn of more than
// ~170° from it), frameTurnAcross. With its squares (StartTurn).
StartTurn frameTurn(F4 x0, F4 y0, F4 z0, F4 x1, F4 y1, F4 z1, F4 r, float r2) {
  const F4 diagonal3 = x0 * x1 + y0 * y1 + z0 * z1;  // M₀₀, M₁₁, M₂₂, 0
  const F4 trace = ik::simd::sum3(diagonal3);
  const F4 forward = x0 * swizzle<1, 2, 0, 3>(x1) + y0 * swizzle<1, 2, 0, 3>(y1) + z0 * swizzle<1, 2, 0, 3>(z1);
  const F4 backward = swizzle<1, 2, 0, 3>(x0) * x1 + swizzle<1, 2, 0, 3>(y0) * y1 + swizzle<1, 2, 0, 3>(z0) * z1;
  const F4 axial = swizzle<1, 2, 0, 3>(forward - backward);
  const F4 symmetric = forward + backward;
  // 4x², 4y², 4z², 4w²: lane 3 of diagonal3 is 0.
  const F4 diagonal = splat(1.0f) + (diagonal3 + diagonal3) - (trace ^ make(0.0f, 0.0f, 0.0f, -0.0f));
  // K r, lane by lane: the diagonal, the symmetric part (lanes 0 to 2), the axial vector
  // times r.w (lanes 0 to 2) and ⟨axial, r⟩ (lane 3).
  const F4 kr = diagonal * r + symmetric * swizzle<1, 2, 0, 3>(r) +
                swizzle<2, 0, 1, 3>(symmetric) * swizzle<2, 0, 1, 3>(r) + axial * broadcast<3>(r) +
                ik::simd::dot3(axial, r) * make(0.0f, 0.0f, 0.0f, 1.0f);
  // |K r|² = 16 ⟨q, r⟩²: past ~6° from orthogonal, ⟨q, r⟩² > 0.01 r2.
  const StartTurn turn = withSquares(kr, r);
  if (ARTICULA_IK_USUAL(first(turn.squares) > 0.16f * r2)) return turn;
  return withSquares(frameTurnAcross(diagonal, axial, symmetric), r);
}

// The rare branches of the solve, out of line and on Eigen's types. The limb's vectors are
// in start space (the start joint's rotation space), the target side's in chain space; the
// input start rotation, unnormalised, carries one into the other.

// A chain-space vector in start space.
[[gnu::noinline]] Vec3 intoStartSpace(const Quat& startRotation, const Vec3& v) {
  return startRotation.normalized().conjugate() * v;
}

// Bend axis of a straight input limb, in start space: the mid joint's fallback axis across
// the upper bone, else across the upper bone and the pole, else any axis across the upper
// bone. Rotations about a similarity frame turn with its rotation part only (the signed
// scale commutes), so the mid-local axis maps into start space by lowerTurn.
[[gnu::noinline]] Vec3 straightBendAxis(const Quat& lowerTurn, const Vec3& fallbackAxis, const Vec3& upperDir,
                                        const Quat& startRotation, const Vec3& poleChain) {
  const Vec3 pole = intoStartSpace(startRotation, poleChain);
  Vec3 k = ik::rotateScaled(lowerTurn, fallbackAxis);
  k -= upperDir * k.dot(upperDir);
  if (k.squaredNorm() < 1e-12f * fallbackAxis.squaredNorm()) k = upperDir.cross(pole);
  if (k.squaredNorm() < 1e-12f * pole.squaredNorm() || k.squaredNorm() == 0.0f) k = upperDir.unitOrthogonal();
  return k.normalized();
}

// The direction to a target at the start joint itself, in chain space: the limb's, else the
// upper bone's (`upper` and `lower` in start space).
[[gnu::noinline]] Vec3 directionAtStart(const Quat& startRotation, const Vec3& upper, const Vec3& lower,
                                        float longest) {
  const Vec3 reach = upper + lower;
  const Vec3 direction =
      reach.squaredNorm() > 1e-12f * longest * longest ? Vec3(reach.normalized()) : Vec3(upper.normalized());
  return startRotation.normalized() * direction;
}

// The knee's turn applied to the lower bone itself: a straight input limb's lower bone may
// stray from the bend plane by rounding.
[[gnu::noinline]] Vec3 straightReachAfterKnee(const Vec3& upper, const Quat& knee, const Vec3& lower) {
  return upper + knee * lower;
}

// LawOfCosines without a usable pole: the input start rotation followed by the swing of the
// reach (start space) onto the target's direction u (chain space), minimal.
[[gnu::noinline]] Quat swungStart(const Quat& startRotation, const Vec3& reach, const Vec3& u) {
  return startRotation * ik::fromToScaled(reach, intoStartSpace(startRotation, u), reach.norm());
}

// TrigFree without a usable pole: the bend axis k swung with the reach (both start space)
// onto the target's direction u, in chain space.
[[gnu::noinline]] Vec3 swungBendAxis(const Quat& startRotation, const Vec3& reach, const Vec3& u, const Vec3& k) {
  const Quat rotation = startRotation.normalized();
  return rotation * (fromToUnitTrigFree(reach.normalized(), rotation.conjugate() * u) * k);
}

// The twist about the start–target axis u (chain space) after the solved start rotation; a
// mirror in the frame reverses the turn (the axis is the same line in model space).
[[gnu::noinline]] Quat twisted(const Quat& startRotation, const Vec3& u, float twistAngleRad, float chainDeterminant) {
  const float angleRad = chainDeterminant < 0.0f ? -twistAngleRad : twistAngleRad;
  return Quat(Eigen::AngleAxisf(angleRad, u)) * startRotation;
}

// The link times the mid rotation, for a limb with joints between start and mid. Out of
// line, so that a direct limb does not compute it beside the identity's shortcut.
[[gnu::noinline]] F4 linkTimes(const TwoBoneLimb& su, F4 midRotation) {
  return ik::simd::quatProduct(load(su.linkRotation), midRotation);
}

// weight < 1: each joint's unit input rotation slerped towards its unit solved one.
[[gnu::noinline]] F4 blend(F4 input, F4 solved, float weight) {
  return load(toQuat(input).normalized().slerp(weight, toQuat(solved)).normalized());
}

// The sign bit where v is negative: what flips a result into its input's hemisphere.
F4 signOf(F4 v) { return (v < splat(0.0f)) & splat(-0.0f); }

// The unit direction of `towards` (u) and the unit normal of the plane it spans with the
// pole, kWanted ∝ pole × towards = |pole across u| |towards| (v × u), v the pole's unit
// direction across u; `roots` holds |towards|, |pole × towards| and |pole| (twice). Both
// normalised by one square root and one division. Chain space.
struct TargetAxes {
  F4 u;
  F4 kWanted;
  F4 roots;
};
TargetAxes targetAxes(F4 towards, F4 pole) {
  const F4 poleCross = ik::simd::cross(pole, towards);
  const F4 roots = ik::simd::sqrt(ik::simd::sums(towards * towards, poleCross * poleCross, pole * pole, pole * pole));
  const F4 inverses = splat(1.0f) / roots;
  return {towards * broadcast<0>(inverses), poleCross * broadcast<1>(inverses), roots};
}

// targetAxes for a target at the start joint itself, towards the limb's direction.
[[gnu::noinline]] TargetAxes targetAxesAtStart(const Quat& startRotation, const Vec3& upper, const Vec3& lower,
                                               float longest, F4 pole) {
  return targetAxes(load(directionAtStart(startRotation, upper, lower, longest)), pole);
}

// The solve proper, on a checked job and its limb. The limb (its bones, the knee and its
// bend axis) is in start space, the start joint's rotation space, where the upper bone is a
// constant and the mid rotation alone places the lower bone; the target side (the direction
// to the target, the pole's plane) is in chain space. The start joint's new rotation maps the
// one onto the other, so it is the rotation between a start-space frame and a chain-space
// one, formed directly: the input start rotation enters the common path only to pick the
// output's hemisphere. `in` from inputsValid. Common path on four lanes (ik_simd.h), the
// rare branches above.
bool solve(const TwoBoneIkJob& job, const TwoBoneLimb& su, const RunInputs& in) {
  const float a = su.upperLength;
  const float b = su.lowerLength;
  const float longest = a + b;

  // Target side: the direction to the target and the wanted bend plane's normal (below; at
  // the start joint itself, from the limb's direction).
  const F4 origin = load(su.originModel);
  const F4 chainStart = load(su.start);
  const F4 toTarget = mul3x3(su.modelToChain, in.target - origin) - chainStart;
  const F4 poleModel = in.pole;
  const F4 poleChain = job.poleMode == TwoBoneIkJob::PoleMode::Vector
                           ? mul3x3(su.modelToChain, poleModel)
                           : mul3x3(su.modelToChain, poleModel - origin) - chainStart;
  const TargetAxes towardsTarget = targetAxes(toTarget, poleChain);
  const float targetDistance = first(towardsTarget.roots);
  const bool atStart = !(targetDistance > 1e-7f * longest);

  // Reach: softened near full extension, clamped to what the bones allow.
  float d = targetDistance;
  const float softStart = job.soften * longest;
  const float softLength = longest - softStart;
  if (ARTICULA_IK_RARE(d > softStart && softLength > 0.0f)) {
    const float r = 3.0f / (3.0f + (d - softStart) / softLength);
    d = softStart + softLength * (1.0f - r * r * r);
  }
  d = std::clamp(d, std::abs(a - b), longest);
  const bool folded = !(d > 1e-7f * longest);

  // Half the knee's interior angle wanted, β1, by the law of cosines in its half-angle form:
  // (a + b)² − d², d² − (a − b)² = 4ab (1 ± cos β1), products that stay precise near the
  // straight (β = π) and folded (β = 0) limb, with no trigonometry; their roots come with
  // square root below.
  const F4 sides = make(longest, d, 0.0f, 0.0f);
  const F4 others = make(d, a - b, 0.0f, 0.0f);
  const F4 wantedSquares = ik::simd::max((sides - others) * (sides + others), splat(0.0f));

  // Rotation side. The solved joints' rotations as they are, unit or not (validate() refuses
  // only zero ones): rotateScaled scales by their squared norms, divided out once, and the
  // written rotations are normalised anyway. Read here, after the target side, and the
  // start's just before its turn: a rig's next run reads what this one writes last, and an
  // instruction waiting for it holds back the retirement of every later one, so the fewer
  // that come before it, the further the runs overlap.
  Quat& startRotationOut = job.pose[static_cast<std::size_t>(job.startJoint)].rotation;
  Quat& midRotationOut = job.pose[static_cast<std::size_t>(job.midJoint)].rotation;
  const SolvedRotation mid = readSolvedRotation(midRotationOut);
  const F4 midRotation = mid.q;
  const F4 midNorm2 = mid.norm2;
  // The bones as unit directions in start space: rotations keep lengths, so the bones'
  // lengths are the limb's.
  const F4 upperDir = load(su.upperDir);
  const F4 lowerTurn =  // mid parent space → start space, times |mid|
      ARTICULA_IK_USUAL(su.linkIsIdentity) ? midRotation : linkTimes(su, midRotation);
  const F4 lowerDir =
      ik::simd::rotateScaled(lowerTurn, load(su.lowerLocal), midNorm2) * (splat(su.lowerDirScale) / midNorm2);
  const TargetAxes axes = ARTICULA_IK_RARE(atStart) ? targetAxesAtStart(startRotationOut, toVec3(upperDir * splat(a)),
                                                                        toVec3(lowerDir * splat(b)), longest, poleChain)
                                                    : towardsTarget;
  const F4 u = axes.u;
  const F4 kWanted = axes.kWanted;
  // Without a usable pole (on the start–target axis), the current plane swung minimally.
  const bool hasPole = lane<1>(axes.roots) > 1e-5f * lane<2>(axes.roots) * first(axes.roots);
  // 2 √(ab) cos(β1/2), 2 √(ab) sin(β1/2).
  const F4 wantedRoots = ik::simd::sqrt(wantedSquares);

  // |upperDir ∓ lowerDir|² = 2 (1 ± cos β0), β0 the knee's interior angle now, and
  // |upperDir × lowerDir|: their roots.
  const F4 cross = ik::simd::cross(upperDir, lowerDir);
  const F4 difference = upperDir - lowerDir;
  const F4 sum = upperDir + lowerDir;
  const F4 limbSquares = ik::simd::sums(difference * difference, sum * sum, cross * cross, cross * cross);
  const F4 lengths = ik::simd::sqrt(limbSquares);
  // The knee turn's norm is the product of its half-angle pairs' norms (c0² + s0²)(c1² + s1²)
  // (below), each 1 within rounding: from the squares before their roots, the mid output's
  // scale 1 / (|knee| |mid|) is known before the knee itself, off the chain through the mid
  // rotation that the next run of a rig reads back.
  const float kneeNorm2 =
      (first(limbSquares) + lane<1>(limbSquares)) * (first(wantedSquares) + lane<1>(wantedSquares)) * su.kneeNormScale;
  const F4 midScale = splat(1.0f) / ik::simd::sqrt(splat(kneeNorm2) * midNorm2);

  // Bend axis k: a positive rotation of the lower bone about k bends the limb more. Along
  // kAlong, k = kAlong kScale.
  const bool straight = !(lane<2>(lengths) > 1e-4f);
  const F4 kAlong = ARTICULA_IK_RARE(straight)
                        ? load(straightBendAxis(toQuat(lowerTurn), job.fallbackBendAxisMidLocal, toVec3(upperDir),
                                                startRotationOut, toVec3(poleChain)))
                        : cross;
  const F4 kScale =
      ARTICULA_IK_RARE(straight) ? splat(1.0f) : inverseNorm(broadcast<2>(limbSquares), broadcast<2>(lengths));
  const F4 k = kAlong * kScale;
  // The knee's turn after the mid rotation is cos(Δ/2) mid + sin(Δ/2) (k, 0) mid, Δ = β0 − β1:
  // the product with mid formed from kAlong, carried into the mid's parent space by the link
  // (link⁻¹ (k, 0) link is k turned; the link is unit), beside the half angles, so that
  // only two lane-wise products wait for them on the chain through the mid rotation.
  const F4 kMidParent = ARTICULA_IK_USUAL(su.linkIsIdentity)
                            ? kAlong
                            : ik::simd::rotateScaled(ik::simd::conjugate(load(su.linkRotation)), kAlong, splat(1.0f));
  const F4 kTimesMid = ik::simd::quatProduct(kMidParent, midRotation);

  // cos(β0/2), sin(β0/2) (signed about k), cos(β1/2), sin(β1/2).
  F4 halves = shuffle<0, 1, 0, 1>(lengths, wantedRoots) * load(su.halfAngleScale);
  if (ARTICULA_IK_RARE(straight && first(ik::simd::dot3(cross, k)) < 0.0f))
    halves = halves ^ make(0.0f, -0.0f, 0.0f, 0.0f);
  const float cosHalf1 = lane<2>(halves);
  const float sinHalf1 = lane<3>(halves);
  // The knee turns by Δ about k: products c0 c1, s0 s1, c0 s1, s0 c1, and from them
  // cos(Δ/2) in lanes 0 and 1, sin(Δ/2) in lanes 2 and 3.
  const F4 products = swizzle<0, 1, 0, 1>(halves) * swizzle<2, 3, 3, 2>(halves);
  const F4 kneeHalves =
      swizzle<0, 0, 3, 3>(products) + (swizzle<1, 1, 2, 2>(products) ^ make(0.0f, 0.0f, -0.0f, -0.0f));
  const float kneeSin = lane<2>(kneeHalves);
  auto knee = [&] { return k * splat(kneeSin) + make(0.0f, 0.0f, 0.0f, first(kneeHalves)); };

  // From the start joint to the end joint after the knee's turn, |reachAfterKnee| = d. The
  // knee turns the lower bone about k to π − β1 from the upper bone, towards k × upperDir:
  // along the upper bone a − b cos β1 = (a² − b² + d²) / 2a, across it b sin β1, with no
  // rotation. A straight input limb's lower bone may stray from that plane by rounding: there
  // the knee's turn itself. The factors come from the target side: divided by d there, they
  // give the reach's direction without a division on the limb's side.
  const float inverseD = 1.0f / d;
  const float alongReach = (su.squaresDifference + d * d) * su.halfUpperInverse;
  const float acrossReach = 2.0f * b * cosHalf1 * sinHalf1;
  const F4 kCrossUpper = ik::simd::cross(k, upperDir);
  auto inBendPlane = [&](float along, float across) { return upperDir * splat(along) + kCrossUpper * splat(across); };
  // Wanted only by the rare branches below: formed there.
  auto reachAfterKnee = [&] {
    return straight
               ? load(straightReachAfterKnee(toVec3(upperDir * splat(a)), toQuat(knee()), toVec3(lowerDir * splat(b))))
               : inBendPlane(alongReach, acrossReach);
  };

  // The start joint's new rotation maps the solved limb's frame in start space (a direction
  // in the bend plane, k) onto the wanted one in chain space (the same direction placed by
  // the target, kWanted).
  const SolvedRotation startIn = readSolvedRotation(startRotationOut);
  const F4 startRotation = startIn.q;
  const float startNorm2 = first(startIn.norm2);
  StartTurn start;
  if (job.method == TwoBoneIkJob::Method::LawOfCosines) {
    // The reach swung onto the target and turned about it into the pole's plane. It is zero
    // only for equal bones folded onto the start: then only the turn about u.
    const F4 reachDir = ARTICULA_IK_RARE(folded) ? load(intoStartSpace(startRotationOut, toVec3(u)))
                        : straight               ? reachAfterKnee() * splat(inverseD)
                                                 : inBendPlane(alongReach * inverseD, acrossReach * inverseD);
    // A straight input limb's k is across the upper bone only: make it across the reach.
    const F4 kAcross = ARTICULA_IK_RARE(straight || folded) ? k - reachDir * ik::simd::dot3(k, reachDir) : k;
    if (ARTICULA_IK_USUAL(hasPole)) {
      // reachDir × k = along (upperDir × k) + across ((k × upperDir) × k), beside reachDir;
      // z1 = u × kWanted, the pole's direction across u.
      const F4 reachCrossK = ARTICULA_IK_RARE(straight || folded) ? ik::simd::cross(reachDir, kAcross)
                                                                  : upperDir * splat(acrossReach * inverseD) -
                                                                        kCrossUpper * splat(alongReach * inverseD);
      start =
          frameTurn(reachDir, kAcross, reachCrossK, u, kWanted, ik::simd::cross(u, kWanted), startRotation, startNorm2);
    } else {
      start =
          withSquares(folded ? startRotation : load(swungStart(startRotationOut, toVec3(reachAfterKnee()), toVec3(u))),
                      startRotation);
    }
  } else {
    const F4 kPlane =
        hasPole ? kWanted : load(swungBendAxis(startRotationOut, toVec3(reachAfterKnee()), toVec3(u), toVec3(k)));
    const F4 vWanted = ik::simd::cross(u, kPlane);
    // Knee on the circle where the spheres (start, a) and (target, b) meet, on vWanted's
    // side: along² + across² = a².
    const float inv2d = folded ? 0.0f : 0.5f * inverseD;
    const float along = folded ? 0.0f : (su.squaresDifference + d * d) * inv2d;
    const float across = folded ? a : 2.0f * a * b * (2.0f * cosHalf1 * sinHalf1) * inv2d;
    const F4 upperWantedDir = (u * splat(along) + vWanted * splat(across)) * splat(su.upperInverse);
    start = frameTurn(upperDir, k, ik::simd::cross(upperDir, k), upperWantedDir, kPlane,
                      ik::simd::cross(upperWantedDir, kPlane), startRotation, startNorm2);
  }
  if (ARTICULA_IK_RARE(job.twistAngleRad != 0.0f))
    start =
        withSquares(load(twisted(toQuat(start.q), toVec3(u), job.twistAngleRad, su.chainDeterminant)), startRotation);

  // The results scaled by their inverse norms and flipped into their inputs' hemispheres,
  // the flip folded into the scale (a sign is exact): ⟨p q, q⟩ = p.w |q|², so the knee's w,
  // cos(Δ/2), gives the mid's sign and ⟨K r, r⟩ (StartTurn) the start's. Each output waits
  // on its own chain only.
  const F4 midFactors =
      (kneeHalves * shuffle<0, 0, 0, 0>(midScale, kScale * midScale)) ^ signOf(broadcast<0>(kneeHalves));
  F4 midOut = midRotation * broadcast<0>(midFactors) + kTimesMid * broadcast<2>(midFactors);
  F4 startOut = start.q * (inverseNorm(broadcast<0>(start.squares)) ^ signOf(broadcast<1>(start.squares)));
  // Invalid solved rotations (not finite, or zero) are refused here, before anything is
  // written, rather than before the solve: the check then waits for a rig's previous run's
  // results at the end of this run, not at its start.
  if (ARTICULA_IK_RARE(ik::simd::movemask(solvedRotationsValid(startIn, mid)) != 0xF)) return false;
  const bool blended = job.weight < 1.0f;
  if (ARTICULA_IK_RARE(blended)) {
    // The slerp takes the shorter way to either sign of the solved rotation alike.
    startOut = blend(startRotation, startOut, job.weight);
    midOut = blend(midRotation, midOut, job.weight);
    const F4 dots = ik::simd::sums(startOut * startRotation, midOut * midRotation);
    startOut = startOut ^ signOf(broadcast<0>(dots));
    midOut = midOut ^ signOf(broadcast<1>(dots));
  }
  ik::simd::store4(startRotationOut.coeffs().data(), startOut);
  ik::simd::store4(midRotationOut.coeffs().data(), midOut);

  if (job.report != nullptr) {
    // Where the end joint is now, from the start joint. Unblended, d along u: each start
    // rotation above takes the reach after the knee's turn, of length d, onto u (the twist
    // turns about u), so the error comes from the target side alone, off the rotations'
    // chain. Blended, FK of the written (unit) rotations.
    const F4 one = splat(1.0f);
    const F4 endFromStart =
        blended ? ik::simd::rotateScaled(
                      startOut,
                      load(su.upperLocal) +
                          splat(su.linkScale) *
                              ik::simd::rotateScaled(load(su.linkRotation),
                                                     ik::simd::rotateScaled(midOut, load(su.lowerLocal), one), one),
                      one)
                : u * splat(d);
    const F4 error = mul3x3(su.chainToModel, endFromStart - toTarget);
    job.report->errorModel = first(ik::simd::sqrt(ik::simd::dot3(error, error)));
    job.report->reached = job.report->errorModel <= job.toleranceModel;
    job.report->iterations = 1;
  }
  return true;
}

// The per-run input check, then the solve; false (nothing written) when the inputs are
// invalid.
bool checkedSolve(const TwoBoneIkJob& job, const TwoBoneLimb& limb) {
  RunInputs in;
  return ARTICULA_IK_USUAL(inputsValid(job, in)) && solve(job, limb, in);
}

// A run with a workspace, as a rig runs every limb at every frame: the hot path, the
// source comparison and the input check compiled with the solve.
ARTICULA_IK_HOT_WIDE bool runWithWorkspace(const TwoBoneIkJob& job, TwoBoneIkWorkspace& ws) {
  const TwoBoneLimb* limb = workspaceLimb(job, ws);
  return limb != nullptr && checkedSolve(job, *limb);
}

// A run without a workspace: the limb derived into a scratch one. Out of line, so that a run
// with a workspace goes straight to runWithWorkspace, with no room set up for the scratch.
[[gnu::noinline]] bool runScratch(const TwoBoneIkJob& job) {
  TwoBoneLimb scratch;
  std::optional<std::string> error;
  return checkAndDerive(job, scratch, nullptr, error) && checkedSolve(job, scratch);
}

}  // namespace

std::optional<std::string> TwoBoneIkJob::validate() const {
  TwoBoneLimb limb;
  std::optional<std::string> error;
  checkAndDerive(*this, limb, nullptr, error);
  return error;
}

bool TwoBoneIkJob::run() const {
  return workspace != nullptr ? runWithWorkspace(*this, *workspace) : runScratch(*this);
}

}  // namespace articula
