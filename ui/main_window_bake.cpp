// MainWindow's Animation ▸ Bake… and Detect Contacts…: the current clip through the core
// pipelines articula-cli bake and contacts run, on a capture in any convention (a rest lying
// down is stood up first, the motion unchanged, as the command line does).
#include <QUndoStack>

#include <set>

#include "core/bake/bake_pipeline.h"
#include "core/retarget/rest_pose.h"
#include "core/retarget/standing_contacts.h"
#include "core/rig/humanoid_rig.h"
#include "ui/commands/clip_list_command.h"
#include "ui/commands/replace_clip_command.h"
#include "ui/document/document.h"
#include "ui/document/project_session.h"
#include "ui/main_window.h"
#include "ui/tasks/background_task.h"

namespace articula::ui {

namespace {

// The bake of clip `clipIndex` as `articula-cli bake` makes it: the rest stood up when it lies
// down (standUpright), through `activeRig` or else the humanoid rig of the standing skeleton,
// keys within `toleranceOfHeight` of the standing figure's height; the clip then keyed for the
// document's rest, so it plays the same there.
Result<BakePipelineResult> bakeStanding(const Scene& scene, std::size_t clipIndex,
                                        const std::optional<RigDefinition>& activeRig, BakePipelineOptions options,
                                        float toleranceOfHeight, TaskProgress& progress) {
  auto standing = standUpright(scene, clipIndex);
  if (!standing) return makeError(standing.error());
  const Scene& stood = standing->scene;
  Result<RigDefinition> rig = activeRig ? Result<RigDefinition>(*activeRig) : buildHumanoidRig(stood.skeleton);
  if (!rig) return makeError(scene.sourcePath + ": no rig to bake through: " + rig.error());
  options.bake.reduction.toleranceModel = toleranceOfHeight * standingHeight(*standing);
  auto baked = bakeThroughRig(stood, stood.clips[clipIndex], *rig, options,
                              [&progress](int done, int total) { return progress.report(done, total); });
  if (baked && standing->restChanged) baked->clip = clipOnRest(std::move(baked->clip), stood.skeleton, scene.skeleton);
  return baked;
}

}  // namespace

// The rig the animator set up (the Rig panel's active rig); without one, the humanoid rig
// built from the joint names, as `articula-cli bake --rig auto` does. Fails, naming the open
// file, where there is no clip or no such rig (a character with no skeleton).
Result<RigDefinition> MainWindow::bakeRig() const {
  const QString file = mSession->displayName();
  if (mDocument->currentClipIndex() < 0) return makeError(tr("%1: there is no clip to bake").arg(file).toStdString());
  if (mDocument->activeRig() != nullptr) return *mDocument->activeRig();
  Result<RigDefinition> rig = buildHumanoidRig(mDocument->scene().skeleton);
  if (!rig) return makeError(tr("%1: no rig to bake through: ").arg(file).toStdString() + rig.error());
  return rig;
}

float MainWindow::standingHeight() const {
  const int clipIndex = mDocument->currentClipIndex();
  return standingHeightOf(mDocument->scene(), clipIndex < 0 ? 0 : static_cast<std::size_t>(clipIndex));
}

bool MainWindow::bake(const ProjectBakeSettings& settings) {
  const int clipIndex = mDocument->currentClipIndex();
  if (Result<RigDefinition> rig = bakeRig(); !rig) {
    emit animationFailed(QString::fromStdString(rig.error()));
    return false;
  }
  std::optional<RigDefinition> activeRig;
  if (mDocument->activeRig() != nullptr) activeRig = *mDocument->activeRig();
  BakePipelineOptions options;
  options.bake.firstFrame = settings.firstFrame;
  options.bake.lastFrame = settings.lastFrame;
  options.bake.step = settings.step;
  options.bake.rootMotion = settings.rootMotion;
  options.bake.reduction.fewestBytes = settings.fewestBytes;
  options.bake.reduction.interpolation = settings.cubicKeys ? KeyInterpolation::Cubic : KeyInterpolation::Linear;
  options.detectContacts = settings.detectContacts;
  // The worker bakes copies; the document changes only through the command below.
  std::optional<Result<BakePipelineResult>> outcome = runInBackground<Result<BakePipelineResult>>(
      this, tr("Baking %1…").arg(QString::fromStdString(mDocument->currentClip()->name)),
      [scene = mDocument->scene(), index = static_cast<std::size_t>(clipIndex), activeRig, options,
       tolerance = settings.toleranceRelative](TaskProgress& progress) {
        return bakeStanding(scene, index, activeRig, options, tolerance, progress);
      });
  if (!outcome) return false;
  if (!*outcome) {
    emit animationFailed(QString::fromStdString(outcome->error()));
    return false;
  }
  const QString sourceName = QString::fromStdString(mDocument->currentClip()->name);
  const BakeReport report = (*outcome)->report;
  const std::map<std::string, int> contactsHeld = (*outcome)->contactsHeld;
  mLastCleanup = (*outcome)->feet;
  mDocument->undoStack()->push(
      ClipListCommand::insertAfter(mDocument, clipIndex, std::move((*outcome)->clip), "baked", tr("Bake")));
  showResult(bakeSummary(sourceName, report, contactsHeld));
  return true;
}

QString MainWindow::bakeSummary(const QString& sourceName, const BakeReport& report,
                                const std::map<std::string, int>& contactsHeld) const {
  const Clip* baked = mDocument->currentClip();
  QString summary = tr("Baked “%1” into “%2”: %n frame(s)", nullptr, report.framesBaked)
                        .arg(sourceName, baked ? QString::fromStdString(baked->name) : QString());
  if (report.reduced) {
    const double mmPerModelUnit = kReferenceHeightMm / standingHeight();
    summary += tr(", keys %1 → %2, max error %3 mm at 1.75 m")
                   .arg(report.reduction.keysBefore)
                   .arg(report.reduction.keysAfter)
                   .arg(static_cast<double>(report.reduction.maxDeviationModel) * mmPerModelUnit, 0, 'f', 2);
  }
  for (const auto& [curve, count] : contactsHeld)
    summary += tr(", %1: %n contact(s) held", nullptr, count).arg(QString::fromStdString(curve));
  std::set<int> unreached;
  for (const BakeMiss& miss : report.unreached) unreached.insert(miss.frame);
  if (!unreached.empty())
    summary += tr(", %n frame(s) with a handle off its target", nullptr, static_cast<int>(unreached.size()));
  return summary;
}

bool MainWindow::detectContacts(const ContactDetectionOptions& options) {
  const int clipIndex = mDocument->currentClipIndex();
  if (clipIndex < 0) {
    emit animationFailed(tr("There is no clip to detect contacts in."));
    return false;
  }
  // The worker gets copies; the document changes only through the command below. The stride
  // curves go onto the document's clip: the stood-up copy's keys are made for another rest.
  std::optional<Result<StandingContacts>> outcome = runInBackground<Result<StandingContacts>>(
      this, tr("Detecting foot contacts…"),
      [scene = mDocument->scene(), index = static_cast<std::size_t>(clipIndex), options](TaskProgress&) {
        return detectStandingContacts(scene, index, options);
      });
  if (!outcome) return false;
  if (!*outcome) {
    emit animationFailed(QString::fromStdString(outcome->error()));
    return false;
  }
  Clip clip = *mDocument->currentClip();
  clip.curves = (*outcome)->capture.scene.clips[static_cast<std::size_t>(clipIndex)].curves;
  mDocument->undoStack()->push(new ReplaceClipCommand(mDocument, clipIndex, std::move(clip), tr("Detect Contacts")));
  return true;
}

}  // namespace articula::ui
