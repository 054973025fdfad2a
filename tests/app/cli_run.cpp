#include "cli_run.h"

#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>

namespace articula::testing_tools {

CliRun runCli(const std::string& args) {
  const auto errPath = std::filesystem::temp_directory_path() / ("articula_cli_stderr_" + std::to_string(::getpid()));
  const std::string command = std::string(ARTICULA_CLI) + " " + args + " 2>" + errPath.string();
  CliRun run;
  FILE* pipe = ::popen(command.c_str(), "r");
  if (pipe == nullptr) return run;
  std::array<char, 4096> buffer{};
  std::size_t n = 0;
  while ((n = std::fread(buffer.data(), 1, buffer.size(), pipe)) > 0) run.stdoutText.append(buffer.data(), n);
  const int status = ::pclose(pipe);
  run.signaled = WIFSIGNALED(status);
  run.exitCode = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  std::ifstream err(errPath);
  run.stderrText.assign(std::istreambuf_iterator<char>(err), {});
  std::filesystem::remove(errPath);
  return run;
}

std::string data(const std::string& relative) { return std::string(ARTICULA_TEST_DATA_DIR) + "/" + relative; }

std::string quoted(const std::string& path) { return "'" + path + "'"; }

namespace {

// What `command` (a Python tool's --json run) printed, parsed; nullopt without numpy.
std::optional<nlohmann::json> pythonJson(const std::string& command) {
  if (std::system("/usr/bin/python3 -c 'import numpy' 2>/dev/null") != 0) return std::nullopt;
  FILE* pipe = ::popen(command.c_str(), "r");
  if (pipe == nullptr) return std::nullopt;
  std::string text;
  std::array<char, 4096> buffer{};
  std::size_t n = 0;
  while ((n = std::fread(buffer.data(), 1, buffer.size(), pipe)) > 0) text.append(buffer.data(), n);
  ::pclose(pipe);
  return nlohmann::json::parse(text, nullptr, false);
}

}  // namespace

std::optional<nlohmann::json> judge(const std::string& glb, const std::string& clip, double fps) {
  const std::string tool = std::string(ARTICULA_TEST_DATA_DIR) + "/../../../shared/tools/gltf_motion_report.py";
  if (!std::filesystem::exists(tool)) return std::nullopt;
  return pythonJson("/usr/bin/python3 " + quoted(tool) + " " + quoted(glb) + " --clip " + quoted(clip) + " --fps " +
                    std::to_string(fps) + " --json 2>/dev/null");
}

std::optional<nlohmann::json> feetOnFloor(const std::string& glb, const std::string& arguments) {
  const std::string tool = std::string(ARTICULA_TEST_DATA_DIR) + "/../tools/feet_on_floor.py";
  return pythonJson("/usr/bin/python3 " + quoted(tool) + " " + quoted(glb) + " " + arguments + " --json");
}

}  // namespace articula::testing_tools
