// Runs the real articula-cli binary the way a pipeline does and checks what it prints.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

namespace {

struct CliRun {
  int exitCode = -1;
  bool signaled = false;
  std::string stdoutText;
  std::string stderrText;
};

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

TEST(CliInfo, JsonReportsCesiumManJointsAndClip) {
  const CliRun run = runCli("info --json " + quoted(data("gltf/CesiumMan/CesiumMan.glb")));
  ASSERT_EQ(run.exitCode, 0) << run.stderrText;
  const auto json = nlohmann::json::parse(run.stdoutText);
  EXPECT_EQ(json["joints"].get<int>(), 19);
  EXPECT_EQ(json["jointNames"].size(), 19u);
  ASSERT_EQ(json["clips"].size(), 1u);
  EXPECT_NEAR(json["clips"][0]["duration"].get<double>(), 2.0, 1e-3);  // clips start at t = 0
  ASSERT_GE(json["meshes"].size(), 1u);
  EXPECT_EQ(json["meshes"][0]["vertices"].get<int>(), 3273);
}

TEST(CliInfo, BvhEndSitesAreNotJoints) {
  const CliRun run = runCli("info --json " + quoted(data("bvh/cmu-mb-2010/02_01.bvh")));
  ASSERT_EQ(run.exitCode, 0) << run.stderrText;
  const auto json = nlohmann::json::parse(run.stdoutText);
  EXPECT_EQ(json["joints"].get<int>(), 31);
  ASSERT_EQ(json["clips"].size(), 1u);
  // Frames × Frame Time, with ".0083333" read as exactly 1/120 s.
  EXPECT_NEAR(json["clips"][0]["duration"].get<double>(), 344 / 120.0, 1e-9);
}

TEST(CliInfo, TextListsTheTree) {
  const CliRun run = runCli("info " + quoted(data("gltf/RiggedSimple/RiggedSimple.glb")));
  ASSERT_EQ(run.exitCode, 0) << run.stderrText;
  EXPECT_NE(run.stdoutText.find("joints: 2"), std::string::npos) << run.stdoutText;
  EXPECT_NE(run.stdoutText.find("Bone.001"), std::string::npos) << run.stdoutText;
}

TEST(CliInfo, CorruptFileExitsNonZeroWithOneLineMessage) {
  const auto dir = std::filesystem::temp_directory_path() / "articula_cli_test";
  std::filesystem::create_directories(dir);
  const auto truncated = dir / "truncated.glb";
  {
    std::ifstream in(data("gltf/CesiumMan/CesiumMan.glb"), std::ios::binary);
    std::string bytes(std::istreambuf_iterator<char>(in), {});
    std::ofstream out(truncated, std::ios::binary);
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size() / 2));
  }
  const CliRun run = runCli("info " + quoted(truncated.string()));
  EXPECT_FALSE(run.signaled);
  EXPECT_NE(run.exitCode, 0);
  EXPECT_TRUE(run.stdoutText.empty());
  EXPECT_NE(run.stderrText.find("truncated.glb"), std::string::npos) << run.stderrText;
  EXPECT_EQ(std::count(run.stderrText.begin(), run.stderrText.end(), '\n'), 1) << run.stderrText;
  std::filesystem::remove_all(dir);
}

TEST(CliInfo, MissingFileNamesTheFile) {
  const CliRun run = runCli("info /nonexistent/walk.bvh");
  EXPECT_FALSE(run.signaled);
  EXPECT_NE(run.exitCode, 0);
  EXPECT_NE(run.stderrText.find("/nonexistent/walk.bvh"), std::string::npos) << run.stderrText;
  EXPECT_NE(run.stderrText.find("does not exist"), std::string::npos) << run.stderrText;
}

TEST(CliInfo, UsageErrorIsNotACrash) {
  const CliRun run = runCli("info");
  EXPECT_FALSE(run.signaled);
  EXPECT_NE(run.exitCode, 0);
}

}  // namespace
