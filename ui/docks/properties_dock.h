#pragma once
#include <QDockWidget>

namespace articula::ui {

class Document;
class JointTransformEditor;

// Right-hand dock with the selected joint's properties.
class PropertiesDock : public QDockWidget {
  Q_OBJECT

 public:
  explicit PropertiesDock(Document* document, QWidget* parent = nullptr);

  JointTransformEditor* transformEditor() const { return mTransformEditor; }

 private:
  JointTransformEditor* const mTransformEditor;
};

}  // namespace articula::ui
