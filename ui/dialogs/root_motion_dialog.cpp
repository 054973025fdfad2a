#include "ui/dialogs/root_motion_dialog.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>

#include <memory>

#include "ui/commands/replace_clip_command.h"
#include "ui/document/document.h"

namespace articula::ui {
namespace {

QCheckBox* checkBox(const QString& text, bool checked, const char* name, QWidget* parent) {
  auto* box = new QCheckBox(text, parent);
  box->setChecked(checked);
  box->setObjectName(QLatin1String(name));
  return box;
}

}  // namespace

RootMotionDialog::RootMotionDialog(Document* document, QWidget* parent)
    : QDialog(parent),
      mDocument(document),
      mClipIndex(document->currentClipIndex()),
      mMode(new QComboBox(this)),
      mRootName(new QLineEdit(QString::fromStdString(defaultRootName(document->scene())), this)),
      mAcross(checkBox(tr("Across (x)"), true, "rootMotionAcross", this)),
      mForward(checkBox(tr("Forward (z)"), true, "rootMotionForward", this)),
      mHeight(checkBox(tr("Height (y)"), false, "rootMotionHeight", this)),
      mYaw(checkBox(tr("Facing (yaw)"), false, "rootMotionYaw", this)),
      mStatus(new QLabel(this)),
      mButtons(new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this)),
      mPreview(document) {
  setObjectName(QStringLiteral("rootMotionDialog"));
  setWindowTitle(tr("Root Motion"));
  mMode->addItem(tr("Move the hips' travel onto the root"));
  mMode->addItem(tr("Fold the root back into the hips"));
  mRootName->setObjectName(QStringLiteral("rootMotionRootName"));
  mStatus->setObjectName(QStringLiteral("rootMotionStatus"));
  mStatus->setWordWrap(true);
  // Room for the longest refusal, so a message never clips as the settings change.
  mStatus->setMinimumHeight(3 * mStatus->fontMetrics().lineSpacing());
  mStatus->setAlignment(Qt::AlignLeft | Qt::AlignTop);

  auto* axes = new QHBoxLayout;
  for (QCheckBox* box : {mAcross, mForward, mHeight, mYaw}) axes->addWidget(box);
  auto* form = new QFormLayout(this);
  form->addRow(tr("Operation"), mMode);
  form->addRow(tr("Root joint"), mRootName);
  form->addRow(tr("Travel"), axes);
  form->addRow(mStatus);
  form->addRow(mButtons);
  connect(mButtons, &QDialogButtonBox::accepted, this, &QDialog::accept);
  connect(mButtons, &QDialogButtonBox::rejected, this, &QDialog::reject);
  connect(mMode, &QComboBox::currentIndexChanged, this, &RootMotionDialog::preview);
  connect(mRootName, &QLineEdit::textChanged, this, &RootMotionDialog::preview);
  for (QCheckBox* box : {mAcross, mForward, mHeight, mYaw})
    connect(box, &QCheckBox::toggled, this, &RootMotionDialog::preview);
  preview();
}

RootMotionDialog::~RootMotionDialog() = default;

RootMotionChoice RootMotionDialog::choice() const {
  RootMotionChoice choice;
  choice.fold = mMode->currentIndex() == 1;
  choice.rootName = mRootName->text().trimmed().toStdString();
  choice.axes = {mAcross->isChecked(), mHeight->isChecked(), mForward->isChecked(), mYaw->isChecked()};
  return choice;
}

void RootMotionDialog::preview() {
  const RootMotionChoice chosen = choice();
  for (QCheckBox* box : {mAcross, mForward, mHeight, mYaw}) box->setEnabled(!chosen.fold);
  mPreview.drop();  // the job reads the clip as the user left it
  Result<Clip> result = rootMotionClip(mDocument->scene(), mClipIndex, chosen);
  mButtons->button(QDialogButtonBox::Ok)->setEnabled(result.ok());
  if (!result) {
    mStatus->setText(QString::fromStdString(result.error()));
    return;
  }
  const QString root = QString::fromStdString(chosen.rootName);
  mStatus->setText(chosen.fold ? tr("'%1' folded back into the hips: the viewport shows the result.").arg(root)
                               : tr("The hips' travel moved onto '%1': the viewport shows the result.").arg(root));
  mPreview.show(std::make_unique<ReplaceClipCommand>(mDocument, mClipIndex, std::move(*result),
                                                     chosen.fold ? tr("Fold Root Motion") : tr("Root Motion")));
}

void RootMotionDialog::done(int result) {
  if (result == QDialog::Accepted) mPreview.apply();
  mPreview.drop();
  QDialog::done(result);
}

}  // namespace articula::ui
