#include "app/cli_clipops.h"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <iostream>
#include <nlohmann/json.hpp>

#include "core/clipops/loop.h"
#include "core/clipops/scene_ops.h"
#include "core/io/gltf_export.h"
#include "core/project/export_options.h"
#include "core/project/project_file.h"

namespace articula::cli {
namespace {

using Json = nlohmann::json;

int fail(std::string message) {
  std::replace(message.begin(), message.end(), '\n', ' ');
  std::cerr << "error: " << message << '\n';
  return 1;
}

std::optional<std::string> checkGltfOutput(const std::string& path) {
  std::string extension = std::filesystem::path(path).extension().string();
  std::transform(extension.begin(), extension.end(), extension.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  if (extension == ".glb" || extension == ".gltf") return std::nullopt;
  return path + ": the output must end in .glb or .gltf";
}

Result<Scene> load(const std::string& path) {
  std::vector<std::string> warnings;
  auto scene = loadSceneOrProject(path, nullptr, &warnings);
  for (const std::string& warning : warnings) std::cerr << "warning: " << warning << '\n';
  return scene;
}

Json seamJson(const Skeleton& skeleton, const Clip& clip) {
  const std::optional<TravelFrame> frame = travelFrameOf(skeleton, clip);
  if (!frame) return nullptr;
  auto seam = seamScore(skeleton, clip, *frame);
  if (!seam) return nullptr;
  return {{"poseMm", seam->poseMm},
          {"rotationDeg", seam->rotationDeg},
          {"velocityMm", seam->velocityMm},
          {"medianStepMm", seam->medianStepMm},
          {"medianVelocityChangeMm", seam->medianVelocityChangeMm},
          {"travelMm", seam->travelMm},
          {"frames", seam->frames}};
}

// Each clip `clipName` selects (all when empty): name, frames and seam, as the file now holds it.
Json clipsJson(const Scene& scene, const std::string& clipName) {
  Json clips = Json::array();
  for (const Clip& clip : scene.clips) {
    if (!clipName.empty() && clip.name != clipName) continue;
    clips.push_back({{"clip", clip.name}, {"frames", clip.frameCount()}, {"seam", seamJson(scene.skeleton, clip)}});
  }
  return clips;
}

// Loads `in`, runs `operation` on it, writes `out` and prints the report: what each clip's
// seam was before and is after.
template <typename Operation>
int runOne(const std::string& in, const std::string& out, const std::string& clipName, bool json,
           const std::string& done, const Operation& operation) {
  if (auto error = checkGltfOutput(out)) return fail(*error);
  auto scene = load(in);
  if (!scene) return fail(scene.error());
  const Json before = clipsJson(*scene, clipName);
  if (auto error = operation(*scene)) return fail(in + ": " + *error);
  if (auto error = writeSceneGltf(*scene, out)) return fail(*error);
  Json clips = clipsJson(*scene, clipName);
  for (std::size_t i = 0; i < clips.size() && i < before.size(); ++i) clips[i]["seamBefore"] = before[i]["seam"];
  if (json) {
    std::cout << Json{{"out", out}, {"clips", clips}}.dump() << '\n';
    return 0;
  }
  for (const Json& clip : clips) {
    std::cout << done << " '" << clip["clip"].get<std::string>() << "': " << clip["frames"] << " frames";
    if (!clip["seam"].is_null()) {
      std::cout << ", seam " << clip["seam"]["poseMm"].get<double>() << " mm, "
                << clip["seam"]["rotationDeg"].get<double>() << " deg, travel "
                << clip["seam"]["travelMm"].get<double>() << " mm";
    }
    std::cout << '\n';
  }
  std::cout << "wrote " << out << '\n';
  return 0;
}

}  // namespace

CLI::App* addRootMotionCommand(CLI::App& app, RootMotionArgs& args) {
  CLI::App* command = app.add_subcommand(
      "root-motion",
      "Move a humanoid's travel from its hips onto a root joint (or fold it back, or take it out: in "
      "place) and write glTF 2.0");
  command->add_option("IN", args.inputs, "Any file articula-cli info reads; several, or folders, with --out-dir")
      ->required();
  command->add_option("--out", args.out, "Output .glb, or .gltf with its .bin beside it");
  addBatchOptions(*command, args.batch);
  command->add_option("--axes", args.axes,
                      "Translation axes of the travel, as an engine names them: x across, y up, z forward (default "
                      "xz: the ground, whatever the file's up)");
  command->add_flag("--height", args.height, "Take the height too (as y in --axes)");
  command->add_flag("--yaw", args.yaw, "Take the facing too: the hips' turn about up");
  command->add_flag("--in-place", args.inPlace,
                    "Take the travel out instead (a treadmill): the hips end where they start, feet planted on a "
                    "ground moving at the clip's mean speed");
  command->add_flag("--fold", args.fold, "Fold the root's motion back into its children (the inverse)")
      ->excludes("--in-place");
  command->add_option("--root", args.root, "Name of the root joint above the hips (default root; added when missing)");
  command->add_option("--clip", args.clip, "Clip to change (default: every clip)");
  command->add_flag("--json", args.json, "Print one JSON object instead of the summary");
  return command;
}

CLI::App* addLoopCommand(CLI::App& app, LoopArgs& args) {
  CLI::App* command =
      app.add_subcommand("loop", "Make clips cyclic: blend each clip's end into its start, and write glTF 2.0");
  command->add_option("IN", args.inputs, "Any file articula-cli info reads; several, or folders, with --out-dir")
      ->required();
  command->add_option("--out", args.out, "Output .glb, or .gltf with its .bin beside it");
  addBatchOptions(*command, args.batch);
  command->add_option("--blend", args.blend, "Seconds at the end blended into the start (default 0.25)");
  command->add_flag("--drop-end-frame", args.dropEndFrame,
                    "Leave out the last frame, the first one's duplicate (engines that wrap from last to first)");
  command->add_option("--clip", args.clip, "Clip to loop (default: every clip)");
  command->add_flag("--json", args.json, "Print one JSON object instead of the summary");
  return command;
}

int runRootMotion(const CLI::App& command, RootMotionArgs& args) {
  auto axes = parseTravelAxes(args.axes);
  if (!axes) return fail("--" + axes.error());
  axes->y = axes->y || args.height;
  axes->yaw = args.yaw;
  const std::string done = args.fold ? "folded" : args.inPlace ? "in place" : "root motion";
  return runFileCommand(command, args.inputs, args.out, args.batch, true, [&](const std::string& in) {
    return runOne(in, args.out, args.clip, args.json, done, [&](Scene& scene) {
      if (args.fold) return foldRootMotion(scene, args.root, args.clip);
      if (args.inPlace) return makeInPlace(scene, *axes, args.clip);
      return extractRootMotion(scene, {args.root, *axes, args.clip});
    });
  });
}

int runLoop(const CLI::App& command, LoopArgs& args) {
  return runFileCommand(command, args.inputs, args.out, args.batch, true, [&](const std::string& in) {
    return runOne(in, args.out, args.clip, args.json, "looped", [&](Scene& scene) {
      return makeCyclic(scene, {args.blend, !args.dropEndFrame, args.clip});
    });
  });
}

std::string withSeamScores(const std::string& infoJson, const Scene& scene) {
  Json info = Json::parse(infoJson);
  for (std::size_t i = 0; i < scene.clips.size() && i < info["clips"].size(); ++i) {
    info["clips"][i]["seam"] = seamJson(scene.skeleton, scene.clips[i]);
  }
  return info.dump(2);
}

}  // namespace articula::cli
