#include "ui/timeline/clip_seam_text.h"

#include <QCoreApplication>

#include <optional>

#include "core/clipops/loop.h"

namespace articula::ui {
namespace {

QString tr(const char* text) { return QCoreApplication::translate("ClipSeam", text); }

std::optional<SeamScore> seamOf(const Skeleton& skeleton, const Clip& clip) {
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
  if (!seam) return tr("Too short, or nothing moves across the ground: no loop seam to measure.");
  return tr("Loop seam, last frame to first (mm at 1.75 m): pose %1 mm, rotation %2°, velocity jump %3 mm per "
            "frame (the median frame changes %4); travel per cycle %5 mm")
      .arg(seam->poseMm, 0, 'f', 1)
      .arg(seam->rotationDeg, 0, 'f', 1)
      .arg(seam->velocityMm, 0, 'f', 1)
      .arg(seam->medianVelocityChangeMm, 0, 'f', 1)
      .arg(seam->travelMm, 0, 'f', 1);
}

}  // namespace articula::ui
