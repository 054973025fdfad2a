// articula-cli: the engine without a display, for batch pipelines.
#include <CLI/CLI.hpp>

#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <exception>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "app/cli_batch.h"
#include "app/cli_clipops.h"
#include "app/cli_convention.h"
#include "app/cli_filter.h"
#include "app/cli_rest.h"
#include "app/cli_retarget.h"
#include "core/bake/bake_pipeline.h"
#include "core/bake/contact_detection.h"
#include "core/bake/key_reduction.h"
#include "core/clipops/travel.h"
#include "core/io/gltf_export.h"
#include "core/io/import.h"
#include "core/io/scene_info.h"
#include "core/project/export_options.h"
#include "core/project/project_file.h"
#include "core/project/rig_json.h"
#include "core/io/scene_info.h"
#include "core/retarget/rest_pose.h"
#include "core/retarget/standing_contacts.h"
#include "core/rig/humanoid_rig.h"
#include "core/skeleton/local_to_model.h"
#include "core/util/message_text.h"

namespace {

// One line per warning on stderr (a project whose asset changed since the save), so a
// pipeline sees them and stdout stays the command's output.
void printWarnings(const std::vector<std::string>& warnings) {
  for (const std::string& warning : warnings) std::cerr << "warning: " << warning << '\n';
}

// loadSceneOrProject, its warnings printed, the --up, --facing and --units given over its convention.
articula::Result<articula::Scene> loadInput(const std::string& path, const articula::cli::ConventionArgs& convention,
                                            articula::ProjectRigs* rigs = nullptr) {
  std::vector<std::string> warnings;
  auto scene = articula::loadSceneOrProject(path, rigs, &warnings);
  printWarnings(warnings);
  if (scene) {
    if (auto error = articula::cli::applyConventionArgs(convention, path, scene->convention))
      return articula::makeError(*error);
  }
  return scene;
}

int fail(const std::string& message);

// --json carries the warnings (what the reader repaired) as well as stderr.
int runInfo(const std::string& path, bool json, const articula::cli::ConventionArgs& convention) {
  std::vector<std::string> warnings;
  auto scene = articula::loadSceneOrProject(path, nullptr, &warnings);
  printWarnings(warnings);
  if (!scene) return fail(scene.error());
  if (auto error = articula::cli::applyConventionArgs(convention, path, scene->convention)) return fail(*error);
  if (!json) {
    std::cout << articula::sceneInfoText(*scene) << '\n';
    return 0;
  }
  auto info = nlohmann::ordered_json::parse(
      articula::cli::withSeamScores(articula::sceneInfoJson(*scene, warnings), *scene));
  info["convention"] = articula::cli::conventionJson(*scene);
  std::cout << info.dump() << '\n';
  return 0;
}

// One line on stderr, whatever the library's message holds (pipelines read it line by line).
// One printable line under 300 characters, whatever a file's names and data put in it.
int fail(const std::string& message) {
  std::cerr << "error: " << articula::printableLine(articula::jsonErrorInOurWords(message)) << '\n';
  return 1;
}

std::string lowerExtension(const std::string& path) {
  std::string extension = std::filesystem::path(path).extension().string();
  std::transform(extension.begin(), extension.end(), extension.begin(),
                 [](unsigned char c) { return std::tolower(c); });
  return extension;
}

// nullopt when `path` ends in .glb or .gltf (any case); contacts writes nothing else.
std::optional<std::string> checkGltfOutput(const std::string& path) {
  const std::string extension = lowerExtension(path);
  if (extension == ".glb" || extension == ".gltf") return std::nullopt;
  std::string message = path;
  message.append(": the output must end in .glb or .gltf");
  return message;
}

// A RIG.json, or the humanoid rig the skeleton's names give ("auto"), or the active rig of
// the input project ("project"; `projectRigs` holds the input's rigs, empty for an asset).
// `inputPath` names the input whose skeleton "auto" found no humanoid in.
articula::Result<articula::RigDefinition> loadRig(const std::string& rig, const std::string& inputPath,
                                                  const articula::Skeleton& skeleton,
                                                  const articula::ProjectRigs& projectRigs = {}) {
  if (rig == "project") {
    if (projectRigs.active < 0)
      return articula::makeError("--rig project: the input is not a project with an active rig");
    return projectRigs.rigs[static_cast<std::size_t>(projectRigs.active)];
  }
  if (rig == "auto") {
    auto definition = articula::buildHumanoidRig(skeleton);
    if (!definition)
      return articula::makeError(articula::importErrorLine(inputPath, "--rig auto: " + definition.error()));
    return definition;
  }
  std::ifstream file(rig, std::ios::binary);
  if (!file) return articula::makeError(rig + ": cannot be read (--rig takes auto or a rig JSON file)");
  const std::string text(std::istreambuf_iterator<char>(file), {});
  auto definition = articula::rigFromJson(text, skeleton);
  if (!definition) return articula::makeError(rig + ": " + definition.error());
  return definition;
}

// A project for `inPath` written to `outPath`. An asset becomes a project naming it; a project
// keeps its clips, rigs and settings, its asset path re-made relative to the new project's
// folder. `rig` (auto or a rig JSON file), when given, is added as the active rig.
int exportProject(const std::string& inPath, const std::string& outPath, const std::string& rig,
                  const articula::cli::ConventionArgs& convention) {
  namespace fs = std::filesystem;
  articula::Project project;
  articula::Skeleton skeleton;
  if (fs::path(inPath).extension() == ".articula") {
    auto opened = articula::openProject(inPath);
    if (!opened) return fail(opened.error());
    printWarnings(opened->warnings);
    project = std::move(opened->project);
    if (project.asset.builtin.empty()) {
      const fs::path assetAbsolute = (fs::absolute(inPath).parent_path() / project.asset.path).lexically_normal();
      project.asset.path = assetAbsolute.lexically_relative(fs::absolute(outPath).parent_path()).generic_string();
    }
    skeleton = std::move(opened->scene.skeleton);
  } else {
    auto scene = articula::importScene(inPath);
    if (!scene) return fail(scene.error());
    auto made = articula::projectForAsset(inPath, outPath, *scene);
    if (!made) return fail(made.error());
    project = std::move(*made);
    skeleton = std::move(scene->skeleton);
  }
  if (auto error = articula::cli::applyConventionArgs(convention, inPath, project.convention)) return fail(*error);
  if (!rig.empty()) {
    auto definition = loadRig(rig, inPath, skeleton, project.rigs);
    if (!definition) return fail(definition.error());
    project.rigs.rigs.push_back(std::move(*definition));
    project.rigs.active = static_cast<int>(project.rigs.rigs.size()) - 1;
    project.rigs.enabled = true;
  }
  if (auto error = articula::saveProject(outPath, project, skeleton)) return fail(inPath + ": " + *error);
  std::cout << "wrote " << outPath << ": " << project.clips.size() << " clips, " << project.rigs.rigs.size()
            << " rigs\n";
  return 0;
}

// Millimetres at 1.75 m per model unit of `scene`'s character.
double mmPerModelUnit(const articula::Scene& scene) {
  return articula::kReferenceHeightMm / std::max(scene.characterHeight(), 1e-6f);
}

// The largest distance (mm at 1.75 m) between any clip of the written glTF file `path` as the
// spec plays it and as Blender does (LINEAR rotations lerped per component), at a player's
// 120 Hz: the file read back, since the writer adds keys where the two would part.
articula::Result<double> readerDeviationMm(const std::string& path) {
  auto written = articula::importScene(path);
  if (!written) return articula::makeError(written.error());
  float worst = 0.0f;
  for (const articula::Clip& clip : written->clips) {
    worst = std::max(worst, articula::componentLerpDeviation(written->skeleton, written->skeleton.restPose(), clip,
                                                             articula::kPlaybackRate));
  }
  return worst * mmPerModelUnit(*written);
}

// What a written glTF file holds, for --json: its interpolation, bytes and keys.
void addFileFigures(const articula::GltfExportReport& written, nlohmann::json& json) {
  json["interpolation"] = articula::interpolationOf(written);
  json["compression"] = articula::compressionName(written.compression);
  json["bytes"] = written.bytes;
  json["keys"] = written.keys;
}

// `--compress`, shared by the commands that write glTF with their keys.
void addCompressOption(CLI::App& command, std::string& word) {
  command.add_option("--compress", word,
                     "none (default): core glTF 2.0, which every reader opens; meshopt: the animation data "
                     "with EXT_meshopt_compression (lossless; three.js and Babylon.js read it, Blender 3.4 does "
                     "not)");
}

// One line per filter `--filter` ran (applyFilters' reports).
void printFilters(const nlohmann::json& filters) {
  for (const nlohmann::json& f : filters)
    std::cout << "filtered " << f.at("filter").get<std::string>() << " on '" << f.at("clip").get<std::string>()
              << "': " << f.at("joints").get<int>() << " joints, keys " << f.at("keysBefore").get<std::size_t>()
              << " -> " << f.at("keysAfter").get<std::size_t>() << '\n';
}

// The character's height (model units) along its own up where it is a humanoid.
float heightAlongUp(const articula::Scene& scene) {
  const auto frame = articula::humanoidTravelFrame(scene.skeleton);
  return frame ? frame->heightModel : scene.characterHeight();
}

int runExport(const std::string& inPath, const std::string& outPath, const std::string& rig,
              const std::string& interpolationWord, const std::string& compressionWord, bool json,
              const std::vector<std::string>& filters, const articula::cli::ConventionArgs& convention) {
  if (lowerExtension(outPath) == ".articula") {
    if (!filters.empty()) return fail("--filter writes glTF: the output must end in .glb or .gltf");
    return exportProject(inPath, outPath, rig, convention);
  }
  if (!rig.empty()) return fail("--rig is written into projects: the output must end in .articula");
  if (checkGltfOutput(outPath)) return fail(outPath + ": the output must end in .glb, .gltf or .articula");
  const auto interpolation = articula::parseKeyInterpolation(interpolationWord);
  if (!interpolation) return fail("--interpolation '" + interpolationWord + "': expected linear or cubic");
  const auto compression = articula::parseCompression(compressionWord);
  if (!compression) return fail("--compress '" + compressionWord + "': expected none or meshopt");
  auto scene = loadInput(inPath, convention);
  if (!scene) return fail(scene.error());
  nlohmann::json filtered = nlohmann::json::array();
  for (articula::Clip& clip : scene->clips) {
    if (filters.empty()) break;
    auto reports = articula::cli::applyFilters(filters, inPath, scene->skeleton, heightAlongUp(*scene), clip);
    if (!reports) return fail(reports.error());
    filtered.insert(filtered.end(), reports->begin(), reports->end());
  }
  articula::GltfExportReport written;
  articula::LinearKeysReport lines;
  const double mmPerUnit = mmPerModelUnit(*scene);
  const std::size_t clipCount = scene->clips.size();
  if (auto error = articula::writeSceneGltf(*scene, outPath, {*interpolation, 0.0f, *compression}, &written, &lines))
    return fail(inPath + ": " + *error);
  if (json) {
    nlohmann::json report{{"out", outPath}, {"clips", clipCount}};
    if (!filters.empty()) report["filters"] = filtered;
    addFileFigures(written, report);
    // The larger of the lines' distance from the authored curves and Blender's from the spec,
    // measured on the file read back (a compressed one too: the importer decodes meshopt,
    // though Blender 3.4 does not open it).
    const auto deviationMm = readerDeviationMm(outPath);
    if (!deviationMm) return fail(deviationMm.error());
    report["maxErrorMm"] = std::max(*deviationMm, lines.maxDeviationModel * mmPerUnit);
    report["clipsToLines"] = lines.clipsConverted;
    std::cout << report.dump() << '\n';
    return 0;
  }
  printFilters(filtered);
  std::cout << "wrote " << outPath << ": " << scene->skeleton.jointCount() << " nodes, " << scene->meshes.size()
            << " meshes, " << scene->clips.size() << " clips, " << written.keys << " "
            << articula::interpolationOf(written) << " keys, " << written.bytes << " bytes\n";
  return 0;
}

// Per analysed frame: time and each foot's ankle and toe heights (model space, Y up).
std::optional<std::string> writeHeights(const std::string& path, const articula::Clip& clip,
                                        const articula::ContactDetection& detection) {
  std::ofstream out(path);
  if (!out) {
    std::string message = path;
    message.append(": cannot be opened for writing");
    return message;
  }
  out << "frame,time";
  for (const articula::FootContacts& foot : detection.feet)
    out << ',' << foot.curveName << ".ankle_y," << foot.curveName << ".toe_y";
  out << '\n';
  for (int i = 0; i < detection.frameCount; ++i) {
    out << i << ',' << clip.startTime + i / clip.frameRate;
    for (const articula::FootContacts& foot : detection.feet) {
      const auto at = static_cast<std::size_t>(i);
      out << ',' << foot.ankleHeightModel[at] << ',';
      if (at < foot.toeHeightModel.size()) out << foot.toeHeightModel[at];
    }
    out << '\n';
  }
  out.close();
  if (!out) {
    std::string message = path;
    message.append(": write error");
    return message;
  }
  return std::nullopt;
}

// The first clip of the scene, or the one named `clipName`.
articula::Result<articula::Clip*> findClip(articula::Scene& scene, const std::string& inPath,
                                           const std::string& clipName) {
  if (scene.clips.empty()) return articula::makeError(inPath + ": has no animation");
  if (clipName.empty()) return &scene.clips.front();
  for (articula::Clip& c : scene.clips) {
    if (c.name == clipName) return &c;
  }
  std::string names;
  for (const articula::Clip& c : scene.clips) names.append(names.empty() ? "" : ", ").append(c.name);
  return articula::makeError(inPath + ": no clip named '" + clipName + "' (clips: " + names + ")");
}

// Detects foot contacts on one clip (the first, or `clipName`) and writes the scene with that
// clip alone, its stride curves included, as glTF.
int runContacts(const std::string& inPath, const std::string& outPath, const std::string& clipName,
                const std::string& heightsPath, const articula::cli::ConventionArgs& convention) {
  if (auto error = checkGltfOutput(outPath)) return fail(*error);
  auto scene = loadInput(inPath, convention);
  if (!scene) return fail(scene.error());
  if (scene->clips.empty()) return fail(inPath + ": has no animation to find contacts in");
  auto clip = findClip(*scene, inPath, clipName);
  if (!clip) return fail(clip.error());
  // A rest lying down is stood up (the motion unchanged) and heights read along the clip's up.
  const auto clipIndex = static_cast<std::size_t>(*clip - scene->clips.data());
  auto standing = articula::detectStandingContacts(std::move(*scene), clipIndex, {});
  if (!standing) return fail(standing.error());
  *scene = std::move(standing->capture.scene);
  *clip = &scene->clips[clipIndex];
  const articula::ContactDetection& detection = standing->detection;
  if (!heightsPath.empty()) {
    if (auto error = writeHeights(heightsPath, **clip, detection)) return fail(*error);
  }
  articula::Clip kept = std::move(**clip);
  scene->clips.assign(1, std::move(kept));
  if (auto error = articula::writeSceneGltf(*scene, outPath)) return fail(inPath + ": " + *error);
  for (const articula::FootContacts& foot : detection.feet) {
    std::cout << foot.curveName << ": " << foot.foot.size() << " contacts";
    for (const articula::ContactInterval& c : foot.foot) std::cout << " [" << c.first << ", " << c.last << "]";
    std::cout << '\n';
  }
  std::cout << "wrote " << outPath << '\n';
  return 0;
}

struct BakeArgs {
  std::string in, out, clip, range, rig, ground, contacts = "keep";
  std::optional<double> tolerance;
  bool json = false;
  bool keepSource = false;
  bool fewestBytes = false;
  std::string interpolation = "linear";
  std::string compression = "none";
  std::vector<std::string> filters;
  articula::cli::ConventionArgs convention;
};

// "A:B" (frames, inclusive) into the bake's range.
std::optional<std::string> parseRange(const std::string& text, articula::BakeOptions& options) {
  const std::string message = "--range '" + text + "': expected FIRST:LAST frames, e.g. 0:120";
  const auto colon = text.find(':');
  if (colon == std::string::npos) return message;
  try {
    std::size_t used = 0;
    const std::string first = text.substr(0, colon);
    const std::string last = text.substr(colon + 1);
    options.firstFrame = std::stoi(first, &used);
    if (used != first.size()) return message;
    options.lastFrame = std::stoi(last, &used);
    if (used != last.size()) return message;
  } catch (const std::exception&) {
    return message;
  }
  if (options.firstFrame < 0 || options.lastFrame < options.firstFrame) return message;
  return std::nullopt;
}

// "plane": the world's y = 0 plane; anything else: a file whose meshes (at their nodes'
// rest placement) are the ground.
articula::Result<articula::Ground> loadGround(const std::string& ground) {
  if (ground == "plane") return articula::Ground::plane(articula::Vec3::Zero(), articula::Vec3::UnitY());
  auto scene = articula::importScene(ground);
  if (!scene) return articula::makeError("--ground: " + scene.error());
  const auto model = articula::localToModel(scene->skeleton, scene->skeleton.restPose());
  std::vector<articula::Vec3> vertices;
  std::vector<std::uint32_t> indices;
  for (const articula::Mesh& mesh : scene->meshes) {
    const auto base = static_cast<std::uint32_t>(vertices.size());
    const bool placed = mesh.node >= 0 && !mesh.hasSkin;
    for (const articula::Vec3& p : mesh.positions)
      vertices.push_back(placed ? articula::Vec3(model[static_cast<std::size_t>(mesh.node)] * p) : p);
    for (const std::uint32_t i : mesh.indices) indices.push_back(base + i);
  }
  if (indices.empty()) return articula::makeError("--ground " + ground + ": has no triangles to stand on");
  auto result = articula::Ground::mesh(std::move(vertices), std::move(indices));
  if (!result) return articula::makeError("--ground " + ground + ": " + result.error());
  return result;
}

// A progress bar on stderr, redrawn in place; only on a terminal (pipelines get the summary).
std::function<bool(int, int)> progressBar() {
  if (::isatty(STDERR_FILENO) == 0) return nullptr;
  return [](int done, int total) {
    constexpr int kWidth = 30;
    const int filled = total > 0 ? done * kWidth / total : kWidth;
    std::cerr << "\rbaking [" << std::string(static_cast<std::size_t>(filled), '#')
              << std::string(static_cast<std::size_t>(kWidth - filled), ' ') << "] " << done << '/' << total
              << (done == total ? "\n" : "") << std::flush;
    return true;
  };
}

// Bakes one clip through a rig (contacts keep: the rig as it is, with the clip's stride
// curves and an optional ground) or through the foot-skate cleanup (contacts detect), and
// writes the scene as glTF with the baked clip in place of its source (beside it with
// --keep-source).
int runBake(const BakeArgs& args) {
  if (auto error = checkGltfOutput(args.out)) return fail(*error);
  if (args.contacts != "detect" && args.contacts != "keep")
    return fail("--contacts '" + args.contacts + "': expected detect or keep");
  if (args.contacts == "detect" && !args.ground.empty())
    return fail("--ground works with --contacts keep: detect holds each foot where it landed, on no ground");
  articula::ProjectRigs projectRigs;
  auto scene = loadInput(args.in, args.convention, &projectRigs);
  if (!scene) return fail(scene.error());
  auto clip = findClip(*scene, args.in, args.clip);
  if (!clip) return fail(clip.error());
  const auto clipIndex = static_cast<std::size_t>(*clip - scene->clips.data());
  auto standing = articula::standUpright(std::move(*scene), clipIndex);
  if (!standing) return fail(standing.error());
  const float heightModel = articula::standingHeight(*standing);
  *scene = std::move(standing->scene);
  *clip = &scene->clips[clipIndex];
  // The filters work on a copy, so --keep-source keeps the clip as the file has it.
  std::optional<articula::Clip> filteredSource;
  if (!args.filters.empty()) filteredSource = **clip;
  auto filtered = articula::cli::applyFilters(args.filters, args.in, scene->skeleton, heightModel,
                                              filteredSource ? *filteredSource : **clip);
  if (!filtered) return fail(filtered.error());
  // A project bakes through the rig the animator set up in it unless told otherwise.
  const std::string rigChoice = !args.rig.empty() ? args.rig : projectRigs.active >= 0 ? "project" : "auto";
  auto rig = loadRig(rigChoice, args.in, scene->skeleton, projectRigs);
  if (!rig) return fail(rig.error());

  articula::BakeOptions options;
  if (!args.range.empty()) {
    if (auto error = parseRange(args.range, options)) return fail(*error);
  }
  options.reduction.toleranceModel = args.tolerance ? static_cast<float>(*args.tolerance)
                                                    : articula::kDefaultToleranceOfHeight * heightModel;
  if (!std::isfinite(options.reduction.toleranceModel) || !(options.reduction.toleranceModel > 0.0f))
    return fail("--tolerance must be a positive distance in the model's units");
  options.reduction.fewestBytes = args.fewestBytes;
  const auto interpolation = articula::parseKeyInterpolation(args.interpolation);
  if (!interpolation) return fail("--interpolation '" + args.interpolation + "': expected linear or cubic");
  options.reduction.interpolation = *interpolation;
  const auto compression = articula::parseCompression(args.compression);
  if (!compression) return fail("--compress '" + args.compression + "': expected none or meshopt");

  articula::BakePipelineOptions pipeline;
  pipeline.bake = options;
  pipeline.detectContacts = args.contacts == "detect";
  if (!args.ground.empty()) {
    auto ground = loadGround(args.ground);
    if (!ground) return fail(ground.error());
    pipeline.ground = std::move(*ground);
  }
  // Without --keep-source the baked clip replaces the source, so the bake may take its keys.
  articula::Clip& source = filteredSource ? *filteredSource : **clip;
  auto result = args.keepSource && !filteredSource
                    ? articula::bakeThroughRig(*scene, source, *rig, pipeline, progressBar())
                    : articula::bakeThroughRig(*scene, std::move(source), *rig, pipeline, progressBar());
  if (!result) return fail(args.in + ": " + result.error());
  const articula::BakeReport& report = result->report;
  const std::map<std::string, int>& contactCounts = result->contactsHeld;
  std::set<int> unreachedFrames;
  std::map<std::string, int> unreachedByHandle;
  for (const articula::BakeMiss& miss : report.unreached) {
    unreachedFrames.insert(miss.frame);
    ++unreachedByHandle[report.handleNames[static_cast<std::size_t>(miss.handle)]];
  }
  const auto sourceIndex = static_cast<std::size_t>(*clip - scene->clips.data());
  const std::size_t bakedIndex =
      articula::placeBakedClip(scene->clips, sourceIndex, std::move(result->clip), args.keepSource);
  const articula::Clip& baked = scene->clips[bakedIndex];
  articula::GltfExportReport written;
  // Clips the bake left as they were (--keep-source, the scene's others) are written with
  // the keys asked for too: with linear keys, cubic ones become lines within the tolerance.
  articula::LinearKeysReport lines;
  const float linesTolerance = args.tolerance ? options.reduction.toleranceModel : 0.0f;  // 0: as export
  if (auto error = articula::writeSceneGltf(*scene, args.out, {*interpolation, linesTolerance, *compression}, &written,
                                             &lines))
    return fail(args.in + ": " + *error);
  // A per-frame bake keys every baked channel and the morph weights (copied as they are).
  const std::size_t keysPerFrame =
      report.reduction.keysBefore + baked.morphWeights.size() * std::size_t(report.framesBaked);
  const double errorMm = std::max(report.reduction.maxDeviationModel, lines.maxDeviationModel) *
                         articula::kReferenceHeightMm / std::max(heightModel, 1e-6f);

  if (args.json) {
    nlohmann::json json;
    json["out"] = args.out;
    json["clip"] = baked.name;
    addFileFigures(written, json);
    json["frames"] = report.framesBaked;
    json["keysBefore"] = report.reduction.keysBefore;
    json["keysAfter"] = report.reduction.keysAfter;
    json["keysWritten"] = articula::channelKeyCount(baked);
    json["keysPerFrame"] = keysPerFrame;
    json["maxErrorModel"] = report.reduction.maxDeviationModel;
    json["maxErrorMm"] = errorMm;
    json["toleranceModel"] = options.reduction.toleranceModel;
    json["unreachedFrames"] = unreachedFrames.size();
    json["unreachedHandles"] = unreachedByHandle;
    json["refusedFrames"] = report.refusedFrames;
    json["contacts"] = contactCounts;
    if (!args.filters.empty()) json["filters"] = *filtered;
    if (!result->feet.empty()) {
      // Millimetres for a 1.75 m character measured along its own up, as the shared report does.
      const articula::CleanupFigures& moved = result->moved;
      const double mmPerUnit = articula::kReferenceHeightMm / std::max(moved.heightModel, 1e-6f);
      json["displacementMm"] = {{"feet", moved.feetModel * mmPerUnit},
                                {"legs", moved.legsModel * mmPerUnit},
                                {"pelvis", moved.pelvisModel * mmPerUnit},
                                {"upperBody", moved.upperBodyModel * mmPerUnit}};
    }
    for (std::size_t i = 0; i < result->feet.size(); ++i) {
      const articula::FootCleanupSummary& foot = result->feet[i];
      nlohmann::json& f = json["feet"][foot.curveName];
      if (i < result->moved.feet.size()) {
        const articula::FootTurnFigures& turn = result->moved.feet[i];
        f["directionMeanDeg"] = turn.meanDeg;
        f["directionMaxDeg"] = turn.maxDeg;
        f["directionMaxFrame"] = turn.maxFrame;
      }
      f["handle"] = foot.handle;
      f["spans"] = nlohmann::json::array();
      for (const articula::ContactInterval& span : foot.spans) f["spans"].push_back({span.first, span.last});
      f["slideBeforeModel"] = foot.slideBeforeModel;
      f["slideAfterModel"] = foot.slideAfterModel;
      f["unreachedFrames"] = foot.unreachedFrames;
    }
    std::cout << json.dump() << '\n';
    return 0;
  }
  printFilters(*filtered);
  std::cout << "baked " << report.framesBaked << " frames of '" << baked.name << "'\n";
  std::cout << "keys " << articula::channelKeyCount(baked) << ' ' << args.interpolation << " (per-frame "
            << keysPerFrame << "), max error " << report.reduction.maxDeviationModel << " = " << errorMm
            << " mm at 1.75 m (tolerance " << options.reduction.toleranceModel << ", in the spec and in Blender)\n";
  for (const auto& [curve, count] : contactCounts) std::cout << curve << ": " << count << " contacts held\n";
  std::cout << "unreached frames: " << unreachedFrames.size();
  for (const auto& [handle, count] : unreachedByHandle) std::cout << ", " << handle << ' ' << count;
  std::cout << "\nwrote " << args.out << ": " << written.bytes << " bytes\n";
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"Articula command line: inspect, bake and export skeletal animation"};
  app.require_subcommand(1);

