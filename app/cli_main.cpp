// articula-cli: the engine without a display, for batch pipelines.
#include <CLI/CLI.hpp>

#include <algorithm>
#include <cctype>
#include <exception>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <optional>
#include <string>

#include "core/bake/contact_detection.h"
#include "core/io/gltf_export.h"
#include "core/io/import.h"
#include "core/io/project_file.h"
#include "core/io/scene_info.h"

namespace {

int runInfo(const std::string& path, bool json) {
  auto scene = articula::loadSceneOrProject(path);
  if (!scene) {
    std::cerr << "error: " << scene.error() << '\n';
    return 1;
  }
  std::cout << (json ? articula::sceneInfoJson(*scene) : articula::sceneInfoText(*scene)) << '\n';
  return 0;
}

// One line on stderr, whatever the library's message holds (pipelines read it line by line).
int fail(std::string message) {
  std::replace(message.begin(), message.end(), '\n', ' ');
  std::cerr << "error: " << message << '\n';
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

// A project for `inPath` written to `outPath`. An asset becomes a project naming it; a project
// keeps its clips and settings, its asset path re-made relative to the new project's folder.
int exportProject(const std::string& inPath, const std::string& outPath) {
  namespace fs = std::filesystem;
  articula::Project project;
  articula::Skeleton skeleton;
  if (fs::path(inPath).extension() == ".articula") {
    auto opened = articula::openProject(inPath);
    if (!opened) return fail(opened.error());
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
  if (auto error = articula::saveProject(outPath, project, skeleton)) return fail(*error);
  std::cout << "wrote " << outPath << ": " << project.clips.size() << " clips\n";
  return 0;
}

int runExport(const std::string& inPath, const std::string& outPath) {
  if (lowerExtension(outPath) == ".articula") return exportProject(inPath, outPath);
  if (checkGltfOutput(outPath)) return fail(outPath + ": the output must end in .glb, .gltf or .articula");
  auto scene = articula::loadSceneOrProject(inPath);
  if (!scene) return fail(scene.error());
  if (auto error = articula::exportGltf(*scene, outPath)) return fail(*error);
  std::cout << "wrote " << outPath << ": " << scene->skeleton.jointCount() << " nodes, " << scene->meshes.size()
            << " meshes, " << scene->clips.size() << " clips\n";
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

// Detects foot contacts on one clip (the first, or `clipName`) and writes the scene with that
// clip alone, its stride curves included, as glTF.
int runContacts(const std::string& inPath, const std::string& outPath, const std::string& clipName,
                const std::string& heightsPath) {
  if (auto error = checkGltfOutput(outPath)) return fail(*error);
  auto scene = articula::loadSceneOrProject(inPath);
  if (!scene) return fail(scene.error());
  if (scene->clips.empty()) return fail(inPath + ": has no animation to find contacts in");
  auto clip = scene->clips.begin();
  if (!clipName.empty()) {
    clip = std::find_if(scene->clips.begin(), scene->clips.end(),
                        [&](const articula::Clip& c) { return c.name == clipName; });
    if (clip == scene->clips.end()) {
      std::string names;
      for (const articula::Clip& c : scene->clips) names.append(names.empty() ? "" : ", ").append(c.name);
      return fail(inPath + ": no clip named '" + clipName + "' (clips: " + names + ")");
    }
  }
  auto feet = articula::humanoidFeet(scene->skeleton);
  if (!feet) return fail(inPath + ": " + feet.error());
  auto detection = articula::detectContacts(*scene, *clip, *feet);
  if (!detection) return fail(inPath + ": " + detection.error());
  if (!heightsPath.empty()) {
    if (auto error = writeHeights(heightsPath, *clip, *detection)) return fail(*error);
  }
  articula::Clip kept = std::move(*clip);
  scene->clips.assign(1, std::move(kept));
  if (auto error = articula::exportGltf(*scene, outPath)) return fail(*error);
  for (const articula::FootContacts& foot : detection->feet) {
    std::cout << foot.curveName << ": " << foot.foot.size() << " contacts";
    for (const articula::ContactInterval& c : foot.foot) std::cout << " [" << c.first << ", " << c.last << "]";
    std::cout << '\n';
  }
  std::cout << "wrote " << outPath << '\n';
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

  std::string exportIn;
  std::string exportOut;
  CLI::App* exportCommand =
      app.add_subcommand("export", "Write a file's scene and clips as glTF 2.0, or as an Articula project");
  exportCommand->add_option("IN", exportIn, "Any file articula-cli info reads")->required();
  exportCommand->add_option("--out", exportOut, "Output .glb, .gltf with its .bin beside it, or .articula")->required();

  std::string contactsIn;
  std::string contactsOut;
  std::string contactsClip;
  std::string contactsHeights;
  CLI::App* contacts =
      app.add_subcommand("contacts", "Detect foot contacts and write the clip with its stride curves as glTF 2.0");
  contacts->add_option("IN", contactsIn, "A humanoid character with a clip")->required();
  contacts->add_option("--out", contactsOut, "Output .glb, or .gltf with its .bin beside it")->required();
  contacts->add_option("--clip", contactsClip, "Clip to analyse (default: the first)");
  contacts->add_option("--heights", contactsHeights, "Also write each foot's ankle/toe heights per frame as CSV");

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e);
  }
  // Nothing may escape as a crash: a library exception becomes a one-line error.
  try {
    if (*info) return runInfo(infoPath, infoJson);
    if (*exportCommand) return runExport(exportIn, exportOut);
    if (*contacts) return runContacts(contactsIn, contactsOut, contactsClip, contactsHeights);
  } catch (const std::exception& e) {
    std::cerr << "error: " << e.what() << '\n';
    return 2;
  }
  return 0;
}
