#pragma once
#include <QDockWidget>

namespace articula::ui {

class CurveView;
class Document;

// Dock holding the curve editor.
class CurveEditorDock : public QDockWidget {
  Q_OBJECT

 public:
  explicit CurveEditorDock(Document* document, QWidget* parent = nullptr);

  CurveView* curveView() const { return mCurveView; }

 private:
  CurveView* const mCurveView;
};

}  // namespace articula::ui
