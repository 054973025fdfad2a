#include "core/ik/fabrik_ik.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace articula {

namespace {

// (1 − 1 %)²: a pass that does not bring the tip 1 % closer counts as stalled.
constexpr float kStallRatio2 = 0.99f * 0.99f;
// Squared error ratio assumed for the first pass, before one is measured: from a pose near
// the solution a FABRIK pass cuts the tip's error about tenfold.
constexpr float kFirstPassRatio2 = 0.1f * 0.1f;

std::optional<std::string> checkInputs(const FabrikIkJob& job) {
  if (job.chain == nullptr) return std::string("FABRIK IK: no chain");
  if (job.workspace == nullptr) return std::string("FABRIK IK: no workspace");
  if (job.workspace->size() != job.chain->size())
    return std::string("FABRIK IK: the workspace is not sized for the chain");
  if (!job.constraints.empty()) {
    if (job.constraints.size() != static_cast<std::size_t>(job.chain->size()))
      return std::string("FABRIK IK: constraints must be empty or one per chain joint");
    for (std::size_t k = 0; k < job.constraints.size(); ++k) {
      if (auto e = job.constraints[k].isValid() ? std::nullopt : job.constraints[k].validate())
        return "FABRIK IK: constraint of chain joint " + std::to_string(k) + ": " + *e;
    }
  }
  if (!job.targetModel.allFinite()) return std::string("FABRIK IK: the target is not finite");
  if (!(job.toleranceModel >= 0.0f) || !std::isfinite(job.toleranceModel))
    return std::string("FABRIK IK: the tolerance is negative or not finite");
  if (job.maxIterations < 1) return std::string("FABRIK IK: maxIterations must be at least 1");
  return std::nullopt;
}

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

}  // namespace

std::optional<std::string> FabrikIkJob::validate() const {
  if (auto e = checkInputs(*this)) return e;
  IkChainWorkspace scratch(*chain);
  return scratch.load(*chain, pose, model);
}

bool FabrikIkJob::run() const {
  if (checkInputs(*this)) return false;
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
      // Limits that are not angles between neighbouring bones need the rotations recovered
      // (and projected) in every forward pass.
      RootCone rootCone;
      const bool recoverEachPass = limited && !prepareBounds(ws, constraints, rootCone);
      const Mat3& toModel = ws.chainToModel;
      const float tolerance2 = toleranceModel * toleranceModel;
      bool recovered = false;
      float bestError2 = std::numeric_limits<float>::infinity();
      int stalled = 0;
      // Otherwise the last forward pass is the rotation recovery itself (it places each joint
      // from its parent's actual position towards the next backward-pass position, within
      // the limits, as the positional forward pass does), so it runs in place of that pass
      // whenever this pass is predicted to reach the tolerance: the error times the last
      // pass's ratio.
      float error2 = error * error;
      float ratio2 = kFirstPassRatio2;
      while (iterations < maxIterations) {
        ++iterations;
        // Backward: from the target to the root.
        p[n - 1] = target;
        Vec3 nextDir = Vec3::Zero();
        for (int k = n - 2; k >= 0; --k) {
          const IkChainJoint& J = joints[k];
          if (!limited) {
            // Only the new position is needed: one scale of the difference.
            const Vec3 dir = p[k + 1] - p[k];
            const float len2 = dir.squaredNorm();
            p[k] = p[k + 1] - (len2 > 1e-24f ? Vec3(dir * (J.boneLength / std::sqrt(len2)))
                                             : Vec3(boneDirection(J) * J.boneLength));
            continue;
          }
          // The tip's bone has no bone below it to be bounded by.
          const IkChainJoint& below = joints[k + 1];
          const bool bounded = k + 2 < n;
          const Vec3 dir = boundedBone(p, k, k + 1, J, nextDir, bounded ? below.backwardCos : -1.0f,
                                       bounded ? below.backwardSin : 0.0f);
          p[k] = p[k + 1] - dir * J.boneLength;
          nextDir = dir;
        }
        // Forward: from the root to the tip.
        if (fixedRoot) p[0] = root;
        // The last allowed pass always recovers, so the rotations are set however the loop ends.
        recovered = recoverEachPass || error2 * ratio2 <= tolerance2 || iterations == maxIterations;
        if (recovered) {
          ws.recoverRotations(constraints);
        } else if (limited) {
          forwardWithinCones(ws, rootCone);
        } else {
          for (int k = 0; k + 1 < n; ++k) {
            const Vec3 dir = p[k + 1] - p[k];
            const float len2 = dir.squaredNorm();
            p[k + 1] = p[k] + (len2 > 1e-24f ? Vec3(dir * (joints[k].boneLength / std::sqrt(len2)))
                                             : Vec3(boneDirection(joints[k]) * joints[k].boneLength));
          }
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
            if (!recovered) ws.recoverRotations(constraints);
            break;
          }
        }
        if (error2 <= tolerance2) {
          // After a recovering pass the positions already follow from the rotations.
          if (recovered) break;
          // Rotations recovered from the positions put the tip a float rounding away from
          // where the passes left it: accept only what FK of the rotations reaches.
          ws.recoverRotations(constraints);
          recovered = true;
          error2 = (toModel * (p[n - 1] - target)).squaredNorm();
          if (error2 <= tolerance2) break;
        }
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
