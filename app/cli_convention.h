#pragma once
// --up, --facing and --units: the user's override of a capture's convention (what
// CaptureConventionJob would decide from the skeleton and motion), on every command that reads
// it (info, map, export, contacts, bake, retarget).
#include <CLI/CLI.hpp>

#include <optional>
#include <string>

#include "core/scene/scene.h"

namespace articula::cli {

struct ConventionArgs {
  std::string up;      // +X, -X, +Y, -Y, +Z, -Z, or auto
  std::string facing;  // likewise, perpendicular to the up
  std::string units;   // m, dm, cm, mm, in (or their long names), or auto
};

void addConventionOptions(CLI::App& command, ConventionArgs& args);

// Each option given put over `convention` (a project's override, Auto for an asset read from
// `path`): "auto" clears the value. One line naming the file and the option for a value it does
// not take or a facing parallel to the up; `convention` is then unchanged.
std::optional<std::string> applyConventionArgs(const ConventionArgs& args, const std::string& path,
                                               ConventionOverride& convention);

}  // namespace articula::cli
