#pragma once
// A chain of joints for the iterative solvers, and the scratch data of one solve.
//
// Spaces used by every solver of core/ik:
//  - model space: where targets, poles and the model matrices live;
//  - chain space: the model space of the chain root's PARENT (its local coordinates). Any
//    transform above the chain (translation, rotation, non-uniform scale, mirroring, shear)
//    maps chain space affinely onto model space, so a target is reached in model space
//    exactly when it is reached in chain space, and lines stay lines. Inside the chain,
//    scales are uniform (see IkChainWorkspace::load), so bones are rigid in chain space and
//    the solvers can move positions keeping bone lengths;
//  - a joint's parent space, where its local rotation and its constraints live;
//  - a joint's rotation space (before its local rotation), where its bone axis lives.
#include <cmath>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "core/ik/ik_constraints.h"
#include "core/math/transform.h"
#include "core/skeleton/skeleton.h"
#include "core/util/result.h"

namespace articula {

// What every solver reports (optional output of the jobs).
struct IkReport {
  bool reached = false;     // the tip (end joint) ended within the job's tolerance of the target
  float errorModel = 0.0f;  // distance from the tip to the target after the solve, model space
  int iterations = 0;       // solver passes used; 0 when the input already reached the target
  // Jacobian solvers with orientation targets: the largest angle left to an orientation
  // target, radians (0 without orientation targets).
  float orientationErrorRad = 0.0f;
};

// Joints root..tip, each on the parent line of the next. Joints of the skeleton that lie
// between two chain joints (twist or roll bones) are allowed: they are not solved, keep their
// local transforms and are carried rigidly by the chain joint above them. path() lists them.
class IkChain {
 public:
  IkChain() = default;

  // Fails when: fewer than two joints; an index out of the skeleton; a joint repeated; a
  // joint's parent line does not reach the previous joint (not an ancestor line).
  static Result<IkChain> build(const Skeleton& skeleton, std::span<const int> joints);

  int size() const { return static_cast<int>(mJoints.size()); }
  std::span<const int> joints() const { return mJoints; }
  int joint(int k) const { return mJoints[static_cast<std::size_t>(k)]; }
  int root() const { return mJoints.front(); }
  int tip() const { return mJoints.back(); }
  // The root's parent in the skeleton (the chain's frame), or kNoParent.
  int rootParent() const { return mRootParent; }
  // Every joint from the root to the tip, intermediate joints included; each one's parent
  // is the previous one.
  std::span<const int> path() const { return mPath; }
  // Position of chain joint k in path().
  int pathIndex(int k) const { return mPathIndex[static_cast<std::size_t>(k)]; }
  // Joint count of the skeleton the chain was built for (poses must be at least that long).
  int skeletonJointCount() const { return mSkeletonJointCount; }
  // "joint 3 'knee_l'", for messages.
  const std::string& label(int pathPosition) const { return mLabels[static_cast<std::size_t>(pathPosition)]; }

  // Model-space positions of the chain joints, root..tip, read from FK matrices.
  void gatherPositionsModel(std::span<const Affine> model, std::span<Vec3> positionsModel) const;
  // Writes one local rotation per chain joint (root..tip) into the pose.
  void applyRotations(std::span<const Quat> rotationsLocal, std::span<Transform> pose) const;
  // Model transform of the chain's frame (the root's parent): model[rootParent()], or, for a
  // skeleton root, model[root()] * pose[root()]⁻¹ (whatever root transform FK used).
  Affine parentModel(std::span<const Transform> pose, std::span<const Affine> model) const;
  // FK along path() only: recomputes the model matrices of the path joints from the chain's
  // frame. Joints hanging off the path are not updated (run LocalToModelJob from the root).
  void updateModel(std::span<const Transform> pose, const Affine& parentModel, std::span<Affine> model) const;

 private:
  std::vector<int> mJoints;
  std::vector<int> mPath;
  std::vector<int> mPathIndex;
  std::vector<std::string> mLabels;
  int mRootParent = kNoParent;
  int mSkeletonJointCount = 0;
};

// One chain joint as the solvers see it, in chain space. "Frame" of a joint's parent:
// parentScale * parentRotation maps the parent's space into chain space (a similarity: a
// signed uniform scale, negative for a mirror, times a rotation).
struct IkChainJoint {
  Quat rotation = Quat::Identity();        // local rotation being solved, parent space
  Quat inputRotation = Quat::Identity();   // local rotation read from the pose
  Quat parentRotation = Quat::Identity();  // rotation of the parent's frame, chain space
  // Carries the joint's rotation space into the next chain joint's parent space: the
  // joint's own scale and the joints between it and the next chain joint, as
  // linkScale * linkRotation.
  Quat linkRotation = Quat::Identity();
  bool linkIsIdentity = true;            // linkRotation is exactly the identity (no product needed)
  Vec3 boneLocal = Vec3::Zero();         // joint → next chain joint, rotation space
  Vec3 boneAxisLocal = Vec3::UnitX();    // boneLocal normalised
  Vec3 inputBoneParent = Vec3::UnitX();  // inputRotation * boneAxisLocal, parent space
  float parentScale = 1.0f;              // signed uniform scale of the parent's frame
  float linkScale = 1.0f;
  float boneLength = 0.0f;  // chain space
  // FABRIK's backward pass: bound on the angle between the previous bone and this one.
  float backwardCos = -1.0f;
  float backwardSin = 0.0f;
};

// Scratch data of a solve (pinocchio's Data for a Model): sized once for a chain; the solvers
// allocate nothing while running.
struct IkChainWorkspace {
  IkChainWorkspace() = default;
  explicit IkChainWorkspace(const IkChain& chain) { resize(chain); }
  void resize(const IkChain& chain);
  int size() const { return static_cast<int>(joints.size()); }

