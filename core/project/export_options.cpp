#include "core/project/export_options.h"

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
  LinearKeysReport converted;
  if (keys.interpolation == KeyInterpolation::Linear) {
    LinearKeysJob job;
    job.scene = &scene;
    job.toleranceModel =
        keys.toleranceModel > 0.0f ? keys.toleranceModel : kDefaultToleranceOfHeight * scene.characterHeight();
    auto report = job.run();
    if (!report) return path + ": " + report.error();
    converted = *report;
  }
  if (auto error = exportGltf(scene, path, exportOptionsFor(scene), written)) return error;
  if (lines) *lines = converted;
  return std::nullopt;
}

}  // namespace articula
