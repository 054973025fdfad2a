// glTF import: every sample file of tests/data/gltf, the exact STEP/LINEAR/CUBICSPLINE
// semantics (references computed here from the raw accessor bytes, not from the importer),
// bind-pose skinning of CesiumMan, and one test per class of bad input.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "core/io/gltf_tinygltf.h"
#include "core/io/import.h"
#include "core/math/quaternion.h"
#include "core/skeleton/local_to_model.h"

namespace articula {
namespace {

namespace fs = std::filesystem;

std::string dataPath(const std::string& relative) { return std::string(ARTICULA_TEST_DATA_DIR) + "/gltf/" + relative; }

Scene load(const std::string& relative) {
  auto scene = importGltf(dataPath(relative));
  EXPECT_TRUE(scene.ok()) << (scene.ok() ? std::string() : scene.error());
  return scene.ok() ? std::move(scene).value() : Scene{};
}

std::vector<std::uint8_t> readBytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

void writeBytes(const fs::path& path, const void* data, std::size_t size) {
  std::ofstream out(path, std::ios::binary);
  out.write(static_cast<const char*>(data), static_cast<std::streamsize>(size));
}

void writeText(const fs::path& path, const std::string& text) { writeBytes(path, text.data(), text.size()); }

// The raw file through tinygltf, for reference values independent of the importer's
// accessor decoding.
tinygltf::Model rawModel(const std::string& relative) {
  tinygltf::TinyGLTF loader;
  loader.SetImageLoader([](tinygltf::Image*, const int, std::string*, std::string*, int, int, const unsigned char*, int,
                           void*) { return true; },
                        nullptr);
  tinygltf::Model model;
  std::string err;
  std::string warn;
  const std::string path = dataPath(relative);
  const bool ok = path.ends_with(".glb") ? loader.LoadBinaryFromFile(&model, &err, &warn, path)
                                         : loader.LoadASCIIFromFile(&model, &err, &warn, path);
  EXPECT_TRUE(ok) << err;
  return model;
}

// Float accessor contents, read byte by byte (tightly packed or strided, no sparse).
std::vector<double> rawFloats(const tinygltf::Model& model, int accessorIndex) {
  const tinygltf::Accessor& accessor = model.accessors.at(static_cast<std::size_t>(accessorIndex));
  EXPECT_EQ(accessor.componentType, TINYGLTF_COMPONENT_TYPE_FLOAT);
  EXPECT_FALSE(accessor.sparse.isSparse);
  const tinygltf::BufferView& view = model.bufferViews.at(static_cast<std::size_t>(accessor.bufferView));
  const tinygltf::Buffer& buffer = model.buffers.at(static_cast<std::size_t>(view.buffer));
  const auto components =
      static_cast<std::size_t>(tinygltf::GetNumComponentsInType(static_cast<std::uint32_t>(accessor.type)));
  const std::size_t stride = view.byteStride != 0 ? view.byteStride : 4 * components;
  std::vector<double> values;
  for (std::size_t e = 0; e < accessor.count; ++e) {
    for (std::size_t c = 0; c < components; ++c) {
      float f = 0.0f;
      std::memcpy(&f, buffer.data.data() + view.byteOffset + accessor.byteOffset + e * stride + 4 * c, sizeof(f));
      values.push_back(f);
    }
  }
  return values;
}

// ---------------------------------------------------------------------------------------
// Scene structure shared by every import

void expectWellFormed(const Scene& scene) {
  const Skeleton& skeleton = scene.skeleton;
  std::set<std::string> names;
  for (int j = 0; j < skeleton.jointCount(); ++j) {
    EXPECT_LT(skeleton.parent(j), j) << "parent before child";
    EXPECT_FALSE(skeleton.name(j).empty());
    EXPECT_TRUE(names.insert(skeleton.name(j)).second) << "duplicate name " << skeleton.name(j);
    EXPECT_TRUE(skeleton.restLocal(j).isFinite());
  }
  for (const Mesh& mesh : scene.meshes) {
    EXPECT_GE(mesh.node, 0);
    EXPECT_LT(mesh.node, skeleton.jointCount());
    EXPECT_EQ(mesh.indices.size() % 3, 0u);
    for (std::uint32_t index : mesh.indices) EXPECT_LT(index, mesh.vertexCount());
    EXPECT_TRUE(mesh.normals.empty() || mesh.normals.size() == mesh.vertexCount());
    EXPECT_TRUE(mesh.texCoords.empty() || mesh.texCoords.size() == mesh.vertexCount());
    EXPECT_LT(mesh.material, static_cast<int>(scene.materials.size()));
    if (!mesh.hasSkin) continue;
    const Skin& skin = mesh.skin;
    EXPECT_EQ(skin.inverseBindMatrices.size(), skin.joints.size());
    const auto perVertex = static_cast<std::size_t>(skin.influencesPerVertex);
    ASSERT_EQ(skin.vertexWeights.size(), mesh.vertexCount() * perVertex);
    ASSERT_EQ(skin.vertexJoints.size(), mesh.vertexCount() * perVertex);
    for (int joint : skin.joints) EXPECT_EQ(skeleton.kind(joint), NodeKind::Joint);
    for (std::size_t v = 0; v < mesh.vertexCount(); ++v) {
      float sum = 0.0f;
      for (std::size_t k = 0; k < perVertex; ++k) {
        sum += skin.vertexWeights[v * perVertex + k];
        EXPECT_LT(skin.vertexJoints[v * perVertex + k], skin.joints.size());
      }
      EXPECT_NEAR(sum, 1.0f, 1e-6f) << "vertex " << v;
    }
  }
  for (const Clip& clip : scene.clips) {
    EXPECT_FALSE(clip.name.empty());
    EXPECT_FALSE(clip.validate(skeleton.jointCount()).has_value()) << *clip.validate(skeleton.jointCount());
  }
}

// Non-empty channels of a clip (translation, rotation and scale of each track, each morph
// weights track) and their key counts.
struct ChannelSummary {
  int channels = 0;
  std::set<std::size_t> keyCounts;
};

ChannelSummary summarize(const Clip& clip) {
  ChannelSummary summary;
  auto vec3 = [&summary](const Vec3Track& track) {
    if (track.empty()) return;
    ++summary.channels;
    summary.keyCounts.insert(track.x.size());
    EXPECT_EQ(track.x.size(), track.y.size());
    EXPECT_EQ(track.x.size(), track.z.size());
  };
  for (const JointTrack& track : clip.tracks) {
    vec3(track.translation);
    if (!track.rotation.empty()) {
      ++summary.channels;
      summary.keyCounts.insert(track.rotation.size());
    }
    vec3(track.scale);
  }
  for (const MorphWeightsTrack& track : clip.morphWeights) {
    ++summary.channels;
    for (const Curve& curve : track.weights) summary.keyCounts.insert(curve.size());
  }
  return summary;
}

int boneCountOf(const Scene& scene) { return scene.skeleton.boneCount(); }

// ---------------------------------------------------------------------------------------
// Every file of the README table

TEST(GltfImport, RiggedSimple) {
  const Scene scene = load("RiggedSimple/RiggedSimple.glb");
  expectWellFormed(scene);
  ASSERT_EQ(scene.meshes.size(), 1u);
  EXPECT_EQ(scene.meshes[0].vertexCount(), 160u);
  ASSERT_TRUE(scene.meshes[0].hasSkin);
  EXPECT_EQ(scene.meshes[0].skin.joints.size(), 2u);
  EXPECT_EQ(boneCountOf(scene), 2);
  ASSERT_EQ(scene.clips.size(), 1u);
  const Clip& clip = scene.clips[0];
  EXPECT_EQ(clip.name, "animation_0");
  EXPECT_DOUBLE_EQ(clip.startTime, 0.0);  // the glTF timeline starts at 0; first key at 1/24 s
  EXPECT_NEAR(clip.endTime, 2.0833, 1e-4);
  EXPECT_DOUBLE_EQ(clip.frameRate, 24.0);
  const ChannelSummary summary = summarize(clip);
  EXPECT_EQ(summary.channels, 3);
  EXPECT_EQ(summary.keyCounts, std::set<std::size_t>{50});
  ASSERT_EQ(clip.tracks.size(), 1u);
  EXPECT_EQ(scene.skeleton.name(clip.tracks[0].joint), "Bone.001");
}

TEST(GltfImport, RiggedFigure) {
  const Scene scene = load("RiggedFigure/RiggedFigure.glb");
  expectWellFormed(scene);
  ASSERT_EQ(scene.meshes.size(), 1u);
  EXPECT_EQ(scene.meshes[0].vertexCount(), 370u);
  EXPECT_EQ(scene.meshes[0].skin.joints.size(), 19u);
  EXPECT_EQ(boneCountOf(scene), 19);
  EXPECT_GE(scene.skeleton.findJoint("Z_UP"), 0);
  ASSERT_EQ(scene.clips.size(), 1u);
  EXPECT_DOUBLE_EQ(scene.clips[0].startTime, 0.0);
  EXPECT_DOUBLE_EQ(scene.clips[0].endTime, 1.25);
  const ChannelSummary summary = summarize(scene.clips[0]);
  EXPECT_EQ(summary.channels, 57);
  EXPECT_EQ(summary.keyCounts, std::set<std::size_t>{2});
}

TEST(GltfImport, CesiumMan) {
  const Scene scene = load("CesiumMan/CesiumMan.glb");
  expectWellFormed(scene);
  EXPECT_EQ(scene.skeleton.jointCount(), 22);
  EXPECT_EQ(boneCountOf(scene), 19);
  EXPECT_EQ(scene.skeletonCount(), 1);
  ASSERT_EQ(scene.meshes.size(), 1u);
  const Mesh& mesh = scene.meshes[0];
  EXPECT_EQ(mesh.vertexCount(), 3273u);
  EXPECT_EQ(mesh.texCoords.size(), 3273u);
  EXPECT_EQ(mesh.skin.joints.size(), 19u);
  EXPECT_EQ(mesh.skin.influencesPerVertex, 4);
  EXPECT_EQ(scene.skeleton.name(mesh.node), "Cesium_Man");
  // The JPEG comes from a bufferView and stays encoded.
  ASSERT_EQ(mesh.material, 0);
  const Material& material = scene.materials[0];
  EXPECT_EQ(material.textureMimeType, "image/jpeg");
  ASSERT_GE(material.textureData.size(), 4u);
  EXPECT_EQ(material.textureData[0], 0xFF);  // JPEG SOI marker
  EXPECT_EQ(material.textureData[1], 0xD8);
  EXPECT_TRUE(material.textureUri.empty());

  ASSERT_EQ(scene.clips.size(), 1u);
  const Clip& clip = scene.clips[0];
  EXPECT_DOUBLE_EQ(clip.startTime, 0.0);  // the glTF timeline starts at 0; first key at 1/24 s
  EXPECT_DOUBLE_EQ(clip.endTime, 2.0);
  EXPECT_DOUBLE_EQ(clip.frameRate, 24.0);
  const ChannelSummary summary = summarize(clip);
  EXPECT_EQ(summary.channels, 57);
  EXPECT_EQ(summary.keyCounts, std::set<std::size_t>{48});
}

TEST(GltfImport, SimpleSkinExternalBuffers) {
  const Scene scene = load("SimpleSkin/glTF/SimpleSkin.gltf");
  expectWellFormed(scene);
  ASSERT_EQ(scene.meshes.size(), 1u);
  EXPECT_EQ(scene.meshes[0].skin.joints.size(), 2u);
  EXPECT_EQ(boneCountOf(scene), 2);
  // Unnamed nodes get their glTF index.
  EXPECT_EQ(scene.skeleton.name(0), "node_0");
  ASSERT_EQ(scene.clips.size(), 1u);
  EXPECT_DOUBLE_EQ(scene.clips[0].startTime, 0.0);
  EXPECT_DOUBLE_EQ(scene.clips[0].endTime, 5.5);
  const ChannelSummary summary = summarize(scene.clips[0]);
  EXPECT_EQ(summary.channels, 1);
  EXPECT_EQ(summary.keyCounts, std::set<std::size_t>{12});
}

TEST(GltfImport, SimpleSkinEmbeddedEqualsExternal) {
  const Scene external = load("SimpleSkin/glTF/SimpleSkin.gltf");
  const Scene embedded = load("SimpleSkin/glTF-Embedded/SimpleSkin.gltf");
  ASSERT_EQ(external.skeleton.jointCount(), embedded.skeleton.jointCount());
  for (int j = 0; j < external.skeleton.jointCount(); ++j) {
    EXPECT_EQ(external.skeleton.name(j), embedded.skeleton.name(j));
    EXPECT_EQ(external.skeleton.parent(j), embedded.skeleton.parent(j));
    EXPECT_EQ(external.skeleton.kind(j), embedded.skeleton.kind(j));
    EXPECT_EQ(external.skeleton.restLocal(j).toMatrix(), embedded.skeleton.restLocal(j).toMatrix());
  }
  ASSERT_EQ(external.meshes.size(), embedded.meshes.size());
  for (std::size_t m = 0; m < external.meshes.size(); ++m) {
    const Mesh& a = external.meshes[m];
    const Mesh& b = embedded.meshes[m];
    EXPECT_EQ(a.positions, b.positions);
    EXPECT_EQ(a.indices, b.indices);
    EXPECT_EQ(a.node, b.node);
    EXPECT_EQ(a.skin.joints, b.skin.joints);
    EXPECT_EQ(a.skin.inverseBindMatrices, b.skin.inverseBindMatrices);
    EXPECT_EQ(a.skin.vertexJoints, b.skin.vertexJoints);
    EXPECT_EQ(a.skin.vertexWeights, b.skin.vertexWeights);
  }
  ASSERT_EQ(external.clips.size(), embedded.clips.size());
  for (std::size_t c = 0; c < external.clips.size(); ++c) {
    const Clip& a = external.clips[c];
    const Clip& b = embedded.clips[c];
    EXPECT_EQ(a.name, b.name);
    EXPECT_EQ(a.startTime, b.startTime);
    EXPECT_EQ(a.endTime, b.endTime);
    ASSERT_EQ(a.tracks.size(), b.tracks.size());
    for (std::size_t t = 0; t < a.tracks.size(); ++t) {
      EXPECT_EQ(a.tracks[t].joint, b.tracks[t].joint);
      const auto& ka = a.tracks[t].rotation.keys();
      const auto& kb = b.tracks[t].rotation.keys();
      ASSERT_EQ(ka.size(), kb.size());
      for (std::size_t k = 0; k < ka.size(); ++k) {
        EXPECT_EQ(ka[k].time, kb[k].time);
        EXPECT_EQ(ka[k].value.coeffs(), kb[k].value.coeffs());
      }
    }
  }
}

TEST(GltfImport, BoxAnimatedChannelsOfDifferentLengths) {
  const Scene scene = load("BoxAnimated/BoxAnimated.glb");
  expectWellFormed(scene);
  EXPECT_EQ(boneCountOf(scene), 0);
  ASSERT_EQ(scene.clips.size(), 1u);
  const Clip& clip = scene.clips[0];
  EXPECT_DOUBLE_EQ(clip.startTime, 0.0);
  EXPECT_NEAR(clip.endTime, 3.70833, 1e-5);
  // Keys sit on the 24 fps grid although their spacing is irregular.
  EXPECT_DOUBLE_EQ(clip.frameRate, 24.0);
  ASSERT_EQ(clip.tracks.size(), 2u);
  int rotations = 0;
  int translations = 0;
  for (const JointTrack& track : clip.tracks) {
    if (!track.rotation.empty()) {
      ++rotations;
      EXPECT_EQ(track.rotation.size(), 2u);
      EXPECT_DOUBLE_EQ(track.rotation.startTime(), 1.25);
      EXPECT_DOUBLE_EQ(track.rotation.endTime(), 2.5);
      EXPECT_EQ(scene.skeleton.name(track.joint), "node_2");
    }
    if (!track.translation.empty()) {
      ++translations;
      EXPECT_EQ(track.translation.x.size(), 4u);
      EXPECT_DOUBLE_EQ(track.translation.x.startTime(), 0.0);
      EXPECT_NEAR(track.translation.x.endTime(), 3.70833, 1e-5);
    }
  }
  EXPECT_EQ(rotations, 1);
  EXPECT_EQ(translations, 1);
}

TEST(GltfImport, AnimatedTriangle) {
  const Scene scene = load("AnimatedTriangle/glTF/AnimatedTriangle.gltf");
  expectWellFormed(scene);
  ASSERT_EQ(scene.meshes.size(), 1u);
  EXPECT_EQ(scene.meshes[0].indices.size(), 3u);
  ASSERT_EQ(scene.clips.size(), 1u);
  EXPECT_DOUBLE_EQ(scene.clips[0].startTime, 0.0);
  EXPECT_DOUBLE_EQ(scene.clips[0].endTime, 1.0);
  const ChannelSummary summary = summarize(scene.clips[0]);
  EXPECT_EQ(summary.channels, 1);
  EXPECT_EQ(summary.keyCounts, std::set<std::size_t>{5});
}

// Morph weights: every key equals the raw output accessor, and default weights are kept.
void expectMorphWeightsMatchFile(const std::string& relative, const std::vector<float>& defaultWeights,
                                 std::size_t keyCount, double endTime) {
  const Scene scene = load(relative);
  expectWellFormed(scene);
  ASSERT_EQ(scene.meshes.size(), 1u);
  const Mesh& mesh = scene.meshes[0];
  ASSERT_EQ(mesh.morphTargets.size(), defaultWeights.size());
  EXPECT_EQ(mesh.morphWeights, defaultWeights);
  for (const MorphTarget& target : mesh.morphTargets) EXPECT_EQ(target.positionDeltas.size(), mesh.vertexCount());
  ASSERT_EQ(scene.clips.size(), 1u);
  const Clip& clip = scene.clips[0];
  EXPECT_DOUBLE_EQ(clip.startTime, 0.0);
  EXPECT_NEAR(clip.endTime, endTime, 1e-5);
  ASSERT_EQ(clip.morphWeights.size(), 1u);
  const MorphWeightsTrack& track = clip.morphWeights[0];
  EXPECT_EQ(track.mesh, 0);
  ASSERT_EQ(track.weights.size(), defaultWeights.size());

  const tinygltf::Model raw = rawModel(relative);
  const tinygltf::AnimationSampler& sampler = raw.animations[0].samplers[0];
  const std::vector<double> times = rawFloats(raw, sampler.input);
  const std::vector<double> values = rawFloats(raw, sampler.output);
  ASSERT_EQ(times.size(), keyCount);
  for (std::size_t t = 0; t < track.weights.size(); ++t) {
    const Curve& curve = track.weights[t];
    ASSERT_EQ(curve.size(), keyCount);
    for (std::size_t k = 0; k < keyCount; ++k) {
      EXPECT_EQ(curve.keys()[k].time, times[k]);
      EXPECT_EQ(curve.keys()[k].value, values[k * track.weights.size() + t]);
      EXPECT_EQ(curve.keys()[k].interpolation, Interpolation::Linear);
    }
  }
}

TEST(GltfImport, AnimatedMorphCubeWeights) {
  expectMorphWeightsMatchFile("AnimatedMorphCube/AnimatedMorphCube.glb", {0.0f, 0.0f}, 127, 4.2);
  const Scene scene = load("AnimatedMorphCube/AnimatedMorphCube.glb");
  EXPECT_EQ(scene.clips[0].name, "Square");
  EXPECT_FALSE(scene.meshes[0].morphTargets[0].normalDeltas.empty());
}

TEST(GltfImport, SimpleMorphWeights) {
  expectMorphWeightsMatchFile("SimpleMorph/glTF/SimpleMorph.gltf", {0.5f, 0.5f}, 5, 4.0);
}

TEST(GltfImport, QuadSkinHasMoreThanFourInfluences) {
  const Scene scene = load("assimp-quad_skin/quad_skin.glb");
  expectWellFormed(scene);
  ASSERT_EQ(scene.meshes.size(), 1u);
  const Mesh& mesh = scene.meshes[0];
  ASSERT_TRUE(mesh.hasSkin);
  EXPECT_EQ(mesh.skin.joints.size(), 10u);
  EXPECT_EQ(mesh.skin.influencesPerVertex, 12);  // JOINTS_0..2
  EXPECT_GT(mesh.maxInfluences(), 4);
  EXPECT_EQ(boneCountOf(scene), 10);
  EXPECT_TRUE(scene.clips.empty());
}

// ---------------------------------------------------------------------------------------
// InterpolationTest: sampling the imported clips reproduces the glTF definition.

// One raw channel of the file and the glTF 2.0 sampling rules (spec Appendix C), in double.
struct RawChannel {
  std::string path;
  std::string interpolation;
  std::vector<double> times;
  std::vector<double> values;
  std::size_t width = 0;