  std::string infoPath;
  bool infoJson = false;
  CLI::App* info = app.add_subcommand("info", "Print the skeleton, meshes and clips of a file");
  info->add_option("FILE", infoPath, "An Articula project, glTF, FBX, Collada, BVH or any file Assimp opens")
      ->required();
  info->add_flag("--json", infoJson, "Print one JSON object instead of text");
  // One set of convention options: a run has one subcommand.
  articula::cli::ConventionArgs conventionArgs;
  articula::cli::addConventionOptions(*info, conventionArgs);

  std::vector<std::string> exportIns;
  std::string exportOut;
  CLI::App* exportCommand =
      app.add_subcommand("export", "Write a file's scene and clips as glTF 2.0, or as an Articula project");
  exportCommand->add_option("IN", exportIns, "Any file articula-cli info reads; several, or folders, with --out-dir")
      ->required();
  exportCommand->add_option("--out", exportOut, "Output .glb, .gltf with its .bin beside it, or .articula");
  articula::cli::BatchOptions exportBatch;
  articula::cli::addBatchOptions(*exportCommand, exportBatch);
  std::string exportRig;
  bool exportJson = false;
  exportCommand->add_flag("--json", exportJson,
                          "Print one JSON object: out, clips, interpolation (linear or cubic), bytes, keys and "
                          "maxErrorMm (the largest distance, mm at 1.75 m, between the written file as the glTF "
                          "spec plays it and as Blender plays it, at 120 Hz)");
  std::vector<std::string> exportFilters;
  articula::cli::addFilterOption(*exportCommand, exportFilters);
  std::string exportInterpolation = "linear";
  exportCommand->add_option("--interpolation", exportInterpolation,
                            "linear (default): clips with Bézier or cubic-spline keys are written as lines within "
                            "1 mm at 1.75 m, which Blender, three.js and Babylon.js play alike; cubic: keys as they "
                            "are (exact in three.js, Babylon.js and engines; Blender drops cubic tangents)");
  std::string exportCompression = "none";
  addCompressOption(*exportCommand, exportCompression);
  exportCommand->add_option("--rig", exportRig,
                            "Add a rig to the written project as its active rig: auto (the humanoid rig from joint "
                            "names) or a rig JSON file");
  articula::cli::addConventionOptions(*exportCommand, conventionArgs);

