// glTF export: every exported file goes through the Khronos validator (zero errors), and
// re-importing it must reproduce every joint's model-space transform at every source frame;
// sampler kinds, stride curves, skins, materials and bad output paths are checked on top.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

#include "core/bake/bake_job.h"
#include "core/io/gltf_export.h"
#include "core/io/gltf_export_channels.h"
#include "core/io/import.h"
#include "core/samples/mannequin.h"
#include "core/skeleton/local_to_model.h"
#include "tools/gltf_validator.h"
#include "tools/written_gltf.h"

namespace articula {
namespace {

namespace fs = std::filesystem;
using Json = nlohmann::json;

std::string dataPath(const std::string& relative) { return std::string(ARTICULA_TEST_DATA_DIR) + "/" + relative; }

// A folder of its own per test, removed afterwards.
class GltfExport : public testing::Test {
 protected:
  void SetUp() override {
    const testing::TestInfo* info = testing::UnitTest::GetInstance()->current_test_info();
    mDir =
        fs::temp_directory_path() / ("articula_export_" + std::string(info->name()) + "_" + std::to_string(::getpid()));
    fs::remove_all(mDir);
    fs::create_directories(mDir);
  }
  void TearDown() override {
    testing_tools::keepWrittenGltf(mDir);
    fs::remove_all(mDir);
  }

  std::string out(const std::string& name) const { return (mDir / name).string(); }

