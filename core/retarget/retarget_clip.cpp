#include "core/retarget/retarget_clip.h"

#include <algorithm>
#include <vector>

#include "core/bake/bake_pipeline.h"
#include "core/bake/key_reduction.h"
#include "core/retarget/retarget.h"
#include "core/rig/humanoid_rig.h"

namespace articula {

Result<Clip> retargetClip(const Scene& source, const HumanoidMap& sourceMap, const Clip& clip, const Scene& character,
                          const HumanoidMap& characterMap, const RetargetClipOptions& options,
                          KeyReductionReport* reduction) {
  // Planted feet stand on the character's floor, not only stay put.
  const CharacterSoles soles = options.detectContacts ? characterSoles(character, characterMap) : CharacterSoles{};
  RetargetJob job{&source.skeleton,   &clip,
                  &sourceMap,         &character.skeleton,
                  &characterMap,      options.frameRate,
                  options.handsReach, options.skipFirstFrame,
                  options.detectContacts ? &soles : nullptr};
  auto dense = job.run();
  if (!dense) return makeError(dense.error());
  Clip out;
  out.name = clip.name;
  out.frameRate = dense->frameRate;
  out.startTime = dense->startTime;
  out.endTime = dense->timeOf(dense->frames - 1);
  if (!options.detectContacts) {
    KeyReductionOptions reductionOptions;
    reductionOptions.toleranceModel = options.toleranceModel;
    reductionOptions.interpolation = options.interpolation;
    const KeyReductionReport reduced =
        reduceDenseClip(character.skeleton, character.skeleton.restPose(), *dense, reductionOptions, out.tracks);
    if (reduction != nullptr) *reduction = reduced;
    return out;
  }
  // The cleanup bakes the clip through the humanoid rig and reduces it once, at the end.
  out.tracks = perFrameTracks(*dense);
  auto rig = buildHumanoidRig(character.skeleton);
  if (!rig) return makeError(rig.error());
  BakePipelineOptions pipeline;
  pipeline.bake.reduction.toleranceModel = options.toleranceModel;
  pipeline.bake.reduction.interpolation = options.interpolation;
  pipeline.detectContacts = true;
  auto baked = bakeThroughRig(character, out, *rig, pipeline);
  if (!baked) return makeError(baked.error());
  if (reduction != nullptr) *reduction = baked->report.reduction;
  baked->clip.name = clip.name;
  return std::move(baked->clip);
}

namespace {

constexpr float kRestAngleRad = 1.0f * 3.14159265f / 180.0f;
constexpr float kLeastJumpRad = 10.0f * 3.14159265f / 180.0f;
constexpr float kJumpOverTypical = 10.0f;

// The joints `clip` rotates (with rotation keys), each once.
std::vector<int> rotatedJoints(const Clip& clip, int jointCount) {
  std::vector<int> joints;
  for (const JointTrack& track : clip.tracks) {
    if (track.joint >= 0 && track.joint < jointCount && !track.rotation.keys().empty()) joints.push_back(track.joint);
  }
  std::sort(joints.begin(), joints.end());
  joints.erase(std::unique(joints.begin(), joints.end()), joints.end());
  return joints;
}

// The largest local turn of any of `joints` between two poses (radians).
float largestTurn(const std::vector<int>& joints, const std::vector<Transform>& a, const std::vector<Transform>& b) {
  float largest = 0.0f;
  for (const int j : joints) {
    const auto i = static_cast<std::size_t>(j);
    largest = std::max(largest, a[i].rotation.angularDistance(b[i].rotation));
  }
  return largest;
}

}  // namespace

bool startsWithRestFrame(const Skeleton& skeleton, const Clip& clip) {
  const int frames = clip.frameCount();
  const std::vector<int> joints = rotatedJoints(clip, skeleton.jointCount());
  if (frames < 3 || joints.empty()) return false;
  ClipSampler sampler(&clip);
  std::vector<Transform> previous(skeleton.restPose().begin(), skeleton.restPose().end());
  sampler.sample(clip.timeOf(0), previous);
  const auto atRest = std::count_if(joints.begin(), joints.end(), [&](int j) {
    const auto i = static_cast<std::size_t>(j);
    return previous[i].rotation.angularDistance(skeleton.restLocal(j).rotation) <= kRestAngleRad;
  });
  if (2 * static_cast<std::size_t>(atRest) < joints.size()) return false;
  std::vector<Transform> current = previous;
  sampler.sample(clip.timeOf(1), current);
  const float jump = largestTurn(joints, previous, current);
  if (jump <= kLeastJumpRad) return false;
  std::vector<float> turns;  // per frame after the jump
  turns.reserve(static_cast<std::size_t>(frames - 2));
  for (int f = 2; f < frames; ++f) {
    std::swap(previous, current);
    sampler.sample(clip.timeOf(f), current);
    turns.push_back(largestTurn(joints, previous, current));
  }
  const auto middle = turns.begin() + static_cast<std::ptrdiff_t>(turns.size() / 2);
  std::nth_element(turns.begin(), middle, turns.end());
  return jump > kJumpOverTypical * *middle;
}

}  // namespace articula
