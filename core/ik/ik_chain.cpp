#include "core/ik/ik_chain.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <utility>

#include "core/ik/ik_frames.h"
#include "core/ik/ik_simd.h"
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
  structure.reserve(chain.path().size());
  structure.invalidate();
  mStoredRotations.assign(static_cast<std::size_t>(chain.size()), Quat::Identity());
  mStoredValid = false;
}

ARTICULA_IK_HOT bool IkChainWorkspace::updateStructure(const IkChain& chain, std::span<const Transform> pose,
                                                       const Affine& frame) {
  const auto path = chain.path();
  return structure.pass(path.size(), frame, [&](auto& pass) {
    int nextChainJoint = 0;
    for (std::size_t p = 0; p < path.size(); ++p) {
      const bool isChainJoint = static_cast<int>(p) == chain.pathIndex(nextChainJoint);
      if (isChainJoint) ++nextChainJoint;
      pass.add(path[p], pose[static_cast<std::size_t>(path[p])], !isChainJoint);
    }
  });
}

// Defined before load(), its first use: clang takes a function's clones only from its first
// declaration or definition.
ARTICULA_IK_HOT std::optional<std::string> IkChainWorkspace::loadRotations(const IkChain& chain,
                                                                           std::span<const Transform> pose,
                                                                           bool carryOn) {
  const int n = size();
  for (int k = 0; k < n; ++k) {
    IkChainJoint& J = joints[static_cast<std::size_t>(k)];
    const Quat& rotation = pose[static_cast<std::size_t>(chain.joint(k))].rotation;
    if (carryOn && k + 1 < n) {
      // The stored rotations, bit for bit: finite and unit within rounding, as store() wrote them.
      J.inputRotation = rotation;
      J.rotation = rotation;
      J.inputBoneParent = rotation * J.boneAxisLocal;
      continue;
    }
    if (!ik::allFinite(rotation.coeffs().data(), 4))
      return "IK: the local transform of " + chain.label(chain.pathIndex(k)) + " is not finite";
    if (rotation.coeffs().squaredNorm() < 1e-12f)
      return "IK: the local rotation of " + chain.label(chain.pathIndex(k)) + " is zero";
    J.inputRotation = rotation.normalized();
    J.rotation = J.inputRotation;
    if (k + 1 < n) J.inputBoneParent = J.inputRotation * J.boneAxisLocal;
  }
  if (carryOn) return std::nullopt;
  joints.front().parentRotation = Quat::Identity();
  positions.front() = pose[static_cast<std::size_t>(chain.root())].translation;
  forward(0);
  return std::nullopt;
}

