#include "core/project/export_options.h"

#include "core/rig/humanoid_rig.h"

namespace articula {

GltfExportOptions exportOptionsFor(const Scene& scene) {
  GltfExportOptions options;
  auto map = mapHumanoid(scene.skeleton);
  if (!map) return options;
  auto frame = humanoidFrame(scene.skeleton, *map);
  if (frame && frame->upModel.cwiseAbs().maxCoeff() > 0.999f) options.upModel = frame->upModel;
  return options;
}

}  // namespace articula
