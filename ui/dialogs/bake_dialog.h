#pragma once
#include <QDialog>

#include <vector>

#include "core/bake/bake_pipeline.h"
#include "core/project/project_file.h"

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QSpinBox;

namespace articula::ui {

// Animation ▸ Bake: the frame range, step, key tolerance, whether to detect the foot
// contacts (and plant the feet) or keep the clip's stride curves, root motion, the keys'
// interpolation (linear, which every reader plays alike, or cubic, which Blender does not)
// and, for cubic keys, whether they are fitted for the fewest keys or the smallest file. It edits
// the project's bake settings, so the next bake starts from the last one.
class BakeDialog : public QDialog {
  Q_OBJECT

 public:
  // `frameCount`: frames of the clip to bake (the range's bounds).
  BakeDialog(const ProjectBakeSettings& settings, int frameCount, QWidget* parent = nullptr);

  ProjectBakeSettings settings() const;

  // Shows, under the settings, what the last foot-skate cleanup did (cleanupReportText);
  // nothing when `feet` is empty.
  void showLastCleanup(const std::vector<FootCleanupSummary>& feet, float mmPerModelUnit);

  QSpinBox* firstFrame() const { return mFirst; }
  QSpinBox* lastFrame() const { return mLast; }
  QSpinBox* step() const { return mStep; }
  QDoubleSpinBox* toleranceMm() const { return mTolerance; }
  QComboBox* contacts() const { return mContacts; }
  QCheckBox* rootMotion() const { return mRootMotion; }
  QComboBox* interpolation() const { return mInterpolation; }
  QCheckBox* fewestBytes() const { return mFewestBytes; }
  QLabel* lastCleanup() const { return mLastCleanup; }

 private:
  QSpinBox* const mFirst;
  QSpinBox* const mLast;
  QSpinBox* const mStep;
  QDoubleSpinBox* const mTolerance;
  QComboBox* const mContacts;
  QCheckBox* const mRootMotion;
  QComboBox* const mInterpolation;
  QCheckBox* const mFewestBytes;
  QLabel* const mLastCleanup;
};

// One line per foot of a cleanup report (BakePipelineResult::feet), for a user to act on: the
// planted spans held, the slide per span before → after (mean and largest, mm for a
// character 1.75 m tall: `mmPerModelUnit` = 1750 / its height in model units) and the
// frames where the leg could not reach its held foot.
QString cleanupReportText(const std::vector<FootCleanupSummary>& feet, float mmPerModelUnit);

}  // namespace articula::ui
