#include "core/ik/two_bone_ik.h"

#include <algorithm>
#include <cmath>
#include <cstring>

#if defined(__SSE2__) || defined(_M_X64)
#include <emmintrin.h>
#define ARTICULA_TWO_BONE_SSE2 1
#endif

#include "core/ik/ik_frames.h"
#include "core/math/quaternion.h"

namespace articula {

namespace {

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

// A local transform on the limb's path: finite, a non-zero rotation where it is read (not
// the end joint's), a uniform scale where the upper bone must stay rigid.
std::optional<std::string> checkLocal(const TwoBoneIkJob& job, int j, bool rotationRead, bool mustBeUniform) {
  const Transform& t = job.pose[static_cast<std::size_t>(j)];
  const bool finiteTransform = ik::isFinite(t.translation) && ik::isFinite(t.scale) &&
                               (!rotationRead || ik::allFinite(t.rotation.coeffs().data(), 4));
  // The common case first, without building anything.
  if (finiteTransform && (!rotationRead || t.rotation.coeffs().squaredNorm() >= 1e-12f) &&
      (!mustBeUniform || ik::isUniform(t.scale)))
    return std::nullopt;
  if (!finiteTransform) return "two-bone IK: the local transform of " + label(*job.skeleton, j) + " is not finite";
  if (rotationRead && t.rotation.coeffs().squaredNorm() < 1e-12f)
    return "two-bone IK: the local rotation of " + label(*job.skeleton, j) + " is zero";
  return "two-bone IK: " + label(*job.skeleton, j) +
         " has a non-uniform scale above the mid joint (the upper bone would not be rigid)";
}

// The solved joints' rotations, read at every run.
std::optional<std::string> checkSolvedRotation(const TwoBoneIkJob& job, int j) {
  const Quat& q = job.pose[static_cast<std::size_t>(j)].rotation;
  if (!ik::allFinite(q.coeffs().data(), 4))
    return "two-bone IK: the local transform of " + label(*job.skeleton, j) + " is not finite";
  if (q.coeffs().squaredNorm() < 1e-12f)
    return "two-bone IK: the local rotation of " + label(*job.skeleton, j) + " is zero";
  return std::nullopt;
}

// The chain frame (the start joint's parent space) in model space: the parent's model
// matrix, or for a skeleton root its own times the inverse of its local transform, built in
// `rootFrame` (the common case reads the parent's matrix where it is, without a copy).
const Affine& chainFrame(const TwoBoneIkJob& job, Affine& rootFrame) {
  const int parent = job.skeleton->parent(job.startJoint);
  if (parent != kNoParent) return job.model[static_cast<std::size_t>(parent)];
  rootFrame = ik::frameAboveRoot(job.model[static_cast<std::size_t>(job.startJoint)],
                                 job.pose[static_cast<std::size_t>(job.startJoint)]);
  return rootFrame;
}

// checkParameters and checkSolvedRotation of both solved joints as one test that builds no
// message: true exactly when all three pass, as at nearly every run; inputsError names the
// failure otherwise. The joint indices must be valid.
bool inputsValid(const TwoBoneIkJob& job) {
  const Vec4& start = job.pose[static_cast<std::size_t>(job.startJoint)].rotation.coeffs();
  const Vec4& mid = job.pose[static_cast<std::size_t>(job.midJoint)].rotation.coeffs();
  // x * 0 is 0 for a finite x and NaN otherwise: the sum is 0 exactly when every value is
  // finite (multiplied first, finite values cannot overflow the sum).
  const float zeros = (job.targetModel * 0.0f + job.poleModel * 0.0f + job.fallbackBendAxisMidLocal * 0.0f).sum() +
                      (start * 0.0f + mid * 0.0f).sum() + job.twistAngleRad * 0.0f + job.toleranceModel * 0.0f;
  return zeros == 0.0f && (job.poleMode != TwoBoneIkJob::PoleMode::Vector || job.poleModel.squaredNorm() != 0.0f) &&
         job.fallbackBendAxisMidLocal.squaredNorm() != 0.0f && job.soften >= 0.0f && job.soften <= 1.0f &&
         job.weight >= 0.0f && job.weight <= 1.0f && job.toleranceModel >= 0.0f && start.squaredNorm() >= 1e-12f &&
         mid.squaredNorm() >= 1e-12f;
}

// What inputsValid refused, in validate()'s order.
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
  if (auto e = checkLocal(job, job.endJoint, false, false)) return e;
  for (int j = skeleton.parent(job.endJoint); j != job.midJoint; j = skeleton.parent(j)) {
    if (auto e = checkLocal(job, j, true, false)) return e;
    const Transform& t = job.pose[static_cast<std::size_t>(j)];
    offset = t.translation + t.rotation.normalized() * t.scale.cwiseProduct(offset);
  }
  if (auto e = checkLocal(job, job.midJoint, true, false)) return e;
  const Transform& mid = job.pose[static_cast<std::size_t>(job.midJoint)];
  limb.lowerLocal = mid.scale.cwiseProduct(offset);

