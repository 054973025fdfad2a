#pragma once
#include <QUndoCommand>

namespace articula::ui {

class Document;

// Switches the active rig's solve on or off (off: the pose is the clip and the overrides,
// pure FK). Obsolete when the rig already is in that state.
class SetRigEnabledCommand : public QUndoCommand {
 public:
  SetRigEnabledCommand(Document* document, bool enabled, QUndoCommand* parent = nullptr);

  void redo() override;
  void undo() override;

 private:
  Document* const mDocument;
  const bool mEnabled;
};

}  // namespace articula::ui
