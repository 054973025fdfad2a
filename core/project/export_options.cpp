#include "core/project/export_options.h"

#include "core/bake/layer_merge.h"
#include "core/retarget/rest_pose.h"
#include "core/rig/humanoid_map.h"

namespace articula {

GltfExportOptions exportOptionsFor(const Scene& scene) {
  GltfExportOptions options;
  auto map = mapHumanoid(scene.skeleton);
  if (!map) return options;
  auto convention = conventionJobFor(scene, *map).run();
  if (!convention) return options;
  if (convention->upModel.cwiseAbs().maxCoeff() > 0.999f) options.upModel = convention->upModel;
  options.unitsPerMetre = convention->unitsPerMetre;
  return options;
}

}  // namespace articula

namespace articula {
namespace {

// nullopt when `chosen` holds ascending indices of `scene`'s clips.
std::optional<std::string> checkChosenClips(const Scene& scene, const std::vector<int>& chosen) {
  int previous = -1;
  for (const int clip : chosen) {
    if (clip <= previous || clip >= static_cast<int>(scene.clips.size())) {
      return "the chosen clips are not ascending indices of the scene's " + std::to_string(scene.clips.size()) +
             " clips";
    }
    previous = clip;
  }
  return std::nullopt;
}

// The clips of `scene` as the file plays them: each clip's layers merged into its base (the
// stack), then, when `keys` asks for lines, the cubic ones turned into lines.
std::optional<std::string> prepareClips(Scene& scene, const KeyWriteOptions& keys, float toleranceModel,
                                        LinearKeysReport& converted) {
  for (Clip& clip : scene.clips) {
    if (clip.layers.empty()) continue;
    auto flat = flattenLayers(scene.skeleton, clip, toleranceModel);
    if (!flat) return flat.error();
    clip = std::move(*flat);
  }
  if (keys.interpolation != KeyInterpolation::Linear) return std::nullopt;
  LinearKeysJob job;
  job.scene = &scene;
  job.toleranceModel = toleranceModel;
  auto report = job.run();
  if (!report) return report.error();
  converted = *report;
  return std::nullopt;
}

}  // namespace

std::optional<std::string> writeSceneGltf(Scene scene, const std::string& path, const KeyWriteOptions& keys,
                                          GltfExportReport* written, LinearKeysReport* lines) {
  const float toleranceModel =
      keys.toleranceModel > 0.0f ? keys.toleranceModel : kDefaultToleranceOfHeight * scene.characterHeight();
  if (auto error = checkChosenClips(scene, keys.clips)) return path + ": " + *error;
  std::optional<GltfExportOptions> options;
  if (!keys.clips.empty()) {
    std::vector<Clip> all = std::move(scene.clips);
    scene.clips.clear();
    // The up and units come from the first clip as a full export writes it, chosen or not.
    if (keys.clips.front() != 0) {
      Scene first = scene;
      first.clips.push_back(std::move(all.front()));
      LinearKeysReport ignored;
      if (auto error = prepareClips(first, keys, toleranceModel, ignored)) return path + ": " + *error;
      options = exportOptionsFor(first);
    }
    for (const int clip : keys.clips) scene.clips.push_back(std::move(all[static_cast<std::size_t>(clip)]));
  }
  LinearKeysReport converted;
  if (auto error = prepareClips(scene, keys, toleranceModel, converted)) return path + ": " + *error;
  if (!options) options = exportOptionsFor(scene);
  options->compression = keys.compression;
  if (auto error = exportGltf(scene, path, *options, written)) return error;
  if (lines) *lines = converted;
  return std::nullopt;
}

}  // namespace articula
