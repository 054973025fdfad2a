#pragma once
// Merge Down and Merge All: a clip's layers baked into the layer below or into the base, so
// the clip plays as the stack did (core/anim/layer_stack.h) with fewer layers.
#include <cstddef>
#include <optional>
#include <string>

#include "core/anim/clip.h"
#include "core/skeleton/skeleton.h"
#include "core/util/result.h"

namespace articula {

struct LayerMergeReport {
  int layersMerged = 0;
  // Channels (a joint's translation, rotation or scale) rewritten: keyed on every frame where
  // the channel they land in was (a capture's dense base stays dense), else reduced to the
  // fewest keys within the tolerance.
  int denseChannels = 0;
  int reducedChannels = 0;
};

// Merges, on the clip's frames (Clip::frameCount, at its frame rate), channels a merged layer
// keys; every other channel keeps its keys bit for bit. Into the base: the base's channel
// becomes what the stack played. Into a layer: that layer's channel becomes the value that
// plays the same on what is below it (layerValueFor), and its weight 1.
struct LayerMergeJob {
  const Skeleton* skeleton = nullptr;
  const Clip* clip = nullptr;
  // Merge Down of layer `layer` (0 = the bottom one, merged into the base). With `all`, every
  // layer that is not muted goes into the base, the muted ones stay (`layer` is not read).
  int layer = -1;
  bool all = false;
  // Largest model-space distance (skeleton units) a reduced channel may move a node by.
  float toleranceModel = 1e-3f;
  Clip* output = nullptr;  // receives the merged clip; untouched on failure

  // nullopt when the job can run. Otherwise one line for: no skeleton, clip or output; an
  // invalid clip; a clip with no frames; no layer at `layer` (nothing to merge), or with
  // `all` no layer that is not muted; a muted layer to merge or to merge into; a tolerance
  // that is not positive.
  std::optional<std::string> validate() const;
  Result<LayerMergeReport> run() const;
};

// `clip` with every layer that is not muted merged into its base within `toleranceModel`,
// the muted layers dropped: what bake and export write. The clip itself when it has no layers.
Result<Clip> flattenLayers(const Skeleton& skeleton, const Clip& clip, float toleranceModel);

}  // namespace articula
