#include "ui/tasks/background_task.h"

#include <QEventLoop>
#include <QProgressDialog>
#include <QTimer>

#include <thread>

namespace articula::ui {

namespace {
constexpr int kPollMilliseconds = 30;
constexpr int kDialogDelayMilliseconds = 400;
}  // namespace

void runWithProgressDialog(QWidget* parent, const QString& label, TaskProgress& progress,
                           const std::function<void()>& body) {
  std::atomic<bool> finished{false};
  std::thread worker([&] {
    body();
    finished.store(true, std::memory_order_release);
  });

  QProgressDialog dialog(label, QObject::tr("Cancel"), 0, 0, parent);
  dialog.setObjectName(QStringLiteral("taskProgressDialog"));
  dialog.setWindowModality(Qt::WindowModal);
  dialog.setMinimumDuration(kDialogDelayMilliseconds);
  dialog.setAutoClose(false);
  dialog.setAutoReset(false);

  QEventLoop loop;
  QTimer poll;
  // A modal QProgressDialog processes events inside setValue(); the guard keeps this poll
  // from re-entering itself through them.
  bool updating = false;
  QObject::connect(&poll, &QTimer::timeout, &loop, [&] {
    // A cancel the user asked for counts even when the work has just finished: its result is
    // then discarded, as the user expects.
    if (dialog.wasCanceled() && !progress.cancelled()) {
      progress.cancel();
      dialog.setLabelText(QObject::tr("Cancelling…"));
    }
    if (finished.load(std::memory_order_acquire)) {
      loop.quit();
      return;
    }
    if (updating || progress.cancelled()) return;  // cancelled: the worker is winding down
    updating = true;
    const int total = progress.total();
    if (total > 0 && dialog.maximum() != total) dialog.setMaximum(total);
    if (total > 0) dialog.setValue(std::min(progress.done(), total - 1));
    updating = false;
  });
  poll.start(kPollMilliseconds);
  if (!finished.load(std::memory_order_acquire)) loop.exec();
  poll.stop();
  worker.join();
}

}  // namespace articula::ui
