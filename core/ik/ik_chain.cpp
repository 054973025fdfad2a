#include "core/ik/ik_chain.h"

#include <algorithm>
#include <cmath>

#include "core/ik/ik_frames.h"
#include "core/math/quaternion.h"

namespace articula {

Result<IkChain> IkChain::build(const Skeleton& skeleton, std::span<const int> joints) {
  if (joints.size() < 2) return makeError("IK chain: needs at least two joints, got " + std::to_string(joints.size()));
  const int count = skeleton.jointCount();
  for (const int j : joints) {
    if (j < 0 || j >= count) return makeError("IK chain: joint index " + std::to_string(j) + " is not in the skeleton");
  }
  auto label = [&](int j) { return "joint " + std::to_string(j) + " '" + skeleton.name(j) + "'"; };
  for (std::size_t k = 1; k < joints.size(); ++k) {
    if (std::find(joints.begin(), joints.begin() + static_cast<std::ptrdiff_t>(k), joints[k]) !=
        joints.begin() + static_cast<std::ptrdiff_t>(k))
      return makeError("IK chain: " + label(joints[k]) + " is repeated");
  }
  IkChain chain;
  chain.mJoints.assign(joints.begin(), joints.end());
  chain.mRootParent = skeleton.parent(joints[0]);
  chain.mSkeletonJointCount = count;
  chain.mPath.push_back(joints[0]);
  chain.mPathIndex.push_back(0);
  std::vector<int> segment;
  for (std::size_t k = 1; k < joints.size(); ++k) {
    const int above = joints[k - 1];
    segment.clear();
    int j = joints[k];
    // Parents come before children, so walking up stops once below `above`'s index.
    while (j != kNoParent && j > above) {
      segment.push_back(j);
      j = skeleton.parent(j);
    }
    if (j != above) {
      return makeError("IK chain: " + label(joints[k]) + " is not below " + label(above) +
                       " (the chain must be an ancestor line, root to tip)");
    }
    chain.mPath.insert(chain.mPath.end(), segment.rbegin(), segment.rend());
    chain.mPathIndex.push_back(static_cast<int>(chain.mPath.size()) - 1);
  }
  for (const int j : chain.mPath) chain.mLabels.push_back(label(j));
  return chain;
}

void IkChain::gatherPositionsModel(std::span<const Affine> model, std::span<Vec3> positionsModel) const {
  for (std::size_t k = 0; k < mJoints.size(); ++k) {
    positionsModel[k] = model[static_cast<std::size_t>(mJoints[k])].translation();
  }
}

void IkChain::applyRotations(std::span<const Quat> rotationsLocal, std::span<Transform> pose) const {
  for (std::size_t k = 0; k < mJoints.size(); ++k) {
    pose[static_cast<std::size_t>(mJoints[k])].rotation = rotationsLocal[k];
  }
}

Affine IkChain::parentModel(std::span<const Transform> pose, std::span<const Affine> model) const {
  if (mRootParent != kNoParent) return model[static_cast<std::size_t>(mRootParent)];
  return ik::frameAboveRoot(model[static_cast<std::size_t>(root())], pose[static_cast<std::size_t>(root())]);
}

void IkChain::updateModel(std::span<const Transform> pose, const Affine& parentModelMatrix,
                          std::span<Affine> model) const {
  const Affine* above = &parentModelMatrix;
  for (const int j : mPath) {
    const auto i = static_cast<std::size_t>(j);
    model[i] = (*above) * pose[i].toAffine();
    above = &model[i];
  }
}

void IkChainWorkspace::resize(const IkChain& chain) {
  joints.assign(static_cast<std::size_t>(chain.size()), IkChainJoint{});
  positions.assign(static_cast<std::size_t>(chain.size()), Vec3::Zero());
}

namespace {

// A path joint's local transform: finite, a non-zero rotation, and a uniform scale above the
// last solved joint (so that every solved bone is rigid in chain space).
std::optional<std::string> checkPathJoint(const IkChain& chain, const Transform& t, int pathPosition) {
  if (!ik::isFinite(t)) return "IK: the local transform of " + chain.label(pathPosition) + " is not finite";
  if (t.rotation.coeffs().squaredNorm() < 1e-12f)
    return "IK: the local rotation of " + chain.label(pathPosition) + " is zero";
  if (pathPosition < chain.pathIndex(chain.size() - 2) && !ik::isUniform(t.scale))
    return "IK: " + chain.label(pathPosition) + " has a non-uniform scale inside the chain (bones would not be rigid)";
  return std::nullopt;
}

// Offset from chain joint k to chain joint k + 1 in chain joint k's local space, through the
// joints between them (exact TRS, any scales; rotations read as the unit ones they stand for).
Vec3 offsetToNext(const IkChain& chain, std::span<const Transform> pose, int k) {
  const auto path = chain.path();
  const int begin = chain.pathIndex(k);
  const int end = chain.pathIndex(k + 1);
  Vec3 offset = pose[static_cast<std::size_t>(path[static_cast<std::size_t>(end)])].translation;
  for (int p = end - 1; p > begin; --p) {
    const Transform& between = pose[static_cast<std::size_t>(path[static_cast<std::size_t>(p)])];
    offset = between.translation + between.rotation.normalized() * between.scale.cwiseProduct(offset);
  }
  return offset;
}

// The similarity (signed uniform scale times rotation) carrying chain joint k's rotation space
// into chain joint k + 1's parent space: its own scale, then the joints in between.
void readLink(const IkChain& chain, std::span<const Transform> pose, int k, IkChainJoint& J) {
  const auto path = chain.path();
  const ik::SignedScale own = ik::decomposeUniform(pose[static_cast<std::size_t>(chain.joint(k))].scale);
  J.linkScale = own.scale;
  J.linkRotation = own.rotation;
  for (int p = chain.pathIndex(k) + 1; p < chain.pathIndex(k + 1); ++p) {
    const Transform& between = pose[static_cast<std::size_t>(path[static_cast<std::size_t>(p)])];
    const ik::SignedScale s = ik::decomposeUniform(between.scale);
    J.linkRotation = J.linkRotation * between.rotation.normalized() * s.rotation;
    J.linkScale *= s.scale;
  }
  J.linkRotation.normalize();
}

}  // namespace

std::optional<std::string> IkChainWorkspace::loadFrame(const IkChain& chain, std::span<const Transform> pose,
                                                       std::span<const Affine> model) {
  const Affine frame = chain.parentModel(pose, model);
  chainToModel = frame.linear();
  originModel = frame.translation();
  if (!ik::isFinite(chainToModel) || !ik::isFinite(originModel))
    return "IK: the model matrix above " + chain.label(0) + " is not finite";
  const float maxEntry = chainToModel.cwiseAbs().maxCoeff();
  const float det = chainToModel.determinant();
  if (!(std::abs(det) > 1e-12f * maxEntry * maxEntry * maxEntry))
    return "IK: the model matrix above " + chain.label(0) + " is singular";
  modelToChain = chainToModel.inverse();
  return std::nullopt;
}

void IkChainWorkspace::loadBones(const IkChain& chain, std::span<const Transform> pose) {
  const int n = chain.size();
  totalLength = 0.0f;
  float frameScale = 1.0f;  // signed uniform scale of chain joint k's parent frame
  for (int k = 0; k < n; ++k) {
    IkChainJoint& J = joints[static_cast<std::size_t>(k)];
    const Transform& local = pose[static_cast<std::size_t>(chain.joint(k))];
    J.inputRotation = local.rotation.normalized();
    J.rotation = J.inputRotation;
    J.parentScale = frameScale;
    if (k == n - 1) break;
    J.boneLocal = local.scale.cwiseProduct(offsetToNext(chain, pose, k));
    // Only needed (and only uniform) above the last solved joint.
    J.linkScale = 1.0f;
    J.linkRotation = Quat::Identity();
    if (k < n - 2) readLink(chain, pose, k, J);
    J.linkIsIdentity = J.linkRotation.coeffs() == Quat::Identity().coeffs();
    const float localLength = J.boneLocal.norm();
    J.boneLength = std::abs(frameScale) * localLength;
    J.boneAxisLocal = localLength > 0.0f ? Vec3(J.boneLocal / localLength) : Vec3::UnitX();
    J.inputBoneParent = J.inputRotation * J.boneAxisLocal;
    totalLength += J.boneLength;
    frameScale *= J.linkScale;
  }
}

std::optional<std::string> IkChainWorkspace::load(const IkChain& chain, std::span<const Transform> pose,
                                                  std::span<const Affine> model) {
  const int n = chain.size();
  if (n < 2) return std::string("IK: the chain is empty (build it with IkChain::build)");
  if (size() != n) return std::string("IK: the workspace is not sized for the chain");
  const auto jointCount = static_cast<std::size_t>(chain.skeletonJointCount());
  if (pose.size() < jointCount) return std::string("IK: the pose has fewer joints than the skeleton");
  if (model.size() < jointCount) return std::string("IK: the model matrices are fewer than the skeleton's joints");
  const auto path = chain.path();
  for (std::size_t p = 0; p < path.size(); ++p) {
    if (auto e = checkPathJoint(chain, pose[static_cast<std::size_t>(path[p])], static_cast<int>(p))) return e;
  }
  if (auto e = loadFrame(chain, pose, model)) return e;
  loadBones(chain, pose);
  for (int k = 0; k + 1 < n; ++k) {
    if (!(joints[static_cast<std::size_t>(k)].boneLength > 1e-6f * totalLength))
      return "IK: zero-length bone from " + chain.label(chain.pathIndex(k)) + " to " +
             chain.label(chain.pathIndex(k + 1));
  }
  joints.front().parentRotation = Quat::Identity();
  positions.front() = pose[static_cast<std::size_t>(chain.root())].translation;
  forward(0);
  return std::nullopt;
}

void IkChainWorkspace::forward(int from) {
  const int n = size();
  for (int k = from; k + 1 < n; ++k) {
    const IkChainJoint& J = joints[static_cast<std::size_t>(k)];
    const Quat w = J.parentRotation * J.rotation;
    positions[static_cast<std::size_t>(k) + 1] =
        positions[static_cast<std::size_t>(k)] + J.parentScale * (w * J.boneLocal);
    IkChainJoint& next = joints[static_cast<std::size_t>(k) + 1];
    next.parentRotation = J.linkIsIdentity ? w : Quat(w * J.linkRotation);
  }
}

namespace {

// Where a joint's bone should point, in its parent space, and that vector's length: the
// wanted direction itself, or for a cone the allowed direction nearest it (unit). A cone
// limits the direction only, so the input turns straight onto it, one minimal rotation;
// inside a circular cone the wanted direction is kept, tested without normalising it.
struct BoneAim {
  Vec3 toParent;
  float toLength;
  bool projected;    // the constraint is fully honoured by the aim (a cone without twist limit)
  bool alongWanted;  // the bone ends along the wanted direction itself
};
BoneAim aimBone(const IkChainJoint& J, const Vec3& dirParent, float wantedLength, const JointConstraint* constraint) {
  BoneAim aim{dirParent, wantedLength, false, constraint == nullptr};
  if (constraint == nullptr || constraint->kind() != JointConstraint::Kind::Cone) return aim;
  const bool inside = constraint->isCircularCone() &&
                      dirParent.dot(constraint->axisParent()) >= constraint->cosHalfAngle() * wantedLength;
  if (!inside) {
    aim.toParent = constraint->projectDirection(dirParent / wantedLength, J.boneAxisLocal);
    aim.toLength = 1.0f;
  }
  aim.projected = !constraint->hasTwistLimit();
  aim.alongWanted = inside && aim.projected;
  return aim;
}

}  // namespace

// Each joint, root to tip, turns from its input rotation by the minimal rotation taking its
// input bone direction (parent space) onto where it should point: the half-way quaternion
// (|a||b| + a·b, a × b) for the input bone a (unit) and the aim b, normalised by its own norm
// (so a frame a rounding away from unit stays so instead of compounding from joint to joint);
// fromToRotation's careful path near 180°. A constraint other than a twist-free cone then
// projects the rotation. A bone turned onto the wanted direction itself ends along it: the
// next position needs only the bone's length.
void IkChainWorkspace::recoverRotations(std::span<const JointConstraint> constraints) {
  Quat frame = joints.front().parentRotation;  // the parent's frame rotation, chain space
  Vec3 position = positions.front();
  for (int k = 0; k + 1 < size(); ++k) {
    const auto i = static_cast<std::size_t>(k);
    IkChainJoint& J = joints[i];
    const JointConstraint* constraint = !constraints.empty() && constraints[i].isActive() ? &constraints[i] : nullptr;
    const Vec3 wanted = positions[i + 1] - position;
    const float wantedLength = wanted.norm();
    bool alongWanted = false;
    bool projected = false;
    if (wantedLength * wantedLength > 1e-24f) {
      // Into the parent's space: (parentScale * parentRotation)⁻¹, direction only.
      const Vec3 dirParent = (J.parentScale < 0.0f ? -1.0f : 1.0f) * (frame.conjugate() * wanted);
      const BoneAim aim = aimBone(J, dirParent, wantedLength, constraint);
      alongWanted = aim.alongWanted;
      projected = aim.projected;
      const float d = J.inputBoneParent.dot(aim.toParent);
      const Vec3 c = J.inputBoneParent.cross(aim.toParent);
      const Quat turn = d < -0.9f * aim.toLength ? fromToRotation(J.inputBoneParent, aim.toParent)
                                                 : Quat(aim.toLength + d, c.x(), c.y(), c.z()).normalized();
      J.rotation = turn * J.inputRotation;
    }
    if (constraint != nullptr && !projected) J.rotation = constraint->project(J.rotation, J.boneAxisLocal);
    const Quat world = frame * J.rotation;
    position +=
        alongWanted ? Vec3(wanted * (J.boneLength / wantedLength)) : Vec3(J.parentScale * (world * J.boneLocal));
    positions[i + 1] = position;
    frame = J.linkIsIdentity ? world : Quat(world * J.linkRotation);
    joints[i + 1].parentRotation = frame;
  }
}

void IkChainWorkspace::store(const IkChain& chain, std::span<Transform> pose, bool writeRootTranslation) const {
  for (int k = 0; k + 1 < size(); ++k) {
    const IkChainJoint& J = joints[static_cast<std::size_t>(k)];
    pose[static_cast<std::size_t>(chain.joint(k))].rotation = alignHemisphere(J.rotation.normalized(), J.inputRotation);
  }
  if (writeRootTranslation) pose[static_cast<std::size_t>(chain.root())].translation = positions.front();
}

Quat modelRotationToSpace(const Mat3& spaceToModelLinear, const Vec3& axisModel, float angleRad) {
  const Vec3 axis = spaceToModelLinear.inverse() * axisModel;
  const float n = axis.norm();
  if (!(n > 0.0f) || !std::isfinite(n)) return Quat::Identity();
  const float signedAngle = spaceToModelLinear.determinant() < 0.0f ? -angleRad : angleRad;
  return Quat(Eigen::AngleAxisf(signedAngle, axis / n));
}

}  // namespace articula
