// The Characterise panel through the real window: a skeleton that is no humanoid by names or
// shape is refused by the humanoid rig with an offer to map it by hand; picking a joint per
// role characterises a skeleton whose names say nothing (one undo step each), the rig
// builds, and the map is saved with the project and as a file to reuse.
#include <gtest/gtest.h>

#include <algorithm>

#include <QAction>
#include <QDir>
#include <QLabel>
#include <QPushButton>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QUndoStack>

#include "core/rig/humanoid_map.h"
#include "core/rig/humanoid_roles.h"
#include "ui/commands/rename_joint_command.h"
#include "ui/docks/characterise_dock.h"
#include "ui/docks/rig_dock.h"
#include "ui/document/document.h"
#include "ui/document/project_session.h"
#include "ui/main_window.h"
#include "ui_test_support.h"

namespace articula::ui {
namespace {

// Opens the CMU walk and renames every joint "j<n>" as a user might have received it; the
// name map of the original is returned to know which joint plays what.
HumanoidMap openAnonymousWalk(MainWindow& window) {
  EXPECT_TRUE(window.openFile(QString::fromStdString(test::dataPath("bvh/cmu-mb-2010/02_01.bvh"))));
  Document& document = *window.document();
  auto map = mapHumanoid(document.scene().skeleton);
  EXPECT_TRUE(map.ok());
  for (int j = 0; j < document.scene().skeleton.jointCount(); ++j) {
    document.undoStack()->push(new RenameJointCommand(&document, j, QStringLiteral("j%1").arg(j)));
  }
  return map.ok() ? *map : HumanoidMap{};
}

// What the user knows and the shape cannot: this character's left is the capture's right.
HumanoidMap mirrored(HumanoidMap map) {
  std::swap(map.leftLeg, map.rightLeg);
  std::swap(map.leftArm, map.rightArm);
  return map;
}

// Roles of one side, the ones a mirrored characterisation changes.
int sideRoles(const HumanoidMap& map) {
  const auto roles = roleJoints(map);
  return static_cast<int>(std::count_if(roles.begin(), roles.end(), [](const auto& role) {
    return role.first.starts_with("left") || role.first.starts_with("right");
  }));
}

TEST(CharacteriseWindow, PickingAJointPerRoleRigsASkeletonWhoseNamesSayNothing) {
  MainWindow window;
  const HumanoidMap truth = mirrored(openAnonymousWalk(window));
  Document& document = *window.document();
  CharacteriseDock* panel = window.characteriseDock();
  ASSERT_NE(panel, nullptr);
  ASSERT_NE(window.findChild<QAction*>(QStringLiteral("actionCharacterise")), nullptr) << "Animation ▸ Characterise…";

  // The shape found it (greyed); the user sets every role by hand all the same.
  EXPECT_TRUE(panel->statusLabel()->text().contains(QStringLiteral("Found automatically")));

  // Assign on pick: choose the role, pick its joint.
  const int stepsBefore = document.undoStack()->count();
  panel->pickButton()->setChecked(true);
  int assigned = 0;
  for (const auto& [key, joint] : roleJoints(truth)) {
    panel->setCurrentRole(QString::fromStdString(key));
    document.setSelectedJoints({joint});
    ++assigned;
  }
  // Each pick that changes a role (each side's) is one undo step; choosing a role selects
  // the joint the shape gave it, so picking that joint again changes nothing.
  EXPECT_EQ(document.undoStack()->count(), stepsBefore + sideRoles(truth)) << assigned << " picks";
  auto map = mapHumanoid(document.scene().skeleton);
  ASSERT_TRUE(map.ok()) << map.error();
  EXPECT_EQ(roleJoints(*map), roleJoints(truth));
  EXPECT_TRUE(panel->statusLabel()->text().contains(QStringLiteral("Characterised by hand")));
  EXPECT_TRUE(window.rigDock()->buildHumanoidRig());

  // Saved as a file, cleared, read back: the same roles. A refused file changes nothing.
  QTemporaryDir dir;
  const QString mapPath = dir.filePath(QStringLiteral("walk_roles.json"));
  panel->saveMap(mapPath);
  EXPECT_TRUE(panel->clearAll());
  EXPECT_FALSE(document.scene().skeleton.hasRoles());
  QFile bad(dir.filePath(QStringLiteral("bad.json")));
  ASSERT_TRUE(bad.open(QIODevice::WriteOnly));
  bad.write(R"({"hips": "Hips"})");
  bad.close();
  EXPECT_FALSE(panel->loadMap(bad.fileName()));
  EXPECT_TRUE(panel->statusLabel()->text().contains(QStringLiteral("no joint named 'Hips'")));
  EXPECT_FALSE(document.scene().skeleton.hasRoles());
  EXPECT_TRUE(panel->loadMap(mapPath));
  map = mapHumanoid(document.scene().skeleton);
  ASSERT_TRUE(map.ok()) << map.error();
  EXPECT_EQ(roleJoints(*map), roleJoints(truth));

  // Undo takes the load back (the shape decides again), then the clear is undone: labels as
  // picked.
  document.undoStack()->undo();
  EXPECT_FALSE(document.scene().skeleton.hasRoles());
  EXPECT_NE(roleJoints(*mapHumanoid(document.scene().skeleton)), roleJoints(truth));
  document.undoStack()->undo();
  EXPECT_EQ(roleJoints(*mapHumanoid(document.scene().skeleton)), roleJoints(truth));
}

// A skeleton neither its names nor its shape make a humanoid (one arm): the rig refuses, its
// message offers the panel first, and the link raises the panel, which says what is missing.
TEST(CharacteriseWindow, ARefusedHumanoidRigOffersThePanel) {
  MainWindow window;
  ASSERT_TRUE(window.openFile(QString::fromStdString(test::dataPath("bvh/cmu-mb-2010/02_01_no_left_arm.bvh"))));
  CharacteriseDock* panel = window.characteriseDock();
  RigDock* rig = window.rigDock();
  EXPECT_FALSE(rig->buildHumanoidRig());
  EXPECT_TRUE(rig->messageLabel()->text().startsWith(QStringLiteral("<a href=\"characterise\">")))
      << rig->messageLabel()->text().toStdString();
  panel->hide();
  emit rig->messageLabel()->linkActivated(QStringLiteral("characterise"));
  EXPECT_FALSE(panel->isHidden());
  EXPECT_TRUE(panel->statusLabel()->text().contains(QStringLiteral("Not yet a humanoid")));
  EXPECT_TRUE(panel->statusLabel()->text().contains(QStringLiteral("no left arm")));
}

TEST(CharacteriseWindow, RolesAreSavedWithTheProjectAndReopened) {
  QTemporaryDir dir;
  const QString project = dir.filePath(QStringLiteral("walk.articula"));
  HumanoidMap truth;
  {
    MainWindow window;
    truth = mirrored(openAnonymousWalk(window));
    CharacteriseDock* panel = window.characteriseDock();
    for (const auto& [key, joint] : roleJoints(truth)) {
      panel->setCurrentRole(QString::fromStdString(key));
      window.document()->setSelectedJoints({joint});
      panel->assignSelectedJoint();
    }
    ASSERT_FALSE(window.session()->saveAs(project).has_value());
  }
  MainWindow window;
  ASSERT_TRUE(window.openFile(project));
  const Skeleton& skeleton = window.document()->scene().skeleton;
  EXPECT_EQ(skeleton.name(0), "j0");
  auto map = mapHumanoid(skeleton);
  ASSERT_TRUE(map.ok()) << map.error();
  EXPECT_EQ(roleJoints(*map), roleJoints(truth));
  EXPECT_TRUE(window.rigDock()->buildHumanoidRig());
}

// Until a role is set by hand the panel shows what the names found; the first assignment
// keeps those and changes one.
TEST(CharacteriseWindow, TheFirstAssignmentKeepsWhatTheNamesFound) {
  MainWindow window;
  ASSERT_TRUE(window.openFile(QString::fromStdString(test::dataPath("bvh/cmu-mb-2010/02_01.bvh"))));
  Document& document = *window.document();
  CharacteriseDock* panel = window.characteriseDock();
  EXPECT_TRUE(panel->statusLabel()->text().contains(QStringLiteral("Found automatically")));
  QTableWidget* table = panel->roleTable();
  ASSERT_EQ(table->rowCount(), static_cast<int>(humanoidRoles().size()));
  EXPECT_EQ(table->item(0, 1)->text(), QStringLiteral("Hips"));
  // The names make "Neck" (under the chest) the neck; say it is "Neck1", the head's parent.
  const auto byNames = mapHumanoid(document.scene().skeleton);
  ASSERT_TRUE(byNames.ok());
  panel->setCurrentRole(QStringLiteral("neck"));
  document.setSelectedJoints({document.scene().skeleton.findJoint("Neck1")});
  ASSERT_TRUE(panel->assignSelectedJoint());
  auto map = mapHumanoid(document.scene().skeleton);
  ASSERT_TRUE(map.ok()) << map.error();
  EXPECT_EQ(document.scene().skeleton.name(byNames->neck), "Neck");
  EXPECT_EQ(document.scene().skeleton.name(map->neck), "Neck1");
  EXPECT_EQ(map->leftLeg.knee, byNames->leftLeg.knee);
  EXPECT_EQ(map->rightArm.hand, byNames->rightArm.hand);
  EXPECT_TRUE(panel->statusLabel()->text().contains(QStringLiteral("Characterised by hand")));
}

}  // namespace
}  // namespace articula::ui
