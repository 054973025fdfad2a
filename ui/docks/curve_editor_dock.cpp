#include "ui/docks/curve_editor_dock.h"

#include "ui/curves/curve_view.h"

namespace articula::ui {

CurveEditorDock::CurveEditorDock(Document* document, QWidget* parent)
    : QDockWidget(tr("Curve Editor"), parent), mCurveView(new CurveView(document, this)) {
  setObjectName(QStringLiteral("CurveEditorDock"));
  setWidget(mCurveView);
}

}  // namespace articula::ui
