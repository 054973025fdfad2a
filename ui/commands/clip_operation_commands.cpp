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

// Why a clip operation has nothing to work on: a clip without joint keys (a new, empty clip)
// has no motion to loop or move; the core would key every frame at rest.
std::optional<std::string> noMotion(const Clip& clip) {
  if (!clip.tracks.empty()) return std::nullopt;
  return "clip '" + clip.name + "' has no joint keys: there is no motion to change";
}

// Scene `scene` with clip `clipIndex` alone, or nothing when there is no such clip.
std::optional<Scene> sceneOfClip(const Scene& scene, int clipIndex) {
  if (clipIndex < 0 || clipIndex >= static_cast<int>(scene.clips.size())) return std::nullopt;
  Scene one;
  one.skeleton = scene.skeleton;
  one.clips.push_back(scene.clips[static_cast<std::size_t>(clipIndex)]);
  return one;
}

// Runs `operation` on a copy of the scene holding the current clip alone (so a clip sharing
// its name is not touched) and pushes the clip it gives back as `commandText`.
std::optional<QString> replaceCurrentClip(Document& document, const QString& commandText,
                                          const std::function<std::optional<std::string>(Scene&)>& operation) {
  const Clip* clip = document.currentClip();
  if (clip == nullptr) return tr("There is no clip.");
  if (std::optional<std::string> empty = noMotion(*clip)) return QString::fromStdString(*empty);
  std::optional<Scene> scene = sceneOfClip(document.scene(), document.currentClipIndex());
  if (std::optional<std::string> error = operation(*scene))
    return QStringLiteral("%1: %2").arg(QString::fromStdString(clip->name), QString::fromStdString(*error));
  document.undoStack()->push(
      new ReplaceClipCommand(&document, document.currentClipIndex(), std::move(scene->clips.front()), commandText));
  return std::nullopt;
}

}  // namespace

Result<Clip> cyclicClip(const Scene& scene, int clipIndex, const CyclicOptions& options) {
  std::optional<Scene> one = sceneOfClip(scene, clipIndex);
  if (!one) return makeError("there is no clip");
  if (std::optional<std::string> empty = noMotion(one->clips.front())) return makeError(*empty);
  if (std::optional<std::string> error = makeCyclic(*one, options))
    return makeError(one->clips.front().name + ": " + *error);
  return std::move(one->clips.front());
}

std::optional<QString> makeCurrentClipInPlace(Document& document) {
  return replaceCurrentClip(document, tr("In Place"),
                            [](Scene& scene) { return makeInPlace(scene, TravelAxes{}, std::string()); });
}

std::string defaultRootName(const Scene& scene) {
  const Result<TravelFrame> frame = humanoidTravelFrame(scene.skeleton);
  const int parent = frame ? scene.skeleton.parent(frame->hips) : kNoParent;
  const bool parentIsBone = parent != kNoParent && scene.skeleton.kind(parent) == NodeKind::Joint;
  return parentIsBone ? scene.skeleton.name(parent) : std::string("root");
}

Result<Clip> rootMotionClip(const Scene& scene, int clipIndex, const RootMotionChoice& choice) {
  std::optional<Scene> picked = sceneOfClip(scene, clipIndex);
  if (!picked) return makeError("there is no clip");
  Scene& one = *picked;
  const Clip& clip = scene.clips[static_cast<std::size_t>(clipIndex)];
  if (std::optional<std::string> empty = noMotion(clip)) return makeError(*empty);
  const int root = scene.skeleton.findJoint(choice.rootName);
  if (choice.fold && root >= 0 && clip.findTrack(root) == nullptr) {
    return makeError("clip '" + clip.name + "' has no keys on '" + choice.rootName + "': there is no motion to fold");
  }
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
