#include "core/bake/skate_cleanup.h"

#include <algorithm>
#include <cmath>

#include "core/bake/dense_clip.h"
#include "core/bake/rig_corrector.h"
#include "core/skeleton/local_to_model.h"

namespace articula {
namespace {

bool within(const std::vector<ContactInterval>& intervals, int frame) {
  return std::any_of(intervals.begin(), intervals.end(),
                     [&](const ContactInterval& c) { return frame >= c.first && frame <= c.last; });
}

// The frames where a stride curve is 1 (planted), as intervals.
std::vector<ContactInterval> plantedIntervals(const Clip& clip, const Curve& stride) {
  std::vector<ContactInterval> intervals;
  for (int f = 0; f < clip.frameCount(); ++f) {
    if (!(stride.evaluate(clip.timeOf(f)) >= 0.999)) continue;
    if (!intervals.empty() && intervals.back().last == f - 1)
      intervals.back().last = f;
    else
      intervals.push_back({f, f});
  }
  return intervals;
}

// The yaw turn, about `up`, that takes the horizontal part of `from` onto that of `to`
// (identity when either is vertical).
Quat yawBetween(const Vec3& from, const Vec3& to, const Vec3& up) {
  const Vec3 a = from - up * up.dot(from);
  const Vec3 b = to - up * up.dot(to);
  if (!(a.norm() > 1e-6f && b.norm() > 1e-6f)) return Quat::Identity();
  const float angle = std::atan2(up.dot(a.cross(b)), a.dot(b));
  return Quat(Eigen::AngleAxisf(angle, up));
}

// A clip played into model space frame by frame: the rest pose fills the channels the clip
// does not animate. One buffer set, reused for every frame.
class ModelPosePlayer {
 public:
  ModelPosePlayer(const Skeleton& skeleton, const Clip& clip)
      : mSkeleton(skeleton),
        mClip(clip),
        mSampler(&clip),
        mRest(skeleton.restPose().begin(), skeleton.restPose().end()),
        mPose(mRest),
        mModel(static_cast<std::size_t>(skeleton.jointCount())) {}

  // Model matrices of every joint at frame f.
  const std::vector<Affine>& at(int f) {
    std::copy(mRest.begin(), mRest.end(), mPose.begin());
    mSampler.sample(mClip.timeOf(f), mPose);
    LocalToModelJob fk;
    fk.skeleton = &mSkeleton;
    fk.local = mPose;
    fk.model = mModel;
    fk.run();
    return mModel;
  }

