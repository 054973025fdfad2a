#pragma once
// How the CLI and the editor write a scene as glTF, so both write the same file.
#include "core/io/gltf_export.h"
#include "core/scene/scene.h"

namespace articula {

// A humanoid stands up along +Y in the file whatever its own up (a MakeHuman BVH is Z-up),
// when that up is one of the model's axes; any other scene is written as it is. The up is
// the capture convention's (core/retarget/capture_convention.h) over the first clip: the rest
// pose's when it stands in that clip, else the motion's (a rest lying along +X). Its units
// are the convention's too, so a capture in centimetres or inches is metres in the file.
GltfExportOptions exportOptionsFor(const Scene& scene);

}  // namespace articula
