// The lock curves of the foot-skate cleanup (skate_cleanup.h): where each foot is held, how
// the hold eases in and out, and where the pelvis must lower for the legs to reach.
#include <algorithm>
#include <cmath>
#include <limits>
#include <span>

#include "core/bake/dense_clip.h"
#include "core/bake/skate_cleanup.h"
#include "core/bake/skate_cleanup_sampling.h"

namespace articula {
namespace {

bool within(const std::vector<ContactInterval>& intervals, int frame) {
  return std::any_of(intervals.begin(), intervals.end(),
                     [&](const ContactInterval& c) { return frame >= c.first && frame <= c.last; });
}

// A foot beside its leg (an IK bone) is held by its own keys, one per frame, in its
// parent's space.
void writeFootTrack(Clip& clip, int foot, const std::vector<Affine>& parentModel,
                    const std::vector<Vec3>& positionModel, const std::vector<Quat>& rotationModel) {
  std::vector<CurveKey> keys[3];
  std::vector<RotationKey> rotations;
  for (std::size_t f = 0; f < positionModel.size(); ++f) {
    const double t = clip.timeOf(static_cast<int>(f));
    const Vec3 local = parentModel[f].inverse(Eigen::Affine) * positionModel[f];
    for (int c = 0; c < 3; ++c) keys[c].push_back(linearKey(t, local[c]));
    RotationKey key;
    key.time = t;
    key.value = (rotationOf(parentModel[f].linear()).conjugate() * rotationModel[f]).normalized();
    rotations.push_back(key);
  }
  JointTrack& track = clip.trackFor(foot);
  track.translation.x.setKeys(std::move(keys[0]));
  track.translation.y.setKeys(std::move(keys[1]));
  track.translation.z.setKeys(std::move(keys[2]));
  track.rotation.setKeys(std::move(rotations));
}

// Per frame before or after a contact, within its ease: the contact's nearest frame (its
// first or last) and the share of its offset applied there (eased from 0 to 1 and back);
// contactEdge -1 elsewhere.
struct Ease {
  int contactEdge = -1;
  float weight = 0.0f;
};

std::vector<Ease> easeWeights(const std::vector<ContactInterval>& contacts, int frames, double frameRate) {
  std::vector<Ease> eases(static_cast<std::size_t>(frames));
  const int easeFrames = std::max(1, static_cast<int>(std::lround(kLockEaseSeconds * frameRate)));
  auto smooth = [](int distance, int span) {
    const float x = static_cast<float>(distance) / static_cast<float>(span + 1);
    return 1.0f - x * x * (3.0f - 2.0f * x);
  };
  for (std::size_t c = 0; c < contacts.size(); ++c) {
    const int end = contacts[c].last;
    const int after = c + 1 < contacts.size() ? std::min(easeFrames, (contacts[c + 1].first - end) / 2) : easeFrames;
    for (int f = end + 1; f <= std::min(end + after, frames - 1); ++f)
      eases[static_cast<std::size_t>(f)] = {end, smooth(f - end, after)};
  }
  for (std::size_t c = 0; c < contacts.size(); ++c) {
    const int first = contacts[c].first;
    const int before = c > 0 ? std::min(easeFrames, (first - contacts[c - 1].last - 1) / 2) : easeFrames;
    for (int f = std::max(0, first - before); f < first; ++f) {
      if (eases[static_cast<std::size_t>(f)].contactEdge < 0)
        eases[static_cast<std::size_t>(f)] = {first, smooth(first - f, before)};
    }
  }
  return eases;
}

std::optional<std::string> checkFootLocks(const Skeleton& skeleton, const Clip& clip,
                                          const std::vector<FootLock>& feet) {
  const int frames = clip.frameCount();
  for (const FootLock& lock : feet) {
    const std::string name = "foot lock '" + lock.handle + "': ";
    if (lock.joints.ankle < 0 || lock.joints.ankle >= skeleton.jointCount())
      return name + "ankle joint " + std::to_string(lock.joints.ankle) + " is not in the skeleton";
    if (lock.joints.toe >= skeleton.jointCount())
      return name + "toe joint " + std::to_string(lock.joints.toe) + " is not in the skeleton";
    if (lock.joints.legTip >= skeleton.jointCount())
      return name + "leg tip " + std::to_string(lock.joints.legTip) + " is not in the skeleton";
    if (clip.curves.count(lock.joints.curveName) == 0) return name + "no stride curve '" + lock.joints.curveName + "'";
    if (!lock.ankleFloorModel.empty() && lock.ankleFloorModel.size() != static_cast<std::size_t>(frames))
      return name + "the ankle's floor has " + std::to_string(lock.ankleFloorModel.size()) + " levels for " +
             std::to_string(frames) + " frames";
    for (const auto* list : {&lock.foot, &lock.ankle, &lock.toe}) {
      for (const ContactInterval& c : *list) {
        if (c.first < 0 || c.last >= frames || c.first > c.last)
          return name + "contact [" + std::to_string(c.first) + ", " + std::to_string(c.last) +
                 "] is not within the clip's frames 0.." + std::to_string(frames - 1);
      }
    }
  }
  return std::nullopt;
}

// One foot at one frame of the animation, model space; for a foot beside its leg, the leg's
// tip and the foot's parent too.
struct FootSample {
  Vec3 ankle = Vec3::Zero(), toe = Vec3::Zero(), legTip = Vec3::Zero();
  Quat rotation = Quat::Identity();  // the ankle's, without the scale of the nodes above it
  Affine footParent = Affine::Identity();
  float soleBelowAnkle = 0.0f;  // the foot's lowest point less the ankle, along the floor's up
};

// The lowest of `points` less the ankle's height along `up` (0 for no points).
float soleBelowAnkle(const std::vector<FootPoint>& points, std::span<const Affine> model, const Vec3& ankle,
                     const Vec3& up) {
  float lowest = std::numeric_limits<float>::infinity();
  for (const FootPoint& point : points) lowest = std::min(lowest, up.dot(point.at(model) - ankle));
  return points.empty() ? 0.0f : lowest;
}

std::vector<std::vector<FootSample>> sampleFeet(const Skeleton& skeleton, const Clip& clip,
                                                const std::vector<FootLock>& feet, const CharacterSoles* floor) {
  const int frames = clip.frameCount();
  std::vector<std::vector<FootSample>> samples(feet.size(), std::vector<FootSample>(static_cast<std::size_t>(frames)));
  ModelPosePlayer player(skeleton, clip);
  for (int f = 0; f < frames; ++f) {
    const std::vector<Affine>& model = player.at(f);
    for (std::size_t i = 0; i < feet.size(); ++i) {
      const FootJoints& joints = feet[i].joints;
      const Affine& ankle = model[static_cast<std::size_t>(joints.ankle)];
      FootSample& s = samples[i][static_cast<std::size_t>(f)];
      s.ankle = ankle.translation();
      s.rotation = rotationOf(ankle.linear());
      // Without a toe the ankle is the only point the foot stands on.
      s.toe = joints.toe >= 0 ? Vec3(model[static_cast<std::size_t>(joints.toe)].translation()) : s.ankle;
      if (joints.legTip >= 0) {
        s.legTip = model[static_cast<std::size_t>(joints.legTip)].translation();
        const int parent = skeleton.parent(joints.ankle);
        if (parent != kNoParent) s.footParent = model[static_cast<std::size_t>(parent)];
      }
      if (floor != nullptr && i < floor->feet.size())
        s.soleBelowAnkle = soleBelowAnkle(floor->feet[i], model, s.ankle, floor->up);
    }
  }
  return samples;
}

// The ankle over one contact (model space, in the ground's frame like `anim`), the foot
// turning as the source's does: the point that carries the weight is held, the ankle (heel
// at the strike, the whole sole while flat) on the `ankle` frames, the toe (the ball, at
// push-off) on the `toe` frames where the ankle is not, and the ankle turns with the source's
// rotation about it, so a pivot on the ball stays a pivot. Each hold starts where the ankle
// is carried to, so it never jumps; then the whole contact shifts across the up to the
// middle of the source's path over it (the centre of the extent of its offsets from the
// source: for a steady skate, where the source's contact is at the middle frame), so the
// foot travels least to its lock, no farther than half the slide it loses.
void holdContact(const FootLock& lock, const ContactInterval& contact, const std::vector<FootSample>& anim,
                 const Vec3& up, std::vector<Vec3>& target) {
  // A held ankle stays put across the up, at its animated height (the heel settling, rising
  // about the toe) raised to its floor.
  auto standing = [&](const Vec3& heldModel, std::size_t k) {
    float height = up.dot(anim[k].ankle);
    if (!lock.ankleFloorModel.empty()) height = std::max(height, lock.ankleFloorModel[k]);
    return Vec3(heldModel + up * (height - up.dot(heldModel)));
  };
  const bool ankleAlways = lock.ankle.empty() && lock.toe.empty();
  // Plain flags, not optional<Vec3>: g++ 12 warns falsely on the latter.
  bool ankleHolds = false, toeHolds = false;
  Vec3 ankleHeld = Vec3::Zero(), toeHeld = Vec3::Zero();
  for (int f = contact.first; f <= contact.last; ++f) {
    const auto k = static_cast<std::size_t>(f);
    const Vec3 carried = f == contact.first ? anim[k].ankle : Vec3(target[k - 1] + anim[k].ankle - anim[k - 1].ankle);
    const bool anklePlanted = ankleAlways || within(lock.ankle, f);
    const bool toePlanted = !anklePlanted && lock.joints.toe >= 0 && within(lock.toe, f);
    const Vec3 toeOffset = anim[k].toe - anim[k].ankle;  // the source's foot, as it turns
    if (anklePlanted) {
      if (!ankleHolds) ankleHeld = carried;
      target[k] = standing(ankleHeld, k);
    } else if (toePlanted) {
      if (!toeHolds) toeHeld = carried + toeOffset;
      target[k] = toeHeld - toeOffset;
    } else {
      target[k] = carried;
    }
    ankleHolds = anklePlanted;
    toeHolds = toePlanted;
  }
  // The middle of the extent of the held point's offsets from the source, across the up. A
  // contact under way when the clip starts has its middle before it: it sits where the
  // source's is at the first frame, so the clip starts as the source does and a cycle still
  // meets itself there (RobotExpressive Walking's loop).
  const int last = contact.first == 0 ? contact.first : contact.last;
  Vec3 lowest = Vec3::Constant(std::numeric_limits<float>::max());
  Vec3 highest = Vec3::Constant(std::numeric_limits<float>::lowest());
  for (int f = contact.first; f <= last; ++f) {
    const auto k = static_cast<std::size_t>(f);
    Vec3 offset = target[k] - anim[k].ankle;
    offset -= up * up.dot(offset);
    lowest = lowest.cwiseMin(offset);
    highest = highest.cwiseMax(offset);
  }
  Vec3 shift = -0.5f * (lowest + highest);
  shift -= up * up.dot(shift);
  for (int f = contact.first; f <= contact.last; ++f) target[static_cast<std::size_t>(f)] += shift;
}

// Per frame, how far the ankle's target is from the source's ankle (model space): the hold
// within each contact; before a contact the offset it starts with eased in, after it the
// offset it ends with eased out, each over 0.15 s or half the gap (easeWeights), or where
// the stride curve ramps, by it (on a treadmill only by it: there the offset a contact ends
// with is the animator's eased stance spacing against the ground's even one, up to a
// stride's share, and carried into the swing it would pull the foot out of the leg's reach). The targets move by the
// whole offset, so the leg solves at full weight: a frame it does not reach is one it cannot reach.
std::vector<Vec3> lockOffsets(const FootLock& lock, const Clip& clip, const std::vector<FootSample>& samples,
                              const Vec3& up, const Vec3& groundVelocityModel) {
  const int frames = clip.frameCount();
  auto groundTravel = [&](int f) {
    return Vec3(groundVelocityModel * static_cast<float>(clip.timeOf(f) - clip.timeOf(0)));
  };
  // The lock works in the ground's frame (positions less the treadmill's travel since the
  // first frame), so held feet travel with the ground of an in-place cycle.
  std::vector<FootSample> anim = samples;
  for (int f = 0; f < frames; ++f) {
    anim[static_cast<std::size_t>(f)].ankle -= groundTravel(f);
    anim[static_cast<std::size_t>(f)].toe -= groundTravel(f);
  }
  std::vector<Vec3> target(anim.size());
  for (std::size_t f = 0; f < anim.size(); ++f) target[f] = anim[f].ankle;
  for (const ContactInterval& contact : lock.foot) holdContact(lock, contact, anim, up, target);
  std::vector<Vec3> offset(anim.size(), Vec3::Zero());
  for (std::size_t f = 0; f < anim.size(); ++f) offset[f] = target[f] - anim[f].ankle;

  const Curve& stride = clip.curves.at(lock.joints.curveName);
  const bool treadmill = groundVelocityModel.squaredNorm() > 0.0f;
  const std::vector<Ease> eases =
      treadmill ? std::vector<Ease>(static_cast<std::size_t>(frames)) : easeWeights(lock.foot, frames, clip.frameRate);
  std::vector<Vec3> eased(offset.size(), Vec3::Zero());
  for (int f = 0; f < frames; ++f) {
    const auto k = static_cast<std::size_t>(f);
    if (within(lock.foot, f)) {
      eased[k] = offset[k];
    } else if (const Ease& e = eases[k]; e.contactEdge >= 0) {
      eased[k] = offset[static_cast<std::size_t>(e.contactEdge)] * e.weight;
    } else if (const double w = std::clamp(stride.evaluate(clip.timeOf(f)), 0.0, 1.0); w > 0.0 && !lock.foot.empty()) {
      int nearest = lock.foot.front().first;
      for (const ContactInterval& c : lock.foot) {
        for (const int edge : {c.first, c.last}) {
          if (std::abs(edge - f) < std::abs(nearest - f)) nearest = edge;
        }
      }
      eased[k] = offset[static_cast<std::size_t>(nearest)] * static_cast<float>(w);
    }
  }
  return eased;
}

// A foot beside its leg moves by its own keys, a line between two frames: the frame before
// a contact comes halfway across to where the foot will hold (`offset`: lockOffsets'), or
// from the animation's approach speed a player stepping at 120 Hz shows it skidding into its
// plant (RobotExpressive Running: 1.2 mm per step). Halfway in the ground's frame: on a
// treadmill the foot coming down already travels with the ground (halfway in the model's,
// Running's right foot was pulled 52 mm ahead of the source's). The foot alone moves, not the
// leg's tip: a leg straight there would have the pelvis lowered and both knees bent
// (RobotExpressive Punch: 15 mm, 68 mm). Not a foot at the end of its leg: pulled ahead, the
// leg straightens and its knee pops (MakeHuman walk1: 41° in one frame). Per frame, the shift.
std::vector<Vec3> plantApproach(const FootLock& lock, const Clip& clip, const std::vector<FootSample>& samples,
                                const std::vector<Vec3>& offset, const Vec3& up, const Vec3& groundVelocityModel) {
  std::vector<Vec3> shift(offset.size(), Vec3::Zero());
  for (const ContactInterval& c : lock.foot) {
    const int f = c.first - 1;
    if (f < 0 || within(lock.foot, f)) continue;
    const auto k = static_cast<std::size_t>(f);
    const auto first = static_cast<std::size_t>(c.first);
    const Vec3 groundStep = groundVelocityModel * static_cast<float>(clip.timeOf(c.first) - clip.timeOf(f));
    Vec3 across = samples[first].ankle - groundStep + offset[first] - samples[k].ankle - offset[k];
    across -= up * up.dot(across);
    shift[k] = 0.5f * across;
  }
  return shift;
}

// `ankleModel` raised along the floor's up until the foot's lowest point (`soleBelowAnkle`
// under it) is on the floor, where it would be below it: a held toe the ankle turns about,
// or a lock easing out, keeps the foot's turn and may carry its tip under the floor.
Vec3 aboveFloor(const Vec3& ankleModel, float soleBelowAnkle, const CharacterSoles& floor) {
  const float under = floor.floorHeight - floor.up.dot(ankleModel) - soleBelowAnkle;
  return under > 0.0f ? Vec3(ankleModel + floor.up * under) : ankleModel;
}

void writeHandleCurves(Clip& clip, const std::string& handle, const std::vector<Vec3>& targetModel,
                       const std::vector<Quat>& orientationModel) {
  const bool oriented = !orientationModel.empty();
  std::vector<CurveKey> keys[7];
  for (std::size_t f = 0; f < targetModel.size(); ++f) {
    const double t = clip.timeOf(static_cast<int>(f));
    for (int c = 0; c < 3; ++c) keys[c].push_back(linearKey(t, targetModel[f][c]));
    if (!oriented) continue;
    keys[3].push_back(linearKey(t, orientationModel[f].w()));
    for (int c = 0; c < 3; ++c) keys[4 + c].push_back(linearKey(t, orientationModel[f].vec()[c]));
  }
  const char* channels[7] = {"target.x",      "target.y",      "target.z",     "orientation.w",
                             "orientation.x", "orientation.y", "orientation.z"};
  for (int c = 0; c < (oriented ? 7 : 3); ++c)
    clip.curves[handleCurveName(handle, channels[c])].setKeys(std::move(keys[c]));
  clip.curves.erase(handleCurveName(handle, "weight"));
}

}  // namespace

namespace {

// How far the pelvis must go down along `up` (unit) to bring the hip within `reach` of the
// target (model space), as the rig lowers it: |v − δ·up| = reach with v = hip − target, the
// smaller root; 0 when it already is.
float dropToReach(const Vec3& hip, const Vec3& target, const Vec3& up, float reach) {
  const Vec3 v = hip - target;
  if (!(v.squaredNorm() > reach * reach)) return 0.0f;
  const float along = v.dot(up);
  const float across2 = std::max(0.0f, v.squaredNorm() - along * along);
  return across2 < reach * reach ? along - std::sqrt(reach * reach - across2) : along;
}

// Of a foot beside its leg (an IK bone holding itself by its own keys), how far the leg's
// tip may stay off its lock target, as a share of the leg's length (2.2 mm of
// RobotExpressive's 894 mm leg). A straight leg's knee bends √(2·L·d) out for a tip d
// closer to the hip, and a target d beyond it has the pelvis lowered by about d, eased over
// the frames around, where the leg bends as much: RobotExpressive Punch's lunge, planted
// straight, its hold 0.6 mm off the source's, had the pelvis lowered 0.7 mm and the knee 18
// mm out; RobotExpressive Walking's pelvis lowered 11.3 mm, now 8.8.
constexpr float kShinTipSlackShare = 0.0025f;

// A lock's leg for the pelvis's reach: hip and tip joints, rest length, the rig's reach of it,
// and its target curves in the clip.
struct ReachingLeg {
  int hip = -1, tip = -1;
  float reach = 0.0f, length = 0.0f;
  bool footBeside = false;  // the lock's foot is beside the leg (joints.legTip)
  Curve* target[3] = {nullptr, nullptr, nullptr};