std::optional<std::string> IkChainWorkspace::load(const IkChain& chain, std::span<const Transform> pose,
                                                  std::span<const Affine> model) {
  // Whatever this load does, the state stops being the last store()'s unless it carries on.
  const bool stored = std::exchange(mStoredValid, false);
  const int n = chain.size();
  if (n < 2) return std::string("IK: the chain is empty (build it with IkChain::build)");
  if (size() != n) return std::string("IK: the workspace is not sized for the chain");
  const auto jointCount = static_cast<std::size_t>(chain.skeletonJointCount());
  if (pose.size() < jointCount) return std::string("IK: the pose has fewer joints than the skeleton");
  if (model.size() < jointCount) return std::string("IK: the model matrices are fewer than the skeleton's joints");

  const Affine frame = chain.parentModel(pose, model);
  if (!updateStructure(chain, pose, frame)) return loadRotations(chain, pose, stored && matchesStored(chain, pose));

  const auto path = chain.path();
  for (std::size_t p = 0; p < path.size(); ++p) {
    const Transform& t = pose[static_cast<std::size_t>(path[p])];
    if (!ik::isFinite(t)) return "IK: the local transform of " + chain.label(static_cast<int>(p)) + " is not finite";
    if (t.rotation.coeffs().squaredNorm() < 1e-12f)
      return "IK: the local rotation of " + chain.label(static_cast<int>(p)) + " is zero";
    if (static_cast<int>(p) < chain.pathIndex(n - 2) && !ik::isUniform(t.scale))
      return "IK: " + chain.label(static_cast<int>(p)) +
             " has a non-uniform scale inside the chain (bones would not be rigid)";
  }

  chainToModel = frame.linear();
  originModel = frame.translation();
  if (!ik::isFinite(chainToModel) || !ik::isFinite(originModel))
    return "IK: the model matrix above " + chain.label(0) + " is not finite";
  const float maxEntry = chainToModel.cwiseAbs().maxCoeff();
  const float det = chainToModel.determinant();
  if (!(std::abs(det) > 1e-12f * maxEntry * maxEntry * maxEntry))
    return "IK: the model matrix above " + chain.label(0) + " is singular";
  modelToChain = chainToModel.inverse();

  totalLength = 0.0f;
  float frameScale = 1.0f;
  for (int k = 0; k < n; ++k) {
    IkChainJoint& J = joints[static_cast<std::size_t>(k)];
    const Transform& local = pose[static_cast<std::size_t>(chain.joint(k))];
    J.inputRotation = local.rotation.normalized();
    J.rotation = J.inputRotation;
    J.parentScale = frameScale;
    if (k == n - 1) break;
    // Offset to the next chain joint through the joints in between, in this joint's local
    // space, then through its own scale into its rotation space (exact TRS, any scales).
    const int begin = chain.pathIndex(k);
    const int end = chain.pathIndex(k + 1);
    Vec3 offset = pose[static_cast<std::size_t>(path[static_cast<std::size_t>(end)])].translation;
    for (int p = end - 1; p > begin; --p) {
      const Transform& between = pose[static_cast<std::size_t>(path[static_cast<std::size_t>(p)])];
      offset = between.translation + between.rotation.normalized() * between.scale.cwiseProduct(offset);
    }
    J.boneLocal = local.scale.cwiseProduct(offset);
    // Similarity carrying the rotation space into the next chain joint's parent space; only
    // needed (and only uniform) above the last solved joint.
    J.linkScale = 1.0f;
    J.linkRotation = Quat::Identity();
    if (k < n - 2) {
      const ik::SignedScale own = ik::decomposeUniform(local.scale);
      J.linkScale = own.scale;
      J.linkRotation = own.rotation;
      for (int p = begin + 1; p < end; ++p) {
        const Transform& between = pose[static_cast<std::size_t>(path[static_cast<std::size_t>(p)])];
        const ik::SignedScale s = ik::decomposeUniform(between.scale);
        J.linkRotation = J.linkRotation * between.rotation.normalized() * s.rotation;
        J.linkScale *= s.scale;
      }
      J.linkRotation.normalize();
    }
    J.linkIsIdentity = J.linkRotation.coeffs() == Quat::Identity().coeffs();
    const float localLength = J.boneLocal.norm();
    J.boneLength = std::abs(frameScale) * localLength;
    J.boneAxisLocal = localLength > 0.0f ? Vec3(J.boneLocal / localLength) : Vec3::UnitX();
    J.inputBoneParent = J.inputRotation * J.boneAxisLocal;
    totalLength += J.boneLength;
    frameScale *= J.linkScale;
  }
  for (int k = 0; k + 1 < n; ++k) {
    if (!(joints[static_cast<std::size_t>(k)].boneLength > 1e-6f * totalLength))
      return "IK: zero-length bone from " + chain.label(chain.pathIndex(k)) + " to " +
             chain.label(chain.pathIndex(k + 1));
  }
  joints.front().parentRotation = Quat::Identity();
  positions.front() = pose[static_cast<std::size_t>(chain.root())].translation;
  forward(0);
  structure.markValid();
  return std::nullopt;
}

