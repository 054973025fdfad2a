#include "core/retarget/retarget.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <tuple>

#include "core/ik/two_bone_ik.h"
#include "core/retarget/retarget_frame.h"
#include "core/skeleton/local_to_model.h"

namespace articula {
namespace {

void addPair(std::vector<std::pair<int, int>>& pairs, int source, int target) {
  if (source >= 0 && target >= 0) pairs.emplace_back(source, target);
}

// The roles of `map` that retargeting needs and it lacks, or whose joint is not in the
// skeleton, named as `articula-cli map` names them; empty when it has them all.
std::vector<std::string> missingRoles(const HumanoidMap& map, const Skeleton& skeleton) {
  const int n = skeleton.jointCount();
  std::vector<std::string> missing;
  auto require = [&](const std::string& role, int joint) {
    if (joint < 0 || joint >= n) missing.push_back(role);
  };
  auto optional = [&](const std::string& role, int joint) {
    if (joint < -1 || joint >= n) missing.push_back(role);
  };
  require("hips", map.hips);
  require("chest", map.chest);
  optional("neck", map.neck);
  optional("head", map.head);
  for (const auto& [side, leg, arm] :
       {std::tuple{"left", &map.leftLeg, &map.leftArm}, std::tuple{"right", &map.rightLeg, &map.rightArm}}) {
    const std::string s = side;
    require(s + "Thigh", leg->thigh);
    require(s + "Knee", leg->knee);
    require(s + "LegTip", leg->legTip);
    optional(s + "Ankle", leg->ankle);
    optional(s + "Toe", leg->toe);
    optional(s + "Clavicle", arm->clavicle);
    optional(s + "UpperArm", arm->upperArm);
    optional(s + "Forearm", arm->forearm);
    optional(s + "Hand", arm->hand);
  }
  for (std::size_t i = 0; i < map.spine.size(); ++i) require("spine" + std::to_string(i), map.spine[i]);
  return missing;
}

std::optional<std::string> incompleteMap(const char* which, const HumanoidMap& map, const Skeleton& skeleton) {
  const std::vector<std::string> missing = missingRoles(map, skeleton);
  if (missing.empty()) return std::nullopt;
  std::string roles;
  for (const std::string& role : missing) roles += (roles.empty() ? "" : ", ") + role;
  return std::string("retarget: the ") + which + "'s humanoid map misses " + roles;
}

// What run() needs of both characters, read once.
struct Characters {
  std::vector<std::pair<int, int>> pairs;  // source joint, target joint
  Quat sourceToTarget;                     // model space of the source → of the target
  Quat groundToTarget;                     // the same between their grounds (groundFrame)
  float travelScale = 1.0f;                // target leg length / source leg length
  float reachScale = 1.0f;                 // target arm length / source arm length
  std::vector<Transform> targetReference;  // the target's rest, limbs aimed as the source's
  std::vector<Quat> targetReferenceModel;  // its model rotations
  std::vector<Affine> targetReferenceMatrices;
  std::vector<Quat> sourceRestModel;
  std::vector<MappedBone> bones;  // aimed on every frame as the source's point
  // Each character's floor, as the point of it below the model origin along its ground's
  // normal: the source's where its feet go lowest in the clip, the target's where they stand
  // at rest. The hips keep their place over the floor, scaled.
  Vec3 sourceFloor = Vec3::Zero();
  Vec3 targetFloor = Vec3::Zero();
  Vec3 sourceUp = Vec3::UnitY();  // the source's ground normal
};

// The lowest any foot of the source goes along `up` over the clip.
float sourceFloorHeight(const RetargetJob& job, const Vec3& up) {
  ClipSampler sampler(job.sourceClip);
  std::vector<Transform> pose(job.sourceSkeleton->restPose().begin(), job.sourceSkeleton->restPose().end());
  float lowest = std::numeric_limits<float>::infinity();
  for (int f = job.skipFirstFrame ? 1 : 0; f < job.sourceClip->frameCount(); ++f) {
    sampler.sample(job.sourceClip->timeOf(f), pose);
    lowest = std::min(lowest, lowestFootHeight(*job.sourceMap, localToModel(*job.sourceSkeleton, pose), up));
  }
  return lowest;
}

Characters readCharacters(const RetargetJob& job) {
  const Skeleton& source = *job.sourceSkeleton;
  const Skeleton& target = *job.targetSkeleton;
  const std::vector<Affine> sourceRest = localToModel(source, source.restPose());
  const std::vector<Affine> targetRest = localToModel(target, target.restPose());
  Characters c;
  c.pairs = pairRoles(*job.sourceMap, *job.targetMap);
  const Mat3 targetFrame = characterFrame(*job.targetMap, targetRest);
  const Mat3 sourceFrame = characterFrame(*job.sourceMap, sourceRest);
  const Mat3 toTarget = targetFrame * sourceFrame.transpose();
  c.sourceToTarget = Quat(toTarget).normalized();
  c.travelScale = legLength(*job.targetMap, targetRest) / legLength(*job.sourceMap, sourceRest);
  const float sourceArms = armLength(*job.sourceMap, sourceRest);
  if (sourceArms > 0.0f) c.reachScale = armLength(*job.targetMap, targetRest) / sourceArms;
  c.targetReference = alignedRestPose(target, *job.targetMap, source, *job.sourceMap, c.sourceToTarget);
  c.targetReferenceModel = modelRotations(target, c.targetReference);
  c.targetReferenceMatrices = localToModel(target, c.targetReference);
  c.sourceRestModel = modelRotations(source, source.restPose());
  c.bones = longBones(source, *job.sourceMap, target, *job.targetMap);
  const Mat3 targetGround = groundFrame(targetFrame);
  const Mat3 sourceGround = groundFrame(sourceFrame);
  c.groundToTarget = Quat(Mat3(targetGround * sourceGround.transpose())).normalized();
  c.sourceUp = sourceGround.col(1);
  c.sourceFloor = c.sourceUp * sourceFloorHeight(job, c.sourceUp);
  c.targetFloor = targetGround.col(1) * lowestFootHeight(*job.targetMap, targetRest, targetGround.col(1));
  return c;
}

// The target's tracks: hips (translation and rotation), every mapped joint (rotation), and a
// foot beside its leg (translation too).
DenseClip emptyTargetClip(const RetargetJob& job, const Characters& c) {
  DenseClip dense;
  dense.frameRate = job.frameRate > 0.0 ? job.frameRate : job.sourceClip->frameRate;
  dense.startTime = job.sourceClip->startTime;
  std::vector<DenseTrack> tracks(static_cast<std::size_t>(job.targetSkeleton->jointCount()));
  for (const auto& [source, target] : c.pairs) tracks[static_cast<std::size_t>(target)].rotates = true;
  tracks[static_cast<std::size_t>(job.targetMap->hips)].translates = true;
  for (const HumanoidLeg* leg : {&job.targetMap->leftLeg, &job.targetMap->rightLeg}) {
    if (leg->ankle >= 0 && leg->footBesideLeg()) tracks[static_cast<std::size_t>(leg->ankle)].translates = true;
  }
  for (std::size_t j = 0; j < tracks.size(); ++j) {
    if (!tracks[j].rotates && !tracks[j].translates) continue;
    tracks[j].joint = static_cast<int>(j);
    dense.tracks.push_back(std::move(tracks[j]));
  }
  return dense;
}

// Each arm of the target solved so its hand is where the source's is from the hips, scaled
// by the arms (RetargetJob::handsReach); `sourceModel` is the source's pose in model space.
void reachHands(const RetargetJob& job, const Characters& c, std::span<const Affine> sourceModel,
                std::vector<Transform>& targetLocal) {
  const Skeleton& target = *job.targetSkeleton;
  const Vec3 sourceHips = sourceModel[static_cast<std::size_t>(job.sourceMap->hips)].translation();
  const std::pair<const HumanoidArm*, const HumanoidArm*> arms[] = {
      {&job.sourceMap->leftArm, &job.targetMap->leftArm}, {&job.sourceMap->rightArm, &job.targetMap->rightArm}};
  for (const auto& [s, t] : arms) {
    if (s->hand < 0 || t->upperArm < 0 || t->forearm < 0 || t->hand < 0) continue;
    const std::vector<Affine> model = localToModel(target, targetLocal);
    const Quat handModel = modelRotations(target, targetLocal)[static_cast<std::size_t>(t->hand)];
    const Vec3 fromHips = sourceModel[static_cast<std::size_t>(s->hand)].translation() - sourceHips;
    TwoBoneIkJob ik;
    ik.skeleton = &target;
    ik.startJoint = t->upperArm;
    ik.midJoint = t->forearm;
    ik.endJoint = t->hand;
    ik.pose = targetLocal;
    ik.model = model;
    ik.targetModel = model[static_cast<std::size_t>(job.targetMap->hips)].translation() +
                     c.reachScale * (c.sourceToTarget * fromHips);
    // The elbow stays in the plane it bends in; an arm beyond reach points straight at it.
    ik.poleMode = TwoBoneIkJob::PoleMode::Target;
    ik.poleModel = model[static_cast<std::size_t>(t->forearm)].translation();
    ik.soften = 1.0f;
    if (!ik.run()) continue;
    const int handParent = target.parent(t->hand);
    const Quat parentModel = modelRotations(target, targetLocal)[static_cast<std::size_t>(handParent)];
    targetLocal[static_cast<std::size_t>(t->hand)].rotation = (parentModel.conjugate() * handModel).normalized();
  }
}

// One target pose (local transforms) from one source pose.
void retargetPose(const RetargetJob& job, const Characters& c, std::span<const Transform> sourceLocal,
                  std::vector<Transform>& targetLocal) {
  const Skeleton& source = *job.sourceSkeleton;
  const Skeleton& target = *job.targetSkeleton;
  const std::vector<Quat> sourceModel = modelRotations(source, sourceLocal);
  // Each mapped target joint turns in model space as its source joint turned from rest.
  std::vector<std::optional<Quat>> wanted(static_cast<std::size_t>(target.jointCount()));
  for (const auto& [s, t] : c.pairs) {
    const Quat turnSource =
        sourceModel[static_cast<std::size_t>(s)] * c.sourceRestModel[static_cast<std::size_t>(s)].conjugate();
    const Quat turnTarget = c.sourceToTarget * turnSource * c.sourceToTarget.conjugate();
    wanted[static_cast<std::size_t>(t)] =
        (turnTarget * c.targetReferenceModel[static_cast<std::size_t>(t)]).normalized();
  }
  targetLocal = c.targetReference;
  std::vector<Quat> targetModel(targetLocal.size());
  for (int j = 0; j < target.jointCount(); ++j) {
    const auto i = static_cast<std::size_t>(j);
    const int parent = target.parent(j);
    const Quat parentModel = parent == kNoParent ? Quat::Identity() : targetModel[static_cast<std::size_t>(parent)];
    if (wanted[i]) targetLocal[i].rotation = (parentModel.conjugate() * *wanted[i]).normalized();
    targetModel[i] = parentModel * targetLocal[i].rotation;
  }
  // Each bone then points as the source's: a chain with joints the map leaves out (CMU's
  // Neck1 between Neck and Head, a spine of four joints on one of three) bends in them too.
  const std::vector<Affine> sourcePositions = localToModel(source, sourceLocal);
  for (const MappedBone& bone : c.bones) {
    const Vec3 sourceDir = sourcePositions[static_cast<std::size_t>(bone.sourceTo)].translation() -
                           sourcePositions[static_cast<std::size_t>(bone.sourceFrom)].translation();
    aimBone(target, targetLocal, bone, c.sourceToTarget * sourceDir);
  }
  // The hips stand over the floor as the source's do, scaled by the legs, and travel over
  // the ground as the source's do (between the grounds, not the leaning frames); the joints
  // above them do not move.
  const int sourceHips = job.sourceMap->hips;
  const int targetHips = job.targetMap->hips;
  const Vec3 fromFloor = sourcePositions[static_cast<std::size_t>(sourceHips)].translation() - c.sourceFloor;
  const Vec3 hipsModel = c.targetFloor + c.travelScale * (c.groundToTarget * fromFloor);
  const int hipsParent = target.parent(targetHips);
  targetLocal[static_cast<std::size_t>(targetHips)].translation =
      hipsParent == kNoParent ? hipsModel
                              : c.targetReferenceMatrices[static_cast<std::size_t>(hipsParent)].inverse() * hipsModel;
  // A foot beside its leg (an IK bone) goes to the shin's tail. Neither foot is above a
  // shin, so one pass of FK serves both.
  const bool footBeside = job.targetMap->leftLeg.footBesideLeg() || job.targetMap->rightLeg.footBesideLeg();
  const std::vector<Affine> model = footBeside ? localToModel(target, targetLocal) : std::vector<Affine>{};
  for (const HumanoidLeg* leg : {&job.targetMap->leftLeg, &job.targetMap->rightLeg}) {
    if (leg->ankle < 0 || !leg->footBesideLeg()) continue;
    const int parent = target.parent(leg->ankle);
    const Vec3 tail = model[static_cast<std::size_t>(leg->legTip)].translation();
    targetLocal[static_cast<std::size_t>(leg->ankle)].translation =
        parent == kNoParent ? tail : model[static_cast<std::size_t>(parent)].inverse() * tail;
  }
  if (job.handsReach) reachHands(job, c, sourcePositions, targetLocal);
}

// The target's feet put on its floor where the source plants them; `skipped` as in run().
void standOnFloor(const RetargetJob& job, const Characters& c, double skipped, DenseClip& dense) {
  const Clip& clip = *job.sourceClip;
  const auto source = plantedFrames(*job.sourceSkeleton, *job.sourceMap, clip, c.sourceUp);
  std::array<std::vector<bool>, 2> planted;
  for (std::size_t side = 0; side < 2; ++side) {
    planted[side].assign(static_cast<std::size_t>(dense.frames), false);
    if (source[side].empty()) continue;
    for (int f = 0; f < dense.frames; ++f) {
      const double time = std::min(dense.timeOf(f) + skipped, clip.endTime);
      const long frame = std::lround((time - clip.startTime) * clip.frameRate);
      const auto s = static_cast<std::size_t>(std::clamp<long>(frame, 0, static_cast<long>(source[side].size()) - 1));
      planted[side][static_cast<std::size_t>(f)] = source[side][s];
    }
  }
  standOnFloor(*job.targetSkeleton, *job.targetMap, *job.targetSoles, planted, dense);
}

}  // namespace

std::vector<std::pair<int, int>> pairRoles(const HumanoidMap& source, const HumanoidMap& target) {
  std::vector<std::pair<int, int>> pairs;
  addPair(pairs, source.hips, target.hips);
  // Spines by position along the chain (index 0 is the hips on both).
  const std::size_t ns = source.spine.size();
  const std::size_t nt = target.spine.size();
  for (std::size_t i = 1; i < nt && ns > 0; ++i) {
    const std::size_t s = nt == 1 ? 0 : (i * (ns - 1) + (nt - 1) / 2) / (nt - 1);
    addPair(pairs, source.spine[s], target.spine[i]);
  }
  addPair(pairs, source.neck, target.neck);
  addPair(pairs, source.head, target.head);
  const std::pair<const HumanoidLeg&, const HumanoidLeg&> legs[] = {{source.leftLeg, target.leftLeg},
                                                                    {source.rightLeg, target.rightLeg}};
  for (const auto& [s, t] : legs) {
    addPair(pairs, s.thigh, t.thigh);
    addPair(pairs, s.knee, t.knee);
    addPair(pairs, s.ankle, t.ankle);
    addPair(pairs, s.toe, t.toe);
  }
  const std::pair<const HumanoidArm&, const HumanoidArm&> arms[] = {{source.leftArm, target.leftArm},
                                                                    {source.rightArm, target.rightArm}};
  for (const auto& [s, t] : arms) {
    addPair(pairs, s.clavicle, t.clavicle);
    addPair(pairs, s.upperArm, t.upperArm);
    addPair(pairs, s.forearm, t.forearm);
    addPair(pairs, s.hand, t.hand);
  }
  // A target joint plays one role: the first pairing wins (a spine shorter than the
  // source's may meet the neck).
  std::vector<std::pair<int, int>> unique;
  for (const auto& pair : pairs) {
    const bool taken =
        std::any_of(unique.begin(), unique.end(), [&](const auto& u) { return u.second == pair.second; });
    if (!taken) unique.push_back(pair);
  }
  return unique;
}

std::optional<std::string> RetargetJob::validate() const {
  if (sourceSkeleton == nullptr || targetSkeleton == nullptr) return std::string("retarget: no skeleton");
  if (sourceClip == nullptr) return std::string("retarget: no source clip");
  if (sourceMap == nullptr || targetMap == nullptr) return std::string("retarget: no humanoid map");
  if (auto error = sourceClip->validate(sourceSkeleton->jointCount()))
    return "retarget: clip '" + sourceClip->name + "': " + *error;
  if (!std::isfinite(frameRate) || frameRate < 0.0)
    return "retarget: frame rate " + std::to_string(frameRate) + " is not a positive number";
  if (sourceClip->frameCount() == 0) return "retarget: clip '" + sourceClip->name + "' is empty (no keys, no frames)";
  if (skipFirstFrame && sourceClip->frameCount() < 2)
    return "retarget: clip '" + sourceClip->name + "' has one frame: none is left without its first";
  if (auto error = incompleteMap("source", *sourceMap, *sourceSkeleton)) return error;
  if (auto error = incompleteMap("target", *targetMap, *targetSkeleton)) return error;
  const float sourceLegs = legLength(*sourceMap, localToModel(*sourceSkeleton, sourceSkeleton->restPose()));
  const float targetLegs = legLength(*targetMap, localToModel(*targetSkeleton, targetSkeleton->restPose()));
  if (!(sourceLegs > 0.0f) || !std::isfinite(sourceLegs))
    return std::string("retarget: the source's legs have no length");
  if (!(targetLegs > 0.0f) || !std::isfinite(targetLegs))
    return std::string("retarget: the target's legs have no length");
  return std::nullopt;
}

Result<DenseClip> RetargetJob::run() const {
  if (auto error = validate()) return makeError(*error);
  const Characters characters = readCharacters(*this);
  DenseClip dense = emptyTargetClip(*this, characters);
  ClipSampler sampler(sourceClip);
  std::vector<Transform> sourceLocal(sourceSkeleton->restPose().begin(), sourceSkeleton->restPose().end());
  std::vector<Transform> targetLocal;
  // Seconds of the source left out before the result's first frame.
  const double skipped = skipFirstFrame ? 1.0 / sourceClip->frameRate : 0.0;
  const int frames = static_cast<int>(std::lround((sourceClip->duration() - skipped) * dense.frameRate)) + 1;
  for (int f = 0; f < frames; ++f) {
    sampler.sample(std::min(dense.timeOf(f) + skipped, sourceClip->endTime), sourceLocal);
    retargetPose(*this, characters, sourceLocal, targetLocal);
    dense.appendFrame(targetLocal);
  }
  if (targetSoles != nullptr) standOnFloor(*this, characters, skipped, dense);
  return dense;
}

}  // namespace articula
