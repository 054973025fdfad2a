#pragma once
// A tree of joints for the Jacobian solvers (several end effectors sharing joints, e.g. two
// hands from one spine), its scratch data, and the analytic Jacobian.
//
// Spaces (as in ik_chain.h):
//  - model space: targets and model matrices;
//  - tree space: the model space of the tree root's PARENT (its local coordinates). The
//    transform above the tree (any affine map, scale and mirroring included) maps tree space
//    onto model space, so a position target is reached in one exactly when it is in the other;
//  - a node's parent space: where its local rotation, its update and its constraint live.
// Inside the tree every joint that has a child in the tree scales uniformly (a mirror is
// fine), so each node's frame in tree space is a similarity frameScale * frameRotation.
//
// Degrees of freedom: three rotational ones per solved node, the rotation vector δ of an
// update applied in the parent's space, rotation ← exp(δ) * rotation. Column 3·d + i of the
// Jacobian is the derivative with respect to δ_i of the node with dof index d.
#include <optional>
#include <span>
#include <string>
#include <vector>

#include <Eigen/Dense>

#include "core/math/transform.h"
#include "core/skeleton/skeleton.h"
#include "core/util/result.h"

namespace articula {

// An end effector of a tree: a joint whose position (and, with `orientation`, the rotation of
// its frame) the Jacobian solvers drive.
struct IkTreeEffector {
  int joint = kNoParent;
  // Solve the effector's own rotation too, for orientation targets: the effector then has
  // three more rows (rotation error) and, unless it already has one, three more columns.
  bool orientation = false;
};

class IkTree {
 public:
  IkTree() = default;

  // Nodes: every joint on the parent line from rootJoint down to each effector, in
  // parent-before-child order. Solved nodes: every node with an effector strictly below it,
  // and each orientation effector. Fails when: no effector; a joint index out of the
  // skeleton; an effector repeated; an effector not below (or at) rootJoint (the joints are
  // not an ancestor line); no node to solve (every effector is the root without orientation).
  static Result<IkTree> build(const Skeleton& skeleton, int rootJoint, std::span<const IkTreeEffector> effectors);

  int nodeCount() const { return static_cast<int>(mJoints.size()); }
  int joint(int node) const { return mJoints[static_cast<std::size_t>(node)]; }
  int parentNode(int node) const { return mParentNodes[static_cast<std::size_t>(node)]; }  // -1 at the root
  // Index of the node's three columns / 3, or -1 when the node is not solved.
  int dofIndex(int node) const { return mDofIndex[static_cast<std::size_t>(node)]; }
  // The node's first child in the tree (where its bone axis points), or -1 at a leaf.
  int firstChildNode(int node) const { return mFirstChild[static_cast<std::size_t>(node)]; }
  int solvedCount() const { return mSolvedCount; }

  int effectorCount() const { return static_cast<int>(mEffectors.size()); }
  int effectorNode(int e) const { return mEffectorNodes[static_cast<std::size_t>(e)]; }
  bool effectorHasOrientation(int e) const { return mEffectors[static_cast<std::size_t>(e)].orientation; }
  // First Jacobian row of effector e: three position rows, then three rotation rows when it
  // has orientation.
  int rowOffset(int e) const { return mRowOffsets[static_cast<std::size_t>(e)]; }
  // True when moving `node` moves effector e (node is e's node or one of its ancestors).
  bool affects(int node, int e) const {
    return mAffects[static_cast<std::size_t>(e) * mJoints.size() + static_cast<std::size_t>(node)] != 0;
  }

  int rows() const { return mRows; }
  int cols() const { return 3 * mSolvedCount; }
  int rootParent() const { return mRootParent; }
  int skeletonJointCount() const { return mSkeletonJointCount; }
  // "joint 3 'hand_l'", for messages.
  const std::string& label(int node) const { return mLabels[static_cast<std::size_t>(node)]; }

