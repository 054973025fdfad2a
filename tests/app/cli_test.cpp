// Runs the real articula-cli binary the way a pipeline does and checks what it prints.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <array>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>

#include "core/io/project_file.h"
#include "tools/gltf_validator.h"

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

// ---- export and contacts ----

using articula::testing_tools::validatesWithoutErrors;

// A temporary folder of its own, removed with the object.
struct TempDir {
  std::filesystem::path path;
  explicit TempDir(const std::string& name)
      : path(std::filesystem::temp_directory_path() / (name + "_" + std::to_string(::getpid()))) {
    std::filesystem::remove_all(path);
    std::filesystem::create_directories(path);
  }
  ~TempDir() { std::filesystem::remove_all(path); }
  std::string operator/(const std::string& file) const { return (path / file).string(); }
};

// The JSON chunk of a .glb.
nlohmann::json glbJson(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  const std::string bytes(std::istreambuf_iterator<char>(in), {});
  if (bytes.size() < 20 || bytes.compare(0, 4, "glTF") != 0) return nullptr;
  std::uint32_t length = 0;
  std::memcpy(&length, bytes.data() + 12, 4);
  return nlohmann::json::parse(bytes.substr(20, length));
}

int lineCount(const std::string& text) { return static_cast<int>(std::count(text.begin(), text.end(), '\n')); }

TEST(CliExport, WritesAValidGlbThatInfoReadsBack) {
  const TempDir dir("articula_cli_export");
  const std::string in = data("gltf/CesiumMan/CesiumMan.glb");
  const std::string out = dir / "cesium.glb";
  const CliRun run = runCli("export " + quoted(in) + " --out " + quoted(out));
  ASSERT_EQ(run.exitCode, 0) << run.stderrText;
  EXPECT_TRUE(validatesWithoutErrors(out));
  // info reads the copy as it reads the source (whatever info reports, the same).
  const CliRun source = runCli("info --json " + quoted(in));
  const CliRun copy = runCli("info --json " + quoted(out));
  ASSERT_EQ(source.exitCode, 0) << source.stderrText;
  ASSERT_EQ(copy.exitCode, 0) << copy.stderrText;
  const auto a = nlohmann::json::parse(source.stdoutText);
  const auto b = nlohmann::json::parse(copy.stdoutText);
  EXPECT_EQ(b["joints"], a["joints"]);
  EXPECT_EQ(b["jointNames"], a["jointNames"]);
  ASSERT_EQ(b["clips"].size(), 1u);
  EXPECT_NEAR(b["clips"][0]["duration"].get<double>(), a["clips"][0]["duration"].get<double>(), 1e-6);
  EXPECT_EQ(b["clips"][0]["frameCount"], a["clips"][0]["frameCount"]);
  ASSERT_EQ(b["meshes"].size(), a["meshes"].size());
  EXPECT_EQ(b["meshes"][0]["vertices"], a["meshes"][0]["vertices"]);
}

TEST(CliExport, GltfOutputWritesItsBinBeside) {
  const TempDir dir("articula_cli_export_gltf");
  const CliRun run =
      runCli("export " + quoted(data("bvh/cmu-mb-2010/02_01.bvh")) + " --out " + quoted(dir / "walk.gltf"));
  ASSERT_EQ(run.exitCode, 0) << run.stderrText;
  EXPECT_TRUE(std::filesystem::exists(dir / "walk.bin"));
  EXPECT_TRUE(validatesWithoutErrors(dir / "walk.gltf"));
}

TEST(CliExport, BadInputOrOutputIsAOneLineError) {
  const TempDir dir("articula_cli_export_bad");
  const std::string walk = data("bvh/cmu-mb-2010/02_01.bvh");
  struct Case {
    std::string args;
    std::string named;
  };
  const std::vector<Case> cases = {
      {"export /nonexistent/walk.bvh --out " + quoted(dir / "a.glb"), "/nonexistent/walk.bvh"},
      {"export " + quoted(walk) + " --out " + quoted(dir / "walk.fbx"), "walk.fbx"},
      {"export " + quoted(walk) + " --out " + quoted(dir / "missing/walk.glb"), "missing/walk.glb"},
  };
  for (const Case& c : cases) {
    const CliRun run = runCli(c.args);
    EXPECT_FALSE(run.signaled) << c.args;
    EXPECT_NE(run.exitCode, 0) << c.args;
    EXPECT_NE(run.stderrText.find(c.named), std::string::npos) << c.args << ": " << run.stderrText;
    EXPECT_EQ(lineCount(run.stderrText), 1) << run.stderrText;
  }
  EXPECT_FALSE(std::filesystem::exists(dir / "walk.fbx"));
}

