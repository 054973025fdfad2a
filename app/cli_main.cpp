// articula-cli: the engine without a display, for batch pipelines.
#include <CLI/CLI.hpp>

#include <exception>
#include <iostream>
#include <string>

#include "core/io/import.h"
#include "core/io/scene_info.h"

namespace {

int runInfo(const std::string& path, bool json) {
  auto scene = articula::importScene(path);
  if (!scene) {
    std::cerr << "error: " << scene.error() << '\n';
    return 1;
  }
  std::cout << (json ? articula::sceneInfoJson(*scene) : articula::sceneInfoText(*scene)) << '\n';
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"Articula command line: inspect, bake and export skeletal animation"};
  app.require_subcommand(1);

  std::string infoPath;
  bool infoJson = false;
  CLI::App* info = app.add_subcommand("info", "Print the skeleton, meshes and clips of a file");
  info->add_option("FILE", infoPath, "glTF, FBX, Collada, BVH or any file Assimp opens")->required();
  info->add_flag("--json", infoJson, "Print one JSON object instead of text");

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e);
  }
  // Nothing may escape as a crash: a library exception becomes a one-line error.
  try {
    if (*info) return runInfo(infoPath, infoJson);
  } catch (const std::exception& e) {
    std::cerr << "error: " << e.what() << '\n';
    return 2;
  }
  return 0;
}
