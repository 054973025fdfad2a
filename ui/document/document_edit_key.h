#pragma once

namespace articula::ui {

class ClipListCommand;
class EditKeysCommand;
class KeyPoseCommand;
class KeyedEditCommand;
class MoveHandleCommand;
class EditHandleCommand;
class RigSetCommand;
class SetRigEnabledCommand;
class SetRestPoseCommand;
class SetRolesCommand;
class SetConventionCommand;
class RenameJointCommand;
class ReplaceClipCommand;
class SetJointTransformCommand;

// Pass key of Document's edit entry points: only the undo commands listed here can make
// one, so every change to the document's data goes through the undo stack.
class DocumentEditKey {
  friend class ClipListCommand;
  friend class EditKeysCommand;
  friend class KeyPoseCommand;
  friend class KeyedEditCommand;
  friend class MoveHandleCommand;
  friend class EditHandleCommand;
  friend class RigSetCommand;
  friend class SetRigEnabledCommand;
  friend class SetRestPoseCommand;
  friend class SetRolesCommand;
  friend class SetConventionCommand;
  friend class RenameJointCommand;
  friend class ReplaceClipCommand;
  friend class SetJointTransformCommand;
  DocumentEditKey() = default;
};

}  // namespace articula::ui