TEST(CliContacts, WalkGetsStrideCurvesInTheGlb) {
  const TempDir dir("articula_cli_contacts");
  const std::string out = dir / "walk.glb";
  const CliRun run = runCli("contacts " + quoted(data("bvh/cmu-mb-2010/02_01.bvh")) + " --out " + quoted(out) +
                            " --heights " + quoted(dir / "h.csv"));
  ASSERT_EQ(run.exitCode, 0) << run.stderrText;
  EXPECT_NE(run.stdoutText.find("contact.left_foot: "), std::string::npos) << run.stdoutText;
  EXPECT_NE(run.stdoutText.find("contact.right_foot: "), std::string::npos) << run.stdoutText;
  EXPECT_TRUE(validatesWithoutErrors(out));
  const nlohmann::json json = glbJson(out);
  ASSERT_TRUE(json.is_object());
  ASSERT_EQ(json["animations"].size(), 1u);
  const nlohmann::json& curves = json["animations"][0]["extras"]["articula"]["curves"];
  EXPECT_TRUE(curves.contains("contact.left_foot")) << curves.dump();
  EXPECT_TRUE(curves.contains("contact.right_foot")) << curves.dump();
  std::ifstream csv(dir / "h.csv");
  const std::string heights(std::istreambuf_iterator<char>(csv), {});
  // A header and one row per sampled frame: the 344 motion frames and the clip's end, one
  // frame after the last (Clip::frameCount counts start to end inclusive).
  EXPECT_EQ(lineCount(heights), 1 + 345);
}

TEST(CliContacts, UnknownClipIsNamed) {
  const TempDir dir("articula_cli_contacts_clip");
  const CliRun run = runCli("contacts " + quoted(data("bvh/cmu-mb-2010/02_01.bvh")) + " --clip nope --out " +
                            quoted(dir / "walk.glb"));
  EXPECT_FALSE(run.signaled);
  EXPECT_EQ(run.exitCode, 1);
  EXPECT_NE(run.stderrText.find("'nope'"), std::string::npos) << run.stderrText;
  EXPECT_NE(run.stderrText.find("02_01"), std::string::npos) << run.stderrText;
  EXPECT_EQ(lineCount(run.stderrText), 1) << run.stderrText;
  EXPECT_FALSE(std::filesystem::exists(dir / "walk.glb"));
}

TEST(CliContacts, CharacterWithoutLegsIsAOneLineError) {
  const TempDir dir("articula_cli_contacts_legs");
  const CliRun run =
      runCli("contacts " + quoted(data("gltf/RiggedSimple/RiggedSimple.glb")) + " --out " + quoted(dir / "out.glb"));
  EXPECT_FALSE(run.signaled);
  EXPECT_EQ(run.exitCode, 1);
  EXPECT_NE(run.stderrText.find("RiggedSimple.glb"), std::string::npos) << run.stderrText;
  EXPECT_EQ(lineCount(run.stderrText), 1) << run.stderrText;
}

// ---- projects: read wherever an asset is, written by export ----

nlohmann::json infoJson(const std::string& path) {
  const CliRun run = runCli("info --json " + quoted(path));
  EXPECT_EQ(run.exitCode, 0) << path << ": " << run.stderrText;
  return run.exitCode == 0 ? nlohmann::json::parse(run.stdoutText) : nlohmann::json();
}

TEST(CliProject, InfoReadsAProjectAsItsAssetWithTheProjectsClips) {
  const nlohmann::json project = infoJson(data("projects/rigged_simple_v1.articula"));
  const nlohmann::json asset = infoJson(data("gltf/RiggedSimple/RiggedSimple.glb"));
  ASSERT_TRUE(project.is_object());
  EXPECT_EQ(project["joints"], asset["joints"]);
  EXPECT_EQ(project["jointNames"], asset["jointNames"]);
  ASSERT_EQ(project["clips"].size(), 1u);
  EXPECT_EQ(project["clips"][0]["name"], "animation_0");
}

