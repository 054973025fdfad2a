#pragma once
// A Scene as bytes, for the Assimp import child process (import_child.cpp) to hand its
// result back to the parent. Every field of Scene is kept, floats bit for bit, except that
// rotation keys go back in through RotationTrack::setKeys, which renormalises them (an ulp).
// The form is private to one build on one machine: no versioning, native byte order.
#include <string>
#include <string_view>

#include "core/scene/scene.h"
#include "core/util/result.h"

namespace articula {

std::string encodeSceneBinary(const Scene& scene);

// The scene, or a message saying where the bytes stop making sense (a truncated or corrupted
// stream: a child killed mid-write). Counts are checked against the bytes left before
// anything is allocated.
Result<Scene> decodeSceneBinary(std::string_view bytes);

}  // namespace articula
