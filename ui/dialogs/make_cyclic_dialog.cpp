#include "ui/dialogs/make_cyclic_dialog.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QSignalBlocker>

#include <cmath>
#include <memory>

#include "ui/commands/clip_operation_commands.h"
#include "ui/commands/replace_clip_command.h"
#include "ui/document/document.h"
#include "ui/timeline/clip_seam_text.h"

namespace articula::ui {
namespace {

// Wide enough that a span longer than any clip can be typed and refused in words, not clamped.
constexpr double kLongestSpan = 1.0e6;

QLabel* wrappingLabel(const char* name, int lines, QWidget* parent) {
  auto* label = new QLabel(parent);
  label->setObjectName(QLatin1String(name));
  label->setWordWrap(true);
  // Room for the longest text, so the dialog does not jump as the settings change.
  label->setMinimumHeight(lines * label->fontMetrics().lineSpacing());
  label->setAlignment(Qt::AlignLeft | Qt::AlignTop);
  return label;
}

}  // namespace

MakeCyclicDialog::MakeCyclicDialog(Document* document, QWidget* parent)
    : QDialog(parent),
      mDocument(document),
      mClipIndex(document->currentClipIndex()),
      mFrameRate(document->currentClip() != nullptr ? document->currentClip()->frameRate : 0.0),
      mSpan(new QDoubleSpinBox(this)),
      mSpanUnit(new QComboBox(this)),
      mEndFrame(new QComboBox(this)),
      mSeam(wrappingLabel("cyclicSeam", 2, this)),
      mStatus(wrappingLabel("cyclicStatus", 3, this)),
      mButtons(new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this)),
      mPreview(document) {
  setObjectName(QStringLiteral("makeCyclicDialog"));
  setWindowTitle(tr("Make Cyclic"));
  mSpan->setObjectName(QStringLiteral("cyclicSpan"));
  mSpan->setRange(0.0, kLongestSpan);
  mSpan->setDecimals(3);
  mSpan->setSingleStep(0.05);
  mSpan->setValue(CyclicOptions{}.blendSeconds);
  mSpanUnit->setObjectName(QStringLiteral("cyclicSpanUnit"));
  mSpanUnit->addItem(tr("s"));
  mSpanUnit->addItem(tr("frames"));
  mEndFrame->setObjectName(QStringLiteral("cyclicEndFrame"));
  mEndFrame->addItem(tr("Kept: the last frame repeats the first (glTF players: three.js, Babylon.js, Blender)"));
  mEndFrame->addItem(tr("Dropped: the engine wraps from the last frame to the first itself"));

  auto* span = new QHBoxLayout;
  span->addWidget(mSpan, 1);
  span->addWidget(mSpanUnit);
  auto* form = new QFormLayout(this);
  form->addRow(tr("Blend span"), span);
  form->addRow(tr("End frame"), mEndFrame);
  form->addRow(tr("Seam"), mSeam);
  form->addRow(mStatus);
  form->addRow(mButtons);
  connect(mButtons, &QDialogButtonBox::accepted, this, &QDialog::accept);
  connect(mButtons, &QDialogButtonBox::rejected, this, &QDialog::reject);
  connect(mSpan, &QDoubleSpinBox::valueChanged, this, &MakeCyclicDialog::preview);
  connect(mSpanUnit, &QComboBox::currentIndexChanged, this, &MakeCyclicDialog::convertSpan);
  connect(mEndFrame, &QComboBox::currentIndexChanged, this, &MakeCyclicDialog::preview);
  preview();
}

MakeCyclicDialog::~MakeCyclicDialog() = default;

CyclicOptions MakeCyclicDialog::options() const {
  CyclicOptions options;
  const bool inFrames = mSpanUnit->currentIndex() == Frames;
  options.blendSeconds = inFrames ? (mFrameRate > 0.0 ? mSpan->value() / mFrameRate : 0.0) : mSpan->value();
  options.keepEndFrame = mEndFrame->currentIndex() == Kept;
  return options;
}

void MakeCyclicDialog::convertSpan() {
  // The same span in the other unit: frames are whole.
  const bool inFrames = mSpanUnit->currentIndex() == Frames;
  {
    const QSignalBlocker blocker(mSpan);
    const double value = mSpan->value();
    mSpan->setDecimals(inFrames ? 0 : 3);
    mSpan->setSingleStep(inFrames ? 1.0 : 0.05);
    mSpan->setValue(inFrames ? std::round(value * mFrameRate) : value / mFrameRate);
  }
  preview();
}

void MakeCyclicDialog::preview() {
  mPreview.drop();  // the job reads the clip as the user left it
  Result<Clip> result = cyclicClip(mDocument->scene(), mClipIndex, options());
  mButtons->button(QDialogButtonBox::Ok)->setEnabled(result.ok());
  const Clip* before = mDocument->currentClip();
  if (!result) {
    mSeam->setText(before != nullptr ? clipSeamText(mDocument->scene().skeleton, *before) : QString());
    mStatus->setText(QString::fromStdString(result.error()));
    return;
  }
  mSeam->setText(clipSeamChange(mDocument->scene().skeleton, *before, *result));
  mStatus->setText(tr("The end blends into the start: the viewport shows the loop."));
  mPreview.show(std::make_unique<ReplaceClipCommand>(mDocument, mClipIndex, std::move(*result), tr("Make Cyclic")));
}

void MakeCyclicDialog::done(int result) {
  if (result == QDialog::Accepted) mPreview.apply();
  mPreview.drop();
  QDialog::done(result);
}

}  // namespace articula::ui
