#pragma once
// articula-cli rest: a file's rest pose set to a frame of its clip or to a T-pose, its motion
// unchanged; and the capture convention (up, facing, units, frame rate, rest-pose kind) that
// info --json and map --json report.
#include <CLI/CLI.hpp>

#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "core/scene/scene.h"

namespace articula::cli {

struct RestArgs {
  std::string in;
  std::string out;
  std::string clip;          // the clip --frame counts in and the convention is read from
  std::optional<int> frame;  // --frame N
  bool tpose = false;        // --tpose
};

CLI::App* addRestCommand(CLI::App& app, RestArgs& args);

// Runs it; returns the exit code (errors: one line on stderr naming the file, nothing written).
int runRest(const RestArgs& args);

// The convention of `scene`'s first clip as JSON (each value beside how it was decided);
// null when the skeleton is not a humanoid, {"error": ...} when it cannot be decided.
nlohmann::json conventionJson(const Scene& scene);

}  // namespace articula::cli
