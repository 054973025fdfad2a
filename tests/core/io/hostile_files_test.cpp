// Crafted files (issue 38), made by tests/tools/hostile_gltf.h from CesiumMan: what the
// readers repair (a skin listing a joint twice, a normal of zero or overflowing length) is
// written as valid glTF; what they cannot is one short printable line naming the file; deep
// and wide node trees import and export (a quadratic step would run for minutes here); and a
// killed save's temporary does not outlive the next save.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/file.h>
#include <unistd.h>

#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>

#include "core/io/atomic_file.h"
#include "core/io/gltf_export.h"
#include "core/io/import.h"
#include "core/util/message_text.h"
#include "tools/gltf_validator.h"
#include "tools/hostile_gltf.h"
#include "tools/written_gltf.h"

namespace articula {
namespace {

namespace fs = std::filesystem;
using testing_tools::Glb;

class HostileFiles : public testing::Test {
 protected:
  void SetUp() override {
    mFolder = fs::temp_directory_path() / ("articula_hostile_" + std::to_string(::getpid()));
    fs::remove_all(mFolder);
    fs::create_directories(mFolder / "crafted");
  }
  void TearDown() override {
    // The crafted inputs are invalid on purpose: only what the code under test wrote is validated.
    fs::remove_all(mFolder / "crafted");
    testing_tools::keepWrittenGltf(mFolder);
    fs::remove_all(mFolder);
  }

  static Glb cesiumMan() {
    return testing_tools::readGlb(std::string(ARTICULA_TEST_DATA_DIR) + "/gltf/CesiumMan/CesiumMan.glb");
  }
  static int cesiumManNodes() {
    const Result<Scene> scene = importScene(std::string(ARTICULA_TEST_DATA_DIR) + "/gltf/CesiumMan/CesiumMan.glb");
    return scene ? scene->skeleton.jointCount() : -1;
  }
  std::string write(const Glb& glb, const std::string& name) {
    const std::string path = (mFolder / "crafted" / name).string();
    testing_tools::writeGlb(glb, path);
    return path;
  }
  // Imports and exports, then validates unless told not to; the scene as imported.
  Scene roundTrip(const std::string& path, bool validate = true) {
    Result<Scene> scene = importScene(path, &mRepairs);
    EXPECT_TRUE(scene) << scene.error();
    if (!scene) return {};
    const std::string out = (mFolder / ("out_" + fs::path(path).filename().string())).string();
    EXPECT_EQ(exportGltf(*scene, out), std::nullopt);
    if (validate) {
      EXPECT_TRUE(testing_tools::validatesWithoutErrors(out));
    }
    return std::move(*scene);
  }
  // The Khronos validator overflows its own stack on a chain 100,000 deep (and takes 10 s
  // over 200,000 nodes): trees are only read back, and not kept for validate_written_gltf.
  Scene treeRoundTrip(const Glb& glb, const std::string& name) {
    const std::string path = write(glb, name);
    Scene scene = roundTrip(path, false);
    const std::string out = (mFolder / ("out_" + name)).string();
    EXPECT_TRUE(importScene(out)) << "the export reads back";
    fs::remove(path);
    fs::remove(out);
    return scene;
  }

