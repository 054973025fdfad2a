#pragma once
// Runs the real articula-cli binary (ARTICULA_CLI) the way a pipeline does, for the CLI tests.
#include <nlohmann/json.hpp>

#include <unistd.h>

#include <filesystem>
#include <optional>
#include <string>

#include "tools/written_gltf.h"

namespace articula::testing_tools {

struct CliRun {
  int exitCode = -1;
  bool signaled = false;
  std::string stdoutText;
  std::string stderrText;
};

// `args` as a shell would pass them (quote paths with quoted()).
CliRun runCli(const std::string& args);

// A file of tests/data.
std::string data(const std::string& relative);

std::string quoted(const std::string& path);

// The shared judge (../shared/tools/gltf_motion_report.py beside the worktree) run on a
// written file at `fps`: its --json report, or nullopt when it or numpy is not there.
std::optional<nlohmann::json> judge(const std::string& glb, const std::string& clip, double fps = 120.0);

// tests/tools/feet_on_floor.py run on a written file: `arguments` after the file (--clip,
// --source, --feet, --head, ...); its --json report, or nullopt when numpy is not there.
std::optional<nlohmann::json> feetOnFloor(const std::string& glb, const std::string& arguments);

// A temporary folder of its own (NAME and the process id under the system's temporary
// folder), removed with the object; the glTF files written in it are kept first for
// validate_written_gltf where the test program keeps them (KEEPS_WRITTEN_GLTF).
struct TempDir {
  std::filesystem::path path;
  explicit TempDir(const std::string& name)
      : path(std::filesystem::temp_directory_path() / (name + "_" + std::to_string(::getpid()))) {
    std::filesystem::remove_all(path);
    std::filesystem::create_directories(path);
  }
  ~TempDir() {
    keepWrittenGltf(path);
    std::filesystem::remove_all(path);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  std::string operator/(const std::string& file) const { return (path / file).string(); }
};

}  // namespace articula::testing_tools
