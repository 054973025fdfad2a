// Every file articula-cli writes plays alike in the clients people open glTF files in: the
// client judge (tests/tools/client_judge) samples each at 120 Hz in three.js, Babylon.js and
// Blender and in the glTF spec's own evaluator, and these tests hold every client within 1 mm
// (at 1.75 m) of the spec and its feet within the spec's slide + 0.2 mm on the spec's planted
// spans. The files: a plain export, an authored Bézier walk, a bake with contacts detected, a
// 24 fps game cycle, and a retarget onto a character with several clips.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include <unistd.h>

#include "cli_run.h"

namespace {

using articula::testing_tools::CliRun;
using articula::testing_tools::TempDir;
using articula::testing_tools::data;
using articula::testing_tools::quoted;
using articula::testing_tools::runCli;

constexpr double kClientToleranceMm = 1.0;  // any client against the spec, mm at 1.75 m
constexpr double kSlideAllowanceMm = 0.2;   // a client's foot slide beyond the spec's, per span
// A client as judge.py's --clients names it and as its report labels it.
struct Client {
  const char* option;
  const char* label;
};
const std::array<Client, 3> kClients = {{{"three", "three.js"}, {"babylon", "Babylon.js"}, {"blender", "Blender"}}};

// The judge's options beyond the file and the clip (--clients, --spec).
struct JudgeOptions {
  std::vector<Client> clients{kClients.begin(), kClients.end()};
  std::string specFile;  // the evaluator's twin of a compressed file, or empty
};

// Why the judge cannot run here, or empty when it can.
std::string judgeMissing() {
  namespace fs = std::filesystem;
  const std::string judgeDir = ARTICULA_CLIENT_JUDGE_DIR;
  if (!fs::exists(ARTICULA_NODE)) return "node (Node.js) not found: apt-get install -y nodejs npm, re-run cmake";
  if (!fs::exists(ARTICULA_BLENDER)) return "Blender not found: apt-get install -y blender python3-numpy, re-run cmake";
  if (!fs::exists(fs::path(judgeDir) / "node_modules"))
    return "three.js and Babylon.js are not installed in " + judgeDir + "/node_modules: run scripts/setup.sh";
  if (std::system("/usr/bin/python3 -c 'import numpy' >/dev/null 2>&1") != 0)
    return "/usr/bin/python3 has no numpy: apt-get install -y python3-numpy";
  return {};
}

// The judge's --json report on `clip` of `file`, or null with `output` saying why.
nlohmann::json runJudge(const std::string& file, const std::string& clip, const JudgeOptions& options,
                        std::string& output) {
  std::string command = "/usr/bin/python3 " + quoted(std::string(ARTICULA_CLIENT_JUDGE_DIR) + "/judge.py") + " " +
                        quoted(file) + " --clip " + quoted(clip) + " --json";
  std::string clients;
  for (const Client& client : options.clients) clients += (clients.empty() ? "" : ",") + std::string(client.option);
  command += " --clients " + clients;
  if (!options.specFile.empty()) command += " --spec " + quoted(options.specFile);
  command += " 2>&1";
  FILE* pipe = ::popen(command.c_str(), "r");
  if (pipe == nullptr) return nullptr;
  std::array<char, 4096> buffer{};
  for (std::size_t n = 0; (n = std::fread(buffer.data(), 1, buffer.size(), pipe)) > 0;) output.append(buffer.data(), n);
  ::pclose(pipe);
  const auto start = output.find("{\"file\"");
  if (start == std::string::npos) return nullptr;
  return nlohmann::json::parse(output.substr(start, output.find('\n', start) - start), nullptr, false);
}

// Every client within kClientToleranceMm of the spec on every judged joint and sample, and
// each foot's slide per planted span (mean and largest) within the spec's + kSlideAllowanceMm.
void expectEveryClientPlaysTheSpec(const std::string& file, const std::string& clip,
                                   const JudgeOptions& options = {}) {
  SCOPED_TRACE(file + ", clip " + clip);
  std::string output;
  const nlohmann::json report = runJudge(file, clip, options, output);
  ASSERT_TRUE(report.is_object()) << output;
  const nlohmann::json& specFeet = report["spec"]["feet"];
  for (const Client& judged : options.clients) {
    const char* name = judged.label;
    ASSERT_TRUE(report["clients"].contains(name)) << name << ": " << output;
    const nlohmann::json& client = report["clients"][name];
    ASSERT_TRUE(client.value("ok", false)) << name << ": " << client.dump();
    EXPECT_LE(client["max_mm"].get<double>(), kClientToleranceMm) << name << ": worst " << client["worst"].dump();
    for (const auto& [side, spec] : specFeet.items()) {
      if (spec["mean_mm"].is_null()) continue;  // no planted span on that foot
      const nlohmann::json& foot = client["feet"][side];
      for (const char* figure : {"mean_mm", "max_mm"}) {
        EXPECT_LE(foot[figure].get<double>(), spec[figure].get<double>() + kSlideAllowanceMm)
            << name << ", " << side << " foot " << figure << ": " << foot.dump() << " against the spec's "
            << spec.dump();
      }
    }
  }
}

// articula-cli `args` (which write `out`) with --json: its report, after checking that it
// wrote linear keys (the default), says how many bytes and keys, and, where the command
// reduced keys, held them within 1 mm as the spec and as Blender play them.
nlohmann::json runWriting(const std::string& args, const std::string& out) {
  const CliRun run = runCli(args + " --json");
  EXPECT_EQ(run.exitCode, 0) << args << ": " << run.stderrText;
  const nlohmann::json report = nlohmann::json::parse(run.stdoutText, nullptr, false);
  EXPECT_TRUE(report.is_object()) << run.stdoutText;
  if (!report.is_object()) return report;
  EXPECT_EQ(report["interpolation"], "linear") << args;
  EXPECT_EQ(report["bytes"].get<std::uintmax_t>(), std::filesystem::file_size(out)) << args;
  EXPECT_GT(report["keys"].get<std::size_t>(), 0u) << args;
  if (report.contains("maxErrorMm")) {
    EXPECT_LE(report["maxErrorMm"].get<double>(), 1.0) << args;
  }
  return report;
}

class CliClients : public ::testing::Test {
 protected:
  void SetUp() override {
    const std::string missing = judgeMissing();
    if (!missing.empty()) GTEST_SKIP() << "the client judge cannot run: " << missing;
  }
  TempDir mDir{"articula_cli_clients"};
};

// CMU 02_01 exported as it is: a LINEAR key per frame at 120 fps.
TEST_F(CliClients, PlainExportPlaysAlikeEverywhere) {
  const std::string out = mDir / "plain.glb";
  runWriting("export " + quoted(data("bvh/cmu-mb-2010/02_01.bvh")) + " --out " + quoted(out), out);
  expectEveryClientPlaysTheSpec(out, "02_01");
}

// The bundled mannequin's walk, authored with Bézier keys, exported as it is: written as lines
// (Blender played its cubic splines 29.9 mm off and slid the left foot 70 mm per span).
TEST_F(CliClients, AuthoredBezierWalkPlaysAlikeEverywhere) {
  const std::string out = mDir / "walk.glb";
  runWriting("export " + quoted(data("projects/mannequin_v2.articula")) + " --out " + quoted(out), out);
  expectEveryClientPlaysTheSpec(out, "walk");
}

// The foot-skate cleanup of CMU 02_01 (its first frame a rest pose before the take), reduced:
// where Blender used to play the cubic bake 668 mm off and slide the feet 28–135 mm.
TEST_F(CliClients, BakeWithContactsDetectedPlaysAlikeEverywhere) {
  const std::string out = mDir / "baked.glb";
  const nlohmann::json report =
      runWriting("bake " + quoted(data("bvh/cmu-mb-2010/02_01.bvh")) + " --contacts detect --out " + quoted(out), out);
  // Fewer keys and bytes than the per-frame file (a noisy capture keeps most of its frames
  // within 1 mm as lines: 7208 of 11008 keys).
  EXPECT_LT(report["keys"].get<std::size_t>(), report["keysPerFrame"].get<std::size_t>());
  expectEveryClientPlaysTheSpec(out, "02_01");
}

// Fewer bytes than the per-frame export at 1 mm: the bake's noisy channels (hips, spine, legs)
// keep a key on every frame and share one time accessor, the others keep their reduced keys
// (115,088 bytes before channels chose, 98,212 after; the per-frame export 180,064).
TEST_F(CliClients, BakeOfACaptureIsSmallerThanItsPerFrameExport) {
  const std::string plain = mDir / "plain.glb", baked = mDir / "baked.glb";
  const std::string capture = quoted(data("bvh/cmu-mb-2010/02_01.bvh"));
  const nlohmann::json perFrame = runWriting("export " + capture + " --out " + quoted(plain), plain);
  const nlohmann::json bake = runWriting("bake " + capture + " --contacts detect --out " + quoted(baked), baked);
  EXPECT_GE(perFrame["bytes"].get<double>() / bake["bytes"].get<double>(), 1.8);
}

// --compress meshopt: the same keys in fewer bytes (98,212 -> 69,840 on this bake), played by
// three.js and Babylon.js as the spec plays the uncompressed file (Blender 3.4 cannot read it).
TEST_F(CliClients, MeshoptBakePlaysAlikeInThreeAndBabylon) {
  const std::string core = mDir / "core.glb", compressed = mDir / "meshopt.glb";
  const std::string bake = "bake " + quoted(data("bvh/cmu-mb-2010/02_01.bvh")) + " --contacts detect --out ";
  const nlohmann::json plain = runWriting(bake + quoted(core), core);
  const nlohmann::json meshopt = runWriting(bake + quoted(compressed) + " --compress meshopt", compressed);
  EXPECT_EQ(plain["compression"], "none");
  EXPECT_EQ(meshopt["compression"], "meshopt");
  EXPECT_EQ(meshopt["keys"], plain["keys"]);
  EXPECT_LT(meshopt["bytes"].get<double>(), 0.75 * plain["bytes"].get<double>());
  JudgeOptions options;
  options.clients = {kClients[0], kClients[1]};
  options.specFile = core;
  expectEveryClientPlaysTheSpec(compressed, "02_01", options);
}

// A game cycle at 24 fps, where a slerp and Blender's per-component lerp part most between keys.
TEST_F(CliClients, BakedGameCycleAt24FpsPlaysAlikeEverywhere) {
  const std::string out = mDir / "robot.glb";
  runWriting("bake " + quoted(data("gltf/RobotExpressive/RobotExpressive.glb")) +
                 " --clip Walking --contacts detect --out " + quoted(out),
             out);
  expectEveryClientPlaysTheSpec(out, "Walking");
}

// A retarget writes the character with its own clips and the new one: the new clip and one of
// the character's play alike.
TEST_F(CliClients, RetargetIntoAFileOfSeveralClipsPlaysAlikeEverywhere) {
  const std::string out = mDir / "retargeted.glb";
  const nlohmann::json report = runWriting("retarget " + quoted(data("bvh/cmu-mb-2010/02_01.bvh")) + " --onto " +
                                               quoted(data("gltf/RobotExpressive/RobotExpressive.glb")) +
                                               " --skip-first-frame --out " + quoted(out),
                                           out);
  ASSERT_EQ(report["clips"].size(), 1u);
  EXPECT_LE(report["clips"][0]["maxErrorMm"].get<double>(), 1.0);
  expectEveryClientPlaysTheSpec(out, report["clips"][0]["clip"]);
  expectEveryClientPlaysTheSpec(out, "Running");
}

}  // namespace
