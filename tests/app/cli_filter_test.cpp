// articula-cli bake|export --filter, run as a pipeline runs them: the figures measured on the
// files they write.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <string>

#include "cli_run.h"
#include "core/bake/key_reduction.h"
#include "core/io/import.h"

namespace {

using articula::testing_tools::data;
using articula::testing_tools::quoted;
using articula::testing_tools::runCli;
using articula::testing_tools::TempDir;

nlohmann::json runJson(const std::string& args) {
  const auto run = runCli(args + " --json");
  EXPECT_EQ(run.exitCode, 0) << args << ": " << run.stderrText;
  return nlohmann::json::parse(run.stdoutText, nullptr, false);
}

// Keys of the written file's first clip, as glTF stores them (read back from the file).
std::size_t keysInFile(const std::string& path) {
  auto scene = articula::importScene(path);
  EXPECT_TRUE(scene.ok()) << path;
  return scene.ok() && !scene->clips.empty() ? articula::channelKeyCount(scene->clips.front()) : 0;
}

struct BakeFigures {
  std::size_t keys = 0;
  std::size_t perFrame = 0;
  std::size_t bytes = 0;
};

BakeFigures bake(const TempDir& dir, const std::string& file, const std::string& options) {
  const std::string out = dir / "baked.glb";
  const auto report = runJson("bake " + quoted(data(file)) + " --out " + quoted(out) + " " + options);
  EXPECT_TRUE(report.is_object());
  if (!report.is_object()) return {};
  EXPECT_LE(report["maxErrorMm"].get<double>(), 1.0);
  const BakeFigures figures{keysInFile(out), report["keysPerFrame"].get<std::size_t>(),
                            std::size_t(std::filesystem::file_size(out))};
  EXPECT_EQ(figures.keys, report["keysWritten"].get<std::size_t>());
  return figures;
}

// The bake after a 6 Hz Butterworth, against the bake of the raw capture, at 1 mm.
BakeFigures filteredBake(const std::string& file, const std::string& interpolation) {
  TempDir dir("articula_cli_filter");
  const std::string options = "--interpolation " + interpolation;
  const BakeFigures raw = bake(dir, file, options);
  const BakeFigures filtered = bake(dir, file, options + " --filter butterworth:6");
  std::printf("%s %s bake at 1 mm: keys %zu -> %zu (per-frame %zu: %.1fx -> %.1fx fewer), bytes %zu -> %zu\n",
              file.c_str(), interpolation.c_str(), raw.keys, filtered.keys, raw.perFrame,
              double(raw.perFrame) / double(raw.keys), double(filtered.perFrame) / double(filtered.keys), raw.bytes,
              filtered.bytes);
  EXPECT_LT(filtered.keys, raw.keys);
  return filtered;
}

TEST(CliFilter, ButterworthBeforeABakeOfTheCmuWalkLeavesAnEighthOfThePerFrameKeys) {
  const BakeFigures cubic = filteredBake("bvh/cmu-mb-2010/02_01.bvh", "cubic");
  EXPECT_GE(cubic.perFrame, 8 * cubic.keys);
  const BakeFigures linear = filteredBake("bvh/cmu-mb-2010/02_01.bvh", "linear");
  EXPECT_GE(linear.perFrame * 10, 25 * linear.keys);  // lines need a key every few frames: 2.5x at least
}

TEST(CliFilter, ButterworthBeforeABakeOfACmuRun) {
  const BakeFigures cubic = filteredBake("bvh/cmu-mb-2010/09_11.bvh", "cubic");
  EXPECT_GE(cubic.perFrame, 8 * cubic.keys);
}

TEST(CliFilter, JsonSaysWhatWasFilteredInOrder) {
  TempDir dir("articula_cli_filter_json");
  const auto report = runJson("export " + quoted(data("bvh/makehuman/walk1.bvh")) + " --out " +
                              quoted(dir / "walk.glb") + " --filter peaks --filter butterworth:6:3 --filter reduce");
  ASSERT_TRUE(report.is_object());
  ASSERT_EQ(report["filters"].size(), 3u);
  EXPECT_EQ(report["filters"][0]["filter"], "peaks:10");
  EXPECT_EQ(report["filters"][1]["filter"], "butterworth:6:3");
  EXPECT_EQ(report["filters"][2]["filter"], "reduce");
  EXPECT_EQ(report["filters"][1]["lastFrame"], 13);
  EXPECT_LT(report["filters"][2]["keysAfter"].get<int>(), report["filters"][2]["keysBefore"].get<int>());
  EXPECT_EQ(report["keys"].get<std::size_t>(), keysInFile(dir / "walk.glb"));
}

// Odd input: one line on stderr naming the file and the problem, exit 1, nothing written.
TEST(CliFilter, OddFiltersAreRefusedInOneLineAndWriteNothing) {
  TempDir dir("articula_cli_filter_odd");
  const std::string out = dir / "out.glb";
  const std::string walk = quoted(data("bvh/cmu-mb-2010/02_01.bvh"));
  const std::string keyed = quoted(data("bvh/makehuman/walk1.bvh"));  // 14 frames at 24 fps
  for (const auto& [args, words] : std::vector<std::pair<std::string, std::string>>{
           {"bake " + walk + " --filter butterworth:60", "half the frame rate (60 Hz)"},
           {"export " + keyed + " --filter butterworth:6:8", "needs at least 28 frames, the range has 14"},
           {"export " + quoted(data("gltf/AnimatedMorphCube/AnimatedMorphCube.glb")) + " --filter peaks",
            "clip 'Square': no joints to filter"},
           {"export " + keyed + " --filter butterworth:6:4", "needs at least 16 frames, the range has 14"},
           {"bake " + walk + " --filter blur", "expected butterworth:CUTOFF_HZ"},
           {"export " + walk + " --filter resample:0", "rate 0"}}) {
    const auto run = runCli(args + " --out " + quoted(out));
    EXPECT_EQ(run.exitCode, 1) << args;
    EXPECT_NE(run.stderrText.find(words), std::string::npos) << args << ": " << run.stderrText;
    EXPECT_EQ(std::count(run.stderrText.begin(), run.stderrText.end(), '\n'), 1) << run.stderrText;
    EXPECT_FALSE(std::filesystem::exists(out)) << args;
  }
}

}  // namespace
