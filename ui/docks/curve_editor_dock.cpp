#include "ui/docks/curve_editor_dock.h"

#include "ui/curves/curve_view.h"
#include "ui/document/document.h"
#include "ui/document/layer_keys.h"

namespace articula::ui {

CurveEditorDock::CurveEditorDock(Document* document, QWidget* parent)
    : QDockWidget(tr("Curve Editor"), parent), mCurveView(new CurveView(document, this)) {
  setObjectName(QStringLiteral("CurveEditorDock"));
  setWidget(mCurveView);
  // The title names the keys its view edits: the base or the active layer (issue 40).
  const auto retitle = [this, document] { setWindowTitle(keyViewTitle(tr("Curve Editor"), *document)); };
  connect(document, &Document::changed, this, retitle);
  retitle();
}

}  // namespace articula::ui
