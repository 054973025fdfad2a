#pragma once
// Clips as JSON, for the project file (core/io only: this header exposes nlohmann::json).
//
// Joints are written by name, so a project survives an asset whose joints were re-ordered.
// Every key keeps its exact values (doubles and floats round-trip through JSON's shortest
// form), its interpolation, handle types and handles:
//   {"name": "walk", "frame_rate": 30, "start": 0, "end": 1,
//    "tracks": [{"joint": "Hips",
//                "translation": {"x": [[time, value, "bezier", "auto_clamped", "free",
//                                       [lx, ly], [rx, ry]], ...], "y": [...], "z": [...]},
//                "rotation": [[time, [w, x, y, z], "slerp", [in w, x, y, z], [out ...]], ...],
//                "scale": {...}}],
//    "curves": {"contact.left_foot": [[time, value, ...], ...]},
//    "morph_weights": [{"mesh": 0, "weights": [[...keys...], ...]}],
//    "layers": [{"name": "arm fix", "mode": "additive", "weight": [[...keys...]], "muted": false,
//                "solo": false, "locked": false, "tracks": [...as above...]}]}
// Absent channels are not animated; no "layers" (every project before format 3) is a base
// alone. A layer's track naming a joint the asset lacks is kept as an orphan (AnimLayer).
#include <nlohmann/json.hpp>

#include "core/anim/clip.h"
#include "core/skeleton/skeleton.h"
#include "core/util/result.h"

namespace articula {

nlohmann::ordered_json clipToJson(const Clip& clip, const Skeleton& skeleton);

// `where` starts every error message ("project 'a.articula': clips[2]"); errors name the
// field, e.g. "...: tracks[4]: no joint named 'LeftArmX' in the asset".
Result<Clip> clipFromJson(const nlohmann::ordered_json& json, const Skeleton& skeleton, const std::string& where);

}  // namespace articula
