#include "core/ik/jacobian_ik.h"

#include <algorithm>
#include <cmath>

#include "core/math/quaternion.h"

namespace articula {

namespace {

// Each effector's position error is clamped to this fraction of the tree's length per
// iteration (Buss & Kim's ClampMag of the target offset): a far target pulls along a
// straighter path and the linearisation stays valid.
constexpr float kErrorClampFraction = 0.25f;
// Singular values below this fraction of the largest are treated as zero.
constexpr float kSingularFraction = 1e-3f;

std::optional<std::string> checkInputs(const JacobianIkJob& job) {
  if (job.tree == nullptr) return std::string("Jacobian IK: no tree");
  if (job.workspace == nullptr) return std::string("Jacobian IK: no workspace");
  const IkTree& tree = *job.tree;
  if (job.workspace->nodeCount() != tree.nodeCount() || job.workspace->jacobian.rows() != tree.rows() ||
      job.workspace->jacobian.cols() != tree.cols())
    return std::string("Jacobian IK: the workspace is not sized for the tree");
  if (job.targets.size() != static_cast<std::size_t>(tree.effectorCount()))
    return "Jacobian IK: expected one target per effector (" + std::to_string(tree.effectorCount()) + "), got " +
           std::to_string(job.targets.size());
  for (int e = 0; e < tree.effectorCount(); ++e) {
    const IkEffectorTarget& t = job.targets[static_cast<std::size_t>(e)];
    auto which = [&](const char* problem) {
      std::string message = "Jacobian IK: target of effector " + tree.label(tree.effectorNode(e));
      return message.append(problem);
    };
    if (!t.positionModel.allFinite()) return which(" is not finite");
    if (t.hasOrientation) {
      if (!tree.effectorHasOrientation(e)) return which(" has an orientation but the effector was built without one");
      if (!t.orientationModel.coeffs().allFinite() || t.orientationModel.coeffs().squaredNorm() < 1e-12f)
        return which(" has a zero or non-finite orientation");
    }
  }
  if (!job.constraints.empty()) {
    if (job.constraints.size() != static_cast<std::size_t>(tree.nodeCount()))
      return std::string("Jacobian IK: constraints must be empty or one per tree node");
    for (std::size_t k = 0; k < job.constraints.size(); ++k) {
      if (auto e = job.constraints[k].isValid() ? std::nullopt : job.constraints[k].validate())
        return "Jacobian IK: constraint of " + tree.label(static_cast<int>(k)) + ": " + *e;
    }
  }
  if (!(job.damping >= 0.0f) || !std::isfinite(job.damping))
    return std::string("Jacobian IK: damping is negative or not finite");
  if (!(job.maxAngleStepRad > 0.0f && job.maxAngleStepRad <= kPi + 1e-6f))
    return std::string("Jacobian IK: maxAngleStepRad is not in (0, pi]");
  if (!(job.orientationWeight > 0.0f) || !std::isfinite(job.orientationWeight))
    return std::string("Jacobian IK: orientationWeight is not positive and finite");
  if (!(job.toleranceModel >= 0.0f) || !std::isfinite(job.toleranceModel) || !(job.toleranceRad >= 0.0f) ||
      !std::isfinite(job.toleranceRad))
    return std::string("Jacobian IK: a tolerance is negative or not finite");
  if (job.maxIterations < 1) return std::string("Jacobian IK: maxIterations must be at least 1");
  return std::nullopt;
}

bool anyOrientation(const JacobianIkJob& job) {
  return std::any_of(job.targets.begin(), job.targets.end(),
                     [](const IkEffectorTarget& t) { return t.hasOrientation; });
}

// The rotation of a frame that is a rotation times a positive uniform scale, or nullopt.
std::optional<Quat> positiveSimilarityRotation(const Mat3& linear) {
  const float det = linear.determinant();
  if (!(det > 0.0f)) return std::nullopt;
  const float scale = std::cbrt(det);
  const Mat3 q = linear / scale;
  if (!((q.transpose() * q - Mat3::Identity()).cwiseAbs().maxCoeff() < 1e-4f)) return std::nullopt;
  return Quat(q).normalized();
}

std::optional<std::string> checkFrame(const JacobianIkJob& job, const IkTreeWorkspace& ws) {
  if (anyOrientation(job) && !positiveSimilarityRotation(ws.treeToModel))
    return "Jacobian IK: orientation targets need the frame above " + job.tree->label(0) +
           " to be a rotation and a uniform scale (no mirror, no non-uniform scale)";
  return std::nullopt;
}

struct Errors {
  float positionModel = 0.0f;
  float orientationRad = 0.0f;
};

// Fills ws.error (tree space, clamped; orientation rows weighted) and returns the largest
// unclamped errors, model space and radians.
Errors measure(const JacobianIkJob& job, IkTreeWorkspace& ws, const Quat& frameRotationInverse, float clampLength,
               float orientationRowWeight) {
  const IkTree& tree = *job.tree;
  Errors worst;
  for (int e = 0; e < tree.effectorCount(); ++e) {
    const IkEffectorTarget& target = job.targets[static_cast<std::size_t>(e)];
    const auto node = static_cast<std::size_t>(tree.effectorNode(e));
    const Eigen::Index row = tree.rowOffset(e);
    Vec3 offset = ws.toTreePoint(target.positionModel) - ws.position[node];
    worst.positionModel = std::max(worst.positionModel, (ws.treeToModel * offset).norm());
    const float length = offset.norm();
    if (length > clampLength) offset *= clampLength / length;
    ws.error.segment<3>(row) = offset;
    if (!tree.effectorHasOrientation(e)) continue;
    Vec3 rotationVector = Vec3::Zero();
    if (target.hasOrientation) {
      const Quat wantedTree = frameRotationInverse * target.orientationModel.normalized();
      rotationVector = 2.0f * quatLog(alignHemisphere(wantedTree * ws.orientation[node].conjugate(), Quat::Identity()));
      worst.orientationRad = std::max(worst.orientationRad, rotationVector.norm());
    }
    ws.error.segment<3>(row + 3) = orientationRowWeight * rotationVector;
  }
  return worst;
}

// max |v_j| ≤ bound, by scaling (Buss & Kim's ClampMaxAbs).
template <typename Vector>
void clampMaxAbs(Vector&& v, float bound) {
  const float largest = v.cwiseAbs().maxCoeff();
  if (largest > bound) v *= bound / largest;
}

void transposeStep(IkTreeWorkspace& ws) {
  ws.delta.noalias() = ws.jacobian.transpose() * ws.error;
  ws.rowsScratch.noalias() = ws.jacobian * ws.delta;
  const float denominator = ws.rowsScratch.squaredNorm();
  ws.delta *= denominator > 0.0f ? ws.error.dot(ws.rowsScratch) / denominator : 0.0f;
}

void dampedStep(IkTreeWorkspace& ws, float lambda) {
  ws.rowsSquare.noalias() = ws.jacobian * ws.jacobian.transpose();
  ws.rowsSquare.diagonal().array() += lambda * lambda;
  ws.ldlt.compute(ws.rowsSquare);
  ws.rowsScratch = ws.ldlt.solve(ws.error);
  ws.delta.noalias() = ws.jacobian.transpose() * ws.rowsScratch;
}

// Eigen-decomposition of JJᵀ: σᵢ² ascending in eigenvalues(), uᵢ in eigenvectors().
float decompose(IkTreeWorkspace& ws) {
  ws.rowsSquare.noalias() = ws.jacobian * ws.jacobian.transpose();
  ws.eigen.compute(ws.rowsSquare);
  return std::sqrt(std::max(0.0f, ws.eigen.eigenvalues()(ws.eigen.eigenvalues().size() - 1)));
}

void pseudoInverseStep(IkTreeWorkspace& ws) {
  const float largest = decompose(ws);
  const float floor = kSingularFraction * largest;
  ws.rowsScratch.setZero();
  for (Eigen::Index i = 0; i < ws.eigen.eigenvalues().size(); ++i) {
    const float sigma2 = ws.eigen.eigenvalues()(i);
    if (!(sigma2 > floor * floor)) continue;
    const auto u = ws.eigen.eigenvectors().col(i);
    ws.rowsScratch += u * (u.dot(ws.error) / sigma2);
  }
  ws.delta.noalias() = ws.jacobian.transpose() * ws.rowsScratch;
}

void selectivelyDampedStep(const IkTree& tree, IkTreeWorkspace& ws, float gammaMax) {
  const float largest = decompose(ws);
  const float floor = kSingularFraction * largest;
  // ρⱼ: Σ over 3-row blocks (each effector's position and orientation) of ‖J_block,j‖.
  const Eigen::Index blocks = tree.rows() / 3;
  for (Eigen::Index j = 0; j < ws.jacobian.cols(); ++j) {
    float sum = 0.0f;
    for (Eigen::Index b = 0; b < blocks; ++b) sum += ws.jacobian.block<3, 1>(3 * b, j).norm();
    ws.columnWeight(j) = sum;
  }
  ws.delta.setZero();
  for (Eigen::Index i = 0; i < ws.eigen.eigenvalues().size(); ++i) {
    const float sigma2 = ws.eigen.eigenvalues()(i);
    if (!(sigma2 > floor * floor)) continue;
    const float sigma = std::sqrt(sigma2);
    const auto u = ws.eigen.eigenvectors().col(i);
    ws.colsScratch.noalias() = ws.jacobian.transpose() * u;
    ws.colsScratch /= sigma;  // vᵢ
    const float alpha = u.dot(ws.error);
    float n = 0.0f;
    for (Eigen::Index b = 0; b < blocks; ++b) n += u.segment<3>(3 * b).norm();
    const float m = ws.colsScratch.cwiseAbs().dot(ws.columnWeight) / sigma;
    const float gamma = (m > 0.0f ? std::min(1.0f, n / m) : 1.0f) * gammaMax;
    ws.colsScratch *= alpha / sigma;  // φᵢ
    clampMaxAbs(ws.colsScratch, gamma);
    ws.delta += ws.colsScratch;
  }
  clampMaxAbs(ws.delta, gammaMax);
}

void clampPerJoint(const IkTree& tree, IkTreeWorkspace& ws, float maxAngleRad) {
  for (int d = 0; d < tree.solvedCount(); ++d) {
    auto v = ws.delta.segment<3>(3 * d);
    const float angle = v.norm();
    if (angle > maxAngleRad) v *= maxAngleRad / angle;
  }
}

void applyConstraints(const JacobianIkJob& job, IkTreeWorkspace& ws) {
  if (job.constraints.empty()) return;
  for (int node = 0; node < job.tree->nodeCount(); ++node) {
    const auto i = static_cast<std::size_t>(node);
    if (job.tree->dofIndex(node) < 0 || !job.constraints[i].isActive()) continue;
    ws.rotation[i] = job.constraints[i].project(ws.rotation[i], ws.boneAxisLocal[i]);
  }
}

// One effector beyond reach of its joint line: every node on the line turns (minimal
// rotation) so that the next node lies on the ray from the root towards the target.
bool layStraightIfUnreachable(const JacobianIkJob& job, IkTreeWorkspace& ws) {
  const IkTree& tree = *job.tree;
  if (tree.effectorCount() != 1 || tree.effectorHasOrientation(0)) return false;
  const Vec3 target = ws.toTreePoint(job.targets[0].positionModel);
  const Vec3 toTarget = target - ws.position[0];
  const float distance = toTarget.norm();
  if (!(distance >= ws.totalLength)) return false;
  const Vec3 dir = toTarget / distance;
  const int n = tree.nodeCount();
  for (int node = 0; node < n; ++node) {
    const int child = tree.firstChildNode(node);
    if (child < 0) break;
    const int parent = tree.parentNode(node);
    const auto i = static_cast<std::size_t>(node);
    // Into the parent's space: rotation part only, a mirror flips both directions alike.
    const Quat toParent =
        parent < 0 ? Quat::Identity() : ws.frameRotation[static_cast<std::size_t>(parent)].conjugate();
    const Vec3 bone = toParent * (ws.position[static_cast<std::size_t>(child)] - ws.position[i]);
    const float sign = parent < 0 || ws.frameScale[static_cast<std::size_t>(parent)] > 0.0f ? 1.0f : -1.0f;
    ws.rotation[i] = (fromToRotation(bone, sign * (toParent * dir)) * ws.rotation[i]).normalized();
    ws.forward(tree);
  }
  return true;
}

}  // namespace

std::optional<std::string> JacobianIkJob::validate() const {
  if (auto e = checkInputs(*this)) return e;
  IkTreeWorkspace scratch(*tree);
  if (auto e = scratch.load(*tree, pose, model)) return e;
  return checkFrame(*this, scratch);
}

bool JacobianIkJob::run() const {
  if (checkInputs(*this)) return false;
  IkTreeWorkspace& ws = *workspace;
  if (ws.load(*tree, pose, model)) return false;
  if (checkFrame(*this, ws)) return false;

  const Quat frameInverse =
      anyOrientation(*this) ? positiveSimilarityRotation(ws.treeToModel)->conjugate() : Quat::Identity();
  const float length = ws.totalLength;
  const float clampLength = kErrorClampFraction * length;
  const float rowWeight = orientationWeight * length;
  const float lambda = damping * length;

  auto converged = [&](const Errors& e) {
    return e.positionModel <= toleranceModel && e.orientationRad <= toleranceRad;
  };
  Errors errors = measure(*this, ws, frameInverse, clampLength, rowWeight);
  int iterations = 0;
  if (!converged(errors) && layStraightIfUnreachable(*this, ws)) {
    applyConstraints(*this, ws);
    ws.forward(*tree);
    errors = measure(*this, ws, frameInverse, clampLength, rowWeight);
    iterations = 1;
  } else {
    while (!converged(errors) && iterations < maxIterations) {
      ++iterations;
      ws.computeJacobian(*tree, rowWeight);
      switch (method) {
        case Method::Transpose:
          transposeStep(ws);
          break;
        case Method::PseudoInverse:
          pseudoInverseStep(ws);
          break;
        case Method::DampedLeastSquares:
          dampedStep(ws, lambda);
          break;
        case Method::SelectivelyDamped:
          selectivelyDampedStep(*tree, ws, maxAngleStepRad);
          break;
      }
      // A singular system (λ = 0 at a straight chain) must not turn into NaN rotations.
      if (!ws.delta.allFinite()) ws.delta.setZero();
      clampPerJoint(*tree, ws, maxAngleStepRad);
      ws.applyUpdate(*tree, ws.delta);
      applyConstraints(*this, ws);
      ws.forward(*tree);
      errors = measure(*this, ws, frameInverse, clampLength, rowWeight);
    }
  }
  ws.store(*tree, pose);
  if (report != nullptr) {
    report->errorModel = errors.positionModel;
    report->orientationErrorRad = errors.orientationRad;
    report->reached = converged(errors);
    report->iterations = iterations;
  }
  return true;
}

}  // namespace articula
