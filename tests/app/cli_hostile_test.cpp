// articula-cli on crafted files (issue 38), written by tests/tools/hostile_gltf.h from
// CesiumMan: deep and wide trees bake and export (quadratic steps took minutes at these
// sizes), absurd time ranges and repeated animations are refused by name and limit before
// they fill memory, and every error is one printable line under 300 characters naming the
// input.
#include <gtest/gtest.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

#include "cli_run.h"
#include "tools/gltf_validator.h"
#include "tools/hostile_gltf.h"
#include "tools/written_gltf.h"

namespace {

namespace fs = std::filesystem;
using articula::testing_tools::CliRun;
using articula::testing_tools::Glb;
using articula::testing_tools::quoted;
using articula::testing_tools::runCli;
using articula::testing_tools::TreeShape;

constexpr std::size_t kMaxErrorLine = 300;

class CliHostile : public testing::Test {
 protected:
  void SetUp() override {
    mFolder = fs::temp_directory_path() / ("articula_cli_hostile_" + std::to_string(::getpid()));
    fs::remove_all(mFolder);
    fs::create_directories(mFolder / "crafted");
  }
  void TearDown() override {
    // The crafted inputs are invalid on purpose: only what the code under test wrote is validated.
    fs::remove_all(mFolder / "crafted");
    articula::testing_tools::keepWrittenGltf(mFolder);
    fs::remove_all(mFolder);
  }

  static Glb cesiumMan() {
    return articula::testing_tools::readGlb(articula::testing_tools::data("gltf/CesiumMan/CesiumMan.glb"));
  }
  std::string write(const Glb& glb, const std::string& name) {
    const std::string path = (mFolder / "crafted" / name).string();
    articula::testing_tools::writeGlb(glb, path);
    return path;
  }
  std::string out(const std::string& name) const { return (mFolder / name).string(); }
  // The Khronos validator overflows its own stack on a chain 100,000 deep: files of crafted
  // trees are not kept for validate_written_gltf.
  void forgetTrees() const {
    for (const auto& entry : fs::directory_iterator(mFolder)) fs::remove_all(entry.path());
    fs::create_directories(mFolder / "crafted");
  }

  // The refusal is one printable line under 300 characters that names `path` and holds `expected`.
  static void expectOneLineNaming(const CliRun& run, const std::string& path, const std::string& expected) {
    EXPECT_EQ(run.exitCode, 1) << run.stderrText;
    const std::string line = run.stderrText.substr(0, run.stderrText.find('\n'));
    EXPECT_EQ(line.size() + 1, run.stderrText.size()) << "one line: " << run.stderrText;
    EXPECT_LT(line.size(), kMaxErrorLine) << line;
    EXPECT_NE(line.find(path), std::string::npos) << line;
    EXPECT_NE((line + '\n').find(expected), std::string::npos) << line;
    for (const char c : line) EXPECT_TRUE(static_cast<unsigned char>(c) >= 0x20) << "printable: " << line;
  }

