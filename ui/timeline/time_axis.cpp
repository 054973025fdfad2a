#include "ui/timeline/time_axis.h"

#include <algorithm>
#include <cmath>

namespace articula::ui {

void TimeAxis::setRange(double startTime, double endTime) {
  mStartTime = startTime;
  // A clip with a single key has no duration; keep the mapping invertible.
  mEndTime = std::max(endTime, startTime + 1e-6);
}

void TimeAxis::setPixelSpan(double left, double right) {
  mLeft = left;
  mRight = std::max(right, left + 1.0);
}

void TimeAxis::setFrameRate(double framesPerSecond) { mFrameRate = framesPerSecond > 0.0 ? framesPerSecond : 30.0; }

void TimeAxis::setOrigin(double originTime) { mOriginTime = originTime; }

void TimeAxis::zoomAt(double x, double factor) {
  const double anchor = pixelToTime(x);
  const double span = std::max((mEndTime - mStartTime) * factor, 4.0 / mFrameRate);
  const double share = (x - mLeft) / (mRight - mLeft);
  setRange(anchor - share * span, anchor + (1.0 - share) * span);
}

void TimeAxis::panBy(double dx) {
  const double seconds = dx / (mRight - mLeft) * (mEndTime - mStartTime);
  setRange(mStartTime - seconds, mEndTime - seconds);
}

double TimeAxis::timeToPixel(double time) const {
  return mLeft + (time - mStartTime) / (mEndTime - mStartTime) * (mRight - mLeft);
}

double TimeAxis::pixelToTime(double x) const {
  return mStartTime + (x - mLeft) / (mRight - mLeft) * (mEndTime - mStartTime);
}

double TimeAxis::frameToPixel(int frame) const { return timeToPixel(mOriginTime + frame / mFrameRate); }

int TimeAxis::pixelToFrame(double x) const {
  return static_cast<int>(std::lround((pixelToTime(x) - mOriginTime) * mFrameRate));
}

double TimeAxis::pixelsPerFrame() const { return (mRight - mLeft) / ((mEndTime - mStartTime) * mFrameRate); }

long long TimeAxis::labelStep(double minPixels) const {
  const double perFrame = pixelsPerFrame();
  for (long long decade = 1;; decade *= 10) {
    for (long long factor : {1, 2, 5}) {
      const long long step = factor * decade;
      if (static_cast<double>(step) * perFrame >= minPixels || decade >= 100000000000000000LL) return step;
    }
  }
}

double TimeAxis::frameAtPixel(double x, double lastFrame) const {
  const double frame = (pixelToTime(x) - mOriginTime) * mFrameRate;
  return std::isfinite(frame) ? std::clamp(frame, 0.0, std::max(lastFrame, 0.0)) : 0.0;
}

}  // namespace articula::ui
