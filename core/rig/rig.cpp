#include "core/rig/rig.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <unordered_set>

#include "core/ik/ccd_ik.h"
#include "core/ik/fabrik_ik.h"
#include "core/ik/two_bone_ik.h"
#include "core/math/quaternion.h"

namespace articula {

namespace {

// Solve stage of a role: spine, legs, arms, generic.
int stageOf(HandleRole role) {
  switch (role) {
    case HandleRole::Spine:
      return 0;
    case HandleRole::LeftLeg:
    case HandleRole::RightLeg:
      return 1;
    case HandleRole::LeftArm:
    case HandleRole::RightArm:
      return 2;
    case HandleRole::Generic:
      break;
  }
  return 3;
}

bool isTwoBone(IkSolverKind kind) { return kind == IkSolverKind::TwoBone || kind == IkSolverKind::TwoBoneTrigFree; }

// The JacobianIkJob method of a Jacobian solver kind, nullopt for the other kinds.
std::optional<JacobianIkJob::Method> jacobianMethod(IkSolverKind kind) {
  switch (kind) {
    case IkSolverKind::JacobianTranspose:
      return JacobianIkJob::Method::Transpose;
    case IkSolverKind::JacobianPseudoInverse:
      return JacobianIkJob::Method::PseudoInverse;
    case IkSolverKind::DampedLeastSquares:
      return JacobianIkJob::Method::DampedLeastSquares;
    case IkSolverKind::SelectivelyDampedLeastSquares:
      return JacobianIkJob::Method::SelectivelyDamped;
    case IkSolverKind::TwoBone:
    case IkSolverKind::TwoBoneTrigFree:
    case IkSolverKind::Ccd:
    case IkSolverKind::Fabrik:
      break;
  }
  return std::nullopt;
}

const Curve* findCurve(const Clip* clip, const std::string& name) {
  if (clip == nullptr) return nullptr;
  const auto it = clip->curves.find(name);
  return it == clip->curves.end() || it->second.empty() ? nullptr : &it->second;
}

// A handle's curve channels, in RigCurves' order: weight, enabled, target, pole, orientation.
constexpr std::size_t kWeightCurve = 0;
constexpr std::size_t kEnabledCurve = 1;
constexpr std::size_t kTargetCurves = 2;       // x, y, z
constexpr std::size_t kPoleCurves = 5;         // x, y, z
constexpr std::size_t kOrientationCurves = 8;  // w, x, y, z
constexpr std::size_t kRollCurve = 12;
constexpr std::array<const char*, Rig::kHandleCurves> kHandleCurveChannels = {
    "weight", "enabled", "target.x",      "target.y",      "target.z",      "pole.x",       "pole.y",
    "pole.z", "orientation.w", "orientation.x", "orientation.y", "orientation.z", "roll"};

// Foot roll beyond this turns about the toe tip (Maya's toe break).
constexpr float kToeBreakRad = 40.0f * kPi / 180.0f;

Eigen::Index axis(std::size_t c) { return static_cast<Eigen::Index>(c); }

// A curve's value at a time, or `fallback` without the curve.
float valueOr(const Curve* curve, double timeSeconds, float fallback) {
  return curve != nullptr ? static_cast<float>(curve->evaluate(timeSeconds)) : fallback;
}

// Orthonormal frame with x along a and y towards b (any y when they are parallel).
Mat3 frameOf(const Vec3& a, const Vec3& b) {
  Mat3 f;
  const Vec3 x = a.normalized();
  Vec3 y = b - x * x.dot(b);
  const float yNorm = y.norm();
  y = yNorm > 1e-6f * b.norm() && yNorm > 0.0f ? Vec3(y / yNorm) : Vec3(x.unitOrthogonal());
  f.col(0) = x;
  f.col(1) = y;
  f.col(2) = x.cross(y);
  return f;
}

// The local rotation q of a joint whose parent frame maps into model space by
// parentLinear, such that the joint's rotation-space direction aRot points along aModel
// exactly and bRot as close as it can to bModel (both model-space directions). Mirrors in
// the parent keep a and b and flip the third axis, as they must.
Quat alignLocal(const Mat3& parentLinear, const Vec3& aRot, const Vec3& aModel, const Vec3& bRot, const Vec3& bModel) {
  const Mat3 toParent = parentLinear.inverse();
  const Mat3 from = frameOf(aRot, bRot);
  const Mat3 to = frameOf(toParent * aModel, toParent * bModel);
  return Quat(Mat3(to * from.transpose())).normalized();
}

std::string handleError(const RigDefinition& def, const IkHandle& h, const std::string& what) {
  std::string m = "rig '";
  m.append(def.name).append("': handle '").append(h.name).append("': ").append(what);
  return m;
}

std::string rigError(const RigDefinition& def, const std::string& what) {
  std::string m = "rig '";
  m.append(def.name).append("': ").append(what);
  return m;
}

// A chain whose tip is this far from its root, as a fraction of its length, is nearly
// straight (FABRIK's slow case).
constexpr float kStraightFraction = 0.98f;

bool finiteIn(float v, float lo, float hi) { return std::isfinite(v) && v >= lo && v <= hi; }

// How far the pelvis must go down along `up` (unit) to bring the hip within `reach` of the
// target (model space): |v − δ·up| = reach with v = hip − target, the smaller root; 0 when
// it already is.
// Without a stride curve, how much a foot's sole lies on the ground when its ankle is `lift`
// above the sole's height (model units): flat up to 10 % of the leg's length, as animated
// from 20 %, smooth between. Only the sole turns by it (about the ankle, which keeps its
// height, so a pose solved again finds the same value); the ankle itself is never pulled
// down without a stride curve (see groundFeet).
float plantedByHeight(float lift, float legLength) {
  const float u = std::clamp((lift - 0.1f * legLength) / (0.1f * legLength), 0.0f, 1.0f);
  return 1.0f - u * u * (3.0f - 2.0f * u);
}

// How far a foot `planted` (stride value, [0, 1]) may stay from its planted state, in units
// of `scale`: nothing when planted, unbounded when free, scale·(1 − p)/p between. The
// grounding moves a foot only by what exceeds it, so a foot already within it (a pose the rig
// solved, keyed and solved again) is left exactly where it is; a blend would move it again
// on every solve.
float plantedCap(float planted, float scale) {
  if (planted >= 1.0f) return 0.0f;
  if (!(planted > 0.0f)) return std::numeric_limits<float>::infinity();
  return scale * (1.0f - planted) / planted;
}

// The fraction of `amount` beyond `cap`, [0, 1).
float beyondCap(float amount, float cap) { return amount > cap ? (amount - cap) / amount : 0.0f; }

// Height a half-planted foot's ankle may keep over its planted place, and the angle its sole
// may keep off the ground, per unit of plantedCap: a tenth of the leg, and 30°.
constexpr float kAnkleCapLegFraction = 0.1f;
constexpr float kSoleCapRad = kPi / 6.0f;

float dropToReach(const Vec3& hip, const Vec3& target, const Vec3& up, float reach) {
  const Vec3 v = hip - target;
  if (!(v.squaredNorm() > reach * reach)) return 0.0f;
  const float along = v.dot(up);
  const float across2 = std::max(0.0f, v.squaredNorm() - along * along);
  return across2 < reach * reach ? along - std::sqrt(reach * reach - across2) : along;
}

// A handle's values that need no skeleton: pole, target, orientation, weight, soften,
// tolerance, iterations, limits.
std::optional<std::string> checkHandleValues(const IkHandle& h, int jointCount) {
  if (!h.limits.empty() && h.limits.size() != h.chain.size())
    return "limits must be empty or one per chain joint (" + std::to_string(h.chain.size()) + "), got " +
           std::to_string(h.limits.size());
  for (std::size_t k = 0; k < h.limits.size(); ++k) {
    if (auto e = h.limits[k].validate()) return "limit of chain joint " + std::to_string(k) + ": " + *e;
  }
  if (h.pole.space == IkPole::Space::Joint && (h.pole.joint < 0 || h.pole.joint >= jointCount))
    return "the pole joint " + std::to_string(h.pole.joint) + " is not in the skeleton";
  if (!h.pole.position.allFinite()) return std::string("the pole position is not finite");
  if (!h.targetModel.allFinite()) return std::string("the target is not finite");
  if (!h.orientationModel.coeffs().allFinite() || h.orientationModel.coeffs().squaredNorm() < 1e-12f)
    return std::string("the orientation target is not a finite non-zero quaternion");
  if (!finiteIn(h.weight, 0.0f, 1.0f)) return std::string("the weight is not in [0, 1]");
  if (!finiteIn(h.soften, 0.0f, 1.0f)) return std::string("soften is not in [0, 1]");
  if (!(h.toleranceModel >= 0.0f) || !std::isfinite(h.toleranceModel))
    return std::string("the tolerance is negative or not finite");
  if (h.maxIterations < 1) return std::string("iterations must be at least 1");
  return std::nullopt;
}

// The tip's bone axis (for its limit), in the tip's rotation space: towards its first child,
// else continuing the incoming bone.
Vec3 tipBoneAxisLocal(const Skeleton& skeleton, int tip) {
  const Transform& tipRest = skeleton.restLocal(tip);
  Vec3 axis = Vec3::Zero();
  const auto kids = skeleton.children(tip);
  if (!kids.empty()) axis = tipRest.scale.cwiseProduct(skeleton.restLocal(kids.front()).translation);
  if (!(axis.squaredNorm() > 0.0f)) axis = tipRest.rotation.conjugate() * tipRest.translation;
  return axis.squaredNorm() > 0.0f ? Vec3(axis.normalized()) : Vec3::UnitX();
}

}  // namespace

Result<Rig> Rig::bind(const Skeleton& skeleton, RigDefinition definition) {
  Rig rig;
  rig.mSkeleton = skeleton;
  std::unordered_set<std::string> names;
  for (const IkHandle& h : definition.handles) {
    if (auto e = validateHandleName(h.name)) return makeError(rigError(definition, *e));
    if (!names.insert(h.name).second)
      return makeError(handleError(definition, h, "the name is used by another handle"));
    auto bound = bindHandle(skeleton, h);
    if (!bound) return makeError(handleError(definition, h, bound.error()));
    rig.mBound.push_back(std::move(*bound));
  }
  const int handleCount = static_cast<int>(definition.handles.size());
  for (int i = 0; i < handleCount; ++i) rig.mOrder.push_back(i);
  std::stable_sort(rig.mOrder.begin(), rig.mOrder.end(), [&](int a, int b) {
    return stageOf(definition.handles[static_cast<std::size_t>(a)].role) <
           stageOf(definition.handles[static_cast<std::size_t>(b)].role);
  });
  // The grounding is checked whether or not it is enabled, so setGroundingEnabled() can turn
  // a valid one on later; it is an error only when enabled.
  const std::optional<std::string> groundingError = rig.bindGrounding(definition);
  if (definition.grounding.enabled && groundingError) return makeError(rigError(definition, *groundingError));
  rig.mGroundingReady = !groundingError;
  if (rig.mGroundingReady) rig.mPelvisSubtree = skeleton.subtree(definition.grounding.pelvis);
  rig.mDefinition = std::move(definition);
  rig.mReports.resize(static_cast<std::size_t>(handleCount));
  rig.mFrameCurves.curves.resize(static_cast<std::size_t>(handleCount) * kHandleCurves + 2);
  rig.mModel.assign(static_cast<std::size_t>(skeleton.jointCount()), Affine::Identity());
  return rig;
}

Result<Rig::BoundHandle> Rig::bindHandle(const Skeleton& skeleton, const IkHandle& h) {
  if (!isSolverAvailable(h.solver)) {
    std::string what = "solver '";
    what.append(solverKindName(h.solver)).append("' is not available");
    return makeError(what);
  }
  auto chain = IkChain::build(skeleton, h.chain);
  if (!chain) return makeError(chain.error());
  if (isTwoBone(h.solver) && h.chain.size() != 3)
    return makeError("a two-bone solver needs a chain of 3 joints, got " + std::to_string(h.chain.size()));
  if (auto e = checkHandleValues(h, skeleton.jointCount())) return makeError(*e);
  BoundHandle b;
  b.chain = std::move(*chain);
  b.workspace.resize(b.chain);
  b.fkSubtree = skeleton.subtree(b.chain.root());
  for (const JointLimit& l : h.limits) b.constraints.push_back(l.toConstraint());
  if (!h.limits.empty()) {
    b.tipConstraint = b.constraints.back();
    b.tipLimited = b.tipConstraint.isActive();
  }
  b.tipBoneAxisLocal = tipBoneAxisLocal(skeleton, b.chain.tip());
  if (jacobianMethod(h.solver)) {
    if (auto e = bindTrees(skeleton, h, b)) return makeError(*e);
  }
  b.hingeSeed = h.solver == IkSolverKind::Ccd && h.chain.size() == 3 && h.limits.size() == 3 &&
                h.limits[1].kind == JointLimit::Kind::Hinge;
  b.startRotations.resize(h.chain.size());
  for (const int follower : h.followers) {
    // Inside the chain's sub-tree a joint is carried by FK already (and would be moved twice).
    if (follower < 0 || follower >= skeleton.jointCount() ||
        std::find(b.fkSubtree.begin(), b.fkSubtree.end(), follower) != b.fkSubtree.end())
      return makeError("follower joint " + std::to_string(follower) +
                       " is not a joint of the skeleton outside the chain's sub-tree");
    b.followerSubtrees.push_back(skeleton.subtree(follower));
  }
  b.followersOnTip.resize(h.followers.size(), Affine::Identity());
  for (std::size_t c = 0; c < kHandleCurves; ++c) b.curveNames[c] = handleCurveName(h.name, kHandleCurveChannels[c]);
  return b;
}

std::optional<std::string> Rig::bindTrees(const Skeleton& skeleton, const IkHandle& h, BoundHandle& b) {
  for (std::size_t t = 0; t < 2; ++t) {
    const IkTreeEffector effector{b.chain.tip(), t == 1};
    auto tree = IkTree::build(skeleton, b.chain.root(), std::span<const IkTreeEffector>(&effector, 1));
    if (!tree) return tree.error();
    b.trees[t] = std::move(*tree);
    b.treeWorkspaces[t].resize(b.trees[t]);
  }
  // Tree nodes are the chain's path (joints between chain joints included, solved but free);
  // the tip's limit is applied by solveHandle with the tip's own bone axis.
  if (h.limits.empty()) return std::nullopt;
  const IkTree& tree = b.trees[0];
  b.treeConstraints.assign(static_cast<std::size_t>(tree.nodeCount()), JointConstraint::free());
  for (int node = 0; node < tree.nodeCount(); ++node) {
    for (int k = 0; k + 1 < b.chain.size(); ++k) {
      if (b.chain.joint(k) == tree.joint(node))
        b.treeConstraints[static_cast<std::size_t>(node)] = b.constraints[static_cast<std::size_t>(k)];
    }
  }
  return std::nullopt;
}

std::optional<std::string> Rig::bindGrounding(const RigDefinition& definition) {
  const GroundingSetup& g = definition.grounding;
  const int jointCount = mSkeleton.jointCount();
  // One foot per leg handle.
  for (std::size_t s = 0; s < 2; ++s) {
    const HandleRole role = s == 0 ? HandleRole::LeftLeg : HandleRole::RightLeg;
    const auto& handles = definition.handles;
    const auto leg = std::find_if(handles.begin(), handles.end(),
                                  [&](const IkHandle& h) { return h.role == role && h.chain.size() == 3; });
    if (leg != handles.end()) mFeet[s].handle = static_cast<int>(leg - handles.begin());
  }
  const bool upOk = g.upModel.allFinite() && g.upModel.squaredNorm() > 0.0f;
  std::optional<std::string> error;
  if (g.pelvis < 0 || g.pelvis >= jointCount) {
    error = "grounding: no pelvis joint";
  } else if (!upOk) {
    error = "grounding: the up vector is zero or not finite";
  } else if (!(g.maxReach > 0.0f && g.maxReach <= 1.0f)) {
    error = "grounding: maxReach is not in (0, 1]";
  } else if (mFeet[0].handle < 0 && mFeet[1].handle < 0) {
    error = "grounding: no leg handle (role left_leg or right_leg, 3 joints)";
  }
  const std::vector<Affine> rest = localToModel(mSkeleton, mSkeleton.restPose());
  const Vec3 up = upOk ? Vec3(g.upModel.normalized()) : Vec3::UnitY();
  Vec3 left = Vec3::UnitX();
  if (mFeet[0].handle >= 0 && mFeet[1].handle >= 0) {
    const auto hip = [&](int handle) {
      return Vec3(
          rest[static_cast<std::size_t>(definition.handles[static_cast<std::size_t>(handle)].chain[0])].translation());
    };
    left = hip(mFeet[0].handle) - hip(mFeet[1].handle);
  }
  Vec3 forward = left.cross(up);
  forward = forward.squaredNorm() > 0.0f ? Vec3(forward.normalized()) : Vec3(up.unitOrthogonal());
  for (std::size_t s = 0; s < 2; ++s) {
    if (mFeet[s].handle < 0) continue;
    const IkHandle& h = definition.handles[static_cast<std::size_t>(mFeet[s].handle)];
    auto footError = bindFoot(mFeet[s], h, s == 0 ? g.left : g.right, rest, up, forward);
    if (footError && !error) error = (s == 0 ? "grounding: left foot: " : "grounding: right foot: ") + *footError;
  }
  return error;
}

std::optional<std::string> Rig::bindFoot(BoundFoot& foot, const IkHandle& leg, const FootGrounding& fg,
                                         std::span<const Affine> rest, const Vec3& up, const Vec3& forward) {
  const Skeleton& skeleton = mSkeleton;
  const auto restPos = [&](int j) { return Vec3(rest[static_cast<std::size_t>(j)].translation()); };
  std::optional<std::string> error;
  foot.thigh = leg.chain[0];
  foot.knee = leg.chain[1];
  foot.ankle = leg.chain[2];
  foot.toe = fg.toe;
  if (fg.toe >= 0 &&
      (fg.toe >= skeleton.jointCount() || fg.toe == foot.ankle || !skeleton.isAncestorOrSelf(foot.ankle, fg.toe))) {
    error = "the toe joint is not below the ankle";
    foot.toe = -1;
  }
  if (foot.toe >= 0) foot.toeSubtree = skeleton.subtree(foot.toe);
  if (!finiteIn(fg.ankleHeight, 0.0f, 1e30f) && !error) error = "the ankle height is negative or not finite";
  foot.legLength =
      (restPos(foot.knee) - restPos(foot.thigh)).norm() + (restPos(foot.ankle) - restPos(foot.knee)).norm();
  // Rest directions of the sole in the ankle's rotation space.
  const int ankleParent = skeleton.parent(foot.ankle);
  const Mat3 parentLinear =
      ankleParent == kNoParent ? Mat3(Mat3::Identity()) : Mat3(rest[static_cast<std::size_t>(ankleParent)].linear());
  const Mat3 toRotation =
      skeleton.restLocal(foot.ankle).rotation.conjugate().toRotationMatrix() * parentLinear.inverse();
  Vec3 soleForward = forward;
  if (foot.toe >= 0) {
    const Vec3 d = restPos(foot.toe) - restPos(foot.ankle);
    const Vec3 along = d - up * up.dot(d);
    foot.soleLength = along.norm();
    if (foot.soleLength > 1e-3f * foot.legLength) soleForward = along / foot.soleLength;
    const auto toeKids = skeleton.children(foot.toe);
    if (!toeKids.empty()) {
      foot.toeTip = toeKids.front();
      const Vec3 bone = restPos(foot.toeTip) - restPos(foot.toe);
      if (bone.squaredNorm() > 0.0f)
        foot.toeElevationRad = std::asin(std::clamp(up.dot(bone.normalized()), -1.0f, 1.0f));
      else
        foot.toeTip = -1;
    }
  }
  foot.soleForwardAnkle = (toRotation * soleForward).normalized();
  foot.soleUpAnkle = (toRotation * up).normalized();
  return error;
}

int Rig::findHandle(std::string_view name) const {
  for (int i = 0; i < handleCount(); ++i) {
    if (mDefinition.handles[static_cast<std::size_t>(i)].name == name) return i;
  }
  return -1;
}

void Rig::setTarget(int index, const Vec3& targetModel) {
  if (index < 0 || index >= handleCount() || !targetModel.allFinite()) return;
  IkHandle& h = mDefinition.handles[static_cast<std::size_t>(index)];
  h.targetSource = TargetSource::Handle;
  h.targetModel = targetModel;
}

void Rig::setOrientationTarget(int index, const Quat& orientationModel) {
  if (index < 0 || index >= handleCount() || !orientationModel.coeffs().allFinite() ||
      orientationModel.coeffs().squaredNorm() < 1e-12f)
    return;
  IkHandle& h = mDefinition.handles[static_cast<std::size_t>(index)];
  h.orientation = OrientationMode::Target;
  h.orientationModel = orientationModel.normalized();
}

void Rig::setPolePosition(int index, const Vec3& position) {
  if (index < 0 || index >= handleCount() || !position.allFinite()) return;
  mDefinition.handles[static_cast<std::size_t>(index)].pole.position = position;
  mBound[static_cast<std::size_t>(index)].poleSetByHand = true;
}

void Rig::setRoll(int index, float rollRad) {
  if (index < 0 || index >= handleCount() || !std::isfinite(rollRad)) return;
  mDefinition.handles[static_cast<std::size_t>(index)].rollRad = rollRad;
}

void Rig::setWeight(int index, float weight) {
  if (index < 0 || index >= handleCount() || std::isnan(weight)) return;
  mDefinition.handles[static_cast<std::size_t>(index)].weight = std::clamp(weight, 0.0f, 1.0f);
}

void Rig::setEnabled(int index, bool enabled) {
  if (index < 0 || index >= handleCount()) return;
  mDefinition.handles[static_cast<std::size_t>(index)].enabled = enabled;
}

void Rig::setWorldFromModel(const Affine& worldFromModel) {
  const Mat3 linear = worldFromModel.linear();
  const float maxEntry = linear.cwiseAbs().maxCoeff();
  if (!worldFromModel.matrix().allFinite() ||
      !(std::abs(linear.determinant()) > 1e-12f * maxEntry * maxEntry * maxEntry))
    return;
  mWorldFromModel = worldFromModel;
}

void Rig::updateModel(std::span<const Transform> pose, std::span<const int> subtree) {
  LocalToModelJob fk;
  fk.skeleton = &mSkeleton;
  fk.local = pose;
  fk.model = mModel;
  fk.subtree = subtree;
  fk.run();
}

bool Rig::solve(std::span<Transform> pose, double timeSeconds, const Clip* clip) {
  findCurves(clip, mFrameCurves);
  return solve(pose, timeSeconds, mFrameCurves);
}

bool Rig::solve(std::span<Transform> pose, double timeSeconds, const RigCurves& curves) {
  const auto jointCount = static_cast<std::size_t>(mSkeleton.jointCount());
  if (jointCount == 0 || pose.size() < jointCount) return false;
  for (std::size_t j = 0; j < jointCount; ++j) {
    if (!pose[j].isFinite()) return false;
  }
  updateModel(pose, {});
  if (curves.curves.size() != mBound.size() * kHandleCurves + 2) return false;
  // Followers keep their place on the tip as the incoming pose has it, before grounding
  // lowers the pelvis (which carries the tip, not a bone beside the leg).
  for (int i = 0; i < handleCount(); ++i) {
    const IkHandle& h = mDefinition.handles[static_cast<std::size_t>(i)];
    BoundHandle& b = mBound[static_cast<std::size_t>(i)];
    const Affine tipInverse = mModel[static_cast<std::size_t>(b.chain.tip())].inverse();
    for (std::size_t f = 0; f < h.followers.size(); ++f)
      b.followersOnTip[f] = tipInverse * mModel[static_cast<std::size_t>(h.followers[f])];
  }
  for (int i = 0; i < handleCount(); ++i) resolveInputs(i, curves, timeSeconds, false);
  for (BoundFoot& foot : mFeet) {
    foot.grounded = false;
    foot.report = FootReport{};
  }
  if (mDefinition.grounding.enabled && mGround)
    groundFeet(pose, curves, timeSeconds);
  else if (mLowerPelvisToTargets && mGroundingReady)
    lowerPelvisToTargets(pose, curves, timeSeconds);
  for (const int i : mOrder) solveHandle(i, pose);
  return true;
}

void Rig::findCurves(const Clip* clip, RigCurves& curves) const {
  curves.curves.resize(mBound.size() * kHandleCurves + 2);
  for (std::size_t i = 0; i < mBound.size(); ++i) {
    for (std::size_t c = 0; c < kHandleCurves; ++c)
      curves.curves[i * kHandleCurves + c] = findCurve(clip, mBound[i].curveNames[c]);
  }
  const GroundingSetup& g = mDefinition.grounding;
  curves.curves[mBound.size() * kHandleCurves] = findCurve(clip, g.left.contactCurve);
  curves.curves[mBound.size() * kHandleCurves + 1] = findCurve(clip, g.right.contactCurve);
}

void Rig::resolveInputs(int index, const RigCurves& curves, double timeSeconds, bool keepTarget) {
  const IkHandle& h = mDefinition.handles[static_cast<std::size_t>(index)];
  BoundHandle& b = mBound[static_cast<std::size_t>(index)];
  const Curve* const* curve = &curves.curves[static_cast<std::size_t>(index) * kHandleCurves];
  const bool enabled = curve[kEnabledCurve] != nullptr ? curve[kEnabledCurve]->evaluate(timeSeconds) > 0.5 : h.enabled;
  const float weight = valueOr(curve[kWeightCurve], timeSeconds, h.weight);
  b.weight = std::isfinite(weight) ? std::clamp(weight, 0.0f, 1.0f) : 0.0f;
  b.active = enabled && b.weight > 0.0f;
  const float roll = valueOr(curve[kRollCurve], timeSeconds, h.rollRad);
  b.rollRad = std::isfinite(roll) ? roll : 0.0f;
  const auto tip = static_cast<std::size_t>(b.chain.tip());
  if (!keepTarget) {
    const Vec3 target = h.targetSource == TargetSource::InputPose ? Vec3(mModel[tip].translation()) : h.targetModel;
    b.targetPlaced = h.targetSource == TargetSource::Handle;
    for (std::size_t c = 0; c < 3; ++c) {
      b.targetModel(axis(c)) = valueOr(curve[kTargetCurves + c], timeSeconds, target(axis(c)));
      b.targetPlaced = b.targetPlaced || curve[kTargetCurves + c] != nullptr;
    }
  }
  Vec3 pole;
  b.polePlaced = b.poleSetByHand || h.pole.space == IkPole::Space::Model;
  for (std::size_t c = 0; c < 3; ++c) {
    pole(axis(c)) = valueOr(curve[kPoleCurves + c], timeSeconds, h.pole.position(axis(c)));
    b.polePlaced = b.polePlaced || curve[kPoleCurves + c] != nullptr;
  }
  b.hasPole = h.pole.space != IkPole::Space::None;
  b.poleModel =
      h.pole.space == IkPole::Space::Joint ? Vec3(mModel[static_cast<std::size_t>(h.pole.joint)] * pole) : pole;
  resolveOrientation(h, b, curve + kOrientationCurves, timeSeconds);
}

void Rig::resolveOrientation(const IkHandle& h, BoundHandle& b, const Curve* const* curve, double timeSeconds) {
  b.orientation = h.orientation;
  // Curves in w, x, y, z order; Eigen's coefficients are x, y, z, w.
  Quat q = h.orientationModel;
  const bool fromCurves = std::any_of(curve, curve + 4, [](const Curve* c) { return c != nullptr; });
  q.w() = valueOr(curve[0], timeSeconds, q.w());
  for (std::size_t c = 0; c < 3; ++c) q.vec()(axis(c)) = valueOr(curve[1 + c], timeSeconds, q.vec()(axis(c)));
  if (fromCurves && q.coeffs().allFinite() && q.coeffs().squaredNorm() > 1e-12f)
    b.orientation = OrientationMode::Target;
  const auto tip = static_cast<std::size_t>(b.chain.tip());
  if (b.orientation == OrientationMode::KeepPose) {
    b.tipXModel = mModel[tip].linear().col(0);
    b.tipYModel = mModel[tip].linear().col(1);
  } else if (b.orientation == OrientationMode::Target) {
    const Mat3 r = (fromCurves ? q : h.orientationModel).normalized().toRotationMatrix();
    b.tipXModel = r.col(0);
    b.tipYModel = r.col(1);
  }
}

void Rig::groundFeet(std::span<Transform> pose, const RigCurves& curves, double timeSeconds) {
  const GroundingSetup& g = mDefinition.grounding;
  const Ground& ground = *mGround;
  const Vec3 up = g.upModel.normalized();
  const Mat3 worldLinear = mWorldFromModel.linear();
  // Normals go from world to model space by the transpose of the linear part (the inverse
  // transpose of model-from-world).
  const Mat3 normalToModel = worldLinear.transpose();
  auto model = [&](int j) { return Vec3(mModel[static_cast<std::size_t>(j)].translation()); };
  auto toModelNormal = [&](const Vec3& normalWorld) {
    Vec3 n = (normalToModel * normalWorld).normalized();
    return n.dot(up) < 0.0f ? Vec3(-n) : n;
  };
  float drop = 0.0f;
  for (std::size_t s = 0; s < 2; ++s) {
    BoundFoot& foot = mFeet[s];
    if (foot.handle < 0) continue;
    BoundHandle& b = mBound[static_cast<std::size_t>(foot.handle)];
    if (!b.active) continue;
    const FootGrounding& fg = s == 0 ? g.left : g.right;
    const Curve* stride = curves.curves[mBound.size() * kHandleCurves + s];

    const Vec3 hip = model(foot.thigh);
    const Vec3 animated = b.targetModel;
    const Vec3 start = hip + up * foot.legLength;
    // Aimed at the sole below the ankle, not the ankle: a foot standing on the ground finds
    // itself there, so a planted pose solved again (Key Pose) is not pushed along the ray.
    const Vec3 dir = animated - up * fg.ankleHeight - start;
    const float length = dir.norm();
    if (!(length > 1e-6f * foot.legLength)) continue;
    const auto hit = ground.raycast(mWorldFromModel * start, worldLinear * dir, (length + foot.legLength) / length);
    if (!hit) continue;
    const Vec3 hitModel = start + hit->rayParameter * dir;
    const Vec3 n = toModelNormal(hit->normalWorld);

    // Planted: on the surface, the sole's height above it. Free: as animated, but never
    // through the surface.
    const Vec3 plantedAnkle = hitModel + n * fg.ankleHeight;
    Vec3 free = animated;
    const float above = (animated - hitModel).dot(n);
    if (above < fg.ankleHeight) free += n * (fg.ankleHeight - above);
    float planted =
        stride ? valueOr(stride, timeSeconds, 1.0f) : plantedByHeight(above - fg.ankleHeight, foot.legLength);
    planted = std::isfinite(planted) && !b.targetPlaced ? std::clamp(planted, 0.0f, 1.0f) : 0.0f;
    // Down the ray towards the planted ankle by what the ankle is above the cap, where a
    // stride curve plants the foot. Without one the ground only holds the foot up, as
    // HumanIK's floor contact does: a pull decided by the foot's own height would change that
    // height, and the pose solved again would be pulled again (64 mm on the robot's Walking).
    const float pulled = stride ? planted : 0.0f;
    const float lift = (free - plantedAnkle).dot(n);
    const Vec3 target =
        free + (plantedAnkle - free) * beyondCap(lift, plantedCap(pulled, kAnkleCapLegFraction * foot.legLength));

    // The sole lies along the ground between the ankle's hit and the toe's hit ahead.
    Vec3 forward = Vec3::Zero();
    Vec3 toeNormal = n;
    if (foot.toe >= 0) {
      const Vec3 toePoint = model(foot.toe) + (animated - model(foot.ankle));
      const Vec3 dirToe = toePoint - start;
      const float lengthToe = dirToe.norm();
      if (lengthToe > 1e-6f * foot.legLength) {
        const auto hitToe = ground.raycast(mWorldFromModel * start, worldLinear * dirToe,
                                           (lengthToe + 1.5f * foot.legLength) / lengthToe);
        if (hitToe) {
          forward = start + hitToe->rayParameter * dirToe - hitModel;
          toeNormal = toModelNormal(hitToe->normalWorld);
        }
      }
    }
    if (!(forward.norm() > 0.25f * foot.soleLength) || foot.soleLength <= 0.0f) {
      // No toe, or its hit too close: the animated foot's forward, laid on the surface.
      const int parent = mSkeleton.parent(foot.ankle);
      const Mat3 parentLinear =
          parent == kNoParent ? Mat3(Mat3::Identity()) : Mat3(mModel[static_cast<std::size_t>(parent)].linear());
      forward = parentLinear * (pose[static_cast<std::size_t>(foot.ankle)].rotation * foot.soleForwardAnkle);
      forward -= n * n.dot(forward);
      toeNormal = n;
    }
    if (!(forward.squaredNorm() > 0.0f)) forward = n.unitOrthogonal();

    b.targetModel = target;
    foot.grounded = true;
    foot.planted = planted;
    foot.forwardModel = forward.normalized();
    foot.normalModel = n;
    foot.toeNormalModel = toeNormal;
    foot.report = {true, planted, target, n};

    drop = std::max(drop, dropToReach(hip, target, up, g.maxReach * foot.legLength) * b.weight);
  }
  lowerPelvis(pose, curves, timeSeconds, drop);
}

void Rig::lowerPelvisToTargets(std::span<Transform> pose, const RigCurves& curves, double timeSeconds) {
  const GroundingSetup& g = mDefinition.grounding;
  const Vec3 up = g.upModel.normalized();
  float drop = 0.0f;
  for (const BoundFoot& foot : mFeet) {
    if (foot.handle < 0) continue;
    const BoundHandle& b = mBound[static_cast<std::size_t>(foot.handle)];
    if (!b.active) continue;
    const Vec3 hip = mModel[static_cast<std::size_t>(foot.thigh)].translation();
    drop = std::max(drop, dropToReach(hip, b.targetModel, up, g.maxReach * foot.legLength) * b.weight);
  }
  lowerPelvis(pose, curves, timeSeconds, drop);
}

void Rig::lowerPelvis(std::span<Transform> pose, const RigCurves& curves, double timeSeconds, float drop) {
  if (!(drop > 0.0f)) return;
  const GroundingSetup& g = mDefinition.grounding;
  const Vec3 up = g.upModel.normalized();
  const int parent = mSkeleton.parent(g.pelvis);
  const Mat3 parentLinear =
      parent == kNoParent ? Mat3(Mat3::Identity()) : Mat3(mModel[static_cast<std::size_t>(parent)].linear());
  pose[static_cast<std::size_t>(g.pelvis)].translation -= parentLinear.inverse() * (up * drop);
  updateModel(pose, mPelvisSubtree);
  for (int i = 0; i < handleCount(); ++i) {
    const bool grounded = (mFeet[0].grounded && mFeet[0].handle == i) || (mFeet[1].grounded && mFeet[1].handle == i);
    // Targets from the input pose follow the lowered pelvis; grounded and curve-driven ones stay.
    resolveInputs(i, curves, timeSeconds, grounded);
  }
}

void Rig::solveHandle(int index, std::span<Transform> pose) {
  const IkHandle& h = mDefinition.handles[static_cast<std::size_t>(index)];
  BoundHandle& b = mBound[static_cast<std::size_t>(index)];
  HandleReport& report = mReports[static_cast<std::size_t>(index)];
  report = HandleReport{};
  report.weight = b.weight;
  report.targetModel = b.targetModel;
  report.orientationModel = aimedOrientation(b);
  if (!b.active) return;
  const IkChain& chain = b.chain;
  for (int k = 0; k < chain.size(); ++k)
    b.startRotations[static_cast<std::size_t>(k)] = pose[static_cast<std::size_t>(chain.joint(k))].rotation;

  // Seeds only when there is work: a tip already on its target (a target following the
  // incoming pose) must leave the chain as it is, limits or not.
  const bool needsWork =
      (Vec3(mModel[static_cast<std::size_t>(chain.tip())].translation()) - b.targetModel).norm() > h.toleranceModel;
  IkReport ik;
  if (!runSolver(h, b, pose, needsWork, ik)) {
    // A seed may have turned joints before the solver refused the pose.
    for (int k = 0; k < chain.size(); ++k)
      pose[static_cast<std::size_t>(chain.joint(k))].rotation = b.startRotations[static_cast<std::size_t>(k)];
    updateModel(pose, b.fkSubtree);
    return;
  }
  if (b.orientation == OrientationMode::Free) {
    b.chain.updateModel(pose, chainFrame(b), mModel);
    report.orientationModel = aimedOrientation(b);
  }
  BoundFoot* foot = nullptr;
  for (BoundFoot& f : mFeet) {
    if (f.handle == index && f.grounded) foot = &f;
  }
  // With the tip already on target the chain did not move: a kept or free orientation is
  // what it was, and the tip's limit is not imposed on a pose nobody asked to change.
  if (foot != nullptr || b.orientation == OrientationMode::Target ||
      (needsWork && (b.orientation != OrientationMode::Free || b.tipLimited)))
    orientTip(b, foot, pose);
  if (b.weight < 1.0f) {
    for (int k = 0; k < chain.size(); ++k) {
      Quat& r = pose[static_cast<std::size_t>(chain.joint(k))].rotation;
      r = b.startRotations[static_cast<std::size_t>(k)].slerp(b.weight, r).normalized();
    }
  }
  updateModel(pose, b.fkSubtree);
  if (foot != nullptr) alignToe(*foot, pose, b.weight);
  if (b.rollRad != 0.0f) {
    for (const BoundFoot& f : mFeet) {
      if (f.handle == index && f.toe >= 0) rollFoot(h, b, f, pose, ik);
    }
  }
  carryFollowers(h, b, pose);

  report.solved = true;
  report.iterations = ik.iterations;
  report.errorModel = (Vec3(mModel[static_cast<std::size_t>(chain.tip())].translation()) - b.targetModel).norm();
  report.reached = report.errorModel <= h.toleranceModel;
}

bool Rig::runSolver(const IkHandle& h, BoundHandle& b, std::span<Transform> pose, bool needsWork, IkReport& report) {
  switch (h.solver) {
    case IkSolverKind::TwoBone:
    case IkSolverKind::TwoBoneTrigFree:
      // Without a placed pole to turn the bend plane to, a tip on its target leaves the chain
      // as it is (the job would turn the plane about the target axis: a snap to FK was 0.4 rad
      // off, and a pole carried by the thigh turned the knee again on every solve).
      return (!needsWork && !(b.hasPole && b.polePlaced)) || solveTwoBone(h, b, pose, report);
    case IkSolverKind::Ccd:
      return solveCcd(h, b, pose, needsWork, report);
    case IkSolverKind::Fabrik:
      return solveFabrik(h, b, pose, needsWork, report);
    case IkSolverKind::JacobianTranspose:
    case IkSolverKind::JacobianPseudoInverse:
    case IkSolverKind::DampedLeastSquares:
    case IkSolverKind::SelectivelyDampedLeastSquares:
      return solveJacobian(h, b, pose, report);
  }
  return false;
}

bool Rig::solveTwoBone(const IkHandle& h, const BoundHandle& b, std::span<Transform> pose, IkReport& report) {
  TwoBoneIkJob job;
  job.skeleton = &mSkeleton;
  job.startJoint = b.chain.joint(0);
  job.midJoint = b.chain.joint(1);
  job.endJoint = b.chain.joint(2);
  job.pose = pose;
  job.model = mModel;
  job.targetModel = b.targetModel;
  // Without a pole, a pole on the start–target axis keeps the current bend plane.
  job.poleMode = TwoBoneIkJob::PoleMode::Target;
  job.poleModel = b.hasPole ? b.poleModel : b.targetModel;
  job.soften = h.soften;
  job.toleranceModel = h.toleranceModel;
  job.method = h.solver == IkSolverKind::TwoBone ? TwoBoneIkJob::Method::LawOfCosines : TwoBoneIkJob::Method::TrigFree;
  job.report = &report;
  return job.run();
}

// CCD and FABRIK read the same inputs from a bound chain handle.
template <typename ChainJob>
void Rig::fillChainJob(ChainJob& job, const IkHandle& h, BoundHandle& b, std::span<Transform> pose,
                       IkReport& report) {
  job.chain = &b.chain;
  job.workspace = &b.workspace;
  job.pose = pose;
  job.model = mModel;
  job.constraints = b.constraints;
  job.targetModel = b.targetModel;
  job.toleranceModel = h.toleranceModel;
  job.maxIterations = h.maxIterations;
  job.report = &report;
}

bool Rig::solveCcd(const IkHandle& h, BoundHandle& b, std::span<Transform> pose, bool needsWork, IkReport& report) {
  if (b.hingeSeed && needsWork) seedHinge(b, pose);
  CcdIkJob job;
  fillChainJob(job, h, b, pose, report);
  return job.run();
}

bool Rig::solveFabrik(const IkHandle& h, BoundHandle& b, std::span<Transform> pose, bool needsWork, IkReport& report) {
  // FABRIK converges as 1/iterations when the chain starts nearly straight (a spine leaning:
  // the error halves each time the iterations double). Bent to the target's distance and
  // swung onto it, the chain starts next to the answer; FABRIK refines.
  if (needsWork && nearlyStraight(b)) {
    bendToReach(b, pose);
    swingRoot(b, pose);
  }
  FabrikIkJob job;
  fillChainJob(job, h, b, pose, report);
  return job.run();
}

Quat Rig::aimedOrientation(const BoundHandle& b) const {
  if (b.orientation != OrientationMode::Free) return rotationOfAxes(b.tipXModel, b.tipYModel);
  const Mat3 tip = mModel[static_cast<std::size_t>(b.chain.tip())].linear();
  return rotationOfAxes(tip.col(0), tip.col(1));
}

void Rig::orientTip(const BoundHandle& b, const BoundFoot* foot, std::span<Transform> pose) {
  const int tip = b.chain.tip();
  const auto tipIndex = static_cast<std::size_t>(tip);
  // The tip's parent frame after the solve: FK along the chain.
  b.chain.updateModel(pose, chainFrame(b), mModel);
  const Mat3 tipParent = mModel[static_cast<std::size_t>(mSkeleton.parent(tip))].linear();
  Quat q = pose[tipIndex].rotation;
  if (b.orientation != OrientationMode::Free) {
    const Vec3& s = pose[tipIndex].scale;
    q = alignLocal(tipParent, Vec3(s.x() < 0.0f ? -1.0f : 1.0f, 0.0f, 0.0f), b.tipXModel,
                   Vec3(0.0f, s.y() < 0.0f ? -1.0f : 1.0f, 0.0f), b.tipYModel);
  }
  if (foot != nullptr) {
    const Quat planted = alignHemisphere(
        alignLocal(tipParent, foot->soleForwardAnkle, foot->forwardModel, foot->soleUpAnkle, foot->normalModel), q);
    q = q.slerp(beyondCap(q.angularDistance(planted), plantedCap(foot->planted, kSoleCapRad)), planted).normalized();
  }
  if (b.tipLimited) q = b.tipConstraint.project(q, b.tipBoneAxisLocal);
  pose[tipIndex].rotation = alignHemisphere(q, b.startRotations.back());
}

bool Rig::solveJacobian(const IkHandle& h, BoundHandle& b, std::span<Transform> pose, IkReport& report) {
  IkEffectorTarget& target = b.treeTarget[0];
  target.positionModel = b.targetModel;
  target.hasOrientation = b.orientation == OrientationMode::Target;
  if (target.hasOrientation) {
    Mat3 r;
    r.col(0) = b.tipXModel;
    r.col(1) = b.tipYModel;
    r.col(2) = b.tipXModel.cross(b.tipYModel);
    target.orientationModel = Quat(r).normalized();
  }
  JacobianIkJob job;
  job.pose = pose;
  job.model = mModel;
  job.targets = b.treeTarget;
  job.constraints = b.treeConstraints;
  job.method = *jacobianMethod(h.solver);
  job.toleranceModel = h.toleranceModel;
  job.maxIterations = h.maxIterations;
  job.report = &report;
  const std::size_t t = target.hasOrientation ? 1 : 0;
  job.tree = &b.trees[t];
  job.workspace = &b.treeWorkspaces[t];
  if (job.run()) return true;
  if (!target.hasOrientation) return false;
  // Orientation targets need a frame above the chain without mirror or non-uniform scale;
  // under any other frame the position is solved alone (the tip is turned afterwards).
  target.hasOrientation = false;
  job.tree = &b.trees[0];
  job.workspace = &b.treeWorkspaces[0];
  return job.run();
}

void Rig::seedHinge(BoundHandle& b, std::span<Transform> pose) {
  // CCD alone needs a hundred sweeps to change an elbow's bend (each sweep turns the elbow to
  // aim the hand, then the shoulder undoes most of it). The seed solves the bend directly:
  // the hinge angle that puts the hand at the target's distance from the shoulder, then the
  // shoulder's swing onto the target, each projected on its limit. CCD then starts at (or
  // next to) the answer and only refines what the limits changed.
  const IkChain& chain = b.chain;
  const int root = chain.joint(0);
  const int mid = chain.joint(1);
  const int tip = chain.joint(2);
  const JointConstraint& hinge = b.constraints[1];
  const auto at = [&](int j) { return Vec3(mModel[static_cast<std::size_t>(j)].translation()); };
  const Affine rootParentModel = chainFrame(b);
  const Mat3 midToModel = mModel[static_cast<std::size_t>(mSkeleton.parent(mid))].linear();
  const Mat3 modelToMid = midToModel.inverse();
  // In the hinge's (the mid joint's parent) space: shoulder s and hand h relative to the elbow.
  const Vec3 s = modelToMid * (at(root) - at(mid));
  const Vec3 h = modelToMid * (at(tip) - at(mid));
  const float wanted = (modelToMid * (b.targetModel - at(root))).norm();
  const Vec3& axis = hinge.axisParent();
  const Vec3 along = axis * axis.dot(h);
  const Vec3 across = h - along;
  // s·R(Δ)h = A + B cos Δ + C sin Δ must equal c for |R(Δ)h − s| = wanted.
  const float a = s.dot(along);
  const float bCos = s.dot(across);
  const float cSin = s.dot(axis.cross(across));
  const float c = 0.5f * (h.squaredNorm() + s.squaredNorm() - wanted * wanted);
  const float amplitude = std::hypot(bCos, cSin);
  if (amplitude > 1e-6f * s.norm() * h.norm()) {
    const float phase = std::atan2(cSin, bCos);
    const float spread = std::acos(std::clamp((c - a) / amplitude, -1.0f, 1.0f));
    const float d1 = std::remainder(phase + spread, 2.0f * kPi);
    const float d2 = std::remainder(phase - spread, 2.0f * kPi);
    const float deltaRad = std::abs(d1) <= std::abs(d2) ? d1 : d2;
    Quat& midRotation = pose[static_cast<std::size_t>(mid)].rotation;
    const Vec3 boneMid = (midRotation.conjugate() * (h / h.norm())).normalized();
    midRotation = hinge.project((Quat(Eigen::AngleAxisf(deltaRad, axis)) * midRotation).normalized(), boneMid);
  }
  chain.updateModel(pose, rootParentModel, mModel);
  swingRoot(b, pose);
}

void Rig::swingRoot(BoundHandle& b, std::span<Transform> pose) {
  // Turns the chain's root so the tip points at the target, in the root's parent space,
  // projected on the root's limit; the tip lands on the target when its distance from the
  // root is already right.
  const IkChain& chain = b.chain;
  const int root = chain.joint(0);
  const int next = chain.joint(1);
  const int tip = chain.tip();
  const auto at = [&](int j) { return Vec3(mModel[static_cast<std::size_t>(j)].translation()); };
  const Affine rootParentModel = chainFrame(b);
  const Mat3 modelToRootParent = rootParentModel.linear().inverse();
  const Vec3 toTip = modelToRootParent * (at(tip) - at(root));
  const Vec3 toTarget = modelToRootParent * (b.targetModel - at(root));
  Quat& rootRotation = pose[static_cast<std::size_t>(root)].rotation;
  Quat swung = (fromToRotation(toTip, toTarget) * rootRotation).normalized();
  if (!b.constraints.empty() && b.constraints[0].isActive()) {
    const Vec3 boneRoot = (rootRotation.conjugate() * (modelToRootParent * (at(next) - at(root)))).normalized();
    swung = b.constraints[0].project(swung, boneRoot);
  }
  rootRotation = swung;
  chain.updateModel(pose, rootParentModel, mModel);
}

void Rig::bendToReach(BoundHandle& b, std::span<Transform> pose) {
  // Bends a nearly straight chain into an arc whose chord is the root–target distance: every
  // joint but the root turns by the same angle about one axis, towards the target's side.
  // The chain is treated as straight (it nearly is), so the chord of bone directions k·α is
  // found by bisection in the plane of the bend. All in chain space (the root's parent's),
  // where the bones are rigid whatever scales lie above the chain.
  const IkChain& chain = b.chain;
  const int n = chain.size();
  if (n < 3) return;
  const Affine chainToModel = chainFrame(b);
  const Affine modelToChain = chainToModel.inverse(Eigen::Affine);
  const auto at = [&](int k) {
    return Vec3(modelToChain * mModel[static_cast<std::size_t>(chain.joint(k))].translation());
  };
  const Vec3 root = at(0);
  const Vec3 reach = at(n - 1) - root;
  const Vec3 toTarget = modelToChain * b.targetModel - root;
  const float wanted = toTarget.norm();
  if (!(wanted < 0.999f * reach.norm())) return;
  const Vec3 axisAlong = reach.normalized();
  Vec3 side = toTarget - axisAlong * axisAlong.dot(toTarget);
  side = side.norm() > 1e-6f * wanted ? Vec3(side.normalized()) : Vec3(axisAlong.unitOrthogonal());
  const Vec3 turnAxis = axisAlong.cross(side);
  const auto chord = [&](float angleRad) {
    float x = 0.0f;
    float y = 0.0f;
    for (int k = 0; k + 1 < n; ++k) {
      const float length = (at(k + 1) - at(k)).norm();
      x += length * std::cos(static_cast<float>(k) * angleRad);
      y += length * std::sin(static_cast<float>(k) * angleRad);
    }
    return std::hypot(x, y);
  };
  // The chord shrinks as the arc closes: bisect on [0, π / (bones − 1)].
  float lo = 0.0f;
  float hi = kPi / static_cast<float>(n - 2);
  if (chord(hi) > wanted) return;
  for (int i = 0; i < 16; ++i) {
    const float mid = 0.5f * (lo + hi);
    (chord(mid) > wanted ? lo : hi) = mid;
  }
  const float angleRad = 0.5f * (lo + hi);
  // Rotations about one axis commute, so each joint's turn can be expressed in its parent's
  // frame from before the bend.
  const Mat3 modelToChainLinear = modelToChain.linear();
  for (int k = 1; k + 1 < n; ++k) {
    const int j = chain.joint(k);
    const Mat3 parentToChain = modelToChainLinear * mModel[static_cast<std::size_t>(mSkeleton.parent(j))].linear();
    Quat& r = pose[static_cast<std::size_t>(j)].rotation;
    r = (modelRotationToSpace(parentToChain, turnAxis, angleRad) * r).normalized();
  }
  chain.updateModel(pose, chainToModel, mModel);
}

Affine Rig::chainFrame(const BoundHandle& b) const {
  const int rootParent = b.chain.rootParent();
  return rootParent == kNoParent ? Affine::Identity() : mModel[static_cast<std::size_t>(rootParent)];
}

bool Rig::nearlyStraight(const BoundHandle& b) const {
  // Measured in chain space, where the bones are rigid.
  const IkChain& chain = b.chain;
  const Affine modelToChain = chainFrame(b).inverse(Eigen::Affine);
  const auto at = [&](int k) {
    return Vec3(modelToChain * mModel[static_cast<std::size_t>(chain.joint(k))].translation());
  };
  float length = 0.0f;
  for (int k = 0; k + 1 < chain.size(); ++k) length += (at(k + 1) - at(k)).norm();
  return (at(chain.size() - 1) - at(0)).norm() >= kStraightFraction * length;
}

void Rig::alignToe(BoundFoot& foot, std::span<Transform> pose, float weight) {
  if (foot.toe < 0 || foot.toeTip < 0 || !(foot.planted > 0.0f)) return;
  const Vec3 d = mModel[static_cast<std::size_t>(foot.toeTip)].translation() -
                 mModel[static_cast<std::size_t>(foot.toe)].translation();
  const Vec3& n = foot.toeNormalModel;
  const Vec3 across = d - n * n.dot(d);
  if (!(across.norm() > 1e-6f * d.norm())) return;
  // The toe bone at its rest elevation above the ground under the toe.
  const Vec3 wanted = across.normalized() * std::cos(foot.toeElevationRad) + n * std::sin(foot.toeElevationRad);
  const Eigen::AngleAxisf turn(fromToRotation(d.normalized(), wanted));
  const int parent = mSkeleton.parent(foot.toe);
  const Quat turnLocal =
      modelRotationToSpace(mModel[static_cast<std::size_t>(parent)].linear(), turn.axis(), turn.angle());
  Quat& r = pose[static_cast<std::size_t>(foot.toe)].rotation;
  const float toward = beyondCap(std::abs(turn.angle()), plantedCap(foot.planted, kSoleCapRad)) * weight;
  r = r.slerp(toward, (turnLocal * r).normalized()).normalized();
  updateModel(pose, foot.toeSubtree);
}

void Rig::carryFollowers(const IkHandle& h, BoundHandle& b, std::span<Transform> pose) {
  const Affine& tipModel = mModel[static_cast<std::size_t>(b.chain.tip())];
  for (std::size_t f = 0; f < h.followers.size(); ++f) {
    const int follower = h.followers[f];
    const int parent = mSkeleton.parent(follower);
    const Affine parentModel = parent == kNoParent ? Affine::Identity() : mModel[static_cast<std::size_t>(parent)];
    // In the parent's space; the follower's own scale stays.
    const Affine local = parentModel.inverse() * tipModel * b.followersOnTip[f];
    Transform& t = pose[static_cast<std::size_t>(follower)];
    t.translation = local.translation();
    t.rotation = alignHemisphere(Quat(local.rotation()).normalized(), t.rotation);
    updateModel(pose, b.followerSubtrees[f]);
  }
}

void Rig::rollFoot(const IkHandle& h, BoundHandle& b, const BoundFoot& foot, std::span<Transform> pose,
                   IkReport& report) {
  const GroundingSetup& g = mDefinition.grounding;
  const Vec3 up = g.upModel.normalized();
  const auto at = [&](int joint) -> const Affine& { return mModel[static_cast<std::size_t>(joint)]; };
  const int tip = b.chain.tip();
  const Vec3 ankle = at(tip).translation();
  const Vec3 ball = at(foot.toe).translation();
  const Vec3 toeTip = foot.toeTip >= 0 ? Vec3(at(foot.toeTip).translation()) : ball;
  Vec3 forward = ball - ankle;
  forward -= up * up.dot(forward);
  if (!(forward.norm() > 1e-6f * foot.legLength)) return;
  // A positive turn about up × forward lifts what is behind the pivot.
  const Vec3 lateral = up.cross(forward).normalized();
  const auto turnAbout = [&](const Vec3& pivot, float angleRad) {
    Affine turn = Affine::Identity();
    turn.linear() = Eigen::AngleAxisf(angleRad, lateral).toRotationMatrix();
    turn.translation() = pivot - turn.linear() * pivot;
    return turn;
  };
  const float ankleHeight = (&foot == &mFeet[0] ? g.left : g.right).ankleHeight;
  Affine footTurn = Affine::Identity(), toesTurn = Affine::Identity();
  if (b.rollRad < 0.0f) {
    footTurn = toesTurn = turnAbout(ankle - up * ankleHeight, b.rollRad);
  } else {
    const float ballRad = std::min(b.rollRad, kToeBreakRad);
    toesTurn = turnAbout(toeTip, b.rollRad - ballRad);
    footTurn = toesTurn * turnAbout(ball, ballRad);
  }
  // The foot's and the toes' axes as they must end, model space.
  const Vec3 tipX = footTurn.linear() * at(tip).linear().col(0).normalized();
  const Vec3 tipY = footTurn.linear() * at(tip).linear().col(1).normalized();
  const Vec3 toeX = toesTurn.linear() * at(foot.toe).linear().col(0).normalized();
  const Vec3 toeY = toesTurn.linear() * at(foot.toe).linear().col(1).normalized();
  b.targetModel = footTurn * ankle;
  if (!runSolver(h, b, pose, true, report)) return;
  b.chain.updateModel(pose, chainFrame(b), mModel);
  const auto turnTo = [&](int joint, const Vec3& xModel, const Vec3& yModel) {
    const Vec3& s = pose[static_cast<std::size_t>(joint)].scale;
    Quat& r = pose[static_cast<std::size_t>(joint)].rotation;
    r = alignHemisphere(alignLocal(at(mSkeleton.parent(joint)).linear(), Vec3(s.x() < 0.0f ? -1.0f : 1.0f, 0.0f, 0.0f),
                                   xModel, Vec3(0.0f, s.y() < 0.0f ? -1.0f : 1.0f, 0.0f), yModel),
                        r);
  };
  turnTo(tip, tipX, tipY);
  updateModel(pose, b.fkSubtree);
  turnTo(foot.toe, toeX, toeY);
  updateModel(pose, foot.toeSubtree);
}

}  // namespace articula
