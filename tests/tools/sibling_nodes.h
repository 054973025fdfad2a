#pragma once
// Files with `siblings` animated nodes side by side under one root, each node's translation
// keyed twice (0 0 0 at 0 s, 1 2 3 at 1 s): the shape that made track creation quadratic.
// Used by the import tests and by articula-bench.
#include <cstdint>
#include <string>

namespace articula::testing_tools {

// glTF 2.0 JSON with its one buffer as a data URI; every channel shares one sampler.
inline std::string siblingNodesGltf(int siblings) {
  // Little-endian floats: times 0 and 1, then the two translations.
  static const char* const kBufferBase64 = "AAAAAAAAgD8AAAAAAAAAAAAAAAAAAIA/AAAAQAAAQEA=";
  std::string nodes = R"({"name":"root","children":[)";
  for (int i = 0; i < siblings; ++i) nodes += (i == 0 ? "" : ",") + std::to_string(i + 1);
  nodes += "]}";
  std::string channels;
  for (int i = 0; i < siblings; ++i) {
    nodes += R"(,{"name":"n)" + std::to_string(i) + "\"}";
    channels += (i == 0 ? "" : ",");
    channels += R"({"sampler":0,"target":{"node":)" + std::to_string(i + 1) + R"(,"path":"translation"}})";
  }
  return R"({"asset":{"version":"2.0"},"scene":0,"scenes":[{"nodes":[0]}],"nodes":[)" + nodes +
         R"(],"buffers":[{"byteLength":32,"uri":"data:application/octet-stream;base64,)" + kBufferBase64 +
         R"("}],"bufferViews":[{"buffer":0,"byteOffset":0,"byteLength":8},{"buffer":0,"byteOffset":8,"byteLength":24}],)"
         R"("accessors":[{"bufferView":0,"componentType":5126,"count":2,"type":"SCALAR","min":[0],"max":[1]},)"
         R"({"bufferView":1,"componentType":5126,"count":2,"type":"VEC3"}],)"
         R"("animations":[{"name":"siblings","samplers":[{"input":0,"output":1}],"channels":[)" +
         channels + "]}]}";
}

// Collada 1.4.1 whose first `animatedSiblings` nodes each have an <animation> targeting their
// <translate sid="location">.
inline std::string siblingNodesCollada(int siblings, int animatedSiblings) {
  std::string text =
      "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n"
      "<COLLADA xmlns=\"http://www.collada.org/2005/11/COLLADASchema\" version=\"1.4.1\">\n"
      "<asset><unit name=\"meter\" meter=\"1\"/><up_axis>Y_UP</up_axis></asset>\n<library_animations>\n";
  for (int i = 0; i < animatedSiblings; ++i) {
    const std::string a = "a" + std::to_string(i);
    text += "<animation id=\"" + a + "\"><source id=\"" + a + "-in\"><float_array id=\"" + a +
            "-in-array\" count=\"2\">0 1</float_array><technique_common><accessor source=\"#" + a +
            "-in-array\" count=\"2\" stride=\"1\"><param name=\"TIME\" type=\"float\"/></accessor></technique_common>"
            "</source><source id=\"" +
            a + "-out\"><float_array id=\"" + a +
            "-out-array\" count=\"6\">0 0 0 1 2 3</float_array><technique_common><accessor source=\"#" + a +
            "-out-array\" count=\"2\" stride=\"3\"><param name=\"X\" type=\"float\"/><param name=\"Y\" type=\"float\"/>"
            "<param name=\"Z\" type=\"float\"/></accessor></technique_common></source><sampler id=\"" +
            a + "-s\"><input semantic=\"INPUT\" source=\"#" + a + "-in\"/><input semantic=\"OUTPUT\" source=\"#" + a +
            "-out\"/></sampler><channel source=\"#" + a + "-s\" target=\"n" + std::to_string(i) +
            "/location\"/></animation>\n";
  }
  text +=
      "</library_animations>\n<library_visual_scenes><visual_scene id=\"Scene\" name=\"Scene\">"
      "<node id=\"root\" name=\"root\" type=\"NODE\">\n";
  for (int i = 0; i < siblings; ++i) {
    const std::string n = "n" + std::to_string(i);
    text += "<node id=\"" + n + "\" name=\"" + n +
            "\" type=\"NODE\"><translate sid=\"location\">0 0 0</translate></node>\n";
  }
  return text +
         "</node></visual_scene></library_visual_scenes>\n<scene><instance_visual_scene url=\"#Scene\"/></scene>\n"
         "</COLLADA>\n";
}

}  // namespace articula::testing_tools
