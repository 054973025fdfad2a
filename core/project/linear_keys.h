#pragma once
// Lines instead of cubic splines in what the CLI and the editor write by default: Blender's
// glTF importer drops CUBICSPLINE tangents (it puts automatic Bézier handles through the
// keys), so a clip authored with Bézier keys (the bundled mannequin's walk) or read from a
// file's cubic splines played tens of millimetres off there. Such a clip is sampled at a
// player's rate and reduced to linear keys within the bake's tolerance, each rotation
// segment held both as a slerp and as Blender's per-component lerp (KeyReductionJob).
#include <cstddef>
#include <optional>
#include <string>

#include "core/scene/scene.h"
#include "core/util/result.h"

namespace articula {

// True when some joint channel of `clip` has a segment that glTF can only store as a cubic
// spline: a Bézier translation or scale curve, a Bézier or cubic-spline rotation.
bool hasCubicSegments(const Clip& clip);

struct LinearKeysReport {
  int clipsConverted = 0;
  std::size_t keysBefore = 0;  // of the converted clips, as glTF stores them (channelKeyCount)
  std::size_t keysAfter = 0;
  // Largest model-space distance of any node from the source clip, on every sample of the
  // player's rate, as the spec and as Blender play the lines.
  float maxDeviationModel = 0.0f;
};

// Turns every clip of `scene` with cubic segments (hasCubicSegments) into linear and step
// keys; other clips, their named curves and morph weights are left as they are.
struct LinearKeysJob {
  Scene* scene = nullptr;
  // Largest joint-position error, model space; usually kDefaultToleranceOfHeight ×
  // Scene::characterHeight(), the bake's default. Must be positive and finite.
  float toleranceModel = 0.0f;

  // nullopt when the job can run; otherwise a message for: no scene, a tolerance that is
  // not positive and finite, an invalid skeleton (Skeleton::validate).
  std::optional<std::string> validate() const;
  // Validates first. On failure (also a clip that cannot be reduced: the message names it)
  // returns the message and leaves the scene untouched.
  Result<LinearKeysReport> run() const;
};

}  // namespace articula
