#include "core/anim/anim_layer.h"

#include <algorithm>

namespace articula {

const char* layerModeName(LayerMode mode) { return mode == LayerMode::Override ? "override" : "additive"; }

std::optional<LayerMode> parseLayerMode(const std::string& word) {
  if (word == "additive") return LayerMode::Additive;
  if (word == "override") return LayerMode::Override;
  return std::nullopt;
}

double AnimLayer::weightAt(double t) const {
  if (weight.empty()) return 1.0;
  return std::clamp(weight.evaluate(t), 0.0, 1.0);
}

const JointTrack* AnimLayer::findTrack(int joint) const {
  const auto it = std::find_if(tracks.begin(), tracks.end(), [joint](const JointTrack& t) { return t.joint == joint; });
  return it == tracks.end() ? nullptr : &*it;
}

JointTrack& AnimLayer::trackFor(int joint) {
  const auto it = std::find_if(tracks.begin(), tracks.end(), [joint](const JointTrack& t) { return t.joint == joint; });
  if (it != tracks.end()) return *it;
  JointTrack& track = tracks.emplace_back();
  track.joint = joint;
  return track;
}

std::size_t AnimLayer::keyCount() const {
  std::size_t count = weight.size();
  for (const JointTrack& track : tracks) {
    count += track.rotation.size();
    for (const Vec3Track* v : {&track.translation, &track.scale}) count += v->x.size() + v->y.size() + v->z.size();
  }
  return count;
}

bool layerPlays(const std::vector<AnimLayer>& layers, std::size_t index) {
  if (index >= layers.size() || layers[index].muted) return false;
  const bool anySolo = std::any_of(layers.begin(), layers.end(), [](const AnimLayer& l) { return l.solo; });
  return !anySolo || layers[index].solo;
}

Quat combineRotation(LayerMode mode, const Quat& below, const Quat& layerValue, float weight) {
  if (mode == LayerMode::Additive) {
    const Quat delta = weight >= 1.0f ? layerValue : Quat::Identity().slerp(weight, layerValue);
    return (below * delta).normalized();
  }
  return weight >= 1.0f ? layerValue : below.slerp(weight, layerValue);
}

Vec3 combineTranslation(LayerMode mode, const Vec3& below, const Vec3& layerValue, float weight) {
  if (mode == LayerMode::Additive) return below + weight * layerValue;
  return weight >= 1.0f ? layerValue : Vec3(below + weight * (layerValue - below));
}

Vec3 combineScale(LayerMode mode, const Vec3& below, const Vec3& layerValue, float weight) {
  const Vec3 target = mode == LayerMode::Additive ? Vec3(below.cwiseProduct(layerValue)) : layerValue;
  return weight >= 1.0f ? target : Vec3(below + weight * (target - below));
}

Transform layerValueFor(LayerMode mode, const Transform& below, const Transform& target) {
  if (mode == LayerMode::Override) return target;
  Transform value;
  value.rotation = (below.rotation.conjugate() * target.rotation).normalized();
  value.translation = target.translation - below.translation;
  value.scale = target.scale.cwiseQuotient(below.scale);
  return value;
}

Vec3 translationFallback(LayerMode mode, const Vec3& below) {
  return mode == LayerMode::Additive ? Vec3::Zero() : below;
}

Vec3 scaleFallback(LayerMode mode, const Vec3& below) { return mode == LayerMode::Additive ? Vec3::Ones() : below; }

}  // namespace articula
