#include "app/cli_rest.h"

#include <algorithm>
#include <iostream>

#include "core/io/gltf_export.h"
#include "core/project/export_options.h"
#include "core/project/project_file.h"
#include "core/retarget/rest_pose.h"
#include "core/rig/humanoid_map.h"

namespace articula::cli {
namespace {

int fail(std::string message) {
  std::replace(message.begin(), message.end(), '\n', ' ');
  std::cerr << "error: " << message << '\n';
  return 1;
}

nlohmann::json vectorJson(const Vec3& v) { return {v.x(), v.y(), v.z()}; }

// The clip named `name` (the first when empty), or nullptr.
const Clip* clipNamed(const Scene& scene, const std::string& name) {
  for (const Clip& clip : scene.clips) {
    if (name.empty() || clip.name == name) return &clip;
  }
  return nullptr;
}

// The rest `args` asks for, or the one-line reason it cannot be made.
Result<Pose> requestedRest(const RestArgs& args, const Scene& scene, const Clip* clip) {
  if (args.frame) {
    if (!clip) return makeError(args.in + ": --frame needs a clip and the file has none");
    const int last = clip->frameCount() - 1;
    if (*args.frame < 0 || *args.frame > last)
      return makeError(args.in + ": --frame " + std::to_string(*args.frame) + " is outside clip '" + clip->name +
                       "' (frames 0-" + std::to_string(last) + ")");
    return poseAtFrame(scene.skeleton, *clip, *args.frame);
  }
  auto map = mapHumanoid(scene.skeleton);
  if (!map) return makeError(args.in + ": --tpose needs a humanoid: " + map.error());
  CaptureConventionJob job;
  job.skeleton = &scene.skeleton;
  job.map = &*map;
  job.clip = clip;
  job.userOverride = scene.convention;
  auto convention = job.run();
  if (!convention) return makeError(args.in + ": " + convention.error());
  const Pose standing = standingReferencePose(scene.skeleton, *map, *convention);
  return tPoseOf(scene.skeleton, *map, standing, convention->upModel, convention->forwardModel.normalized());
}

}  // namespace

CLI::App* addRestCommand(CLI::App& app, RestArgs& args) {
  CLI::App* command = app.add_subcommand(
      "rest", "Set a file's rest pose to a frame or a T-pose without changing its motion; write it as glTF 2.0");
  command->add_option("IN", args.in, "Any file articula-cli info reads")->required();
  command->add_option("--out", args.out, "Output .glb, or .gltf with its .bin beside it")->required();
  auto* frame = command->add_option("--frame", args.frame, "The rest becomes this frame of the clip (from 0)");
  auto* tpose = command->add_flag("--tpose", args.tpose,
                                  "The rest becomes a T-pose: the standing rest (or the rest stood up) with spine "
                                  "up, legs down, arms out to the sides");
  frame->excludes(tpose);
  command->add_option("--clip", args.clip, "The clip --frame counts in (default: the first)");
  return command;
}

int runRest(const RestArgs& args) {
  if (!args.frame && !args.tpose) return fail(args.in + ": rest needs --frame N or --tpose");
  std::string extension = args.out.substr(std::min(args.out.size(), args.out.rfind('.')));
  std::transform(extension.begin(), extension.end(), extension.begin(), [](unsigned char c) { return std::tolower(c); });
  if (extension != ".glb" && extension != ".gltf") return fail(args.out + ": the output must end in .glb or .gltf");
  std::vector<std::string> warnings;
  auto scene = loadSceneOrProject(args.in, nullptr, &warnings);
  for (const std::string& warning : warnings) std::cerr << "warning: " << warning << '\n';
  if (!scene) return fail(scene.error());
  const Clip* clip = clipNamed(*scene, args.clip);
  if (!args.clip.empty() && !clip) return fail(args.in + ": no clip named '" + args.clip + "'");
  auto rest = requestedRest(args, *scene, clip);
  if (!rest) return fail(rest.error());
  RestPoseJob job;
  job.scene = &*scene;
  job.restLocal = *rest;
  const std::size_t keysBefore = [&] {
    std::size_t keys = 0;
    for (const Clip& c : scene->clips) keys += c.keyCount();
    return keys;
  }();
  auto result = job.run();
  if (!result) return fail(args.in + ": " + result.error());
  std::size_t keysAfter = 0;
  for (const Clip& c : result->clips) keysAfter += c.keyCount();
  if (auto error = writeSceneGltf(*result, args.out)) return fail(*error);
  std::cout << "rest set to " << (args.frame ? "frame " + std::to_string(*args.frame) + " of '" + clip->name + "'"
                                             : std::string("a T-pose"))
            << "; " << keysAfter - keysBefore << " keys added to hold channels the clips left at the old rest\n"
            << "wrote " << args.out << '\n';
  return 0;
}

nlohmann::json conventionJson(const Scene& scene) {
  auto map = mapHumanoid(scene.skeleton);
  if (!map) return nullptr;
  const CaptureConventionJob job = conventionJobFor(scene, *map);
  auto c = job.run();
  if (!c) return {{"error", c.error()}};
  return {{"up", vectorJson(c->upModel)},
          {"upDecidedBy", c->upDecidedBy},
          {"forward", vectorJson(c->forwardModel)},
          {"forwardDecidedBy", c->forwardDecidedBy},
          {"restPose", restPoseKindName(c->restKind)},
          {"restPoseDecidedBy", c->restKindDecidedBy},
          {"units", c->units},
          {"unitsPerMetre", c->unitsPerMetre},
          {"unitsDecidedBy", c->unitsDecidedBy},
          {"height", c->heightModel},
          {"floor", c->floorModel},
          {"frameRate", c->frameRate},
          {"frameRateDecidedBy", c->frameRateDecidedBy},
          {"clip", job.clip ? job.clip->name : std::string()}};
}

}  // namespace articula::cli
