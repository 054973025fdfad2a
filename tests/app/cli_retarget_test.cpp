// articula-cli map and retarget, run as a pipeline runs them, on real files.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <sstream>
#include <string>

#include "cli_run.h"
#include "tools/gltf_validator.h"

namespace {

using articula::testing_tools::CliRun;
using articula::testing_tools::data;
using articula::testing_tools::quoted;
using articula::testing_tools::runCli;

const std::string kRobot = "gltf/RobotExpressive/RobotExpressive.glb";
const std::string kCmuWalk = "bvh/cmu-mb-2010/02_01.bvh";
const std::string kMakeHumanWalk = "bvh/makehuman/walk1.bvh";

std::filesystem::path outputPath(const std::string& name) {
  return std::filesystem::temp_directory_path() / ("articula_retarget_" + std::to_string(::getpid()) + "_" + name);
}

nlohmann::json mapOf(const std::string& file) {
  const CliRun run = runCli("map --json " + quoted(data(file)));
  EXPECT_EQ(run.exitCode, 0) << run.stderrText;
  return nlohmann::json::parse(run.stdoutText, nullptr, false);
}

nlohmann::json clipNamed(const nlohmann::json& info, const std::string& name) {
  for (const auto& clip : info["clips"]) {
    if (clip["name"] == name) return clip;
  }
  return {};
}

TEST(CliMap, NamesTheRolesOfCmuBlenderAndMakeHumanSkeletons) {
  const nlohmann::json cmu = mapOf(kCmuWalk);
  EXPECT_EQ(cmu["hips"], "Hips");
  EXPECT_EQ(cmu["leftThigh"], "LeftUpLeg");
  EXPECT_EQ(cmu["rightForearm"], "RightForeArm");
  const nlohmann::json robot = mapOf(kRobot);
  EXPECT_EQ(robot["leftThigh"], "UpperLeg.L");
  EXPECT_EQ(robot["rightKnee"], "LowerLeg.R");
  EXPECT_EQ(robot["leftAnkle"], "Foot.L");
  const nlohmann::json makeHuman = mapOf(kMakeHumanWalk);
  EXPECT_TRUE(makeHuman.contains("leftAnkle")) << makeHuman.dump();
  EXPECT_TRUE(makeHuman.contains("head")) << makeHuman.dump();
}

TEST(CliMap, ASkeletonThatIsNotHumanoidIsOneLineNamingTheFile) {
  const CliRun run = runCli("map " + quoted(data("gltf/RiggedSimple/RiggedSimple.glb")));
  EXPECT_EQ(run.exitCode, 1);
  EXPECT_NE(run.stderrText.find("RiggedSimple.glb: not a humanoid"), std::string::npos) << run.stderrText;
  EXPECT_EQ(run.stderrText.find('\n'), run.stderrText.size() - 1) << run.stderrText;
}

// The CMU walk with every joint renamed "j<n>": names that say nothing of a humanoid. Returns
// the renamed file and its role map, as a user would write it by hand (or save it from the
// Characterise panel).
std::pair<std::filesystem::path, std::filesystem::path> anonymousCmuWalk() {
  std::ifstream in(data(kCmuWalk), std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  std::map<std::string, std::string> renamed;
  std::string out;
  const std::regex joint(R"((ROOT|JOINT)\s+(\S+))");
  const std::string source = text.str();
  std::size_t copied = 0;
  for (auto it = std::sregex_iterator(source.begin(), source.end(), joint); it != std::sregex_iterator(); ++it) {
    const std::string name = "j" + std::to_string(renamed.size());
    renamed[(*it)[2]] = name;
    out += source.substr(copied, static_cast<std::size_t>(it->position(2)) - copied) + name;
    copied = static_cast<std::size_t>(it->position(2) + it->length(2));
  }
  out += source.substr(copied);
  const auto bvh = outputPath("anonymous.bvh");
  std::ofstream(bvh, std::ios::binary) << out;
  nlohmann::json roles = mapOf(kCmuWalk);
  for (auto& [role, name] : roles.items()) name = renamed.at(name.get<std::string>());
  const auto map = outputPath("anonymous_map.json");
  std::ofstream(map, std::ios::binary) << roles.dump(2);
  return {bvh, map};
}

// Names that say nothing: refused by the name mapping with what is missing; with the role
// map the same capture retargets onto the robot exactly as the named one does.
TEST(CliMap, ARoleMapFileCharacterisesASkeletonWhoseNamesSayNothing) {
  const auto [bvh, map] = anonymousCmuWalk();
  const CliRun byNames = runCli("map " + quoted(bvh.string()));
  EXPECT_EQ(byNames.exitCode, 1);
  EXPECT_NE(byNames.stderrText.find("not a humanoid"), std::string::npos) << byNames.stderrText;
  const CliRun byMap = runCli("map --json " + quoted(bvh.string()) + " --map " + quoted(map.string()));
  ASSERT_EQ(byMap.exitCode, 0) << byMap.stderrText;
  EXPECT_EQ(nlohmann::json::parse(byMap.stdoutText), nlohmann::json::parse(std::ifstream(map)));

  const auto named = outputPath("named_on_robot.glb");
  const auto anonymous = outputPath("anonymous_on_robot.glb");
  const CliRun namedRun = runCli("retarget --json " + quoted(data(kCmuWalk)) + " --onto " + quoted(data(kRobot)) +
                                 " --out " + quoted(named.string()));
  const CliRun anonymousRun = runCli("retarget --json " + quoted(bvh.string()) + " --source-map " +
                                     quoted(map.string()) + " --onto " + quoted(data(kRobot)) + " --out " +
                                     quoted(anonymous.string()));
  ASSERT_EQ(namedRun.exitCode, 0) << namedRun.stderrText;
  ASSERT_EQ(anonymousRun.exitCode, 0) << anonymousRun.stderrText;
  // The same motion, clip named after its file: the same frames and keys.
  const auto clip = [](const CliRun& run) { return nlohmann::json::parse(run.stdoutText)["clips"][0]; };
  EXPECT_EQ(clip(anonymousRun)["frames"], clip(namedRun)["frames"]);
  EXPECT_EQ(clip(anonymousRun)["keys"], clip(namedRun)["keys"]);
  for (const auto& file : {bvh, map, named, anonymous}) std::filesystem::remove(file);
}

TEST(CliMap, AFaultyRoleMapIsOneLineNamingTheMapFile) {
  const auto [bvh, map] = anonymousCmuWalk();
  std::ofstream(map, std::ios::binary) << R"({"hips": "j0", "leftThigh": "LeftUpLeg"})";
  const auto out = outputPath("faulty_map.glb");
  const CliRun run = runCli("retarget " + quoted(bvh.string()) + " --source-map " + quoted(map.string()) + " --onto " +
                            quoted(data(kRobot)) + " --out " + quoted(out.string()));
  EXPECT_EQ(run.exitCode, 1);
  EXPECT_NE(run.stderrText.find(map.string() + "': role 'leftThigh': no joint named 'LeftUpLeg'"), std::string::npos)
      << run.stderrText;
  EXPECT_EQ(run.stderrText.find('\n'), run.stderrText.size() - 1) << run.stderrText;
  EXPECT_FALSE(std::filesystem::exists(out));
  std::ofstream(map, std::ios::binary) << R"({"hips": "j0"})";
  const CliRun incomplete = runCli("map " + quoted(bvh.string()) + " --map " + quoted(map.string()));
  EXPECT_EQ(incomplete.exitCode, 1);
  EXPECT_NE(incomplete.stderrText.find("no joint for chest, leftThigh"), std::string::npos) << incomplete.stderrText;
  for (const auto& file : {bvh, map}) std::filesystem::remove(file);
}

// A CMU capture (120 fps, T-pose) on the robot (24 fps clips, feet as IK bones): the robot
// keeps its mesh, skin and 14 clips, gains the capture as long as it was, and the file is
// valid glTF.
TEST(CliRetarget, CmuWalkOnTheRobotIsAValidFileWithTheRobotsClipsAndTheNewOne) {
  const auto out = outputPath("cmu_on_robot.glb");
  const CliRun run =
      runCli("retarget " + quoted(data(kCmuWalk)) + " --onto " + quoted(data(kRobot)) + " --out " + quoted(out.string()));
  ASSERT_EQ(run.exitCode, 0) << run.stderrText;
  EXPECT_TRUE(articula::testing_tools::validatesWithoutErrors(out.string()));
  const nlohmann::json robot = nlohmann::json::parse(runCli("info --json " + quoted(data(kRobot))).stdoutText);
  const nlohmann::json cmu = nlohmann::json::parse(runCli("info --json " + quoted(data(kCmuWalk))).stdoutText);
  const nlohmann::json written = nlohmann::json::parse(runCli("info --json " + quoted(out.string())).stdoutText);
  EXPECT_EQ(written["clips"].size(), robot["clips"].size() + 1);
  EXPECT_EQ(written["meshes"].size(), robot["meshes"].size());
  const nlohmann::json clip = clipNamed(written, "02_01");
  ASSERT_FALSE(clip.is_null());
  EXPECT_NEAR(clip["duration"].get<double>(), cmu["clips"][0]["duration"].get<double>(), 1e-3);
  EXPECT_FALSE(clipNamed(written, "Walking").is_null()) << "the robot's own clips stay";
  std::filesystem::remove(out);
}

// Z-up, decimetres, Hips under a Root: onto the robot, with its feet planted on the way.
TEST(CliRetarget, MakeHumanWalkWithContactsOnTheRobot) {
  const auto out = outputPath("makehuman_on_robot.glb");
  const CliRun run = runCli("retarget " + quoted(data(kMakeHumanWalk)) + " --onto " + quoted(data(kRobot)) +
                            " --contacts detect --json --out " + quoted(out.string()));
  ASSERT_EQ(run.exitCode, 0) << run.stderrText;
  const nlohmann::json report = nlohmann::json::parse(run.stdoutText);
  ASSERT_EQ(report["clips"].size(), 1u);
  EXPECT_GT(report["clips"][0]["keys"].get<int>(), 0);
  EXPECT_TRUE(articula::testing_tools::validatesWithoutErrors(out.string()));
  std::filesystem::remove(out);
}

TEST(CliRetarget, BadInputIsOneLineNamingTheFileAndWritesNothing) {
  const auto out = outputPath("refused.glb");
  const std::string robot = quoted(data(kRobot));
  const std::string cmu = quoted(data(kCmuWalk));
  const std::string rigged = quoted(data("gltf/RiggedSimple/RiggedSimple.glb"));
  for (const auto& [args, expected] : std::vector<std::pair<std::string, std::string>>{
           {cmu + " --onto " + rigged, "RiggedSimple.glb: not a humanoid"},
           {rigged + " --onto " + robot, "RiggedSimple.glb: not a humanoid"},
           {cmu + " --onto " + robot + " --clip nope", "no clip named 'nope'"},
           {cmu + " --onto /nonexistent/robot.glb", "/nonexistent/robot.glb"},
           {cmu + " --onto " + robot + " --contacts keep", "--contacts 'keep'"}}) {
    const CliRun run = runCli("retarget " + args + " --out " + quoted(out.string()));
    EXPECT_EQ(run.exitCode, 1) << args;
    EXPECT_NE(run.stderrText.find(expected), std::string::npos) << args << ": " << run.stderrText;
    EXPECT_EQ(run.stderrText.find('\n'), run.stderrText.size() - 1) << run.stderrText;
    EXPECT_FALSE(std::filesystem::exists(out)) << args;
  }
}

}  // namespace
