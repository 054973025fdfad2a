// articula-cli --up, --facing and --units: the user's override of a capture's convention on
// info, export, contacts (and bake, retarget, map, which read it the same way), run as a
// pipeline runs them.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <string>

#include "cli_run.h"
#include "cli_scene.h"
#include "core/bake/key_reduction.h"
#include "core/retarget/convention_variants.h"  // tests/core/retarget
#include "core/retarget/rest_pose.h"
#include "core/skeleton/local_to_model.h"

namespace {

using articula::testing_tools::CliRun;
using articula::testing_tools::data;
using articula::testing_tools::importedScene;
using articula::testing_tools::quoted;
using articula::testing_tools::runCli;

const std::string kCmuWalk = "bvh/cmu-mb-2010/02_01.bvh";

std::filesystem::path outputPath(const std::string& name) { return articula::testing_tools::tempOutput("articula_convention_", name); }

std::filesystem::path written(const std::string& name, const articula::Scene& scene) {
  const auto path = outputPath(name);
  std::ofstream(path, std::ios::binary) << articula::test::bvhText(scene);
  return path;
}

// The largest distance (mm at 1.75 m) between the joints of two written files' first clips.
float motionDistanceMm(const std::string& a, const std::string& b) {
  const articula::Scene sceneA = importedScene(a), sceneB = importedScene(b);
  const articula::Clip& clipA = sceneA.clips.front();
  float worst = 0.0f;
  for (int f = 0; f < clipA.frameCount(); ++f) {
    const auto modelA = articula::localToModel(sceneA.skeleton, articula::poseAtFrame(sceneA.skeleton, clipA, f));
    const auto modelB =
        articula::localToModel(sceneB.skeleton, articula::poseAtFrame(sceneB.skeleton, sceneB.clips.front(), f));
    for (int j = 0; j < sceneA.skeleton.jointCount(); ++j) {
      const int other = sceneB.skeleton.findJoint(sceneA.skeleton.name(j));
      if (other < 0) return 1e9f;
      worst = std::max(worst, (modelA[static_cast<std::size_t>(j)].translation() -
                               modelB[static_cast<std::size_t>(other)].translation())
                                  .norm());
    }
  }
  return worst * articula::kReferenceHeightMm / articula::standingHeightOf(sceneA);
}

void expectOneLineNaming(const CliRun& run, const std::string& file, const std::string& what) {
  EXPECT_EQ(run.exitCode, 1);
  EXPECT_NE(run.stderrText.find(file + ": "), std::string::npos) << run.stderrText;
  EXPECT_NE(run.stderrText.find(what), std::string::npos) << run.stderrText;
  EXPECT_EQ(run.stderrText.find('\n'), run.stderrText.size() - 1) << run.stderrText;
}

// CMU 02_01 somersaulting twice stands in under a fifth of its frames: its standing rest says
// where up is. Laid along +X, nothing does; --up says it, and the export and contacts are the
// original's.
TEST(CliConvention, TheUsersUpGivesTheOriginalsExportWhereTheAnalysisCannotTell) {
  const articula::Scene somersault = articula::test::somersaulting(importedScene(data(kCmuWalk)), 2.0f);
  const auto original = written("somersault.bvh", somersault);
  const auto lying = written("somersault_lying.bvh", articula::test::restAlongX(somersault).scene);
  const auto out = outputPath("c.glb");
  expectOneLineNaming(runCli("contacts " + quoted(lying.string()) + " --out " + quoted(out.string())), lying.string(),
                      "set the up");
  const CliRun contacts = runCli("contacts " + quoted(lying.string()) + " --up +Y --out " + quoted(out.string()));
  ASSERT_EQ(contacts.exitCode, 0) << contacts.stderrText;
  const CliRun contactsOriginal = runCli("contacts " + quoted(original.string()) + " --out " + quoted(out.string()));
  ASSERT_EQ(contactsOriginal.exitCode, 0) << contactsOriginal.stderrText;
  EXPECT_EQ(contacts.stdoutText, contactsOriginal.stdoutText);
  const auto glbOriginal = outputPath("original.glb");
  const auto glbLying = outputPath("lying.glb");
  ASSERT_EQ(runCli("export " + quoted(original.string()) + " --out " + quoted(glbOriginal.string())).exitCode, 0);
  const CliRun exported = runCli("export " + quoted(lying.string()) + " --up +Y --out " + quoted(glbLying.string()));
  ASSERT_EQ(exported.exitCode, 0) << exported.stderrText;
  EXPECT_LE(motionDistanceMm(glbOriginal.string(), glbLying.string()), 1.0f);
}

TEST(CliConvention, InfoReportsWhatTheUserSetAndAProjectKeepsIt) {
  const CliRun info = runCli("info --json " + quoted(data(kCmuWalk)) + " --up +Z --facing +X --units cm");
  ASSERT_EQ(info.exitCode, 0) << info.stderrText;
  const auto convention = nlohmann::json::parse(info.stdoutText)["convention"];
  EXPECT_EQ(convention["up"], nlohmann::json({0.0, 0.0, 1.0})) << convention.dump();
  EXPECT_EQ(convention["upDecidedBy"], "set by the user");
  EXPECT_EQ(convention["forward"], nlohmann::json({1.0, 0.0, 0.0})) << convention.dump();
  EXPECT_EQ(convention["units"], "centimetres");
  const auto project = outputPath("walk.articula");
  const CliRun saved = runCli("export " + quoted(data(kCmuWalk)) + " --units in --out " + quoted(project.string()));
  ASSERT_EQ(saved.exitCode, 0) << saved.stderrText;
  const auto reopened = nlohmann::json::parse(runCli("map --json " + quoted(project.string())).stdoutText)["convention"];
  EXPECT_EQ(reopened["units"], "inches") << reopened.dump();
  EXPECT_EQ(reopened["upDecidedBy"], nlohmann::json::parse(runCli("map --json " + quoted(data(kCmuWalk))).stdoutText)
                                         ["convention"]["upDecidedBy"]);
  // "auto" gives the analysis back its say over the project's choice.
  const auto automatic =
      nlohmann::json::parse(runCli("info --json " + quoted(project.string()) + " --units auto").stdoutText)["convention"];
  EXPECT_NE(automatic["units"], "inches") << automatic.dump();
}

TEST(CliConvention, ABadValueOrAFacingAlongTheUpIsOneLineNamingTheFile) {
  const std::string walk = data(kCmuWalk);
  const auto out = outputPath("bad.glb");
  std::filesystem::remove(out);
  expectOneLineNaming(runCli("export " + quoted(walk) + " --up W --out " + quoted(out.string())), walk,
                      "--up 'W': expected +X, -X, +Y, -Y, +Z, -Z or auto");
  expectOneLineNaming(runCli("bake " + quoted(walk) + " --units furlongs --out " + quoted(out.string())), walk,
                      "--units 'furlongs': expected m, dm, cm, mm, in or auto");
  expectOneLineNaming(runCli("contacts " + quoted(walk) + " --up +Y --facing -Y --out " + quoted(out.string())), walk,
                      "the facing -Y is parallel to the up +Y");
  // The facing along the up the analysis finds (the rest's +Y).
  expectOneLineNaming(runCli("contacts " + quoted(walk) + " --facing +Y --out " + quoted(out.string())), walk,
                      "not perpendicular to the up +Y");
  EXPECT_FALSE(std::filesystem::exists(out));
}

}  // namespace