TEST(CliProject, ExportConvertsAnAssetToAProjectAndBack) {
  const TempDir dir("articula_cli_project_roundtrip");
  const std::string in = data("bvh/cmu-mb-2010/02_01.bvh");
  const std::string project = dir / "walk.articula";
  const CliRun toProject = runCli("export " + quoted(in) + " --out " + quoted(project));
  ASSERT_EQ(toProject.exitCode, 0) << toProject.stderrText;
  EXPECT_NE(toProject.stdoutText.find("1 clips"), std::string::npos) << toProject.stdoutText;
  // The project names the asset relative to its own folder, with the asset's hash.
  std::ifstream file(project);
  const nlohmann::json json = nlohmann::json::parse(file);
  EXPECT_EQ(json["format_version"], articula::kProjectFormatVersion);
  const std::string assetPath = json["asset"]["path"].get<std::string>();
  EXPECT_EQ(std::filesystem::weakly_canonical(dir.path / assetPath), std::filesystem::weakly_canonical(in));
  EXPECT_EQ(json["asset"]["content_hash"].get<std::string>().rfind("fnv1a64:", 0), 0u);

  const nlohmann::json fromAsset = infoJson(in);
  const nlohmann::json fromProject = infoJson(project);
  EXPECT_EQ(fromProject["jointNames"], fromAsset["jointNames"]);
  ASSERT_EQ(fromProject["clips"].size(), 1u);
  EXPECT_NEAR(fromProject["clips"][0]["duration"].get<double>(), fromAsset["clips"][0]["duration"].get<double>(), 1e-9);

  const std::string glb = dir / "walk.glb";
  const CliRun toGlb = runCli("export " + quoted(project) + " --out " + quoted(glb));
  ASSERT_EQ(toGlb.exitCode, 0) << toGlb.stderrText;
  EXPECT_TRUE(validatesWithoutErrors(glb));
  // A BVH has no skin, so glTF keeps its joints as plain nodes: compare the animation.
  const nlohmann::json fromGlb = infoJson(glb);
  ASSERT_EQ(fromGlb["clips"].size(), 1u);
  EXPECT_NEAR(fromGlb["clips"][0]["duration"].get<double>(), fromAsset["clips"][0]["duration"].get<double>(), 1e-6);
}

TEST(CliProject, ProjectToProjectInAnotherFolderStillFindsTheAsset) {
  const TempDir dir("articula_cli_project_move");
  std::filesystem::create_directories(dir.path / "deeper/still");
  const std::string moved = dir / "deeper/still/rigged.articula";
  const CliRun run = runCli("export " + quoted(data("projects/rigged_simple_v1.articula")) + " --out " + quoted(moved));
  ASSERT_EQ(run.exitCode, 0) << run.stderrText;
  const nlohmann::json info = infoJson(moved);
  EXPECT_EQ(info["jointNames"], infoJson(data("gltf/RiggedSimple/RiggedSimple.glb"))["jointNames"]);
}

TEST(CliProject, ContactsReadAProject) {
  const TempDir dir("articula_cli_project_contacts");
  const std::string out = dir / "walk.glb";
  const CliRun run = runCli("contacts " + quoted(data("projects/mannequin_v1.articula")) + " --out " + quoted(out));
  ASSERT_EQ(run.exitCode, 0) << run.stderrText;
  EXPECT_NE(run.stdoutText.find("contact.left_foot: "), std::string::npos) << run.stdoutText;
  EXPECT_TRUE(validatesWithoutErrors(out));
}

TEST(CliProject, BrokenProjectIsAOneLineErrorNamingIt) {
  const TempDir dir("articula_cli_project_broken");
  const std::string broken = dir / "broken.articula";
  std::ofstream(broken) << "{\"format_version\": 1, \"asset\": {\"path\": \"gone.glb\"}}";
  for (const std::string& command :
       {"info " + quoted(broken), "export " + quoted(broken) + " --out " + quoted(dir / "a.glb"),
        "export " + quoted(broken) + " --out " + quoted(dir / "b.articula")}) {
    const CliRun run = runCli(command);
    EXPECT_FALSE(run.signaled) << command;
    EXPECT_EQ(run.exitCode, 1) << command;
    EXPECT_NE(run.stderrText.find("broken.articula"), std::string::npos) << run.stderrText;
    EXPECT_NE(run.stderrText.find("gone.glb"), std::string::npos) << run.stderrText;
    EXPECT_EQ(lineCount(run.stderrText), 1) << run.stderrText;
  }
  EXPECT_FALSE(std::filesystem::exists(dir / "b.articula"));
}

}  // namespace