bool IkChainWorkspace::matchesStored(const IkChain& chain, std::span<const Transform> pose) const {
  for (int k = 0; k + 1 < size(); ++k) {
    const Quat& rotation = pose[static_cast<std::size_t>(chain.joint(k))].rotation;
    if (std::memcmp(rotation.coeffs().data(), mStoredRotations[static_cast<std::size_t>(k)].coeffs().data(),
                    4 * sizeof(float)) != 0)
      return false;
  }
  return true;
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

// What the rotation recovery carries from one joint to the next, chain space: the parent's
// frame rotation twice, `frame`, unit, and `frameScaled` = |frameScaled| · frame, with
// frameScaled2 its squared norm, and the joint's position.
struct RecoveryCarry {
  Quat frame;
  Quat frameScaled;
  float frameScaled2;
  Vec3 position;
};

// The recovery of the joints from `from` on that nothing limits, up to the last bone or the
// first joint that needs the general path (a limit, two positions that coincide, a turn near
// a half-turn); returns that joint. A function of its own, in four-float lanes, with only
// the carry live from joint to joint, so that the carry stays in registers: in Eigen's
// scalar and packed mix inside recoverRotations, the position, the wanted direction and the
// frames went through the stack, a store and a reload on the serial paths of every joint.
//
// The bone's input direction carried by the parent's new frame, b = F a (chain space),
// scaled by frameScaled2 (from frameScaled, so its length is known without a square root),
// is turned by the half-way quaternion h onto the wanted direction. The new world rotation
// is h F r for the input local rotation r: F r is formed beside the serial path, so one
// quaternion product lies on it from one joint's frame to the next; the square roots and
// divisions that normalise the turn and the unit frame stay off it. The bone then lies
// along the wanted direction: the next position needs the bone's length only.
ARTICULA_IK_HOT int recoverFree(IkChainJoint* joints, Vec3* positions, std::span<const JointConstraint> constraints,
                                int from, int bones, RecoveryCarry& carry) {
  using namespace ik::simd;
  const F4 one = splat(1.0f);
  const F4 wLane = make(1.0f, 1.0f, 1.0f, 0.0f) == splat(0.0f);
  F4 frame = load4(carry.frame.coeffs().data());
  F4 frameScaled = load4(carry.frameScaled.coeffs().data());
  F4 frameScaled2 = splat(carry.frameScaled2);  // |frameScaled|² in every lane
  F4 position = load3(carry.position.data());
  int k = from;
  for (; k < bones; ++k) {
    if (!constraints.empty() && constraints[static_cast<std::size_t>(k)].isActive()) break;
    IkChainJoint& J = joints[k];
    const F4 wanted = load3(positions[k + 1].data()) - position;
    const F4 wantedLength2 = dot3(wanted, wanted);
    if (!(first(wantedLength2) > 1e-24f)) break;
    const F4 inverseLength = one / sqrt(wantedLength2);
    F4 to = wanted * inverseLength;
    // A mirroring parent frame points the bone along −F a: turn F a onto −wanted.
    if (J.parentScale < 0.0f) to = conjugate(to);
    const F4 fromScaled = rotateScaled(frameScaled, load3(J.inputBoneParent.data()), frameScaled2);
    const F4 d = dot3(fromScaled, to);
    if (first(d) < -0.9f * first(frameScaled2)) break;
    const F4 half = cross(fromScaled, to) + ((frameScaled2 + d) & wLane);
    const F4 halfNorm2 = half * half;
    const F4 inverseNorm = one / sqrt(sums(halfNorm2, halfNorm2));
    // h F r from the scaled frame, over frameScaled2^1.5 (|half| = frameScaled2 |h| and
    // |frameScaled| = frameScaled2^0.5): the world rotation scaled by the unit turn's norm,
    // within [0.44, 2] whatever the bone lengths, is the next joint's scaled frame. The unit
    // frame, normalised beside it, is not on its path.
    const F4 inputWorld = quatProduct(frameScaled, load4(J.inputRotation.coeffs().data()));
    const F4 worldScaled = quatProduct(half, inputWorld) * (one / (frameScaled2 * sqrt(frameScaled2)));
    const F4 world = worldScaled * (frameScaled2 * inverseNorm);
    store4(J.rotation.coeffs().data(), quatProduct(conjugate(frame), world));
    position = position + wanted * (splat(J.boneLength) * inverseLength);
    store3(positions[k + 1].data(), position);
    if (J.linkIsIdentity) {
      frame = world;
      frameScaled = worldScaled;
    } else {
      const F4 link = load4(J.linkRotation.coeffs().data());
      frame = quatProduct(world, link);
      frameScaled = quatProduct(worldScaled, link);
    }
    const F4 frameScaledSquares = frameScaled * frameScaled;
    frameScaled2 = sums(frameScaledSquares, frameScaledSquares);
    store4(joints[k + 1].parentRotation.coeffs().data(), frame);
  }
  store4(carry.frame.coeffs().data(), frame);
  store4(carry.frameScaled.coeffs().data(), frameScaled);
  carry.frameScaled2 = first(frameScaled2);
  store3(carry.position.data(), position);
  return k;
}

}  // namespace

