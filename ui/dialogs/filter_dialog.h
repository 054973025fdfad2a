#pragma once
#include <QDialog>

#include <vector>

#include "core/clipops/clip_filter.h"
#include "ui/dialogs/clip_preview.h"

class QComboBox;
class QDialogButtonBox;
class QDoubleSpinBox;
class QLabel;
class QSpinBox;

namespace articula::ui {

class Document;

// Animation ▸ Filter…: one filter (Butterworth, peaks, unroll, resample, reduce) on the given
// joints of the current clip over the given frames. While it is open (window-modal) the
// document shows the filtered clip (a ClipPreview, replaced at each change of settings).
// OK pushes it as one undo step; Cancel (or a refused setting, whose one-line reason the
// dialog shows with OK disabled) puts the clip back as it was.
class FilterDialog : public QDialog {
  Q_OBJECT

 public:
  FilterDialog(Document* document, std::vector<int> joints, int firstFrame, int lastFrame, QWidget* parent = nullptr);
  ~FilterDialog() override;

  FilterSettings settings() const;

  QComboBox* kind() const { return mKind; }
  QDoubleSpinBox* cutoffHz() const { return mCutoff; }
  QSpinBox* order() const { return mOrder; }
  QDoubleSpinBox* rateHz() const { return mRate; }
  QDoubleSpinBox* peakFactor() const { return mFactor; }
  QLabel* status() const { return mStatus; }
  QDialogButtonBox* buttons() const { return mButtons; }

  void done(int result) override;

 private:
  void preview();

  Document* const mDocument;
  const int mClipIndex;
  const std::vector<int> mJoints;
  const int mFirstFrame;
  const int mLastFrame;
  QComboBox* const mKind;
  QDoubleSpinBox* const mCutoff;
  QSpinBox* const mOrder;
  QDoubleSpinBox* const mRate;
  QDoubleSpinBox* const mFactor;
  QLabel* const mStatus;
  QDialogButtonBox* const mButtons;
  ClipPreview mPreview;
};

}  // namespace articula::ui
