#pragma once
// Keeps the glTF files a test wrote for the validator that runs after the suite: under ctest,
// ARTICULA_WRITTEN_GLTF_DIR names a folder (tests/CMakeLists.txt), and the test
// validate_written_gltf validates every .glb and .gltf there once the tests that write are
// done. Run directly, without that variable, nothing is kept.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <string>
#include <system_error>
#include <vector>

namespace articula::testing_tools {

// Copies the .glb and .gltf files under `folder`, with the .bin files and images beside them
// that a .gltf refers to, into <ARTICULA_WRITTEN_GLTF_DIR>/<suite.test>/<folder's name>/ at
// the same relative paths. Call it before a test's output folder is deleted; a file the test
// damaged on purpose must be gone by then. Hidden files (an exporter's temporaries) are not
// outputs and stay behind.
inline void keepWrittenGltf(const std::filesystem::path& folder) {
  const char* kept = std::getenv("ARTICULA_WRITTEN_GLTF_DIR");
  const ::testing::TestInfo* test = ::testing::UnitTest::GetInstance()->current_test_info();
  std::error_code error;
  if (kept == nullptr || *kept == '\0' || test == nullptr || !std::filesystem::is_directory(folder, error)) return;
  std::vector<std::filesystem::path> files;
  bool hasGltf = false;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(folder, error)) {
    const std::string extension = entry.path().extension().string();
    if (entry.path().filename().string().front() == '.') continue;  // an exporter's temporary
    for (const char* kind : {".glb", ".gltf", ".bin", ".png", ".jpg", ".jpeg"}) {
      if (extension != kind || !entry.is_regular_file(error)) continue;
      files.push_back(entry.path());
      hasGltf = hasGltf || extension == ".glb" || extension == ".gltf";
    }
  }
  if (!hasGltf) return;
  const std::filesystem::path target =
      std::filesystem::path(kept) / (std::string(test->test_suite_name()) + "." + test->name()) / folder.filename();
  for (const std::filesystem::path& file : files) {
    const std::filesystem::path copy = target / std::filesystem::relative(file, folder, error);
    std::filesystem::create_directories(copy.parent_path(), error);
    std::filesystem::copy_file(file, copy, std::filesystem::copy_options::overwrite_existing, error);
  }
}

}  // namespace articula::testing_tools
