// A monkey at the window (issue 38): random clicks, drags, wheel turns and keys on every
// visible part of the editor, with CesiumMan open, for ARTICULA_MONKEY_SECONDS
// (5 by default; the sanitizer part of scripts/test.sh runs it for a minute). Dialogs and
// menus the monkey opens are closed again as a user would (Escape/Cancel). The window must
// survive, stay responsive, and undo everything back to the file as it opened.
// ARTICULA_MONKEY_SEED repeats a run; the seed is printed.
#include <gtest/gtest.h>

#include <QAbstractButton>
#include <QApplication>
#include <QDialog>
#include <QElapsedTimer>
#include <QMenu>
#include <QMessageBox>
#include <QRandomGenerator>
#include <QTest>
#include <QTimer>
#include <QUndoStack>

#include <cstdio>

#include "ui/document/document.h"
#include "ui/main_window.h"
#include "ui_test_support.h"

namespace articula::ui {
namespace {

int environmentNumber(const char* name, int fallback) {
  bool ok = false;
  const int value = qEnvironmentVariableIntValue(name, &ok);
  return ok ? value : fallback;
}

// Closes whatever modal dialog, message box or menu is in front, from a timer, so actions
// that open one (and wait in its event loop) return.
class Dismisser : public QObject {
 public:
  Dismisser() {
    connect(&mTimer, &QTimer::timeout, this, [] {
      if (QWidget* popup = QApplication::activePopupWidget()) popup->close();
      if (auto* dialog = qobject_cast<QDialog*>(QApplication::activeModalWidget())) dialog->reject();
    });
    mTimer.start(30);
  }

 private:
  QTimer mTimer;
};

// The first line where two serialised documents differ ("line N: A | B"), or empty.
std::string firstDifference(const std::string& after, const std::string& expected) {
  const QStringList a = QString::fromStdString(after).split(QLatin1Char('\n'));
  const QStringList b = QString::fromStdString(expected).split(QLatin1Char('\n'));
  for (qsizetype i = 0; i < std::max(a.size(), b.size()); ++i) {
    const QString left = i < a.size() ? a[i].left(300) : QStringLiteral("(none)");
    const QString right = i < b.size() ? b[i].left(300) : QStringLiteral("(none)");
    if (left != right) return QStringLiteral("line %1: %2 | expected %3").arg(i).arg(left, right).toStdString();
  }
  return {};
}

class Monkey {
 public:
  Monkey(MainWindow& window, quint32 seed) : mWindow(window), mRandom(seed) {}

  // One random action on a random visible widget of the window.
  void act() {
    const QList<QWidget*> widgets = visibleWidgets();
    if (widgets.isEmpty()) return;
    QWidget* target = widgets[static_cast<int>(mRandom.bounded(static_cast<quint32>(widgets.size())))];
    const QPoint at(static_cast<int>(mRandom.bounded(static_cast<quint32>(std::max(1, target->width())))),
                    static_cast<int>(mRandom.bounded(static_cast<quint32>(std::max(1, target->height())))));
    switch (mRandom.bounded(6)) {
      case 0:
        QTest::mouseClick(target, button(), modifiers(), at);
        break;
      case 1:
        QTest::mouseDClick(target, Qt::LeftButton, Qt::NoModifier, at);
        break;
      case 2:
        drag(target, at);
        break;
      case 3: {
        QWheelEvent wheel(at, target->mapToGlobal(at), QPoint(), QPoint(0, mRandom.bounded(2) ? 120 : -120),
                          Qt::NoButton, Qt::NoModifier, Qt::NoScrollPhase, false);
        QApplication::sendEvent(target, &wheel);
        break;
      }
      default:
        QTest::keyClick(QApplication::focusWidget() ? QApplication::focusWidget() : target, key(), modifiers());
    }
    QApplication::processEvents();
  }

 private:
  QList<QWidget*> visibleWidgets() const {
    QList<QWidget*> shown;
    for (QWidget* widget : mWindow.findChildren<QWidget*>()) {
      if (widget->isVisible() && widget->window() == &mWindow && widget->width() > 0) shown.push_back(widget);
    }
    return shown;
  }

  void drag(QWidget* target, QPoint from) {
    const Qt::MouseButton pressed = button();
    QTest::mousePress(target, pressed, modifiers(), from);
    QPoint at = from;
    for (int step = 0; step < 5; ++step) {
      at += QPoint(static_cast<int>(mRandom.bounded(41)) - 20, static_cast<int>(mRandom.bounded(41)) - 20);
      QMouseEvent move(QEvent::MouseMove, at, target->mapToGlobal(at), Qt::NoButton, pressed, Qt::NoModifier);
      QApplication::sendEvent(target, &move);
    }
    QTest::mouseRelease(target, pressed, Qt::NoModifier, at);
  }

