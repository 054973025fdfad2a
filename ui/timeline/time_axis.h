#pragma once

namespace articula::ui {

// The one mapping between clip time (seconds) and a horizontal pixel position, shared by
// every time-based view (ruler now; dope sheet and curve editor later) so they agree on
// where a frame is drawn. Frames are counted from the clip's start time at its frame rate.
class TimeAxis {
 public:
  // Visible time range [startTime, endTime] spread over pixels [left, right].
  void setRange(double startTime, double endTime);
  void setPixelSpan(double left, double right);
  void setFrameRate(double framesPerSecond);

  double startTime() const { return mStartTime; }
  double endTime() const { return mEndTime; }
  double frameRate() const { return mFrameRate; }
  double left() const { return mLeft; }
  double right() const { return mRight; }

  double timeToPixel(double time) const;
  double pixelToTime(double x) const;
  double frameToPixel(int frame) const;
  // Nearest whole frame under a pixel (not clamped to the range).
  int pixelToFrame(double x) const;
  double pixelsPerFrame() const;

  // Step between labelled frames so labels sit at least `minPixels` apart: 1, 2, 5, 10,
  // 20, 50, ... frames.
  int labelStep(double minPixels) const;

 private:
  double mStartTime = 0.0;
  double mEndTime = 1.0;
  double mFrameRate = 30.0;
  double mLeft = 0.0;
  double mRight = 100.0;
};

}  // namespace articula::ui