ARTICULA_IK_HOT void IkChainWorkspace::recoverRotations(std::span<const JointConstraint> constraints) {
  const int bones = size() - 1;
  // The carry (RecoveryCarry), kept in registers: through memory, each joint would wait on
  // the stores of the one before it. Only a run of free joints hands it to recoverFree, so
  // that a chain limited at every joint pays no call.
  Quat frame = joints.front().parentRotation;
  Quat frameScaled = frame;
  float frameScaled2 = frame.coeffs().squaredNorm();
  Vec3 position = positions.front();
  for (int k = 0; k < bones; ++k) {
    if (constraints.empty() || !constraints[static_cast<std::size_t>(k)].isActive()) {
      RecoveryCarry carry{frame, frameScaled, frameScaled2, position};
      k = recoverFree(joints.data(), positions.data(), constraints, k, bones, carry);
      frame = carry.frame;
      frameScaled = carry.frameScaled;
      frameScaled2 = carry.frameScaled2;
      position = carry.position;
      if (k >= bones) break;
    }
    const auto i = static_cast<std::size_t>(k);
    IkChainJoint& J = joints[i];
    const Vec3 wanted = positions[i + 1] - position;
    const float wantedLength2 = wanted.squaredNorm();
    const float wantedLength = std::sqrt(wantedLength2);
    const JointConstraint* constraint = !constraints.empty() && constraints[i].isActive() ? &constraints[i] : nullptr;
    Quat world;
    bool projected = false;
    bool turned = false;
    bool alongWanted = false;  // the bone turned onto `wanted` itself, no limit in the way
    if (wantedLength2 > 1e-24f) {
      // Into the parent's space: (parentScale * parentRotation)⁻¹, direction only.
      Vec3 dirParent = frame.conjugate() * wanted;
      if (J.parentScale < 0.0f) dirParent = -dirParent;
      // Where the bone should point (parent space) and that vector's length.
      Vec3 toParent = dirParent;
      float toLength = wantedLength;
      alongWanted = constraint == nullptr;
      if (constraint != nullptr && constraint->kind() == JointConstraint::Kind::Cone) {
        // A cone limits the bone direction only: turn the input straight onto the allowed
        // direction nearest the wanted one (parent space, unit), one minimal rotation. Inside
        // a circular cone the wanted direction itself, tested without normalising it.
        const bool inside = constraint->isCircularCone() &&
                            dirParent.dot(constraint->axisParent()) >= constraint->cosHalfAngle() * wantedLength;
        if (!inside) {
          toParent = constraint->projectDirection(dirParent * (1.0f / wantedLength), J.boneAxisLocal);
          toLength = 1.0f;
        }
        projected = !constraint->hasTwistLimit();
        alongWanted = inside && projected;
      }
      // The minimal turn as the half-way quaternion (|a||b| + a·b, a × b), input bone unit;
      // fromToRotation's careful path near 180°. The turn is rebuilt from the input rotation
      // each time, and its normalisation is applied after the products (a scale commutes
      // with them), so the square root and division overlap the products.
      const float d = J.inputBoneParent.dot(toParent);
      if (d < -0.9f * toLength) {
        J.rotation = fromToRotation(J.inputBoneParent, toParent) * J.inputRotation;
      } else {
        const Vec3 c = J.inputBoneParent.cross(toParent);
        const Quat half(toLength + d, c.x(), c.y(), c.z());
        // The norm of `half` itself, not 2|b|(|b| + a·b): a frame rotation a rounding away
        // from unit then stays so instead of compounding from joint to joint.
        const float inverseNorm = 1.0f / half.coeffs().norm();
        Quat rotation = half * J.inputRotation;
        world = frame * rotation;
        rotation.coeffs() *= inverseNorm;
        world.coeffs() *= inverseNorm;
        J.rotation = rotation;
        turned = !(constraint != nullptr && !projected);
      }
    }
    if (constraint != nullptr && !projected) J.rotation = constraint->project(J.rotation, J.boneAxisLocal);
    if (!turned) world = frame * J.rotation;
    // A bone turned onto `wanted` itself ends along it: the next position then needs the
    // bone's length only, not the rotated bone, which keeps the quaternion products off the
    // serial path from one joint's position to the next (FK of the rotations would give the
    // same point within float rounding).
    position +=
        alongWanted ? Vec3(wanted * (J.boneLength / wantedLength)) : Vec3(J.parentScale * (world * J.boneLocal));
    positions[i + 1] = position;
    frame = J.linkIsIdentity ? world : Quat(world * J.linkRotation);
    // Unit within float rounding, as every frame this path builds.
    frameScaled = frame;
    frameScaled2 = 1.0f;
    joints[i + 1].parentRotation = frame;
  }
}

ARTICULA_IK_HOT void IkChainWorkspace::store(const IkChain& chain, std::span<Transform> pose,
                                             bool writeRootTranslation) {
  for (int k = 0; k + 1 < size(); ++k) {
    const auto i = static_cast<std::size_t>(k);
    const IkChainJoint& J = joints[i];
    mStoredRotations[i] = alignHemisphere(J.rotation.normalized(), J.inputRotation);
    pose[static_cast<std::size_t>(chain.joint(k))].rotation = mStoredRotations[i];
  }
  mStoredValid = true;
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
