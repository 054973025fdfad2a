#pragma once
#include <QDockWidget>

namespace articula::ui {

class Document;
class HandleEditor;
class JointLimitEditor;
class JointTransformEditor;

// Right-hand dock with the selected joint's properties and, while an IK handle is
// selected, the handle's settings and the joint limits of its chain.
class PropertiesDock : public QDockWidget {
  Q_OBJECT

 public:
  explicit PropertiesDock(Document* document, QWidget* parent = nullptr);

  JointTransformEditor* transformEditor() const { return mTransformEditor; }
  HandleEditor* handleEditor() const { return mHandleEditor; }
  JointLimitEditor* limitEditor() const { return mLimitEditor; }

 private:
  JointTransformEditor* const mTransformEditor;
  HandleEditor* const mHandleEditor;
  JointLimitEditor* const mLimitEditor;
  int mShownHandle = -1;  // handle whose settings were last scrolled into view
};

}  // namespace articula::ui