  std::vector<std::string> contactsIns;
  std::string contactsOut;
  std::string contactsClip;
  std::string contactsHeights;
  CLI::App* contacts =
      app.add_subcommand("contacts", "Detect foot contacts and write the clip with its stride curves as glTF 2.0");
  contacts->add_option("IN", contactsIns, "A humanoid character with a clip; several, or folders, with --out-dir")
      ->required();
  contacts->add_option("--out", contactsOut, "Output .glb, or .gltf with its .bin beside it");
  articula::cli::BatchOptions contactsBatch;
  articula::cli::addBatchOptions(*contacts, contactsBatch);
  contacts->add_option("--clip", contactsClip, "Clip to analyse (default: the first)");
  contacts->add_option("--heights", contactsHeights, "Also write each foot's ankle/toe heights per frame as CSV");
  articula::cli::addConventionOptions(*contacts, conventionArgs);

  BakeArgs bakeArgs;
  std::vector<std::string> bakeIns;
  CLI::App* bake = app.add_subcommand(
      "bake", "Bake a clip through an IK rig (optionally cleaning foot skate) into a reduced clip, as glTF 2.0");
  bake->add_option("IN", bakeIns,
                   "Any file articula-cli info reads, or an .articula project; several, or folders, with --out-dir")
      ->required();
  bake->add_option("--out", bakeArgs.out, "Output .glb, or .gltf with its .bin beside it");
  articula::cli::BatchOptions bakeBatch;
  articula::cli::addBatchOptions(*bake, bakeBatch);
  bake->add_option("--clip", bakeArgs.clip, "Clip to bake (default: the first)");
  bake->add_option("--range", bakeArgs.range, "Frames to bake, FIRST:LAST inclusive (default: all)");
  bake->add_option("--rig", bakeArgs.rig,
                   "auto (the humanoid rig from joint names), a rig JSON file, or project (the input project's "
                   "active rig); default: project for a project with an active rig, else auto");
  bake->add_option("--ground", bakeArgs.ground, "plane (y = 0) or a mesh file the feet stand on (contacts keep)");
  bake->add_option("--contacts", bakeArgs.contacts,
                   "detect: find contacts and hold planted feet (foot-skate cleanup); keep: the clip's stride "
                   "curves as they are");
  bake->add_option("--tolerance", bakeArgs.tolerance,
                   "Largest joint-position error of the reduced keys, model units (default: 1 mm for a character "
                   "1.75 m tall, i.e. 1/1750 of the character's height)");
  bake->add_option("--interpolation", bakeArgs.interpolation,
                   "linear (default): keys joined by lines, played alike by Blender, three.js, Babylon.js and "
                   "engines; cubic: fewer keys as cubic splines, exact in readers that follow the glTF spec "
                   "(three.js, Babylon.js) but not in Blender, whose importer drops the tangents");
  bake->add_flag("--json", bakeArgs.json,
                 "Print one JSON object instead of the summary (interpolation, bytes, keys, maxErrorMm: the "
                 "largest joint error, mm at 1.75 m, as the spec and as Blender play the keys)");
  bake->add_flag("--fewest-bytes", bakeArgs.fewestBytes,
                 "With --interpolation cubic: fit each channel in the form that makes the smallest file (often "
                 "slerps on 16-bit rotations) instead of the fewest keys");
  articula::cli::addFilterOption(*bake, bakeArgs.filters);
  addCompressOption(*bake, bakeArgs.compression);
  bake->add_flag("--keep-source", bakeArgs.keepSource,
                 "Write the source clip too, the baked one beside it as '<clip> baked' (default: in its place)");
  articula::cli::addConventionOptions(*bake, bakeArgs.convention);

