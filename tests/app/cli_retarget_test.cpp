// articula-cli map and retarget, run as a pipeline runs them, on real files.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <regex>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include "cli_run.h"
#include "core/project/project_file.h"
#include "core/retarget/retarget_quality.h"
#include "core/rig/humanoid_map.h"
#include "tools/gltf_validator.h"
#include "tools/written_gltf.h"

namespace {

using articula::testing_tools::CliRun;
using articula::testing_tools::data;
using articula::testing_tools::judge;
using articula::testing_tools::quoted;
using articula::testing_tools::runCli;

const std::string kRobot = "gltf/RobotExpressive/RobotExpressive.glb";
const std::string kCmuWalk = "bvh/cmu-mb-2010/02_01.bvh";
const std::string kMakeHumanWalk = "bvh/makehuman/walk1.bvh";
const std::string kMannequin = "projects/mannequin_v1.articula";
// Rigid parts moved by node animation, no joints at all.
const std::string kNoSkeleton = "gltf/KenneyPlatformerCharacter/character.glb";
// CMU 02_01 without its left shoulder, arm, forearm and hand (a capture missing a limb).
const std::string kCmuWalkNoLeftArm = "bvh/cmu-mb-2010/02_01_no_left_arm.bvh";

std::filesystem::path outputPath(const std::string& name) {
  return std::filesystem::temp_directory_path() / ("articula_retarget_" + std::to_string(::getpid()) + "_" + name);
}

// The roles `map --json` printed, without the capture convention it reports beside them.
nlohmann::json rolesIn(const std::string& stdoutText) {
  nlohmann::json roles = nlohmann::json::parse(stdoutText, nullptr, false);
  if (roles.is_object()) roles.erase("convention");
  return roles;
}

nlohmann::json mapOf(const std::string& file) {
  const CliRun run = runCli("map --json " + quoted(data(file)));
  EXPECT_EQ(run.exitCode, 0) << run.stderrText;
  return rolesIn(run.stdoutText);
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

// Names that say nothing: the skeleton's shape gives the map the names gave; the role map
// file, given, is the map; the capture retargets onto the robot exactly as the named one.
TEST(CliMap, ARoleMapFileCharacterisesASkeletonWhoseNamesSayNothing) {
  const auto [bvh, map] = anonymousCmuWalk();
  const nlohmann::json roles = nlohmann::json::parse(std::ifstream(map));
  const CliRun byShape = runCli("map --json " + quoted(bvh.string()));
  ASSERT_EQ(byShape.exitCode, 0) << byShape.stderrText;
  EXPECT_EQ(rolesIn(byShape.stdoutText), roles);
  const CliRun byMap = runCli("map --json " + quoted(bvh.string()) + " --map " + quoted(map.string()));
  ASSERT_EQ(byMap.exitCode, 0) << byMap.stderrText;
  EXPECT_EQ(rolesIn(byMap.stdoutText), roles);

  const auto named = outputPath("named_on_robot.glb");
  const auto anonymous = outputPath("anonymous_on_robot.glb");
  const CliRun namedRun = runCli("retarget --json " + quoted(data(kCmuWalk)) + " --onto " + quoted(data(kRobot)) +
                                 " --out " + quoted(named.string()));
  const CliRun anonymousRun =
      runCli("retarget --json " + quoted(bvh.string()) + " --source-map " + quoted(map.string()) + " --onto " +
             quoted(data(kRobot)) + " --out " + quoted(anonymous.string()));
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
  EXPECT_NE(incomplete.stderrText.find("no joint for Chest (top of the spine) [chest], Left thigh [leftThigh]"),
            std::string::npos)
      << incomplete.stderrText;
  for (const auto& file : {bvh, map}) std::filesystem::remove(file);
}

// A CMU capture (120 fps, T-pose) on the robot (24 fps clips, feet as IK bones): the robot
// keeps its mesh, skin and 14 clips, gains the capture as long as it was, and the file is
// valid glTF.
TEST(CliRetarget, CmuWalkOnTheRobotIsAValidFileWithTheRobotsClipsAndTheNewOne) {
  const auto out = outputPath("cmu_on_robot.glb");
  const CliRun run = runCli("retarget " + quoted(data(kCmuWalk)) + " --onto " + quoted(data(kRobot)) + " --out " +
                            quoted(out.string()));
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
  const std::string kenney = quoted(data(kNoSkeleton));
  const std::string noLeftArm = quoted(data(kCmuWalkNoLeftArm));
  for (const auto& [args, expected] : std::vector<std::pair<std::string, std::string>>{
           {cmu + " --onto " + rigged, "RiggedSimple.glb: not a humanoid"},
           {rigged + " --onto " + robot, "RiggedSimple.glb: not a humanoid"},
           {cmu + " --onto " + robot + " --clip nope", "no clip named 'nope'"},
           {cmu + " --onto " + kenney, "character.glb: not a humanoid: it has no skeleton (no joints) for the hips"},
           {kenney + " --onto " + robot, "character.glb: not a humanoid: it has no skeleton"},
           {noLeftArm + " --onto " + robot, "02_01_no_left_arm.bvh: not a humanoid: no left arm"},
           {cmu + " --onto /nonexistent/robot.glb", "/nonexistent/robot.glb"},
           {cmu + " --onto " + robot + " --contacts keep", "--contacts 'keep'"},
           {cmu + " --onto " + robot + " --fps 0", "--fps must be a positive frame rate"},
           {cmu + " --onto " + robot + " --hands wave", "--hands 'wave': expected reach"}}) {
    const CliRun run = runCli("retarget " + args + " --out " + quoted(out.string()));
    EXPECT_EQ(run.exitCode, 1) << args;
    EXPECT_NE(run.stderrText.find(expected), std::string::npos) << args << ": " << run.stderrText;
    EXPECT_EQ(run.stderrText.find('\n'), run.stderrText.size() - 1) << run.stderrText;
    EXPECT_FALSE(std::filesystem::exists(out)) << args;
  }
}

// ---- issue 24, point 3: the figures, measured on the written files ----

const articula::Clip* clipOf(const articula::Scene& scene, const std::string& name) {
  for (const articula::Clip& clip : scene.clips) {
    if (clip.name == name) return &clip;
  }
  return nullptr;
}

// Each mesh as (skinned, vertices, triangles, joints of its skin), sorted: what the
// character's meshes are, whatever order the exporter writes them in.
std::vector<std::tuple<bool, std::size_t, std::size_t, std::size_t>> meshesOf(const articula::Scene& scene) {
  std::vector<std::tuple<bool, std::size_t, std::size_t, std::size_t>> meshes;
  for (const articula::Mesh& mesh : scene.meshes)
    meshes.emplace_back(mesh.hasSkin, mesh.vertexCount(), mesh.indices.size() / 3, mesh.skin.joints.size());
  std::sort(meshes.begin(), meshes.end());
  return meshes;
}

// A folder of the test's own, its glTF files kept for validate_written_gltf, then removed.
struct OutputDir {
  std::filesystem::path path;
  explicit OutputDir(const std::string& name) : path(outputPath(name)) {
    std::filesystem::remove_all(path);
    std::filesystem::create_directories(path);
  }
  ~OutputDir() {
    articula::testing_tools::keepWrittenGltf(path);
    std::filesystem::remove_all(path);
  }
};

struct RetargetCase {
  std::string source, clip, character;
  double fps;  // the source's frame rate, for the judge
};

// CMU 02_01 (Y-up, 120 fps, travels) and the MakeHuman walk (Z-up decimetres, 24 fps, in
// place) on the mannequin and on the robot, feet planted: a valid file with the
// character's mesh and skin and the source's duration; read back by our glTF reader, every
// mapped bone within 10° of the source's where the leg IK does not hold the foot, the hips
// travelling as the source's scaled by the legs within 5 %; by the shared judge, under
// 1 mm of slide per planted span. retarget --json reports the same figures.
TEST(CliRetarget, FourSourceCharacterPairsMeetTheQualityFigures) {
  const std::vector<RetargetCase> cases{{kCmuWalk, "02_01", kMannequin, 120.0},
                                        {kCmuWalk, "02_01", kRobot, 120.0},
                                        {kMakeHumanWalk, "walk1", kMannequin, 24.0},
                                        {kMakeHumanWalk, "walk1", kRobot, 24.0}};
  for (const RetargetCase& c : cases) {
    SCOPED_TRACE(c.source + " onto " + c.character);
    const OutputDir dir("quality_" + std::filesystem::path(c.character).stem().string());
    const std::string out = (dir.path / (c.clip + ".glb")).string();
    const CliRun run = runCli("retarget " + quoted(data(c.source)) + " --onto " + quoted(data(c.character)) +
                              " --contacts detect --json --out " + quoted(out));
    ASSERT_EQ(run.exitCode, 0) << run.stderrText;
    EXPECT_TRUE(articula::testing_tools::validatesWithoutErrors(out));
    const nlohmann::json report = nlohmann::json::parse(run.stdoutText)["clips"][0];
    EXPECT_LE(report["maxBoneAngleDeg"].get<double>(), 10.0) << report.dump();
    EXPECT_LE(report["hipTravelRatioError"].get<double>(), 0.05) << report.dump();

    auto source = articula::loadSceneOrProject(data(c.source));
    auto character = articula::loadSceneOrProject(data(c.character));
    auto written = articula::loadSceneOrProject(out);
    ASSERT_TRUE(source && character && written);
    EXPECT_EQ(meshesOf(*written), meshesOf(*character)) << "the character's meshes and skins";
    EXPECT_GT(std::count_if(written->meshes.begin(), written->meshes.end(),
                            [](const articula::Mesh& mesh) { return mesh.hasSkin; }),
              0);
    const articula::Clip* played = clipOf(*written, c.clip);
    ASSERT_NE(played, nullptr);
    EXPECT_NEAR(played->duration(), source->clips.front().duration(), 1e-4);

    auto sourceMap = articula::mapHumanoid(source->skeleton);
    auto writtenMap = articula::mapHumanoid(written->skeleton);
    ASSERT_TRUE(sourceMap && writtenMap);
    const articula::RetargetQuality quality = articula::measureRetarget(
        source->skeleton, *sourceMap, source->clips.front(), written->skeleton, *writtenMap, *played);
    EXPECT_LE(quality.maxBoneAngleDeg, 10.0f) << quality.worstBone << " at frame " << quality.worstFrame;
    EXPECT_LE(quality.hipTravelRatioError, 0.05f);
    EXPECT_NEAR(quality.maxBoneAngleDeg, report["maxBoneAngleDeg"].get<double>(), 0.5) << "the file is the clip";

    // Every foot planted in the source plants on the character (walk1's left stance is split
    // by its loop into two frames at the end and one at the start, too short for the judge).
    const std::string sourceFile = (dir.path / "source.glb").string();
    ASSERT_EQ(runCli("export " + quoted(data(c.source)) + " --out " + quoted(sourceFile)).exitCode, 0);
    const auto judgedSource = judge(sourceFile, c.clip, c.fps);
    const auto judged = judge(out, c.clip, c.fps);
    if (!judged || !judgedSource) GTEST_SKIP() << "no python3 with numpy or no ../shared/tools/gltf_motion_report.py";
    for (const char* side : {"left", "right"}) {
      if ((*judgedSource)["feet"][side]["planted_spans"].get<int>() == 0) continue;
      const nlohmann::json& foot = (*judged)["feet"][side];
      ASSERT_GE(foot["planted_spans"].get<int>(), 1) << side << ": " << judged->dump();
      EXPECT_LE(foot["mean_slide_mm"].get<double>(), 1.0) << side << ": " << foot.dump();
    }
  }
}

// Issue 35, item 5: planted feet stand on the character's floor, judged on the written file
// by the spec and the mesh (tests/tools/feet_on_floor.py): at each of the capture's contacts
// the sole (the foot's lowest vertex) within 1 mm of the floor the character's rest stands on
// (mm at 1.75 m; the issue asks 10), and no foot vertex more than 0.1 mm below it. Before:
// CMU 02_01's contacts stood 195-240 mm above the robot's floor (its hips placed by the legs'
// ratio, which leaves out its wide hips, its ankles at floor level and big shoes) and 40-100
// mm under CesiumMan's; then the cleanup's held toe and eased lock took the mannequin's toe
// 8.1 mm under its floor at frame 85 (the cleanup now keeps every target above the floor
// read from the mesh): 0.01 mm.
TEST(CliRetarget, PlantedFeetStandOnTheCharactersFloor) {
  struct FloorCase {
    std::string source, clip, character, feet, head;
  };
  const std::string cmuRun = "bvh/cmu-mb-2010/09_11.bvh";
  const std::string cesiumMan = "gltf/CesiumMan/CesiumMan.glb";
  const std::vector<FloorCase> cases{
      {kCmuWalk, "02_01", kRobot, "Foot.L,Foot.R", "Head"},
      {cmuRun, "09_11", kRobot, "Foot.L,Foot.R", "Head"},
      {kCmuWalk, "02_01", cesiumMan, "leg_joint_L_3,leg_joint_R_3", "Skeleton_neck_joint_2"},
      {kCmuWalk, "02_01", kMannequin, "LeftFoot,RightFoot", "Head"}};
  for (const FloorCase& c : cases) {
    SCOPED_TRACE(c.clip + " onto " + c.character);
    const OutputDir dir("floor_" + std::filesystem::path(c.character).stem().string());
    const std::string out = (dir.path / (c.clip + ".glb")).string();
    const std::string sourceFile = (dir.path / "source.glb").string();
    ASSERT_EQ(runCli("retarget " + quoted(data(c.source)) + " --onto " + quoted(data(c.character)) +
                     " --contacts detect --out " + quoted(out))
                  .exitCode,
              0);
    ASSERT_EQ(runCli("export " + quoted(data(c.source)) + " --out " + quoted(sourceFile)).exitCode, 0);
    const auto floor = articula::testing_tools::feetOnFloor(
        out, "--clip " + c.clip + " --source " + quoted(sourceFile) + " --feet " + c.feet + " --head " + c.head);
    if (!floor) GTEST_SKIP() << "no python3 with numpy";
    ASSERT_TRUE(floor->is_object()) << "feet_on_floor.py printed no report";
    int contacts = 0;
    for (const char* side : {"left", "right"}) {
      for (const auto& contact : (*floor)["contacts"][side]) {
        ++contacts;
        EXPECT_LE(std::abs(contact[4].get<double>()), 1.0) << side << " contact " << contact.dump();
      }
    }
    EXPECT_GE(contacts, 3) << floor->dump();
    EXPECT_GE((*floor)["lowestMm"].get<double>(), -0.1) << "at frame " << (*floor)["lowestFrame"];
  }
}

// A 120 fps capture resampled for a character whose clips are 24 fps: the clip keeps its
// length (to within half a frame of the new rate) and its figures.
TEST(CliRetarget, FpsResamplesTheCaptureToTheCharactersRate) {
  for (const double fps : {24.0, 30.0}) {
    SCOPED_TRACE(fps);
    const OutputDir dir("fps_" + std::to_string(static_cast<int>(fps)));
    const std::string out = (dir.path / "cmu_on_robot.glb").string();
    const CliRun run = runCli("retarget " + quoted(data(kCmuWalk)) + " --onto " + quoted(data(kRobot)) + " --fps " +
                              std::to_string(fps) + " --json --out " + quoted(out));
    ASSERT_EQ(run.exitCode, 0) << run.stderrText;
    const nlohmann::json report = nlohmann::json::parse(run.stdoutText)["clips"][0];
    EXPECT_DOUBLE_EQ(report["frameRate"].get<double>(), fps);
    EXPECT_LE(report["maxBoneAngleDeg"].get<double>(), 10.0) << report.dump();
    EXPECT_LE(report["hipTravelRatioError"].get<double>(), 0.05) << report.dump();
    auto source = articula::loadSceneOrProject(data(kCmuWalk));
    auto written = articula::loadSceneOrProject(out);
    ASSERT_TRUE(source && written);
    const articula::Clip* played = clipOf(*written, "02_01");
    ASSERT_NE(played, nullptr);
    EXPECT_NEAR(played->duration(), source->clips.front().duration(), 0.5 / fps);
    EXPECT_EQ(played->frameCount(), report["frames"].get<int>());
    EXPECT_NEAR(played->frameCount(), source->clips.front().duration() * fps + 1.0, 0.5);
  }
}

// --skip-first-frame leaves out the CMU take's calibration T-pose: one frame fewer, the keys
// its jump cost gone, the figures measured against the source's frames from its second on
// (as close as the whole take's); MakeHuman's walk, which starts walking, keeps every frame.
TEST(CliRetarget, SkipFirstFrameLeavesOutACapturesTPoseOnly) {
  const OutputDir dir("skip_first_frame");
  const std::string out = (dir.path / "on_robot.glb").string();
  const auto report = [&](const std::string& source, const std::string& flag) {
    const CliRun run = runCli("retarget " + quoted(data(source)) + " --onto " + quoted(data(kRobot)) + flag +
                              " --json --out " + quoted(out));
    EXPECT_EQ(run.exitCode, 0) << run.stderrText;
    return nlohmann::json::parse(run.stdoutText, nullptr, false)["clips"][0];
  };
  const nlohmann::json whole = report(kCmuWalk, "");
  const nlohmann::json skipped = report(kCmuWalk, " --skip-first-frame");
  EXPECT_FALSE(whole["skippedFirstFrame"].get<bool>());
  EXPECT_TRUE(skipped["skippedFirstFrame"].get<bool>());
  EXPECT_EQ(skipped["frames"].get<int>(), whole["frames"].get<int>() - 1);
  EXPECT_NEAR(skipped["duration"].get<double>(), whole["duration"].get<double>() - 1.0 / 120.0, 1e-9);
  EXPECT_LT(skipped["keys"].get<int>(), whole["keys"].get<int>());
  EXPECT_LE(skipped["maxBoneAngleDeg"].get<double>(), whole["maxBoneAngleDeg"].get<double>() + 0.1) << skipped.dump();
  EXPECT_LE(skipped["hipTravelRatioError"].get<double>(), whole["hipTravelRatioError"].get<double>() + 0.001)
      << skipped.dump();

  const nlohmann::json makeHuman = report(kMakeHumanWalk, " --skip-first-frame");
  EXPECT_FALSE(makeHuman["skippedFirstFrame"].get<bool>());
  auto source = articula::loadSceneOrProject(data(kMakeHumanWalk));
  ASSERT_TRUE(source);
  EXPECT_EQ(makeHuman["frames"].get<int>(), source->clips.front().frameCount());
}

}  // namespace
