#pragma once
// The loop seam of a clip in the clip list (issue 41): what `articula-cli info --json`
// reports as each clip's "seam" (travelFrameOf, then seamScore), in the editor's words.
#include <QString>

namespace articula {
struct Clip;
class Skeleton;
}  // namespace articula

namespace articula::ui {

// "seam 12.3 mm, 4.5°": how far the last frame's pose is from the first's (mm at 1.75 m, and
// the largest joint rotation in degrees); "no seam" for a clip with fewer than three frames
// or more than 100,000, or that translates no joint of a skeleton with no humanoid.
QString clipSeamText(const Skeleton& skeleton, const Clip& clip);

// The same with the velocity jump at the wrap and the travel per cycle, for a tooltip.
QString clipSeamDetail(const Skeleton& skeleton, const Clip& clip);

// The seam of an edit, before → after, as the clip list shows it with the velocity jump:
// "seam 2876.2 mm, 99.7° → seam 0.0 mm, 0.0°; velocity jump 16.1 → 89.9 mm per frame (the
// median frame changes 128.4)": the jump after beside what one frame of the clip changes.
QString clipSeamChange(const Skeleton& skeleton, const Clip& before, const Clip& after);

}  // namespace articula::ui