// --contacts detect cleans foot skate on any humanoid the auto-rig recognises, whatever
// its joint names: CMU BVH, the Khronos CesiumMan, the project's mannequin (an .articula).
TEST(CliBake, DetectCleansEveryNamingConventionIntoValidGlb) {
  const TempDir dir("articula_cli_bake");
  for (const std::string& in : {data("bvh/cmu-mb-2010/02_03.bvh"), data("gltf/CesiumMan/CesiumMan.glb"),
                                data("projects/mannequin_v1.articula")}) {
    const std::string out = dir / "baked.glb";
    const CliRun run = runCli("bake " + quoted(in) + " --out " + quoted(out) + " --contacts detect --json");
    ASSERT_EQ(run.exitCode, 0) << in << ": " << run.stderrText;
    EXPECT_TRUE(run.stderrText.empty()) << run.stderrText;  // no progress bar off a terminal
    const auto json = nlohmann::json::parse(run.stdoutText);
    EXPECT_GT(json["frames"].get<int>(), 10) << in;
    EXPECT_GT(json["keysBefore"].get<int>(), json["keysAfter"].get<int>()) << in;
    EXPECT_LE(json["maxErrorModel"].get<double>(), json["toleranceModel"].get<double>() * 1.001) << in;
    EXPECT_GE(json["unreachedFrames"].get<int>(), 0);
    ASSERT_TRUE(json["contacts"].contains("contact.left_foot")) << run.stdoutText;
    EXPECT_GT(json["contacts"]["contact.left_foot"].get<int>(), 0) << in;
    EXPECT_TRUE(validatesWithoutErrors(out)) << in;
    const nlohmann::json gltf = glbJson(out);
    ASSERT_EQ(gltf["animations"].size(), 1u);
    const nlohmann::json& curves = gltf["animations"][0]["extras"]["articula"]["curves"];
    EXPECT_TRUE(curves.contains("contact.right_foot")) << curves.dump();
    EXPECT_FALSE(curves.contains("ik.left_leg.target.x")) << "the lock curves are spent by the bake";
  }
}

TEST(CliBake, RangeAndGroundWithTheTextSummary) {
  const TempDir dir("articula_cli_bake_range");
  const std::string out = dir / "walk.glb";
  const CliRun run = runCli("bake " + quoted(data("bvh/cmu-mb-2010/02_01.bvh")) + " --out " + quoted(out) +
                            " --range 20:119 --ground plane --tolerance 0.05");
  ASSERT_EQ(run.exitCode, 0) << run.stderrText;
  EXPECT_NE(run.stdoutText.find("baked 100 frames"), std::string::npos) << run.stdoutText;
  EXPECT_NE(run.stdoutText.find("unreached frames: "), std::string::npos) << run.stdoutText;
  EXPECT_NE(run.stdoutText.find("keys "), std::string::npos) << run.stdoutText;
  EXPECT_TRUE(validatesWithoutErrors(out));
}

// A project carries its rig: export --rig writes it, bake uses it unless --rig says otherwise.
// On a ground plane, so the legs have work to do (with targets following the pose they would
// give back the same keys).
TEST(CliBake, AProjectBakesThroughItsOwnRig) {
  const TempDir dir("articula_cli_bake_project_rig");
  const std::string walk = data("bvh/cmu-mb-2010/02_01.bvh");
  const std::string project = dir / "walk.articula";
  const CliRun written = runCli("export " + quoted(walk) + " --out " + quoted(project) + " --rig auto");
  ASSERT_EQ(written.exitCode, 0) << written.stderrText;
  EXPECT_NE(written.stdoutText.find("1 rigs"), std::string::npos) << written.stdoutText;

  auto bakeJson = [&](const std::string& in, const std::string& extra) {
    const CliRun run = runCli("bake " + quoted(in) + " --out " + quoted(dir / "o.glb") +
                              " --range 0:40 --ground plane --json" + extra);
    EXPECT_EQ(run.exitCode, 0) << run.stderrText;
    return run.exitCode == 0 ? nlohmann::json::parse(run.stdoutText) : nlohmann::json();
  };
  const nlohmann::json fromAsset = bakeJson(walk, " --rig auto");
  EXPECT_EQ(bakeJson(project, ""), fromAsset) << "the project's rig is the humanoid rig";

  // The animator switched the legs off in the project: the default bake honours that.
  nlohmann::ordered_json json;
  {
    std::ifstream file(project);
    json = nlohmann::ordered_json::parse(file);
  }
  for (auto& handle : json["rigs"]["definitions"][0]["handles"]) {
    if (handle["name"].get<std::string>().find("leg") != std::string::npos) handle["enabled"] = false;
  }
  std::ofstream(project) << json.dump(1);
  const nlohmann::json legsOff = bakeJson(project, "");
  ASSERT_TRUE(legsOff.is_object());
  EXPECT_NE(legsOff, fromAsset);
  EXPECT_EQ(bakeJson(project, " --rig auto"), fromAsset) << "--rig overrides the project's rig";
}