  fs::path mFolder;
};

// 50,000 deep: the quadratic walks to the root took about 40 s here, now a few.
TEST_F(CliHostile, AChainFiftyThousandDeepBakesAndExports) {
  Glb glb = cesiumMan();
  articula::testing_tools::addNodeTree(glb, 50000, TreeShape::Chain);
  const std::string in = write(glb, "deep.glb");
  const CliRun bake = runCli("bake " + quoted(in) + " --contacts detect --out " + quoted(out("deep_baked.glb")));
  EXPECT_EQ(bake.exitCode, 0) << bake.stderrText;
  const CliRun exported = runCli("export " + quoted(in) + " --out " + quoted(out("deep_exported.glb")));
  EXPECT_EQ(exported.exitCode, 0) << exported.stderrText;
  forgetTrees();
}

// 100,000 roots: the export scanned every node per root (8.9 s, now 1.2 s).
TEST_F(CliHostile, OneHundredThousandExtraRootsBakeAndExport) {
  Glb glb = cesiumMan();
  articula::testing_tools::addNodeTree(glb, 100000, TreeShape::Roots);
  const std::string in = write(glb, "roots.glb");
  const CliRun bake = runCli("bake " + quoted(in) + " --contacts detect --out " + quoted(out("roots_baked.glb")));
  EXPECT_EQ(bake.exitCode, 0) << bake.stderrText;
  const CliRun exported = runCli("export " + quoted(in) + " --out " + quoted(out("roots_exported.glb")));
  EXPECT_EQ(exported.exitCode, 0) << exported.stderrText;
  forgetTrees();
}

TEST_F(CliHostile, AClipEndingAtABillionSecondsIsRefusedByItsLimit) {
  Glb glb = cesiumMan();
  const int times = glb.json["animations"][0]["samplers"][0]["input"].get<int>();
  articula::testing_tools::setFloats(glb, times, glb.json["accessors"][times]["count"].get<int>() - 1, {1e9f});
  glb.json["animations"][0]["name"] = std::string(500, '\0') + "walk";
  const std::string in = write(glb, "billion.glb");
  expectOneLineNaming(runCli("bake " + quoted(in) + " --contacts detect --out " + quoted(out("billion_baked.glb"))), in,
                      "million joint-frames a bake takes");
  EXPECT_FALSE(fs::exists(out("billion_baked.glb")));
}

// Joints nothing moves hold no samples: CesiumMan's walk with its last key at 1,000 s (24,001
// frames at its 24 fps) beside 828 empty roots is 20.4 million joint-frames over every joint,
// which the bake refused; it holds 0.5 million of the 22 joints that move (a million empty
// roots and 49 frames: refused, now baked in 32 s). Every joint is still posed every frame,
// so that work has its own limit.
TEST_F(CliHostile, ABakeHoldsOnlyTheJointsThatMove) {
  Glb glb = cesiumMan();
  articula::testing_tools::addNodeTree(glb, 828, TreeShape::Roots);
  const int times = glb.json["animations"][0]["samplers"][0]["input"].get<int>();
  const int last = glb.json["accessors"][times]["count"].get<int>() - 1;
  articula::testing_tools::setFloats(glb, times, last, {1000.0f});
  glb.json["accessors"][times]["max"] = {1000.0f};
  const std::string in = write(glb, "long.glb");
  const CliRun bake = runCli("bake " + quoted(in) + " --out " + quoted(out("long_baked.glb")));
  EXPECT_EQ(bake.exitCode, 0) << bake.stderrText;
  forgetTrees();

  articula::testing_tools::addNodeTree(glb, 8000, TreeShape::Roots);
  const std::string wide = write(glb, "long_wide.glb");
  expectOneLineNaming(runCli("bake " + quoted(wide) + " --out " + quoted(out("long_wide_baked.glb"))), wide,
                      "million joint poses a bake computes");
  EXPECT_FALSE(fs::exists(out("long_wide_baked.glb")));
  forgetTrees();
}

// 2,004 times over, CesiumMan's walk peaked at 3.9 GB before bad_alloc; under a 1 GiB address
// space limit the import refuses it by name while it is still small.
TEST_F(CliHostile, AnimationsRepeatedThousandsOfTimesAreRefusedByTheirLimit) {
  Glb glb = cesiumMan();
  articula::testing_tools::repeatAnimations(glb, 2004);
  const std::string in = write(glb, "repeated.glb");
  rlimit before{};
  ASSERT_EQ(::getrlimit(RLIMIT_AS, &before), 0);
  rlimit limited = before;
#if !defined(__SANITIZE_ADDRESS__)
  // AddressSanitizer reserves terabytes of shadow at start: there the refusal is checked
  // without the cap.
  limited.rlim_cur = std::min<rlim_t>(before.rlim_max, rlim_t{1} << 30);
#endif
  ASSERT_EQ(::setrlimit(RLIMIT_AS, &limited), 0);
  const CliRun run = runCli("export " + quoted(in) + " --out " + quoted(out("repeated_out.glb")));
  ::setrlimit(RLIMIT_AS, &before);
  expectOneLineNaming(run, in, "8 times what the buffers store");
}

TEST_F(CliHostile, RepeatedTenTimesTheAnimationsAreStillRead) {
  Glb glb = cesiumMan();
  articula::testing_tools::repeatAnimations(glb, 10);
  const std::string in = write(glb, "repeated10.glb");
  const CliRun run = runCli("export " + quoted(in) + " --out " + quoted(out("repeated10_out.glb")));
  EXPECT_EQ(run.exitCode, 0) << run.stderrText;
}

TEST_F(CliHostile, TheHumanoidRefusalFitsOneLineWhole) {
  const std::string in = articula::testing_tools::data("gltf/RiggedSimple/RiggedSimple.glb");
  const CliRun run = runCli("bake " + quoted(in) + " --contacts detect --out " + quoted(out("simple.glb")));
  // Legs and arms said to the end, not cut with "...".
  expectOneLineNaming(run, in, "--rig auto: no legs: no foot or ankle under a knee and thigh");
  EXPECT_NE(run.stderrText.find("; no arms: no hand or wrist under an elbow and shoulder, nor 3 arm joints in a chain; "
                                "by its shape: fewer than two pairs of matching limbs\n"),
            std::string::npos)
      << run.stderrText;
  EXPECT_LT(run.stderrText.size(), kMaxErrorLine) << run.stderrText;
}

TEST_F(CliHostile, BrokenJsonIsOneLineInOurWords) {
  Glb glb = cesiumMan();
  const std::string in = write(glb, "broken.glb");
  // A GLB whose JSON does not start as JSON: the parser's report, said in our words.
  std::string bytes;
  {
    std::ifstream file(in, std::ios::binary);
    bytes.assign(std::istreambuf_iterator<char>(file), {});
  }
  bytes[20] = 'x';  // the JSON's opening brace
  std::ofstream(in, std::ios::binary | std::ios::trunc) << bytes;
  const CliRun run = runCli("info " + quoted(in));
  expectOneLineNaming(run, in, "not valid JSON");
  EXPECT_EQ(run.stderrText.find("json.exception"), std::string::npos) << run.stderrText;
}

}  // namespace
