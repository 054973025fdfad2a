#include "ui/commands/clip_operation_commands.h"

#include <QCoreApplication>
#include <QUndoStack>

#include <functional>

#include "core/clipops/scene_ops.h"
#include "core/scene/scene.h"
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

std::string defaultRootName(const Scene& scene) {
  const Result<TravelFrame> frame = humanoidTravelFrame(scene.skeleton);
  const int parent = frame ? scene.skeleton.parent(frame->hips) : kNoParent;
  return parent == kNoParent ? std::string("root") : scene.skeleton.name(parent);
}

Result<Clip> rootMotionClip(const Scene& scene, int clipIndex, const RootMotionChoice& choice) {
  if (clipIndex < 0 || clipIndex >= static_cast<int>(scene.clips.size())) return makeError("there is no clip");
  const Clip& clip = scene.clips[static_cast<std::size_t>(clipIndex)];
  Scene one;
  one.skeleton = scene.skeleton;
  one.clips.push_back(clip);
  const std::optional<std::string> error = choice.fold ? foldRootMotion(one, choice.rootName, std::string())
                                                       : extractRootMotion(one, {choice.rootName, choice.axes, {}});
  if (error) return makeError(clip.name + ": " + *error);
  if (one.skeleton.jointCount() != scene.skeleton.jointCount()) {
    // The core added the root; the editor keeps the skeleton it has.
    const int hips = humanoidTravelFrame(scene.skeleton)->hips;
    const int parent = scene.skeleton.parent(hips);
    const std::string hipsName = "'" + scene.skeleton.name(hips) + "'";
    const std::string why = parent == kNoParent ? "the hips " + hipsName + " have no parent joint to take the travel"
                                                : "the hips' parent is '" + scene.skeleton.name(parent) + "', not '" +
                                                      choice.rootName + "'";
    return makeError(clip.name + ": " + why + ", and the editor adds no joint (articula-cli root-motion --root " +
                     choice.rootName + " does)");
  }
  return std::move(one.clips.front());
}

}  // namespace articula::ui
