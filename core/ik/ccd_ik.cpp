#include "core/ik/ccd_ik.h"

#include <cmath>

#include "core/math/quaternion.h"

namespace articula {

namespace {

std::optional<std::string> checkInputs(const CcdIkJob& job) {
  if (auto e = checkChainJob("CCD IK", job)) return e;
  if (!(job.maxAngleStepRad > 0.0f && job.maxAngleStepRad <= kPi + 1e-6f))
    return std::string("CCD IK: maxAngleStepRad is not in (0, pi]");
  return std::nullopt;
}

// Lays the chain straight from the root towards a chain-space point.
void layStraight(IkChainWorkspace& ws, const Vec3& targetChain) {
  const Vec3 dir = (targetChain - ws.positions.front()).normalized();
  for (int k = 0; k + 1 < ws.size(); ++k) {
    const auto i = static_cast<std::size_t>(k);
    ws.positions[i + 1] = ws.positions[i] + dir * ws.joints[i].boneLength;
  }
}

}  // namespace

std::optional<std::string> CcdIkJob::validate() const {
  if (auto e = checkInputs(*this)) return e;
  IkChainWorkspace scratch(*chain);
  return scratch.load(*chain, pose, model);
}

bool CcdIkJob::run() const {
  if (checkInputs(*this)) return false;
  IkChainWorkspace& ws = *workspace;
  if (ws.load(*chain, pose, model)) return false;

  const int n = ws.size();
  const Vec3 target = ws.toChainPoint(targetModel);
  const bool constrained = !constraints.empty();
  float error = ws.tipErrorModel(target);
  int iterations = 0;
  if (error > toleranceModel) {
    if ((target - ws.positions.front()).norm() >= ws.totalLength) {
      layStraight(ws, target);
      ws.recoverRotations(constraints);
      iterations = 1;
    } else {
      const bool damped = maxAngleStepRad < kPi;
      const float cosHalfStep = std::cos(0.5f * maxAngleStepRad);
      const float sinHalfStep = std::sin(0.5f * maxAngleStepRad);
      const Mat3& toModel = ws.chainToModel;
      const float tolerance2 = toleranceModel * toleranceModel;
      while (iterations < maxIterations) {
        ++iterations;
        Vec3 tip = ws.positions.back();
        for (int k = n - 2; k >= 0; --k) {
          const auto i = static_cast<std::size_t>(k);
          IkChainJoint& J = ws.joints[i];
          const Vec3& origin = ws.positions[i];
          // Into the parent's space (rotation part; the signed scale does not change the
          // rotation taking one direction onto another).
          const Quat toParent = J.parentRotation.conjugate();
          const Vec3 tipParent = toParent * (tip - origin);
          const Vec3 targetParent = toParent * (target - origin);
          Quat turn = fromToRotation(tipParent, targetParent);
          if (damped && turn.w() < cosHalfStep) {
            const Vec3 axis = turn.vec().normalized() * sinHalfStep;
            turn = Quat(cosHalfStep, axis.x(), axis.y(), axis.z());
          }
          Quat rotation = (turn * J.rotation).normalized();
          if (constrained && constraints[i].isActive()) rotation = constraints[i].project(rotation, J.boneAxisLocal);
          const Quat applied = rotation * J.rotation.conjugate();
          J.rotation = rotation;
          tip = origin + J.parentRotation * (applied * tipParent);
          // The tip tracked through the sweep says when to stop early; FK below decides.
          if ((toModel * (tip - target)).squaredNorm() <= tolerance2) break;
        }
        ws.forward(0);
        if (ws.tipErrorModel(target) <= toleranceModel) break;
      }
    }
    error = ws.tipErrorModel(target);
  }
  ws.store(*chain, pose, false);
  if (report != nullptr) {
    report->errorModel = error;
    report->reached = error <= toleranceModel;
    report->iterations = iterations;
  }
  return true;
}

}  // namespace articula
