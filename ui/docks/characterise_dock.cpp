#include "ui/docks/characterise_dock.h"

#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QScrollArea>
#include <QSignalBlocker>
#include <QTableWidget>
#include <QUndoStack>
#include <QVBoxLayout>

#include "core/io/atomic_file.h"
#include "core/project/humanoid_map_json.h"
#include "core/rig/humanoid_map.h"
#include "core/rig/humanoid_roles.h"
#include "ui/commands/set_roles_command.h"
#include "ui/docks/characterise_dock_convention.h"
#include "ui/document/document.h"

namespace articula::ui {
namespace {

constexpr int kRoleColumn = 0;
constexpr int kJointColumn = 1;

QPushButton* button(const QString& text, const QString& tip, QWidget* parent) {
  auto* b = new QPushButton(text, parent);
  b->setToolTip(tip);
  return b;
}

// `roles` with `key` moved to `joint` (-1: taken from every joint). A joint plays one role,
// so the role it played before is left without a joint.
std::vector<std::string> withRole(std::vector<std::string> roles, const std::string& key, int joint) {
  for (std::string& role : roles) {
    if (role == key) role.clear();
  }
  if (joint >= 0 && joint < static_cast<int>(roles.size())) roles[static_cast<std::size_t>(joint)] = key;
  return roles;
}

}  // namespace

CharacteriseDock::CharacteriseDock(Document* document, QWidget* parent)
    : QDockWidget(tr("Characterise"), parent),
      mDocument(document),
      mTable(new QTableWidget(static_cast<int>(humanoidRoles().size()), 2, this)),
      mStatus(new QLabel(this)),
      mConvention(new ConventionEditor(document, this)),
      mPickButton(button(tr("Assign on Pick"), tr("Each joint picked in the viewport or outliner takes the current "
                                                  "role, then the next role is current"), this)) {
  setObjectName(QStringLiteral("CharacteriseDock"));
  mTable->setObjectName(QStringLiteral("characteriseRoles"));
  mTable->setHorizontalHeaderLabels({tr("Role"), tr("Joint")});
  mTable->verticalHeader()->hide();
  mTable->setSelectionMode(QAbstractItemView::SingleSelection);
  mTable->setSelectionBehavior(QAbstractItemView::SelectRows);
  mTable->setEditTriggers(QAbstractItemView::NoEditTriggers);
  mTable->horizontalHeader()->setSectionResizeMode(kRoleColumn, QHeaderView::ResizeToContents);
  mTable->horizontalHeader()->setSectionResizeMode(kJointColumn, QHeaderView::Stretch);
  int row = 0;
  for (const HumanoidRole& role : humanoidRoles()) {
    auto* item = new QTableWidgetItem(tr(role.label));
    item->setData(Qt::UserRole, QString::fromLatin1(role.key));
    QFont font = item->font();
    font.setBold(role.required);
    item->setFont(font);
    item->setToolTip(role.required ? tr("Required") : tr("Optional"));
    mTable->setItem(row, kRoleColumn, item);
    mTable->setItem(row++, kJointColumn, new QTableWidgetItem);
  }
  // Every role in view without scrolling; a long status must not squeeze the list.
  mTable->setMinimumHeight(mTable->verticalHeader()->defaultSectionSize() * 10);
  mStatus->setObjectName(QStringLiteral("characteriseStatus"));
  mStatus->setWordWrap(true);
  mStatus->setTextInteractionFlags(Qt::TextSelectableByMouse);
  mPickButton->setObjectName(QStringLiteral("characterisePick"));
  mPickButton->setCheckable(true);

  auto* assign = button(tr("Assign"), tr("The selected joint plays the current role"), this);
  auto* clear = button(tr("Clear"), tr("The current role has no joint"), this);
  auto* byNames = button(tr("From Names"), tr("Every role from the joint names (replaces the roles set by hand)"), this);
  auto* clearAllButton = button(tr("Clear All"), tr("No roles set by hand: the joint names decide"), this);
  auto* load = button(tr("Load Map…"), tr("Read a role map file (JSON role → joint name)"), this);
  auto* save = button(tr("Save Map…"), tr("Write the role map as a JSON file to reuse on this rig's other files"), this);
  connect(assign, &QPushButton::clicked, this, &CharacteriseDock::assignSelectedJoint);
  connect(clear, &QPushButton::clicked, this, &CharacteriseDock::clearCurrentRole);
  connect(byNames, &QPushButton::clicked, this, &CharacteriseDock::characteriseByNames);
  connect(clearAllButton, &QPushButton::clicked, this, &CharacteriseDock::clearAll);
  connect(load, &QPushButton::clicked, this, [this] {
    const QString path = QFileDialog::getOpenFileName(this, tr("Load Role Map"), {}, tr("Role maps (*.json)"));
    if (!path.isEmpty()) loadMap(path);
  });
  connect(save, &QPushButton::clicked, this, [this] {
    QString path = QFileDialog::getSaveFileName(this, tr("Save Role Map"), {}, tr("Role maps (*.json)"));
    if (path.isEmpty()) return;
    // Load Map… lists *.json: a name typed without it would not be found again.
    if (QFileInfo(path).suffix().isEmpty()) path += QStringLiteral(".json");
    saveMap(path);
  });

  auto* content = new QWidget;
  auto* layout = new QVBoxLayout(content);
  layout->setContentsMargins(4, 4, 4, 4);
  layout->addWidget(mTable, 1);
  auto* editRow = new QHBoxLayout;
  for (QPushButton* b : {assign, mPickButton, clear}) editRow->addWidget(b);
  auto* mapRow = new QHBoxLayout;
  for (QPushButton* b : {byNames, clearAllButton, load, save}) mapRow->addWidget(b);
  layout->addLayout(editRow);
  layout->addLayout(mapRow);
  layout->addWidget(mStatus);
  layout->addWidget(mConvention);
  // Scrolled, as Properties is: the convention's lines would otherwise set the height of the
  // dock column it shares and squeeze the timeline and curve editor below it.
  auto* scroll = new QScrollArea(this);
  scroll->setWidgetResizable(true);
  scroll->setWidget(content);
  setWidget(scroll);

  connect(mTable, &QTableWidget::itemSelectionChanged, this, &CharacteriseDock::rowSelected);
  connect(mDocument, &Document::changed, this, &CharacteriseDock::documentChanged);
  refresh();
}

QLabel* CharacteriseDock::conventionLabel() const { return mConvention->label(); }

QString CharacteriseDock::currentRole() const {
  const int row = mTable->currentRow();
  return row < 0 ? QString() : mTable->item(row, kRoleColumn)->data(Qt::UserRole).toString();
}

void CharacteriseDock::setCurrentRole(const QString& key) {
  for (int row = 0; row < mTable->rowCount(); ++row) {
    if (mTable->item(row, kRoleColumn)->data(Qt::UserRole).toString() == key) mTable->selectRow(row);
  }
}

std::vector<std::string> CharacteriseDock::shownRoles() const {
  Skeleton skeleton = mDocument->scene().skeleton;
  if (!skeleton.hasRoles()) {
    if (auto map = mapHumanoidByNames(skeleton)) labelRoles(skeleton, *map);
  }
  return SetRolesCommand::rolesOf(skeleton);
}

bool CharacteriseDock::pushRoles(std::vector<std::string> roles, const QString& text) {
  auto* command = new SetRolesCommand(mDocument, std::move(roles), text);
  const bool changes = !command->isObsolete();
  mDocument->undoStack()->push(command);
  return changes;
}

void CharacteriseDock::refuse(const QString& message) {
  mStatus->setText(QStringLiteral("<span style='color:#c0392b'>%1</span>").arg(message.toHtmlEscaped()));
  emit problem(message);
}

bool CharacteriseDock::assignSelectedJoint() {
  const QString key = currentRole();
  const std::vector<int>& selected = mDocument->selectedJoints();
  if (key.isEmpty()) {
    refuse(tr("Choose the role to assign in the list first."));
    return false;
  }
  if (selected.size() != 1) {
    refuse(tr("Select one joint to play the role (%1 selected).").arg(selected.size()));
    return false;
  }
  const QString joint = QString::fromStdString(mDocument->scene().skeleton.name(selected.front()));
  const QString label = mTable->item(mTable->currentRow(), kRoleColumn)->text();
  return pushRoles(withRole(shownRoles(), key.toStdString(), selected.front()),
                   tr("Characterise %1 as %2").arg(joint, label));
}

bool CharacteriseDock::clearCurrentRole() {
  const QString key = currentRole();
  if (key.isEmpty()) return false;
  return pushRoles(withRole(shownRoles(), key.toStdString(), -1),
                   tr("Clear Role %1").arg(mTable->item(mTable->currentRow(), kRoleColumn)->text()));
}

bool CharacteriseDock::characteriseByNames() {
  Skeleton skeleton = mDocument->scene().skeleton;
  auto map = mapHumanoidByNames(skeleton);
  if (!map) {
    refuse(tr("The names give no humanoid: %1").arg(QString::fromStdString(map.error())));
    return false;
  }
  labelRoles(skeleton, *map);
  return pushRoles(SetRolesCommand::rolesOf(skeleton), tr("Characterise from Names"));
}

bool CharacteriseDock::clearAll() {
  return pushRoles(std::vector<std::string>(static_cast<std::size_t>(mDocument->scene().skeleton.jointCount())),
                   tr("Clear Characterisation"));
}

bool CharacteriseDock::loadMap(const QString& path) {
  Skeleton skeleton = mDocument->scene().skeleton;
  if (auto error = labelRolesFromFile(path.toStdString(), skeleton)) {
    refuse(QString::fromStdString(*error));
    return false;
  }
  return pushRoles(SetRolesCommand::rolesOf(skeleton), tr("Load Role Map %1").arg(QFileInfo(path).fileName()));
}

bool CharacteriseDock::saveMap(const QString& path) {
  Skeleton skeleton = mDocument->scene().skeleton;
  const std::vector<std::string> roles = shownRoles();
  for (int joint = 0; joint < skeleton.jointCount(); ++joint) skeleton.setRole(joint, roles[static_cast<std::size_t>(joint)]);
  if (auto error = writeFileAtomically(path.toStdString(), roleLabelsToJson(skeleton))) {
    refuse(QString::fromStdString(*error));
    return false;
  }
  mStatus->setText(tr("Saved the role map to %1.").arg(path));
  return false;
}

void CharacteriseDock::rowSelected() {
  const int row = mTable->currentRow();
  if (row < 0) return;
  const int joint = mDocument->scene().skeleton.findJoint(mTable->item(row, kJointColumn)->text().toStdString());
  if (joint < 0) return;
  mSelectingJoint = true;
  mDocument->setSelectedJoints({joint});
  mSelectingJoint = false;
}

void CharacteriseDock::jointPicked() {
  if (mSelectingJoint || !mPickButton->isChecked() || mDocument->selectedJoints().size() != 1) return;
  const int row = mTable->currentRow();
  if (row < 0 || !assignSelectedJoint()) return;
  if (row + 1 < mTable->rowCount()) {
    const QSignalBlocker blocker(mTable);
    mTable->selectRow(row + 1);
  }
}

void CharacteriseDock::documentChanged(const ChangeEvent& event) {
  switch (event.type) {
    case ChangeEvent::Type::SceneReplaced:
    case ChangeEvent::Type::RolesChanged:
    case ChangeEvent::Type::JointRenamed:
      refresh();
      break;
    case ChangeEvent::Type::SelectionChanged:
      jointPicked();
      break;
    case ChangeEvent::Type::CurrentClipChanged:
    case ChangeEvent::Type::ClipEdited:
      mConvention->refresh();
      break;
    default:
      break;
  }
}

void CharacteriseDock::refresh() {
  const Skeleton& skeleton = mDocument->scene().skeleton;
  const bool byHand = skeleton.hasRoles();
  const std::vector<std::string> roles = shownRoles();
  for (int row = 0; row < mTable->rowCount(); ++row) {
    const std::string key = mTable->item(row, kRoleColumn)->data(Qt::UserRole).toString().toStdString();
    const auto it = std::find(roles.begin(), roles.end(), key);
    QTableWidgetItem* item = mTable->item(row, kJointColumn);
    item->setText(it == roles.end() ? QString() : QString::fromStdString(skeleton.name(static_cast<int>(it - roles.begin()))));
    item->setForeground(byHand ? palette().text() : palette().placeholderText());
  }
  auto map = mapHumanoid(skeleton);
  if (skeleton.jointCount() == 0) {
    mStatus->setText(tr("This file has no skeleton."));
  } else if (!map) {
    mStatus->setText(QStringLiteral("<span style='color:#c0392b'>%1</span>")
                         .arg(tr("Not yet a humanoid: %1. Pick a joint for each bold role.")
                                  .arg(QString::fromStdString(map.error()))
                                  .toHtmlEscaped()));
  } else {
    mStatus->setText(byHand ? tr("Characterised by hand: the humanoid rig, foot contacts and retargeting use these roles.")
                            : tr("Found automatically (from the joint names, else the skeleton's shape). Assign a role to set "
                                 "them by hand."));
  }
  mConvention->refresh();
}

}  // namespace articula::ui