TEST(CliBake, BadArgumentsAreOneLineErrors) {
  const TempDir dir("articula_cli_bake_bad");
  const std::string walk = quoted(data("bvh/cmu-mb-2010/02_03.bvh"));
  const std::string out = " --out " + quoted(dir / "o.glb");
  struct Case {
    std::string args;
    std::string named;
  };
  const std::vector<Case> cases = {
      {"bake " + walk + out + " --range 5", "--range '5'"},
      {"bake " + walk + out + " --range 9:3", "--range '9:3'"},
      {"bake " + walk + out + " --range 0:900", "0..900"},
      {"bake " + walk + out + " --rig /nonexistent/rig.json", "/nonexistent/rig.json"},
      {"bake " + walk + out + " --rig project", "not a project with an active rig"},
      {"bake " + walk + out + " --contacts maybe", "--contacts 'maybe'"},
      {"bake " + walk + out + " --tolerance -1", "--tolerance"},
      {"bake " + walk + out + " --clip nope", "no clip named 'nope'"},
      {"bake " + quoted(data("gltf/RiggedSimple/RiggedSimple.glb")) + out, "--rig auto"},
  };
  for (const Case& c : cases) {
    const CliRun run = runCli(c.args);
    EXPECT_FALSE(run.signaled) << c.args;
    EXPECT_NE(run.exitCode, 0) << c.args;
    EXPECT_NE(run.stderrText.find(c.named), std::string::npos) << c.args << ": " << run.stderrText;
    EXPECT_EQ(lineCount(run.stderrText), 1) << run.stderrText;
  }
  EXPECT_FALSE(std::filesystem::exists(dir / "o.glb"));
}

// The bake report names, per foot, the planted spans it held, how far the held joint slid in
// each before and after, and the frames its leg could not reach.
TEST(CliBake, DetectReportsEachFootsSpansSlidesAndUnreachedFrames) {
  const TempDir dir("articula_cli_bake_feet");
  const std::string out = dir / "baked.glb";
  const CliRun run = runCli("bake " + quoted(data("bvh/cmu-mb-2010/02_01.bvh")) + " --out " + quoted(out) +
                            " --contacts detect --json");
  ASSERT_EQ(run.exitCode, 0) << run.stderrText;
  const auto json = nlohmann::json::parse(run.stdoutText);
  for (const char* curve : {"contact.left_foot", "contact.right_foot"}) {
    SCOPED_TRACE(curve);
    ASSERT_TRUE(json["feet"].contains(curve)) << run.stdoutText;
    const nlohmann::json& foot = json["feet"][curve];
    const auto spans = foot["spans"].size();
    EXPECT_EQ(spans, json["contacts"][curve].get<std::size_t>());
    ASSERT_GE(spans, 2u);
    ASSERT_EQ(foot["slideBeforeModel"].size(), spans);
    ASSERT_EQ(foot["slideAfterModel"].size(), spans);
    double before = 0.0, after = 0.0;
    for (std::size_t s = 0; s < spans; ++s) {
      EXPECT_LE(foot["spans"][s][0].get<int>(), foot["spans"][s][1].get<int>());
      before += foot["slideBeforeModel"][s].get<double>();
      after += foot["slideAfterModel"][s].get<double>();
    }
    EXPECT_LT(after, 0.05 * before) << foot.dump();
    EXPECT_TRUE(foot["unreachedFrames"].empty()) << foot.dump();
  }
}

