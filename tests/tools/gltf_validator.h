#pragma once
// For tests that write glTF: runs the Khronos glTF validator (tests/tools/validate_gltf.mjs
// through node) on a file. The test target defines ARTICULA_NODE, ARTICULA_VALIDATE_SCRIPT and
// ARTICULA_GLTF_VALIDATOR_DIR (see tests/core/io/CMakeLists.txt). A missing node or validator
// is a failure with the fix in its message, never a skip: scripts/setup.sh installs both.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <string>

namespace articula::testing_tools {

inline ::testing::AssertionResult validatesWithoutErrors(const std::string& path) {
  const std::string node = ARTICULA_NODE;
  const std::string validator = ARTICULA_GLTF_VALIDATOR_DIR;
  if (!std::filesystem::exists(node)) {
    return ::testing::AssertionFailure() << "node (Node.js) not found (configured as '" << node
                                         << "'): install nodejs and npm, run scripts/setup.sh, re-run cmake";
  }
  if (!std::filesystem::exists(std::filesystem::path(validator) / "package.json")) {
    return ::testing::AssertionFailure() << "the glTF validator is not installed in " << validator
                                         << ": run scripts/setup.sh";
  }
  std::string command = "'" + node + "' '";
  command.append(ARTICULA_VALIDATE_SCRIPT).append("' '").append(validator).append("' '").append(path).append("' 2>&1");
  FILE* pipe = ::popen(command.c_str(), "r");
  if (pipe == nullptr) return ::testing::AssertionFailure() << "cannot run " << command;
  std::string output;
  std::array<char, 4096> buffer{};
  std::size_t n = 0;
  while ((n = std::fread(buffer.data(), 1, buffer.size(), pipe)) > 0) output.append(buffer.data(), n);
  const int status = ::pclose(pipe);
  // validate_gltf.mjs exits 0 without errors, 1 with errors, 2 when it could not validate.
  if (!WIFEXITED(status) || WEXITSTATUS(status) == 2) {
    return ::testing::AssertionFailure() << "the glTF validator could not run on " << path << ": " << output;
  }
  if (WEXITSTATUS(status) != 0) return ::testing::AssertionFailure() << "glTF validator errors: " << output;
  return ::testing::AssertionSuccess() << output;
}

}  // namespace articula::testing_tools
