#pragma once
// Crafted binary glTF files made from a real one, written by the tests themselves rather
// than committed: deep and huge node trees, repeated animations, extreme key times,
// duplicated skin joints, degenerate normals, long and binary names (the operators of
// tests/tools/mutation_run.py, issue 38).
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

namespace articula::testing_tools {

struct Glb {
  nlohmann::json json;
  std::string binary;  // the BIN chunk
};

inline Glb readGlb(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  auto u32 = [&](std::size_t at) {
    std::uint32_t value = 0;
    std::memcpy(&value, bytes.data() + at, 4);
    return value;
  };
  const std::uint32_t jsonLength = u32(12);
  Glb glb{nlohmann::json::parse(bytes.substr(20, jsonLength)), {}};
  const std::size_t binAt = 20 + jsonLength;
  if (binAt + 8 <= bytes.size()) glb.binary = bytes.substr(binAt + 8, u32(binAt));
  return glb;
}

inline void writeGlb(const Glb& glb, const std::filesystem::path& path) {
  std::string text = glb.json.dump();
  text.append((4 - text.size() % 4) % 4, ' ');
  std::string binary = glb.binary;
  binary.append((4 - binary.size() % 4) % 4, '\0');
  auto u32 = [](std::uint32_t value) { return std::string(reinterpret_cast<const char*>(&value), 4); };
  const auto total = static_cast<std::uint32_t>(12 + 8 + text.size() + 8 + binary.size());
  std::ofstream out(path, std::ios::binary);
  out << "glTF" << u32(2) << u32(total) << u32(static_cast<std::uint32_t>(text.size())) << "JSON" << text
      << u32(static_cast<std::uint32_t>(binary.size())) << std::string("BIN\0", 4) << binary;
}

enum class TreeShape { Chain, Siblings, Roots };

// `count` empty nodes: one chain `count` deep or side by side under the first root of the
// default scene, or as roots of that scene.
inline void addNodeTree(Glb& glb, int count, TreeShape shape) {
  nlohmann::json& nodes = glb.json["nodes"];
  nlohmann::json& scene = glb.json["scenes"][glb.json.value("scene", 0)];
  const int root = scene["nodes"][0].get<int>();
  const int first = static_cast<int>(nodes.size());
  for (int i = 0; i < count; ++i) {
    nlohmann::json node = {{"name", "extra" + std::to_string(i)}};
    if (shape == TreeShape::Chain && i + 1 < count) node["children"] = {first + i + 1};
    nodes.push_back(std::move(node));
  }
  nlohmann::json& children = nodes[static_cast<std::size_t>(root)]["children"];
  if (shape == TreeShape::Chain) {
    children.push_back(first);
    return;
  }
  nlohmann::json& parentList = shape == TreeShape::Roots ? scene["nodes"] : children;
  for (int i = 0; i < count; ++i) parentList.push_back(first + i);
}

// The file's animations listed `times` times over (the same samplers and accessors).
inline void repeatAnimations(Glb& glb, int times) {
  const nlohmann::json animations = glb.json["animations"];
  nlohmann::json repeated = nlohmann::json::array();
  for (int t = 0; t < times; ++t) {
    for (const auto& animation : animations) repeated.push_back(animation);
  }
  glb.json["animations"] = std::move(repeated);
}

// Byte offset in the BIN chunk of element `element` (of `width` floats) of a float accessor.
inline std::size_t floatElementOffset(const Glb& glb, int accessor, int element, std::size_t width) {
  const nlohmann::json& access = glb.json["accessors"][static_cast<std::size_t>(accessor)];
  const nlohmann::json& view = glb.json["bufferViews"][access["bufferView"].get<std::size_t>()];
  const std::size_t stride = view.value("byteStride", std::size_t{4} * width);
  return view.value("byteOffset", std::size_t{0}) + access.value("byteOffset", std::size_t{0}) +
         static_cast<std::size_t>(element) * stride;
}

inline std::vector<float> floatsAt(const Glb& glb, int accessor, int element, std::size_t width) {
  std::vector<float> values(width);
  std::memcpy(values.data(), glb.binary.data() + floatElementOffset(glb, accessor, element, width),
              width * sizeof(float));
  return values;
}

// Overwrites element `element` of a float accessor in the BIN chunk, and its min/max.
inline void setFloats(Glb& glb, int accessor, int element, const std::vector<float>& values) {
  nlohmann::json& access = glb.json["accessors"][static_cast<std::size_t>(accessor)];
  std::memcpy(glb.binary.data() + floatElementOffset(glb, accessor, element, values.size()), values.data(),
              values.size() * sizeof(float));
  if (!access.contains("min")) return;
  for (std::size_t c = 0; c < values.size(); ++c) {
    access["min"][c] = std::min(access["min"][c].get<double>(), static_cast<double>(values[c]));
    access["max"][c] = std::max(access["max"][c].get<double>(), static_cast<double>(values[c]));
  }
}

}  // namespace articula::testing_tools
