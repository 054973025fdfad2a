#include "ui/commands/set_rest_pose_command.h"

#include "ui/document/document.h"

namespace articula::ui {

SetRestPoseCommand::SetRestPoseCommand(Document* document, RestAndClips value, const QString& text,
                                       QUndoCommand* parent)
    : ChangeValue(document, std::move(value), text, parent) {}

RestAndClips SetRestPoseCommand::exchange(RestAndClips value) {
  return document()->setRestAndClips({}, std::move(value));
}

}  // namespace articula::ui