  fs::path mFolder;
  std::vector<std::string> mRepairs;  // what roundTrip's import repaired
};

TEST_F(HostileFiles, ASkinListingAJointTwiceIsMergedAndSaid) {
  Glb glb = cesiumMan();
  nlohmann::json& joints = glb.json["skins"][0]["joints"];
  const std::size_t before = joints.size();
  // Entry 3 becomes entry 0's joint, with entry 0's inverse bind matrix: the same bind.
  joints[3] = joints[0];
  const int matrices = glb.json["skins"][0]["inverseBindMatrices"].get<int>();
  testing_tools::setFloats(glb, matrices, 3, testing_tools::floatsAt(glb, matrices, 0, 16));
  const Scene scene = roundTrip(write(glb, "duplicate_joint.glb"));
  ASSERT_EQ(scene.meshes.size(), 1u);
  EXPECT_EQ(scene.meshes[0].skin.joints.size(), before - 1);
  ASSERT_EQ(mRepairs.size(), 1u);
  EXPECT_NE(mRepairs[0].find("listed 1 joint(s) twice"), std::string::npos) << mRepairs[0];
}

TEST_F(HostileFiles, ASkinListingAJointTwiceWithTwoBindsIsRefusedByName) {
  Glb glb = cesiumMan();
  glb.json["skins"][0]["joints"][3] = glb.json["skins"][0]["joints"][0];
  const std::string path = write(glb, "two_binds.glb");
  const Result<Scene> scene = importScene(path);
  ASSERT_FALSE(scene);
  EXPECT_EQ(scene.error().rfind(path + ": ", 0), 0u) << scene.error();
  EXPECT_NE(scene.error().find("twice (entries 0 and 3) with different inverse bind matrices"), std::string::npos)
      << scene.error();
  EXPECT_LT(scene.error().size(), kMaxErrorLineLength);
}

TEST_F(HostileFiles, ZeroAndOverflowingNormalsAreRecomputedFromTheFaces) {
  Glb glb = cesiumMan();
  const int normals = glb.json["meshes"][0]["primitives"][0]["attributes"]["NORMAL"].get<int>();
  testing_tools::setFloats(glb, normals, 0, {0.0f, 0.0f, 0.0f});
  testing_tools::setFloats(glb, normals, 1, {3e38f, 3e38f, 0.0f});  // squared length overflows
  const Scene scene = roundTrip(write(glb, "normals.glb"));
  ASSERT_EQ(mRepairs.size(), 1u);
  EXPECT_NE(mRepairs[0].find("2 normal(s) of zero length or not finite"), std::string::npos) << mRepairs[0];
  for (int v : {0, 1}) EXPECT_NEAR(scene.meshes[0].normals[static_cast<std::size_t>(v)].norm(), 1.0f, 1e-5f);
}

TEST_F(HostileFiles, LongAndBinaryNamesAreEchoedShortAndPrintable) {
  Glb glb = cesiumMan();
  // The node of the clip's first channel, the clip, and a key time the export refuses: the
  // refusal quotes both names.
  glb.json["nodes"][glb.json["animations"][0]["channels"][0]["target"]["node"].get<int>()]["name"] =
      std::string(100000, 'x');
  glb.json["animations"][0]["name"] = std::string(1000, '\0') + "\x07" + "walk\x1b[31m";
  const int times = glb.json["animations"][0]["samplers"][0]["input"].get<int>();
  testing_tools::setFloats(glb, times, glb.json["accessors"][times]["count"].get<int>() - 1, {1e7f});
  const std::string path = write(glb, "names.glb");
  const Result<Scene> scene = importScene(path);
  ASSERT_TRUE(scene) << scene.error();
  const std::optional<std::string> error = exportGltf(*scene, (mFolder / "names_out.glb").string());
  ASSERT_NE(error, std::nullopt);
  EXPECT_LT(error->size(), kMaxErrorLineLength) << *error;
  EXPECT_EQ(error->find('\0'), std::string::npos);
  EXPECT_EQ(error->find('\x1b'), std::string::npos);
  EXPECT_NE(error->find("node 'xxxx"), std::string::npos) << *error;
  EXPECT_NE(error->find("xxxx...xxxx"), std::string::npos) << *error;
}

TEST_F(HostileFiles, BrokenJsonIsSaidInOurWords) {
  const std::string path = (mFolder / "crafted" / "broken.gltf").string();
  std::ofstream(path) << R"({"asset":{"version":"2.0"},"nodes":[{"name":x}]})";
  const Result<Scene> scene = importScene(path);
  ASSERT_FALSE(scene);
  EXPECT_EQ(scene.error().find("json.exception"), std::string::npos) << scene.error();
  EXPECT_NE(scene.error().find(path + ": not valid JSON at line 1, column "), std::string::npos) << scene.error();
}

TEST_F(HostileFiles, AChainOneHundredThousandDeepImportsAndExports) {
  Glb glb = cesiumMan();
  testing_tools::addNodeTree(glb, 100000, testing_tools::TreeShape::Chain);
  const Scene scene = treeRoundTrip(glb, "deep.glb");
  EXPECT_EQ(scene.skeleton.jointCount(), cesiumManNodes() + 100000);
}

TEST_F(HostileFiles, OneHundredThousandSiblingsOrRootsImportAndExport) {
  for (const auto shape : {testing_tools::TreeShape::Siblings, testing_tools::TreeShape::Roots}) {
    Glb glb = cesiumMan();
    testing_tools::addNodeTree(glb, 100000, shape);
    const Scene scene = treeRoundTrip(glb, "wide" + std::to_string(static_cast<int>(shape)) + ".glb");
    EXPECT_EQ(scene.skeleton.jointCount(), cesiumManNodes() + 100000);
  }
}

// A save killed after mkstemp leaves ".NAME.saving-XXXXXX"; the next save of NAME removes it,
// but never the temporary of a save still writing (locked) or one just created.
TEST_F(HostileFiles, TheNextSaveRemovesAKilledSavesTemporaryOnly) {
  const std::string target = (mFolder / "take.articula").string();
  const fs::path killed = mFolder / ".take.articula.saving-Ab3dEf";
  const fs::path writing = mFolder / ".take.articula.saving-Zz9yXw";
  const fs::path fresh = mFolder / ".take.articula.saving-Qq1wEr";
  const fs::path otherFile = mFolder / ".other.articula.saving-Ab3dEf";
  for (const fs::path& file : {killed, writing, fresh, otherFile}) std::ofstream(file) << "partial";
  const auto anHourAgo = fs::file_time_type::clock::now() - std::chrono::hours(1);
  for (const fs::path& file : {killed, writing, otherFile}) fs::last_write_time(file, anHourAgo);
  const int writer = ::open(writing.c_str(), O_RDONLY);
  ASSERT_GE(writer, 0);
  ASSERT_EQ(::flock(writer, LOCK_EX), 0);

  EXPECT_EQ(writeFileAtomically(target, "{}"), std::nullopt);
  EXPECT_FALSE(fs::exists(killed));
  EXPECT_TRUE(fs::exists(writing)) << "a save in progress holds its lock";
  EXPECT_TRUE(fs::exists(fresh)) << "created in the last seconds: maybe not locked yet";
  EXPECT_TRUE(fs::exists(otherFile)) << "another file's temporary";
  ::close(writer);
  EXPECT_EQ(removeAbandonedTemporaries(target), 1) << "the lock is free now";
  EXPECT_FALSE(fs::exists(writing));
}

TEST(MessageText, LinesArePrintableShortAndInOurWords) {
  const std::string line = printableLine(std::string("a.glb: ") + std::string(500, '\0') + "\x1b[31m\xff\n");
  EXPECT_EQ(line.size(), kMaxErrorLineLength - 1);
  EXPECT_EQ(line.rfind("a.glb: ???", 0), 0u);
  EXPECT_EQ(line.substr(line.size() - 3), "...");
  EXPECT_EQ(printableLine("caf\xc3\xa9\nok"), "caf\xc3\xa9 ok");
  EXPECT_EQ(shortName(std::string(30, 'L') + std::string(100, 'm') + std::string(30, 'R'), 20),
            std::string(8, 'L') + "..." + std::string(8, 'R'));
  EXPECT_EQ(jsonErrorInOurWords("[json.exception.parse_error.101] parse error at line 1, column 5: syntax error "
                                "while parsing value - invalid literal; last read: 'x'"),
            "not valid JSON at line 1, column 5: invalid literal");
  EXPECT_EQ(jsonErrorInOurWords("[json.exception.type_error.302] type must be string, but is number"),
            "type must be string, but is number");
}

}  // namespace
}  // namespace articula
