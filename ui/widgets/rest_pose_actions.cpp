#include "ui/widgets/rest_pose_actions.h"

#include <QAction>
#include <QMenu>
#include <QUndoStack>

#include "core/retarget/rest_pose.h"
#include "core/rig/humanoid_map.h"
#include "ui/commands/set_rest_pose_command.h"
#include "ui/document/document.h"

namespace articula::ui {

namespace {

// The document's scene with `restLocal` as its rest, its clips keeping their motion.
Result<RestAndClips> withRest(const Scene& scene, const Pose& restLocal) {
  RestPoseJob job;
  job.scene = &scene;
  job.restLocal = restLocal;
  auto rested = job.run();
  if (!rested) return makeError(rested.error());
  const auto rest = rested->skeleton.restPose();
  return RestAndClips{{rest.begin(), rest.end()}, std::move(rested->clips)};
}

}  // namespace

RestPoseActions::RestPoseActions(Document* document, QObject* parent)
    : QObject(parent),
      mDocument(document),
      mFromCurrentFrameAction(new QAction(tr("From &Current Frame"), this)),
      mToTPoseAction(new QAction(tr("To &T-Pose"), this)) {
  mFromCurrentFrameAction->setObjectName(QStringLiteral("actionRestPoseFromCurrentFrame"));
  mToTPoseAction->setObjectName(QStringLiteral("actionRestPoseToTPose"));
  connect(mFromCurrentFrameAction, &QAction::triggered, this, &RestPoseActions::fromCurrentFrame);
  connect(mToTPoseAction, &QAction::triggered, this, &RestPoseActions::toTPose);
}

void RestPoseActions::addTo(QMenu* menu) const {
  menu->addAction(mFromCurrentFrameAction);
  menu->addAction(mToTPoseAction);
}

bool RestPoseActions::fromCurrentFrame() {
  const Clip* clip = mDocument->currentClip();
  if (!clip) {
    emit problem(tr("Cannot set the rest pose from the current frame: the file has no clip."));
    return false;
  }
  const Scene& scene = mDocument->scene();
  return push(withRest(scene, poseAtFrame(scene.skeleton, *clip, mDocument->currentFrame())),
              tr("Rest Pose From Frame %1").arg(mDocument->currentFrame()));
}

bool RestPoseActions::toTPose() {
  const Scene& scene = mDocument->scene();
  auto map = mapHumanoid(scene.skeleton);
  if (!map) {
    emit problem(tr("Cannot set a T-pose: not a humanoid: %1").arg(QString::fromStdString(map.error())));
    return false;
  }
  auto convention =
      conventionJobFor(scene, *map, static_cast<std::size_t>(std::max(0, mDocument->currentClipIndex()))).run();
  if (!convention) {
    emit problem(tr("Cannot set a T-pose: %1").arg(QString::fromStdString(convention.error())));
    return false;
  }
  const Pose standing = standingReferencePose(scene.skeleton, *map, *convention);
  return push(withRest(scene, tPoseOf(scene.skeleton, *map, standing, convention->upModel,
                                      convention->forwardModel.normalized())),
              tr("Rest Pose To T-Pose"));
}

bool RestPoseActions::push(Result<RestAndClips> edit, const QString& text) {
  if (!edit) {
    emit problem(tr("Cannot set the rest pose: %1").arg(QString::fromStdString(edit.error())));
    return false;
  }
  mDocument->undoStack()->push(new SetRestPoseCommand(mDocument, std::move(*edit), text));
  return true;
}

}  // namespace articula::ui
