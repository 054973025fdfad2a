#pragma once
// What exportGltf refuses before writing a byte, beyond the scene's own consistency: values
// that the file would hold as something else (a double beyond float range becomes ±Infinity,
// which glTF forbids), inverse bind matrices no engine can use, and key times outside a sane
// range (a time of 1e308 s becomes an infinite float), a skin listing a joint twice and a
// normal too long to normalise. The Khronos validator flagged each of these as an error in
// files Articula once wrote with exit status 0.
#include <optional>
#include <string>

#include "core/scene/scene.h"

namespace articula {

// Longest time a key may sit from zero: a day. Float key times have about 8 ms of resolution
// there; further out keys could not land on frames.
inline constexpr double kMaxExportKeyTimeSeconds = 86'400.0;

// nullopt when every value fits; otherwise one line naming the node, mesh, material or clip,
// and the value at fault.
std::optional<std::string> findUnwritableValue(const Scene& scene);

}  // namespace articula