  // Reads the chain from a pose and its model matrices into chain space: frame, rigid bone
  // data, input rotations, positions (FK in chain space); a rotation that is not unit is read
  // as the rotation it stands for. nullopt on success; otherwise a
  // message, and the workspace content is unspecified. Fails when: the workspace is not
  // sized for the chain; pose or model is shorter than the skeleton; the chain's frame is not
  // finite or is singular; a path joint's local transform is not finite or has a zero
  // rotation; a joint above the last solved joint (every path joint before chain joint
  // size()-2) has a non-uniform scale (|sx|, |sy|, |sz| differ by more than 1e-4
  // relatively; signs may differ: mirrors are fine); a bone is shorter than 1e-6 of the
  // chain's length (zero-length bone).
  std::optional<std::string> load(const IkChain& chain, std::span<const Transform> pose, std::span<const Affine> model);

  // FK in chain space from chain joint `from` down, with the current rotations: positions of
  // the joints below `from` and their parents' frames.
  void forward(int from = 0);

  // Turns the current positions into rotations, root to tip: each joint gets the input
  // rotation turned by the minimal rotation taking its input bone direction onto the
  // direction towards the next position (the input twist about the bone is kept), projected
  // onto its constraint (empty span: none). A cone limits the direction only, so there the
  // minimal rotation goes straight to the allowed direction nearest the wanted one (one turn
  // from the input instead of two; a twist limit is then clamped). The bone then points from
  // the joint's actual position towards the next wanted position, and positions are
  // recomputed, so the rotations honour the limits exactly and the positions follow from
  // them (FK within float rounding). With no constraint this is FABRIK's forward pass.
  void recoverRotations(std::span<const JointConstraint> constraints);

  // Writes the solved local rotations (in the input's hemisphere) into the pose; with
  // writeRootTranslation, also the root's local translation (positions[0]).
  void store(const IkChain& chain, std::span<Transform> pose, bool writeRootTranslation) const;

  Vec3 toChainPoint(const Vec3& pointModel) const { return modelToChain * (pointModel - originModel); }
  Vec3 toModelPoint(const Vec3& pointChain) const { return originModel + chainToModel * pointChain; }
  // Model-space distance between the tip and a chain-space point.
  float tipErrorModel(const Vec3& targetChain) const {
    return (chainToModel * (positions.back() - targetChain)).norm();
  }

  std::vector<IkChainJoint> joints;  // one per chain joint; the tip's carries only its frame
  std::vector<Vec3> positions;       // chain joints, chain space, contiguous for FABRIK
  Mat3 chainToModel = Mat3::Identity();
  Mat3 modelToChain = Mat3::Identity();
  Vec3 originModel = Vec3::Zero();
  float totalLength = 0.0f;  // sum of bone lengths, chain space

 private:
  // load()'s stages: the chain frame and its inverse; the bones, links and input rotations.
  std::optional<std::string> loadFrame(const IkChain& chain, std::span<const Transform> pose,
                                       std::span<const Affine> model);
  void loadBones(const IkChain& chain, std::span<const Transform> pose);
};

// The checks CCD and FABRIK make alike on their jobs, messages prefixed with the solver's
// name ("CCD IK"): a chain, a workspace sized for it, constraints empty or one valid per chain
// joint, a finite target, a finite non-negative tolerance, maxIterations at least 1.
template <class ChainJob>
std::optional<std::string> checkChainJob(const std::string& solver, const ChainJob& job) {
  if (job.chain == nullptr) return solver + ": no chain";
  if (job.workspace == nullptr) return solver + ": no workspace";
  if (job.workspace->size() != job.chain->size()) return solver + ": the workspace is not sized for the chain";
  if (!job.constraints.empty() && job.constraints.size() != static_cast<std::size_t>(job.chain->size()))
    return solver + ": constraints must be empty or one per chain joint";
  for (std::size_t k = 0; k < job.constraints.size(); ++k) {
    if (auto e = job.constraints[k].isValid() ? std::nullopt : job.constraints[k].validate())
      return solver + ": constraint of chain joint " + std::to_string(k) + ": " + *e;
  }
  if (!job.targetModel.allFinite()) return solver + ": the target is not finite";
  if (!(job.toleranceModel >= 0.0f) || !std::isfinite(job.toleranceModel))
    return solver + ": the tolerance is negative or not finite";
  if (job.maxIterations < 1) return solver + ": maxIterations must be at least 1";
  return std::nullopt;
}

// A model-space rotation (axisModel, angleRad) expressed in another space whose linear map to
// model space is spaceToModelLinear (ozz's way): the axis, a direction, is carried into the
// space by the inverse matrix and normalised, and the angle changes sign when the matrix
// mirrors (negative determinant), because a reflection reverses the sense of rotation:
// for M = s·Q with Q orthogonal, M⁻¹·rot(a, θ)·M = rot(Qᵀa, det(Q)·θ).
// Exact when the matrix is a similarity (rotation, uniform scale, mirror); with non-uniform
// scale the axis is still exact (points on the axis stay put) but not the angle.
// With a joint's PARENT model matrix, apply on the left (local.rotation = r * local.rotation);
// with the joint's own model matrix (ozz), on the right (local.rotation = local.rotation * r).
Quat modelRotationToSpace(const Mat3& spaceToModelLinear, const Vec3& axisModel, float angleRad);

}  // namespace articula
