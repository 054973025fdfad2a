#include "ui/dialogs/recovery_dialog.h"

#include <QDialogButtonBox>
#include <QFileInfo>
#include <QLabel>
#include <QListWidget>
#include <QLocale>
#include <QPushButton>
#include <QVBoxLayout>

namespace articula::ui {

RecoveryDialog::RecoveryDialog(QList<RecoveryCandidate> candidates, QWidget* parent)
    : QDialog(parent),
      mCandidates(std::move(candidates)),
      mList(new QListWidget(this)),
      mRecover(new QPushButton(tr("&Recover"), this)),
      mDiscard(new QPushButton(tr("&Discard All"), this)) {
  setWindowTitle(tr("Recover Unsaved Work"));
  auto* layout = new QVBoxLayout(this);
  layout->addWidget(new QLabel(tr("Articula did not close normally. Autosaved work can be recovered:"), this));
  for (const RecoveryCandidate& candidate : mCandidates) mList->addItem(describe(candidate));
  mList->setCurrentRow(0);
  layout->addWidget(mList);
  auto* buttons = new QDialogButtonBox(this);
  buttons->addButton(mRecover, QDialogButtonBox::AcceptRole);
  buttons->addButton(mDiscard, QDialogButtonBox::DestructiveRole);
  buttons->addButton(tr("&Not Now"), QDialogButtonBox::RejectRole);
  layout->addWidget(buttons);
  mRecover->setDefault(true);
  connect(mRecover, &QPushButton::clicked, this, [this] {
    mChoice = Choice::Recover;
    accept();
  });
  connect(mDiscard, &QPushButton::clicked, this, [this] {
    mChoice = Choice::DiscardAll;
    accept();
  });
  connect(buttons, &QDialogButtonBox::rejected, this, [this] {
    mChoice = Choice::NotNow;
    reject();
  });
}

std::optional<RecoveryCandidate> RecoveryDialog::chosen() const {
  const int row = mList->currentRow();
  if (mChoice != Choice::Recover || row < 0 || row >= mCandidates.size()) return std::nullopt;
  return mCandidates[row];
}

QString RecoveryDialog::describe(const RecoveryCandidate& candidate) {
  const QString what = candidate.projectPath.isEmpty()
                           ? tr("Unsaved document (%1)").arg(QFileInfo(candidate.recoveryPath).fileName())
                           : QFileInfo(candidate.projectPath).fileName();
  return tr("%1 — autosaved %2").arg(what, QLocale().toString(candidate.savedAt, QLocale::ShortFormat));
}

}  // namespace articula::ui
