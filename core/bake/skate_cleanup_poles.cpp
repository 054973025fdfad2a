// The knee poles of the foot-skate cleanup (skate_cleanup.h): each leg bends in the plane the
// source's knee bends in, frame by frame, not towards the rig's rest pole.
#include <algorithm>

#include "core/bake/dense_clip.h"
#include "core/bake/skate_cleanup.h"
#include "core/bake/skate_cleanup_sampling.h"

namespace articula {
namespace {

// Of a leg straighter than this (the thigh's offset across the hip–tip axis, as a share of
// the thigh's length: about 0.3°), the bend plane is the rest pole's; the source's plane takes
// over smoothly as the knee bends, so the pole never flips about a straight leg. At 1° the
// rest pole still turned slightly bent knees out of their plane (RobotExpressive Dance 6.2 mm,
// Idle 2.7 mm from the source; now 1.7 and 0.7).
constexpr float kStraightLegShare = 0.005f;

// The part of `v` across the unit axis `u`.
Vec3 acrossAxis(const Vec3& v, const Vec3& u) { return v - u * u.dot(v); }

// The pole (model space) that bends the leg hip–knee–tip of `model` in its own plane, a leg
// length from the knee: the knee's offset across the hip–tip axis, plus the rest pole's
// direction across it at kStraightLegShare of the thigh (`restPoleModel`).
Vec3 sourcePoleModel(const Vec3& hip, const Vec3& knee, const Vec3& tip, const Vec3& restPoleModel) {
  const Vec3 axis = tip - hip;
  const float thigh = (knee - hip).norm();
  const float leg = thigh + (tip - knee).norm();
  if (!(axis.norm() > 1e-6f * leg)) return restPoleModel;
  const Vec3 u = axis.normalized();
  const Vec3 bend = acrossAxis(knee - hip, u);
  Vec3 rest = acrossAxis(restPoleModel - knee, u);
  rest = rest.norm() > 0.0f ? Vec3(rest.normalized() * (kStraightLegShare * thigh)) : Vec3::Zero();
  const Vec3 direction = bend + rest;
  if (!(direction.norm() > 0.0f)) return restPoleModel;
  return knee + direction.normalized() * leg;
}

}  // namespace

void writeKneePoleCurves(const Skeleton& skeleton, Clip& clip, const RigDefinition& rig,
                         const std::vector<FootLock>& feet) {
  struct Leg {
    const IkHandle* handle = nullptr;
    std::vector<CurveKey> keys[3];
  };
  std::vector<Leg> legs;
  for (const FootLock& lock : feet) {
    const auto handle =
        std::find_if(rig.handles.begin(), rig.handles.end(), [&](const IkHandle& h) { return h.name == lock.handle; });
    if (handle == rig.handles.end() || handle->chain.size() != 3 || handle->pole.space != IkPole::Space::Joint)
      continue;
    if (handle->pole.joint < 0 || handle->pole.joint >= skeleton.jointCount()) continue;
    legs.push_back({&*handle, {}});
  }
  if (legs.empty()) return;
  ModelPosePlayer player(skeleton, clip);
  for (int f = 0; f < clip.frameCount(); ++f) {
    const std::vector<Affine>& model = player.at(f);
    const auto at = [&](int joint) { return Vec3(model[static_cast<std::size_t>(joint)].translation()); };
    for (Leg& leg : legs) {
      const IkHandle& h = *leg.handle;
      const Affine& poleSpace = model[static_cast<std::size_t>(h.pole.joint)];
      const Vec3 poleModel =
          sourcePoleModel(at(h.chain[0]), at(h.chain[1]), at(h.chain[2]), poleSpace * h.pole.position);
      const Vec3 poleLocal = poleSpace.inverse(Eigen::Affine) * poleModel;
      for (int c = 0; c < 3; ++c) leg.keys[c].push_back(linearKey(clip.timeOf(f), poleLocal[c]));
    }
  }
  const char* channels[3] = {"pole.x", "pole.y", "pole.z"};
  for (Leg& leg : legs) {
    for (int c = 0; c < 3; ++c)
      clip.curves[handleCurveName(leg.handle->name, channels[c])].setKeys(std::move(leg.keys[c]));
  }
}

}  // namespace articula