  std::vector<double> element(std::size_t index) const {
    return {values.begin() + static_cast<std::ptrdiff_t>(index * width),
            values.begin() + static_cast<std::ptrdiff_t>((index + 1) * width)};
  }
  bool cubic() const { return interpolation == "CUBICSPLINE"; }
  std::vector<double> value(std::size_t key) const { return element(cubic() ? 3 * key + 1 : key); }

  std::vector<double> sample(double t) const {
    const std::size_t n = times.size();
    if (t <= times.front()) return normalizedIfRotation(value(0));
    if (t >= times.back()) return normalizedIfRotation(value(n - 1));
    std::size_t k = 0;
    while (times[k + 1] <= t) ++k;
    const double dt = times[k + 1] - times[k];
    const double s = (t - times[k]) / dt;
    const std::vector<double> a = value(k);
    std::vector<double> b = value(k + 1);
    std::vector<double> out(width);
    if (interpolation == "STEP") return a;
    if (interpolation == "LINEAR") {
      if (path != "rotation") {
        for (std::size_t c = 0; c < width; ++c) out[c] = a[c] + s * (b[c] - a[c]);
        return out;
      }
      double dot = 0.0;
      for (std::size_t c = 0; c < 4; ++c) dot += a[c] * b[c];
      if (dot < 0.0) {
        for (double& v : b) v = -v;
        dot = -dot;
      }
      const double theta = std::acos(std::min(dot, 1.0));
      for (std::size_t c = 0; c < 4; ++c) {
        out[c] = theta < 1e-9 ? a[c] + s * (b[c] - a[c])
                              : (std::sin((1.0 - s) * theta) * a[c] + std::sin(s * theta) * b[c]) / std::sin(theta);
      }
      return normalizedIfRotation(out);
    }
    const std::vector<double> outTangent = element(3 * k + 2);
    const std::vector<double> inTangent = element(3 * (k + 1));
    const double s2 = s * s;
    const double s3 = s2 * s;
    for (std::size_t c = 0; c < width; ++c) {
      out[c] = (2 * s3 - 3 * s2 + 1) * a[c] + (s3 - 2 * s2 + s) * dt * outTangent[c] + (-2 * s3 + 3 * s2) * b[c] +
               (s3 - s2) * dt * inTangent[c];
    }
    return normalizedIfRotation(out);
  }

