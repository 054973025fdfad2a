#pragma once
// How the CLI and the editor write a scene as glTF, so both write the same file.
#include <optional>
#include <string>
#include <vector>

#include "core/bake/key_reduction.h"
#include "core/io/gltf_export.h"
#include "core/project/linear_keys.h"
#include "core/scene/scene.h"

namespace articula {

// A humanoid stands up along +Y in the file whatever its own up (a MakeHuman BVH is Z-up),
// when that up is one of the model's axes; any other scene is written as it is. The up is
// the capture convention's (core/retarget/capture_convention.h) over the first clip: the rest
// pose's when it stands in that clip, else the motion's (a rest lying along +X). Its units
// are the convention's too, so a capture in centimetres or inches is metres in the file.
GltfExportOptions exportOptionsFor(const Scene& scene);

// The keys a written file holds.
struct KeyWriteOptions {
  // Linear (the default): every clip with cubic segments is written as lines (LinearKeysJob),
  // so Blender plays the file as three.js and Babylon.js do. Cubic: clips as they are.
  KeyInterpolation interpolation = KeyInterpolation::Linear;
  // The lines' tolerance, model space; <= 0: the bake's default, kDefaultToleranceOfHeight ×
  // Scene::characterHeight().
  float toleranceModel = 0.0f;
  // The animation data's storage (GltfCompression): core glTF unless asked.
  GltfCompression compression = GltfCompression::None;
  // The clips written: indices into Scene::clips, ascending, each once; empty: every clip.
  // Each is written as a file of every clip writes it, and the file's up and units are the
  // whole scene's (exportOptionsFor reads its first clip, chosen or not).
  std::vector<int> clips = {};
};

// Writes `scene` as glTF to `path` with exportOptionsFor's options and the keys `keys` asks
// for. nullopt on success, else the message (the file at fault, the clip whose lines could
// not be fitted, or a chosen clip out of range). `written` and `lines`, when given, receive what was written and what
// the lines changed (no clip converted with cubic keys).
std::optional<std::string> writeSceneGltf(Scene scene, const std::string& path, const KeyWriteOptions& keys = {},
                                          GltfExportReport* written = nullptr, LinearKeysReport* lines = nullptr);

}  // namespace articula
