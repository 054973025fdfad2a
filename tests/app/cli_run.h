#pragma once
// Runs the real articula-cli binary (ARTICULA_CLI) the way a pipeline does, for the CLI tests.
#include <nlohmann/json.hpp>

#include <optional>
#include <string>

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

}  // namespace articula::testing_tools
