#pragma once
#include <QDialog>

#include "core/project/project_file.h"

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QSpinBox;

namespace articula::ui {

// Animation ▸ Bake: the frame range, step, key tolerance, whether to detect the foot
// contacts (and plant the feet) or keep the clip's stride curves, and root motion. It edits
// the project's bake settings, so the next bake starts from the last one.
class BakeDialog : public QDialog {
  Q_OBJECT

 public:
  // `frameCount`: frames of the clip to bake (the range's bounds).
  BakeDialog(const ProjectBakeSettings& settings, int frameCount, QWidget* parent = nullptr);

  ProjectBakeSettings settings() const;

  QSpinBox* firstFrame() const { return mFirst; }
  QSpinBox* lastFrame() const { return mLast; }
  QSpinBox* step() const { return mStep; }
  QDoubleSpinBox* tolerancePercent() const { return mTolerance; }
  QComboBox* contacts() const { return mContacts; }
  QCheckBox* rootMotion() const { return mRootMotion; }

 private:
  QSpinBox* const mFirst;
  QSpinBox* const mLast;
  QSpinBox* const mStep;
  QDoubleSpinBox* const mTolerance;
  QComboBox* const mContacts;
  QCheckBox* const mRootMotion;
};

}  // namespace articula::ui
