#pragma once
#include <QDockWidget>

#include <functional>
#include <optional>

class QAction;
class QDoubleSpinBox;
class QLabel;
class QListWidget;
class QListWidgetItem;

namespace articula::ui {

class Document;
struct ChangeEvent;

// The current clip's animation layers, top layer first and the base last (Maya's Animation
// Layer Editor): picking a row makes that layer active (what Key Pose keys); the actions
// add, delete, reorder, mute, solo, lock, weight and merge layers, each one undo step
// (layer_commands.h). A refusal shows as one line under the list.
class LayersDock : public QDockWidget {
  Q_OBJECT

 public:
  explicit LayersDock(Document* document, QWidget* parent = nullptr);

  QListWidget* list() const { return mList; }
  QDoubleSpinBox* weightBox() const { return mWeight; }
  const QLabel* message() const { return mMessage; }
  // The dock's actions by object name: addAdditiveLayer, addOverrideLayer, deleteLayer,
  // moveLayerUp, moveLayerDown, muteLayer, soloLayer, lockLayer, mergeLayerDown,
  // mergeAllLayers, zeroKey.
  QAction* action(const QString& name) const;

 private:
  void onDocumentChanged(const ChangeEvent& event);
  void rebuild();
  void refreshState();
  void report(const std::optional<QString>& refusal);
  QAction* makeAction(const QString& name, const QString& text, const std::function<std::optional<QString>()>& run,
                     bool checkable = false);
  int layerOfRow(int row) const;  // -1 for the base row
  int rowOfLayer(int layer) const;

  Document* const mDocument;
  QListWidget* const mList;
  QDoubleSpinBox* const mWeight;
  QLabel* const mMessage;
  QWidget* const mActions;
  bool mRebuilding = false;
};

}  // namespace articula::ui