 private:
  std::vector<int> mJoints;
  std::vector<int> mParentNodes;
  std::vector<int> mDofIndex;
  std::vector<int> mFirstChild;
  std::vector<IkTreeEffector> mEffectors;
  std::vector<int> mEffectorNodes;
  std::vector<int> mRowOffsets;
  std::vector<unsigned char> mAffects;
  std::vector<std::string> mLabels;
  int mSolvedCount = 0;
  int mRows = 0;
  int mRootParent = kNoParent;
  int mSkeletonJointCount = 0;
};

// Scratch data of a tree solve, sized once (IkTreeWorkspace(tree)); the solvers allocate
// nothing while running.
struct IkTreeWorkspace {
  IkTreeWorkspace() = default;
  explicit IkTreeWorkspace(const IkTree& tree) { resize(tree); }
  void resize(const IkTree& tree);
  int nodeCount() const { return static_cast<int>(rotation.size()); }

  // Reads the tree from a pose and its model matrices into tree space. nullopt on success;
  // otherwise a message and the content is unspecified. Fails when: the tree is empty or the
  // workspace is not sized for it; pose or model shorter than the skeleton; the tree's frame
  // not finite or singular; a node's local transform not finite or with a zero rotation; a
  // node with a child in the tree scaling non-uniformly; a zero-length bone (a node at its
  // parent's position).
  std::optional<std::string> load(const IkTree& tree, std::span<const Transform> pose, std::span<const Affine> model);

  // FK in tree space with the current rotations: positions, frames and orientations.
  void forward(const IkTree& tree);

  // The Jacobian of the effectors' positions (and orientations, rows of orientation effectors)
  // with respect to the update rotation vectors, tree space, at the current FK state.
  // Orientation rows are multiplied by orientationWeight. Fills `jacobian` (rows × cols).
  void computeJacobian(const IkTree& tree, float orientationWeight);

  // Applies a rotation vector per solved node (parent space): rotation ← exp(δ) * rotation.
  void applyUpdate(const IkTree& tree, const Eigen::VectorXf& delta);

  // Writes the solved local rotations (in the input's hemisphere) into the pose.
  void store(const IkTree& tree, std::span<Transform> pose) const;

  Vec3 toTreePoint(const Vec3& pointModel) const { return modelToTree * (pointModel - originModel); }

  // Per node, inputs (from load):
  std::vector<Quat> inputRotation;     // local rotation read from the pose
  std::vector<Vec3> translation;       // local translation, parent space
  std::vector<float> ownScale;         // signed uniform scale of the node (1 at leaves)
  std::vector<Quat> ownScaleRotation;  // the rest of the node's scale (a half-turn or identity)
  std::vector<Vec3> boneAxisLocal;     // towards the first child node, rotation space, unit
  // Per node, state:
  std::vector<Quat> rotation;       // local rotation being solved, parent space
  std::vector<Vec3> position;       // tree space
  std::vector<Quat> orientation;    // frame rotation without the node's own scale, tree space
  std::vector<Quat> frameRotation;  // frame = frameScale * frameRotation, tree space
  std::vector<float> frameScale;

  Mat3 treeToModel = Mat3::Identity();
  Mat3 modelToTree = Mat3::Identity();
  Vec3 originModel = Vec3::Zero();
  float totalLength = 0.0f;  // sum of the bone lengths, tree space

  // Solver buffers, allocated by resize().
  Eigen::MatrixXf jacobian;     // rows × cols
  Eigen::VectorXf error;        // rows
  Eigen::VectorXf delta;        // cols
  Eigen::VectorXf rowsScratch;  // rows
  Eigen::MatrixXf rowsSquare;   // rows × rows
  // Both decompositions always hold a computed state: Eigen leaves their status field
  // uninitialised until compute(), and copying or moving the workspace reads it (undefined
  // behaviour UBSan reports). A 1x1 identity allocates next to nothing; resize() sizes them.
  Eigen::LDLT<Eigen::MatrixXf> ldlt{Eigen::MatrixXf::Identity(1, 1)};
  Eigen::SelfAdjointEigenSolver<Eigen::MatrixXf> eigen{Eigen::MatrixXf::Identity(1, 1)};
  Eigen::VectorXf colsScratch;   // cols
  Eigen::VectorXf columnWeight;  // cols (SDLS: Σ over effectors of each column's block norm)
};

}  // namespace articula
