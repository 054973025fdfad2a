#pragma once
// How the CLI and the editor write a scene as glTF, so both write the same file.
#include "core/io/gltf_export.h"
#include "core/scene/scene.h"

namespace articula {

// A humanoid stands up along +Y in the file whatever its own up (a MakeHuman BVH is Z-up),
// when that up is one of the model's axes; any other scene is written as it is.
GltfExportOptions exportOptionsFor(const Scene& scene);

}  // namespace articula
