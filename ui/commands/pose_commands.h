#pragma once
#include <QString>
#include <QUndoCommand>

#include <map>
#include <optional>
#include <vector>

#include "core/math/transform.h"
#include "core/rig/mirror_pose.h"

namespace articula::ui {

class Document;

// Poses several joints by hand in one undo step (paste, mirror and flip pose): `overrides`
// (local transforms, each in its parent's space) become the joints' pose overrides, one
// SetJointTransformCommand child per joint whose pose changes. Like any pose by hand it
// shows at once and is animation once keyed. Obsolete when it changes nothing.
class PoseJointsCommand : public QUndoCommand {
 public:
  PoseJointsCommand(Document* document, const std::map<int, Transform>& overrides, const QString& text,
                    QUndoCommand* parent = nullptr);
};

// Adds to `parent` one SetJointTransformCommand per joint of `overrides` whose override
// would change (valid joints and finite transforms only).
void addPoseChildren(Document* document, const std::map<int, Transform>& overrides, QUndoCommand* parent);

// What the pose tools act on: the selected joints, or every joint when none is selected.
std::vector<int> poseToolJoints(const Document& document);

// The shown local transforms of `joints` (copy pose).
std::map<int, Transform> copiedPose(const Document& document, const std::vector<int>& joints);

// Overrides that mirror the selected joints' pose onto their partners (none selected: the
// left limbs onto the right ones), or flip it (the selected joints and their partners
// swap sides, centre joints reflected onto themselves; none selected: every paired joint).
// nullopt when the skeleton is not humanoid (`error` then says why).
std::optional<std::map<int, Transform>> mirroredOverrides(const Document& document, bool flip, QString* error);

// The partners of the selected joints (unpaired ones stay selected).
std::vector<int> mirrorSelection(const Document& document);

}  // namespace articula::ui
