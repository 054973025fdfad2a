#include "core/rig/humanoid_rig.h"

#include <algorithm>
#include <cmath>

#include "core/rig/humanoid_map.h"

namespace articula {

namespace {

// The nearest signed model axis when within 25° of v (unit), else v.
Vec3 snapToAxis(const Vec3& v) {
  Eigen::Index axis = 0;
  v.cwiseAbs().maxCoeff(&axis);
  Vec3 snapped = Vec3::Zero();
  snapped[axis] = v[axis] < 0.0f ? -1.0f : 1.0f;
  return v.dot(snapped) >= std::cos(25.0f * kPi / 180.0f) ? snapped : v;
}

class HumanoidBuilder {
 public:
  HumanoidBuilder(const Skeleton& skeleton, const HumanoidMap& map, const HumanoidFrame& frame,
                  const HumanoidRigOptions& options)
      : mSkeleton(skeleton),
        mMap(map),
        mFrame(frame),
        mOptions(options),
        mRest(localToModel(skeleton, skeleton.restPose())) {}

  Result<RigDefinition> build() {
    RigDefinition rig;
    rig.name = "humanoid";
    rig.handles.push_back(spine());
    for (const bool left : {true, false}) {
      auto leg = this->leg(left);
      if (!leg) return makeError(leg.error());
      rig.handles.push_back(std::move(*leg));
    }
    for (const bool left : {true, false}) {
      auto arm = this->arm(left);
      if (!arm) return makeError(arm.error());
      rig.handles.push_back(std::move(*arm));
    }
    GroundingSetup& g = rig.grounding;
    g.enabled = mOptions.grounding;
    g.pelvis = mMap.hips;
    g.upModel = mFrame.upModel;
    g.left = foot(mMap.leftLeg, "contact.left_foot");
    g.right = foot(mMap.rightLeg, "contact.right_foot");
    return rig;
  }

 private:
  Vec3 pos(int j) const { return mRest[static_cast<std::size_t>(j)].translation(); }
  // Linear map of joint j's parent frame into model space, rest pose.
  Mat3 parentLinear(int j) const {
    const int p = mSkeleton.parent(j);
    return p == kNoParent ? Mat3(Mat3::Identity()) : Mat3(mRest[static_cast<std::size_t>(p)].linear());
  }
  // A model-space direction in joint j's parent space (unit).
  Vec3 inParent(int j, const Vec3& dirModel) const { return (parentLinear(j).inverse() * dirModel).normalized(); }
  float chainLength(std::span<const int> chain) const {
    float length = 0.0f;
    for (std::size_t k = 0; k + 1 < chain.size(); ++k) length += (pos(chain[k + 1]) - pos(chain[k])).norm();
    return length;
  }

  IkHandle spine() const {
    IkHandle h;
    h.name = "spine";
    h.role = HandleRole::Spine;
    h.solver = IkSolverKind::Fabrik;
    // From the joint above the pelvis: turning the pelvis would swing the legs. (With one
    // bone between pelvis and chest, as in the Khronos samples, the chest moves on a sphere.)
    const auto& s = mMap.spine;
    h.chain.assign(s.size() >= 3 ? s.begin() + 1 : s.begin(), s.end());
    h.targetSource = TargetSource::InputPose;
    h.orientation = OrientationMode::KeepPose;
    h.maxIterations = 32;
    h.toleranceModel = 1e-4f * chainLength(h.chain);
    return h;
  }

  Result<IkHandle> leg(bool left) const {
    const HumanoidLeg& l = left ? mMap.leftLeg : mMap.rightLeg;
    IkHandle h;
    h.name = left ? "left_leg" : "right_leg";
    h.role = left ? HandleRole::LeftLeg : HandleRole::RightLeg;
    h.solver = IkSolverKind::TwoBone;
    h.chain = {l.thigh, l.knee, l.legTip};
    const float length = chainLength(h.chain);
    if (!(length > 0.0f))
      return makeError(std::string("humanoid rig: the ").append(left ? "left" : "right").append(" leg has no length"));
    h.targetSource = TargetSource::InputPose;
    h.orientation = OrientationMode::KeepPose;
    // A foot bone beside the leg (an IK-foot bone the animation keeps on the shin's tail)
    // goes with the solved leg.
    if (l.footBesideLeg()) h.followers = {l.ankle};
    // Pole a leg length in front of the knee, in the thigh's frame.
    h.pole.space = IkPole::Space::Joint;
    h.pole.joint = l.thigh;
    h.pole.position = mRest[static_cast<std::size_t>(l.thigh)].inverse(Eigen::Affine) *
                      Vec3(pos(l.knee) + mFrame.forwardModel * length);
    h.toleranceModel = 1e-4f * length;
    return h;
  }

