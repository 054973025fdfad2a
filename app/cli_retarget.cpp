#include "app/cli_retarget.h"

#include "app/cli_rest.h"

#include <algorithm>
#include <cmath>
#include <iostream>
#include <nlohmann/json.hpp>

#include "core/bake/key_reduction.h"
#include "core/bake/leading_rest_frame.h"
#include "core/io/gltf_export.h"
#include "core/project/export_options.h"
#include "core/project/humanoid_map_json.h"
#include "core/project/project_file.h"
#include "core/retarget/rest_pose.h"
#include "core/retarget/retarget_clip.h"
#include "core/retarget/retarget_quality.h"
#include "core/rig/humanoid_map.h"
#include "core/rig/humanoid_roles.h"
#include "core/util/message_text.h"

namespace articula::cli {
namespace {

// One printable line under 300 characters, whatever a file's names and data put in it.
int fail(const std::string& message) {
  std::cerr << "error: " << articula::printableLine(articula::jsonErrorInOurWords(message)) << '\n';
  return 1;
}

Result<Scene> loadWithWarnings(const std::string& path, const ConventionArgs& convention = {}) {
  std::vector<std::string> warnings;
  auto scene = loadSceneOrProject(path, nullptr, &warnings);
  for (const std::string& warning : warnings) std::cerr << "warning: " << warning << '\n';
  if (scene) {
    if (auto error = applyConventionArgs(convention, path, scene->convention)) return makeError(*error);
  }
  return scene;
}

// `scene` (characterised: its roles labelled), its rest stood up when it lies down in the clip
// named `clip` (the first when empty); joints and maps stay as they were.
std::optional<std::string> standUp(Scene& scene, const std::string& clip) {
  std::size_t index = 0;
  while (!clip.empty() && index < scene.clips.size() && scene.clips[index].name != clip) ++index;
  auto standing = standUpright(std::move(scene), index);
  if (!standing) return standing.error();
  scene = std::move(standing->scene);
  return std::nullopt;
}

// The file's humanoid map: its skeleton labelled by `mapFile` when given, else by names; or
// the one-line reason naming the file and what it misses.
Result<HumanoidMap> humanoidOf(const std::string& path, Skeleton& skeleton, const std::string& mapFile) {
  if (skeleton.boneCount() == 0)
    return makeError(path + ": not a humanoid: it has no skeleton (no joints) for the hips, spine, legs and arms");
  if (!mapFile.empty()) {
    if (auto error = labelRolesFromFile(mapFile, skeleton)) return makeError(*error);
  }
  auto map = mapHumanoid(skeleton);
  if (!map) return makeError(path + ": not a humanoid: " + map.error());
  return map;
}

// The figures of issue 24's point 3, for a user to judge the result by.
nlohmann::json qualityJson(const RetargetQuality& q) {
  return {{"maxBoneAngleDeg", q.maxBoneAngleDeg},
          {"worstBone", q.worstBone},
          {"worstFrame", q.worstFrame},
          {"legLengthRatio", q.legLengthRatio},
          {"hipDistance", q.hipDistance},
          {"hipDistanceExpected", q.hipDistanceExpected},
          {"hipPath", q.hipPath},
          {"hipPathExpected", q.hipPathExpected},
          {"hipTravelRatioError", q.hipTravelRatioError}};
}

}  // namespace

int runMap(const std::string& path, const std::string& mapFile, bool json, const ConventionArgs& convention) {
  auto scene = loadWithWarnings(path, convention);
  if (!scene) return fail(scene.error());
  auto map = humanoidOf(path, scene->skeleton, mapFile);
  if (!map) return fail(map.error());
  labelRoles(scene->skeleton, *map);
  if (json) {
    auto labels = nlohmann::ordered_json::parse(roleLabelsToJson(scene->skeleton));
    labels["convention"] = conventionJson(*scene);
    std::cout << labels.dump(2) << '\n';
    return 0;
  }
  for (const auto& [role, joint] : roleJoints(*map)) std::cout << role << ": " << scene->skeleton.name(joint) << '\n';
  std::cout << "spine:";
  for (int joint : map->spine) std::cout << ' ' << scene->skeleton.name(joint);
  std::cout << '\n';
  return 0;
}

CLI::App* addRetargetCommand(CLI::App& app, RetargetArgs& args) {
  CLI::App* command = app.add_subcommand(
      "retarget", "Put a humanoid's clips on another humanoid character and write the character as glTF 2.0");
  command->add_option("SOURCE", args.source, "The file whose clips are retargeted (BVH, glTF, FBX, project)")
      ->required();
  command->add_option("--onto", args.character, "The character that plays them (its mesh, skin and clips are kept)")
      ->required();
  command->add_option("--out", args.out, "Output .glb, or .gltf with its .bin beside it")->required();
  command->add_option("--clip", args.clip, "Clip of the source to retarget (default: every clip)");
  command->add_option("--contacts", args.contacts, "detect: plant the character's feet (foot-skate cleanup)");
  command->add_option("--source-map", args.sourceMap,
                      "Role map of the source (JSON role -> joint name, as `map --json` prints) instead of its names");
  command->add_option("--target-map", args.targetMap, "Role map of the character, likewise");
  command->add_option("--tolerance", args.tolerance,
                      "Largest joint-position error of the reduced keys, in the character's units (default: 1 mm "
                      "for a character 1.75 m tall)");
  command->add_option("--hands", args.hands,
                      "reach: each hand reaches for the source's hand position from the hips, scaled by the arms");
  command->add_option("--fps", args.fps, "Frame rate of the retargeted clips (default: the source's)");
  command->add_flag("--skip-first-frame", args.skipFirstFrame,
                    "Leave out a clip's first frame where it is a T-pose: the rest pose held one frame, then left "
                    "at once (as CMU captures start); other clips keep every frame");
  command->add_option("--interpolation", args.interpolation,
                      "linear (default): keys joined by lines, played alike by Blender, three.js, Babylon.js and "
                      "engines; cubic: fewer keys as cubic splines, exact in readers that follow the glTF spec "
                      "(three.js, Babylon.js) but not in Blender, whose importer drops the tangents");
  command->add_flag("--json", args.json,
                    "Print one JSON object instead of the summary (the file's interpolation, bytes and keys; per "
                    "clip its keys and maxErrorMm, the largest joint error in mm at 1.75 m as the spec and as "
                    "Blender play the keys)");
  addConventionOptions(*command, args.convention);
  return command;
}

int runRetarget(const RetargetArgs& args) {
  if (!args.contacts.empty() && args.contacts != "detect")
    return fail("--contacts '" + args.contacts + "': expected detect");
  if (!args.hands.empty() && args.hands != "reach") return fail("--hands '" + args.hands + "': expected reach");
  if (args.fps && !(std::isfinite(*args.fps) && *args.fps > 0.0)) return fail("--fps must be a positive frame rate");
  const auto interpolation = parseKeyInterpolation(args.interpolation);
  if (!interpolation) return fail("--interpolation '" + args.interpolation + "': expected linear or cubic");
  auto source = loadWithWarnings(args.source, args.convention);
  if (!source) return fail(source.error());
  auto character = loadWithWarnings(args.character);
  if (!character) return fail(character.error());
  auto sourceMap = humanoidOf(args.source, source->skeleton, args.sourceMap);
  if (!sourceMap) return fail(sourceMap.error());
  auto characterMap = humanoidOf(args.character, character->skeleton, args.targetMap);
  if (!characterMap) return fail(characterMap.error());
  // Each rest that lies down is stood up (the motion unchanged): retargeting reads rests.
  if (auto error = standUp(*source, args.clip)) return fail(*error);
  if (auto error = standUp(*character, "")) return fail(*error);
  const float tolerance =
      args.tolerance ? static_cast<float>(*args.tolerance) : kDefaultToleranceOfHeight * character->characterHeight();
  if (!std::isfinite(tolerance) || !(tolerance > 0.0f)) return fail("--tolerance must be a positive distance");
  std::vector<const Clip*> clips;
  for (const Clip& clip : source->clips) {
    if (args.clip.empty() || clip.name == args.clip) clips.push_back(&clip);
  }
  if (clips.empty()) {
    return fail(args.source + (args.clip.empty() ? ": has no animation" : ": no clip named '" + args.clip + "'"));
  }
  nlohmann::json written = nlohmann::json::array();
  for (const Clip* clip : clips) {
    const bool skipFirstFrame = args.skipFirstFrame && leadsWithRestFrame(source->skeleton, *clip);
    KeyReductionReport reduction;
    auto retargeted = retargetClip(*source, *sourceMap, *clip, *character, *characterMap,
                                   {tolerance, args.contacts == "detect", args.fps.value_or(0.0), args.hands == "reach",
                                    skipFirstFrame, *interpolation},
                                   &reduction);
    if (!retargeted) return fail(args.source + ": clip '" + clip->name + "': " + retargeted.error());
    retargeted->name = uniqueClipName(character->clips, retargeted->name);
    nlohmann::json report{{"clip", retargeted->name},
                          {"frames", retargeted->frameCount()},
                          {"keys", channelKeyCount(*retargeted)},
                          {"duration", retargeted->duration()},
                          {"frameRate", retargeted->frameRate},
                          {"skippedFirstFrame", skipFirstFrame},
                          {"maxErrorMm", reduction.maxDeviationModel * kReferenceHeightMm /
                                             std::max(character->characterHeight(), 1e-6f)}};
    report.update(
        qualityJson(measureRetarget(source->skeleton, *sourceMap, *clip, character->skeleton, *characterMap,
                                    *retargeted, args.hands == "reach", skipFirstFrame ? 1.0 / clip->frameRate : 0.0)));
    written.push_back(std::move(report));
    character->clips.push_back(std::move(*retargeted));
  }
  GltfExportReport file;
  // The character's own clips are written with the keys asked for too.
  if (auto error = writeSceneGltf(std::move(*character), args.out, {*interpolation}, &file))
    return fail(args.source + ": " + *error);
  if (args.json) {
    std::cout << nlohmann::json{{"out", args.out},
                                {"interpolation", interpolationOf(file)},
                                {"bytes", file.bytes},
                                {"keys", file.keys},
                                {"clips", written}}
                     .dump()
              << '\n';
    return 0;
  }
  for (const auto& clip : written) {
    std::cout << "retargeted '" << clip["clip"].get<std::string>() << "': " << clip["frames"] << " frames"
              << (clip["skippedFirstFrame"].get<bool>() ? " (its T-pose first frame left out)" : "") << ", "
              << clip["keys"] << " keys; bones within " << clip["maxBoneAngleDeg"].get<double>()
              << " deg of the source's, hip travel off by " << 100.0 * clip["hipTravelRatioError"].get<double>()
              << " % of the source's scaled by the legs\n";
  }
  std::cout << "wrote " << args.out << ": " << file.keys << ' ' << interpolationOf(file) << " keys, " << file.bytes
            << " bytes\n";
  return 0;
}

}  // namespace articula::cli
