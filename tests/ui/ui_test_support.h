#pragma once
#include <QAction>
#include <QImage>
#include <QRect>
#include <QTimer>
#include <QWidget>
#include <QtGlobal>

#include <filesystem>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "core/scene/scene.h"
#include "core/util/result.h"
#include "ui/timeline/playback_controller.h"

class QUndoCommand;

namespace articula::ui {
class Document;
class MainWindow;
class Viewport;
}  // namespace articula::ui

namespace articula::ui::test {

std::string dataPath(const std::string& relative);

// Every file under tests/data the importers read (.glb .gltf .bvh .fbx .dae), sorted.
std::vector<std::filesystem::path> importableTestFiles();

// The document's editable state as text: joint names and parents, the current clip's keys
// (every channel, with handles and interpolation), the rigs (as rig JSON), which rig is
// active and enabled, the pose overrides and the evaluated
// local pose at the current time. Two documents that serialise equally hold the same edit
// state, so undo tests compare "before" and "after undo" with one string comparison.
// Floats are printed with 6 significant digits so float noise of a redo does not count.
std::string serializeDocument(const Document& document);

// Pushes `command` on the document's stack, then checks do → a changed state, undo → the
// original, redo → the changed state again (serialised documents); returns the state after
// redo.
std::string expectUndoable(Document& document, QUndoCommand* command);

// What the window's File ▸ Export writes, read back by the importer: exported to a
// temporary .glb named after `stem`, which is removed again. Fails with the importer's
// message, or with "export failed" when the window refused to write.
Result<Scene> exportedThroughTheWindow(MainWindow& window, const std::string& stem);

// A modal dialog as the animator meets it: `open` shows a `Dialog` child of `window` (an
// action that calls exec()); `use` runs on it while it is shown and may close it; Cancel
// closes it afterwards if it is still open. Returns whether the dialog opened.
template <class Dialog>
bool useDialog(QWidget& window, const std::function<void()>& open, const std::function<void(Dialog&)>& use) {
  bool used = false;
  QTimer::singleShot(0, &window, [&] {
    auto* dialog = window.findChild<Dialog*>();
    if (!dialog) return;
    use(*dialog);
    used = true;
    if (dialog->isVisible()) dialog->reject();
  });
  open();
  return used;
}

// The window-modal dialog a menu action opens (Animation ▸ Root Motion…, Make Cyclic…):
// triggers `window`'s action named `actionName` and returns the `Dialog` it shows, or null
// (a closed one waits for its deferred delete, so only a visible one counts).
template <class Dialog>
Dialog* dialogOpenedBy(QWidget& window, const char* actionName) {
  auto* action = window.findChild<QAction*>(QLatin1String(actionName));
  if (action == nullptr) return nullptr;
  action->trigger();
  for (Dialog* dialog : window.findChildren<Dialog*>()) {
    if (dialog->isVisible()) return dialog;
  }
  return nullptr;
}

// A clip without joint keys or layers (as New Clip makes one, timed as the current clip),
// added after the current one through the undo stack and made current.
void addClipWithoutKeys(Document& document);

// Index of the clip named `name` in the document's scene, or -1.
int clipIndexNamed(const Document& document, const std::string& name);

// A clock the test moves by hand, for PlaybackController::setClock.
class FakeClock {
 public:
  PlaybackController::Clock clock() const;
  void advanceSeconds(double seconds);

 private:
  std::shared_ptr<qint64> mNanoseconds = std::make_shared<qint64>(0);
};

// Variance of the pixels' luminance (0..255 scale) inside `region` of `image`.
double luminanceVariance(const QImage& image, const QRect& region);
// Fraction of pixels inside `region` whose colour differs between the two images.
double changedPixelFraction(const QImage& a, const QImage& b, const QRect& region);

// Processes events until the viewport has drawn a frame with working shaders (or 10 s).
// Returns false, with the viewport's GL error in `error`, when it could not.
bool waitForRenderedFrame(const Viewport& viewport, std::string* error);

}  // namespace articula::ui::test