  Result<IkHandle> arm(bool left) const {
    const HumanoidArm& a = left ? mMap.leftArm : mMap.rightArm;
    IkHandle h;
    h.name = left ? "left_arm" : "right_arm";
    h.role = left ? HandleRole::LeftArm : HandleRole::RightArm;
    h.solver = IkSolverKind::Ccd;
    h.chain = {a.upperArm, a.forearm, a.hand};
    const Vec3 upper = pos(a.forearm) - pos(a.upperArm);
    const Vec3 lower = pos(a.hand) - pos(a.forearm);
    if (!(upper.norm() > 0.0f) || !(lower.norm() > 0.0f))
      return makeError(
          std::string("humanoid rig: the ").append(left ? "left" : "right").append(" arm has a bone of zero length"));
    const Vec3 u = upper.normalized();
    const Vec3 l = lower.normalized();

    // Shoulder: a cone around the rest direction of the upper arm.
    const JointLimit shoulder = JointLimit::cone(inParent(a.upperArm, u), mOptions.shoulderConeRad);
    // Elbow: a hinge whose positive turn bends the forearm: about u × l when the rest arm is
    // bent, else about u × forward (flexion carries the forearm forward).
    const float restBendRad = std::atan2(u.cross(l).norm(), u.dot(l));
    Vec3 hingeModel = restBendRad > 10.0f * kPi / 180.0f ? u.cross(l) : u.cross(mFrame.forwardModel);
    if (hingeModel.norm() < 1e-3f) hingeModel = u.cross(mFrame.upModel);
    const JointLimit elbow =
        JointLimit::hinge(inParent(a.forearm, hingeModel.normalized()), -restBendRad,
                          mOptions.elbowFlexionRad - restBendRad, mSkeleton.restLocal(a.forearm).rotation);
    // Wrist: a cone around the hand's rest bone direction (towards its first child, else
    // continuing the forearm).
    Vec3 handDir = l;
    const auto kids = mSkeleton.children(a.hand);
    if (!kids.empty() && (pos(kids.front()) - pos(a.hand)).norm() > 0.0f)
      handDir = (pos(kids.front()) - pos(a.hand)).normalized();
    const JointLimit wrist = JointLimit::cone(inParent(a.hand, handDir), mOptions.wristConeRad);
    h.limits = {shoulder, elbow, wrist};
    h.targetSource = TargetSource::InputPose;
    h.orientation = OrientationMode::KeepPose;
    h.maxIterations = 32;
    h.toleranceModel = 1e-4f * chainLength(h.chain);
    return h;
  }

  FootGrounding foot(const HumanoidLeg& l, const char* curve) const {
    FootGrounding f;
    // Grounding turns the toe below the chain's tip; a foot beside the leg has none there.
    f.toe = l.footBesideLeg() ? -1 : l.toe;
    f.contactCurve = curve;
    const Vec3& up = mFrame.upModel;
    // The sole: when the rest pose stands on the model's ground (its lowest foot point just
    // above the origin's level) heights are measured from there, else from the lowest point.
    float lowest = pos(l.ankle).dot(up);
    // The foot's sub-tree in one pass (isAncestorOrSelf per node was quadratic in a deep chain).
    for (const int j : mSkeleton.subtree(l.ankle)) lowest = std::min(lowest, pos(j).dot(up));
    const float legLength = (pos(l.knee) - pos(l.thigh)).norm() + (pos(l.ankle) - pos(l.knee)).norm();
    const float sole = lowest >= -1e-3f * legLength && lowest <= 0.15f * legLength ? 0.0f : lowest;
    f.ankleHeight = std::max(0.0f, pos(l.ankle).dot(up) - sole);
    return f;
  }

  const Skeleton& mSkeleton;
  const HumanoidMap& mMap;
  const HumanoidFrame& mFrame;
  const HumanoidRigOptions& mOptions;
  std::vector<Affine> mRest;
};

}  // namespace

Result<HumanoidFrame> humanoidFrame(const Skeleton& skeleton, const HumanoidMap& map) {
  const std::vector<Affine> rest = localToModel(skeleton, skeleton.restPose());
  auto pos = [&](int j) { return Vec3(rest[static_cast<std::size_t>(j)].translation()); };
  const Vec3 up = pos(map.hips) - 0.5f * (pos(map.leftLeg.ankle) + pos(map.rightLeg.ankle));
  if (!(up.norm() > 0.0f)) return makeError("humanoid rig: the hips are level with the ankles in the rest pose");
  HumanoidFrame frame;
  frame.upModel = snapToAxis(up.normalized());
  Vec3 left = pos(map.leftLeg.thigh) - pos(map.rightLeg.thigh);
  left -= frame.upModel * frame.upModel.dot(left);
  if (!(left.norm() > 0.0f))
    return makeError("humanoid rig: the left and right thighs are at one point in the rest pose");
  frame.forwardModel = snapToAxis(left.normalized().cross(frame.upModel).normalized());
  return frame;
}

Result<RigDefinition> buildHumanoidRig(const Skeleton& skeleton, const HumanoidMap& map,
                                       const HumanoidRigOptions& options) {
  auto frame = humanoidFrame(skeleton, map);
  if (!frame) return makeError(frame.error());
  return HumanoidBuilder(skeleton, map, *frame, options).build();
}

Result<RigDefinition> buildHumanoidRig(const Skeleton& skeleton, const HumanoidRigOptions& options) {
  auto map = mapHumanoid(skeleton);
  if (!map) return makeError(map.error());
  return buildHumanoidRig(skeleton, *map, options);
}

}  // namespace articula
