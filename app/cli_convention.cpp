#include "app/cli_convention.h"

#include <tuple>

#include "core/retarget/capture_convention.h"

namespace articula::cli {

void addConventionOptions(CLI::App& command, ConventionArgs& args) {
  command.add_option("--up", args.up,
                     "The capture's up: +X, -X, +Y, -Y, +Z or -Z (default auto: from the rest pose and the motion)");
  command.add_option("--facing", args.facing,
                     "The way the figure faces, an axis perpendicular to the up (default auto: the thighs' "
                     "left-to-right line crossed with the up)");
  command.add_option("--units", args.units,
                     "The capture's length unit: m, dm, cm, mm or in (default auto: from the figure's height)");
}

std::optional<std::string> applyConventionArgs(const ConventionArgs& args, const std::string& path,
                                               ConventionOverride& result) {
  ConventionOverride convention = result;
  for (const auto& [option, text, axis] : {std::tuple{"--up", &args.up, &convention.upModel},
                                           std::tuple{"--facing", &args.facing, &convention.forwardModel}}) {
    if (text->empty()) continue;
    *axis = *text == "auto" ? std::nullopt : axisFromName(*text);
    if (*text != "auto" && !*axis)
      return path + ": " + option + " '" + *text + "': expected +X, -X, +Y, -Y, +Z, -Z or auto";
  }
  if (!args.units.empty()) {
    convention.unitsPerMetre = args.units == "auto" ? std::nullopt : unitsPerMetreFromName(args.units);
    if (args.units != "auto" && !convention.unitsPerMetre)
      return path + ": --units '" + args.units + "': expected m, dm, cm, mm, in or auto";
  }
  if (auto error = checkOverride(convention)) return path + ": " + *error;
  result = convention;
  return std::nullopt;
}

}  // namespace articula::cli
