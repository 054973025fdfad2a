#include "ui/docks/properties_dock.h"

#include <QScrollArea>

#include "ui/widgets/joint_transform_editor.h"

namespace articula::ui {

PropertiesDock::PropertiesDock(Document* document, QWidget* parent)
    : QDockWidget(tr("Properties"), parent), mTransformEditor(new JointTransformEditor(document)) {
  setObjectName(QStringLiteral("PropertiesDock"));
  auto* scroll = new QScrollArea(this);
  scroll->setWidgetResizable(true);
  scroll->setWidget(mTransformEditor);
  setWidget(scroll);
}

}  // namespace articula::ui
