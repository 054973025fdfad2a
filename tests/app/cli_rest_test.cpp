// articula-cli on a capture whose rest lies along +X (LaFAN1's and Bandai-Namco's convention),
// written as a real BVH file, and articula-cli rest; run as a pipeline runs them.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <regex>
#include <string>

#include "cli_run.h"
#include "cli_scene.h"
#include "core/retarget/convention_variants.h"  // tests/core/retarget
#include "core/retarget/rest_pose.h"
#include "core/rig/humanoid_map.h"
#include "core/skeleton/local_to_model.h"

namespace {

using articula::testing_tools::CliRun;
using articula::testing_tools::data;
using articula::testing_tools::importedScene;
using articula::testing_tools::quoted;
using articula::testing_tools::runCli;

const std::string kCmuWalk = "bvh/cmu-mb-2010/02_01.bvh";

std::filesystem::path outputPath(const std::string& name) { return articula::testing_tools::tempOutput("articula_rest_", name); }

// CMU 02_01 with its rest laid along +X, every rotation zero, as a BVH file.
std::filesystem::path lyingCmuWalk() {
  const auto path = outputPath("lying_02_01.bvh");
  std::ofstream(path, std::ios::binary) << articula::test::bvhText(articula::test::restAlongX(importedScene(data(kCmuWalk))).scene);
  return path;
}

// Per stride curve, the number of planted spans `contacts` printed.
std::map<std::string, int> contactCounts(const std::string& stdoutText) {
  std::map<std::string, int> counts;
  const std::regex line(R"((contact\.\w+): (\d+) contacts)");
  for (auto it = std::sregex_iterator(stdoutText.begin(), stdoutText.end(), line); it != std::sregex_iterator(); ++it)
    counts[(*it)[1]] = std::stoi((*it)[2]);
  return counts;
}

// Head above the lower ankle along +Y at frame 0 of a written file, over the figure's height.
float headAboveFeet(const std::string& glb) {
  const articula::Scene scene = importedScene(glb);
  auto map = articula::mapHumanoid(scene.skeleton);
  EXPECT_TRUE(map);
  const auto model = articula::localToModel(scene.skeleton, articula::poseAtFrame(scene.skeleton, scene.clips.front(), 0));
  auto y = [&](int j) { return model[static_cast<std::size_t>(j)].translation().y(); };
  return (y(map->head) - std::min(y(map->leftLeg.ankle), y(map->rightLeg.ankle))) / scene.characterHeight();
}

void expectOneLineNaming(const CliRun& run, const std::string& file, const std::string& what) {
  EXPECT_EQ(run.exitCode, 1);
  EXPECT_NE(run.stderrText.find(file + ": "), std::string::npos) << run.stderrText;
  EXPECT_NE(run.stderrText.find(what), std::string::npos) << run.stderrText;
  EXPECT_EQ(run.stderrText.find('\n'), run.stderrText.size() - 1) << run.stderrText;
}

TEST(CliLyingRest, InfoSaysTheRestDoesNotStandAndTheMotionGivesTheUp) {
  const auto bvh = lyingCmuWalk();
  const CliRun run = runCli("info --json " + quoted(bvh.string()));
  ASSERT_EQ(run.exitCode, 0) << run.stderrText;
  const auto convention = nlohmann::json::parse(run.stdoutText)["convention"];
  EXPECT_EQ(convention["restPose"], "not standing") << convention.dump();
  EXPECT_EQ(convention["up"], nlohmann::json({0.0, 1.0, 0.0})) << convention.dump();
  EXPECT_NE(convention["upDecidedBy"].get<std::string>().find("motion"), std::string::npos);
  const CliRun original = runCli("map --json " + quoted(data(kCmuWalk)));
  ASSERT_EQ(original.exitCode, 0) << original.stderrText;
  const auto standing = nlohmann::json::parse(original.stdoutText)["convention"];
  EXPECT_EQ(standing["restPose"], "standing T") << standing.dump();
  EXPECT_EQ(standing["units"], convention["units"]);
}

TEST(CliLyingRest, ExportStandsAndContactsFindTheOriginalsSteps) {
  const auto bvh = lyingCmuWalk();
  const auto glb = outputPath("lying.glb");
  const CliRun exported = runCli("export " + quoted(bvh.string()) + " --out " + quoted(glb.string()));
  ASSERT_EQ(exported.exitCode, 0) << exported.stderrText;
  EXPECT_GT(headAboveFeet(glb.string()), 0.8f);

  const CliRun lying = runCli("contacts " + quoted(bvh.string()) + " --out " + quoted(outputPath("c1.glb").string()));
  const CliRun original = runCli("contacts " + quoted(data(kCmuWalk)) + " --out " + quoted(outputPath("c2.glb").string()));
  ASSERT_EQ(lying.exitCode, 0) << lying.stderrText;
  ASSERT_EQ(original.exitCode, 0) << original.stderrText;
  EXPECT_EQ(contactCounts(lying.stdoutText), contactCounts(original.stdoutText)) << lying.stdoutText;
  EXPECT_EQ(contactCounts(lying.stdoutText).size(), 2u);
}

TEST(CliRest, AFrameAsTheRestStandsTheLyingCaptureUp) {
  const auto bvh = lyingCmuWalk();
  const auto glb = outputPath("rested.glb");
  const CliRun run = runCli("rest " + quoted(bvh.string()) + " --frame 10 --out " + quoted(glb.string()));
  ASSERT_EQ(run.exitCode, 0) << run.stderrText;
  const CliRun info = runCli("info --json " + quoted(glb.string()));
  ASSERT_EQ(info.exitCode, 0) << info.stderrText;
  const auto convention = nlohmann::json::parse(info.stdoutText)["convention"];
  EXPECT_NE(convention["restPose"], "not standing") << convention.dump();
  const CliRun tpose = runCli("rest " + quoted(bvh.string()) + " --tpose --out " + quoted(glb.string()));
  ASSERT_EQ(tpose.exitCode, 0) << tpose.stderrText;
  const auto tInfo = nlohmann::json::parse(runCli("info --json " + quoted(glb.string())).stdoutText)["convention"];
  EXPECT_EQ(tInfo["restPose"], "standing T") << tInfo.dump();
}

TEST(CliRest, OddInputIsOneLineNamingTheFileAndNothingWritten) {
  const auto out = outputPath("odd.glb");
  std::filesystem::remove(out);
  expectOneLineNaming(runCli("rest " + quoted(data(kCmuWalk)) + " --frame 100000 --out " + quoted(out.string())),
                      data(kCmuWalk), "--frame 100000 is outside clip");
  const std::string kenney = data("gltf/KenneyPlatformerCharacter/character.glb");
  expectOneLineNaming(runCli("rest " + quoted(kenney) + " --tpose --out " + quoted(out.string())), kenney,
                      "--tpose needs a humanoid");
  // The lying walk tumbling head over heels: never standing, its rest along +X.
  articula::Scene tumbling = articula::test::restAlongX(importedScene(data(kCmuWalk))).scene;
  articula::Clip& clip = tumbling.clips.front();
  articula::JointTrack& hips = clip.trackFor(0);
  std::vector<articula::RotationKey> keys = hips.rotation.keys();
  for (articula::RotationKey& k : keys) {
    const float turns = static_cast<float>((k.time - clip.startTime) / clip.duration());
    k.value = articula::Quat(Eigen::AngleAxisf(4.0f * 3.14159265f * turns, articula::Vec3::UnitZ())) * k.value;
  }
  hips.rotation.setKeys(keys);
  const auto bvh = outputPath("tumble.bvh");
  std::ofstream(bvh, std::ios::binary) << articula::test::bvhText(tumbling);
  expectOneLineNaming(runCli("rest " + quoted(bvh.string()) + " --tpose --out " + quoted(out.string())), bvh.string(),
                      "never stands");
  expectOneLineNaming(runCli("contacts " + quoted(bvh.string()) + " --out " + quoted(out.string())), bvh.string(),
                      "never stands");
  EXPECT_FALSE(std::filesystem::exists(out));
}

}  // namespace
