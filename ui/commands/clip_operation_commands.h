#pragma once
// Animation ▸ Make Loop and Animation ▸ In Place on the current clip (issue 41): the core's
// clip operations (core/clipops/scene_ops.h, as `articula-cli loop` and `root-motion
// --in-place` run them) pushed as one ReplaceClipCommand. Only the current clip changes.
#include <QString>

#include <optional>

namespace articula::ui {

class Document;

// Blends the current clip's end into its start (MakeCyclicJob, 0.25 s, the duplicate end
// frame kept), so it plays as a seamless loop. Returns why not (one line), changing nothing.
std::optional<QString> makeCurrentClipLoop(Document& document);

// Takes the travel across the ground out of the current clip (InPlaceJob on the humanoid's
// hips, IK feet beside them carried along). Returns why not (one line), changing nothing.
std::optional<QString> makeCurrentClipInPlace(Document& document);

}  // namespace articula::ui