  std::vector<double> normalizedIfRotation(std::vector<double> v) const {
    if (path != "rotation") return v;
    double norm = 0.0;
    for (double x : v) norm += x * x;
    norm = std::sqrt(norm);
    for (double& x : v) x /= norm;
    return v;
  }
};

TEST(GltfImport, InterpolationTestMatchesGltfSamplingEverywhere) {
  const std::string file = "InterpolationTest/InterpolationTest.glb";
  const Scene scene = load(file);
  expectWellFormed(scene);
  const tinygltf::Model raw = rawModel(file);
  ASSERT_EQ(scene.clips.size(), 9u);
  ASSERT_EQ(raw.animations.size(), 9u);
  const std::set<std::string> expectedNames = {
      "Step Scale",      "Linear Scale",     "CubicSpline Scale",       "Step Rotation",     "CubicSpline Rotation",
      "Linear Rotation", "Step Translation", "CubicSpline Translation", "Linear Translation"};
  std::set<std::string> names;
  for (const Clip& clip : scene.clips) names.insert(clip.name);
  EXPECT_EQ(names, expectedNames);

  for (std::size_t a = 0; a < raw.animations.size(); ++a) {
    const tinygltf::Animation& animation = raw.animations[a];
    SCOPED_TRACE(animation.name);
    ASSERT_EQ(animation.channels.size(), 1u);
    const tinygltf::AnimationChannel& channel = animation.channels[0];
    const tinygltf::AnimationSampler& sampler = animation.samplers[static_cast<std::size_t>(channel.sampler)];
    RawChannel ref;
    ref.path = channel.target_path;
    ref.interpolation = sampler.interpolation;
    ref.times = rawFloats(raw, sampler.input);
    ref.values = rawFloats(raw, sampler.output);
    ref.width = ref.path == "rotation" ? 4 : 3;
    ASSERT_EQ(ref.times.size(), 5u);

    const Clip& clip = scene.clips[a];
    EXPECT_EQ(clip.name, animation.name);
    EXPECT_DOUBLE_EQ(clip.startTime, std::min(0.0, ref.times.front()));
    EXPECT_DOUBLE_EQ(clip.endTime, ref.times.back());
    ASSERT_EQ(clip.tracks.size(), 1u);
    const int joint = clip.tracks[0].joint;
    EXPECT_EQ(scene.skeleton.name(joint), raw.nodes[static_cast<std::size_t>(channel.target_node)].name);

    // Key interpolation types as authored.
    const JointTrack& track = clip.tracks[0];
    if (ref.path == "rotation") {
      ASSERT_EQ(track.rotation.size(), 5u);
      const RotationInterpolation expected = ref.interpolation == "STEP"     ? RotationInterpolation::Step
                                             : ref.interpolation == "LINEAR" ? RotationInterpolation::Slerp
                                                                             : RotationInterpolation::CubicSpline;
      for (const RotationKey& key : track.rotation.keys()) EXPECT_EQ(key.interpolation, expected);
    } else {
      const Vec3Track& vec = ref.path == "translation" ? track.translation : track.scale;
      ASSERT_EQ(vec.x.size(), 5u);
      const Interpolation expected = ref.interpolation == "STEP"     ? Interpolation::Constant
                                     : ref.interpolation == "LINEAR" ? Interpolation::Linear
                                                                     : Interpolation::Bezier;
      for (const CurveKey& key : vec.y.keys()) {
        EXPECT_EQ(key.interpolation, expected);
        if (expected == Interpolation::Bezier) {
          EXPECT_EQ(key.leftType, HandleType::Free);
          EXPECT_EQ(key.rightType, HandleType::Free);
        }
      }
    }

    // Sample at every key, at fractions of every segment and outside the key range.
    std::vector<double> sampleTimes = {ref.times.front() - 0.5, ref.times.back() + 0.5};
    for (std::size_t k = 0; k < ref.times.size(); ++k) {
      sampleTimes.push_back(ref.times[k]);
      if (k + 1 == ref.times.size()) continue;
      for (double f : {0.01, 0.1, 0.25, 1.0 / 3.0, 0.5, 0.7, 0.9, 0.99}) {
        sampleTimes.push_back(ref.times[k] + f * (ref.times[k + 1] - ref.times[k]));
      }
    }
    ClipSampler clipSampler(&clip);
    for (double t : sampleTimes) {
      SCOPED_TRACE("t = " + std::to_string(t));
      std::vector<Transform> pose(scene.skeleton.restPose().begin(), scene.skeleton.restPose().end());
      clipSampler.sample(t, pose);
      const std::vector<double> expected = ref.sample(t);
      const Transform& got = pose[static_cast<std::size_t>(joint)];
      if (ref.path == "rotation") {
        const Quat q(static_cast<float>(expected[3]), static_cast<float>(expected[0]), static_cast<float>(expected[1]),
                     static_cast<float>(expected[2]));
        const Quat aligned = alignHemisphere(got.rotation, q);
        EXPECT_NEAR(aligned.x(), q.x(), 2e-6);
        EXPECT_NEAR(aligned.y(), q.y(), 2e-6);
        EXPECT_NEAR(aligned.z(), q.z(), 2e-6);
        EXPECT_NEAR(aligned.w(), q.w(), 2e-6);
      } else {
        const Vec3& v = ref.path == "translation" ? got.translation : got.scale;
        for (int c = 0; c < 3; ++c) EXPECT_NEAR(v[c], expected[static_cast<std::size_t>(c)], 1e-5) << "component " << c;
      }
    }
  }
}

// ---------------------------------------------------------------------------------------
// Bind pose skinning of CesiumMan

TEST(GltfImport, CesiumManBindPoseSkinningReproducesStoredVertices) {
  const Scene scene = load("CesiumMan/CesiumMan.glb");
  ASSERT_EQ(scene.meshes.size(), 1u);
  const Mesh& mesh = scene.meshes[0];
  const Skin& skin = mesh.skin;
  // Model-space joint matrices of the rest pose (the nodes' TRS, including the Z_UP and
  // Armature parents). CesiumMan's rest pose is its bind pose, and its inverse bind matrices
  // were computed with the mesh under Z_UP · Armature (the Cesium_Man node's parents): each
  // joint's model matrix times its inverse bind matrix is that node's model matrix, so
  // skinning gives back the stored positions placed by the mesh node. (glTF ignores the
  // skinned node's own transform when drawing; the frame lives in the inverse binds.)
  const std::vector<Affine> model = localToModel(scene.skeleton, scene.skeleton.restPose());
  ASSERT_GE(mesh.node, 0);
  EXPECT_EQ(scene.skeleton.name(mesh.node), "Cesium_Man");
  const Affine meshModel = model[static_cast<std::size_t>(mesh.node)];
  std::vector<Mat4> skinMatrices;
  for (std::size_t k = 0; k < skin.joints.size(); ++k) {
    skinMatrices.push_back(model[static_cast<std::size_t>(skin.joints[k])].matrix() * skin.inverseBindMatrices[k]);
  }
  const auto perVertex = static_cast<std::size_t>(skin.influencesPerVertex);
  float worst = 0.0f;
  for (std::size_t v = 0; v < mesh.vertexCount(); ++v) {
    Vec3 skinned = Vec3::Zero();
    for (std::size_t k = 0; k < perVertex; ++k) {
      const float w = skin.vertexWeights[v * perVertex + k];
      if (w == 0.0f) continue;
      const Mat4& m = skinMatrices[skin.vertexJoints[v * perVertex + k]];
      skinned += w * (m * mesh.positions[v].homogeneous()).head<3>();
    }
    worst = std::max(worst, (skinned - meshModel * mesh.positions[v]).norm());
  }
  EXPECT_LT(worst, 1e-5f);
}

// ---------------------------------------------------------------------------------------
// Several characters in one file

// SimpleSkin twice: the second copy's nodes, skin, mesh node and animation channel are added
// beside the first (sharing the same buffers) under a parent node 3 units along X. The
// import must keep both skeletons, both skinned meshes and both animated joints.
TEST(GltfImport, TwoSkinnedCharactersBothImport) {
  const fs::path dir = fs::temp_directory_path() / "articula_gltf_two_characters";
  fs::remove_all(dir);
  fs::create_directories(dir);
  for (const char* bin : {"inverseBindMatrices.bin", "skinAnimation.bin", "skinGeometry.bin", "skinningData.bin"}) {
    fs::copy_file(dataPath(std::string("SimpleSkin/glTF/") + bin), dir / bin);
  }
  std::ifstream in(dataPath("SimpleSkin/glTF/SimpleSkin.gltf"));
  nlohmann::json json = nlohmann::json::parse(in);
  auto& nodes = json["nodes"];
  const int offset = static_cast<int>(nodes.size());  // 3: mesh node, root joint, child joint
  nodes.push_back({{"name", "second_mesh"}, {"mesh", 0}, {"skin", 1}});
  nodes.push_back({{"name", "second_root"}, {"children", {offset + 2}}});
  nodes.push_back(nodes[2]);
  nodes.back()["name"] = "second_child";
  nodes.push_back({{"name", "second_place"}, {"translation", {3.0, 0.0, 0.0}}, {"children", {offset, offset + 1}}});
  json["scenes"][0]["nodes"].push_back(offset + 3);
  json["skins"].push_back(
      {{"inverseBindMatrices", json["skins"][0]["inverseBindMatrices"]}, {"joints", {offset + 1, offset + 2}}});
  auto channel = json["animations"][0]["channels"][0];
  channel["target"]["node"] = offset + 2;
  json["animations"][0]["channels"].push_back(channel);
  writeText(dir / "two.gltf", json.dump());

  const auto scene = importGltf((dir / "two.gltf").string());
  fs::remove_all(dir);
  ASSERT_TRUE(scene.ok()) << scene.error();
  EXPECT_EQ(scene->skeletonCount(), 2);
  ASSERT_EQ(scene->meshes.size(), 2u);
  EXPECT_TRUE(scene->meshes[0].hasSkin);
  EXPECT_TRUE(scene->meshes[1].hasSkin);
  EXPECT_NE(scene->meshes[0].skin.joints, scene->meshes[1].skin.joints);
  ASSERT_EQ(scene->clips.size(), 1u);
  EXPECT_EQ(scene->clips[0].tracks.size(), 2u);
  // Both children bend the same way at the same time, 3 units apart.
  Pose pose(scene->skeleton.restPose().begin(), scene->skeleton.restPose().end());
  ClipSampler(&scene->clips[0]).sample(2.5, pose);
  const auto model = localToModel(scene->skeleton, pose);
  const int first = scene->meshes[0].skin.joints[1];
  const int second = scene->meshes[1].skin.joints[1];
  const Vec3 apart =
      model[static_cast<std::size_t>(second)].translation() - model[static_cast<std::size_t>(first)].translation();
  EXPECT_LT((apart - Vec3(3.0f, 0.0f, 0.0f)).norm(), 1e-5f);
  EXPECT_TRUE(model[static_cast<std::size_t>(second)].linear().isApprox(model[static_cast<std::size_t>(first)].linear(),
                                                                        1e-5f));
}

// ---------------------------------------------------------------------------------------
// Bad input: every failure names the file and what is wrong.

class GltfBadInput : public ::testing::Test {
 protected:
  void SetUp() override {
    mDir = fs::temp_directory_path() /
           ("articula_gltf_" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()) + "_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(mDir);
    fs::create_directories(mDir);
  }
  void TearDown() override { fs::remove_all(mDir); }

