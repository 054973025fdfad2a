#pragma once
// Long work (import, bake, contact detection, export) runs off the GUI thread while a modal
// progress dialog with Cancel keeps the window responsive. The work only reads what it is
// given and returns its result; the caller applies it to the document as one undoable
// command, so a cancelled or failed task changes nothing.
#include <QString>

#include <atomic>
#include <functional>
#include <optional>

class QWidget;

namespace articula::ui {

// Progress shared by the worker (reports) and the GUI (shows, cancels).
class TaskProgress {
 public:
  // Worker side. Returns false once the user has cancelled: the work should stop.
  bool report(int done, int total) {
    mDone.store(done, std::memory_order_relaxed);
    mTotal.store(total, std::memory_order_relaxed);
    return !cancelled();
  }
  bool cancelled() const { return mCancelled.load(std::memory_order_relaxed); }
  void cancel() { mCancelled.store(true, std::memory_order_relaxed); }
  int done() const { return mDone.load(std::memory_order_relaxed); }
  int total() const { return mTotal.load(std::memory_order_relaxed); }

 private:
  std::atomic<int> mDone{0};
  std::atomic<int> mTotal{0};
  std::atomic<bool> mCancelled{false};
};

// Runs `body` on a worker thread and returns once it has finished, showing `label` in a
// progress dialog (after a short delay, so quick work does not flash one) whose Cancel
// calls progress.cancel(). Events keep being processed meanwhile.
void runWithProgressDialog(QWidget* parent, const QString& label, TaskProgress& progress,
                           const std::function<void()>& body);

// The work's result, or nullopt when the user cancelled (whatever the work returned then).
template <typename T>
std::optional<T> runInBackground(QWidget* parent, const QString& label, const std::function<T(TaskProgress&)>& work) {
  TaskProgress progress;
  std::optional<T> result;
  runWithProgressDialog(parent, label, progress, [&] { result.emplace(work(progress)); });
  if (progress.cancelled()) return std::nullopt;
  return result;
}

}  // namespace articula::ui
