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

std::optional<std::string> writeSceneGltf(Scene scene, const std::string& path, const KeyWriteOptions& keys,
                                          GltfExportReport* written, LinearKeysReport* lines) {
  const float toleranceModel =
      keys.toleranceModel > 0.0f ? keys.toleranceModel : kDefaultToleranceOfHeight * scene.characterHeight();
  // The file plays the stack: each clip's layers merged into its base.
  for (Clip& clip : scene.clips) {
    if (clip.layers.empty()) continue;
    auto flat = flattenLayers(scene.skeleton, clip, toleranceModel);
    if (!flat) return path + ": " + flat.error();
    clip = std::move(*flat);
  }
  LinearKeysReport converted;
  if (keys.interpolation == KeyInterpolation::Linear) {
    LinearKeysJob job;
    job.scene = &scene;
    job.toleranceModel = toleranceModel;
    auto report = job.run();
    if (!report) return path + ": " + report.error();
    converted = *report;
  }
  GltfExportOptions options = exportOptionsFor(scene);
  options.compression = keys.compression;
  if (auto error = exportGltf(scene, path, options, written)) return error;
  if (lines) *lines = converted;
  return std::nullopt;
}

}  // namespace articula
