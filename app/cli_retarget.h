#pragma once
// articula-cli retarget: a humanoid's clips played by another humanoid, written as glTF with
// the character's mesh, skin and own clips.
#include <CLI/CLI.hpp>

#include <optional>
#include <string>

#include "app/cli_convention.h"

namespace articula::cli {

struct RetargetArgs {
  std::string source;     // the file whose clips are put on the character
  std::string character;  // --onto
  std::string out;
  std::string clip;      // one clip of the source (default: all)
  std::string contacts;  // "detect": feet planted on the character by the foot-skate cleanup
  std::string sourceMap;  // role map files (humanoid_map_json.h) in place of the name mapping
  std::string targetMap;
  std::optional<double> tolerance;
  std::string hands;          // "reach": hands IK'd to the source's, scaled by the arms
  std::optional<double> fps;  // resample to this frame rate (default: the source's)
  bool skipFirstFrame = false;  // leave out a clip's first frame where it is a T-pose
  std::string interpolation = "linear";  // of the reduced keys: linear or cubic
  bool json = false;
  ConventionArgs convention;  // the source's up, facing and units when its own would mislead
};

// Adds the retarget subcommand, its options read into `args`.
CLI::App* addRetargetCommand(CLI::App& app, RetargetArgs& args);

// Runs it; returns the exit code (errors: one line on stderr naming the file).
int runRetarget(const RetargetArgs& args);

// articula-cli map FILE [--json] [--map M.json]: the humanoid role of each joint, found by
// names or read from a role map file; --json prints it as a role map file.
int runMap(const std::string& path, const std::string& mapFile, bool json, const ConventionArgs& convention);

}  // namespace articula::cli
