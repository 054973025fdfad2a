#pragma once
#include <QString>

#include "core/scene/scene.h"
#include "ui/commands/change_value.h"

namespace articula::ui {

// Sets the user's capture convention (the up, facing and units that override what the
// skeleton and motion decide; Scene::convention), so a choice in the Characterise panel is one
// undo step. Obsolete when the document already holds it.
class SetConventionCommand : public ChangeValue<ConventionOverride> {
 public:
  SetConventionCommand(Document* document, ConventionOverride convention, const QString& text,
                       QUndoCommand* parent = nullptr);

 private:
  ConventionOverride exchange(ConventionOverride convention) override;
};

}  // namespace articula::ui
