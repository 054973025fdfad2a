// KHR_draco_mesh_compression: Draco-compressed files (as gltf-pipeline -d writes them) import
// as the uncompressed files they came from, and damaged ones are refused in one line.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <limits>
#include <nlohmann/json.hpp>
#include <string>

#include "core/io/import.h"

namespace articula {
namespace {

namespace fs = std::filesystem;

std::string dataPath(const std::string& relative) { return std::string(ARTICULA_TEST_DATA_DIR) + "/gltf/" + relative; }

Scene imported(const std::string& path) {
  auto scene = importScene(path);
  EXPECT_TRUE(scene) << scene.error();
  return scene ? std::move(*scene) : Scene{};
}

// Each vertex of `decoded` against the nearest vertex of `original`: the position within
// `positionTolerance` (gltf-pipeline quantizes positions to 11 bits of the extent by default:
// half a step per axis, extent / 2364 in 3D),
// and the skin's joint weights of the two within 0.01 (8-bit weights).
void expectSameVertices(const Mesh& original, const Mesh& decoded, float positionTolerance) {
  ASSERT_EQ(original.indices.size(), decoded.indices.size());
  ASSERT_EQ(original.hasSkin, decoded.hasSkin);
  float farthest = 0.0f, largestWeightError = 0.0f;
  for (std::size_t v = 0; v < decoded.positions.size(); ++v) {
    std::size_t nearest = 0;
    float best = std::numeric_limits<float>::max();
    for (std::size_t o = 0; o < original.positions.size(); ++o) {
      const float d = (original.positions[o] - decoded.positions[v]).norm();
      if (d < best) best = d, nearest = o;
    }
    farthest = std::max(farthest, best);
    if (!decoded.hasSkin) continue;
    const int k = decoded.skin.influencesPerVertex;
    ASSERT_EQ(k, original.skin.influencesPerVertex);
    for (int slot = 0; slot < k; ++slot) {
      // The weight each mesh gives the joint of this slot (its slots may come in another order).
      const auto weightOf = [&](const Mesh& mesh, std::size_t vertex, int joint) {
        float w = 0.0f;
        for (int s = 0; s < k; ++s) {
          const std::size_t at = vertex * static_cast<std::size_t>(k) + static_cast<std::size_t>(s);
          if (mesh.skin.joints[mesh.skin.vertexJoints[at]] == joint) w += mesh.skin.vertexWeights[at];
        }
        return w;
      };
      const std::size_t at = v * static_cast<std::size_t>(k) + static_cast<std::size_t>(slot);
      const int joint = decoded.skin.joints[decoded.skin.vertexJoints[at]];
      largestWeightError =
          std::max(largestWeightError, std::abs(weightOf(decoded, v, joint) - weightOf(original, nearest, joint)));
    }
  }
  EXPECT_LE(farthest, positionTolerance);
  EXPECT_LE(largestWeightError, 0.01f);
}

float extentOf(const Mesh& mesh) {
  Vec3 lo = mesh.positions.front(), hi = lo;
  for (const Vec3& p : mesh.positions) lo = lo.cwiseMin(p), hi = hi.cwiseMax(p);
  return (hi - lo).maxCoeff();
}

TEST(GltfDraco, AGlbDecodesToTheMeshItWasCompressedFrom) {
  const Scene original = imported(dataPath("RiggedFigure/RiggedFigure.glb"));
  const Scene decoded = imported(dataPath("RiggedFigure/RiggedFigure_draco.glb"));
  ASSERT_EQ(original.meshes.size(), 1u);
  ASSERT_EQ(decoded.meshes.size(), 1u);
  expectSameVertices(original.meshes[0], decoded.meshes[0], extentOf(original.meshes[0]) / 2048.0f);
  EXPECT_EQ(decoded.skeleton.jointCount(), original.skeleton.jointCount());
  ASSERT_EQ(decoded.clips.size(), 1u);
  EXPECT_EQ(decoded.clips[0].frameCount(), original.clips[0].frameCount());
}

// The compressed data in a .bin beside the .gltf (gltf-pipeline -d -s).
TEST(GltfDraco, AGltfReadsItsCompressedDataFromItsBinFile) {
  const Scene original = imported(dataPath("RiggedSimple/RiggedSimple.glb"));
  const Scene decoded = imported(dataPath("RiggedSimple/RiggedSimple_draco.gltf"));
  ASSERT_EQ(decoded.meshes.size(), 1u);
  expectSameVertices(original.meshes[0], decoded.meshes[0], extentOf(original.meshes[0]) / 2048.0f);
}

class GltfDracoBadInput : public ::testing::Test {
 protected:
  void SetUp() override {
    mDir = fs::temp_directory_path() / ("articula_draco_" + std::string(::testing::UnitTest::GetInstance()
                                                                           ->current_test_info()
                                                                           ->name()));
    fs::remove_all(mDir);
    fs::create_directories(mDir);
    fs::copy_file(dataPath("RiggedSimple/RiggedSimple_draco.bin"), mDir / "RiggedSimple_draco.bin");
    std::ifstream in(dataPath("RiggedSimple/RiggedSimple_draco.gltf"));
    mJson = nlohmann::json::parse(in);
  }
  void TearDown() override { fs::remove_all(mDir); }