  // Upper bone: start → mid; the start joint and the joints in between must scale uniformly.
  offset = mid.translation;
  Quat link = Quat::Identity();
  float linkScale = 1.0f;
  for (int j = skeleton.parent(job.midJoint); j != job.startJoint; j = skeleton.parent(j)) {
    if (auto e = checkLocal(job, j, true, true)) return e;
    const Transform& t = job.pose[static_cast<std::size_t>(j)];
    Quat between = t.rotation.normalized();
    offset = t.translation + between * t.scale.cwiseProduct(offset);
    accumulateUniform(t.scale, linkScale, between);
    link = between * link;
  }
  if (auto e = checkLocal(job, job.startJoint, true, true)) return e;
  const Transform& start = job.pose[static_cast<std::size_t>(job.startJoint)];
  limb.upperLocal = start.scale.cwiseProduct(offset);
  Quat own = Quat::Identity();
  accumulateUniform(start.scale, linkScale, own);
  limb.linkRotation = own * link;
  limb.linkScale = linkScale;
  limb.start = start.translation;

  limb.chainToModel = frame.linear();
  limb.originModel = frame.translation();
  if (!ik::isFinite(limb.chainToModel) || !ik::isFinite(limb.originModel))
    return "two-bone IK: the model matrix above " + label(skeleton, job.startJoint) + " is not finite";
  const float maxEntry = limb.chainToModel.cwiseAbs().maxCoeff();
  // The inverse as adjugate / determinant: the adjugate's rows are cross products of the
  // columns, and the determinant comes with them.
  const Vec3 c0 = limb.chainToModel.col(0);
  const Vec3 c1 = limb.chainToModel.col(1);
  const Vec3 c2 = limb.chainToModel.col(2);
  const Vec3 r0 = c1.cross(c2);
  const float determinant = c0.dot(r0);
  if (!(std::abs(determinant) > 1e-12f * maxEntry * maxEntry * maxEntry))
    return "two-bone IK: the model matrix above " + label(skeleton, job.startJoint) + " is singular";
  const float inverseDeterminant = 1.0f / determinant;
  limb.modelToChain.row(0) = r0.transpose() * inverseDeterminant;
  limb.modelToChain.row(1) = c2.cross(c0).transpose() * inverseDeterminant;
  limb.modelToChain.row(2) = c0.cross(c1).transpose() * inverseDeterminant;
  limb.chainDeterminant = determinant;

