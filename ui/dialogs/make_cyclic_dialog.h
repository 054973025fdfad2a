#pragma once
#include <QDialog>

#include "core/clipops/scene_ops.h"
#include "ui/dialogs/clip_preview.h"

class QComboBox;
class QDialogButtonBox;
class QDoubleSpinBox;
class QLabel;

namespace articula::ui {

class Document;

// Animation ▸ Make Cyclic…: the current clip's end blended into its start over a span (in
// seconds or frames), its duplicate end frame kept or dropped as the target engine expects
// (cyclicClip, the core job of articula-cli loop). The seam before → after shows as the clip
// list shows it. While it is open (window-modal) the viewport shows the result (a ClipPreview,
// replaced at each change). OK pushes it as one undo step; Cancel puts the clip back as it was;
// a refused setting (a span longer than the clip, a clip of one frame) shows its one-line
// reason with OK disabled.
class MakeCyclicDialog : public QDialog {
  Q_OBJECT

 public:
  // Which unit the span is in (the unit box's index).
  enum SpanUnit { Seconds = 0, Frames = 1 };
  // What happens to the duplicate end frame (the end-frame box's index).
  enum EndFrame { Kept = 0, Dropped = 1 };

  explicit MakeCyclicDialog(Document* document, QWidget* parent = nullptr);
  ~MakeCyclicDialog() override;

  CyclicOptions options() const;

  QDoubleSpinBox* span() const { return mSpan; }
  QComboBox* spanUnit() const { return mSpanUnit; }
  QComboBox* endFrame() const { return mEndFrame; }
  QLabel* seam() const { return mSeam; }
  QLabel* status() const { return mStatus; }
  QDialogButtonBox* buttons() const { return mButtons; }

  void done(int result) override;

 private:
  void convertSpan();
  void preview();

  Document* const mDocument;
  const int mClipIndex;
  const double mFrameRate;  // the clip's, frames per second
  QDoubleSpinBox* const mSpan;
  QComboBox* const mSpanUnit;
  QComboBox* const mEndFrame;
  QLabel* const mSeam;
  QLabel* const mStatus;
  QDialogButtonBox* const mButtons;
  ClipPreview mPreview;
};

}  // namespace articula::ui
