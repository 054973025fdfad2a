#pragma once
#include <QDialog>

#include "ui/commands/clip_operation_commands.h"
#include "ui/dialogs/clip_preview.h"

class QCheckBox;
class QComboBox;
class QDialogButtonBox;
class QLabel;
class QLineEdit;

namespace articula::ui {

class Document;

// Animation ▸ Root Motion…: the current clip's travel moved from the hips onto the root joint
// above them (which ground axes, height, yaw), or the root's motion folded back into the hips
// (rootMotionClip, the core job of articula-cli root-motion). While it is open (window-modal)
// the document shows the result (a ClipPreview, replaced at each change of settings). OK pushes it as one undo step;
// Cancel (or a refused setting, whose one-line reason the dialog shows with OK disabled) puts the clip back as it was.
class RootMotionDialog : public QDialog {
  Q_OBJECT

 public:
  explicit RootMotionDialog(Document* document, QWidget* parent = nullptr);
  ~RootMotionDialog() override;

  RootMotionChoice choice() const;

  QComboBox* mode() const { return mMode; }
  QLineEdit* rootName() const { return mRootName; }
  QCheckBox* across() const { return mAcross; }
  QCheckBox* forward() const { return mForward; }
  QCheckBox* height() const { return mHeight; }
  QCheckBox* yaw() const { return mYaw; }
  QLabel* status() const { return mStatus; }
  QDialogButtonBox* buttons() const { return mButtons; }

  void done(int result) override;

 private:
  void preview();

  Document* const mDocument;
  const int mClipIndex;
  QComboBox* const mMode;
  QLineEdit* const mRootName;
  QCheckBox* const mAcross;
  QCheckBox* const mForward;
  QCheckBox* const mHeight;
  QCheckBox* const mYaw;
  QLabel* const mStatus;
  QDialogButtonBox* const mButtons;
  ClipPreview mPreview;
};

}  // namespace articula::ui
