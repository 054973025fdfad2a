#include "core/io/gltf_export_extras.h"

#include <array>
#include <cmath>
#include <vector>

namespace articula {
namespace {

constexpr std::array<const char*, 3> kInterpolationNames = {"constant", "linear", "bezier"};
constexpr std::array<const char*, 5> kHandleTypeNames = {"free", "aligned", "vector", "auto", "autoClamped"};
constexpr std::size_t kKeyFields = 9;

const char* interpolationName(Interpolation interpolation) {
  return kInterpolationNames[static_cast<std::size_t>(interpolation)];
}

const char* handleTypeName(HandleType type) { return kHandleTypeNames[static_cast<std::size_t>(type)]; }

template <typename Enum, std::size_t N>
std::optional<Enum> parseName(const tinygltf::Value& value, const std::array<const char*, N>& names) {
  if (!value.IsString()) return std::nullopt;
  const std::string& text = value.Get<std::string>();
  for (std::size_t i = 0; i < N; ++i) {
    if (text == names[i]) return static_cast<Enum>(i);
  }
  return std::nullopt;
}

std::optional<double> finiteNumber(const tinygltf::Value& value) {
  if (!value.IsNumber()) return std::nullopt;
  const double number = value.GetNumberAsDouble();
  return std::isfinite(number) ? std::optional<double>(number) : std::nullopt;
}

std::optional<std::string> readCurve(const std::string& name, const tinygltf::Value& source, Curve& curve) {
  const std::string where = "articula extras: curve '" + name + "'";
  if (!source.IsObject() || !source.Get("keys").IsArray()) return where + " has no \"keys\" array";
  const tinygltf::Value& list = source.Get("keys");
  std::vector<CurveKey> keys(list.ArrayLen());
  for (std::size_t k = 0; k < keys.size(); ++k) {
    const tinygltf::Value& fields = list.Get(static_cast<int>(k));
    const std::string bad = where + " key " + std::to_string(k) + ": ";
    if (fields.ArrayLen() != kKeyFields) return bad + "expected " + std::to_string(kKeyFields) + " fields";
    std::array<double, 6> numbers{};
    constexpr std::array<int, 6> kNumberFields = {0, 1, 5, 6, 7, 8};
    for (std::size_t i = 0; i < numbers.size(); ++i) {
      const auto number = finiteNumber(fields.Get(kNumberFields[i]));
      if (!number) return bad + "field " + std::to_string(kNumberFields[i]) + " is not a finite number";
      numbers[i] = *number;
    }
    const auto interpolation = parseName<Interpolation>(fields.Get(2), kInterpolationNames);
    const auto leftType = parseName<HandleType>(fields.Get(3), kHandleTypeNames);
    const auto rightType = parseName<HandleType>(fields.Get(4), kHandleTypeNames);
    if (!interpolation) return bad + "unknown interpolation";
    if (!leftType || !rightType) return bad + "unknown handle type";
    CurveKey& key = keys[k];
    key.time = numbers[0];
    key.value = numbers[1];
    key.interpolation = *interpolation;
    key.leftType = *leftType;
    key.rightType = *rightType;
    key.left = Vec2d(numbers[2], numbers[3]);
    key.right = Vec2d(numbers[4], numbers[5]);
  }
  curve.setKeys(std::move(keys));
  return std::nullopt;
}

}  // namespace

nlohmann::ordered_json articulaClipExtras(const Clip& clip, double timeOffset) {
  nlohmann::ordered_json articula;
  articula["version"] = kArticulaExtrasVersion;
  articula["frameRate"] = clip.frameRate;
  articula["startTime"] = clip.startTime + timeOffset;
  articula["endTime"] = clip.endTime + timeOffset;
  if (!clip.curves.empty()) {
    nlohmann::ordered_json curves = nlohmann::ordered_json::object();
    for (const auto& [name, curve] : clip.curves) {
      nlohmann::ordered_json keys = nlohmann::ordered_json::array();
      for (const CurveKey& key : curve.keys()) {
        keys.push_back({key.time + timeOffset, key.value, interpolationName(key.interpolation),
                        handleTypeName(key.leftType), handleTypeName(key.rightType), key.left.x() + timeOffset,
                        key.left.y(), key.right.x() + timeOffset, key.right.y()});
      }
      curves[name] = {{"keys", std::move(keys)}};
    }
    articula["curves"] = std::move(curves);
  }
  return articula;
}

std::optional<std::string> readArticulaExtras(const tinygltf::Value& extras, Clip& clip) {
  if (!extras.Has("articula")) return std::nullopt;
  const tinygltf::Value& articula = extras.Get("articula");
  if (!articula.IsObject()) return "articula extras: not an object";

  if (articula.Has("frameRate")) {
    const auto rate = finiteNumber(articula.Get("frameRate"));
    if (!rate || !(*rate > 0.0)) return "articula extras: frameRate is not a positive number";
    clip.frameRate = *rate;
  }
  if (articula.Has("startTime") || articula.Has("endTime")) {
    const auto start = finiteNumber(articula.Get("startTime"));
    const auto end = finiteNumber(articula.Get("endTime"));
    if (!start || !end || *end < *start) return "articula extras: startTime/endTime is not a time range";
    clip.startTime = *start;
    clip.endTime = *end;
  }
  if (articula.Has("curves")) {
    const tinygltf::Value& curves = articula.Get("curves");
    if (!curves.IsObject()) return "articula extras: curves is not an object";
    for (const std::string& name : curves.Keys()) {
      Curve curve;
      if (auto error = readCurve(name, curves.Get(name), curve)) return error;
      clip.curves[name] = std::move(curve);
    }
  }
  return std::nullopt;
}

}  // namespace articula