  // The embedded SimpleSkin as JSON, to be edited and written back.
  static nlohmann::json simpleSkinJson() {
    std::ifstream in(dataPath("SimpleSkin/glTF-Embedded/SimpleSkin.gltf"));
    return nlohmann::json::parse(in);
  }
  // Writes `json` and imports it, expecting failure; returns the message.
  std::string importJsonExpectingError(const nlohmann::json& json) {
    const fs::path path = mDir / "edited.gltf";
    writeText(path, json.dump());
    auto result = importGltf(path.string());
    EXPECT_FALSE(result.ok());
    if (result.ok()) return {};
    EXPECT_NE(result.error().find(path.string()), std::string::npos) << result.error();
    return result.error();
  }

  fs::path mDir;
};

TEST_F(GltfBadInput, MissingFile) {
  const std::string path = (mDir / "nothing_here.glb").string();
  auto result = importGltf(path);
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.error(), path + ": the file does not exist");
}

TEST_F(GltfBadInput, EmptyFile) {
  const fs::path path = mDir / "empty.gltf";
  writeText(path, "");
  auto result = importGltf(path.string());
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.error(), path.string() + ": the file is empty");
}

TEST_F(GltfBadInput, TruncatedGlb) {
  const std::vector<std::uint8_t> bytes = readBytes(dataPath("CesiumMan/CesiumMan.glb"));
  ASSERT_EQ(bytes.size(), 490956u);
  const fs::path path = mDir / "CesiumMan_truncated.glb";
  writeBytes(path, bytes.data(), bytes.size() / 2);
  auto result = importGltf(path.string());
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.error(), path.string() + ": truncated GLB: the header says 490956 bytes, but the file has 245478");

  writeBytes(path, bytes.data(), 10);
  result = importGltf(path.string());
  ASSERT_FALSE(result.ok());
  EXPECT_NE(result.error().find("truncated GLB: 10 bytes, shorter than the 12-byte header"), std::string::npos)
      << result.error();
}

