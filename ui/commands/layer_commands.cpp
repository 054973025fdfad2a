#include "ui/commands/layer_commands.h"

#include <QCoreApplication>
#include <QUndoStack>

#include <algorithm>
#include <string>
#include <utility>

#include "core/bake/key_reduction.h"
#include "core/bake/layer_merge.h"
#include "ui/commands/key_pose_command.h"
#include "ui/commands/replace_clip_command.h"
#include "ui/document/document.h"

namespace articula::ui {
namespace {

QString tr(const char* text) { return QCoreApplication::translate("LayerCommands", text); }

QString layerLabel(const AnimLayer& layer) { return QStringLiteral("'%1'").arg(QString::fromStdString(layer.name)); }

// The current clip, or why there is none to layer.
std::optional<QString> clipRefusal(const Document& document) {
  if (!document.currentClip()) return tr("There is no clip to layer.");
  if (document.scene().skeleton.jointCount() == 0) {
    return tr("Clip '%1' animates no joints: there is nothing to layer.")
        .arg(QString::fromStdString(document.currentClip()->name));
  }
  return std::nullopt;
}

std::optional<QString> layerRefusal(const Document& document, int layer) {
  if (auto refusal = clipRefusal(document)) return refusal;
  if (layer < 0 || layer >= static_cast<int>(document.currentClip()->layers.size()))
    return tr("Clip '%1' has no layer %2.").arg(QString::fromStdString(document.currentClip()->name)).arg(layer + 1);
  return std::nullopt;
}

void push(Document& document, Clip clip, const QString& text) {
  document.undoStack()->push(new ReplaceClipCommand(&document, document.currentClipIndex(), std::move(clip), text));
}

AnimLayer& layerOf(Clip& clip, int layer) { return clip.layers[static_cast<std::size_t>(layer)]; }

std::string freeLayerName(const Clip& clip) {
  for (std::size_t n = clip.layers.size() + 1;; ++n) {
    std::string name = "Layer " + std::to_string(n);
    const bool taken =
        std::any_of(clip.layers.begin(), clip.layers.end(), [&](const AnimLayer& l) { return l.name == name; });
    if (!taken) return name;
  }
}

std::optional<QString> runMerge(Document& document, LayerMergeJob job, const QString& text) {
  Clip merged;
  job.skeleton = &document.scene().skeleton;
  job.clip = document.currentClip();
  job.toleranceModel = kDefaultToleranceOfHeight * document.scene().characterHeight();
  job.output = &merged;
  if (auto report = job.run(); !report) return QString::fromStdString(report.error());
  push(document, std::move(merged), text);
  return std::nullopt;
}

}  // namespace

std::optional<QString> addLayer(Document& document, LayerMode mode) {
  if (auto refusal = clipRefusal(document)) return refusal;
  Clip clip = *document.currentClip();
  std::string name = freeLayerName(clip);
  AnimLayer& layer = clip.layers.emplace_back();
  layer.name = std::move(name);
  layer.mode = mode;
  const int added = static_cast<int>(clip.layers.size()) - 1;
  push(document, std::move(clip), mode == LayerMode::Additive ? tr("Add Additive Layer") : tr("Add Override Layer"));
  document.setActiveLayer(added);
  return std::nullopt;
}

std::optional<QString> deleteLayer(Document& document, int layer) {
  if (auto refusal = layerRefusal(document, layer)) return refusal;
  Clip clip = *document.currentClip();
  clip.layers.erase(clip.layers.begin() + layer);
  push(document, std::move(clip), tr("Delete Layer"));
  return std::nullopt;
}

std::optional<QString> renameLayer(Document& document, int layer, const QString& name) {
  if (auto refusal = layerRefusal(document, layer)) return refusal;
  if (name.trimmed().isEmpty()) return tr("A layer needs a name.");
  Clip clip = *document.currentClip();
  if (layerOf(clip, layer).name == name.toStdString()) return std::nullopt;
  layerOf(clip, layer).name = name.toStdString();
  push(document, std::move(clip), tr("Rename Layer"));
  return std::nullopt;
}

std::optional<QString> moveLayer(Document& document, int layer, int delta) {
  if (auto refusal = layerRefusal(document, layer)) return refusal;
  Clip clip = *document.currentClip();
  const int target = layer + delta;
  if (target < 0 || target >= static_cast<int>(clip.layers.size()))
    return tr("Layer %1 cannot move further.").arg(layerLabel(layerOf(clip, layer)));
  const auto from = clip.layers.begin() + layer;
  if (delta > 0) {
    std::rotate(from, from + 1, from + delta + 1);
  } else {
    std::rotate(from + delta, from, from + 1);
  }
  push(document, std::move(clip), tr("Reorder Layers"));
  document.setActiveLayer(target);
  return std::nullopt;
}

std::optional<QString> setLayerFlag(Document& document, int layer, LayerFlag flag, bool on) {
  if (auto refusal = layerRefusal(document, layer)) return refusal;
  Clip clip = *document.currentClip();
  AnimLayer& edited = layerOf(clip, layer);
  bool& value = flag == LayerFlag::Mute ? edited.muted : (flag == LayerFlag::Solo ? edited.solo : edited.locked);
  if (value == on) return std::nullopt;
  value = on;
  static const char* const kTexts[2][3] = {{"Unmute Layer", "Unsolo Layer", "Unlock Layer"},
                                           {"Mute Layer", "Solo Layer", "Lock Layer"}};
  push(document, std::move(clip), tr(kTexts[on ? 1 : 0][static_cast<int>(flag)]));
  return std::nullopt;
}

std::optional<QString> keyLayerWeight(Document& document, int layer, double weight) {
  if (auto refusal = layerRefusal(document, layer)) return refusal;
  if (!(weight >= 0.0 && weight <= 1.0)) return tr("A layer's weight is between 0 and 1 (got %1).").arg(weight);
  Clip clip = *document.currentClip();
  AnimLayer& edited = layerOf(clip, layer);
  if (edited.locked) return tr("Layer %1 is locked.").arg(layerLabel(edited));
  edited.weight.insertKey(document.time(), weight, Interpolation::Linear);
  push(document, std::move(clip), tr("Key Layer Weight"));
  return std::nullopt;
}

std::optional<QString> mergeLayerDown(Document& document, int layer) {
  if (auto refusal = clipRefusal(document)) return refusal;
  LayerMergeJob job;
  job.layer = layer;
  if (auto refusal = runMerge(document, job, tr("Merge Layer Down"))) return refusal;
  document.setActiveLayer(layer - 1);
  return std::nullopt;
}

std::optional<QString> mergeAllLayers(Document& document) {
  if (auto refusal = clipRefusal(document)) return refusal;
  LayerMergeJob job;
  job.all = true;
  if (auto refusal = runMerge(document, job, tr("Merge All Layers"))) return refusal;
  document.setActiveLayer(-1);
  return std::nullopt;
}

std::optional<QString> zeroKeyActiveLayer(Document& document) {
  if (auto refusal = clipRefusal(document)) return refusal;
  const int layer = document.activeLayer();
  const AnimLayer* active = document.activeLayerOfClip();
  if (!active) return tr("Zero Key keys a layer: make one active first.");
  if (active->locked) return tr("Layer %1 is locked.").arg(layerLabel(*active));
  if (document.selectedJoints().empty()) return tr("Select the joints to zero key.");
  Clip clip = *document.currentClip();
  AnimLayer& edited = layerOf(clip, layer);
  const Pose below = document.poseBelowLayer(layer);
  for (int joint : document.selectedJoints()) {
    const Transform zero =
        edited.mode == LayerMode::Additive ? Transform::identity() : below[static_cast<std::size_t>(joint)];
    JointTrack& track = edited.trackFor(joint);
    for (auto [curve, value] : {std::pair{&track.translation.x, zero.translation.x()},
                                std::pair{&track.translation.y, zero.translation.y()},
                                std::pair{&track.translation.z, zero.translation.z()}}) {
      curve->insertKey(document.time(), value);
    }
    RotationKey key;
    key.time = document.time();
    key.value = zero.rotation;
    key.inControl = key.outControl = zero.rotation;
    track.rotation.insertKey(key);
  }
  push(document, std::move(clip), tr("Zero Key"));
  return std::nullopt;
}

}  // namespace articula::ui
