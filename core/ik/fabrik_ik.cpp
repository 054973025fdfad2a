#include "core/ik/fabrik_ik.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/ik/ik_frames.h"
#include "core/math/quaternion.h"

namespace articula {

namespace {

// (1 − 1 %)²: a pass that does not bring the tip 1 % closer counts as stalled.
constexpr float kStallRatio2 = 0.99f * 0.99f;
// The squared error ratio a first pass is assumed to reach, before one is measured: a pass
// whose error times the ratio is within tolerance recovers the rotations as its forward pass;
// any other runs the positional forward pass and measures. A chain without limits assumes it
// reaches. Its recovery places every joint as the positional forward pass does, so a pass
// that reaches after a positional forward pass runs that pass twice, and each is serial from
// joint to joint (sqrt and division per joint); a miss costs one recovery instead. On
// BM_FabrikChain10/track, assuming a threefold cut ran per frame 1.32 backward passes, 1.02
// positional forward passes and 1.01 recoveries; assuming it reaches, 1.32 backward passes
// and 1.31 recoveries: 17 % fewer cycles on those serial paths (llvm-mca, Zen 3: 52 cycles
// per joint for a positional pass, 70 for a recovery). Under limits a recovery also
// projects onto them, and a chain takes several passes: there a first pass assumes a
// threefold cut, and recovers only when it will reach.
constexpr float kFreeFirstPassRatio2 = 0.0f;
constexpr float kLimitedFirstPassRatio2 = 0.3f * 0.3f;

// Direction of bone k in chain space from the current rotations (fallback when two solved
// positions coincide).
Vec3 boneDirection(const IkChainJoint& J) {
  const Vec3 d = J.parentRotation * (J.rotation * J.boneAxisLocal);
  return J.parentScale < 0.0f ? Vec3(-d) : d;
}

// Below this misalignment (about 0.08°) a cone's axis counts as the previous bone's.
constexpr float kAlignedCos = 1.0f - 1e-6f;

// The root's limit as a cone in chain space, where the root's parent frame is the identity:
// cosine -1 when it has none.
struct RootCone {
  Vec3 axis = Vec3::UnitX();
  float cosLimit = -1.0f;
  float sinLimit = 0.0f;
};

// Backward-pass bounds: joint k's constraint, seen from bone k - 1, limits the angle between
// the two bones to (angle between bone k - 1 and the bounding cone's axis) + half-angle, all
// measured in joint k's parent space, where bone k - 1 is a constant direction.
// True when those bounds are the limits themselves, so both passes can honour them on
// positions alone: every active constraint is a circular cone without a twist limit, about
// the previous bone (for the root, about any axis of chain space, filled into `root`).
bool prepareBounds(IkChainWorkspace& ws, std::span<const JointConstraint> constraints, RootCone& root) {
  const auto positional = [](const JointConstraint& c) { return c.isCircularCone() && !c.hasTwistLimit(); };
  bool exact = !constraints.front().isActive() || positional(constraints.front());
  if (constraints.front().kind() == JointConstraint::Kind::Cone) {
    const BoundingCone cone = constraints.front().boundingCone(ws.joints.front().boneAxisLocal);
    root = {cone.axisParent, cone.cosHalfAngle, cone.sinHalfAngle};
  }
  for (int k = 1; k + 1 < ws.size(); ++k) {
    IkChainJoint& J = ws.joints[static_cast<std::size_t>(k)];
    J.backwardCos = -1.0f;
    J.backwardSin = 0.0f;
    const JointConstraint& c = constraints[static_cast<std::size_t>(k)];
    if (c.kind() == JointConstraint::Kind::Free) {
      exact = exact && !c.hasTwistLimit();
      continue;
    }
    const BoundingCone cone = c.boundingCone(J.boneAxisLocal);
    const IkChainJoint& above = ws.joints[static_cast<std::size_t>(k) - 1];
    Vec3 previous = above.linkRotation.conjugate() * above.boneAxisLocal;
    if (above.linkScale < 0.0f) previous = -previous;
    const float cosGap = previous.dot(cone.axisParent);
    const float sinGap = previous.cross(cone.axisParent).norm();
    exact = exact && positional(c) && cosGap >= kAlignedCos;
    const float cosLimit = cosGap * cone.cosHalfAngle - sinGap * cone.sinHalfAngle;
    const float sinLimit = sinGap * cone.cosHalfAngle + cosGap * cone.sinHalfAngle;
    // Past π (gap + half-angle, each in [0, π], with a sine ≤ 0) the bound no longer limits
    // anything.
    if (sinLimit <= 0.0f) continue;
    J.backwardCos = cosLimit;
    J.backwardSin = sinLimit;
  }
  return exact;
}

// The direction of `toward` (squared length len2 > 0), unit, turned towards unit `previous`
// until the angle between them is within the one of (cosLimit, sinLimit). The test needs
// no square root, so a bone costs one either way: this sits on the passes' serial path.
Vec3 boundedDirection(const Vec3& toward, float len2, const Vec3& previous, float cosLimit, float sinLimit) {
  const float c = toward.dot(previous);
  // c ≥ cosLimit · |toward|, squared with the signs kept apart.
  const float bound2 = cosLimit * cosLimit * len2;
  const bool inside = cosLimit >= 0.0f ? c >= 0.0f && c * c >= bound2 : c >= 0.0f || c * c <= bound2;
  if (inside) return toward * (1.0f / std::sqrt(len2));
  const Vec3 across = toward - previous * c;
  const float across2 = across.squaredNorm();
  const Vec3 side =
      across2 > 1e-14f * len2 ? Vec3(across * (1.0f / std::sqrt(across2))) : Vec3(previous.unitOrthogonal());
  return previous * cosLimit + side * sinLimit;
}

// boundedDirection from p[from] towards p[to], or along the bone's current direction where
// the two coincide.
Vec3 boundedBone(const Vec3* p, int from, int to, const IkChainJoint& J, const Vec3& previous, float cosLimit,
                 float sinLimit) {
  const Vec3 toward = p[to] - p[from];
  const float len2 = toward.squaredNorm();
  return len2 > 1e-24f ? boundedDirection(toward, len2, previous, cosLimit, sinLimit)
                       : boundedDirection(boneDirection(J), 1.0f, previous, cosLimit, sinLimit);
}

// FABRIK's forward pass on positions under limits that prepareBounds found exact on
// positions: each bone is kept within its cone about the bone placed before it (the root's,
// about its chain-space axis), so the rotations need recovering only once, at the end.
void forwardWithinCones(IkChainWorkspace& ws, const RootCone& root) {
  Vec3* p = ws.positions.data();
  const IkChainJoint* joints = ws.joints.data();
  Vec3 previous = root.axis;
  float cosLimit = root.cosLimit;
  float sinLimit = root.sinLimit;
  for (int k = 0; k + 1 < ws.size(); ++k) {
    const IkChainJoint& J = joints[k];
    if (k > 0) {
      cosLimit = J.backwardCos;
      sinLimit = J.backwardSin;
    }
    const Vec3 dir = boundedBone(p, k, k + 1, J, previous, cosLimit, sinLimit);
    p[k + 1] = p[k] + dir * J.boneLength;
    previous = dir;
  }
}

// Bone k as an offset along `dir`, its length the bone's, or along the bone's current
// direction where `dir` is zero (two solved positions coincide).
Vec3 boneAlong(const Vec3& dir, const IkChainJoint& J) {
  const float len2 = dir.squaredNorm();
  return len2 > 1e-24f ? Vec3(dir * (J.boneLength / std::sqrt(len2))) : Vec3(boneDirection(J) * J.boneLength);
}

// FABRIK's passes on positions without limits, each joint placed along the line to its
// neighbour's new position: only the new position is needed, one scale of the difference.
void backwardFree(Vec3* p, const IkChainJoint* joints, int n, const Vec3& target) {
  Vec3 next = target;
  for (int k = n - 2; k >= 0; --k) {
    next -= boneAlong(next - p[k], joints[k]);
    p[k] = next;
  }
}
void forwardFree(Vec3* p, const IkChainJoint* joints, int n) {
  Vec3 above = p[0];
  for (int k = 0; k + 1 < n; ++k) {
    above += boneAlong(p[k + 1] - above, joints[k]);
    p[k + 1] = above;
  }
}

// The passes' fixed inputs.
struct Passes {
  Vec3 target;  // chain space
  Vec3 root;    // where the root starts, chain space
  bool fixedRoot = true;
  bool limited = false;
  bool recoverEachPass = false;  // limits that are not angles between neighbouring bones
  RootCone rootCone;
  std::span<const JointConstraint> constraints;
  float tolerance2 = 0.0f;  // model space, squared
  int maxIterations = 1;
};

// FABRIK passes from the workspace's positions until the tip is within tolerance, the passes
// stall under limits, or maxIterations; the rotations are recovered however it ends.
// Returns the passes used.
int solvePasses(IkChainWorkspace& ws, const Passes& s, float error) {
  // Locals, not `s`'s members: the passes store floats through `p`, which could alias them.
  const Vec3 target = s.target;
  const Vec3 root = s.root;
  const bool limited = s.limited;
  const float tolerance2 = s.tolerance2;
  const int n = ws.size();
  Vec3* p = ws.positions.data();
  IkChainJoint* joints = ws.joints.data();
  const Mat3& toModel = ws.chainToModel;
  int iterations = 0;
  bool recovered = false;
  float bestError2 = std::numeric_limits<float>::infinity();
  int stalled = 0;
  // Otherwise the last forward pass is the rotation recovery itself (it places each joint
  // from its parent's actual position towards the next backward-pass position, within the
  // limits, as the positional forward pass does), so it runs in place of that pass whenever
  // this pass is predicted to reach the tolerance: the error times the last pass's ratio.
  float error2 = error * error;
  float ratio2 = limited ? kLimitedFirstPassRatio2 : kFreeFirstPassRatio2;
  while (iterations < s.maxIterations) {
    ++iterations;
    // Backward: from the target to the root.
    p[n - 1] = target;
    if (limited) {
      Vec3 nextDir = Vec3::Zero();
      for (int k = n - 2; k >= 0; --k) {
        // The tip's bone has no bone below it to be bounded by.
        const IkChainJoint& below = joints[k + 1];
        const bool bounded = k + 2 < n;
        const Vec3 dir = boundedBone(p, k, k + 1, joints[k], nextDir, bounded ? below.backwardCos : -1.0f,
                                     bounded ? below.backwardSin : 0.0f);
        p[k] = p[k + 1] - dir * joints[k].boneLength;
        nextDir = dir;
      }
    } else {
      backwardFree(p, joints, n, target);
    }
    // Forward: from the root to the tip.
    if (s.fixedRoot) p[0] = root;
    // The last allowed pass always recovers, so the rotations are set however the loop ends.
    recovered = s.recoverEachPass || error2 * ratio2 <= tolerance2 || iterations == s.maxIterations;
    if (recovered) {
      ws.recoverRotations(s.constraints);
    } else if (limited) {
      forwardWithinCones(ws, s.rootCone);
    } else {
      forwardFree(p, joints, n);
    }
    const float previous2 = error2;
    error2 = (toModel * (p[n - 1] - target)).squaredNorm();
    ratio2 = previous2 > 0.0f ? std::min(error2 / previous2, 1.0f) : 1.0f;
    if (limited && error2 > tolerance2) {
      // Limits can make a target unreachable where no pass gets closer: stop once three
      // passes in a row gained less than 1 % of the distance.
      stalled = error2 > kStallRatio2 * bestError2 ? stalled + 1 : 0;
      bestError2 = std::min(bestError2, error2);
      if (stalled >= 3) {
        if (!recovered) ws.recoverRotations(s.constraints);
        break;
      }
    }
    if (error2 <= tolerance2) {
      // After a recovering pass the positions already follow from the rotations.
      if (recovered) break;
      // Rotations recovered from the positions put the tip a float rounding away from
      // where the passes left it: accept only what FK of the rotations reaches.
      ws.recoverRotations(s.constraints);
      recovered = true;
      error2 = (toModel * (p[n - 1] - target)).squaredNorm();
      if (error2 <= tolerance2) break;
    }
  }
  return iterations;
}

// The largest turn between neighbouring bones that every joint's backward bound allows
// (π: none), for chains whose bounds are the limits themselves.
float largestBoundTurnRad(const IkChainWorkspace& ws) {
  float cosTurn = -1.0f;
  for (int k = 1; k + 1 < ws.size(); ++k)
    cosTurn = std::max(cosTurn, ws.joints[static_cast<std::size_t>(k)].backwardCos);
  return std::acos(cosTurn);
}

constexpr float kStraightFraction = 0.98f;

// A nearly straight chain (its tip at least kStraightFraction of its length from the root)
// aimed at a target well inside its reach is FABRIK's slow start: every pass bends it only a
// little more. Bends it into a planar arc instead, the same turn between every two
// neighbouring bones (at most maxTurnRad), its chord along the root–target line and its
// root bone leaning back towards where the chain pointed, then turned as little as needed
// to bring the root bone into the root's cone. Positions only, chain space; true when it did.
bool seedArc(IkChainWorkspace& ws, const Vec3& target, float maxTurnRad, const RootCone& rootCone) {
  const int n = ws.size();
  Vec3* p = ws.positions.data();
  const Vec3 reach = p[n - 1] - p[0];
  const Vec3 toTarget = target - p[0];
  const float length = ws.totalLength;
  const float wanted = toTarget.norm();
  const float reachLength = reach.norm();
  if (n < 3 || reachLength < kStraightFraction * length || !(wanted > 1e-3f * length) ||
      !(wanted < kStraightFraction * length))
    return false;
  // A circular arc of total turn 2x has chord / length = sin x / x: solve for x in (0, π)
  // by Newton's method from the small-angle guess (sin x / x ≈ 1 − x² / 6).
  const float ratio = wanted / length;
  float x = std::min(std::sqrt(6.0f * (1.0f - ratio)), 0.95f * kPi);
  for (int i = 0; i < 4; ++i) {
    const float slope = std::cos(x) - ratio;
    if (!(slope < 0.0f)) break;
    x = std::clamp(x - (std::sin(x) - ratio * x) / slope, 0.0f, 0.99f * kPi);
  }
  const float turnRad = std::min(2.0f * x / static_cast<float>(n - 1), maxTurnRad);
  // The arc in its plane, bone k at angle k·turn from the first: (cos, sin) by rotation, and
  // its chord.
  const float cosTurn = std::cos(turnRad);
  const float sinTurn = std::sin(turnRad);
  float c = 1.0f;
  float sn = 0.0f;
  Eigen::Vector2f chord = Eigen::Vector2f::Zero();
  for (int k = 0; k + 1 < n; ++k) {
    chord += ws.joints[static_cast<std::size_t>(k)].boneLength * Eigen::Vector2f(c, sn);
    const float nextC = c * cosTurn - sn * sinTurn;
    sn = sn * cosTurn + c * sinTurn;
    c = nextC;
  }
  if (!(chord.squaredNorm() > 0.0f)) return false;
  chord.normalize();
  // Plane axes: u along the target, v across it, away from the chain's direction, so that
  // the arc, bending towards +v, starts leaning back towards where the chain pointed.
  const Vec3 u = toTarget / wanted;
  Vec3 across = reach / reachLength;
  across -= u * u.dot(across);
  const Vec3 v = across.squaredNorm() > 1e-12f ? Vec3(-across.normalized()) : Vec3(u.unitOrthogonal());
  // Bone k's direction: angle k·turn minus the chord's angle, in (u, v).
  float cx = chord.x();
  float sy = -chord.y();
  Quat toCone = Quat::Identity();
  const Vec3 rootDir = u * cx + v * sy;
  if (rootCone.cosLimit > -1.0f && rootDir.dot(rootCone.axis) < rootCone.cosLimit) {
    // Onto the cone's border nearest the root bone, the whole arc turned with it.
    Vec3 side = rootDir - rootCone.axis * rootCone.axis.dot(rootDir);
    side = side.squaredNorm() > 1e-12f ? Vec3(side.normalized()) : Vec3(rootCone.axis.unitOrthogonal());
    toCone = fromToRotation(rootDir, rootCone.axis * rootCone.cosLimit + side * rootCone.sinLimit);
  }
  for (int k = 0; k + 1 < n; ++k) {
    const Vec3 dir = toCone * (u * cx + v * sy);
    p[k + 1] = p[k] + dir * ws.joints[static_cast<std::size_t>(k)].boneLength;
    const float nextCx = cx * cosTurn - sy * sinTurn;
    sy = sy * cosTurn + cx * sinTurn;
    cx = nextCx;
  }
  return true;
}

// Back to the loaded pose: input rotations and FK from the root at `root`.
void restoreInput(IkChainWorkspace& ws, const Vec3& root) {
  for (IkChainJoint& J : ws.joints) J.rotation = J.inputRotation;
  ws.joints.front().parentRotation = Quat::Identity();
  ws.positions.front() = root;
  ws.forward(0);
}

}  // namespace

std::optional<std::string> FabrikIkJob::validate() const {
  if (auto e = checkChainJob("FABRIK IK", *this)) return e;
  IkChainWorkspace scratch(*chain);
  return scratch.load(*chain, pose, model);
}

bool FabrikIkJob::run() const {
  if (checkChainJob("FABRIK IK", *this)) return false;
  IkChainWorkspace& ws = *workspace;
  if (ws.load(*chain, pose, model)) return false;

  const int n = ws.size();
  const Vec3 target = ws.toChainPoint(targetModel);
  bool limited = false;
  for (const JointConstraint& c : constraints) limited = limited || c.isActive();
  float error = ws.tipErrorModel(target);
  int iterations = 0;
  Vec3* p = ws.positions.data();
  IkChainJoint* joints = ws.joints.data();
  if (error > toleranceModel) {
    const Vec3 root = p[0];
    const bool fixedRoot = rootMode == RootMode::Fixed;
    if (fixedRoot && (target - root).norm() >= ws.totalLength) {
      const Vec3 dir = (target - root).normalized();
      for (int k = 0; k + 1 < n; ++k) p[k + 1] = p[k] + dir * joints[k].boneLength;
      ws.recoverRotations(constraints);
      iterations = 1;
    } else {
      Passes passes;
      passes.target = target;
      passes.root = root;
      passes.fixedRoot = fixedRoot;
      passes.limited = limited;
      // Limits that are not angles between neighbouring bones need the rotations recovered
      // (and projected) in every forward pass.
      passes.recoverEachPass = limited && !prepareBounds(ws, constraints, passes.rootCone);
      passes.constraints = constraints;
      passes.tolerance2 = toleranceModel * toleranceModel;
      passes.maxIterations = maxIterations;
      const bool seeded = seedStraightChains && !passes.recoverEachPass &&
                          seedArc(ws, target, limited ? largestBoundTurnRad(ws) : kPi, passes.rootCone);
      iterations = solvePasses(ws, passes, seeded ? ws.tipErrorModel(target) : error);
      if (seeded && ws.tipErrorModel(target) > toleranceModel) {
        // Limits can hold the arc in a fold the passes do not leave: solve again from the
        // input pose, as without the seed.
        restoreInput(ws, root);
        iterations += solvePasses(ws, passes, error);
      }
    }
    error = ws.tipErrorModel(target);
  }
  ws.store(*chain, pose, rootMode == RootMode::Moving);
  if (report != nullptr) {
    report->errorModel = error;
    report->reached = error <= toleranceModel;
    report->iterations = iterations;
  }
  return true;
}

}  // namespace articula