TEST_F(GltfBadInput, BrokenJson) {
  std::ifstream in(dataPath("SimpleSkin/glTF-Embedded/SimpleSkin.gltf"));
  const std::string text{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  const fs::path path = mDir / "broken.gltf";
  writeText(path, text.substr(0, text.size() / 2));
  auto result = importGltf(path.string());
  ASSERT_FALSE(result.ok());
  // The parser's report in our words: where, and what, without the library's own text.
  EXPECT_EQ(result.error().rfind(path.string() + ": not valid JSON at line ", 0), 0u) << result.error();
  EXPECT_EQ(result.error().find("json.exception"), std::string::npos) << result.error();
}

TEST_F(GltfBadInput, BufferViewOutOfRange) {
  nlohmann::json json = simpleSkinJson();
  json["bufferViews"][0]["byteLength"] = 100000;
  const std::string message = importJsonExpectingError(json);
  EXPECT_NE(message.find("bufferView 0 is out of range"), std::string::npos) << message;
  EXPECT_NE(message.find("buffer 0, which holds 168 bytes"), std::string::npos) << message;
}

TEST_F(GltfBadInput, AccessorOutOfItsBufferView) {
  nlohmann::json json = simpleSkinJson();
  const int position = json["meshes"][0]["primitives"][0]["attributes"]["POSITION"];
  json["accessors"][position]["count"] = 1000;
  const std::string message = importJsonExpectingError(json);
  EXPECT_NE(message.find("POSITION: accessor " + std::to_string(position) + ": out of range"), std::string::npos)
      << message;
}

TEST_F(GltfBadInput, AccessorIndexOutOfRange) {
  nlohmann::json json = simpleSkinJson();
  json["meshes"][0]["primitives"][0]["attributes"]["POSITION"] = 99;
  const std::string message = importJsonExpectingError(json);
  EXPECT_NE(message.find("accessor 99: does not exist"), std::string::npos) << message;
}

TEST_F(GltfBadInput, VertexIndexOutOfRange) {
  nlohmann::json json = simpleSkinJson();
  const auto& attributes = json["meshes"][0]["primitives"][0]["attributes"];
  // Shrink every per-vertex accessor to 4 vertices: the index buffer still refers to 9.
  for (const char* name : {"POSITION", "JOINTS_0", "WEIGHTS_0"})
    json["accessors"][attributes[name].get<int>()]["count"] = 4;
  const std::string message = importJsonExpectingError(json);
  EXPECT_NE(message.find("is out of range (4 vertices)"), std::string::npos) << message;
}

TEST_F(GltfBadInput, NodeIndexOutOfRange) {
  nlohmann::json json = simpleSkinJson();
  json["nodes"][1]["children"] = {7};
  const std::string message = importJsonExpectingError(json);
  EXPECT_NE(message.find("node 1 has child 7, but the file has 3 nodes"), std::string::npos) << message;
}

TEST_F(GltfBadInput, SkinJointOutOfRange) {
  nlohmann::json json = simpleSkinJson();
  json["skins"][0]["joints"][1] = 42;
  const std::string message = importJsonExpectingError(json);
  EXPECT_NE(message.find("skin 0 joint 1 is node 42, but the file has 3 nodes"), std::string::npos) << message;
}

TEST_F(GltfBadInput, ZeroScaleNodeIsRefusedByNode) {
  // A joint's rest transform must be invertible; 1e-60 is zero once read as a float.
  for (const double zero : {0.0, 1e-60}) {
    nlohmann::json json = simpleSkinJson();
    json["nodes"][2]["scale"] = {1.0, zero, 1.0};
    const std::string message = importJsonExpectingError(json);
    EXPECT_NE(message.find("node 2: scale has a zero component"), std::string::npos) << message;
  }
}

TEST_F(GltfBadInput, NodeHierarchyCycle) {
  nlohmann::json json = simpleSkinJson();
  // Node 1 → 2 already; 2 → 1 closes the loop.
  json["nodes"][2]["children"] = {1};
  const std::string message = importJsonExpectingError(json);
  EXPECT_NE(message.find("cycle"), std::string::npos) << message;
}

TEST_F(GltfBadInput, UnsupportedRequiredExtension) {
  nlohmann::json json = simpleSkinJson();
  json["extensionsUsed"] = {"KHR_materials_pbrSpecularGlossiness"};
  json["extensionsRequired"] = {"KHR_materials_pbrSpecularGlossiness"};
  const std::string message = importJsonExpectingError(json);
  EXPECT_NE(message.find("requires extension KHR_materials_pbrSpecularGlossiness"), std::string::npos) << message;
}

TEST_F(GltfBadInput, MissingExternalBuffer) {
  const fs::path path = mDir / "SimpleSkin.gltf";
  fs::copy_file(dataPath("SimpleSkin/glTF/SimpleSkin.gltf"), path);
  auto result = importGltf(path.string());
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.error().rfind(path.string() + ": ", 0), 0u) << result.error();
  EXPECT_NE(result.error().find(".bin"), std::string::npos) << result.error();
}

