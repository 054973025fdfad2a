#include "core/ik/ik_tree.h"

#include <algorithm>
#include <cmath>

#include "core/ik/ik_frames.h"
#include "core/math/quaternion.h"

namespace articula {

namespace {

// -[r]× Q: the columns (Q eᵢ) × r.
Mat3 crossColumns(const Vec3& r, const Mat3& q) {
  Mat3 out;
  for (int i = 0; i < 3; ++i) out.col(i) = q.col(i).cross(r);
  return out;
}

}  // namespace

Result<IkTree> IkTree::build(const Skeleton& skeleton, int rootJoint, std::span<const IkTreeEffector> effectors) {
  const int count = skeleton.jointCount();
  if (effectors.empty()) return makeError("IK tree: needs at least one effector");
  if (rootJoint < 0 || rootJoint >= count)
    return makeError("IK tree: root joint index " + std::to_string(rootJoint) + " is not in the skeleton");
  auto label = [&](int j) { return "joint " + std::to_string(j) + " '" + skeleton.name(j) + "'"; };
  std::vector<char> inTree(static_cast<std::size_t>(count), 0);
  inTree[static_cast<std::size_t>(rootJoint)] = 1;
  for (std::size_t e = 0; e < effectors.size(); ++e) {
    const int j = effectors[e].joint;
    if (j < 0 || j >= count)
      return makeError("IK tree: effector joint index " + std::to_string(j) + " is not in the skeleton");
    for (std::size_t other = 0; other < e; ++other) {
      if (effectors[other].joint == j) return makeError("IK tree: effector " + label(j) + " is repeated");
    }
    if (!skeleton.isAncestorOrSelf(rootJoint, j))
      return makeError("IK tree: effector " + label(j) + " is not below root " + label(rootJoint) +
                       " (the joints must be an ancestor line)");
    for (int a = j; a != rootJoint; a = skeleton.parent(a)) inTree[static_cast<std::size_t>(a)] = 1;
  }

  IkTree tree;
  tree.mSkeletonJointCount = count;
  tree.mRootParent = skeleton.parent(rootJoint);
  std::vector<int> nodeOfJoint(static_cast<std::size_t>(count), -1);
  for (int j = rootJoint; j < count; ++j) {
    if (!inTree[static_cast<std::size_t>(j)]) continue;
    nodeOfJoint[static_cast<std::size_t>(j)] = static_cast<int>(tree.mJoints.size());
    tree.mJoints.push_back(j);
    tree.mParentNodes.push_back(j == rootJoint ? -1 : nodeOfJoint[static_cast<std::size_t>(skeleton.parent(j))]);
    tree.mLabels.push_back(label(j));
  }
  const auto n = tree.mJoints.size();
  tree.mFirstChild.assign(n, -1);
  for (std::size_t node = n; node-- > 1;) {
    tree.mFirstChild[static_cast<std::size_t>(tree.mParentNodes[node])] = static_cast<int>(node);
  }
  tree.mEffectors.assign(effectors.begin(), effectors.end());
  tree.mAffects.assign(effectors.size() * n, 0);
  std::vector<char> solved(n, 0);
  int rows = 0;
  for (std::size_t e = 0; e < effectors.size(); ++e) {
    const int node = nodeOfJoint[static_cast<std::size_t>(effectors[e].joint)];
    tree.mEffectorNodes.push_back(node);
    tree.mRowOffsets.push_back(rows);
    rows += effectors[e].orientation ? 6 : 3;
    if (effectors[e].orientation) solved[static_cast<std::size_t>(node)] = 1;
    for (int a = node; a != -1; a = tree.mParentNodes[static_cast<std::size_t>(a)]) {
      tree.mAffects[e * n + static_cast<std::size_t>(a)] = 1;
      if (a != node) solved[static_cast<std::size_t>(a)] = 1;
    }
  }
  tree.mRows = rows;
  tree.mDofIndex.assign(n, -1);
  for (std::size_t node = 0; node < n; ++node) {
    if (solved[node]) tree.mDofIndex[node] = tree.mSolvedCount++;
  }
  if (tree.mSolvedCount == 0)
    return makeError("IK tree: nothing to solve (every effector is the root, without orientation)");
  return tree;
}

void IkTreeWorkspace::resize(const IkTree& tree) {
  const auto n = static_cast<std::size_t>(tree.nodeCount());
  inputRotation.assign(n, Quat::Identity());
  translation.assign(n, Vec3::Zero());
  ownScale.assign(n, 1.0f);
  ownScaleRotation.assign(n, Quat::Identity());
  boneAxisLocal.assign(n, Vec3::UnitX());
  rotation.assign(n, Quat::Identity());
  position.assign(n, Vec3::Zero());
  orientation.assign(n, Quat::Identity());
  frameRotation.assign(n, Quat::Identity());
  frameScale.assign(n, 1.0f);
  const Eigen::Index rows = tree.rows();
  const Eigen::Index cols = tree.cols();
  jacobian.setZero(rows, cols);
  error.setZero(rows);
  delta.setZero(cols);
  rowsScratch.setZero(rows);
  rowsSquare.setZero(rows, rows);
  // Computing on an identity of the solve's size sizes every internal buffer (as the
  // size constructors would) and leaves a defined status, so copies of the workspace are too.
  const Eigen::Index decomposed = std::max(rows, Eigen::Index{1});
  ldlt.compute(Eigen::MatrixXf::Identity(decomposed, decomposed));
  eigen.compute(Eigen::MatrixXf::Identity(decomposed, decomposed));
  colsScratch.setZero(cols);
  columnWeight.setZero(cols);
}

std::optional<std::string> IkTreeWorkspace::load(const IkTree& tree, std::span<const Transform> pose,
                                                 std::span<const Affine> model) {
  const int n = tree.nodeCount();
  if (n == 0) return std::string("IK: the tree is empty (build it with IkTree::build)");
  if (nodeCount() != n || jacobian.rows() != tree.rows() || jacobian.cols() != tree.cols())
    return std::string("IK: the workspace is not sized for the tree");
  const auto jointCount = static_cast<std::size_t>(tree.skeletonJointCount());
  if (pose.size() < jointCount) return std::string("IK: the pose has fewer joints than the skeleton");
  if (model.size() < jointCount) return std::string("IK: the model matrices are fewer than the skeleton's joints");

  const int root = tree.joint(0);
  const Transform& rootLocal = pose[static_cast<std::size_t>(root)];
  const Affine frame =
      tree.rootParent() != kNoParent
          ? model[static_cast<std::size_t>(tree.rootParent())]
          : Affine(model[static_cast<std::size_t>(root)] * rootLocal.toAffine().inverse(Eigen::Affine));
  treeToModel = frame.linear();
  originModel = frame.translation();
  if (!ik::isFinite(treeToModel) || !ik::isFinite(originModel))
    return "IK: the model matrix above " + tree.label(0) + " is not finite";
  const float maxEntry = treeToModel.cwiseAbs().maxCoeff();
  if (!(std::abs(treeToModel.determinant()) > 1e-12f * maxEntry * maxEntry * maxEntry))
    return "IK: the model matrix above " + tree.label(0) + " is singular";
  modelToTree = treeToModel.inverse();

  for (int node = 0; node < n; ++node) {
    const auto i = static_cast<std::size_t>(node);
    const Transform& t = pose[static_cast<std::size_t>(tree.joint(node))];
    if (!ik::isFinite(t)) return "IK: the local transform of " + tree.label(node) + " is not finite";
    if (t.rotation.coeffs().squaredNorm() < 1e-12f) return "IK: the local rotation of " + tree.label(node) + " is zero";
    const bool hasChild = tree.firstChildNode(node) >= 0;
    if (hasChild && !ik::isUniform(t.scale))
      return "IK: " + tree.label(node) + " has a non-uniform scale inside the tree (bones would not be rigid)";
    inputRotation[i] = t.rotation.normalized();
    rotation[i] = inputRotation[i];
    translation[i] = t.translation;
    if (hasChild) {
      const ik::SignedScale own = ik::decomposeUniform(t.scale);
      ownScale[i] = own.scale;
      ownScaleRotation[i] = own.rotation;
    } else {
      ownScale[i] = 1.0f;
      ownScaleRotation[i] = Quat::Identity();
    }
  }
  forward(tree);
  totalLength = 0.0f;
  for (int node = 1; node < n; ++node) {
    totalLength +=
        (position[static_cast<std::size_t>(node)] - position[static_cast<std::size_t>(tree.parentNode(node))]).norm();
  }
  for (int node = 1; node < n; ++node) {
    const int parent = tree.parentNode(node);
    const float length = (position[static_cast<std::size_t>(node)] - position[static_cast<std::size_t>(parent)]).norm();
    if (!(length > 1e-6f * totalLength))
      return "IK: zero-length bone from " + tree.label(parent) + " to " + tree.label(node);
  }
  for (int node = 0; node < n; ++node) {
    const int child = tree.firstChildNode(node);
    if (child < 0) continue;
    // The child's translation through the node's own scale: the bone in the rotation space.
    const auto c = static_cast<std::size_t>(child);
    const auto i = static_cast<std::size_t>(node);
    const Vec3 bone = ownScale[i] * (ownScaleRotation[i] * translation[c]);
    boneAxisLocal[i] = bone.normalized();
  }
  return std::nullopt;
}

void IkTreeWorkspace::forward(const IkTree& tree) {
  const int n = tree.nodeCount();
  for (int node = 0; node < n; ++node) {
    const auto i = static_cast<std::size_t>(node);
    const int parent = tree.parentNode(node);
    if (parent < 0) {
      position[i] = translation[i];
      orientation[i] = rotation[i];
      frameScale[i] = ownScale[i];
    } else {
      const auto p = static_cast<std::size_t>(parent);
      position[i] = position[p] + frameScale[p] * (frameRotation[p] * translation[i]);
      orientation[i] = frameRotation[p] * rotation[i];
      frameScale[i] = frameScale[p] * ownScale[i];
    }
    frameRotation[i] = orientation[i] * ownScaleRotation[i];
  }
}

void IkTreeWorkspace::computeJacobian(const IkTree& tree, float orientationWeight) {
  jacobian.setZero();
  const int n = tree.nodeCount();
  for (int e = 0; e < tree.effectorCount(); ++e) {
    const Vec3& effector = position[static_cast<std::size_t>(tree.effectorNode(e))];
    const Eigen::Index row = tree.rowOffset(e);
    const bool withOrientation = tree.effectorHasOrientation(e);
    for (int node = 0; node < n; ++node) {
      const int dof = tree.dofIndex(node);
      if (dof < 0 || !tree.affects(node, e)) continue;
      const int parent = tree.parentNode(node);
      // The update turns about axes of the parent's space; in tree space they are the
      // columns of the parent's frame rotation (a mirror lives in the scale, not here).
      const Mat3 axes =
          parent < 0 ? Mat3::Identity() : frameRotation[static_cast<std::size_t>(parent)].toRotationMatrix();
      const Vec3 lever = effector - position[static_cast<std::size_t>(node)];
      jacobian.block<3, 3>(row, 3 * dof) = crossColumns(lever, axes);
      if (withOrientation) jacobian.block<3, 3>(row + 3, 3 * dof) = orientationWeight * axes;
    }
  }
}

void IkTreeWorkspace::applyUpdate(const IkTree& tree, const Eigen::VectorXf& step) {
  for (int node = 0; node < tree.nodeCount(); ++node) {
    const int dof = tree.dofIndex(node);
    if (dof < 0) continue;
    const Vec3 v = step.segment<3>(3 * dof);
    const auto i = static_cast<std::size_t>(node);
    rotation[i] = (quatExp(0.5f * v) * rotation[i]).normalized();
  }
}

void IkTreeWorkspace::store(const IkTree& tree, std::span<Transform> pose) const {
  for (int node = 0; node < tree.nodeCount(); ++node) {
    if (tree.dofIndex(node) < 0) continue;
    const auto i = static_cast<std::size_t>(node);
    pose[static_cast<std::size_t>(tree.joint(node))].rotation =
        alignHemisphere(rotation[i].normalized(), inputRotation[i]);
  }
}

}  // namespace articula