namespace {

// The shared judge (../shared/tools/gltf_motion_report.py beside the worktree), run on a
// written file; nullopt when it or numpy is not there.
std::optional<nlohmann::json> judge(const std::string& glb, const std::string& clip) {
  const std::string tool = std::string(ARTICULA_TEST_DATA_DIR) + "/../../../shared/tools/gltf_motion_report.py";
  if (!std::filesystem::exists(tool) || std::system("/usr/bin/python3 -c 'import numpy' 2>/dev/null") != 0)
    return std::nullopt;
  FILE* pipe = ::popen(("/usr/bin/python3 " + quoted(tool) + " " + quoted(glb) + " --clip " + quoted(clip) +
                        " --json 2>/dev/null")
                           .c_str(),
                       "r");
  if (pipe == nullptr) return std::nullopt;
  std::string text;
  std::array<char, 4096> buffer{};
  std::size_t n = 0;
  while ((n = std::fread(buffer.data(), 1, buffer.size(), pipe)) > 0) text.append(buffer.data(), n);
  ::pclose(pipe);
  return nlohmann::json::parse(text);
}

// Spans of `before` that an after span covers for at least half their frames.
std::size_t spansKept(const nlohmann::json& before, const nlohmann::json& after) {
  std::size_t kept = 0;
  for (const auto& b : before) {
    const int b0 = b[0].get<int>(), b1 = b[1].get<int>();
    const bool covered = std::any_of(after.begin(), after.end(), [&](const nlohmann::json& a) {
      return std::min(b1, a[1].get<int>()) - std::max(b0, a[0].get<int>()) + 1 >= (b1 - b0 + 1) / 2;
    });
    if (covered) ++kept;
  }
  return kept;
}

}  // namespace

// On the written files, by the shared judge: after `bake --contacts detect` every planted
// span slides ≤ 1 mm on average and ≤ 2 mm at most per foot (at 1.75 m), at least 90 % of
// the source's planted spans (from `export`) are still planted, and no leg is left short, on
// a travelling walk and run (CMU) and an in-place game walk whose feet are IK bones
// (RobotExpressive: the planted foot moves with the treadmill).
TEST(CliBake, WrittenFilesKeepPlantedFeetStillByTheSharedJudge) {
  const TempDir dir("articula_cli_bake_judge");
  struct Case {
    std::string file, clip;
  };
  for (const Case& c : {Case{"bvh/cmu-mb-2010/02_01.bvh", "02_01"}, Case{"bvh/cmu-mb-2010/02_03.bvh", "02_03"},
                        Case{"gltf/RobotExpressive/RobotExpressive.glb", "Walking"}}) {
    SCOPED_TRACE(c.file + " " + c.clip);
    const std::string before = dir / "before.glb";
    const std::string after = dir / "after.glb";
    ASSERT_EQ(runCli("export " + quoted(data(c.file)) + " --out " + quoted(before)).exitCode, 0);
    const CliRun bake = runCli("bake " + quoted(data(c.file)) + " --clip " + quoted(c.clip) + " --out " +
                               quoted(after) + " --contacts detect --json");
    ASSERT_EQ(bake.exitCode, 0) << bake.stderrText;
    EXPECT_EQ(nlohmann::json::parse(bake.stdoutText)["unreachedFrames"].get<int>(), 0);
    const auto source = judge(before, c.clip);
    const auto cleaned = judge(after, c.clip);
    if (!source || !cleaned) GTEST_SKIP() << "no python3 with numpy or no ../shared/tools/gltf_motion_report.py";
    for (const char* side : {"left", "right"}) {
      SCOPED_TRACE(side);
      const nlohmann::json& foot = (*cleaned)["feet"][side];
      ASSERT_GE(foot["planted_spans"].get<int>(), 1) << cleaned->dump();
      EXPECT_LE(foot["mean_slide_mm"].get<double>(), 1.0) << foot.dump();
      EXPECT_LE(foot["max_slide_mm"].get<double>(), 2.0) << foot.dump();
      const nlohmann::json& sourceSpans = (*source)["feet"][side]["spans"];
      EXPECT_GE(10 * spansKept(sourceSpans, foot["spans"]), 9 * sourceSpans.size()) << source->dump();
    }
  }
}