  fs::path mDir;
};

void expectValidGltf(const std::string& path) { EXPECT_TRUE(testing_tools::validatesWithoutErrors(path)) << path; }

std::vector<std::uint8_t> readBytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// The JSON of a .glb (its first chunk) or a .gltf.
Json readGltfJson(const std::string& path) {
  const std::vector<std::uint8_t> bytes = readBytes(path);
  if (bytes.size() >= 20 && std::memcmp(bytes.data(), "glTF", 4) == 0) {
    std::uint32_t length = 0;
    std::memcpy(&length, bytes.data() + 12, 4);
    return Json::parse(bytes.begin() + 20, bytes.begin() + 20 + length);
  }
  return Json::parse(bytes.begin(), bytes.end());
}

Scene importOrFail(const std::string& path) {
  auto scene = importScene(path);
  EXPECT_TRUE(scene.ok()) << (scene.ok() ? std::string() : scene.error());
  return scene.ok() ? std::move(scene).value() : Scene{};
}

const Clip* findClip(const Scene& scene, const std::string& name) {
  const auto it = std::find_if(scene.clips.begin(), scene.clips.end(), [&](const Clip& c) { return c.name == name; });
  return it == scene.clips.end() ? nullptr : &*it;
}

// Largest difference, over every joint of `source` (matched by name in `copy`) and every
// frame of every clip, of the model-space transforms: translation relative to the
// character's height, and the matrix's linear part (a point one height from the joint
// moves by that many heights).
// `subdivisions` > 1 also compares between frames, where resampled channels are only within
// the export tolerance.
double largestModelError(const Scene& source, const Scene& copy, int subdivisions = 1) {
  std::map<std::string, int> copyJoint;
  for (int j = 0; j < copy.skeleton.jointCount(); ++j) copyJoint[copy.skeleton.name(j)] = j;
  std::vector<int> match(static_cast<std::size_t>(source.skeleton.jointCount()), -1);
  for (int j = 0; j < source.skeleton.jointCount(); ++j) {
    const auto it = copyJoint.find(source.skeleton.name(j));
    EXPECT_NE(it, copyJoint.end()) << "joint '" << source.skeleton.name(j) << "' is missing after the round trip";
    if (it == copyJoint.end()) return INFINITY;
    match[static_cast<std::size_t>(j)] = it->second;
  }
  const double height = source.characterHeight();
  double worst = 0.0;
  EXPECT_EQ(copy.clips.size(), source.clips.size());
  for (const Clip& clip : source.clips) {
    const Clip* other = findClip(copy, clip.name);
    EXPECT_NE(other, nullptr) << "clip '" << clip.name << "' is missing after the round trip";
    if (!other) return INFINITY;
    EXPECT_EQ(other->frameRate, clip.frameRate) << clip.name;
    EXPECT_EQ(other->frameCount(), clip.frameCount()) << clip.name;
    Pose sourcePose(source.skeleton.restPose().begin(), source.skeleton.restPose().end());
    Pose copyPose(copy.skeleton.restPose().begin(), copy.skeleton.restPose().end());
    ClipSampler sourceSampler(&clip);
    ClipSampler copySampler(other);
    const int samples = (clip.frameCount() - 1) * subdivisions + 1;
    for (int i = 0; i < samples; ++i) {
      const double t = std::min(clip.endTime, clip.startTime + i / (clip.frameRate * subdivisions));
      sourceSampler.sample(t, sourcePose);
      copySampler.sample(t, copyPose);
      const std::vector<Affine> sourceModel = localToModel(source.skeleton, sourcePose);
      const std::vector<Affine> copyModel = localToModel(copy.skeleton, copyPose);
      for (std::size_t j = 0; j < match.size(); ++j) {
        const Affine& a = sourceModel[j];
        const Affine& b = copyModel[static_cast<std::size_t>(match[j])];
        worst = std::max(worst, static_cast<double>((a.translation() - b.translation()).norm()) / height);
        worst = std::max(worst, static_cast<double>((a.linear() - b.linear()).cwiseAbs().maxCoeff()));
      }
    }
  }
  return worst;
}

constexpr double kRoundTripTolerance = 1e-5;

void expectRoundTrip(const Scene& source, const std::string& path) {
  ASSERT_EQ(exportGltf(source, path), std::nullopt);
  expectValidGltf(path);
  const Scene copy = importOrFail(path);
  EXPECT_LE(largestModelError(source, copy), kRoundTripTolerance) << path;
}

// ---- round trips ----

TEST_F(GltfExport, CesiumManGlbRoundTripsAndValidates) {
  const Scene source = importOrFail(dataPath("gltf/CesiumMan/CesiumMan.glb"));
  ASSERT_EQ(source.clips.size(), 1u);
  expectRoundTrip(source, out("cesium.glb"));
  const Scene copy = importOrFail(out("cesium.glb"));
  // Mesh, skin and material come back as they were.
  ASSERT_EQ(copy.meshes.size(), source.meshes.size());
  const Mesh& a = source.meshes.front();
  const Mesh& b = copy.meshes.front();
  EXPECT_EQ(b.vertexCount(), a.vertexCount());
  EXPECT_EQ(b.indices, a.indices);
  EXPECT_EQ(b.texCoords.size(), a.texCoords.size());
  EXPECT_EQ(b.normals.size(), a.normals.size());
  ASSERT_TRUE(b.hasSkin);
  EXPECT_EQ(b.skin.joints.size(), a.skin.joints.size());
  for (std::size_t k = 0; k < a.skin.inverseBindMatrices.size(); ++k) {
    EXPECT_TRUE(b.skin.inverseBindMatrices[k].isApprox(a.skin.inverseBindMatrices[k], 1e-6f)) << k;
  }
  ASSERT_EQ(copy.materials.size(), source.materials.size());
  EXPECT_FALSE(copy.materials.front().textureData.empty());
  EXPECT_EQ(copy.materials.front().textureData, source.materials.front().textureData);
  EXPECT_TRUE(copy.materials.front().baseColor.isApprox(source.materials.front().baseColor));
}

TEST_F(GltfExport, CesiumManGltfWritesBinAndImageBeside) {
  const Scene source = importOrFail(dataPath("gltf/CesiumMan/CesiumMan.glb"));
  expectRoundTrip(source, out("cesium man.gltf"));
  EXPECT_TRUE(fs::exists(out("cesium man.bin")));
  const Json json = readGltfJson(out("cesium man.gltf"));
  EXPECT_EQ(json["buffers"][0]["uri"], "cesium%20man.bin");
  ASSERT_EQ(json["images"].size(), 1u);
  EXPECT_TRUE(fs::exists(out("cesium man_image0.png")) || fs::exists(out("cesium man_image0.jpg")));
}

// Found by the mutation run: a CesiumMan whose JPEG had bytes repeated inside its Exif segment
// was written with that image, which the validator rejects (IMAGE_UNEXPECTED_EOS). A JPEG
// whose segments do not run whole to the scan, or a PNG whose chunks do not to IEND, is left
// out as an image in another format is; the rest is written.
TEST_F(GltfExport, DamagedTexturesAreLeftOut) {
  Scene source = importOrFail(dataPath("gltf/CesiumMan/CesiumMan.glb"));
  ASSERT_FALSE(source.materials.empty());
  std::vector<std::uint8_t>& image = source.materials.front().textureData;
  const std::vector<std::uint8_t> jpeg = image;
  ASSERT_EQ(jpeg[0], 0xFF);
  image.insert(image.begin() + 500, jpeg.begin() + 500, jpeg.begin() + 600);
  // A 1x1 PNG (signature, IHDR, IDAT, IEND), whole and then without its IEND chunk.
  const std::vector<std::uint8_t> png = {
      0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d, 0x49, 0x48, 0x44, 0x52, 0x00, 0x00,
      0x00, 0x01, 0x00, 0x00, 0x00, 0x01, 0x08, 0x06, 0x00, 0x00, 0x00, 0x1f, 0x15, 0xc4, 0x89, 0x00, 0x00, 0x00,
      0x0d, 0x49, 0x44, 0x41, 0x54, 0x78, 0x9c, 0x63, 0xf8, 0xcf, 0xc0, 0xf0, 0x1f, 0x00, 0x05, 0x00, 0x01, 0xff,
      0x89, 0x99, 0x3d, 0x1d, 0x00, 0x00, 0x00, 0x00, 0x49, 0x45, 0x4e, 0x44, 0xae, 0x42, 0x60, 0x82};
  const std::vector<std::uint8_t> cutPng(png.begin(), png.end() - 12);
  struct Case {
    std::vector<std::uint8_t> image;
    bool kept;
  };
  for (const Case& c : {Case{image, false}, Case{png, true}, Case{cutPng, false}, Case{jpeg, true}}) {
    source.materials.front().textureData = c.image;
    ASSERT_EQ(exportGltf(source, out("texture.glb")), std::nullopt);
    expectValidGltf(out("texture.glb"));
    const Json json = readGltfJson(out("texture.glb"));
    EXPECT_EQ(json.contains("images"), c.kept) << c.image.size() << " bytes";
    EXPECT_EQ(json["meshes"].size(), source.meshes.size());
  }
}

TEST_F(GltfExport, MannequinRoundTripsWithItsStrideCurves) {
  const Scene source = makeMannequin();
  expectRoundTrip(source, out("mannequin.glb"));
  const Scene copy = importOrFail(out("mannequin.glb"));
  const Clip& clip = source.clips.front();
  const Clip* other = findClip(copy, clip.name);
  ASSERT_NE(other, nullptr);
  ASSERT_FALSE(clip.curves.empty());
  ASSERT_EQ(other->curves.size(), clip.curves.size());
  for (const auto& [name, curve] : clip.curves) {
    ASSERT_TRUE(other->curves.count(name)) << name;
    const Curve& back = other->curves.at(name);
    ASSERT_EQ(back.size(), curve.size()) << name;
    for (std::size_t k = 0; k < curve.size(); ++k) {
      EXPECT_EQ(back.keys()[k].time, curve.keys()[k].time) << name << " key " << k;
      EXPECT_EQ(back.keys()[k].value, curve.keys()[k].value) << name << " key " << k;
      EXPECT_EQ(back.keys()[k].interpolation, curve.keys()[k].interpolation) << name << " key " << k;
      EXPECT_EQ(back.keys()[k].right, curve.keys()[k].right) << name << " key " << k;
    }
  }
  // Bézier translation keys are written as CUBICSPLINE, not resampled.
  const Json json = readGltfJson(out("mannequin.glb"));
  bool cubicTranslation = false;
  for (const Json& channel : json["animations"][0]["channels"]) {
    const Json& sampler = json["animations"][0]["samplers"][channel["sampler"].get<std::size_t>()];
    if (channel["target"]["path"] == "translation")
      cubicTranslation = cubicTranslation || sampler["interpolation"] == "CUBICSPLINE";
  }
  EXPECT_TRUE(cubicTranslation);
}

TEST_F(GltfExport, BvhWalkRoundTrips) {
  const Scene source = importOrFail(dataPath("bvh/cmu-mb-2010/02_01.bvh"));
  ASSERT_EQ(source.clips.size(), 1u);
  expectRoundTrip(source, out("walk.glb"));
}

// ---- reduced bakes ----

// Keys the file stores for animation `index`: one per time of each sampler's input, as a
// reader counts them.
std::size_t storedKeys(const Json& gltf, std::size_t index) {
  std::size_t keys = 0;
  for (const Json& sampler : gltf["animations"][index]["samplers"])
    keys += gltf["accessors"][sampler["input"].get<std::size_t>()]["count"].get<std::size_t>();
  return keys;
}

// Largest model-space distance between the joints of `bake` (scene `source`) and those of
// the file's clip (scene `copy`, matched by name), on every frame of the bake.
double largestJointDistance(const Scene& source, const Clip& bake, const Scene& copy) {
  std::vector<int> match(static_cast<std::size_t>(source.skeleton.jointCount()));
  for (int j = 0; j < source.skeleton.jointCount(); ++j)
    match[static_cast<std::size_t>(j)] = copy.skeleton.findJoint(source.skeleton.name(j));
  Pose sourcePose(source.skeleton.restPose().begin(), source.skeleton.restPose().end());
  Pose copyPose(copy.skeleton.restPose().begin(), copy.skeleton.restPose().end());
  ClipSampler sourceSampler(&bake);
  ClipSampler copySampler(&copy.clips.front());
  double worst = 0.0;
  for (int f = 0; f < bake.frameCount(); ++f) {
    sourceSampler.sample(bake.timeOf(f), sourcePose);
    copySampler.sample(bake.timeOf(f), copyPose);
    const std::vector<Affine> sourceModel = localToModel(source.skeleton, sourcePose);
    const std::vector<Affine> copyModel = localToModel(copy.skeleton, copyPose);
    for (std::size_t j = 0; j < match.size(); ++j) {
      if (match[j] < 0) return INFINITY;
      const Vec3 moved = sourceModel[j].translation() - copyModel[static_cast<std::size_t>(match[j])].translation();
      worst = std::max(worst, static_cast<double>(moved.norm()));
    }
  }
  return worst;
}

// What the bake reduces is what the file stores: the reduced keys are written key for key
// (a channel mixing cubic and straight segments must not come out resampled per frame, and
// linear keys need no more cuts for Blender than the reduction made), fewer than a
// per-frame bake's (far fewer with cubic keys), and the file's samplers stay within the
// tolerance of the unreduced bake on every frame.
TEST_F(GltfExport, ReducedBakeIsStoredKeyForKey) {
  const Scene source = importOrFail(dataPath("bvh/cmu-mb-2010/02_01.bvh"));
  ASSERT_EQ(source.clips.size(), 1u);
  for (const KeyInterpolation interpolation : {KeyInterpolation::Linear, KeyInterpolation::Cubic}) {
    SCOPED_TRACE(keyInterpolationName(interpolation));
    BakeJob job;
    job.skeleton = &source.skeleton;
    job.source = &source.clips.front();
    job.options.lastFrame = 179;  // a slice keeps the test short
    job.options.keepOutsideRange = false;
    job.options.reduction.toleranceModel = kDefaultToleranceOfHeight * source.characterHeight();
    job.options.reduction.interpolation = interpolation;
    Clip reduced;
    job.output = &reduced;
    const auto report = job.run();
    ASSERT_TRUE(report.ok()) << report.error();
    Clip dense;
    job.options.reduce = false;
    job.output = &dense;
    ASSERT_TRUE(job.run().ok());

    Scene baked = source;
    baked.clips.assign(1, reduced);
    const std::string path = out("reduced.glb");
    ASSERT_EQ(exportGltf(baked, path), std::nullopt);
    expectValidGltf(path);
    const std::size_t stored = storedKeys(readGltfJson(path), 0);
    EXPECT_EQ(stored, channelKeyCount(reduced));
    EXPECT_EQ(report->reduction.keysAfter, channelKeyCount(reduced));
    EXPECT_EQ(report->reduction.keysBefore, channelKeyCount(dense));  // one key per channel and frame
    const std::size_t fewer = interpolation == KeyInterpolation::Cubic ? 5 : 1;
    EXPECT_LT(stored * fewer, report->reduction.keysBefore) << stored << " of " << report->reduction.keysBefore;

    const Scene copy = importOrFail(path);
    ASSERT_EQ(copy.clips.size(), 1u);
    EXPECT_LE(largestJointDistance(source, dense, copy), job.options.reduction.toleranceModel * 1.001);
  }
}

// A reduced bake rounds its rotations to glTF's 16-bit grid: the file stores them as
// normalised SHORT and decodes to the rotations the bake measured (a wrong scale or sign, or
// a missing `normalized`, would move the joints), within the tolerance of the unreduced bake.
// Fitting for the fewest bytes makes a smaller file than fitting for the fewest keys.
TEST_F(GltfExport, QuantizedBakeDecodesToTheRotationsItMeasured) {
  const Scene source = importOrFail(dataPath("bvh/cmu-mb-2010/02_01.bvh"));
  ASSERT_EQ(source.clips.size(), 1u);
  BakeJob job;
  job.skeleton = &source.skeleton;
  job.source = &source.clips.front();
  job.options.lastFrame = 179;
  job.options.keepOutsideRange = false;
  job.options.reduction.toleranceModel = kDefaultToleranceOfHeight * source.characterHeight();
  Clip dense;
  job.options.reduce = false;
  job.output = &dense;
  ASSERT_TRUE(job.run().ok());
  job.options.reduce = true;

  std::map<bool, std::uintmax_t> fileBytes;
  job.options.reduction.interpolation = KeyInterpolation::Cubic;  // fewestBytes chooses among cubic fits
  for (const bool fewestBytes : {false, true}) {
    job.options.reduction.fewestBytes = fewestBytes;
    Clip reduced;
    job.output = &reduced;
    const auto report = job.run();
    ASSERT_TRUE(report.ok()) << report.error();
    EXPECT_LE(report->reduction.maxDeviationModel, job.options.reduction.toleranceModel);
    Scene baked = source;
    baked.clips.assign(1, reduced);
    const std::string path = out(fewestBytes ? "bytes.glb" : "keys.glb");
    ASSERT_EQ(exportGltf(baked, path), std::nullopt);
    expectValidGltf(path);
    fileBytes[fewestBytes] = fs::file_size(path);

    const Json gltf = readGltfJson(path);
    std::size_t shorts = 0;
    for (const Json& sampler : gltf["animations"][0]["samplers"]) {
      const Json& output = gltf["accessors"][sampler["output"].get<std::size_t>()];
      if (output["componentType"] == 5122 && output.value("normalized", false)) ++shorts;
    }
    EXPECT_GE(shorts, fewestBytes ? 20u : 1u) << path;
    const Scene copy = importOrFail(path);
    ASSERT_EQ(copy.clips.size(), 1u);
    EXPECT_LE(largestJointDistance(source, reduced, copy), 1e-5 * source.characterHeight()) << path;
    EXPECT_LE(largestJointDistance(source, dense, copy), job.options.reduction.toleranceModel * 1.001) << path;
  }
  EXPECT_LT(fileBytes[true], fileBytes[false]);
}

// ---- sampler kinds ----

TEST_F(GltfExport, InterpolationTestKeepsItsSamplerKinds) {
  const std::string input = dataPath("gltf/InterpolationTest/InterpolationTest.glb");
  const Scene source = importOrFail(input);
  expectRoundTrip(source, out("interpolation.glb"));
  // Animation name → sampler kind per channel path, leaving out the one-key STEP holds of the
  // rest a clip gets for channels other clips key; `targets` receives node/path of each channel.
  const auto kinds = [](const Json& json, std::map<std::string, std::set<std::string>>& targets) {
    std::map<std::string, std::vector<std::string>> result;
    for (const Json& animation : json["animations"]) {
      const std::string name = animation["name"].get<std::string>();
      for (const Json& channel : animation["channels"]) {
        const Json& sampler = animation["samplers"][channel["sampler"].get<std::size_t>()];
        const std::string path = channel["target"]["path"].get<std::string>();
        targets[name].insert(channel["target"]["node"].dump() + path);
        const bool hold =
            sampler["interpolation"] == "STEP" && json["accessors"][sampler["input"].get<std::size_t>()]["count"] == 1;
        if (!hold) result[name].push_back(path + ":" + sampler["interpolation"].get<std::string>());
      }
    }
    return result;
  };
  std::map<std::string, std::set<std::string>> sourceTargets;
  std::map<std::string, std::set<std::string>> writtenTargets;
  const auto before = kinds(readGltfJson(input), sourceTargets);
  const auto after = kinds(readGltfJson(out("interpolation.glb")), writtenTargets);
  EXPECT_EQ(after, before);
  // Every clip keys every channel some clip keys (Blender keeps an unkeyed bone where the
  // previous action left it).
  std::set<std::string> everyTarget;
  for (const auto& [name, targets] : sourceTargets) everyTarget.insert(targets.begin(), targets.end());
  for (const auto& [name, targets] : writtenTargets) EXPECT_EQ(targets, everyTarget) << name;
  std::size_t step = 0, linear = 0, cubic = 0;
  for (const auto& [name, list] : after) {
    for (const std::string& kind : list) {
      step += kind.ends_with("STEP");
      linear += kind.ends_with("LINEAR");
      cubic += kind.ends_with("CUBICSPLINE");
    }
  }
  EXPECT_GT(step, 0u);
  EXPECT_GT(linear, 0u);
  EXPECT_GT(cubic, 0u);
}

// Every kind of key in one clip, jumps included: Constant, Linear and Bézier (free handles off
// the thirds) translation keys, Step, Slerp, Bézier-on-the-sphere rotation keys, on a chain
// of two joints. Between frames the file is within the export tolerance (1e-5 heights and
// radians per channel, two channels deep here).
TEST_F(GltfExport, MixedInterpolationsRoundTripBetweenFrames) {
  Scene scene;
  Transform rest;
  rest.translation = Vec3(0.0f, 1.0f, 0.0f);
  const int hips = scene.skeleton.addJoint("Hips", kNoParent, rest);
  const int spine = scene.skeleton.addJoint("Spine", hips, rest);
  scene.skeleton.addJoint("Head", spine, rest, NodeKind::Tip);
  Clip clip;
  clip.name = "mixed";
  clip.frameRate = 37.0;  // no common rate: only the animation's extras can bring it back
  JointTrack& hipsTrack = clip.trackFor(hips);
  hipsTrack.translation.x.insertKey(0.0, 0.0, Interpolation::Linear);
  hipsTrack.translation.x.insertKey(0.5, 0.3, Interpolation::Constant);
  hipsTrack.translation.x.insertKey(1.0, -0.2, Interpolation::Bezier);
  hipsTrack.translation.x.insertKey(2.0, 0.4, Interpolation::Bezier);
  CurveKey eased = hipsTrack.translation.x.keys()[2];
  eased.rightType = HandleType::Free;
  eased.right = Vec2d(1.8, -0.2);  // far past the third: not a cubic in time
  hipsTrack.translation.x.setKey(2, eased);
  hipsTrack.translation.y.insertKey(0.0, 1.0, Interpolation::Constant);
  hipsTrack.translation.y.insertKey(1.25, 0.9, Interpolation::Constant);
  const auto rotation = [](double time, float angle, RotationInterpolation interpolation) {
    RotationKey key;
    key.time = time;
    key.value = Quat(Eigen::AngleAxisf(angle, Vec3(0.3f, 1.0f, 0.2f).normalized()));
    key.interpolation = interpolation;
    key.inControl = key.outControl = key.value;
    return key;
  };
  hipsTrack.rotation.setKeys(
      {rotation(0.0, 0.0f, RotationInterpolation::Step), rotation(0.75, 1.0f, RotationInterpolation::Slerp),
       rotation(1.5, 2.5f, RotationInterpolation::Slerp), rotation(2.0, -0.5f, RotationInterpolation::Step)});
  RotationKey bend0 = rotation(0.0, 0.0f, RotationInterpolation::Bezier);
  RotationKey bend1 = rotation(2.0, 1.5f, RotationInterpolation::Bezier);
  bend0.outControl = Quat(Eigen::AngleAxisf(1.2f, Vec3::UnitX()));
  bend1.inControl = Quat(Eigen::AngleAxisf(-0.4f, Vec3::UnitZ()));
  clip.trackFor(spine).rotation.setKeys({bend0, bend1});
  clip.updateRange();
  scene.clips.push_back(clip);

  ASSERT_EQ(exportGltf(scene, out("mixed.glb")), std::nullopt);
  expectValidGltf(out("mixed.glb"));
  const Scene copy = importOrFail(out("mixed.glb"));
  EXPECT_LE(largestModelError(scene, copy), kRoundTripTolerance);
  EXPECT_LE(largestModelError(scene, copy, 10), 3 * kRoundTripTolerance);
  const Json json = readGltfJson(out("mixed.glb"));
  std::map<std::string, std::string> kinds;  // "node/path" → interpolation
  for (const Json& channel : json["animations"][0]["channels"]) {
    const Json& sampler = json["animations"][0]["samplers"][channel["sampler"].get<std::size_t>()];
    kinds[std::to_string(channel["target"]["node"].get<int>()) + "/" + channel["target"]["path"].get<std::string>()] =
        sampler["interpolation"];
  }
  EXPECT_EQ(kinds["0/translation"], "CUBICSPLINE");
  EXPECT_EQ(kinds["0/rotation"], "LINEAR");
  EXPECT_EQ(kinds["1/rotation"], "LINEAR");
}

// A Bézier key with handles at thirds of its segments is a cubic in time: the CUBICSPLINE
// tangents are its exact derivatives and the file holds no extra keys.
TEST(GltfExportChannels, BezierAtThirdsIsWrittenExactly) {
  std::vector<CurveKey> keys(3);
  const std::array<double, 3> times = {0.0, 0.6, 1.5};
  const std::array<double, 3> values = {0.0, 2.0, -1.0};
  const std::array<double, 3> slopes = {1.0, -3.0, 0.5};
  for (std::size_t k = 0; k < 3; ++k) {
    keys[k].time = times[k];
    keys[k].value = values[k];
    keys[k].interpolation = Interpolation::Bezier;
    keys[k].leftType = keys[k].rightType = HandleType::Free;
    const double before = k > 0 ? (times[k] - times[k - 1]) / 3.0 : 0.2;
    const double after = k < 2 ? (times[k + 1] - times[k]) / 3.0 : 0.2;
    keys[k].left = Vec2d(times[k] - before, values[k] - slopes[k] * before);
    keys[k].right = Vec2d(times[k] + after, values[k] + slopes[k] * after);
  }
  Curve curve;
  curve.setKeys(keys);
  const std::array<const Curve*, 1> curves = {&curve};
  const std::array<double, 1> fallback = {0.0};
  const GltfSamplerData data = encodeCurveChannel(curves, fallback, GltfChannelSettings{});
  ASSERT_EQ(data.interpolation, GltfInterpolation::CubicSpline);
  ASSERT_EQ(data.times.size(), 3u);
  for (std::size_t k = 0; k < 3; ++k) {
    EXPECT_FLOAT_EQ(data.values[3 * k + 1], static_cast<float>(values[k]));
    if (k > 0) {
      EXPECT_NEAR(data.values[3 * k], slopes[k], 1e-5) << "in-tangent " << k;
    }
    if (k < 2) {
      EXPECT_NEAR(data.values[3 * k + 2], slopes[k], 1e-5) << "out-tangent " << k;
    }
  }
  // The Hermite segments reproduce the curve everywhere.
  for (int i = 0; i <= 150; ++i) {
    const double t = i / 100.0;
    const std::size_t k = t < times[1] ? 0 : 1;
    const double span = data.times[k + 1] - data.times[k];
    const double s = (t - data.times[k]) / span;
    const double h = (2 * s * s * s - 3 * s * s + 1) * data.values[3 * k + 1] +
                     (s * s * s - 2 * s * s + s) * span * data.values[3 * k + 2] +
                     (-2 * s * s * s + 3 * s * s) * data.values[3 * (k + 1) + 1] +
                     (s * s * s - s * s) * span * data.values[3 * (k + 1)];
    EXPECT_NEAR(h, curve.evaluate(t), 1e-5) << t;
  }
}

// Handles away from the thirds: split until the Hermite cubic is within the tolerance.
TEST(GltfExportChannels, BezierOffThirdsIsSplitWithinTolerance) {
  Curve curve;
  CurveKey a{0.0, 0.0, Interpolation::Bezier};
  a.leftType = a.rightType = HandleType::Free;
  a.left = Vec2d(-0.1, 0.0);
  a.right = Vec2d(0.7, 0.0);  // an ease-in far past the third
  CurveKey b{1.0, 1.0, Interpolation::Bezier};
  b.leftType = b.rightType = HandleType::Free;
  b.left = Vec2d(0.95, 1.0);
  b.right = Vec2d(1.1, 1.0);
  curve.setKeys({a, b});
  const std::array<const Curve*, 1> curves = {&curve};
  const std::array<double, 1> fallback = {0.0};
  GltfChannelSettings settings;
  settings.tolerance = 1e-4;
  const GltfSamplerData data = encodeCurveChannel(curves, fallback, settings);
  ASSERT_EQ(data.interpolation, GltfInterpolation::CubicSpline);
  EXPECT_GT(data.times.size(), 2u);
  for (int i = 0; i <= 200; ++i) {
    const double t = i / 200.0;
    std::size_t k = 0;
    while (k + 2 < data.times.size() && t >= data.times[k + 1]) ++k;
    const double span = data.times[k + 1] - data.times[k];
    const double s = (t - data.times[k]) / span;
    const double h = (2 * s * s * s - 3 * s * s + 1) * data.values[3 * k + 1] +
                     (s * s * s - 2 * s * s + s) * span * data.values[3 * k + 2] +
                     (-2 * s * s * s + 3 * s * s) * data.values[3 * (k + 1) + 1] +
                     (s * s * s - s * s) * span * data.values[3 * (k + 1)];
    EXPECT_NEAR(h, curve.evaluate(t), 2e-4) << t;
  }
}

TEST(GltfExportChannels, ConstantKeysAreStepAndLinearKeysLinear) {
  Curve step;
  step.insertKey(0.0, 1.0, Interpolation::Constant);
  step.insertKey(1.0, 2.0, Interpolation::Constant);
  Curve linear;
  linear.insertKey(0.0, 1.0, Interpolation::Linear);
  linear.insertKey(1.0, 2.0, Interpolation::Linear);
  const std::array<double, 1> fallback = {0.0};
  const std::array<const Curve*, 1> stepCurves = {&step};
  const std::array<const Curve*, 1> linearCurves = {&linear};
  EXPECT_EQ(encodeCurveChannel(stepCurves, fallback, {}).interpolation, GltfInterpolation::Step);
  EXPECT_EQ(encodeCurveChannel(linearCurves, fallback, {}).interpolation, GltfInterpolation::Linear);
}

// Rotation outputs on the 16-bit grid (values up to normalisation, tangents exactly) come out
// as the integers glTF decodes to them; a value or tangent off the grid, or a tangent beyond
// [-1, 1], keeps the channel in floats.
TEST(GltfExportChannels, RotationsOnTheShortGridBecomeShorts) {
  const auto grid = [](int k) { return static_cast<float>(k / 32767.0); };
  GltfSamplerData linear;
  linear.interpolation = GltfInterpolation::Linear;
  linear.width = 4;
  linear.times = {0.0f, 1.0f};
  const Eigen::Vector4d onGrid = Eigen::Vector4d(grid(12085), grid(-3), grid(0), grid(30457));
  const Eigen::Vector4d unit = onGrid.normalized();  // what the track keeps of it (length 1 - 1e-7)
  linear.values = {0.0f, 0.0f, 0.0f, 1.0f};
  for (int c = 0; c < 4; ++c) linear.values.push_back(static_cast<float>(unit[c]));
  EXPECT_EQ(rotationOutputsAsShorts(linear), (std::vector<std::int16_t>{0, 0, 0, 32767, 12085, -3, 0, 30457}));
  GltfSamplerData offGrid = linear;
  offGrid.values[4] += 1e-5f;
  EXPECT_TRUE(rotationOutputsAsShorts(offGrid).empty());

  GltfSamplerData cubic;
  cubic.interpolation = GltfInterpolation::CubicSpline;
  cubic.width = 4;
  cubic.times = {0.0f, 1.0f};
  cubic.values = {0, 0, 0, 0, 0, 0, 0, 1, grid(100), 0, 0, 0, grid(-100), 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0};
  const std::vector<std::int16_t> shorts = rotationOutputsAsShorts(cubic);
  ASSERT_EQ(shorts.size(), cubic.values.size());
  EXPECT_EQ(shorts[8], 100);
  EXPECT_EQ(shorts[12], -100);
  GltfSamplerData steep = cubic;
  steep.values[8] = 1.5f;  // a tangent per second beyond the grid
  EXPECT_TRUE(rotationOutputsAsShorts(steep).empty());
  GltfSamplerData between = cubic;
  between.values[8] = grid(100) + 1e-6f;
  EXPECT_TRUE(rotationOutputsAsShorts(between).empty());
}

// Keys given on alternating hemispheres (q and -q are the same rotation) come out in one
// hemisphere along the track, as LINEAR readers that lerp components need.
// A CUBICSPLINE rotation sampler evaluated as glTF does: Hermite on the components with the
// tangents scaled by the key interval, normalised.
Quat evaluateCubicRotation(const GltfSamplerData& data, float t) {
  std::size_t k = 0;
  while (k + 2 < data.times.size() && data.times[k + 1] <= t) ++k;
  const float span = data.times[k + 1] - data.times[k];
  const float s = (t - data.times[k]) / span;
  const Eigen::Map<const Eigen::Vector4f> p0(&data.values[12 * k + 4]), m0(&data.values[12 * k + 8]);
  const Eigen::Map<const Eigen::Vector4f> p1(&data.values[12 * (k + 1) + 4]), m1(&data.values[12 * (k + 1)]);
  const float s2 = s * s, s3 = s2 * s;
  const Eigen::Vector4f p =
      (2 * s3 - 3 * s2 + 1) * p0 + (s3 - 2 * s2 + s) * span * m0 + (-2 * s3 + 3 * s2) * p1 + (s3 - s2) * span * m1;
  return Quat(p.w(), p.x(), p.y(), p.z()).normalized();
}

// A bake's cubic-spline keys spliced next to a clip's slerp keys: the channel stays one
// CUBICSPLINE sampler with the spline keys as they are, the slerp written as chord splines
// within the tolerance (not the whole channel resampled at every frame).
TEST(GltfExportChannels, SlerpSegmentsInACubicSplineChannelStayCubic) {
  const Vec3 axis = Vec3(0.2f, 1.0f, 0.1f).normalized();
  std::vector<RotationKey> keys(4);
  for (int k = 0; k < 4; ++k) {
    keys[static_cast<std::size_t>(k)].time = 0.5 * k;
    keys[static_cast<std::size_t>(k)].value = Quat(Eigen::AngleAxisf(0.6f * static_cast<float>(k), axis));
  }
  for (int k : {0, 1}) {  // splines with tangents on the chord between keys 0, 1 and 2
    RotationKey& a = keys[static_cast<std::size_t>(k)];
    RotationKey& b = keys[static_cast<std::size_t>(k + 1)];
    a.interpolation = RotationInterpolation::CubicSpline;
    const Quat chord((b.value.coeffs() - a.value.coeffs()) / 0.5f);
    a.outControl = chord;
    b.inControl = chord;
  }
  keys[2].interpolation = RotationInterpolation::Slerp;  // 0.6 rad of slerp to key 3
  RotationTrack track;
  track.setKeys(keys);
  GltfChannelSettings settings;
  const GltfSamplerData data = encodeRotationChannel(track, settings);
  ASSERT_EQ(data.interpolation, GltfInterpolation::CubicSpline);
  EXPECT_GT(data.times.size(), keys.size());  // the slerp is split...
  EXPECT_LT(data.times.size(), 40u);          // ...into a few chords, not sampled densely
  for (int i = 0; i <= 150; ++i) {
    const float t = 1.5f * static_cast<float>(i) / 150.0f;
    const double angle = track.evaluate(t).angularDistance(evaluateCubicRotation(data, t));
    EXPECT_LE(angle, settings.tolerance + 1e-6) << "t " << t;
  }
}

TEST(GltfExportChannels, RotationKeysStayInOneHemisphere) {
  RotationTrack track;
  std::vector<RotationKey> keys;
  for (int k = 0; k < 12; ++k) {
    RotationKey key;
    key.time = k / 10.0;
    const Quat q(Eigen::AngleAxisf(0.5f * static_cast<float>(k), Vec3(0.0f, 1.0f, 0.3f).normalized()));
    key.value = k % 2 == 0 ? q : Quat(-q.w(), -q.x(), -q.y(), -q.z());
    key.interpolation = RotationInterpolation::Slerp;
    keys.push_back(key);
  }
  track.setKeys(keys);
  const GltfSamplerData data = encodeRotationChannel(track, {});
  ASSERT_EQ(data.interpolation, GltfInterpolation::Linear);
  ASSERT_EQ(data.times.size(), keys.size());
  for (std::size_t k = 1; k < data.times.size(); ++k) {
    float dot = 0.0f;
    for (std::size_t c = 0; c < 4; ++c) dot += data.values[4 * k + c] * data.values[4 * (k - 1) + c];
    EXPECT_GT(dot, 0.0f) << "key " << k;
  }
}

// ---- skins with many influences ----

TEST_F(GltfExport, SixInfluencesGetTwoJointSets) {
  Scene scene = makeMannequin();
  Mesh& mesh = scene.meshes.front();
  ASSERT_TRUE(mesh.hasSkin);
  // Spread each vertex over six joints of the skin with unequal weights.
  Skin& skin = mesh.skin;
  const std::size_t n = mesh.vertexCount();
  const auto skinJoints = static_cast<std::uint16_t>(skin.joints.size());
  ASSERT_GE(skinJoints, 6);
  skin.influencesPerVertex = 6;
  skin.vertexJoints.assign(n * 6, 0);
  skin.vertexWeights.assign(n * 6, 0.0f);
  for (std::size_t v = 0; v < n; ++v) {
    for (std::size_t k = 0; k < 6; ++k) {
      skin.vertexJoints[v * 6 + k] = static_cast<std::uint16_t>((v + k) % skinJoints);
      skin.vertexWeights[v * 6 + k] = static_cast<float>(6 - k) / 21.0f;
    }
  }
  ASSERT_EQ(exportGltf(scene, out("six.glb")), std::nullopt);
  expectValidGltf(out("six.glb"));
  const Json json = readGltfJson(out("six.glb"));
  const Json& attributes = json["meshes"][0]["primitives"][0]["attributes"];
  EXPECT_TRUE(attributes.contains("JOINTS_1"));
  EXPECT_TRUE(attributes.contains("WEIGHTS_1"));
  const Scene copy = importOrFail(out("six.glb"));
  ASSERT_EQ(copy.meshes.size(), 1u);
  EXPECT_EQ(copy.meshes.front().maxInfluences(), 6);
}

// ---- skeletons that skin no mesh ----

// The floats of a float accessor of a .glb (no sparse, tightly packed: what exportGltf writes).
std::vector<float> glbAccessorFloats(const std::string& path, const Json& gltf, int accessorIndex, int components) {
  const std::vector<std::uint8_t> bytes = readBytes(path);
  std::uint32_t jsonLength = 0;
  std::memcpy(&jsonLength, bytes.data() + 12, 4);
  const std::size_t binStart = 20 + jsonLength + 8;  // after the JSON chunk and the BIN chunk's header
  const Json& accessor = gltf["accessors"][static_cast<std::size_t>(accessorIndex)];
  const Json& view = gltf["bufferViews"][accessor["bufferView"].get<std::size_t>()];
  const std::size_t offset =
      binStart + view.value("byteOffset", std::size_t{0}) + accessor.value("byteOffset", std::size_t{0});
  std::vector<float> values(accessor["count"].get<std::size_t>() * static_cast<std::size_t>(components));
  EXPECT_LE(offset + values.size() * sizeof(float), bytes.size());
  if (offset + values.size() * sizeof(float) <= bytes.size())
    std::memcpy(values.data(), bytes.data() + offset, values.size() * sizeof(float));
  return values;
}

// A BVH skins nothing: its joints still form a skin (what Blender and three.js build a
// skeleton from), listing the skeleton's joints with the inverse of their rest model matrices.
TEST_F(GltfExport, BvhSkeletonGetsASkinBoundAtTheRestPose) {
  const Scene source = importOrFail(dataPath("bvh/cmu-mb-2010/02_01.bvh"));
  ASSERT_EQ(exportGltf(source, out("walk.glb")), std::nullopt);
  expectValidGltf(out("walk.glb"));
  const Json json = readGltfJson(out("walk.glb"));
  ASSERT_EQ(json["skins"].size(), 1u) << json.dump();
  const Json& skin = json["skins"][0];
  std::vector<int> expectedJoints;
  for (int j = 0; j < source.skeleton.jointCount(); ++j) {
    if (source.skeleton.kind(j) == NodeKind::Joint) expectedJoints.push_back(j);
  }
  ASSERT_EQ(expectedJoints.size(), 31u);  // the BVH's joints; its End Sites are not bones
  EXPECT_EQ(skin["joints"].get<std::vector<int>>(), expectedJoints);
  EXPECT_EQ(skin["skeleton"].get<int>(), 0);  // the hips, root of every joint
  EXPECT_EQ(skin["name"].get<std::string>(), source.skeleton.name(0));
  for (const Json& node : json["nodes"]) EXPECT_FALSE(node.contains("skin")) << "glTF requires a mesh beside a skin";

  const std::vector<float> matrices =
      glbAccessorFloats(out("walk.glb"), json, skin["inverseBindMatrices"].get<int>(), 16);
  ASSERT_EQ(matrices.size(), expectedJoints.size() * 16);
  const std::vector<Affine> restModel = localToModel(source.skeleton, source.skeleton.restPose());
  for (std::size_t k = 0; k < expectedJoints.size(); ++k) {
    const Mat4 inverseBind = Eigen::Map<const Mat4>(matrices.data() + 16 * k);
    const Mat4 product = inverseBind * restModel[static_cast<std::size_t>(expectedJoints[k])].matrix();
    EXPECT_LE((product - Mat4::Identity()).cwiseAbs().maxCoeff(), 1e-5f) << source.skeleton.name(expectedJoints[k]);
  }
  // Read back, the skin's nodes are the skeleton's joints again.
  const Scene copy = importOrFail(out("walk.glb"));
  EXPECT_EQ(copy.skeleton.boneCount(), source.skeleton.boneCount());
}

// A Z-up capture (MakeHuman walk1) written with its up goes under one "Y up" node that turns
// +Z onto +Y: read back, every joint stands where the source's stood, turned by it, so an
// engine (Y up by glTF's rule) stands the character up. The default writes no such node.
TEST_F(GltfExport, ZUpSceneStandsUpAlongY) {
  const Scene source = importOrFail(dataPath("bvh/makehuman/walk1.bvh"));
  ASSERT_EQ(exportGltf(source, out("plain.glb")), std::nullopt);
  const Json plain = readGltfJson(out("plain.glb"));  // held: a range-for over a temporary's member dangles
  for (const Json& node : plain["nodes"]) EXPECT_NE(node.value("name", ""), "Y up");

  GltfExportOptions options;
  options.upModel = Vec3::UnitZ();
  ASSERT_EQ(exportGltf(source, out("standing.glb"), options), std::nullopt);
  expectValidGltf(out("standing.glb"));
  const Json json = readGltfJson(out("standing.glb"));
  const Json& roots = json["scenes"][0]["nodes"];
  ASSERT_EQ(roots.size(), 1u) << roots.dump();
  const Json& top = json["nodes"][roots[0].get<std::size_t>()];
  EXPECT_EQ(top["name"], "Y up");
  EXPECT_EQ(top["children"], Json::array({0})) << "the BVH's root, at its own index";

  const Scene copy = importOrFail(out("standing.glb"));
  const Quat turn = Quat::FromTwoVectors(Vec3::UnitZ(), Vec3::UnitY());
  const std::vector<Affine> sourceModel = localToModel(source.skeleton, source.skeleton.restPose());
  const std::vector<Affine> copyModel = localToModel(copy.skeleton, copy.skeleton.restPose());
  for (int j = 0; j < source.skeleton.jointCount(); ++j) {
    const int k = copy.skeleton.findJoint(source.skeleton.name(j));
    ASSERT_GE(k, 0) << source.skeleton.name(j);
    const Vec3 expected = turn * sourceModel[static_cast<std::size_t>(j)].translation();
    EXPECT_LE((copyModel[static_cast<std::size_t>(k)].translation() - expected).norm(), 1e-4f)
        << source.skeleton.name(j);
  }
}

// A capture in decimetres (MakeHuman walk1) written with its units goes under one "metres"
// node scaled by 0.1, inside "Y up": read back, every joint stands where the source's stood in
// metres, so engines play it at its size. Its own nodes and keys stay as they were.
TEST_F(GltfExport, SceneInOtherUnitsIsMetresInTheFile) {
  const Scene source = importOrFail(dataPath("bvh/makehuman/walk1.bvh"));
  GltfExportOptions options;
  options.upModel = Vec3::UnitZ();
  options.unitsPerMetre = 10.0;
  ASSERT_EQ(exportGltf(source, out("metres.glb"), options), std::nullopt);
  expectValidGltf(out("metres.glb"));
  const Json json = readGltfJson(out("metres.glb"));
  const Json& top = json["nodes"][json["scenes"][0]["nodes"][0].get<std::size_t>()];
  ASSERT_EQ(top["name"], "Y up");
  ASSERT_EQ(top["children"].size(), 1u);
  const Json& metres = json["nodes"][top["children"][0].get<std::size_t>()];
  EXPECT_EQ(metres["name"], "metres");
  EXPECT_EQ(metres["children"], Json::array({0})) << "the BVH's root, at its own index";

  const Scene copy = importOrFail(out("metres.glb"));
  const Quat turn = Quat::FromTwoVectors(Vec3::UnitZ(), Vec3::UnitY());
  const std::vector<Affine> sourceModel = localToModel(source.skeleton, source.skeleton.restPose());
  const std::vector<Affine> copyModel = localToModel(copy.skeleton, copy.skeleton.restPose());
  for (int j = 0; j < source.skeleton.jointCount(); ++j) {
    const int k = copy.skeleton.findJoint(source.skeleton.name(j));
    ASSERT_GE(k, 0) << source.skeleton.name(j);
    const Vec3 expected = turn * sourceModel[static_cast<std::size_t>(j)].translation() / 10.0f;
    EXPECT_LE((copyModel[static_cast<std::size_t>(k)].translation() - expected).norm(), 1e-5f)
        << source.skeleton.name(j);
  }
}

// FBX mocap weights no mesh, so its bones are known from their LimbNodes alone; they too are
// written as a skin.
TEST_F(GltfExport, FbxArmatureWithoutMeshGetsASkin) {
  const Scene source = importOrFail(dataPath("fbx/cmu-blender/02_01_armature.fbx"));
  EXPECT_EQ(source.skeleton.boneCount(), 31);  // the BVH's joints; Blender's "_end" leaf bones are tips
  ASSERT_EQ(exportGltf(source, out("walk.glb")), std::nullopt);
  expectValidGltf(out("walk.glb"));
  const Json json = readGltfJson(out("walk.glb"));
  ASSERT_EQ(json["skins"].size(), 1u);
  std::vector<std::string> names;
  for (const Json& joint : json["skins"][0]["joints"]) names.push_back(json["nodes"][joint.get<std::size_t>()]["name"]);
  ASSERT_EQ(names.size(), 31u);
  EXPECT_EQ(names[1], "LHipJoint");
  EXPECT_EQ(std::count(names.begin(), names.end(), "LeftToeBase_end"), 0);
}

// A tree a mesh skins keeps the mesh's skin alone: no joint in two armatures.
TEST_F(GltfExport, SkinnedCharacterGetsNoExtraSkin) {
  const Scene source = makeMannequin();
  ASSERT_EQ(exportGltf(source, out("mannequin.glb")), std::nullopt);
  const Json json = readGltfJson(out("mannequin.glb"));
  ASSERT_EQ(json["skins"].size(), 1u);
  const auto skinned =
      std::count_if(json["nodes"].begin(), json["nodes"].end(), [](const Json& node) { return node.contains("skin"); });
  EXPECT_EQ(skinned, 1);
}

// ---- bad input ----

// Damaged Articula extras fail the import with a message naming the curve and the key.
TEST_F(GltfExport, BadStrideCurveExtrasAreNamedOnImport) {
  ASSERT_EQ(exportGltf(makeMannequin(), out("walk.gltf")), std::nullopt);
  Json json = readGltfJson(out("walk.gltf"));
  Json& keys = json["animations"][0]["extras"]["articula"]["curves"]["contact.left_foot"]["keys"];
  ASSERT_TRUE(keys.is_array() && keys.size() > 1) << json["animations"][0]["extras"].dump();
  keys[1][2] = "cubic";
  std::ofstream(out("walk.gltf")) << json.dump();
  auto scene = importScene(out("walk.gltf"));
  ASSERT_FALSE(scene.ok());
  EXPECT_NE(scene.error().find("walk.gltf"), std::string::npos) << scene.error();
  EXPECT_NE(scene.error().find("'contact.left_foot' key 1"), std::string::npos) << scene.error();
  EXPECT_NE(scene.error().find("interpolation"), std::string::npos) << scene.error();
}

TEST_F(GltfExport, MissingFolderIsNamed) {
  const std::string path = out("no/such/folder/walk.glb");
  const auto error = exportGltf(makeMannequin(), path);
  ASSERT_TRUE(error.has_value());
  EXPECT_NE(error->find(path), std::string::npos) << *error;
  EXPECT_NE(error->find("does not exist"), std::string::npos) << *error;
}

TEST_F(GltfExport, FolderAsOutputIsNamed) {
  const auto error = exportGltf(makeMannequin(), mDir.string());
  ASSERT_TRUE(error.has_value());
  EXPECT_NE(error->find(mDir.string()), std::string::npos) << *error;
}

TEST_F(GltfExport, InvalidSceneWritesNothing) {
  Scene scene = makeMannequin();
  scene.meshes.front().indices.push_back(static_cast<std::uint32_t>(scene.meshes.front().vertexCount()));
  const auto error = exportGltf(scene, out("bad.glb"));
  ASSERT_TRUE(error.has_value());
  EXPECT_NE(error->find("bad.glb"), std::string::npos) << *error;
  EXPECT_NE(error->find("mesh 0"), std::string::npos) << *error;
  EXPECT_FALSE(fs::exists(out("bad.glb")));
}

}  // namespace
}  // namespace articula
