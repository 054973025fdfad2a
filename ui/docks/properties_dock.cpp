#include "ui/docks/properties_dock.h"

#include <QFrame>
#include <QScrollArea>
#include <QScrollBar>
#include <QTimer>
#include <QVBoxLayout>

#include "ui/document/document.h"
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
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(mTransformEditor);
  layout->addWidget(mHandleEditor);
  layout->addWidget(mLimitEditor);
  layout->addStretch(1);
  auto* scroll = new QScrollArea(this);
  scroll->setWidgetResizable(true);
  scroll->setWidget(content);
  setWidget(scroll);
  // A handle picked anywhere (Rig panel, outliner, viewport) brings its settings into view,
  // once the editors below the transform have been laid out.
  connect(document, &Document::changed, this, [this, document, scroll](const ChangeEvent& event) {
    const int handle = document->selectedHandle();
    if (handle == mShownHandle) return;
    mShownHandle = handle;  // a rig change may have dropped it
    if (handle < 0 || event.type != ChangeEvent::Type::SelectionChanged) return;
    // Its title at the top of the view (the editor is taller than the view).
    QTimer::singleShot(0, scroll, [this, scroll] { scroll->verticalScrollBar()->setValue(mHandleEditor->y()); });
  });
}

}  // namespace articula::ui
