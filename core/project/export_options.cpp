#include "core/project/export_options.h"

#include "core/retarget/rest_pose.h"
#include "core/rig/humanoid_map.h"

namespace articula {

GltfExportOptions exportOptionsFor(const Scene& scene) {
  GltfExportOptions options;
  auto map = mapHumanoid(scene.skeleton);
  if (!map) return options;
  CaptureConventionJob job;
  job.skeleton = &scene.skeleton;
  job.map = &*map;
  job.clip = conventionClip(scene);
  auto convention = job.run();
  if (!convention) return options;
  if (convention->upModel.cwiseAbs().maxCoeff() > 0.999f) options.upModel = convention->upModel;
  options.unitsPerMetre = convention->unitsPerMetre;
  return options;
}

}  // namespace articula
