#pragma once
// Runs the real articula-cli binary (ARTICULA_CLI) the way a pipeline does, for the CLI tests.
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

}  // namespace articula::testing_tools
