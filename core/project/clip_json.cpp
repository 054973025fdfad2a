#include "core/project/clip_json.h"

#include <array>
#include <cmath>
#include <string_view>

namespace articula {
namespace {

using Json = nlohmann::ordered_json;

constexpr std::array<std::string_view, 3> kInterpolations = {"constant", "linear", "bezier"};
constexpr std::array<std::string_view, 5> kHandleTypes = {"free", "aligned", "vector", "auto", "auto_clamped"};
constexpr std::array<std::string_view, 4> kRotationInterpolations = {"step", "slerp", "bezier", "cubic_spline"};

template <std::size_t N>
std::optional<std::size_t> indexOf(const std::array<std::string_view, N>& names, const Json& value) {
  if (!value.is_string()) return std::nullopt;
  const auto& text = value.get_ref<const std::string&>();
  for (std::size_t i = 0; i < N; ++i) {
    if (names[i] == text) return i;
  }
  return std::nullopt;
}

template <std::size_t N>
std::string oneOf(const std::array<std::string_view, N>& names) {
  std::string text;
  for (std::size_t i = 0; i < N; ++i) {
    text += (i == 0 ? "'" : ", '");
    text += names[i];
    text += "'";
  }
  return text;
}

Json quatToJson(const Quat& q) { return Json::array({q.w(), q.x(), q.y(), q.z()}); }

// Checked reads: each returns false and fills `error` (prefixed with `where`) on a wrong type.
struct Reader {
  std::string error;

  bool fail(const std::string& where, const std::string& what) {
    error = where + ": " + what;
    return false;
  }
  bool number(const Json& j, const std::string& where, double& out) {
    if (!j.is_number()) return fail(where, "expected a number");
    out = j.get<double>();
    if (!std::isfinite(out)) return fail(where, "not a finite number");
    return true;
  }
  bool numbers(const Json& j, const std::string& where, double* out, std::size_t count) {
    if (!j.is_array() || j.size() != count)
      return fail(where, "expected an array of " + std::to_string(count) + " numbers");
    for (std::size_t i = 0; i < count; ++i) {
      if (!number(j[i], where + "[" + std::to_string(i) + "]", out[i])) return false;
    }
    return true;
  }
  bool quat(const Json& j, const std::string& where, Quat& out) {
    double v[4];
    if (!numbers(j, where, v, 4)) return false;
    out = Quat(static_cast<float>(v[0]), static_cast<float>(v[1]), static_cast<float>(v[2]), static_cast<float>(v[3]));
    return true;
  }

  bool curve(const Json& j, const std::string& where, Curve& out) {
    if (!j.is_array()) return fail(where, "expected an array of keys");
    std::vector<CurveKey> keys;
    keys.reserve(j.size());
    for (std::size_t i = 0; i < j.size(); ++i) {
      const Json& k = j[i];
      const std::string at = where + "[" + std::to_string(i) + "]";
      if (!k.is_array() || k.size() != 7) {
        return fail(at, "expected [time, value, interpolation, left type, right type, [left], [right]]");
      }
      CurveKey key;
      double left[2], right[2];
      if (!number(k[0], at + " time", key.time) || !number(k[1], at + " value", key.value)) return false;
      const auto interpolation = indexOf(kInterpolations, k[2]);
      if (!interpolation) return fail(at, "interpolation must be one of " + oneOf(kInterpolations));
      const auto leftType = indexOf(kHandleTypes, k[3]);
      const auto rightType = indexOf(kHandleTypes, k[4]);
      if (!leftType || !rightType) return fail(at, "handle types must be one of " + oneOf(kHandleTypes));
      if (!numbers(k[5], at + " left handle", left, 2) || !numbers(k[6], at + " right handle", right, 2)) return false;
      key.interpolation = static_cast<Interpolation>(*interpolation);
      key.leftType = static_cast<HandleType>(*leftType);
      key.rightType = static_cast<HandleType>(*rightType);
      key.left = Vec2d(left[0], left[1]);
      key.right = Vec2d(right[0], right[1]);
      keys.push_back(key);
    }
    out.setKeys(std::move(keys));
    return true;
  }

