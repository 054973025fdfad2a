#pragma once
// articula-cli's game-ready clip commands: root-motion (travel onto a root joint, folded back,
// or taken out: in place) and loop (Make Cyclic), each over files or folders like bake, and
// the seam score that info --json shows per clip.
#include <CLI/CLI.hpp>

#include <optional>
#include <string>
#include <vector>

#include "app/cli_batch.h"
#include "core/scene/scene.h"

namespace articula::cli {

struct RootMotionArgs {
  std::vector<std::string> inputs;
  std::string out;
  BatchOptions batch;
  std::string axes = "xz";
  bool height = false;
  bool yaw = false;
  bool inPlace = false;
  bool fold = false;
  std::string root = "root";
  std::string clip;
  bool json = false;
};

struct LoopArgs {
  std::vector<std::string> inputs;
  std::string out;
  BatchOptions batch;
  double blend = 0.25;
  bool dropEndFrame = false;
  std::string clip;
  bool json = false;
};

CLI::App* addRootMotionCommand(CLI::App& app, RootMotionArgs& args);
CLI::App* addLoopCommand(CLI::App& app, LoopArgs& args);

// Run the parsed command over its inputs (runFileCommand); returns the exit code.
int runRootMotion(const CLI::App& command, RootMotionArgs& args);
int runLoop(const CLI::App& command, LoopArgs& args);

// `infoJson` (sceneInfoJson of `scene`) with each clip's seam score added as "seam" (null
// for a clip of fewer than three frames).
std::string withSeamScores(const std::string& infoJson, const Scene& scene);

}  // namespace articula::cli
