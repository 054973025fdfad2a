#include "ui/docks/properties_dock.h"

#include <QFrame>
#include <QScrollArea>
#include <QVBoxLayout>

#include "ui/widgets/handle_editor.h"
#include "ui/widgets/joint_limit_editor.h"
#include "ui/widgets/joint_transform_editor.h"

namespace articula::ui {

PropertiesDock::PropertiesDock(Document* document, QWidget* parent)
    : QDockWidget(tr("Properties"), parent),
      mTransformEditor(new JointTransformEditor(document)),
      mHandleEditor(new HandleEditor(document)),
      mLimitEditor(new JointLimitEditor(document)) {
  setObjectName(QStringLiteral("PropertiesDock"));
  auto* content = new QWidget;
  auto* layout = new QVBoxLayout(content);
  layout->addWidget(mTransformEditor);
  layout->addWidget(mHandleEditor);
  layout->addWidget(mLimitEditor);
  layout->addStretch(1);
  auto* scroll = new QScrollArea(this);
  scroll->setWidgetResizable(true);
  scroll->setWidget(content);
  setWidget(scroll);
}

}  // namespace articula::ui
