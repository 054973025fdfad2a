// Compressed glTF: Draco-compressed files (gltf-pipeline -d) and meshopt-compressed ones
// (gltfpack -cc) import as the uncompressed files they came from, and damaged ones are
// refused in one line.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <iterator>
#include <filesystem>
#include <fstream>
#include <limits>
#include <nlohmann/json.hpp>
#include <string>

#include "core/io/import.h"
#include "core/skeleton/local_to_model.h"

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

// Each vertex where the skin puts it in the rest pose (model space): the same wherever a
// writer moved the mesh's own scale (gltfpack's quantization moves it into the inverse
// bind matrices).
std::vector<Vec3> skinnedRestPositions(const Scene& scene, const Mesh& mesh) {
  const std::vector<Affine> rest = localToModel(scene.skeleton, scene.skeleton.restPose());
  const int k = mesh.skin.influencesPerVertex;
  std::vector<Vec3> out;
  for (std::size_t v = 0; v < mesh.positions.size(); ++v) {
    Vec3 p = Vec3::Zero();
    for (int s = 0; s < k; ++s) {
      const std::size_t at = v * static_cast<std::size_t>(k) + static_cast<std::size_t>(s);
      const int slot = mesh.skin.vertexJoints[at];
      const Mat4 m = rest[static_cast<std::size_t>(mesh.skin.joints[static_cast<std::size_t>(slot)])].matrix() *
                     mesh.skin.inverseBindMatrices[static_cast<std::size_t>(slot)];
      p += mesh.skin.vertexWeights[at] * (m * mesh.positions[v].homogeneous()).head<3>();
    }
    out.push_back(p);
  }
  return out;
}

// The farthest any skinned rest vertex of `decoded` lies from the nearest of `original`'s.
float farthestSkinnedVertex(const Scene& original, const Scene& decoded) {
  const std::vector<Vec3> a = skinnedRestPositions(original, original.meshes.front());
  const std::vector<Vec3> b = skinnedRestPositions(decoded, decoded.meshes.front());
  float farthest = 0.0f;
  for (const Vec3& p : b) {
    float best = std::numeric_limits<float>::max();
    for (const Vec3& q : a) best = std::min(best, (p - q).norm());
    farthest = std::max(farthest, best);
  }
  return farthest;
}

