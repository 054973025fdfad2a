// Exports replace files atomically: a writer killed mid-export or a disk that fills up leaves
// the old .glb / .gltf / .bin whole (they used to be truncated in place and left as fragments).
#include <gtest/gtest.h>
#include <sys/mount.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <thread>
#include <vector>

#include "core/io/gltf_export.h"
#include "core/io/import.h"
#include "tools/written_gltf.h"

namespace articula {
namespace {

namespace fs = std::filesystem;

std::string dataPath(const std::string& relative) { return std::string(ARTICULA_TEST_DATA_DIR) + "/" + relative; }

std::string readFile(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

Scene importOrFail(const std::string& path) {
  Result<Scene> scene = importScene(path);
  EXPECT_TRUE(scene) << scene.error();
  return scene ? std::move(scene.value()) : Scene();
}

// CesiumMan with its mesh repeated: an export of some 20 MB, long enough to be killed while
// its bytes are being written.
Scene bigScene() {
  Scene scene = importOrFail(dataPath("gltf/CesiumMan/CesiumMan.glb"));
  const std::vector<Mesh> meshes = scene.meshes;
  for (int copy = 0; copy < 40; ++copy) scene.meshes.insert(scene.meshes.end(), meshes.begin(), meshes.end());
  return scene;
}

class AtomicExport : public testing::Test {
 protected:
  void SetUp() override {
    const testing::TestInfo* info = testing::UnitTest::GetInstance()->current_test_info();
    mDir = fs::temp_directory_path() / ("articula_atomic_" + std::string(info->name()) + "_" + std::to_string(::getpid()));
    fs::remove_all(mDir);
    fs::create_directories(mDir);
  }
  void TearDown() override {
    testing_tools::keepWrittenGltf(mDir);
    if (mMounted) ::umount2(mDir.c_str(), MNT_DETACH);
    fs::remove_all(mDir);
  }

  std::string out(const std::string& name) const { return (mDir / name).string(); }

  // Files in the folder whose names start with '.': the exporter's temporaries.
  std::vector<std::string> temporaries() const {
    std::vector<std::string> found;
    for (const auto& entry : fs::directory_iterator(mDir)) {
      if (entry.path().filename().string().front() == '.') found.push_back(entry.path().filename().string());
    }
    return found;
  }

  fs::path mDir;
  bool mMounted = false;
};

// A child exports `scene` to each of `paths` over and over until it is killed after `delay`.
void killExporterAfter(const Scene& scene, const std::vector<std::string>& paths, std::chrono::milliseconds delay) {
  const pid_t child = ::fork();
  ASSERT_GE(child, 0) << std::strerror(errno);
  if (child == 0) {
    for (;;) {
      for (const std::string& path : paths) exportGltf(scene, path);
    }
  }
  std::this_thread::sleep_for(delay);
  ::kill(child, SIGKILL);
  int status = 0;
  ::waitpid(child, &status, 0);
}

TEST_F(AtomicExport, KilledGlbExportLeavesTheOldOrTheNewFileWhole) {
  const Scene small = importOrFail(dataPath("gltf/CesiumMan/CesiumMan.glb"));
  const Scene big = bigScene();
  ASSERT_EQ(exportGltf(big, out("reference.glb")), std::nullopt);
  const std::string newBytes = readFile(out("reference.glb"));
  for (int trial = 0; trial < 8; ++trial) {
    ASSERT_EQ(exportGltf(small, out("walk.glb")), std::nullopt);
    const std::string oldBytes = readFile(out("walk.glb"));
    killExporterAfter(big, {out("walk.glb")}, std::chrono::milliseconds(20 + 37 * trial));
    const std::string after = readFile(out("walk.glb"));
    EXPECT_TRUE(after == oldBytes || after == newBytes) << "trial " << trial << ": a fragment of " << after.size()
                                                        << " bytes (old " << oldBytes.size() << ", new "
                                                        << newBytes.size() << ")";
  }
}

TEST_F(AtomicExport, KilledGltfExportLeavesEachFileOfThePairWhole) {
  const Scene small = importOrFail(dataPath("gltf/CesiumMan/CesiumMan.glb"));
  const Scene big = bigScene();
  fs::create_directories(mDir / "reference");
  ASSERT_EQ(exportGltf(big, (mDir / "reference" / "walk.gltf").string()), std::nullopt);
  const std::string newJson = readFile(mDir / "reference" / "walk.gltf");
  const std::string newBin = readFile(mDir / "reference" / "walk.bin");
  for (int trial = 0; trial < 8; ++trial) {
    ASSERT_EQ(exportGltf(small, out("walk.gltf")), std::nullopt);
    const std::string oldJson = readFile(out("walk.gltf"));
    const std::string oldBin = readFile(out("walk.bin"));
    killExporterAfter(big, {out("walk.gltf")}, std::chrono::milliseconds(20 + 37 * trial));
    const std::string json = readFile(out("walk.gltf"));
    const std::string bin = readFile(out("walk.bin"));
    EXPECT_TRUE(json == oldJson || json == newJson) << "trial " << trial << ": .gltf of " << json.size() << " bytes";
    EXPECT_TRUE(bin == oldBin || bin == newBin) << "trial " << trial << ": .bin of " << bin.size() << " bytes";
    // The .bin is renamed first: a new .gltf always finds its new .bin.
    if (json == newJson) {
      EXPECT_TRUE(bin == newBin) << "trial " << trial;
    }
  }
}

// A 200 KB tmpfs holds the old export but not the new one: the export fails naming the
// reason, the old file is untouched and no temporary is left behind.
TEST_F(AtomicExport, FullDiskLeavesTheOldFilesAndNoTemporaries) {
  if (::mount("tmpfs", mDir.c_str(), "tmpfs", 0, "size=200k") != 0) {
    GTEST_SKIP() << "cannot mount a small tmpfs here (" << std::strerror(errno) << "); needs root";
  }
  mMounted = true;
  const Scene small = importOrFail(dataPath("gltf/AnimatedTriangle/glTF/AnimatedTriangle.gltf"));
  const Scene big = importOrFail(dataPath("gltf/CesiumMan/CesiumMan.glb"));
  for (const char* name : {"walk.glb", "walk.gltf"}) {
    SCOPED_TRACE(name);
    ASSERT_EQ(exportGltf(small, out(name)), std::nullopt);
    const std::string oldFile = readFile(out(name));
    const std::string oldBin = readFile(out("walk.bin"));
    const std::optional<std::string> error = exportGltf(big, out(name));
    ASSERT_NE(error, std::nullopt);
    EXPECT_EQ(error->rfind(out(name) + ": ", 0), 0u) << *error;
    EXPECT_NE(error->find(std::strerror(ENOSPC)), std::string::npos) << *error;
    EXPECT_EQ(readFile(out(name)), oldFile);
    EXPECT_EQ(readFile(out("walk.bin")), oldBin);
    EXPECT_TRUE(temporaries().empty()) << temporaries().front();
  }
}

}  // namespace
}  // namespace articula
