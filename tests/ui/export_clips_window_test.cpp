// File ▸ Export glTF… writes the clips the user checks (issue 41): every clip at first, and
// each chosen clip exactly as a file of every clip holds it.
#include <gtest/gtest.h>

#include <QAction>
#include <QApplication>
#include <QCoreApplication>
#include <QDialogButtonBox>
#include <QDir>
#include <QFile>
#include <QFileDialog>
#include <QLineEdit>
#include <QListWidget>
#include <QPushButton>
#include <QTimer>

#include <functional>
#include <string>
#include <vector>

#include "core/io/import.h"
#include "ui/dialogs/export_clips_dialog.h"
#include "ui/document/document.h"
#include "ui/main_window.h"
#include "ui_test_support.h"

namespace articula::ui {
namespace {

// Answers the next modal dialog of type `Dialog` with `answer` as soon as it shows (polled:
// the window opens it in its own event loop).
template <class Dialog>
void answerWhenShown(QObject* context, std::function<void(Dialog&)> answer) {
  auto* poll = new QTimer(context);
  QObject::connect(poll, &QTimer::timeout, context, [poll, answer = std::move(answer)] {
    auto* dialog = qobject_cast<Dialog*>(QApplication::activeModalWidget());
    if (dialog == nullptr) return;
    poll->stop();
    poll->deleteLater();
    answer(*dialog);
  });
  poll->start(20);
}

QString temporaryGlb(const char* stem) {
  return QDir::temp().filePath(
      QStringLiteral("%1_%2.glb").arg(QLatin1String(stem)).arg(QCoreApplication::applicationPid()));
}

// The first difference between two clips' keys (times and values, every channel), or "".
std::string keyDifference(const Clip& a, const Clip& b) {
  if (a.tracks.size() != b.tracks.size()) return "track count";
  for (std::size_t t = 0; t < a.tracks.size(); ++t) {
    const JointTrack& x = a.tracks[t];
    const JointTrack& y = b.tracks[t];
    if (x.joint != y.joint) return "track joints";
    for (const auto& [cx, cy] : {std::pair{&x.translation.x, &y.translation.x},
                                 {&x.translation.y, &y.translation.y},
                                 {&x.translation.z, &y.translation.z},
                                 {&x.scale.x, &y.scale.x},
                                 {&x.scale.y, &y.scale.y},
                                 {&x.scale.z, &y.scale.z}}) {
      if (cx->size() != cy->size()) return "key count of joint " + std::to_string(x.joint);
      for (std::size_t k = 0; k < cx->size(); ++k) {
        if (cx->keys()[k].time != cy->keys()[k].time || cx->keys()[k].value != cy->keys()[k].value)
          return "a key of joint " + std::to_string(x.joint);
      }
    }
    if (x.rotation.size() != y.rotation.size()) return "rotation key count of joint " + std::to_string(x.joint);
    for (std::size_t k = 0; k < x.rotation.size(); ++k) {
      if (x.rotation.keys()[k].time != y.rotation.keys()[k].time ||
          x.rotation.keys()[k].value.coeffs() != y.rotation.keys()[k].value.coeffs())
        return "a rotation key of joint " + std::to_string(x.joint);
    }
  }
  return {};
}

const Clip* clipNamed(const Scene& scene, const std::string& name) {
  for (const Clip& clip : scene.clips) {
    if (clip.name == name) return &clip;
  }
  return nullptr;
}

// RobotExpressive's 14 clips, all checked at first; the user keeps Death, Walking and Wave
// (not the first clip, Dance, which gives the file its up): the file holds those three, each
// key for key as the full export holds it.
TEST(ExportClipsWindow, TheFileHoldsExactlyTheCheckedClipsAsAFullExportWritesThem) {
  // Opened from a copy: the file dialog suggests a name beside the file opened.
  const QString copy = temporaryGlb("export_clips_source");
  QFile::remove(copy);
  ASSERT_TRUE(QFile::copy(QString::fromStdString(test::dataPath("gltf/RobotExpressive/RobotExpressive.glb")), copy));
  MainWindow window;
  ASSERT_TRUE(window.openFile(copy));
  QFile::remove(copy);
  const Scene& scene = window.document()->scene();
  ASSERT_EQ(scene.clips.size(), 14u);
  const std::vector<std::string> kept = {"Death", "Walking", "Wave"};
  const QString chosenPath = temporaryGlb("export_chosen_clips");
  bool allCheckedAtFirst = true;
  bool noneRefused = false;
  answerWhenShown<ExportClipsDialog>(&window, [&](ExportClipsDialog& dialog) {
    QListWidget& list = *dialog.clipList();
    for (int row = 0; row < list.count(); ++row)
      allCheckedAtFirst = allCheckedAtFirst && list.item(row)->checkState() == Qt::Checked;
    dialog.findChild<QPushButton*>(QStringLiteral("exportNoClips"))->click();
    noneRefused = !dialog.buttons()->button(QDialogButtonBox::Ok)->isEnabled();
    for (int row = 0; row < list.count(); ++row) {
      const std::string& name = scene.clips[static_cast<std::size_t>(row)].name;
      if (std::ranges::find(kept, name) != kept.end()) list.item(row)->setCheckState(Qt::Checked);
    }
    answerWhenShown<QFileDialog>(&window, [&](QFileDialog& files) {
      // Typed as the user types it (selectFile waits for the folder model).
      files.findChild<QLineEdit*>(QStringLiteral("fileNameEdit"))->setText(chosenPath);
      static_cast<QDialog&>(files).accept();  // QFileDialog's own accept, through QDialog's public one
    });
    dialog.buttons()->button(QDialogButtonBox::Ok)->click();
  });
  window.findChild<QAction*>(QStringLiteral("actionExportGltf"))->trigger();
  EXPECT_TRUE(allCheckedAtFirst) << "every clip by default";
  EXPECT_TRUE(noneRefused) << "OK is disabled with no clip checked";

  Result<Scene> chosen = importScene(chosenPath.toStdString());
  QFile::remove(chosenPath);
  ASSERT_TRUE(chosen.ok()) << chosen.error();
  const QString fullPath = temporaryGlb("export_every_clip");
  ASSERT_TRUE(window.exportGltfTo(fullPath));
  Result<Scene> full = importScene(fullPath.toStdString());
  QFile::remove(fullPath);
  ASSERT_TRUE(full.ok()) << full.error();
  ASSERT_EQ(full->clips.size(), 14u);

  ASSERT_EQ(chosen->clips.size(), kept.size());
  for (std::size_t c = 0; c < kept.size(); ++c) {
    EXPECT_EQ(chosen->clips[c].name, kept[c]);
    const Clip* whole = clipNamed(*full, kept[c]);
    ASSERT_NE(whole, nullptr) << kept[c];
    EXPECT_EQ(keyDifference(chosen->clips[c], *whole), "") << kept[c];
  }
}

}  // namespace
}  // namespace articula::ui
