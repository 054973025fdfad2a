// Replays every kept fuzzer finding (tests/fuzz/regressions/<target>/) and every seed
// (tests/fuzz/seeds/<target>/) through the entry points the fuzzers drive, in the ordinary
// build: a reader that crashes again, or breaks a promise on success, fails here.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <string>
#include <vector>

#include "core/io/import.h"
#include "core/project/project_file.h"
#include "fuzz_entry_points.h"

namespace {

namespace fs = std::filesystem;

using EntryPoint = std::function<void(std::span<const std::uint8_t>)>;

std::vector<fs::path> filesIn(const fs::path& folder) {
  std::vector<fs::path> files;
  if (!fs::is_directory(folder)) return files;
  for (const fs::directory_entry& entry : fs::directory_iterator(folder)) {
    if (entry.is_regular_file() && entry.path().filename() != "README.md") files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  return files;
}

std::vector<std::uint8_t> bytesOf(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

int replay(const std::string& kind, const std::string& target, const EntryPoint& entry) {
  int count = 0;
  for (const fs::path& file : filesIn(fs::path(ARTICULA_FUZZ_DIR) / kind / target)) {
    SCOPED_TRACE(file.string());
    const std::vector<std::uint8_t> bytes = bytesOf(file);
    entry(bytes);
    ++count;
  }
  return count;
}

struct Target {
  const char* name;
  EntryPoint entry;
  std::vector<std::string> seedFolders;  // under seeds/
};

const std::vector<Target>& targets() {
  static const std::vector<Target> kTargets = {
      {"project_file", articula::fuzz::readProjectFile, {"project_file"}},
      {"bvh", articula::fuzz::readBvh, {"bvh"}},
      {"gltf", articula::fuzz::readGltf, {"gltf"}},
      {"assimp", articula::fuzz::readAssimp, {"assimp"}},
      // The exporter starts from what the BVH and glTF readers read (run_fuzzers.sh too).
      {"export", articula::fuzz::exportScene, {"bvh", "gltf"}},
  };
  return kTargets;
}

TEST(FuzzRegressions, KeptFindingsReplayWithoutCrashing) {
  for (const Target& target : targets()) replay("regressions", target.name, target.entry);
}

TEST(FuzzRegressions, EverySeedReplaysWithoutCrashing) {
  for (const Target& target : targets()) {
    int seeds = 0;
    for (const std::string& folder : target.seedFolders) seeds += replay("seeds", folder, target.entry);
    EXPECT_GT(seeds, 0) << "no seeds for " << target.name;
  }
}

// The two project findings, read directly: numbers beyond float or int range were narrowed
// silently (an infinite camera distance, a wrapped frame); now each is refused by its place.
TEST(FuzzRegressions, ProjectNumbersBeyondTheirTypeAreRefusedByPlace) {
  const fs::path folder = fs::path(ARTICULA_FUZZ_DIR) / "regressions" / "project_file";
  const struct {
    const char* file;
    const char* place;
  } cases[] = {{"camera_distance_beyond_float.articula", "view.camera.distance"},
               {"frame_beyond_int.articula", "view.frame"}};
  for (const auto& c : cases) {
    const std::vector<std::uint8_t> bytes = bytesOf(folder / c.file);
    const std::string text(bytes.begin(), bytes.end());
    const auto opened = articula::openProjectFromText(text, (folder / c.file).string());
    ASSERT_FALSE(opened) << c.file;
    EXPECT_NE(opened.error().find(c.place), std::string::npos) << opened.error();
  }
}

// Found by the fuzz part of scripts/test.sh: a joint scaled to zero was imported and broke
// Skeleton::validate(); now the file is refused, naming the node.
TEST(FuzzRegressions, ZeroScaleJointIsRefusedByNode) {
  const fs::path file = fs::path(ARTICULA_FUZZ_DIR) / "regressions" / "gltf" / "zero_scale_joint.glb";
  const std::vector<std::uint8_t> bytes = bytesOf(file);
  const auto scene = articula::importGltfFromMemory(bytes, std::string(), file.string());
  ASSERT_FALSE(scene);
  EXPECT_NE(scene.error().find("'Bone.007_end'): scale has a zero component"), std::string::npos) << scene.error();
}

}  // namespace
