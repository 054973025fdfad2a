#include "ui/commands/clip_operation_commands.h"

#include <QCoreApplication>
#include <QUndoStack>

#include <functional>

#include "core/clipops/scene_ops.h"
#include "ui/commands/replace_clip_command.h"
#include "ui/document/document.h"

namespace articula::ui {
namespace {

QString tr(const char* text) { return QCoreApplication::translate("ClipOperations", text); }

// Runs `operation` on a copy of the scene holding the current clip alone (so a clip sharing
// its name is not touched) and pushes the clip it gives back as `commandText`.
std::optional<QString> replaceCurrentClip(Document& document, const QString& commandText,
                                          const std::function<std::optional<std::string>(Scene&)>& operation) {
  const Clip* clip = document.currentClip();
  if (clip == nullptr) return tr("There is no clip.");
  Scene scene;
  scene.skeleton = document.scene().skeleton;
  scene.clips.push_back(*clip);
  if (std::optional<std::string> error = operation(scene))
    return QStringLiteral("%1: %2").arg(QString::fromStdString(clip->name), QString::fromStdString(*error));
  document.undoStack()->push(
      new ReplaceClipCommand(&document, document.currentClipIndex(), std::move(scene.clips.front()), commandText));
  return std::nullopt;
}

}  // namespace

std::optional<QString> makeCurrentClipLoop(Document& document) {
  return replaceCurrentClip(document, tr("Make Loop"), [](Scene& scene) { return makeCyclic(scene, CyclicOptions{}); });
}

std::optional<QString> makeCurrentClipInPlace(Document& document) {
  return replaceCurrentClip(document, tr("In Place"),
                            [](Scene& scene) { return makeInPlace(scene, TravelAxes{}, std::string()); });
}

}  // namespace articula::ui