TEST_F(GltfBadInput, AnimationKeyTimesNotIncreasing) {
  const fs::path dir = mDir;
  for (const char* name :
       {"SimpleSkin.gltf", "inverseBindMatrices.bin", "skinAnimation.bin", "skinGeometry.bin", "skinningData.bin"}) {
    fs::copy_file(dataPath(std::string("SimpleSkin/glTF/") + name), dir / name);
  }
  // Key times taken from the rotation output's bytes: its first floats (x, y, z, w of the
  // first quaternions) do not increase.
  std::ifstream in(dir / "SimpleSkin.gltf");
  nlohmann::json json = nlohmann::json::parse(in);
  in.close();
  const int output = json["animations"][0]["samplers"][0]["output"];
  nlohmann::json times = json["accessors"][output];
  times["type"] = "SCALAR";
  times.erase("min");
  times.erase("max");
  json["accessors"].push_back(times);
  json["animations"][0]["samplers"][0]["input"] = json["accessors"].size() - 1;
  const std::string message = importJsonExpectingError(json);
  EXPECT_NE(message.find("animation 0 channel 0"), std::string::npos) << message;
}

// Corrupting bytes anywhere must never crash: each import either succeeds or names an error.
TEST_F(GltfBadInput, RandomCorruptionNeverCrashes) {
  std::mt19937 random(1234);
  for (const char* file : {"CesiumMan/CesiumMan.glb", "InterpolationTest/InterpolationTest.glb",
                           "assimp-quad_skin/quad_skin.glb", "AnimatedMorphCube/AnimatedMorphCube.glb"}) {
    const std::vector<std::uint8_t> original = readBytes(dataPath(file));
    std::uint32_t jsonLength = 0;
    std::memcpy(&jsonLength, original.data() + 12, 4);
    for (int round = 0; round < 60; ++round) {
      std::vector<std::uint8_t> bytes = original;
      // Half the rounds damage the JSON chunk (indices, counts, offsets), half anywhere.
      const std::size_t limit = round % 2 == 0 ? 20 + jsonLength : bytes.size();
      std::uniform_int_distribution<std::size_t> position(0, limit - 1);
      std::uniform_int_distribution<int> byte(0, 255);
      for (int k = 0; k < 4; ++k) {
        const std::size_t at = position(random);
        // In the JSON, swap digits for digits so the damage reaches the validation code.
        if (round % 2 == 0 && std::isdigit(bytes[at])) {
          bytes[at] = static_cast<std::uint8_t>('0' + byte(random) % 10);
        } else {
          bytes[at] = static_cast<std::uint8_t>(byte(random));
        }
      }
      auto result = importGltfFromMemory(bytes, dataPath(""), file);
      if (!result.ok()) {
        EXPECT_EQ(result.error().rfind(std::string(file) + ": ", 0), 0u) << result.error();
      }
    }
  }
}

