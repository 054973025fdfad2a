#include "ui/dialogs/filter_dialog.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QLabel>
#include <QPushButton>
#include <QSpinBox>

#include <memory>

#include "core/bake/key_reduction.h"
#include "core/clipops/butterworth.h"
#include "ui/commands/replace_clip_command.h"
#include "ui/document/document.h"

namespace articula::ui {
namespace {

QDoubleSpinBox* spinBox(double min, double max, double value, const QString& suffix, QWidget* parent) {
  auto* box = new QDoubleSpinBox(parent);
  box->setRange(min, max);
  box->setDecimals(2);
  box->setValue(value);
  box->setSuffix(suffix);
  return box;
}

// What a filter did, in one line.
QString reportText(const FilterReport& report) {
  QString text = FilterDialog::tr("%1 joints, %2 channels, frames %3–%4: keys %5 → %6")
                     .arg(report.joints)
                     .arg(report.channels)
                     .arg(report.firstFrame)
                     .arg(report.lastFrame)
                     .arg(report.keysBefore)
                     .arg(report.keysAfter);
  if (report.filter.starts_with("peaks")) text += FilterDialog::tr(", %1 spikes replaced").arg(report.framesChanged);
  if (report.filter == "unroll") text += FilterDialog::tr(", %1 keys flipped").arg(report.framesChanged);
  return text;
}

}  // namespace

FilterDialog::FilterDialog(Document* document, std::vector<int> joints, int firstFrame, int lastFrame, QWidget* parent)
    : QDialog(parent),
      mDocument(document),
      mClipIndex(document->currentClipIndex()),
      mJoints(std::move(joints)),
      mFirstFrame(firstFrame),
      mLastFrame(lastFrame),
      mKind(new QComboBox(this)),
      mCutoff(spinBox(0.1, 1000.0, 6.0, tr(" Hz"), this)),
      mOrder(new QSpinBox(this)),
      mRate(spinBox(1.0, 1000.0, 30.0, tr(" fps"), this)),
      mFactor(spinBox(1.5, 1000.0, 10.0, tr(" × median"), this)),
      mStatus(new QLabel(this)),
      mButtons(new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this)),
      mPreview(document) {
  setObjectName(QStringLiteral("filterDialog"));
  setWindowTitle(tr("Filter"));
  mKind->addItem(tr("Butterworth (zero-phase low-pass)"), int(FilterKind::Butterworth));
  mKind->addItem(tr("Peak removal (single-frame spikes)"), int(FilterKind::Peaks));
  mKind->addItem(tr("Unroll (rotation sign flips)"), int(FilterKind::Unroll));
  mKind->addItem(tr("Resample"), int(FilterKind::Resample));
  mKind->addItem(tr("Key reduction (1 mm at 1.75 m)"), int(FilterKind::Reduce));
  mOrder->setRange(1, kMaxButterworthOrder);
  mOrder->setValue(2);
  mStatus->setWordWrap(true);
  mStatus->setObjectName(QStringLiteral("filterStatus"));

  auto* form = new QFormLayout(this);
  form->addRow(tr("Filter"), mKind);
  form->addRow(tr("Cutoff"), mCutoff);
  form->addRow(tr("Order"), mOrder);
  form->addRow(tr("Rate"), mRate);
  form->addRow(tr("Spike above"), mFactor);
  form->addRow(mStatus);
  form->addRow(mButtons);
  connect(mButtons, &QDialogButtonBox::accepted, this, &QDialog::accept);
  connect(mButtons, &QDialogButtonBox::rejected, this, &QDialog::reject);
  connect(mKind, &QComboBox::currentIndexChanged, this, &FilterDialog::preview);
  connect(mCutoff, &QDoubleSpinBox::valueChanged, this, &FilterDialog::preview);
  connect(mOrder, &QSpinBox::valueChanged, this, &FilterDialog::preview);
  connect(mRate, &QDoubleSpinBox::valueChanged, this, &FilterDialog::preview);
  connect(mFactor, &QDoubleSpinBox::valueChanged, this, &FilterDialog::preview);
  preview();
}

FilterDialog::~FilterDialog() = default;

FilterSettings FilterDialog::settings() const {
  FilterSettings settings;
  settings.kind = static_cast<FilterKind>(mKind->currentData().toInt());
  settings.cutoffHz = mCutoff->value();
  settings.order = mOrder->value();
  settings.rateHz = mRate->value();
  settings.peakFactor = mFactor->value();
  settings.toleranceModel = kDefaultToleranceOfHeight * mDocument->scene().characterHeight();
  return settings;
}

void FilterDialog::preview() {
  const FilterSettings s = settings();
  mCutoff->setEnabled(s.kind == FilterKind::Butterworth);
  mOrder->setEnabled(s.kind == FilterKind::Butterworth);
  mRate->setEnabled(s.kind == FilterKind::Resample);
  mFactor->setEnabled(s.kind == FilterKind::Peaks);
  mPreview.drop();  // the job reads the clip as the user left it
  const auto& clips = mDocument->scene().clips;
  Result<FilterResult> result = makeError(tr("no clip to filter").toStdString());
  if (mClipIndex >= 0 && mClipIndex < static_cast<int>(clips.size())) {
    ClipFilterJob job;
    job.skeleton = &mDocument->scene().skeleton;
    job.clip = &clips[static_cast<std::size_t>(mClipIndex)];
    job.joints = mJoints;
    job.firstFrame = mFirstFrame;
    job.lastFrame = mLastFrame;
    job.settings = s;
    result = job.run();
  }
  mButtons->button(QDialogButtonBox::Ok)->setEnabled(result.ok());
  if (!result) {
    mStatus->setText(QString::fromStdString(result.error()));
    return;
  }
  mStatus->setText(reportText(result->report));
  mPreview.show(
      std::make_unique<ReplaceClipCommand>(mDocument, mClipIndex, std::move(result->clip),
                                           tr("Filter (%1)").arg(QString::fromStdString(result->report.filter))));
}

void FilterDialog::done(int result) {
  if (result == QDialog::Accepted) mPreview.apply();
  mPreview.drop();
  QDialog::done(result);
}

}  // namespace articula::ui
