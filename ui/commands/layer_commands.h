#pragma once
// Animation layers of the current clip (issue 40): each action pushes one ReplaceClipCommand
// (the whole clip, so undo is exact) or returns why not in one line, changing nothing.
// `layer` is an index into the current clip's Clip::layers.
#include <QString>

#include <optional>

#include "core/anim/anim_layer.h"

namespace articula::ui {

class Document;

enum class LayerFlag { Mute, Solo, Lock };

// A new empty layer on top, made active; named "Layer N".
std::optional<QString> addLayer(Document& document, LayerMode mode);
std::optional<QString> deleteLayer(Document& document, int layer);
std::optional<QString> renameLayer(Document& document, int layer, const QString& name);
// Moves the layer `delta` places up (+) or down (-) the stack; the active layer follows it.
std::optional<QString> moveLayer(Document& document, int layer, int delta);
std::optional<QString> setLayerFlag(Document& document, int layer, LayerFlag flag, bool on);
// Keys the layer's weight at the current time; refuses a weight outside 0..1.
std::optional<QString> keyLayerWeight(Document& document, int layer, double weight);
// Merge Down (LayerMergeJob): the layer into the one below, the bottom one into the base.
std::optional<QString> mergeLayerDown(Document& document, int layer);
// Merge All: every layer that is not muted into the base.
std::optional<QString> mergeAllLayers(Document& document);
// Zero Key (Maya's): keys the active layer's identity (what leaves the pose below as it is)
// at the current time on every channel of the selected joints, marking the range to edit.
std::optional<QString> zeroKeyActiveLayer(Document& document);

}  // namespace articula::ui
