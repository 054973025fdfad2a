#pragma once
// Private to core/io: the clip data glTF has no place for, written by the exporter into each
// animation's extras and read back by the glTF importer. Format (version 1):
//
//   "extras": {"articula": {
//     "version": 1, "frameRate": 30, "startTime": 0, "endTime": 1,
//     "curves": {"contact.left_foot": {"keys": [[t, v, interp, leftType, rightType, lx, ly, rx, ry], ...]}}}}
//
// Times are in the file's time line (seconds, shifted like the animation's keys); `interp` is
// "constant" | "linear" | "bezier", the handle types "free" | "aligned" | "vector" | "auto" |
// "autoClamped"; (lx, ly) and (rx, ry) are the absolute handles. Doubles are written with
// round-trip precision, so the curves come back exactly. Later versions only add fields,
// so a reader ignores the ones it does not know.
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "core/anim/clip.h"
#include "core/io/gltf_tinygltf.h"

namespace articula {

inline constexpr int kArticulaExtrasVersion = 1;

// The "articula" object for `clip`, its times shifted by `timeOffset` seconds.
nlohmann::ordered_json articulaClipExtras(const Clip& clip, double timeOffset);

// Restores frame rate, time range and named curves from an animation's `extras` (the whole
// extras value; files without an "articula" member leave `clip` unchanged). Returns nullopt,
// or a message naming the curve and key at fault.
std::optional<std::string> readArticulaExtras(const tinygltf::Value& extras, Clip& clip);

}  // namespace articula