  nlohmann::json& draco() { return mJson["meshes"][0]["primitives"][0]["extensions"]["KHR_draco_mesh_compression"]; }

  // Imports the edited file and returns its one-line refusal, which names the file.
  std::string refusal() {
    const std::string path = (mDir / "edited.gltf").string();
    std::ofstream(path) << mJson.dump();
    auto scene = importScene(path);
    EXPECT_FALSE(scene);
    if (scene) return {};
    EXPECT_EQ(scene.error().rfind(path + ": mesh 0 primitive 0: ", 0), 0u) << scene.error();
    EXPECT_EQ(scene.error().find('\n'), std::string::npos) << scene.error();
    return scene.error();
  }

  fs::path mDir;
  nlohmann::json mJson;
};

TEST_F(GltfDracoBadInput, ABufferViewThatDoesNotExist) {
  draco()["bufferView"] = 99;
  EXPECT_NE(refusal().find("its Draco bufferView does not exist"), std::string::npos);
}

TEST_F(GltfDracoBadInput, ABufferViewPastItsBuffer) {
  const int view = draco()["bufferView"].get<int>();
  mJson["bufferViews"][view]["byteLength"] = 1 << 30;
  EXPECT_NE(refusal().find("lies outside its buffer"), std::string::npos);
}

TEST_F(GltfDracoBadInput, AnAttributeTheDracoDataDoesNotHold) {
  draco()["attributes"]["POSITION"] = 42;
  EXPECT_NE(refusal().find("the Draco data has no attribute 42 (POSITION)"), std::string::npos);
}

TEST_F(GltfDracoBadInput, AnAttributeWithoutItsAccessor) {
  mJson["meshes"][0]["primitives"][0]["attributes"].erase("NORMAL");
  EXPECT_NE(refusal().find("Draco attribute NORMAL has no accessor"), std::string::npos);
}

TEST_F(GltfDracoBadInput, ComponentsTheAccessorTypeDoesNotHave) {
  const int position = mJson["meshes"][0]["primitives"][0]["attributes"]["POSITION"].get<int>();
  mJson["accessors"][position]["type"] = "VEC2";
  EXPECT_NE(refusal().find("Draco attribute POSITION has 3 components where its accessor's type has 2"),
            std::string::npos);
}

TEST_F(GltfDracoBadInput, BytesThatAreNotDraco) {
  const int view = draco()["bufferView"].get<int>();
  mJson["bufferViews"][view]["byteOffset"] = 0;
  mJson["bufferViews"][view]["byteLength"] = 16;
  const std::string message = refusal();
  EXPECT_TRUE(message.find("is not a triangle mesh") != std::string::npos ||
              message.find("does not decode") != std::string::npos)
      << message;
}

}  // namespace
}  // namespace articula
