// EXT_meshopt_compression in the glTF writer (GltfCompression::Meshopt): the compressed file
// holds, once its views are decoded, the very bytes of the animation accessors the core file
// holds, in fewer bytes, and passes the Khronos validator.
#include <gtest/gtest.h>
#include <meshoptimizer.h>
#include <unistd.h>

#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "core/io/gltf_export.h"
#include "core/io/import.h"
#include "tools/gltf_validator.h"
#include "tools/written_gltf.h"

namespace articula {
namespace {

namespace fs = std::filesystem;
using Json = nlohmann::json;

// A .glb's JSON and BIN chunks.
struct Glb {
  Json json;
  std::vector<std::uint8_t> bin;
};

Glb readGlb(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  const std::vector<std::uint8_t> bytes{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  Glb glb;
  std::uint32_t jsonLength = 0, binLength = 0;
  std::memcpy(&jsonLength, bytes.data() + 12, 4);
  glb.json = Json::parse(bytes.begin() + 20, bytes.begin() + 20 + jsonLength);
  const std::size_t binStart = 20 + jsonLength;
  std::memcpy(&binLength, bytes.data() + binStart, 4);
  glb.bin.assign(bytes.begin() + static_cast<std::ptrdiff_t>(binStart + 8),
                 bytes.begin() + static_cast<std::ptrdiff_t>(binStart + 8 + binLength));
  return glb;
}

// The bytes of bufferView `index`: as stored, or decoded from its EXT_meshopt_compression stream.
std::vector<std::uint8_t> viewBytes(const Glb& glb, std::size_t index) {
  const Json& view = glb.json["bufferViews"][index];
  if (!view.contains("extensions")) {
    const auto* start = glb.bin.data() + view.value("byteOffset", std::size_t{0});
    return {start, start + view["byteLength"].get<std::size_t>()};
  }
  const Json& meshopt = view["extensions"]["EXT_meshopt_compression"];
  EXPECT_EQ(meshopt["buffer"], 0);
  EXPECT_EQ(meshopt["mode"], "ATTRIBUTES");
  const std::size_t count = meshopt["count"], stride = meshopt["byteStride"];
  std::vector<std::uint8_t> decoded(count * stride);
  const auto* source = glb.bin.data() + meshopt.value("byteOffset", std::size_t{0});
  EXPECT_EQ(meshopt_decodeVertexBuffer(decoded.data(), count, stride, source, meshopt["byteLength"]), 0);
  return decoded;
}

std::size_t elementBytes(const Json& accessor) {
  const int component = accessor["componentType"] == 5126 ? 4 : 2;
  const std::string type = accessor["type"];
  const int width = type == "SCALAR" ? 1 : type == "VEC3" ? 3 : 4;
  return static_cast<std::size_t>(component * width);
}

// The bytes accessor `index` reads.
std::vector<std::uint8_t> accessorBytes(const Glb& glb, std::size_t index) {
  const Json& accessor = glb.json["accessors"][index];
  const std::vector<std::uint8_t> view = viewBytes(glb, accessor["bufferView"]);
  const std::size_t offset = accessor.value("byteOffset", std::size_t{0});
  const std::size_t length = accessor["count"].get<std::size_t>() * elementBytes(accessor);
  EXPECT_LE(offset + length, view.size());
  return {view.begin() + static_cast<std::ptrdiff_t>(offset),
          view.begin() + static_cast<std::ptrdiff_t>(std::min(offset + length, view.size()))};
}

class GltfMeshopt : public testing::Test {
 protected:
  void SetUp() override {
    mDir = fs::temp_directory_path() / ("articula_meshopt_" + std::to_string(::getpid()));
    fs::create_directories(mDir);
  }
  void TearDown() override {
    testing_tools::keepWrittenGltf(mDir);
    fs::remove_all(mDir);
  }
  fs::path mDir;
};

// CMU 02_01 (a key per frame on 31 joints) and RobotExpressive (14 clips, several element
// sizes): every animation accessor of the compressed file reads the bytes of the core file's.
TEST_F(GltfMeshopt, CompressedViewsDecodeToTheCoreFilesAnimationBytes) {
  for (const char* file : {"bvh/cmu-mb-2010/02_01.bvh", "gltf/RobotExpressive/RobotExpressive.glb"}) {
    SCOPED_TRACE(file);
    auto scene = importScene(std::string(ARTICULA_TEST_DATA_DIR) + "/" + file);
    ASSERT_TRUE(scene) << scene.error();
    const std::string core = (mDir / "core.glb").string(), compressed = (mDir / "meshopt.glb").string();
    GltfExportOptions options;
    ASSERT_FALSE(exportGltf(*scene, core, options));
    options.compression = GltfCompression::Meshopt;
    GltfExportReport report;
    ASSERT_FALSE(exportGltf(*scene, compressed, options, &report));
    EXPECT_EQ(report.compression, GltfCompression::Meshopt);
    EXPECT_LT(fs::file_size(compressed), fs::file_size(core));
    EXPECT_TRUE(testing_tools::validatesWithoutErrors(compressed));

    const Glb a = readGlb(core), b = readGlb(compressed);
    EXPECT_EQ(b.json["extensionsRequired"], Json::array({"EXT_meshopt_compression"}));
    EXPECT_EQ(b.json["buffers"][1]["extensions"]["EXT_meshopt_compression"]["fallback"], true);
    ASSERT_EQ(a.json["accessors"].size(), b.json["accessors"].size());
    std::size_t compared = 0;
    for (const Json& animation : b.json["animations"]) {
      for (const Json& sampler : animation["samplers"]) {
        for (const char* role : {"input", "output"}) {
          const std::size_t index = sampler[role];
          ASSERT_EQ(accessorBytes(a, index), accessorBytes(b, index)) << "accessor " << index;
          ++compared;
        }
      }
    }
    EXPECT_GT(compared, 60u);
  }
}

}  // namespace
}  // namespace articula
