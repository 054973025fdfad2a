#pragma once
#include <QDialog>
#include <QList>

#include <optional>

#include "ui/document/project_session.h"

class QListWidget;
class QPushButton;

namespace articula::ui {

// Offered at start-up when an earlier session left autosaved work behind (it crashed):
// each recovery file with its project (or "Unsaved document") and the time it was written.
// Recover opens the selected one; Discard All deletes them; Not Now keeps them for the
// next start. Tests select and click without showing the dialog.
class RecoveryDialog : public QDialog {
  Q_OBJECT

 public:
  enum class Choice { NotNow, Recover, DiscardAll };

  explicit RecoveryDialog(QList<RecoveryCandidate> candidates, QWidget* parent = nullptr);

  Choice choice() const { return mChoice; }
  // The candidate to recover (Choice::Recover), nullopt otherwise.
  std::optional<RecoveryCandidate> chosen() const;

  QListWidget* candidateList() const { return mList; }
  QPushButton* recoverButton() const { return mRecover; }
  QPushButton* discardButton() const { return mDiscard; }

  // One line for a candidate: what it belongs to and when it was saved.
  static QString describe(const RecoveryCandidate& candidate);

 private:
  const QList<RecoveryCandidate> mCandidates;
  QListWidget* const mList;
  QPushButton* const mRecover;
  QPushButton* const mDiscard;
  Choice mChoice = Choice::NotNow;
};

}  // namespace articula::ui
