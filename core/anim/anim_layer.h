#pragma once
// Animation layers: a clip is a base (its own tracks) plus an ordered stack of layers that
// play on top of it, bottom first, as Maya's animation layers and MotionBuilder's do. A layer
// edits a capture without touching its dense keys: the base stays as it was read.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/anim/tracks.h"
#include "core/math/transform.h"

namespace articula {

// The animation of one joint (or node) of the skeleton. Empty tracks leave that channel at
// the rest pose (in a clip's base) or as the layers below left it (in a layer).
struct JointTrack {
  int joint = -1;  // index into the skeleton the clip belongs to
  Vec3Track translation;
  RotationTrack rotation;
  Vec3Track scale;
};

// How a layer's channels combine with what the layers below it give, in each joint's local
// (parent) space, at weight w in [0, 1]:
// - Additive: rotation below * slerp(identity, q_layer, w), translation below + w t_layer,
//   scale below ⊙ lerp(1, s_layer, w). A component the layer does not key adds nothing.
// - Override: slerp(below, q_layer, w), lerp(below, t_layer, w), lerp(below, s_layer, w).
enum class LayerMode : std::uint8_t { Additive, Override };

// "additive" or "override": the word of the project file and the editor.
const char* layerModeName(LayerMode mode);
std::optional<LayerMode> parseLayerMode(const std::string& word);

// A layer's channels for a joint the skeleton does not have (a project whose asset lost a
// joint): kept, named and written back, never played.
struct OrphanTrack {
  std::string jointName;
  JointTrack track;  // track.joint is -1
};

struct AnimLayer {
  std::string name;
  LayerMode mode = LayerMode::Additive;
  // The layer's weight over time, clamped to [0, 1] when played; no keys: 1.
  Curve weight;
  bool muted = false;
  bool solo = false;    // when any layer is solo, only solo layers play
  bool locked = false;  // the editor keys nothing on a locked layer
  std::vector<JointTrack> tracks;  // at most one per joint, any joints, any channels
  std::vector<OrphanTrack> orphans;

  double weightAt(double t) const;
  const JointTrack* findTrack(int joint) const;
  JointTrack& trackFor(int joint);  // creates it when missing
  std::size_t keyCount() const;     // keys over every channel, the weight's included
};

// Whether layer `index` of `layers` plays: not muted, and solo when any layer is solo.
bool layerPlays(const std::vector<AnimLayer>& layers, std::size_t index);

// `below` with one layer's channel values (local space) put on top at weight `weight`
// (already in [0, 1]); at weight 1 an override gives the layer's values exactly and an
// additive layer below * value.
Quat combineRotation(LayerMode mode, const Quat& below, const Quat& layerValue, float weight);
Vec3 combineTranslation(LayerMode mode, const Vec3& below, const Vec3& layerValue, float weight);
Vec3 combineScale(LayerMode mode, const Vec3& below, const Vec3& layerValue, float weight);

// The inverse of the combine functions at weight 1: the layer value that turns `below` into
// `target` (local space). What Key Pose writes on the active layer, and Merge Down on the
// layer it merges into.
Transform layerValueFor(LayerMode mode, const Transform& below, const Transform& target);

// The value a layer's channel holds where it has no key: 0 for an additive translation,
// 1 for an additive scale; what is below for an override.
Vec3 translationFallback(LayerMode mode, const Vec3& below);
Vec3 scaleFallback(LayerMode mode, const Vec3& below);

}  // namespace articula
