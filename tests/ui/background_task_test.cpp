// Long work off the GUI thread: the result comes back, progress is shown, Cancel stops the
// work and reports nothing.
#include <gtest/gtest.h>

#include <QProgressDialog>
#include <QPushButton>
#include <QTimer>
#include <QWidget>

#include <chrono>
#include <thread>

#include "ui/tasks/background_task.h"

namespace articula::ui {
namespace {

TEST(BackgroundTask, ReturnsTheResultOfWorkOnAnotherThread) {
  QWidget parent;
  const std::thread::id gui = std::this_thread::get_id();
  const auto result = runInBackground<int>(&parent, QStringLiteral("Counting"), [&](TaskProgress& progress) {
    EXPECT_NE(std::this_thread::get_id(), gui);
    int sum = 0;
    for (int i = 1; i <= 100; ++i) {
      sum += i;
      progress.report(i, 100);
    }
    return sum;
  });
  ASSERT_TRUE(result.has_value());
  EXPECT_EQ(*result, 5050);
}

TEST(BackgroundTask, CancelStopsTheWorkAndGivesNoResult) {
  QWidget parent;
  int steps = 0;
  // Click Cancel, as the user would, once the dialog has appeared.
  QTimer cancelWhenShown;
  QObject::connect(&cancelWhenShown, &QTimer::timeout, &parent, [&] {
    if (auto* dialog = parent.findChild<QProgressDialog*>(QStringLiteral("taskProgressDialog"))) {
      auto* button = dialog->findChild<QPushButton*>();
      if (dialog->isVisible() && button != nullptr) button->click();
    }
  });
  cancelWhenShown.start(20);
  const auto result = runInBackground<int>(&parent, QStringLiteral("Endless"), [&](TaskProgress& progress) {
    // Would take 100 s without the cancel.
    for (steps = 0; steps < 100000; ++steps) {
      if (!progress.report(steps, 100000)) return -1;
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    return steps;
  });
  EXPECT_FALSE(result.has_value());
  EXPECT_LT(steps, 100000);
}

}  // namespace
}  // namespace articula::ui
