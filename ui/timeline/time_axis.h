#pragma once

namespace articula::ui {

// The one mapping between clip time (seconds) and a horizontal pixel position, shared by
// every time-based view (ruler and dope sheet; the curve editor keeps one in step with its
// plot) so they agree on where a frame is drawn. Frames are counted from the origin (the
// clip's start time) at its frame rate, whichever part of the clip is in view.
class TimeAxis {
 public:
  // Visible time range [startTime, endTime] spread over pixels [left, right].
  void setRange(double startTime, double endTime);
  void setPixelSpan(double left, double right);
  void setFrameRate(double framesPerSecond);
  // Time of frame 0.
  void setOrigin(double originTime);

  // Time zoom: the visible range shrinks (factor < 1) or grows around the time under pixel
  // `x`, which stays under it; never narrower than 4 frames.
  void zoomAt(double x, double factor);
  // Time pan: the visible range moves by `dx` pixels (content follows the mouse).
  void panBy(double dx);
  double startTime() const { return mStartTime; }
  double endTime() const { return mEndTime; }
  double frameRate() const { return mFrameRate; }
  double origin() const { return mOriginTime; }
  double left() const { return mLeft; }
  double right() const { return mRight; }

  double timeToPixel(double time) const;
  double pixelToTime(double x) const;
  double frameToPixel(int frame) const;
  // Nearest whole frame under a pixel (not clamped to the range).
  int pixelToFrame(double x) const;
  double pixelsPerFrame() const;

  // Step between labelled frames so labels sit at least `minPixels` apart: 1, 2, 5, 10,
  // 20, 50, ... frames, up to 5e17 frames (a range no clip reaches).
  long long labelStep(double minPixels) const;
  // The frame under pixel `x`, unrounded, and clamped to [0, lastFrame]; 0 when the mapping
  // has no finite answer (a range at -1e38 s that floating point cannot tell apart).
  double frameAtPixel(double x, double lastFrame) const;

 private:
  double mStartTime = 0.0;
  double mEndTime = 1.0;
  double mFrameRate = 30.0;
  double mOriginTime = 0.0;
  double mLeft = 0.0;
  double mRight = 100.0;
};

}  // namespace articula::ui