  Vec3 targetAt(double t) const {
    return Vec3(static_cast<float>(target[0]->evaluate(t)), static_cast<float>(target[1]->evaluate(t)),
                static_cast<float>(target[2]->evaluate(t)));
  }
  // How far the leg reaches from `hipModel` on a frame the animation has its tip at
  // `tipModel`: the rig's share of its length, or as far as the animation stretches it, up to
  // its length. A leg the animation stretches past the rig's reach (a jump's take-off, a
  // lunge) keeps its stretch: lowering the pelvis under a straight leg bends its knee far
  // (RobotExpressive Jump: 3.5 mm down, 33 mm out). Less the distance its target moved from
  // the animation's tip, it bent CMU 09_11's knee 54 mm to hold a foot.
  float reachFrom(const Vec3& hipModel, const Vec3& tipModel) const {
    return std::max(reach, std::min((tipModel - hipModel).norm(), length));
  }
};

// The legs of `feet`'s handles in `rig` with all three target curves in `clip`.
std::vector<ReachingLeg> reachingLegs(const Skeleton& skeleton, Clip& clip, const RigDefinition& rig,
                                      const std::vector<FootLock>& feet) {
  const auto rest = localToModel(skeleton, skeleton.restPose());
  const auto restAt = [&](int j) { return Vec3(rest[static_cast<std::size_t>(j)].translation()); };
  std::vector<ReachingLeg> legs;
  for (const FootLock& lock : feet) {
    const auto handle =
        std::find_if(rig.handles.begin(), rig.handles.end(), [&](const IkHandle& h) { return h.name == lock.handle; });
    if (handle == rig.handles.end() || handle->chain.size() != 3) continue;
    ReachingLeg leg;
    const std::vector<int>& chain = handle->chain;
    leg.hip = chain[0];
    leg.tip = chain[2];
    leg.length = (restAt(chain[1]) - restAt(chain[0])).norm() + (restAt(chain[2]) - restAt(chain[1])).norm();
    leg.reach = rig.grounding.maxReach * leg.length;
    leg.footBeside = lock.joints.legTip >= 0;
    const char* channels[3] = {"target.x", "target.y", "target.z"};
    for (int c = 0; c < 3; ++c) {
      const auto curve = clip.curves.find(handleCurveName(lock.handle, channels[c]));
      if (curve != clip.curves.end()) leg.target[c] = &curve->second;
    }
    if (leg.target[0] != nullptr && leg.target[1] != nullptr && leg.target[2] != nullptr) legs.push_back(leg);
  }
  return legs;
}

// Each target (in `clip`) of a leg whose foot is beside it comes towards the animation's distance from
// the hip (up to the leg's length), along the line to the hip, by up to kShinTipSlackShare
// of the leg: the foot holds itself, and the leg keeps the animation's stretch instead of
// bending a straight knee or lowering the pelvis. One linear key per frame.
void keepStretchOfLegsBesideFeet(const Skeleton& skeleton, Clip& clip, const std::vector<ReachingLeg>& legs) {
  std::vector<std::vector<Vec3>> pulled(legs.size());
  ModelPosePlayer player(skeleton, clip);
  for (int f = 0; f < clip.frameCount(); ++f) {
    const std::vector<Affine>& model = player.at(f);
    for (std::size_t i = 0; i < legs.size(); ++i) {
      const ReachingLeg& leg = legs[i];
      if (!leg.footBeside) continue;
      const Vec3 hip = model[static_cast<std::size_t>(leg.hip)].translation();
      const Vec3 tip = model[static_cast<std::size_t>(leg.tip)].translation();
      const Vec3 target = leg.targetAt(clip.timeOf(f));
      const Vec3 fromHip = target - hip;
      const float animated = std::min((tip - hip).norm(), leg.length);
      const float slack = kShinTipSlackShare * leg.length;
      const float pull = std::clamp(fromHip.norm() - animated, -slack, slack);
      pulled[i].push_back(fromHip.norm() > 0.0f ? Vec3(target - fromHip.normalized() * pull) : target);
    }
  }
  for (std::size_t i = 0; i < legs.size(); ++i) {
    if (!legs[i].footBeside) continue;
    for (int c = 0; c < 3; ++c) {
      std::vector<CurveKey> keys;
      for (int f = 0; f < clip.frameCount(); ++f)
        keys.push_back(linearKey(clip.timeOf(f), pulled[i][static_cast<std::size_t>(f)][c]));
      legs[i].target[c]->setKeys(std::move(keys));
    }
  }
}

// Per frame, how far the pelvis must drop for every leg to reach its lock target, as the rig
// would lower it on that frame alone.
std::vector<float> dropsToReach(const Skeleton& skeleton, const Clip& clip, const std::vector<ReachingLeg>& legs,
                                const Vec3& up) {
  std::vector<float> drops(static_cast<std::size_t>(clip.frameCount()), 0.0f);
  ModelPosePlayer player(skeleton, clip);
  for (int f = 0; f < clip.frameCount(); ++f) {
    const std::vector<Affine>& model = player.at(f);
    for (const ReachingLeg& leg : legs) {
      const Vec3 hip = model[static_cast<std::size_t>(leg.hip)].translation();
      const float reach = leg.reachFrom(hip, model[static_cast<std::size_t>(leg.tip)].translation());
      drops[static_cast<std::size_t>(f)] =
          std::max(drops[static_cast<std::size_t>(f)], dropToReach(hip, leg.targetAt(clip.timeOf(f)), up, reach));
    }
  }
  return drops;
}

// The drops eased in and out over `easeFrames` on either side: each frame's drop is the
// largest of its neighbours' scaled by a smoothstep of their distance, so it is never less
// than the frame's own need and the pelvis never snaps down or up.
std::vector<float> easedDrops(const std::vector<float>& drops, int easeFrames) {
  std::vector<float> eased(drops.size(), 0.0f);
  const auto n = static_cast<int>(drops.size());
  for (int k = 0; k < n; ++k) {
    const float need = drops[static_cast<std::size_t>(k)];
    if (!(need > 0.0f)) continue;
    for (int f = std::max(0, k - easeFrames); f <= std::min(n - 1, k + easeFrames); ++f) {
      const float x = static_cast<float>(std::abs(f - k)) / static_cast<float>(easeFrames + 1);
      eased[static_cast<std::size_t>(f)] =
          std::max(eased[static_cast<std::size_t>(f)], need * (1.0f - x * x * (3.0f - 2.0f * x)));
    }
  }
  return eased;
}

}  // namespace

void lowerPelvisToReachLocks(const Skeleton& skeleton, Clip& clip, const RigDefinition& rig,
                             const std::vector<FootLock>& feet) {
  const int pelvis = rig.grounding.pelvis;
  if (pelvis < 0 || pelvis >= skeleton.jointCount() || !(rig.grounding.upModel.norm() > 0.0f)) return;
  const Vec3 up = rig.grounding.upModel.normalized();
  const int easeFrames = std::max(1, static_cast<int>(std::lround(kLockEaseSeconds * clip.frameRate)));
  const std::vector<ReachingLeg> legs = reachingLegs(skeleton, clip, rig, feet);
  keepStretchOfLegsBesideFeet(skeleton, clip, legs);
  const std::vector<float> drops = easedDrops(dropsToReach(skeleton, clip, legs, up), easeFrames);
  if (std::none_of(drops.begin(), drops.end(), [](float d) { return d > 0.0f; })) return;
  std::vector<CurveKey> keys[3];
  ModelPosePlayer player(skeleton, clip);
  const int parent = skeleton.parent(pelvis);
  for (int f = 0; f < clip.frameCount(); ++f) {
    const std::vector<Affine>& model = player.at(f);
    const Mat3 parentLinear =
        parent == kNoParent ? Mat3(Mat3::Identity()) : Mat3(model[static_cast<std::size_t>(parent)].linear());
    const Vec3 lowered = player.local()[static_cast<std::size_t>(pelvis)].translation -
                         parentLinear.inverse() * (up * drops[static_cast<std::size_t>(f)]);
    for (int c = 0; c < 3; ++c) keys[c].push_back(linearKey(clip.timeOf(f), lowered[c]));
  }
  Vec3Track& translation = clip.trackFor(pelvis).translation;
  translation.x.setKeys(std::move(keys[0]));
  translation.y.setKeys(std::move(keys[1]));
  translation.z.setKeys(std::move(keys[2]));
}

std::optional<std::string> writeFootLockCurves(const Skeleton& skeleton, Clip& clip, const std::vector<FootLock>& feet,
                                               const Vec3& upModel, const Vec3& groundVelocityModel,
                                               const CharacterSoles* floor) {
  const int frames = clip.frameCount();
  if (frames == 0) return std::string("foot lock: the clip '" + clip.name + "' has no frames");
  if (!(upModel.norm() > 0.0f) || !upModel.allFinite()) return std::string("foot lock: the up vector is zero");
  if (auto error = checkFootLocks(skeleton, clip, feet)) return error;
  const Vec3 up = upModel.normalized();
  const std::vector<std::vector<FootSample>> samples = sampleFeet(skeleton, clip, feet, floor);
  for (std::size_t i = 0; i < feet.size(); ++i) {
    const FootLock& lock = feet[i];
    const std::vector<Vec3> offset = lockOffsets(lock, clip, samples[i], up, groundVelocityModel);
    std::vector<Vec3> target(offset.size());
    // The foot keeps the source's rotation on every frame: the leg's solve would otherwise
    // turn it with the shin.
    std::vector<Quat> orientation(offset.size());
    for (std::size_t f = 0; f < offset.size(); ++f) {
      target[f] = samples[i][f].ankle + offset[f];
      if (floor != nullptr) target[f] = aboveFloor(target[f], samples[i][f].soleBelowAnkle, *floor);
      orientation[f] = samples[i][f].rotation;
      // One hemisphere from frame to frame, so the curves interpolate along the short arc.
      if (f > 0 && orientation[f].dot(orientation[f - 1]) < 0.0f) orientation[f].coeffs() *= -1.0f;
    }
    if (lock.joints.legTip < 0) {
      writeHandleCurves(clip, lock.handle, target, orientation);
      continue;
    }
    // The foot holds itself; the leg's tip follows it at the animation's offset.
    const std::vector<Vec3> approach = plantApproach(lock, clip, samples[i], offset, up, groundVelocityModel);
    std::vector<Affine> parents;
    std::vector<Vec3> tips(target.size());
    for (std::size_t f = 0; f < target.size(); ++f) {
      parents.push_back(samples[i][f].footParent);
      tips[f] = target[f] + samples[i][f].legTip - samples[i][f].ankle;
      target[f] += approach[f];
    }
    writeFootTrack(clip, lock.joints.ankle, parents, target, orientation);
    writeHandleCurves(clip, lock.handle, tips, {});
  }
  return std::nullopt;
}

std::vector<float> slidePerContact(const Skeleton& skeleton, const Clip& clip, const FootLock& lock,
                                   const Vec3& upModel, const Vec3& groundVelocityModel) {
  const Vec3 up = upModel.normalized();
  ModelPosePlayer player(skeleton, clip);
  // Where the joint is at frame f, in the ground's frame, across the up.
  auto onGround = [&](int joint, int f) {
    const Vec3 p = Vec3(player.at(f)[static_cast<std::size_t>(joint)].translation()) -
                   groundVelocityModel * static_cast<float>(clip.timeOf(f) - clip.timeOf(0));
    return Vec3(p - up * up.dot(p));
  };
  const bool ankleAlways = lock.ankle.empty() && lock.toe.empty();
  auto held = [&](int f) {
    if (ankleAlways || within(lock.ankle, f)) return lock.joints.ankle;
    return lock.joints.toe >= 0 && within(lock.toe, f) ? lock.joints.toe : -1;
  };
  std::vector<float> slides;
  for (const ContactInterval& contact : lock.foot) {
    float path = 0.0f;
    for (int f = contact.first + 1; f <= contact.last; ++f) {
      const int joint = held(f);
      if (joint >= 0 && joint == held(f - 1)) path += (onGround(joint, f) - onGround(joint, f - 1)).norm();
    }
    slides.push_back(path);
  }
  return slides;
}

}  // namespace articula