  Qt::MouseButton button() {
    static constexpr Qt::MouseButton kButtons[] = {Qt::LeftButton, Qt::LeftButton, Qt::RightButton, Qt::MiddleButton};
    return kButtons[mRandom.bounded(4)];
  }

  Qt::KeyboardModifiers modifiers() {
    static const Qt::KeyboardModifiers kModifiers[] = {Qt::NoModifier, Qt::NoModifier, Qt::ShiftModifier,
                                                       Qt::ControlModifier, Qt::AltModifier};
    return kModifiers[mRandom.bounded(5)];
  }

  // Keys an animator presses: tools, keying, playback, frame steps, undo, delete. Quit (Q)
  // and Close (W) are left out with Ctrl: they end the session the monkey is testing.
  Qt::Key key() {
    static constexpr Qt::Key kKeys[] = {Qt::Key_S, Qt::Key_E, Qt::Key_R, Qt::Key_T, Qt::Key_G, Qt::Key_F,
                                        Qt::Key_K, Qt::Key_Z, Qt::Key_Y, Qt::Key_A, Qt::Key_1, Qt::Key_2,
                                        Qt::Key_Space, Qt::Key_Delete, Qt::Key_Left, Qt::Key_Right, Qt::Key_Up,
                                        Qt::Key_Down, Qt::Key_Home, Qt::Key_End, Qt::Key_Escape, Qt::Key_Tab,
                                        Qt::Key_Return, Qt::Key_Period, Qt::Key_Comma, Qt::Key_Minus};
    return kKeys[mRandom.bounded(static_cast<quint32>(std::size(kKeys)))];
  }

  MainWindow& mWindow;
  QRandomGenerator mRandom;
};

TEST(Monkey, RandomInputNeitherCrashesNorHangsAndUndoesBackToTheFile) {
  const int seconds = environmentNumber("ARTICULA_MONKEY_SECONDS", 5);
  const auto seed = static_cast<quint32>(environmentNumber("ARTICULA_MONKEY_SEED", 20261128));
  std::printf("monkey: %d s, ARTICULA_MONKEY_SEED=%u\n", seconds, seed);

  MainWindow window;
  window.setUnsavedChangesPrompt([] { return MainWindow::UnsavedChoice::Discard; });
  ASSERT_TRUE(window.openFile(QString::fromStdString(test::dataPath("gltf/CesiumMan/CesiumMan.glb"))));
  window.resize(1400, 900);
  window.show();
  ASSERT_TRUE(QTest::qWaitForWindowExposed(&window));
  const QString openedPath = window.document()->filePath();
  // The file as it opened, read before the monkey starts: comparing runs no event loop, so a
  // spin box still stepping from the monkey's last press cannot edit between undo and check.
  MainWindow reference;
  ASSERT_TRUE(reference.openFile(openedPath));
  reference.document()->setFrame(0);

  const Dismisser dismisser;
  Monkey monkey(window, seed);
  QElapsedTimer clock;
  clock.start();
  int actions = 0;
  while (clock.elapsed() < seconds * 1000LL && window.isVisible()) {
    monkey.act();
    ++actions;
  }
  std::printf("monkey: %d actions, %d undo steps, %s\n", actions, window.document()->undoStack()->count(),
              qPrintable(window.document()->filePath()));
  ASSERT_TRUE(window.isVisible()) << "the monkey closed the window";

  // Responsive: a queued call runs within a second.
  bool answered = false;
  QTimer::singleShot(0, &window, [&answered] { answered = true; });
  QElapsedTimer wait;
  wait.start();
  while (!answered && wait.elapsed() < 1000) QApplication::processEvents(QEventLoop::AllEvents, 50);
  EXPECT_TRUE(answered) << "the event loop did not come back within a second";

  // Everything the monkey did is undoable, back to the file it opened (when it did not open
  // another one with a drop or a recent-file click, which clears the history).
  if (window.document()->filePath() == openedPath) {
    window.playback()->pause();
    QUndoStack* stack = window.document()->undoStack();
    while (stack->canUndo()) stack->undo();
    window.document()->setFrame(0);
    EXPECT_EQ(firstDifference(test::serializeDocument(*window.document()),
                              test::serializeDocument(*reference.document())),
              "");
  }
}

}  // namespace
}  // namespace articula::ui