// The largest distance between the same-named joints of two scenes posed at time `t`.
float farthestJointAt(const Scene& a, const Scene& b, double t) {
  const auto posed = [t](const Scene& scene) {
    Pose pose(scene.skeleton.restPose().begin(), scene.skeleton.restPose().end());
    ClipSampler(&scene.clips.front()).sample(t, pose);
    return localToModel(scene.skeleton, pose);
  };
  const std::vector<Affine> ma = posed(a), mb = posed(b);
  float farthest = 0.0f;
  for (int j = 0; j < a.skeleton.jointCount(); ++j) {
    const int k = b.skeleton.findJoint(a.skeleton.name(j));
    if (k >= 0) farthest = std::max(farthest, (ma[static_cast<std::size_t>(j)].translation() -
                                               mb[static_cast<std::size_t>(k)].translation()).norm());
  }
  return farthest;
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

// gltfpack -cc: vertices, indices, skin and the animation's rotations (its QUATERNION filter)
// in meshopt streams; -noq keeps float positions, the default quantizes them to 14 bits
// (KHR_mesh_quantization, the scale moved into the inverse bind matrices).
TEST(GltfMeshopt, AGlbDecodesToTheMeshItWasCompressedFrom) {
  const Scene original = imported(dataPath("RiggedFigure/RiggedFigure.glb"));
  for (const auto& [file, bits] : {std::pair<std::string, float>{"RiggedFigure_meshopt.glb", 20.0f},
                                   std::pair<std::string, float>{"RiggedFigure_meshopt_quantized.glb", 13.0f}}) {
    SCOPED_TRACE(file);
    const Scene decoded = imported(dataPath("RiggedFigure/" + file));
    ASSERT_EQ(decoded.meshes.size(), 1u);
    EXPECT_EQ(decoded.meshes[0].indices.size(), original.meshes[0].indices.size());
    EXPECT_LE(farthestSkinnedVertex(original, decoded), extentOf(original.meshes[0]) / std::exp2(bits));
    // The rotations come through its QUATERNION filter, 16 bits a component, resampled at
    // 30 Hz: the joints where the original puts them, within half a millimetre of its extent.
    ASSERT_EQ(decoded.clips.size(), 1u);
    for (const double t : {0.0, 0.6, 1.2})
      EXPECT_LE(farthestJointAt(original, decoded, t), extentOf(original.meshes[0]) / 2000.0f) << t << " s";
  }
}

class GltfMeshoptBadInput : public ::testing::Test {
 protected:
  void SetUp() override {
    mDir = fs::temp_directory_path() /
           ("articula_meshopt_" + std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()));
    fs::remove_all(mDir);
    fs::create_directories(mDir);
    std::ifstream in(dataPath("RiggedFigure/RiggedFigure_meshopt.glb"), std::ios::binary);
    mGlb.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    std::uint32_t jsonLength = 0;
    std::memcpy(&jsonLength, mGlb.data() + 12, 4);
    mJson = nlohmann::json::parse(mGlb.begin() + 20, mGlb.begin() + 20 + jsonLength);
    mBin.assign(mGlb.begin() + 20 + jsonLength + 8, mGlb.end());
  }
  void TearDown() override { fs::remove_all(mDir); }

  nlohmann::json& stream(int view) { return mJson["bufferViews"][view]["extensions"]["EXT_meshopt_compression"]; }

  // Writes the edited JSON with the original binary chunk and returns the one-line refusal.
  std::string refusal() {
    std::string json = mJson.dump();
    json.resize((json.size() + 3) & ~std::size_t{3}, ' ');
    const auto u32 = [](std::string& out, std::uint32_t v) { out.append(reinterpret_cast<const char*>(&v), 4); };
    std::string glb = "glTF";
    u32(glb, 2);
    u32(glb, static_cast<std::uint32_t>(12 + 8 + json.size() + 8 + mBin.size()));
    u32(glb, static_cast<std::uint32_t>(json.size()));
    glb += "JSON" + json;
    u32(glb, static_cast<std::uint32_t>(mBin.size()));
    glb += std::string("BIN\0", 4) + std::string(mBin.begin(), mBin.end());
    const std::string path = (mDir / "edited.glb").string();
    std::ofstream(path, std::ios::binary) << glb;
    auto scene = importScene(path);
    EXPECT_FALSE(scene);
    if (scene) return {};
    EXPECT_EQ(scene.error().rfind(path + ": bufferView ", 0), 0u) << scene.error();
    EXPECT_EQ(scene.error().find('\n'), std::string::npos) << scene.error();
    return scene.error();
  }

  fs::path mDir;
  std::vector<char> mGlb, mBin;
  nlohmann::json mJson;
};

TEST_F(GltfMeshoptBadInput, AStrideTheVertexDecoderCannotTake) {
  stream(1)["byteStride"] = 6;
  EXPECT_NE(refusal().find("ATTRIBUTES need a byteStride divisible by 4"), std::string::npos);
}

TEST_F(GltfMeshoptBadInput, MoreElementsThanTheViewHolds) {
  stream(1)["count"] = 1 << 28;
  EXPECT_NE(refusal().find("do not fit its byteLength"), std::string::npos);
}

TEST_F(GltfMeshoptBadInput, AFilterThatDoesNotFitTheStride) {
  stream(1)["filter"] = "QUATERNION";
  EXPECT_NE(refusal().find("filter 'QUATERNION' does not fit"), std::string::npos);
}

TEST_F(GltfMeshoptBadInput, AStreamCutShort) {
  stream(1)["byteLength"] = 16;
  EXPECT_NE(refusal().find("stream does not decode"), std::string::npos);
}

TEST_F(GltfMeshoptBadInput, AStreamPastItsBuffer) {
  stream(1)["byteOffset"] = 1 << 30;
  EXPECT_NE(refusal().find("its compressed stream lies outside its buffer"), std::string::npos);
}

TEST_F(GltfMeshoptBadInput, AnUnknownMode) {
  stream(1)["mode"] = "POINTS";
  EXPECT_NE(refusal().find("unknown mode 'POINTS'"), std::string::npos);
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
  EXPECT_NE(refusal().find("its Draco bufferView 99 does not exist"), std::string::npos);
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