 private:
  const Skeleton& mSkeleton;
  const Clip& mClip;
  ClipSampler mSampler;
  const Pose mRest;
  Pose mPose;
  std::vector<Affine> mModel;
};

}  // namespace

namespace {

// A foot beside its leg (an IK bone) is held by its own keys, one per frame, in its
// parent's space.
void writeFootTrack(Clip& clip, int foot, const std::vector<Affine>& parentModel, const std::vector<Vec3>& positionModel,
                    const std::vector<Quat>& rotationModel) {
  std::vector<CurveKey> keys[3];
  std::vector<RotationKey> rotations;
  for (std::size_t f = 0; f < positionModel.size(); ++f) {
    const double t = clip.timeOf(static_cast<int>(f));
    const Vec3 local = parentModel[f].inverse(Eigen::Affine) * positionModel[f];
    for (int c = 0; c < 3; ++c) keys[c].push_back(linearKey(t, local[c]));
    RotationKey key;
    key.time = t;
    key.value = (Quat(parentModel[f].linear()).conjugate() * rotationModel[f]).normalized();
    rotations.push_back(key);
  }
  JointTrack& track = clip.trackFor(foot);
  track.translation.x.setKeys(std::move(keys[0]));
  track.translation.y.setKeys(std::move(keys[1]));
  track.translation.z.setKeys(std::move(keys[2]));
  track.rotation.setKeys(std::move(rotations));
}

// How long a held foot takes to rejoin its animation after a contact: the offset a contact
// ends with (the source's skate, up to a few centimetres) eases out over this, or half the
// gap to the next contact if shorter, so the knee does not snap the foot back.
constexpr double kReleaseSeconds = 0.15;

// Per frame after a contact, within its release: the contact's last frame and the share of
// its offset still applied (eased from 1 to 0); contactEnd -1 elsewhere.
struct Release {
  int contactEnd = -1;
  float weight = 0.0f;
};

std::vector<Release> releaseWeights(const std::vector<ContactInterval>& contacts, int frames, double frameRate) {
  std::vector<Release> releases(static_cast<std::size_t>(frames));
  const int releaseFrames = std::max(1, static_cast<int>(std::lround(kReleaseSeconds * frameRate)));
  for (std::size_t c = 0; c < contacts.size(); ++c) {
    const int end = contacts[c].last;
    const int span =
        c + 1 < contacts.size() ? std::min(releaseFrames, (contacts[c + 1].first - end) / 2) : releaseFrames;
    for (int f = end + 1; f <= std::min(end + span, frames - 1); ++f) {
      const float x = static_cast<float>(f - end) / static_cast<float>(span + 1);
      releases[static_cast<std::size_t>(f)] = {end, 1.0f - x * x * (3.0f - 2.0f * x)};
    }
  }
  return releases;
}

}  // namespace

std::optional<std::string> writeFootLockCurves(const Skeleton& skeleton, Clip& clip, const std::vector<FootLock>& feet,
                                               const Vec3& upModel, const Vec3& groundVelocityModel) {
  const int frames = clip.frameCount();
  if (frames == 0) return std::string("foot lock: the clip '" + clip.name + "' has no frames");
  if (!(upModel.norm() > 0.0f) || !upModel.allFinite()) return std::string("foot lock: the up vector is zero");
  const Vec3 up = upModel.normalized();
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

  // The animated ankles and toes, model space, and the ankles' model rotations; for a foot
  // beside its leg, the leg's tip and the foot's parent too.
  struct Sample {
    Vec3 ankle, toe, legTip;
    Quat rotation;
    Affine footParent = Affine::Identity();
  };
  std::vector<std::vector<Sample>> samples(feet.size(), std::vector<Sample>(static_cast<std::size_t>(frames)));
  {
    ModelPosePlayer player(skeleton, clip);
    for (int f = 0; f < frames; ++f) {
      const std::vector<Affine>& model = player.at(f);
      for (std::size_t i = 0; i < feet.size(); ++i) {
        const Affine& ankle = model[static_cast<std::size_t>(feet[i].joints.ankle)];
        Sample& s = samples[i][static_cast<std::size_t>(f)];
        s.ankle = ankle.translation();
        s.rotation = Quat(ankle.linear()).normalized();
        // Without a toe, a point ahead along the ankle's own X axis gives the yaw.
        s.toe = feet[i].joints.toe >= 0 ? Vec3(model[static_cast<std::size_t>(feet[i].joints.toe)].translation())
                                        : Vec3(s.ankle + ankle.linear().col(0));
        if (feet[i].joints.legTip >= 0) {
          s.legTip = model[static_cast<std::size_t>(feet[i].joints.legTip)].translation();
          const int parent = skeleton.parent(feet[i].joints.ankle);
          if (parent != kNoParent) s.footParent = model[static_cast<std::size_t>(parent)];
        }
      }
    }
  }

  // On an in-place cycle the ground moves: the lock works in the ground's frame (positions
  // less the treadmill's travel since the first frame) and the targets travel with it.
  auto groundTravel = [&](int f) {
    return Vec3(groundVelocityModel * static_cast<float>(clip.timeOf(f) - clip.timeOf(0)));
  };
  for (std::size_t i = 0; i < feet.size(); ++i) {
    const FootLock& lock = feet[i];
    std::vector<Sample> anim = samples[i];
    for (int f = 0; f < frames; ++f) {
      anim[static_cast<std::size_t>(f)].ankle -= groundTravel(f);
      anim[static_cast<std::size_t>(f)].toe -= groundTravel(f);
    }
    std::vector<Vec3> target(anim.size());
    std::vector<Quat> orientation(anim.size());
    for (std::size_t f = 0; f < anim.size(); ++f) {
      target[f] = anim[f].ankle;
      orientation[f] = anim[f].rotation;
    }
    const bool toeKnown = lock.joints.toe >= 0;
    // A held ankle stays where it landed across the up, at its animated height (the heel
    // settling, rising about the toe) raised to its floor.
    auto standing = [&](const Vec3& heldModel, std::size_t k) {
      float height = up.dot(anim[k].ankle);
      if (!lock.ankleFloorModel.empty()) height = std::max(height, lock.ankleFloorModel[k]);
      return Vec3(heldModel + up * (height - up.dot(heldModel)));
    };
    for (const ContactInterval& contact : lock.foot) {
      const auto first = static_cast<std::size_t>(contact.first);
      const Vec3 landedForward = anim[first].toe - anim[first].ankle;
      // Plain flags, not optional<Vec3>: g++ 12 warns falsely on the latter.
      bool ankleHolds = false, toeHolds = false;
      Vec3 ankleHeld = Vec3::Zero(), toeHeld = Vec3::Zero();
      for (int f = contact.first; f <= contact.last; ++f) {
        const auto k = static_cast<std::size_t>(f);
        const Vec3 forward = anim[k].toe - anim[k].ankle;
        const Quat yaw = yawBetween(forward, landedForward, up);
        const Vec3 toeOffset = yaw * forward;  // ankle to toe, landing yaw
        // Where the ankle is if nothing holds it: carried along by the animation. Each hold
        // starts there, so the ankle never jumps from one hold to the next.
        const Vec3 carried =
            f == contact.first ? anim[k].ankle : Vec3(target[k - 1] + anim[k].ankle - anim[k - 1].ankle);
        // A rigid foot cannot keep both joints still while the heel rises: the ankle, which
        // carries the leg, wins; the toe holds once the ankle has lifted.
        const bool anklePlanted = within(lock.ankle, f) || (lock.ankle.empty() && lock.toe.empty());
        const bool toePlanted = !anklePlanted && toeKnown && within(lock.toe, f);
        if (anklePlanted) {
          if (!ankleHolds) ankleHeld = carried;
          target[k] = standing(ankleHeld, k);
        } else if (toePlanted) {
          if (!toeHolds) toeHeld = carried + toeOffset;
          target[k] = toeHeld - toeOffset;  // the ankle turns about the held toe
        } else {
          target[k] = carried;
        }
        ankleHolds = anklePlanted;
        toeHolds = toePlanted;
        orientation[k] = (yaw * anim[k].rotation).normalized();
      }
    }
    // Where the stride curve ramps outside a contact, hold the nearest contact's targets;
    // before a contact, the offset the contact starts with, carried by the animation: the
    // swing foot is not pulled ahead to where it will land (on CMU 09_11 that stretched the
    // leg to its reach limit over the ramp and let the knee bend back 11.5° at the landing).
    const Curve& stride = clip.curves.at(lock.joints.curveName);
    for (int f = 0; f < frames && !lock.foot.empty(); ++f) {
      if (within(lock.foot, f) || !(stride.evaluate(clip.timeOf(f)) > 0.0)) continue;
      int nearest = lock.foot.front().first;
      for (const ContactInterval& c : lock.foot) {
        for (const int edge : {c.first, c.last}) {
          if (std::abs(edge - f) < std::abs(nearest - f)) nearest = edge;
        }
      }
      const auto k = static_cast<std::size_t>(f);
      const auto n = static_cast<std::size_t>(nearest);
      if (nearest > f) {
        target[k] = anim[k].ankle + (target[n] - anim[n].ankle);
        orientation[k] = (orientation[n] * anim[n].rotation.conjugate() * anim[k].rotation).normalized();
      } else {
        target[k] = target[n];
        orientation[k] = orientation[n];
      }
    }
    // One hemisphere from frame to frame, so the curves interpolate along the short arc.
    for (std::size_t f = 1; f < orientation.size(); ++f) {
      if (orientation[f].dot(orientation[f - 1]) < 0.0f) orientation[f].coeffs() *= -1.0f;
    }
    // The lock eases in with the stride curve and out over the release (releaseWeights), on
    // the targets themselves, so the leg solves at full weight on every frame: a frame it
    // does not reach is one it cannot reach. On a treadmill the offset a contact ends with is
    // the animator's eased stance spacing against the ground's even one, up to a stride's
    // share: carried into the swing it would pull the foot out of the leg's reach, so there
    // the stride curve's ramp lets go as it takes hold.
    const bool treadmill = groundVelocityModel.squaredNorm() > 0.0f;
    const std::vector<Release> releases = treadmill ? std::vector<Release>(static_cast<std::size_t>(frames))
                                                    : releaseWeights(lock.foot, frames, clip.frameRate);
    for (int f = 0; f < frames; ++f) {
      const auto k = static_cast<std::size_t>(f);
      const Sample& animated = samples[i][k];
      if (const Release& r = releases[k]; r.contactEnd >= 0) {
        const auto end = static_cast<std::size_t>(r.contactEnd);
        const Vec3 offset = target[end] + groundTravel(r.contactEnd) - samples[i][end].ankle;
        const Quat turn = (orientation[end] * samples[i][end].rotation.conjugate()).normalized();
        target[k] = animated.ankle + offset * r.weight;
        orientation[k] = (Quat::Identity().slerp(r.weight, turn) * animated.rotation).normalized();
        continue;
      }
      const auto w = static_cast<float>(std::clamp(stride.evaluate(clip.timeOf(f)), 0.0, 1.0));
      target[k] = animated.ankle + (target[k] + groundTravel(f) - animated.ankle) * w;
      orientation[k] = animated.rotation.slerp(w, orientation[k]).normalized();
    }
    // A foot beside its leg moves by its own keys, a line between two frames: the frame before
    // a contact comes halfway across to where the foot will hold, or from the animation's
    // approach speed a player stepping at 120 Hz shows it skidding into its plant
    // (RobotExpressive Running: 1.2 mm per step). Not a foot at the end of its leg: pulled
    // ahead, the leg straightens and its knee pops (MakeHuman walk1: 41° in one frame).
    for (const ContactInterval& c : lock.foot) {
      const int f = c.first - 1;
      if (lock.joints.legTip < 0 || f < 0 || within(lock.foot, f)) continue;
      const auto k = static_cast<std::size_t>(f);
      Vec3 across = target[static_cast<std::size_t>(c.first)] - groundTravel(c.first) + groundTravel(f) - target[k];
      across -= up * up.dot(across);
      target[k] += 0.5f * across;
    }
    if (lock.joints.legTip >= 0) {
      // The foot holds itself; the leg's tip follows it at the animation's offset.
      std::vector<Affine> parents;
      for (const Sample& s : samples[i]) parents.push_back(s.footParent);
      writeFootTrack(clip, lock.joints.ankle, parents, target, orientation);
      std::vector<CurveKey> keys[3];
      for (int f = 0; f < frames; ++f) {
        const auto k = static_cast<std::size_t>(f);
        const Vec3 tip = target[k] + samples[i][k].legTip - samples[i][k].ankle;
        for (int c = 0; c < 3; ++c) keys[c].push_back(linearKey(clip.timeOf(f), tip[c]));
      }
      const char* channels[3] = {"target.x", "target.y", "target.z"};
      for (int c = 0; c < 3; ++c) clip.curves[handleCurveName(lock.handle, channels[c])].setKeys(std::move(keys[c]));
      clip.curves.erase(handleCurveName(lock.handle, "weight"));
      continue;
    }

    std::vector<CurveKey> keys[7];
    for (int f = 0; f < frames; ++f) {
      const auto k = static_cast<std::size_t>(f);
      const double t = clip.timeOf(f);
      for (int c = 0; c < 3; ++c) keys[c].push_back(linearKey(t, target[k][c]));
      keys[3].push_back(linearKey(t, orientation[k].w()));
      for (int c = 0; c < 3; ++c) keys[4 + c].push_back(linearKey(t, orientation[k].vec()[c]));
    }
    const char* channels[7] = {"target.x",      "target.y",      "target.z",     "orientation.w",
                               "orientation.x", "orientation.y", "orientation.z"};
    for (int c = 0; c < 7; ++c) clip.curves[handleCurveName(lock.handle, channels[c])].setKeys(std::move(keys[c]));
    clip.curves.erase(handleCurveName(lock.handle, "weight"));
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

namespace {

// The legs' second reduction runs at this fraction of the tolerance: a held foot's wobble
// from frame to frame adds up over a contact (slide is measured as travel), and the legs'
// keys are a small part of the clip's.
constexpr float kHeldFootToleranceScale = 0.1f;

// Samples per frame for the legs: at least kPlaybackRate, so a held foot stays put between
// the keys of a slower clip, where each leg joint's own interpolation would swing it
// (MakeHuman walk1 at 24 fps: 2.4 / 6.6 mm slide per span at 120 Hz). The contacts and locks
// stay at the clip's rate, interpolated. A capture a hair faster than 120 fps (CMU's frame
// time of 0.0083333 s) needs none between its frames.
int legSubframes(double frameRate) {
  return std::max(1, static_cast<int>(std::ceil(kPlaybackRate / frameRate - 1e-6)));
}

// Where the legs solve between frames: while a foot held by its leg is locked, from a
// release's length before each contact (the lock eases in) to one after it (it eases out).
// A foot beside its leg holds itself by its own keys, and a swinging leg's path between
// frames may be its keys' interpolation: sub-frame keys there would only cost.
std::vector<std::pair<double, double>> heldSpans(const std::vector<FootLock>& feet, const Clip& clip) {
  std::vector<std::pair<double, double>> spans;
  for (const FootLock& lock : feet) {
    if (lock.joints.legTip >= 0) continue;
    for (const ContactInterval& c : lock.foot)
      spans.emplace_back(clip.timeOf(c.first) - kReleaseSeconds, clip.timeOf(c.last) + kReleaseSeconds);
  }
  return spans;
}

// Times of `rotation`'s keys while `lock` holds its foot: from a release's length before each
// contact (the lock eases in) to a release's length after it (it eases out); times of `clip`.
std::vector<double> keyTimesWhileHeld(const RotationTrack& rotation, const Clip& clip, const FootLock& lock) {
  std::vector<double> times;
  for (const RotationKey& key : rotation.keys()) {
    const bool held = std::any_of(lock.foot.begin(), lock.foot.end(), [&](const ContactInterval& c) {
      return key.time >= clip.timeOf(c.first) - kReleaseSeconds && key.time <= clip.timeOf(c.last) + kReleaseSeconds;
    });
    if (held) times.push_back(key.time);
  }
  return times;
}

// The joints that carry `foot` below the pelvis: its leg handle's chain, its toe, and the
// foot itself when it is beside the leg.
std::vector<int> footLegJoints(const Rig& legs, const std::string& handle, const FootJoints& foot) {
  std::vector<int> joints;
  if (const int index = legs.findHandle(handle); index >= 0) joints = legs.handle(index).chain;
  if (foot.toe >= 0) joints.push_back(foot.toe);
  if (foot.legTip >= 0) joints.push_back(foot.ankle);
  return joints;
}

struct Plan {
  std::vector<FootJoints> feet;
  std::vector<std::string> handles;  // leg handle per foot
};

Result<Plan> planFeet(const Skeleton& skeleton, const RigDefinition& rig) {
  auto feet = humanoidFeet(skeleton);
  if (!feet) return makeError("skate cleanup: " + feet.error());
  Plan plan;
  for (const FootJoints& foot : *feet) {
    const auto handle = std::find_if(rig.handles.begin(), rig.handles.end(), [&](const IkHandle& h) {
      return (h.role == HandleRole::LeftLeg || h.role == HandleRole::RightLeg) && !h.chain.empty() &&
             h.chain.back() == (foot.legTip >= 0 ? foot.legTip : foot.ankle);
    });
    if (handle == rig.handles.end()) {
      return makeError("skate cleanup: the rig '" + rig.name + "' has no leg handle ending at the ankle of " +
                       foot.curveName);
    }
    plan.feet.push_back(foot);
    plan.handles.push_back(handle->name);
  }
  return plan;
}

}  // namespace

std::optional<std::string> SkateCleanupJob::validate() const {
  if (scene == nullptr) return std::string("skate cleanup: no scene");
  if (source == nullptr && consumedSource == nullptr) return std::string("skate cleanup: no source clip");
  if (source != nullptr && consumedSource != nullptr)
    return std::string("skate cleanup: both a source clip and a clip to consume");
  const Clip& input = source != nullptr ? *source : *consumedSource;
  if (rig == nullptr) return std::string("skate cleanup: no rig");
  if (output == nullptr) return std::string("skate cleanup: no output clip");
  auto plan = planFeet(scene->skeleton, *rig);
  if (!plan) return plan.error();
  if (!options.detect) {
    for (const FootJoints& foot : plan->feet) {
      if (input.curves.count(foot.curveName) == 0)
        return "skate cleanup: clip '" + input.name + "' has no stride curve '" + foot.curveName +
               "' to keep (detect the contacts instead)";
    }
  }
  auto bound = Rig::bind(scene->skeleton, *rig);
  if (!bound) return "skate cleanup: " + bound.error();
  return std::nullopt;
}

Result<SkateCleanupReport> SkateCleanupJob::run() const {
  if (auto error = validate()) return makeError(*error);
  const Skeleton& skeleton = scene->skeleton;
  const Plan plan = *planFeet(skeleton, *rig);
  SkateCleanupReport report;
  Clip working = source != nullptr ? *source : std::move(*consumedSource);
  if (options.detect) {
    ContactDetectionOptions detectionOptions = options.detection;
    detectionOptions.upModel = rig->grounding.upModel;
    auto detection = detectContacts(*scene, working, plan.feet, detectionOptions);
    if (!detection) return makeError("skate cleanup: " + detection.error());
    report.groundVelocityModel = detection->groundVelocityModel;
    for (std::size_t i = 0; i < plan.feet.size(); ++i) {
      const FootContacts& contacts = detection->feet[i];
      report.feet.push_back(
          {plan.handles[i], plan.feet[i], contacts.foot, contacts.ankle, contacts.toe, contacts.ankleFloorModel});
    }
  } else {
    for (std::size_t i = 0; i < plan.feet.size(); ++i) {
      const auto intervals = plantedIntervals(working, working.curves.at(plan.feet[i].curveName));
      report.feet.push_back({plan.handles[i], plan.feet[i], intervals, intervals, {}, {}});
    }
  }
  // The source's slides, measured before the lock writes into the working clip (a foot beside
  // its leg gets keys of its own there).
  for (const FootLock& lock : report.feet) {
    report.slideBeforeModel.push_back(
        slidePerContact(skeleton, working, lock, rig->grounding.upModel, report.groundVelocityModel));
  }
  if (auto error =
          writeFootLockCurves(skeleton, working, report.feet, rig->grounding.upModel, report.groundVelocityModel))
    return makeError("skate cleanup: " + *error);

  auto bound = Rig::bind(skeleton, *rig);
  if (!bound) return makeError("skate cleanup: " + bound.error());
  Rig& legs = *bound;
  // Only the legs solve (the other handles are off) and with no ground: the rig's
  // grounding would move the locked targets onto the ground along its rays.
  legs.setGroundingEnabled(false);
  legs.setLowerPelvisToTargets(true);
  for (int i = 0; i < legs.handleCount(); ++i) {
    const bool isLeg = std::find(plan.handles.begin(), plan.handles.end(), legs.handle(i).name) != plan.handles.end();
    legs.setEnabled(i, isLeg);
  }
  RigPoseCorrector corrector(legs);
  Clip baked;
  BakeJob bake;
  bake.skeleton = &skeleton;
  bake.source = &working;
  bake.corrector = &corrector;
  bake.options = options.bake;
  // The curves (stride and per-frame lock curves) move from clip to clip instead.
  bake.options.copyCurves = false;
  // The locks ease in and out: a contact's start and end need no key of their own (without
  // them the judge's slides stayed or shrank: CMU 02_01 left 0.54 -> 0.30 mm).
  bake.options.keyContactEdges = false;
  bake.output = &baked;
  bake.progress = progress;
  auto bakeReport = bake.run();
  if (!bakeReport) return makeError(bakeReport.error());
  baked.curves = std::move(working.curves);
  report.bake = std::move(*bakeReport);
  // The reduction smooths the body (the hips' capture noise) and the legs, which the rig had
  // bent to cancel that noise, separately: a held foot would wobble by up to the tolerance
  // from frame to frame. So the legs are solved again on the reduced body and only they (and
  // the pelvis) are reduced, now against smooth parents.
  // The legs and the pelvis's translation start again from the source's (dense) channels, so
  // the reduced keys of the first pass are not taken for the user's own keys to keep.
  if (bake.options.reduce) {
    Clip body = std::move(baked);
    std::vector<int> legJoints;
    for (int i = 0; i < legs.handleCount(); ++i) {
      if (!legs.handle(i).enabled) continue;
      legJoints.insert(legJoints.end(), legs.handle(i).chain.begin(), legs.handle(i).chain.end());
    }
    for (const int toe : {rig->grounding.left.toe, rig->grounding.right.toe}) {
      if (toe >= 0) legJoints.push_back(toe);
    }
    // A foot beside its leg holds itself by its own keys: they take the legs' tolerance too.
    for (const FootJoints& foot : plan.feet) {
      if (foot.legTip >= 0) legJoints.push_back(foot.ankle);
    }
    std::sort(legJoints.begin(), legJoints.end());
    legJoints.erase(std::unique(legJoints.begin(), legJoints.end()), legJoints.end());
    // The working clip's tracks move into the body and the rest of it is freed: on a long
    // take it holds the source's keys and the lock curves, which the body has copied.
    auto workingTrack = [&](int joint) {
      const auto it = std::find_if(working.tracks.begin(), working.tracks.end(),
                                   [&](const JointTrack& t) { return t.joint == joint; });
      return it == working.tracks.end() ? nullptr : &*it;
    };
    for (const int joint : legJoints) {
      body.tracks.erase(
          std::remove_if(body.tracks.begin(), body.tracks.end(), [&](const JointTrack& t) { return t.joint == joint; }),
          body.tracks.end());
      if (JointTrack* track = workingTrack(joint)) body.tracks.push_back(std::move(*track));
    }
    const int pelvis = rig->grounding.pelvis;
    if (JointTrack* track = workingTrack(pelvis); track != nullptr && pelvis >= 0)
      body.trackFor(pelvis).translation = std::move(track->translation);
    working = Clip{};
    BakeJob legsBake = bake;
    legsBake.source = &body;
    legsBake.options.joints = legJoints;
    legsBake.options.reduction.toleranceModel *= kHeldFootToleranceScale;
    legsBake.options.subframeSpans = heldSpans(report.feet, body);
    if (!legsBake.options.subframeSpans.empty()) legsBake.options.subframes = legSubframes(body.frameRate);
    // The legs were solved against the first pass's reduced pelvis rotation: holding a foot,
    // a leg counters each change of its curve (a key), so it is keyed there too while its
    // foot is held, and the pelvis's height while either is (without those keys a held foot
    // of CMU 01_01 slid up to 5 mm); a swinging leg needs no such key.
    if (const JointTrack* track = body.findTrack(pelvis); track != nullptr && pelvis >= 0) {
      KeyReductionOptions& reduction = legsBake.options.reduction;
      for (std::size_t i = 0; i < report.feet.size(); ++i) {
        const std::vector<double> held = keyTimesWhileHeld(track->rotation, body, report.feet[i]);
        for (const int joint : footLegJoints(legs, plan.handles[i], plan.feet[i]))
          reduction.jointKeepTimes[joint].rotation = held;
        std::vector<double>& pelvisTimes = reduction.jointKeepTimes[pelvis].translation;
        pelvisTimes.insert(pelvisTimes.end(), held.begin(), held.end());
      }
    }
    if (pelvis >= 0) legsBake.options.joints.push_back(pelvis);
    legsBake.progress = nullptr;
    auto legsReport = legsBake.run();
    if (!legsReport) return makeError(legsReport.error());
    baked.curves = std::move(body.curves);
    // The legs were solved against the pelvis's rotation of the first pass: reducing it
    // again would turn the held feet by the difference.
    if (const JointTrack* track = body.findTrack(pelvis); track != nullptr && pelvis >= 0)
      baked.trackFor(pelvis).rotation = track->rotation;
    report.bake.unreached = std::move(legsReport->unreached);
    report.bake.refusedFrames = legsReport->refusedFrames;
    report.bake.reduction.keysAfter = channelKeyCount(baked);
    report.bake.reduction.maxDeviationModel =
        std::max(report.bake.reduction.maxDeviationModel, legsReport->reduction.maxDeviationModel);
  }
  // The lock curves are spent: the baked keys hold their effect.
  for (const std::string& handle : plan.handles) {
    for (auto it = baked.curves.begin(); it != baked.curves.end();) {
      const bool lockCurve = it->first.rfind(handleCurveName(handle, ""), 0) == 0;
      it = lockCurve ? baked.curves.erase(it) : std::next(it);
    }
  }
  *output = std::move(baked);
  return report;
}

}  // namespace articula
