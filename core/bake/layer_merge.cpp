#include "core/bake/layer_merge.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <vector>

#include "core/anim/layer_stack.h"
#include "core/bake/dense_clip.h"
#include "core/bake/key_reduction.h"
#include "core/util/message_text.h"

namespace articula {
namespace {

enum ChannelBit : int { kTranslation = 1, kRotation = 2, kScale = 4 };

// Channels each joint's tracks key in `layers`, by joint.
std::map<int, int> keyedChannels(const std::vector<const AnimLayer*>& layers) {
  std::map<int, int> channels;
  for (const AnimLayer* layer : layers) {
    for (const JointTrack& track : layer->tracks) {
      int& bits = channels[track.joint];
      if (!track.translation.empty()) bits |= kTranslation;
      if (!track.rotation.empty()) bits |= kRotation;
      if (!track.scale.empty()) bits |= kScale;
    }
  }
  return channels;
}

std::size_t channelKeys(const JointTrack* track, ChannelBit channel) {
  if (track == nullptr) return 0;
  if (channel == kRotation) return track->rotation.size();
  const Vec3Track& v = channel == kTranslation ? track->translation : track->scale;
  return std::max({v.x.size(), v.y.size(), v.z.size()});
}

// What one merge reads and where it writes.
struct MergePlan {
  std::size_t layersBelow = 0;    // the stack under the destination's values (into the base: 0)
  std::size_t layersThrough = 0;  // the stack through the merged layers
  AnimLayer* into = nullptr;      // nullptr: into the base
  std::map<int, int> channels;    // joint -> ChannelBits rewritten
};

const JointTrack* destinationTrack(const Clip& clip, const MergePlan& plan, int joint) {
  return plan.into ? plan.into->findTrack(joint) : clip.findTrack(joint);
}

JointTrack& destinationTrackFor(Clip& clip, const MergePlan& plan, int joint) {
  return plan.into ? plan.into->trackFor(joint) : clip.trackFor(joint);
}

void copyChannels(const JointTrack& from, int bits, JointTrack& to) {
  if (bits & kTranslation) to.translation = from.translation;
  if (bits & kRotation) to.rotation = from.rotation;
  if (bits & kScale) to.scale = from.scale;
}

Result<LayerMergeReport> merge(const Skeleton& skeleton, const Clip& source, const MergePlan& plan,
                               float toleranceModel, Clip& merged) {
  const int frames = source.frameCount();
  DenseClip perFrame;
  DenseClip reduced;
  for (DenseClip* dense : {&perFrame, &reduced}) {
    dense->startTime = source.startTime;
    dense->frameRate = source.frameRate;
  }
  LayerMergeReport report;
  for (const auto& [joint, bits] : plan.channels) {
    DenseTrack& dense = perFrame.tracks.emplace_back();
    DenseTrack& sparse = reduced.tracks.emplace_back();
    dense.joint = sparse.joint = joint;
    const JointTrack* existing = destinationTrack(merged, plan, joint);
    for (ChannelBit channel : {kTranslation, kRotation, kScale}) {
      if (!(bits & channel)) continue;
      const bool keepDense = channelKeys(existing, channel) >= static_cast<std::size_t>(frames);
      DenseTrack& into = keepDense ? dense : sparse;
      (keepDense ? report.denseChannels : report.reducedChannels) += 1;
      if (channel == kTranslation) into.translates = true;
      if (channel == kRotation) into.rotates = true;
      if (channel == kScale) into.scales = true;
    }
  }
  // Samples of the source's stack: the destination's value on each frame.
  LayeredClipSampler sampler(&source);
  const Pose rest(skeleton.restPose().begin(), skeleton.restPose().end());
  Pose target = rest;
  Pose below = rest;
  Pose values = rest;
  for (int f = 0; f < frames; ++f) {
    const double t = source.timeOf(f);
    target = rest;
    sampler.sampleUnmuted(t, plan.layersThrough, target);
    if (plan.into) {
      below = rest;
      sampler.sampleUnmuted(t, plan.layersBelow, below);
    }
    for (const auto& entry : plan.channels) {
      const auto j = static_cast<std::size_t>(entry.first);
      values[j] = plan.into ? layerValueFor(plan.into->mode, below[j], target[j]) : target[j];
    }
    perFrame.appendFrame(values);
    reduced.appendFrame(values);
  }
  std::vector<JointTrack> denseTracks = perFrameTracks(perFrame);
  std::vector<JointTrack> reducedTracks;
  if (report.reducedChannels > 0) {
    KeyReductionOptions options;
    options.toleranceModel = toleranceModel;
    // An editor's keys, not a file's: the fewest, in floats.
    options.quantizeRotations = false;
    options.keysForAFile = false;
    reduceDenseClip(skeleton, rest, reduced, options, reducedTracks);
  }
  for (std::size_t i = 0; i < perFrame.tracks.size(); ++i) {
    const int joint = perFrame.tracks[i].joint;
    JointTrack& destination = destinationTrackFor(merged, plan, joint);
    const DenseTrack& dense = perFrame.tracks[i];
    const DenseTrack& sparse = reduced.tracks[i];
    copyChannels(denseTracks[i], (dense.translates ? kTranslation : 0) | (dense.rotates ? kRotation : 0) |
                                     (dense.scales ? kScale : 0), destination);
    if (!reducedTracks.empty()) {
      copyChannels(reducedTracks[i], (sparse.translates ? kTranslation : 0) | (sparse.rotates ? kRotation : 0) |
                                         (sparse.scales ? kScale : 0), destination);
    }
  }
  return report;
}

std::string clipLabel(const Clip& clip) { return "clip '" + shortName(clip.name) + "'"; }

}  // namespace

std::optional<std::string> LayerMergeJob::validate() const {
  if (!skeleton || !clip || !output) return "layer merge: no skeleton, clip or output";
  if (auto error = clip->validate(skeleton->jointCount())) return error;
  if (clip->frameCount() < 1) return clipLabel(*clip) + " has no frames to merge layers on";
  if (!(toleranceModel > 0.0f) || !std::isfinite(toleranceModel)) {
    return "layer merge: the tolerance must be a positive number (got " + std::to_string(toleranceModel) + ")";
  }
  const std::vector<AnimLayer>& layers = clip->layers;
  if (all) {
    const bool anyUnmuted = std::any_of(layers.begin(), layers.end(), [](const AnimLayer& l) { return !l.muted; });
    if (!anyUnmuted) return clipLabel(*clip) + " has no layer to merge (none, or all muted)";
    return std::nullopt;
  }
  if (layer < 0 || static_cast<std::size_t>(layer) >= layers.size()) {
    return clipLabel(*clip) + ": no layer to merge down (the base has nothing below it)";
  }
  const AnimLayer& merged = layers[static_cast<std::size_t>(layer)];
  if (merged.muted) return "layer '" + shortName(merged.name) + "' is muted: unmute it to merge it";
  if (layer > 0 && layers[static_cast<std::size_t>(layer - 1)].muted) {
    return "layer '" + shortName(layers[static_cast<std::size_t>(layer - 1)].name) + "' below '" +
           shortName(merged.name) + "' is muted: unmute it to merge into it";
  }
  return std::nullopt;
}

Result<LayerMergeReport> LayerMergeJob::run() const {
  if (auto error = validate()) return makeError(*error);
  Clip merged = *clip;
  MergePlan plan;
  std::vector<const AnimLayer*> mergedLayers;
  if (all) {
    for (const AnimLayer& l : clip->layers) {
      if (!l.muted) mergedLayers.push_back(&l);
    }
    plan.layersThrough = clip->layers.size();
  } else {
    const auto index = static_cast<std::size_t>(layer);
    mergedLayers.push_back(&clip->layers[index]);
    plan.layersThrough = index + 1;
    if (index > 0) {
      plan.layersBelow = index - 1;
      plan.into = &merged.layers[index - 1];
      mergedLayers.push_back(&clip->layers[index - 1]);
    }
  }
  plan.channels = keyedChannels(mergedLayers);
  auto report = merge(*skeleton, *clip, plan, toleranceModel, merged);
  if (!report) return report;
  if (plan.into) plan.into->weight = Curve();
  if (all) {
    std::erase_if(merged.layers, [](const AnimLayer& l) { return !l.muted; });
  } else {
    merged.layers.erase(merged.layers.begin() + layer);
  }
  report->layersMerged = static_cast<int>(mergedLayers.size()) - (plan.into ? 1 : 0);
  *output = std::move(merged);
  return report;
}

Result<Clip> flattenLayers(const Skeleton& skeleton, const Clip& clip, float toleranceModel) {
  Clip flat = clip;
  const bool anyUnmuted = std::any_of(clip.layers.begin(), clip.layers.end(), [](const AnimLayer& l) { return !l.muted; });
  if (anyUnmuted) {
    LayerMergeJob job;
    job.skeleton = &skeleton;
    job.clip = &clip;
    job.all = true;
    job.toleranceModel = toleranceModel;
    job.output = &flat;
    if (auto merged = job.run(); !merged) return makeError(merged.error());
  }
  flat.layers.clear();
  return flat;
}

}  // namespace articula
