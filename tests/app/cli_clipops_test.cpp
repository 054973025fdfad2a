// articula-cli root-motion and loop, and the seam in info --json, run as a pipeline runs them.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

#include "cli_run.h"
#include "tools/written_gltf.h"

namespace {

using articula::testing_tools::TempDir;
using articula::testing_tools::data;
using articula::testing_tools::judge;
using articula::testing_tools::quoted;
using articula::testing_tools::runCli;

const std::string kCmuWalk = "bvh/cmu-mb-2010/02_01.bvh";
const std::string kRobot = "gltf/RobotExpressive/RobotExpressive.glb";
const std::string kMakeHumanWalk = "bvh/makehuman/walk1.bvh";

nlohmann::json runJson(const std::string& args) {
  const auto run = runCli(args + " --json");
  EXPECT_EQ(run.exitCode, 0) << args << ": " << run.stderrText;
  return nlohmann::json::parse(run.stdoutText, nullptr, false);
}

TEST(CliClipOps, InfoJsonGivesEachClipItsSeam) {
  const auto info = runJson("info " + quoted(data(kRobot)));
  ASSERT_TRUE(info.is_object());
  for (const auto& clip : info["clips"]) {
    ASSERT_TRUE(clip["seam"].is_object()) << clip["name"];
    if (clip["name"] == "Walking") {
      EXPECT_LT(clip["seam"]["poseMm"].get<double>(), 0.01);
    }
  }
}

// Root motion moves no joint: the shared judge finds the source's planted spans, slide for
// slide, in the written file.
TEST(CliClipOps, RootMotionOfTheCmuWalkKeepsEveryFootSpan) {
  TempDir dir("articula_cli_root_motion");
  ASSERT_EQ(runCli("export " + quoted(data(kCmuWalk)) + " --out " + quoted(dir / "source.glb")).exitCode, 0);
  const auto report =
      runJson("root-motion " + quoted(data(kCmuWalk)) + " --out " + quoted(dir / "root.glb") + " --yaw");
  ASSERT_TRUE(report.is_object());
  EXPECT_NEAR(report["clips"][0]["seam"]["travelMm"].get<double>(),
              report["clips"][0]["seamBefore"]["travelMm"].get<double>(), 1.0)
      << "the root travels as the hips did";
  const auto source = judge(dir / "source.glb", "02_01");
  const auto root = judge(dir / "root.glb", "02_01");
  if (!source || !root) GTEST_SKIP() << "the shared judge or numpy is not installed";
  for (const char* side : {"left", "right"}) {
    const auto& a = (*source)["feet"][side]["spans"];
    const auto& b = (*root)["feet"][side]["spans"];
    ASSERT_EQ(a.size(), b.size()) << side;
    for (std::size_t i = 0; i < a.size(); ++i) EXPECT_NEAR(a[i][2].get<double>(), b[i][2].get<double>(), 1.0) << side;
  }
}

// In place: a looped walk taken off its travel is an in-place cycle for the judge, and the
// robot's Walking stays one.
TEST(CliClipOps, InPlaceMakesATreadmillCycle) {
  TempDir dir("articula_cli_in_place");
  ASSERT_EQ(runCli("loop " + quoted(data(kCmuWalk)) + " --out " + quoted(dir / "loop.glb") + " --blend 0.5").exitCode,
            0);
  const auto report =
      runJson("root-motion " + quoted(dir / "loop.glb") + " --in-place --out " + quoted(dir / "in_place.glb"));
  ASSERT_TRUE(report.is_object());
  EXPECT_LT(report["clips"][0]["seam"]["travelMm"].get<double>(), 1.0) << "hips drift per cycle";
  const auto robot =
      runJson("root-motion " + quoted(data(kRobot)) + " --clip Walking --in-place --out " + quoted(dir / "robot.glb"));
  ASSERT_TRUE(robot.is_object());
  EXPECT_LT(robot["clips"][0]["seam"]["travelMm"].get<double>(), 1.0);
  const auto cmu = judge(dir / "in_place.glb", "02_01");
  const auto walking = judge(dir / "robot.glb", "Walking");
  if (!cmu || !walking) GTEST_SKIP() << "the shared judge or numpy is not installed";
  EXPECT_TRUE((*cmu)["in_place_cycle"].get<bool>());
  EXPECT_TRUE((*walking)["in_place_cycle"].get<bool>());
}

TEST(CliClipOps, LoopClosesTheSeamAndCanDropTheEndFrame) {
  TempDir dir("articula_cli_loop");
  const auto kept = runJson("loop " + quoted(data(kRobot)) + " --clip Walking --out " + quoted(dir / "kept.glb"));
  const auto dropped =
      runJson("loop " + quoted(data(kRobot)) + " --clip Walking --drop-end-frame --out " + quoted(dir / "dropped.glb"));
  ASSERT_TRUE(kept.is_object() && dropped.is_object());
  const auto& seam = kept["clips"][0]["seam"];
  EXPECT_LE(seam["poseMm"].get<double>(), seam["medianStepMm"].get<double>());
  EXPECT_LE(seam["velocityMm"].get<double>(), seam["medianVelocityChangeMm"].get<double>());
  EXPECT_EQ(dropped["clips"][0]["frames"].get<int>(), kept["clips"][0]["frames"].get<int>() - 1);
}

// A folder in, one JSON line per file out, as bake does.
TEST(CliClipOps, RootMotionRunsOverAFolder) {
  TempDir in("articula_cli_clipops_in");
  TempDir out("articula_cli_clipops_out");
  std::filesystem::copy_file(data(kCmuWalk), in / "walk.bvh");
  std::filesystem::copy_file(data(kMakeHumanWalk), in / "walk1.bvh");
  const auto run =
      runCli("root-motion " + quoted(in.path.string()) + " --out-dir " + quoted(out.path.string()) + " --jobs 2");
  EXPECT_EQ(run.exitCode, 0) << run.stderrText;
  std::istringstream lines(run.stdoutText);
  int files = 0;
  for (std::string line; std::getline(lines, line); ++files) {
    const auto json = nlohmann::json::parse(line, nullptr, false);
    ASSERT_TRUE(json.is_object()) << line;
    EXPECT_TRUE(json["ok"].get<bool>()) << line;
    EXPECT_TRUE(std::filesystem::exists(json["out"].get<std::string>())) << line;
  }
  EXPECT_EQ(files, 2);
}

// Odd input: one line naming the file and the problem, exit code 1, nothing written.
TEST(CliClipOps, OddInputIsOneLineAndWritesNothing) {
  TempDir dir("articula_cli_clipops_odd");
  struct Case {
    std::string args, says;
  };
  const std::vector<Case> cases = {
      {"root-motion " + quoted(data("gltf/RiggedSimple/RiggedSimple.glb")), "no humanoid"},
      {"root-motion " + quoted(data(kCmuWalk)) + " --root LeftUpLeg", "taken"},
      {"loop " + quoted(data(kRobot)) + " --clip Walking --blend 5", "longer than clip"},
      {"root-motion " + quoted(data(kCmuWalk)) + " --axes xw", "axes 'xw'"},
  };
  for (const Case& c : cases) {
    const std::string out = dir / "out.glb";
    const auto run = runCli(c.args + " --out " + quoted(out));
    EXPECT_EQ(run.exitCode, 1) << c.args;
    EXPECT_NE(run.stderrText.find(c.says), std::string::npos) << run.stderrText;
    EXPECT_EQ(std::count(run.stderrText.begin(), run.stderrText.end(), '\n'), 1) << run.stderrText;
    EXPECT_FALSE(std::filesystem::exists(out)) << c.args;
  }
}

}  // namespace
