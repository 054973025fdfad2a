#pragma once
#include <QDockWidget>

#include <string>
#include <vector>

class QAction;
class QLabel;
class QPushButton;
class QTableWidget;

namespace articula::ui {

class ConventionEditor;
class Document;
struct ChangeEvent;

// The Characterise panel (Maya's HumanIK definition, Unreal's IK Rig retarget roles): one
// row per humanoid role with the joint that plays it. Until the user assigns one, the rows
// show what the names gave (greyed); the first assignment labels every role (the name map's
// joints kept) and from then on the labels alone define the humanoid, for the humanoid rig,
// foot contacts, mirroring and retargeting. Selecting a row selects its joint on the
// skeleton; with "Assign on Pick" a joint picked in the viewport or outliner takes the
// current role and the next role becomes current. A role map is saved in the project and
// as a JSON file to reuse (`articula-cli map --json` writes the same files). Each change is
// one undo step; a refused file changes nothing.
class CharacteriseDock : public QDockWidget {
  Q_OBJECT

 public:
  explicit CharacteriseDock(Document* document, QWidget* parent = nullptr);

  QTableWidget* roleTable() const { return mTable; }
  QLabel* statusLabel() const { return mStatus; }
  // What the capture assumes (CaptureConventionJob on the current clip): up, facing, units,
  // frame rate and rest pose, each with how it was decided; and the user's override of the
  // up, facing and units.
  ConventionEditor* conventionEditor() const { return mConvention; }
  QLabel* conventionLabel() const;
  QPushButton* pickButton() const { return mPickButton; }  // checkable: assign on pick

  // The role of the current row ("leftKnee"), or empty.
  QString currentRole() const;
  void setCurrentRole(const QString& key);

  // The panel's buttons, callable from tests. Each returns whether it changed the document;
  // a refusal is shown in the status line and emitted as problem().
  bool assignSelectedJoint();  // the one selected joint plays the current role
  bool clearCurrentRole();
  bool characteriseByNames();  // every role from the name mapping (replaces the labels)
  bool clearAll();             // no labels: back to the name mapping
  bool loadMap(const QString& path);
  bool saveMap(const QString& path);

 signals:
  void problem(const QString& message);

 private:
  void documentChanged(const ChangeEvent& event);
  void rowSelected();
  void jointPicked();
  void refresh();
  // Labels shown: the skeleton's, or the name map's while it has none.
  std::vector<std::string> shownRoles() const;
  bool pushRoles(std::vector<std::string> roles, const QString& text);
  void refuse(const QString& message);

  Document* const mDocument;
  QTableWidget* const mTable;
  QLabel* const mStatus;
  ConventionEditor* const mConvention;
  QPushButton* const mPickButton;
  bool mSelectingJoint = false;  // our own row → joint selection, not a pick
};

}  // namespace articula::ui