  std::string mapPath;
  bool mapJson = false;
  CLI::App* map = app.add_subcommand("map", "Print the humanoid role (hips, spine, limbs) of each joint of a file");
  map->add_option("FILE", mapPath, "Any file articula-cli info reads")->required();
  std::string mapFile;
  map->add_flag("--json", mapJson, "Print the map as a role map file (JSON role → joint name), to edit and reuse");
  map->add_option("--map", mapFile, "Check a role map file against the file's skeleton instead of mapping by names");
  articula::cli::addConventionOptions(*map, conventionArgs);

  articula::cli::RestArgs restArgs;
  CLI::App* rest = articula::cli::addRestCommand(app, restArgs);

  articula::cli::RetargetArgs retargetArgs;
  CLI::App* retarget = articula::cli::addRetargetCommand(app, retargetArgs);
  articula::cli::RootMotionArgs rootMotionArgs;
  CLI::App* rootMotion = articula::cli::addRootMotionCommand(app, rootMotionArgs);
  articula::cli::LoopArgs loopArgs;
  CLI::App* loop = articula::cli::addLoopCommand(app, loopArgs);

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e);
  }
  // Nothing may escape as a crash: a library exception becomes a one-line error.
  try {
    if (*info) return runInfo(infoPath, infoJson, conventionArgs);
    if (*exportCommand) {
      return articula::cli::runFileCommand(
          *exportCommand, exportIns, exportOut, exportBatch, true,
          [&](const std::string& in) {
            return runExport(in, exportOut, exportRig, exportInterpolation, exportCompression, exportJson, exportFilters,
                             conventionArgs);
          });
    }
    if (*contacts) {
      return articula::cli::runFileCommand(
          *contacts, contactsIns, contactsOut, contactsBatch, false,
          [&](const std::string& in) {
            return runContacts(in, contactsOut, contactsClip, contactsHeights, conventionArgs);
          });
    }
    if (*bake) {
      return articula::cli::runFileCommand(*bake, bakeIns, bakeArgs.out, bakeBatch, true, [&](const std::string& in) {
        bakeArgs.in = in;
        return runBake(bakeArgs);
      });
    }
    if (*map) return articula::cli::runMap(mapPath, mapFile, mapJson, conventionArgs);
    if (*retarget) return articula::cli::runRetarget(retargetArgs);
    if (*rootMotion) return articula::cli::runRootMotion(*rootMotion, rootMotionArgs);
    if (*loop) return articula::cli::runLoop(*loop, loopArgs);
    if (*rest) return articula::cli::runRest(restArgs);
  } catch (const std::exception& e) {
    std::cerr << "error: " << e.what() << '\n';
    return 2;
  }
  return 0;
}
