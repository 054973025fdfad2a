#include "core/bake/skate_cleanup.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "core/bake/dense_clip.h"
#include "core/bake/leading_rest_frame.h"
#include "core/bake/rig_corrector.h"
#include "core/bake/skate_cleanup_sampling.h"

namespace articula {
namespace {

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
      spans.emplace_back(clip.timeOf(c.first) - kLockEaseSeconds, clip.timeOf(c.last) + kLockEaseSeconds);
  }
  return spans;
}

// Times of `rotation`'s keys while `lock` holds its foot: from a release's length before each
// contact (the lock eases in) to a release's length after it (it eases out); times of `clip`.
std::vector<double> keyTimesWhileHeld(const RotationTrack& rotation, const Clip& clip, const FootLock& lock) {
  std::vector<double> times;
  for (const RotationKey& key : rotation.keys()) {
    const bool held = std::any_of(lock.foot.begin(), lock.foot.end(), [&](const ContactInterval& c) {
      return key.time >= clip.timeOf(c.first) - kLockEaseSeconds && key.time <= clip.timeOf(c.last) + kLockEaseSeconds;
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

namespace {

// The contacts to lock, per foot of `plan`: detected (the stride curves rewritten), or the
// clip's own stride curves (the ankle held for each whole contact).
std::optional<std::string> findContacts(const Scene& scene, Clip& working, const Plan& plan, const RigDefinition& rig,
                                        const SkateCleanupOptions& options, SkateCleanupReport& report) {
  if (!options.detect) {
    for (std::size_t i = 0; i < plan.feet.size(); ++i) {
      const auto intervals = plantedIntervals(working, working.curves.at(plan.feet[i].curveName));
      report.feet.push_back({plan.handles[i], plan.feet[i], intervals, intervals, {}, {}});
    }
    return std::nullopt;
  }
  ContactDetectionOptions detectionOptions = options.detection;
  detectionOptions.upModel = rig.grounding.upModel;
  auto detection = detectContacts(scene, working, plan.feet, detectionOptions);
  if (!detection) return detection.error();
  report.groundVelocityModel = detection->groundVelocityModel;
  for (std::size_t i = 0; i < plan.feet.size(); ++i) {
    const FootContacts& contacts = detection->feet[i];
    report.feet.push_back(
        {plan.handles[i], plan.feet[i], contacts.foot, contacts.ankle, contacts.toe, contacts.ankleFloorModel});
  }
  return std::nullopt;
}

// The rig with only the feet's leg handles on and no ground: the rig's grounding would move
// the locked targets onto the ground along its rays. The pelvis lowers where a leg cannot
// reach its target.
Rig bindLegs(Rig legs, const Plan& plan) {
  legs.setGroundingEnabled(false);
  legs.setLowerPelvisToTargets(true);
  for (int i = 0; i < legs.handleCount(); ++i) {
    const bool isLeg = std::find(plan.handles.begin(), plan.handles.end(), legs.handle(i).name) != plan.handles.end();
    legs.setEnabled(i, isLeg);
  }
  return legs;
}

// Every joint's group for the displacement figures: the feet (ankles, toes and below), the
// legs' other joints, the pelvis, and the rest (the upper body, and any node above it).
std::vector<JointGroup> jointGroups(const Skeleton& skeleton, const Rig& legs, const Plan& plan, int pelvis) {
  std::vector<JointGroup> groups(static_cast<std::size_t>(skeleton.jointCount()), JointGroup::UpperBody);
  for (std::size_t i = 0; i < plan.feet.size(); ++i) {
    for (const int joint : footLegJoints(legs, plan.handles[i], plan.feet[i]))
      groups[static_cast<std::size_t>(joint)] = JointGroup::Legs;
  }
  for (const FootJoints& foot : plan.feet) groups[static_cast<std::size_t>(foot.ankle)] = JointGroup::Feet;
  for (int j = 0; j < skeleton.jointCount(); ++j) {
    const int parent = skeleton.parent(j);
    if (parent == kNoParent) continue;
    const JointGroup above = groups[static_cast<std::size_t>(parent)];
    // Parents come first: a foot's children are feet, a leg's children that are not on the
    // leg are the leg's too (a twist bone).
    if (above == JointGroup::Feet ||
        (above == JointGroup::Legs && groups[static_cast<std::size_t>(j)] != JointGroup::Feet))
      groups[static_cast<std::size_t>(j)] = above;
  }
  if (pelvis >= 0) groups[static_cast<std::size_t>(pelvis)] = JointGroup::Pelvis;
  return groups;
}

// The joints the second pass bakes again: the leg handles' chains, the toes, and the feet
// beside their legs (they hold themselves by their own keys).
std::vector<int> legJointsOf(const Rig& legs, const RigDefinition& rig, const Plan& plan) {
  std::vector<int> joints;
  for (int i = 0; i < legs.handleCount(); ++i) {
    if (!legs.handle(i).enabled) continue;
    joints.insert(joints.end(), legs.handle(i).chain.begin(), legs.handle(i).chain.end());
  }
  for (const int toe : {rig.grounding.left.toe, rig.grounding.right.toe}) {
    if (toe >= 0) joints.push_back(toe);
  }
  for (const FootJoints& foot : plan.feet) {
    if (foot.legTip >= 0) joints.push_back(foot.ankle);
  }
  std::sort(joints.begin(), joints.end());
  joints.erase(std::unique(joints.begin(), joints.end()), joints.end());
  return joints;
}

// The first pass's clip with the legs' tracks and the pelvis's translation taken again from
// the working clip (the source's dense channels), which is freed: on a long take it holds
// the source's keys and the lock curves, which the body has copied.
Clip bodyWithSourceLegs(Clip body, Clip& working, const std::vector<int>& legJoints, int pelvis) {
  auto workingTrack = [&](int joint) {
    const auto it = std::find_if(working.tracks.begin(), working.tracks.end(),
                                 [&](const JointTrack& t) { return t.joint == joint; });
    return it == working.tracks.end() ? nullptr : &*it;
  };
  for (const int joint : legJoints) {
    std::erase_if(body.tracks, [&](const JointTrack& t) { return t.joint == joint; });
    if (JointTrack* track = workingTrack(joint)) body.tracks.push_back(std::move(*track));
  }
  if (JointTrack* track = workingTrack(pelvis); track != nullptr && pelvis >= 0)
    body.trackFor(pelvis).translation = std::move(track->translation);
  working = Clip{};
  return body;
}

// The legs were solved against the first pass's reduced pelvis rotation: holding a foot, a
// leg counters each change of its curve (a key), so it is keyed there too while its foot is
// held, and the pelvis's height while either is (without those keys a held foot of CMU
// 01_01 slid up to 5 mm); a swinging leg needs no such key.
void keepPelvisKeysWhileHeld(const Clip& body, const Rig& legs, const Plan& plan, const std::vector<FootLock>& feet,
                             int pelvis, KeyReductionOptions& reduction) {
  const JointTrack* track = body.findTrack(pelvis);
  if (track == nullptr || pelvis < 0) return;
  for (std::size_t i = 0; i < feet.size(); ++i) {
    const std::vector<double> held = keyTimesWhileHeld(track->rotation, body, feet[i]);
    for (const int joint : footLegJoints(legs, plan.handles[i], plan.feet[i]))
      reduction.jointKeepTimes[joint].rotation = held;
    std::vector<double>& pelvisTimes = reduction.jointKeepTimes[pelvis].translation;
    pelvisTimes.insert(pelvisTimes.end(), held.begin(), held.end());
  }
}

// The reduction smooths the body (the hips' capture noise) and the legs, which the rig had
// bent to cancel that noise, separately: a held foot would wobble by up to the tolerance
// from frame to frame. So the legs are solved again on the reduced body and only they (and
// the pelvis) are reduced, now against smooth parents. The legs and the pelvis's
// translation start again from the source's (dense) channels, so the reduced keys of the
// first pass are not taken for the user's own keys to keep.
std::optional<std::string> bakeLegsAgain(const BakeJob& firstPass, Clip& baked, Clip& working, const Rig& legs,
                                         const RigDefinition& rig, const Plan& plan, SkateCleanupReport& report) {
  const int pelvis = rig.grounding.pelvis;
  const std::vector<int> legJoints = legJointsOf(legs, rig, plan);
  Clip body = bodyWithSourceLegs(std::move(baked), working, legJoints, pelvis);
  BakeJob legsBake = firstPass;
  legsBake.source = &body;
  legsBake.output = &baked;
  legsBake.options.joints = legJoints;
  legsBake.options.reduction.toleranceModel *= kHeldFootToleranceScale;
  legsBake.options.subframeSpans = heldSpans(report.feet, body);
  if (!legsBake.options.subframeSpans.empty()) legsBake.options.subframes = legSubframes(body.frameRate);
  keepPelvisKeysWhileHeld(body, legs, plan, report.feet, pelvis, legsBake.options.reduction);
  if (pelvis >= 0) legsBake.options.joints.push_back(pelvis);
  legsBake.progress = nullptr;
  auto legsReport = legsBake.run();
  if (!legsReport) return legsReport.error();
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
  return std::nullopt;
}

// The lock curves are spent: the baked keys hold their effect.
void dropLockCurves(Clip& baked, const std::vector<std::string>& handles) {
  for (const std::string& handle : handles) {
    std::erase_if(baked.curves,
                  [&](const auto& curve) { return curve.first.rfind(handleCurveName(handle, ""), 0) == 0; });
  }
}

// A capture's calibration frame before the take (leadsWithRestFrame): the cleanup finds the
// contacts, locks, poles and lowered pelvis on the take alone, so none reaches into it, and
// the bake passes the frame through as the source has it (CMU 01_01's left knee turned 22.9°
// from it to the take, the source 20.1°).
struct LeadingFrame {
  double time = 0.0;  // of the source's first frame
  Pose pose;          // the source's local pose there
};

// Moves `working`'s start to its second frame when the clip leads with a rest frame.
std::optional<LeadingFrame> leaveOutLeadingFrame(const Skeleton& skeleton, Clip& working) {
  if (!leadsWithRestFrame(skeleton, working)) return std::nullopt;
  LeadingFrame lead{working.timeOf(0), Pose(skeleton.restPose().begin(), skeleton.restPose().end())};
  ClipSampler(&working).sample(lead.time, lead.pose);
  working.startTime = working.timeOf(1);
  return lead;
}

// `working` from the leading frame again, for the bake: the tracks the cleanup rewrote from
// the take's start (the lowered pelvis, a foot beside its leg) get the frame's key back, no
// foot is planted there (the stride curves are 0), and the contacts count frames of the
// source.
void takeBackLeadingFrame(const LeadingFrame& lead, Clip& working, std::vector<FootLock>& feet) {
  const double take = working.startTime - 0.5 / working.frameRate;  // keys from half a frame before it
  auto keyLeadingFrame = [&](Curve& curve, double value) {
    if (curve.empty() || curve.keys().front().time < take) return;
    std::vector<CurveKey> keys{linearKey(lead.time, value)};
    keys.insert(keys.end(), curve.keys().begin(), curve.keys().end());
    curve.setKeys(std::move(keys));
  };
  for (JointTrack& track : working.tracks) {
    const Transform& pose = lead.pose[static_cast<std::size_t>(track.joint)];
    Curve* translation[3] = {&track.translation.x, &track.translation.y, &track.translation.z};
    for (int c = 0; c < 3; ++c) keyLeadingFrame(*translation[c], pose.translation[c]);
    if (track.rotation.empty() || track.rotation.keys().front().time < take) continue;
    std::vector<RotationKey> keys(1);
    keys.front().time = lead.time;
    keys.front().value = pose.rotation;
    keys.insert(keys.end(), track.rotation.keys().begin(), track.rotation.keys().end());
    track.rotation.setKeys(std::move(keys));
  }
  for (FootLock& lock : feet) {
    if (const auto stride = working.curves.find(lock.joints.curveName); stride != working.curves.end())
      keyLeadingFrame(stride->second, 0.0);
    for (auto* intervals : {&lock.foot, &lock.ankle, &lock.toe}) {
      for (ContactInterval& c : *intervals) ++c.first, ++c.last;
    }
    if (!lock.ankleFloorModel.empty())
      lock.ankleFloorModel.insert(lock.ankleFloorModel.begin(), lock.ankleFloorModel.front());
  }
  working.startTime = lead.time;
}

// A corrector that leaves the poses before `fromTime` (a capture's calibration frame) as the
// clip has them.
class FromTimeCorrector final : public PoseCorrector {
 public:
  FromTimeCorrector(PoseCorrector& corrector, double fromTime) : mCorrector(corrector), mFromTime(fromTime) {}
  void begin(const Clip& clip) override { mCorrector.begin(clip); }
  bool correct(std::span<Transform> pose, double timeSeconds, const Clip& clip) override {
    mPassed = timeSeconds < mFromTime;
    return mPassed || mCorrector.correct(pose, timeSeconds, clip);
  }
  std::vector<int> rotatedJoints() const override { return mCorrector.rotatedJoints(); }
  std::vector<int> translatedJoints() const override { return mCorrector.translatedJoints(); }
  void unreachedHandles(std::vector<int>& handles) const override {
    if (!mPassed) mCorrector.unreachedHandles(handles);
  }
  std::string handleName(int handle) const override { return mCorrector.handleName(handle); }

 private:
  PoseCorrector& mCorrector;
  double mFromTime;
  bool mPassed = false;
};

}  // namespace

Result<SkateCleanupReport> SkateCleanupJob::run() const {
  if (auto error = validate()) return makeError(*error);
  const Skeleton& skeleton = scene->skeleton;
  const Plan plan = *planFeet(skeleton, *rig);
  SkateCleanupReport report;
  Clip working = source != nullptr ? *source : std::move(*consumedSource);
  // The source's joints over the frames baked, recorded before the lock writes into the
  // working clip (a foot beside its leg gets keys of its own there).
  const int lastFrame = options.bake.lastFrame < 0 ? working.frameCount() - 1 : options.bake.lastFrame;
  std::vector<FootDirectionJoints> footJoints;
  for (const FootJoints& foot : plan.feet) footJoints.push_back({foot.ankle, foot.toe});
  const SourceMotion sourceMotion(skeleton, working, options.bake.firstFrame, lastFrame, footJoints,
                                  rig->grounding.upModel);
  const std::optional<LeadingFrame> lead = leaveOutLeadingFrame(skeleton, working);
  if (auto error = findContacts(*scene, working, plan, *rig, options, report))
    return makeError("skate cleanup: " + *error);
  for (const FootLock& lock : report.feet) {
    report.slideBeforeModel.push_back(
        slidePerContact(skeleton, working, lock, rig->grounding.upModel, report.groundVelocityModel));
  }
  writeKneePoleCurves(skeleton, working, *rig, report.feet);
  if (auto error = writeFootLockCurves(skeleton, working, report.feet, rig->grounding.upModel,
                                       report.groundVelocityModel, options.floor))
    return makeError("skate cleanup: " + *error);
  lowerPelvisToReachLocks(skeleton, working, *rig, report.feet);
  const double takeStart = working.startTime - 0.5 / working.frameRate;
  if (lead) takeBackLeadingFrame(*lead, working, report.feet);

  // The pelvis is lowered above, where the locks need it: the legs' solve lowers it no
  // further for a leg the animation itself stretches past the rig's reach. The locks place a
  // foot bone beside its leg themselves: it must not follow the shin off them.
  RigDefinition legsDefinition = *rig;
  legsDefinition.grounding.maxReach = 1.0f;
  for (IkHandle& handle : legsDefinition.handles) handle.followers.clear();
  auto bound = Rig::bind(skeleton, std::move(legsDefinition));
  if (!bound) return makeError("skate cleanup: " + bound.error());
  Rig legs = bindLegs(std::move(*bound), plan);
  RigPoseCorrector rigCorrector(legs);
  FromTimeCorrector corrector(rigCorrector, lead ? takeStart : -std::numeric_limits<double>::infinity());
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
  if (bake.options.reduce) {
    if (auto error = bakeLegsAgain(bake, baked, working, legs, *rig, plan, report)) return makeError(*error);
  }
  dropLockCurves(baked, plan.handles);
  report.moved = sourceMotion.compare(baked, jointGroups(skeleton, legs, plan, rig->grounding.pelvis));
  *output = std::move(baked);
  return report;
}

}  // namespace articula
