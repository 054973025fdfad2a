// MainWindow's Animation ▸ Retarget…: the clips of another humanoid on the open character.
#include <QFileInfo>

#include "core/bake/leading_rest_frame.h"
#include "core/project/humanoid_map_json.h"
#include "core/project/project_file.h"
#include "core/retarget/rest_pose.h"
#include "core/retarget/retarget_clip.h"
#include "core/rig/humanoid_map.h"
#include "ui/commands/clip_list_command.h"
#include "ui/dialogs/retarget_dialog.h"
#include "ui/document/document.h"
#include "ui/main_window.h"
#include "ui/tasks/background_task.h"

namespace articula::ui {

namespace {

struct RetargetedClips {
  std::vector<Clip> clips;
  int restFramesLeftOut = 0;  // clips whose T-pose first frame was left out
};

// Every clip of the requested source on `character`, or the one-line reason it cannot be.
Result<RetargetedClips> retargetedClips(const RetargetRequest& request, const Scene& character,
                                        TaskProgress& progress) {
  const std::string path = request.source.toStdString();
  auto source = loadSceneOrProject(path);
  if (!source) return makeError(source.error());
  if (source->clips.empty()) return makeError(path + ": has no animation");
  if (!request.sourceMap.isEmpty()) {
    if (auto error = labelRolesFromFile(request.sourceMap.toStdString(), source->skeleton)) return makeError(*error);
  }
  // A rest lying down (LaFAN1's) is stood up first, the motion unchanged: retargeting reads rests.
  auto standing = standUpright(std::move(*source));
  if (!standing) return makeError(standing.error());
  *source = std::move(standing->scene);
  auto sourceMap = mapHumanoid(source->skeleton);
  if (!sourceMap) return makeError(path + ": not a humanoid: " + sourceMap.error());
  auto characterMap = mapHumanoid(character.skeleton);
  if (!characterMap) return makeError("the open character is not a humanoid: " + characterMap.error());
  RetargetClipOptions options;
  options.toleranceModel = kDefaultToleranceOfHeight * character.characterHeight();
  options.detectContacts = request.plantFeet;
  options.handsReach = request.handsReach;
  options.frameRate = request.frameRate;
  RetargetedClips out;
  for (const Clip& clip : source->clips) {
    if (!progress.report(static_cast<int>(out.clips.size()), static_cast<int>(source->clips.size())))
      return makeError("retarget cancelled");
    options.skipFirstFrame = request.skipRestFrame && leadsWithRestFrame(source->skeleton, clip);
    auto retargeted = retargetClip(*source, *sourceMap, clip, character, *characterMap, options);
    if (!retargeted) return makeError(path + ": clip '" + clip.name + "': " + retargeted.error());
    out.clips.push_back(std::move(*retargeted));
    if (options.skipFirstFrame) ++out.restFramesLeftOut;
  }
  return out;
}

}  // namespace

bool MainWindow::retargetFrom(const QString& sourcePath) {
  RetargetRequest request;
  request.source = sourcePath;
  return retargetFrom(request);
}

bool MainWindow::retargetFrom(const RetargetRequest& request) {
  const QString sourcePath = request.source;
  // The worker reads a copy of the character; the document changes only through the command.
  std::optional<Result<RetargetedClips>> outcome =
      runInBackground<Result<RetargetedClips>>(this, tr("Retargeting %1…").arg(QFileInfo(sourcePath).fileName()),
                                               [request, character = mDocument->scene()](TaskProgress& progress) {
                                                 return retargetedClips(request, character, progress);
                                               });
  if (!outcome) return false;
  if (!*outcome) {
    emit animationFailed(QString::fromStdString(outcome->error()));
    return false;
  }
  const int count = static_cast<int>((*outcome)->clips.size());
  const int restFrames = (*outcome)->restFramesLeftOut;
  mDocument->undoStack()->push(ClipListCommand::append(mDocument, std::move((*outcome)->clips),
                                                       tr("Retarget %1").arg(QFileInfo(sourcePath).fileName())));
  const QString clips = count == 1 ? tr("1 clip") : tr("%1 clips").arg(count);
  QString result = tr("Retargeted %1 of %2 onto the character").arg(clips, QFileInfo(sourcePath).fileName());
  if (restFrames > 0) {
    result += count == 1 ? tr(" without its T-pose first frame")
                         : tr(" (%1 without their T-pose first frame)").arg(restFrames);
  }
  showResult(result);
  return true;
}

}  // namespace articula::ui