// Extras nested 20,000 deep made tinygltf recurse until the stack overflowed (SIGSEGV); the
// depth is now checked before tinygltf sees the JSON.
TEST(GltfImportLimits, JsonNestedTooDeepIsRefusedByNamedLimit) {
  const std::string path = dataPath("AnimatedTriangle/glTF/AnimatedTriangle_extras_20000_deep.gltf");
  const Result<Scene> scene = importScene(path);
  ASSERT_FALSE(scene);
  EXPECT_EQ(scene.error().rfind(path + ": the JSON nests deeper than the limit of 512 levels", 0), 0u) << scene.error();
}

TEST(GltfImportLimits, JsonDepthIgnoresBracketsInStrings) {
  const std::vector<std::uint8_t> original = readBytes(dataPath("AnimatedTriangle/glTF/AnimatedTriangle.gltf"));
  const std::string text(original.begin(), original.end());
  // 2,000 brackets in a string, after an escaped quote that must not end the string.
  const std::string extras = R"( "extras" : "a \" )" + std::string(2000, '[') + R"(", )";
  const std::string withExtras = "{" + extras + text.substr(text.find('{') + 1);
  const std::vector<std::uint8_t> bytes(withExtras.begin(), withExtras.end());
  const Result<Scene> scene = importGltfFromMemory(bytes, dataPath("AnimatedTriangle/glTF"), "strings.gltf");
  EXPECT_TRUE(scene) << scene.error();
}