  bool vec3Track(const Json& j, const std::string& where, Vec3Track& out) {
    if (!j.is_object()) return fail(where, "expected an object with x, y, z");
    const std::pair<const char*, Curve*> components[] = {{"x", &out.x}, {"y", &out.y}, {"z", &out.z}};
    for (const auto& [name, curve] : components) {
      if (j.contains(name) && !this->curve(j.at(name), where + "." + name, *curve)) return false;
    }
    return true;
  }

  bool rotation(const Json& j, const std::string& where, RotationTrack& out) {
    if (!j.is_array()) return fail(where, "expected an array of keys");
    std::vector<RotationKey> keys;
    keys.reserve(j.size());
    for (std::size_t i = 0; i < j.size(); ++i) {
      const Json& k = j[i];
      const std::string at = where + "[" + std::to_string(i) + "]";
      if (!k.is_array() || k.size() != 5) return fail(at, "expected [time, [w, x, y, z], interpolation, [in], [out]]");
      RotationKey key;
      if (!number(k[0], at + " time", key.time) || !quat(k[1], at + " rotation", key.value)) return false;
      const auto interpolation = indexOf(kRotationInterpolations, k[2]);
      if (!interpolation) return fail(at, "interpolation must be one of " + oneOf(kRotationInterpolations));
      if (!quat(k[3], at + " in control", key.inControl) || !quat(k[4], at + " out control", key.outControl))
        return false;
      if (!(key.value.norm() > 0.5f)) return fail(at, "the rotation is not a unit quaternion");
      key.interpolation = static_cast<RotationInterpolation>(*interpolation);
      keys.push_back(key);
    }
    out.setKeys(std::move(keys));
    return true;
  }
};

Json curveToJson(const Curve& curve) {
  Json keys = Json::array();
  for (const CurveKey& k : curve.keys()) {
    keys.push_back(Json::array({k.time, k.value, kInterpolations[static_cast<std::size_t>(k.interpolation)],
                                kHandleTypes[static_cast<std::size_t>(k.leftType)],
                                kHandleTypes[static_cast<std::size_t>(k.rightType)],
                                Json::array({k.left.x(), k.left.y()}), Json::array({k.right.x(), k.right.y()})}));
  }
  return keys;
}

Json vec3TrackToJson(const Vec3Track& track) {
  Json out = Json::object();
  if (!track.x.empty()) out["x"] = curveToJson(track.x);
  if (!track.y.empty()) out["y"] = curveToJson(track.y);
  if (!track.z.empty()) out["z"] = curveToJson(track.z);
  return out;
}

Json trackToJson(const JointTrack& track, const std::string& jointName) {
  Json t;
  t["joint"] = jointName;
  if (!track.translation.empty()) t["translation"] = vec3TrackToJson(track.translation);
  if (!track.rotation.empty()) {
    Json keys = Json::array();
    for (const RotationKey& k : track.rotation.keys()) {
      keys.push_back(Json::array({k.time, quatToJson(k.value),
                                  kRotationInterpolations[static_cast<std::size_t>(k.interpolation)],
                                  quatToJson(k.inControl), quatToJson(k.outControl)}));
    }
    t["rotation"] = std::move(keys);
  }
  if (!track.scale.empty()) t["scale"] = vec3TrackToJson(track.scale);
  return t;
}

Json layerToJson(const AnimLayer& layer, const Skeleton& skeleton) {
  Json json;
  json["name"] = layer.name;
  json["mode"] = layerModeName(layer.mode);
  json["weight"] = curveToJson(layer.weight);
  json["muted"] = layer.muted;
  json["solo"] = layer.solo;
  json["locked"] = layer.locked;
  Json tracks = Json::array();
  for (const JointTrack& track : layer.tracks) tracks.push_back(trackToJson(track, skeleton.name(track.joint)));
  for (const OrphanTrack& orphan : layer.orphans) tracks.push_back(trackToJson(orphan.track, orphan.jointName));
  json["tracks"] = std::move(tracks);
  return json;
}

bool readTrackChannels(Reader& read, const Json& t, const std::string& where, JointTrack& track) {
  if (t.contains("translation") && !read.vec3Track(t.at("translation"), where + ".translation", track.translation))
    return false;
  if (t.contains("rotation") && !read.rotation(t.at("rotation"), where + ".rotation", track.rotation)) return false;
  return !t.contains("scale") || read.vec3Track(t.at("scale"), where + ".scale", track.scale);
}

bool isTrackObject(const Json& t) { return t.is_object() && t.contains("joint") && t.at("joint").is_string(); }

// The "tracks" of `json` (a clip's or a layer's) into `tracks`, one per joint. A joint the
// skeleton lacks is kept by name in `orphans` (a layer's), or refused without them.
std::optional<std::string> readJointTracks(Reader& read, const Json& json, const std::string& at,
                                           const Skeleton& skeleton, std::vector<JointTrack>& tracks,
                                           std::vector<OrphanTrack>* orphans) {
  const Json empty = Json::array();
  const Json& list = json.contains("tracks") ? json.at("tracks") : empty;
  if (!list.is_array()) return at + ": 'tracks' must be an array";
  ClipTrackIndex index(tracks);
  for (std::size_t i = 0; i < list.size(); ++i) {
    const Json& t = list[i];
    const std::string trackAt = at + ": tracks[" + std::to_string(i) + "]";
    if (!isTrackObject(t)) return trackAt + ": expected an object with a 'joint' name";
    const std::string& jointName = t.at("joint").get_ref<const std::string&>();
    const int joint = skeleton.findJoint(jointName);
    if (joint < 0 && orphans == nullptr) return trackAt + ": no joint named '" + jointName + "' in the asset";
    if (joint >= 0 && index.find(joint) != nullptr) return trackAt + ": a second track for joint '" + jointName + "'";
    JointTrack& track = joint >= 0 ? index.trackFor(joint) : orphans->emplace_back(OrphanTrack{jointName, {}}).track;
    if (!readTrackChannels(read, t, trackAt, track)) return read.error;
  }
  return std::nullopt;
}

Result<bool> readFlag(const Json& json, const char* field, const std::string& where) {
  if (!json.contains(field)) return false;
  if (!json.at(field).is_boolean()) return makeError(where + "." + field + ": expected true or false");
  return json.at(field).get<bool>();
}

// A layer's channels for joints the skeleton lacks are kept as orphans, named.
Result<AnimLayer> layerFromJson(Reader& read, const Json& json, const Skeleton& skeleton, const std::string& where) {
  if (!json.is_object() || !json.contains("name") || !json.at("name").is_string()) {
    return makeError(where + ": expected a layer object with a 'name'");
  }
  AnimLayer layer;
  layer.name = json.at("name").get<std::string>();
  const std::string at = where + " '" + layer.name + "'";
  const std::string mode = json.contains("mode") && json.at("mode").is_string() ? json.at("mode").get<std::string>() : "";
  const auto parsed = parseLayerMode(mode);
  if (!parsed) return makeError(at + ": 'mode' must be \"additive\" or \"override\"");
  layer.mode = *parsed;
  if (json.contains("weight") && !read.curve(json.at("weight"), at + ".weight", layer.weight)) {
    return makeError(read.error);
  }
  for (const auto& [field, flag] : {std::pair{"muted", &layer.muted}, std::pair{"solo", &layer.solo},
                                    std::pair{"locked", &layer.locked}}) {
    auto value = readFlag(json, field, at);
    if (!value) return makeError(value.error());
    *flag = *value;
  }
  if (auto error = readJointTracks(read, json, at, skeleton, layer.tracks, &layer.orphans)) return makeError(*error);
  return layer;
}

}  // namespace

Json clipToJson(const Clip& clip, const Skeleton& skeleton) {
  Json json;
  json["name"] = clip.name;
  json["frame_rate"] = clip.frameRate;
  json["start"] = clip.startTime;
  json["end"] = clip.endTime;
  Json tracks = Json::array();
  for (const JointTrack& track : clip.tracks) tracks.push_back(trackToJson(track, skeleton.name(track.joint)));
  json["tracks"] = std::move(tracks);
  Json curves = Json::object();
  for (const auto& [name, curve] : clip.curves) curves[name] = curveToJson(curve);
  json["curves"] = std::move(curves);
  Json morphs = Json::array();
  for (const MorphWeightsTrack& morph : clip.morphWeights) {
    Json weights = Json::array();
    for (const Curve& curve : morph.weights) weights.push_back(curveToJson(curve));
    morphs.push_back(Json{{"mesh", morph.mesh}, {"weights", std::move(weights)}});
  }
  json["morph_weights"] = std::move(morphs);
  if (!clip.layers.empty()) {
    Json layers = Json::array();
    for (const AnimLayer& layer : clip.layers) layers.push_back(layerToJson(layer, skeleton));
    json["layers"] = std::move(layers);
  }
  return json;
}

Result<Clip> clipFromJson(const Json& json, const Skeleton& skeleton, const std::string& where) {
  Reader read;
  if (!json.is_object()) return makeError(where + ": expected a clip object");
  Clip clip;
  if (!json.contains("name") || !json.at("name").is_string()) return makeError(where + ": the clip has no name");
  clip.name = json.at("name").get<std::string>();
  const std::string at = where + " '" + clip.name + "'";
  for (const auto& [field, value] : {std::pair{"frame_rate", &clip.frameRate}, std::pair{"start", &clip.startTime},
                                     std::pair{"end", &clip.endTime}}) {
    if (!json.contains(field)) return makeError(at + ": missing '" + field + "'");
    if (!read.number(json.at(field), at + "." + field, *value)) return makeError(read.error);
  }
  if (auto error = readJointTracks(read, json, at, skeleton, clip.tracks, nullptr)) return makeError(*error);
  const Json empty = Json::array();
  const Json emptyObject = Json::object();
  const Json& curves = json.contains("curves") ? json.at("curves") : emptyObject;
  if (!curves.is_object()) return makeError(at + ": 'curves' must be an object of named curves");
  for (const auto& [name, keys] : curves.items()) {
    if (!read.curve(keys, at + ": curves['" + name + "']", clip.curves[name])) return makeError(read.error);
  }
  const Json& morphs = json.contains("morph_weights") ? json.at("morph_weights") : empty;
  if (!morphs.is_array()) return makeError(at + ": 'morph_weights' must be an array");
  for (std::size_t i = 0; i < morphs.size(); ++i) {
    const Json& m = morphs[i];
    const std::string morphAt = at + ": morph_weights[" + std::to_string(i) + "]";
    if (!m.is_object() || !m.contains("mesh") || !m.at("mesh").is_number_integer() || !m.contains("weights") ||
        !m.at("weights").is_array()) {
      return makeError(morphAt + ": expected {\"mesh\": index, \"weights\": [curves]}");
    }
    MorphWeightsTrack& morph = clip.morphWeights.emplace_back();
    morph.mesh = m.at("mesh").get<int>();
    for (std::size_t w = 0; w < m.at("weights").size(); ++w) {
      if (!read.curve(m.at("weights")[w], morphAt + ".weights[" + std::to_string(w) + "]",
                      morph.weights.emplace_back())) {
        return makeError(read.error);
      }
    }
  }
  const Json& layers = json.contains("layers") ? json.at("layers") : empty;
  if (!layers.is_array()) return makeError(at + ": 'layers' must be an array");
  for (std::size_t i = 0; i < layers.size(); ++i) {
    auto layer = layerFromJson(read, layers[i], skeleton, at + ": layers[" + std::to_string(i) + "]");
    if (!layer) return makeError(layer.error());
    clip.layers.push_back(std::move(*layer));
  }
  if (auto error = clip.validate(skeleton.jointCount())) return makeError(at + ": " + *error);
  return clip;
}

}  // namespace articula
