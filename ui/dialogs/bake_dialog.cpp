#include "ui/dialogs/bake_dialog.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QLabel>
#include <QPushButton>
#include <QSpinBox>

#include <algorithm>

namespace articula::ui {

BakeDialog::BakeDialog(const ProjectBakeSettings& settings, int frameCount, QWidget* parent)
    : QDialog(parent),
      mFirst(new QSpinBox(this)),
      mLast(new QSpinBox(this)),
      mStep(new QSpinBox(this)),
      mTolerance(new QDoubleSpinBox(this)),
      mContacts(new QComboBox(this)),
      mRootMotion(new QCheckBox(tr("Keep root motion"), this)),
      mInterpolation(new QComboBox(this)),
      mFewestBytes(new QCheckBox(tr("Smallest file (more keys, each often smaller)"), this)),
      mLastCleanup(new QLabel(this)) {
  setObjectName(QStringLiteral("bakeDialog"));
  setWindowTitle(tr("Bake Animation"));
  const int lastFrame = std::max(frameCount - 1, 0);
  mFirst->setRange(0, lastFrame);
  mLast->setRange(0, lastFrame);
  mFirst->setValue(std::clamp(settings.firstFrame, 0, lastFrame));
  mLast->setValue(settings.lastFrame < 0 ? lastFrame : std::clamp(settings.lastFrame, 0, lastFrame));
  // The range stays ordered whichever end the user moves.
  connect(mFirst, &QSpinBox::valueChanged, this, [this](int first) {
    if (mLast->value() < first) mLast->setValue(first);
  });
  connect(mLast, &QSpinBox::valueChanged, this, [this](int last) {
    if (mFirst->value() > last) mFirst->setValue(last);
  });
  mStep->setRange(1, 100);
  mStep->setValue(std::max(settings.step, 1));
  // Millimetres for a character 1.75 m tall, as `bake --help` states it; the project keeps
  // the share of the height, which 1.00 mm gives exactly (1/1750).
  mTolerance->setRange(0.01, 175.0);
  mTolerance->setDecimals(2);
  mTolerance->setSingleStep(0.25);
  mTolerance->setSuffix(tr(" mm at 1.75 m"));
  mTolerance->setValue(static_cast<double>(settings.toleranceRelative) * kReferenceHeightMm);
  mTolerance->setToolTip(
      tr("Largest joint-position error of the reduced keys, scaled to a character 1.75 m tall "
         "(1 mm by default); a taller or shorter character gets the same share of its height"));
  mContacts->addItem(tr("Keep the clip's stride curves"));
  mContacts->addItem(tr("Detect contacts and plant the feet"));
  mContacts->setCurrentIndex(settings.detectContacts ? 1 : 0);
  mRootMotion->setChecked(settings.rootMotion);
  mInterpolation->addItem(tr("Linear: plays alike in Blender, three.js, Babylon.js and engines"));
  mInterpolation->addItem(tr("Cubic: fewer keys, for three.js, Babylon.js and engines, not Blender"));
  mInterpolation->setCurrentIndex(settings.cubicKeys ? 1 : 0);
  mInterpolation->setToolTip(
      tr("Linear keys are held within the tolerance both as the glTF spec plays them (slerp) and as Blender "
         "does (per component); safe for every reader. Cubic keys are exact in readers that follow the spec, "
         "but Blender's importer drops their tangents: there the motion strays by centimetres and planted feet "
         "slide"));
  mFewestBytes->setChecked(settings.fewestBytes);
  mFewestBytes->setEnabled(settings.cubicKeys);
  mFewestBytes->setToolTip(
      tr("With cubic keys: fit each channel in the form that makes the smallest glTF file (often slerps on "
         "16-bit rotations) instead of the fewest keys; the same key tolerance holds"));
  connect(mInterpolation, &QComboBox::currentIndexChanged, this,
          [this](int index) { mFewestBytes->setEnabled(index == 1); });

  auto* form = new QFormLayout(this);
  form->addRow(tr("First frame"), mFirst);
  form->addRow(tr("Last frame"), mLast);
  form->addRow(tr("Key every"), mStep);
  form->addRow(tr("Key tolerance"), mTolerance);
  form->addRow(tr("Foot contacts"), mContacts);
  form->addRow(mRootMotion);
  form->addRow(tr("Keys"), mInterpolation);
  form->addRow(mFewestBytes);
  mLastCleanup->setObjectName(QStringLiteral("lastCleanup"));
  mLastCleanup->setTextInteractionFlags(Qt::TextSelectableByMouse);
  mLastCleanup->hide();
  form->addRow(mLastCleanup);
  auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
  buttons->button(QDialogButtonBox::Ok)->setText(tr("Bake"));
  connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
  connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
  form->addRow(buttons);
}

ProjectBakeSettings BakeDialog::settings() const {
  ProjectBakeSettings settings;
  settings.firstFrame = mFirst->value();
  settings.lastFrame = mLast->value();
  settings.step = mStep->value();
  settings.toleranceRelative = static_cast<float>(mTolerance->value() / kReferenceHeightMm);
  settings.detectContacts = mContacts->currentIndex() == 1;
  settings.rootMotion = mRootMotion->isChecked();
  settings.fewestBytes = mFewestBytes->isChecked();
  settings.cubicKeys = mInterpolation->currentIndex() == 1;
  return settings;
}

void BakeDialog::showLastCleanup(const std::vector<FootCleanupSummary>& feet, float mmPerModelUnit) {
  mLastCleanup->setText(tr("Last cleanup:\n%1").arg(cleanupReportText(feet, mmPerModelUnit)));
  mLastCleanup->setVisible(!feet.empty());
}

namespace {

// Mean and largest of `slides` (model units) in mm, as "mean (largest)".
QString meanAndLargestMm(const std::vector<float>& slides, float mmPerModelUnit) {
  if (slides.empty()) return QStringLiteral("–");
  double sum = 0.0, largest = 0.0;
  for (const float s : slides) {
    sum += static_cast<double>(s * mmPerModelUnit);
    largest = std::max(largest, static_cast<double>(s * mmPerModelUnit));
  }
  return QStringLiteral("%1 (%2)").arg(sum / static_cast<double>(slides.size()), 0, 'f', 2).arg(largest, 0, 'f', 2);
}

}  // namespace

QString cleanupReportText(const std::vector<FootCleanupSummary>& feet, float mmPerModelUnit) {
  QStringList lines;
  for (const FootCleanupSummary& foot : feet) {
    QString line =
        BakeDialog::tr("%1: %n span(s) held, slide per span %2 → %3 mm", nullptr, static_cast<int>(foot.spans.size()))
            .arg(QString::fromStdString(foot.curveName), meanAndLargestMm(foot.slideBeforeModel, mmPerModelUnit),
                 meanAndLargestMm(foot.slideAfterModel, mmPerModelUnit));
    if (foot.unreachedFrames.empty()) {
      line += BakeDialog::tr(", every frame reached");
    } else {
      QStringList frames;
      for (const int f : foot.unreachedFrames) frames << QString::number(f);
      line += BakeDialog::tr(", unreached at frame(s) %1").arg(frames.join(QStringLiteral(", ")));
    }
    lines << line;
  }
  return lines.join(QLatin1Char('\n'));
}

}  // namespace articula::ui