  const float upper = limb.upperLocal.norm();
  const float lower = std::abs(linkScale) * limb.lowerLocal.norm();
  if (!(upper > 1e-6f * (upper + lower)))
    return "two-bone IK: zero-length bone from " + label(skeleton, job.startJoint) + " to " +
           label(skeleton, job.midJoint);
  if (!(lower > 1e-6f * (upper + lower)))
    return "two-bone IK: zero-length bone from " + label(skeleton, job.midJoint) + " to " +
           label(skeleton, job.endJoint);
  limb.upperLength = upper;
  limb.lowerLength = lower;
  limb.upperInverse = 1.0f / upper;
  limb.lowerInverse = 1.0f / lower;
  limb.halfInverseRootAb = 0.5f / std::sqrt(upper * lower);
  return std::nullopt;
}

// The workspace's limb was derived for this skeleton and these joints, and the pose and
// model are large enough to read them.
bool sameJoints(const TwoBoneIkJob& job, const TwoBoneIkWorkspace& ws) {
  return job.skeleton != nullptr && ws.skeleton == job.skeleton && ws.startJoint == job.startJoint &&
         ws.midJoint == job.midJoint && ws.endJoint == job.endJoint && job.skeleton->jointCount() == ws.jointCount &&
         job.pose.size() >= static_cast<std::size_t>(ws.jointCount) &&
         job.model.size() >= static_cast<std::size_t>(ws.jointCount);
}

// The start joint is the mid joint's parent and the mid joint the end joint's.
bool isDirect(const TwoBoneIkJob& job) {
  const Skeleton& skeleton = *job.skeleton;
  return skeleton.parent(job.endJoint) == job.midJoint && skeleton.parent(job.midJoint) == job.startJoint;
}

// Compares a direct limb's source as it is now with `record`, block by block, and stores it
// there; true when any bit differs. SSE2 where there is one, four 32-bit lanes elsewhere.
bool directSourceChanged(const TwoBoneIkJob& job, const Affine& frame, TwoBoneDirectSource& record) {
  const Transform& start = job.pose[static_cast<std::size_t>(job.startJoint)];
  const Transform& mid = job.pose[static_cast<std::size_t>(job.midJoint)];
  const Transform& end = job.pose[static_cast<std::size_t>(job.endJoint)];
  // Column-major 4×4: the linear part's columns, then the origin.
  const float* m = frame.data();
  const float* const vectors[6] = {start.translation.data(), start.scale.data(),     mid.translation.data(),
                                   mid.scale.data(),         end.translation.data(), end.scale.data()};
#ifdef ARTICULA_TWO_BONE_SSE2
  // x, y, z and a zero lane, read without touching the bytes after z.
  auto load3 = [](const float* v) {
    return _mm_castps_si128(
        _mm_movelh_ps(_mm_castpd_ps(_mm_load_sd(reinterpret_cast<const double*>(v))), _mm_load_ss(v + 2)));
  };
  __m128i diff = _mm_setzero_si128();
  auto put = [&](__m128i block, std::uint32_t* slot) {
    auto* bits = reinterpret_cast<__m128i*>(slot);
    diff = _mm_or_si128(diff, _mm_xor_si128(_mm_load_si128(bits), block));
    _mm_store_si128(bits, block);
  };
  for (int i = 0; i < 6; ++i) put(load3(vectors[i]), record.bits[i]);
  for (int c = 0; c < 4; ++c) put(_mm_loadu_si128(reinterpret_cast<const __m128i*>(m + 4 * c)), record.bits[6 + c]);
  return _mm_movemask_epi8(_mm_cmpeq_epi32(diff, _mm_setzero_si128())) != 0xFFFF;
#else
  std::uint32_t diff = 0;
  auto put = [&](const float* v, int lanes, std::uint32_t* slot) {
    std::uint32_t block[4] = {};
    std::memcpy(block, v, static_cast<std::size_t>(lanes) * sizeof(float));
    for (int k = 0; k < 4; ++k) {
      diff |= slot[k] ^ block[k];
      slot[k] = block[k];
    }
  };
  for (int i = 0; i < 6; ++i) put(vectors[i], 3, record.bits[i]);
  for (int c = 0; c < 4; ++c) put(m + 4 * c, 4, record.bits[6 + c]);
  return diff != 0;
#endif
}

// Records the path from the end joint up to the start joint in `record`, as the hierarchy is
// now, and the frame; true when they differ from the last valid record. A path that no
// longer reaches the start joint counts as a change. Out of line: the direct limb's check,
// the common one, then needs no registers saved.
[[gnu::noinline]] bool pathSourceChanged(const TwoBoneIkJob& job, const Affine& frame, IkInputRecord& record) {
  const Skeleton& skeleton = *job.skeleton;
  IkInputRecord::Pass pass = record.begin();
  int j = job.endJoint;
  for (; j != kNoParent && j >= job.startJoint; j = skeleton.parent(j)) {
    const bool solved = j == job.startJoint || j == job.midJoint || j == job.endJoint;
    pass.add(j, job.pose[static_cast<std::size_t>(j)], !solved);
    if (j == job.startJoint) break;
  }
  const bool changed = record.finish(pass, frame);
  return changed || j != job.startJoint;
}

// Records what the limb comes from as the hierarchy, the pose and the frame are now; true
// when it differs from the record the limb was derived from (or there is none): a direct
// limb in `ws.directSource`, any other in `ws.source`.
bool sourceChanged(const TwoBoneIkJob& job, const Affine& frame, TwoBoneIkWorkspace& ws) {
  if (isDirect(job)) {
    const bool changed = directSourceChanged(job, frame, ws.directSource) || !ws.directValid;
    ws.directValid = !changed;
    ws.source.invalidate();
    return changed;
  }
  ws.directValid = false;
  return pathSourceChanged(job, frame, ws.source);
}

// Every check of validate(), then the limb derived into `limb` and, with a workspace, what
// it came from recorded there; false (with the message in `error`) when invalid.
bool checkAndDerive(const TwoBoneIkJob& job, TwoBoneLimb& limb, TwoBoneIkWorkspace* ws,
                    std::optional<std::string>& error) {
  error = checkJoints(job);
  if (!error && !inputsValid(job)) error = inputsError(job);
  if (error) return false;
  Affine rootFrame;
  const Affine& frame = chainFrame(job, rootFrame);
  if (ws != nullptr) {
    ws->directValid = false;
    ws->source.invalidate();
    sourceChanged(job, frame, *ws);
  }
  error = deriveLimb(job, frame, limb);
  return !error;
}

// The workspace's limb, re-derived first when what it came from changed; null (with the
// message in `error`) when the job is invalid.
const TwoBoneLimb* workspaceLimb(const TwoBoneIkJob& job, TwoBoneIkWorkspace& ws, std::optional<std::string>& error) {
  if (sameJoints(job, ws)) {
    Affine rootFrame;
    if (!sourceChanged(job, chainFrame(job, rootFrame), ws)) {
      if (inputsValid(job)) return &ws.limb;
      error = inputsError(job);
      return nullptr;
    }
  }
  if (!checkAndDerive(job, ws.limb, &ws, error)) return nullptr;
  ws.skeleton = job.skeleton;
  ws.jointCount = job.skeleton->jointCount();
  ws.startJoint = job.startJoint;
  ws.midJoint = job.midJoint;
  ws.endJoint = job.endJoint;
  if (isDirect(job)) {
    ws.directValid = true;
  } else {
    ws.source.markValid();
  }
  return &ws.limb;
}

// frameTurn near a half turn, where its cheap form cancels: the largest of x, y, z from the
// diagonal of M = Σ bᵢ aᵢᵀ (4x² = 1 + M₀₀ − M₁₁ − M₂₂, …) and the quaternion times 4x (or 4y,
// 4z) from M's off-diagonal sums and differences (Shepperd's method), with no square root.
// Out of line: it would crowd the common path's registers.
[[gnu::noinline]] Quat frameTurnNearHalf(const Vec3& x0, const Vec3& y0, const Vec3& z0, const Vec3& x1, const Vec3& y1,
                                         const Vec3& z1) {
  const Mat3 m = x1 * x0.transpose() + y1 * y0.transpose() + z1 * z0.transpose();
  if (m(0, 0) >= m(1, 1) && m(0, 0) >= m(2, 2))
    return Quat(m(2, 1) - m(1, 2), 1.0f + m(0, 0) - m(1, 1) - m(2, 2), m(0, 1) + m(1, 0), m(0, 2) + m(2, 0));
  if (m(1, 1) >= m(2, 2))
    return Quat(m(0, 2) - m(2, 0), m(0, 1) + m(1, 0), 1.0f - m(0, 0) + m(1, 1) - m(2, 2), m(1, 2) + m(2, 1));
  return Quat(m(1, 0) - m(0, 1), m(0, 2) + m(2, 0), m(1, 2) + m(2, 1), 1.0f - m(0, 0) - m(1, 1) + m(2, 2));
}

// The rotation taking the orthonormal frame (x0, y0, x0 × y0) onto (x1, y1, x1 × y1), not
// normalised. With M = Σ bᵢ aᵢᵀ over the frames' axes, 1 + trace M = 4 cos²(φ/2) and the axial
// vector Σ aᵢ × bᵢ = 4 cos(φ/2) sin(φ/2) n: the quaternion times 4 cos(φ/2), with no square
// root. Near a half turn that factor cancels; there frameTurnNearHalf takes over.
// Written on scalars and inlined: Eigen's packed cross products shuffle more than they save.
inline Quat frameTurn(const Vec3& x0, const Vec3& y0, const Vec3& x1, const Vec3& y1) {
  const float z0x = x0.y() * y0.z() - x0.z() * y0.y();
  const float z0y = x0.z() * y0.x() - x0.x() * y0.z();
  const float z0z = x0.x() * y0.y() - x0.y() * y0.x();
  const float z1x = x1.y() * y1.z() - x1.z() * y1.y();
  const float z1y = x1.z() * y1.x() - x1.x() * y1.z();
  const float z1z = x1.x() * y1.y() - x1.y() * y1.x();
  const float w = 1.0f + (x0.x() * x1.x() + x0.y() * x1.y() + x0.z() * x1.z()) +
                  (y0.x() * y1.x() + y0.y() * y1.y() + y0.z() * y1.z()) + (z0x * z1x + z0y * z1y + z0z * z1z);
  if (w > 0.25f) {
    const float vx =
        (x0.y() * x1.z() - x0.z() * x1.y()) + (y0.y() * y1.z() - y0.z() * y1.y()) + (z0y * z1z - z0z * z1y);
    const float vy =
        (x0.z() * x1.x() - x0.x() * x1.z()) + (y0.z() * y1.x() - y0.x() * y1.z()) + (z0z * z1x - z0x * z1z);
    const float vz =
        (x0.x() * x1.y() - x0.y() * x1.x()) + (y0.x() * y1.y() - y0.y() * y1.x()) + (z0x * z1y - z0y * z1x);
    return Quat(w, vx, vy, vz);
  }
  return frameTurnNearHalf(x0, y0, Vec3(z0x, z0y, z0z), x1, y1, Vec3(z1x, z1y, z1z));
}

// The solve proper, on a checked job and its limb; vectors in chain space unless named.
ARTICULA_IK_HOT void solve(const TwoBoneIkJob& job, const TwoBoneLimb& su) {
  // The solved joints' rotations as they are, unit or not (validate() refuses only zero ones):
  // ik::rotateScaled scales by their squared norms, divided out once, and the written rotations
  // are normalised anyway.
  const Quat& startRotation = job.pose[static_cast<std::size_t>(job.startJoint)].rotation;
  const Quat& midRotation = job.pose[static_cast<std::size_t>(job.midJoint)].rotation;
  const float startNorm2 = startRotation.squaredNorm();
  const float startInverse2 = 1.0f / startNorm2;
  const float midInverse2 = 1.0f / midRotation.squaredNorm();

  // Limb in chain space.
  const Vec3 upper = ik::rotateScaled(startRotation, su.upperLocal) * startInverse2;
  const Quat midParent = startRotation * su.linkRotation;  // the mid's parent frame, times |start|
  const Quat midWorld = midParent * midRotation;           // times |start| |mid|
  const Vec3 lower = ik::rotateScaled(midWorld, su.lowerLocal) * (su.linkScale * startInverse2 * midInverse2);
  // Rotations keep lengths: the bones' lengths are the limb's.
  const float a = su.upperLength;
  const float b = su.lowerLength;
  const Vec3 upperDir = upper * su.upperInverse;
  const Vec3 lowerDir = lower * su.lowerInverse;
  const Vec3 toTarget = su.modelToChain * (job.targetModel - su.originModel) - su.start;
  const float targetDistance = toTarget.norm();
  const Vec3 poleChain = job.poleMode == TwoBoneIkJob::PoleMode::Vector
                             ? Vec3(su.modelToChain * job.poleModel)
                             : Vec3(su.modelToChain * (job.poleModel - su.originModel) - su.start);

  // Bend axis k: a positive rotation of the lower bone about k bends the limb more.
  const Vec3 cross = upper.cross(lower);
  const float crossNorm = cross.norm();
  Vec3 k;
  bool straight = false;
  if (crossNorm > 1e-4f * a * b) {
    k = cross * (1.0f / crossNorm);
  } else {
    straight = true;
    // Rotations about a similarity frame turn with its rotation part only (the signed scale
    // commutes), so the mid-local axis maps into chain space by midWorld.
    k = ik::rotateScaled(midWorld, job.fallbackBendAxisMidLocal);
    k -= upperDir * k.dot(upperDir);
    if (k.squaredNorm() < 1e-12f * job.fallbackBendAxisMidLocal.squaredNorm()) k = upperDir.cross(poleChain);
    if (k.squaredNorm() < 1e-12f * poleChain.squaredNorm() || k.squaredNorm() == 0.0f) k = upperDir.unitOrthogonal();
    k.normalize();
  }

  // Direction to the target; at the start joint itself keep the limb's direction.
  Vec3 u;
  if (targetDistance > 1e-7f * (a + b)) {
    u = toTarget / targetDistance;
  } else {
    const Vec3 reach = upper + lower;
    u = reach.squaredNorm() > 1e-12f * (a + b) * (a + b) ? Vec3(reach.normalized()) : upperDir;
  }

  // Reach: softened near full extension, clamped to what the bones allow.
  const float longest = a + b;
  const float shortest = std::abs(a - b);
  float d = targetDistance;
  const float softStart = job.soften * longest;
  const float softLength = longest - softStart;
  if (d > softStart && softLength > 0.0f) {
    const float r = 3.0f / (3.0f + (d - softStart) / softLength);
    d = softStart + softLength * (1.0f - r * r * r);
  }
  d = std::clamp(d, shortest, longest);

  // Half the knee's interior angle, now (β0, signed about k) and wanted (β1, law of cosines
  // in its half-angle form), as cosine and sine: |upperDir ∓ lowerDir|² = 2 (1 ± cos β0) and
  // (a + b)² − d², d² − (a − b)² = 4ab (1 ± cos β1), products that stay precise near the
  // straight (β = π) and folded (β = 0) limb, with no trigonometry.
  const float cosHalf0 = 0.5f * (upperDir - lowerDir).norm();
  float sinHalf0 = 0.5f * (upperDir + lowerDir).norm();
  if (straight && cross.dot(k) < 0.0f) sinHalf0 = -sinHalf0;
  const float cosHalf1 = std::sqrt(std::max(0.0f, (longest - d) * (longest + d))) * su.halfInverseRootAb;
  const float sinHalf1 = std::sqrt(std::max(0.0f, (d - a + b) * (d + a - b))) * su.halfInverseRootAb;
  // The knee turns by β0 − β1 about k.
  const float kneeSin = sinHalf0 * cosHalf1 - cosHalf0 * sinHalf1;
  const Quat knee(cosHalf0 * cosHalf1 + sinHalf0 * sinHalf1, k.x() * kneeSin, k.y() * kneeSin, k.z() * kneeSin);

  // Bend plane wanted: normal kWanted = v × u with v the pole's direction across the
  // start–target axis; without a usable pole, the current plane swung minimally.
  const Vec3 poleAcross = poleChain - u * poleChain.dot(u);
  const bool hasPole = poleAcross.squaredNorm() > 1e-10f * poleChain.squaredNorm() && poleChain.squaredNorm() > 0.0f;

  // From the start joint to the end joint after the knee's turn, |reachAfterKnee| = d. The
  // knee turns the lower bone about k to π − β1 from the upper bone, towards k × upperDir:
  // along the upper bone a − b cos β1 = (a² − b² + d²) / 2a, across it b sin β1, with no
  // rotation. A straight input limb's lower bone may stray from that plane by rounding: there
  // the knee's turn itself.
  const Vec3 reachAfterKnee = straight ? Vec3(upper + knee * lower)
                                       : Vec3(upperDir * ((a * a - b * b + d * d) * (0.5f * su.upperInverse)) +
                                              k.cross(upperDir) * (2.0f * b * cosHalf1 * sinHalf1));

  // The start joint's turn maps the solved limb's frame (a direction in the bend plane, k)
  // onto the wanted one (the same direction placed by the target, kWanted).
  Quat startTurn;
  if (job.method == TwoBoneIkJob::Method::LawOfCosines) {
    // The reach swung onto the target and turned about it into the pole's plane. It is zero
    // only for equal bones folded onto the start: then only the turn about u.
    const Vec3& reach = reachAfterKnee;
    const bool folded = !(d > 1e-7f * longest);
    const Vec3 reachDir = folded ? u : Vec3(reach * (1.0f / d));
    // A straight input limb's k is across the upper bone only: make it across the reach.
    const Vec3 kAcross = straight || folded ? Vec3(k - reachDir * k.dot(reachDir)) : k;
    if (hasPole) {
      const Vec3 v = poleAcross.normalized();
      startTurn = frameTurn(reachDir, kAcross, u, v.cross(u));
    } else {
      startTurn = folded ? Quat::Identity() : ik::fromToScaled(reach, u, reach.norm());
    }
  } else {
    Vec3 v;
    Vec3 kWanted;
    if (hasPole) {
      v = poleAcross.normalized();
      kWanted = v.cross(u);
    } else {
      kWanted = fromToUnitTrigFree(reachAfterKnee.normalized(), u) * k;
      v = u.cross(kWanted);
    }
    // Knee on the circle where the spheres (start, a) and (target, b) meet, on v's side.
    const bool folded = !(d > 1e-7f * longest);
    const float inv2d = folded ? 0.0f : 0.5f / d;
    const float along = folded ? 0.0f : (d * d + a * a - b * b) * inv2d;
    const float across = folded ? a : 2.0f * a * b * (2.0f * cosHalf1 * sinHalf1) * inv2d;
    // |upperWanted| = a: along² + across² = a² on the circle.
    const Vec3 upperWantedDir = (u * along + v * across) * su.upperInverse;
    startTurn = frameTurn(upperDir, k, upperWantedDir, kWanted);
  }
  if (job.twistAngleRad != 0.0f) {
    // The start–target axis is the same line in both spaces; a mirror reverses the turn.
    const float angleRad = su.chainDeterminant < 0.0f ? -job.twistAngleRad : job.twistAngleRad;
    startTurn = Quat(Eigen::AngleAxisf(angleRad, u)) * startTurn;
  }

  // Into local rotations: the start joint's parent space is chain space; the knee turn is
  // carried into the mid's parent space by the rotation part of that frame. startTurn and
  // startRotation are scaled: their norms, known before the product, normalise the result.
  const float startTurnNorm2 = startTurn.squaredNorm();
  Quat startOut = startTurn * startRotation;
  startOut.coeffs() *= 1.0f / std::sqrt(startTurnNorm2 * startNorm2);
  // midParent⁻¹ · knee · midParent keeps knee's w and turns its axis into the mid's parent
  // space; both parts scaled by |midParent|², which the normalisation removes.
  const Vec3 kneeAxisMidParent = ik::rotateScaled(midParent.conjugate(), knee.vec());
  const Quat kneeMidParent(startNorm2 * knee.w(), kneeAxisMidParent.x(), kneeAxisMidParent.y(), kneeAxisMidParent.z());
  Quat midOut = (kneeMidParent * midRotation).normalized();
  const bool blended = job.weight < 1.0f;
  if (blended) {
    startOut = startRotation.normalized().slerp(job.weight, startOut).normalized();
    midOut = midRotation.normalized().slerp(job.weight, midOut).normalized();
  }
  startOut = alignHemisphere(startOut, startRotation);
  midOut = alignHemisphere(midOut, midRotation);

  job.pose[static_cast<std::size_t>(job.startJoint)].rotation = startOut;
  job.pose[static_cast<std::size_t>(job.midJoint)].rotation = midOut;

  if (job.report != nullptr) {
    // Where the end joint is now, from the start joint. Unblended, the written rotations
    // place it at the reach after the knee's turn, turned by startTurn: one rotation instead
    // of FK down the limb. Blended, FK of the written rotations.
    const Vec3 endFromStart =
        blended ? Vec3(startOut * (su.upperLocal + su.linkScale * (su.linkRotation * (midOut * su.lowerLocal))))
                : Vec3(ik::rotateScaled(startTurn, reachAfterKnee) * (1.0f / startTurnNorm2));
    job.report->errorModel = (su.chainToModel * (endFromStart - toTarget)).norm();
    job.report->reached = job.report->errorModel <= job.toleranceModel;
    job.report->iterations = 1;
  }
}

}  // namespace

std::optional<std::string> TwoBoneIkJob::validate() const {
  TwoBoneLimb limb;
  std::optional<std::string> error;
  checkAndDerive(*this, limb, nullptr, error);
  return error;
}

bool TwoBoneIkJob::run() const {
  std::optional<std::string> error;
  if (workspace != nullptr) {
    const TwoBoneLimb* limb = workspaceLimb(*this, *workspace, error);
    if (limb == nullptr) return false;
    solve(*this, *limb);
    return true;
  }
  TwoBoneLimb scratch;
  if (!checkAndDerive(*this, scratch, nullptr, error)) return false;
  solve(*this, scratch);
  return true;
}

}  // namespace articula