// Accessors without buffer views, as a Draco encoder writes them, over a buffer view that
// holds no Draco data: tinygltf alone failed with "accessor[1] invalid bufferView".
TEST(GltfImportLimits, DracoExtensionOverBytesThatAreNotDracoIsNamedAsSuch) {
  const std::string path = dataPath("AnimatedTriangle/glTF/AnimatedTriangle_draco_required.gltf");
  const Result<Scene> scene = importScene(path);
  ASSERT_FALSE(scene);
  EXPECT_EQ(scene.error().rfind(path + ": mesh 0 primitive 0: its Draco data is not a triangle mesh", 0), 0u)
      << scene.error();
}

// A corrupted data URI made a message of the whole URI (2,000 characters for SimpleSkin); a
// broken JSON string one of the JSON parser's report. Each is now one line under 300.
TEST(GltfImportLimits, MessagesQuotingTheFileAreOneShortLine) {
  const std::vector<std::uint8_t> original = readBytes(dataPath("SimpleSkin/glTF-Embedded/SimpleSkin.gltf"));
  std::string uri(original.begin(), original.end());
  uri.insert(uri.find("base64,") + 40, "-1e38");
  std::string json(original.begin(), original.end());
  json.insert(json.find("\"asset\""), "\"name\x02\":1,");
  for (const std::string& text : {uri, json}) {
    const std::vector<std::uint8_t> bytes(text.begin(), text.end());
    const Result<Scene> scene = importGltfFromMemory(bytes, "", "damaged.gltf");
    ASSERT_FALSE(scene);
    EXPECT_EQ(scene.error().rfind("damaged.gltf: ", 0), 0u) << scene.error();
    EXPECT_LT(scene.error().size(), kMaxImportErrorLength) << scene.error();
    EXPECT_EQ(scene.error().find('\n'), std::string::npos) << scene.error();
  }
}

}  // namespace
}  // namespace articula
