#include "ui/timeline/clip_seam_text.h"

#include <QCoreApplication>

#include <optional>

#include "core/clipops/loop.h"

namespace articula::ui {
namespace {

QString tr(const char* text) { return QCoreApplication::translate("ClipSeam", text); }

// The seam samples every frame (its median step): beyond this a clip is not measured, so an
// edit of a very long clip (or a hostile range of 2^31 frames) does not stall or run out of memory.
constexpr int kMaxMeasuredFrames = 100000;

std::optional<SeamScore> seamOf(const Skeleton& skeleton, const Clip& clip) {
  if (clip.frameCount() > kMaxMeasuredFrames) return std::nullopt;
  const std::optional<TravelFrame> frame = travelFrameOf(skeleton, clip);
  if (!frame) return std::nullopt;
  Result<SeamScore> seam = seamScore(skeleton, clip, *frame);
  if (!seam) return std::nullopt;
  return *seam;
}

}  // namespace

QString clipSeamText(const Skeleton& skeleton, const Clip& clip) {
  const std::optional<SeamScore> seam = seamOf(skeleton, clip);
  if (!seam) return tr("no seam");
  return tr("seam %1 mm, %2°").arg(seam->poseMm, 0, 'f', 1).arg(seam->rotationDeg, 0, 'f', 1);
}

QString clipSeamDetail(const Skeleton& skeleton, const Clip& clip) {
  const std::optional<SeamScore> seam = seamOf(skeleton, clip);
  if (!seam) {
    return tr("No loop seam measured: fewer than three frames, more than 100,000, or no joint that travels.");
  }
  return tr("Loop seam, last frame to first (mm at 1.75 m): pose %1 mm, rotation %2°, velocity jump %3 mm per "
            "frame (the median frame changes %4); travel per cycle %5 mm")
      .arg(seam->poseMm, 0, 'f', 1)
      .arg(seam->rotationDeg, 0, 'f', 1)
      .arg(seam->velocityMm, 0, 'f', 1)
      .arg(seam->medianVelocityChangeMm, 0, 'f', 1)
      .arg(seam->travelMm, 0, 'f', 1);
}

QString clipSeamChange(const Skeleton& skeleton, const Clip& before, const Clip& after) {
  const QString change = tr("%1 → %2").arg(clipSeamText(skeleton, before), clipSeamText(skeleton, after));
  const std::optional<SeamScore> was = seamOf(skeleton, before);
  const std::optional<SeamScore> now = seamOf(skeleton, after);
  if (!was || !now) return change;
  return tr("%1; velocity jump %2 → %3 mm per frame (the median frame changes %4)")
      .arg(change)
      .arg(was->velocityMm, 0, 'f', 1)
      .arg(now->velocityMm, 0, 'f', 1)
      .arg(now->medianVelocityChangeMm, 0, 'f', 1);
}

}  // namespace articula::ui
