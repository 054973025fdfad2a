#pragma once
#include <QString>

#include "ui/commands/change_value.h"
#include "ui/document/document.h"

namespace articula::ui {

// Sets the skeleton's rest pose without changing the motion (Skeleton ▸ Rest Pose): the new
// rest and the clips RestPoseJob rewrote for it, swapped in as one undo step.
class SetRestPoseCommand : public ChangeValue<RestAndClips> {
 public:
  SetRestPoseCommand(Document* document, RestAndClips value, const QString& text, QUndoCommand* parent = nullptr);

 private:
  RestAndClips exchange(RestAndClips value) override;
};

}  // namespace articula::ui
