#pragma once
#include <QWidget>

#include "core/scene/scene.h"

class QComboBox;
class QLabel;

namespace articula::ui {

class Document;

// The Characterise panel's capture convention: what CaptureConventionJob decides on the current
// clip (up, facing, units, rest pose, frame rate, each with how it was decided) and the user's
// override of the up (±X/±Y/±Z), the facing (an axis perpendicular to the up) and the units,
// each Auto by default, its item naming the decided value. A choice is one undo step
// (SetConventionCommand) that the project keeps and export, bake, contacts and retarget read.
class ConventionEditor : public QWidget {
  Q_OBJECT

 public:
  explicit ConventionEditor(Document* document, QWidget* parent = nullptr);

  QLabel* label() const { return mLabel; }
  QComboBox* upBox() const { return mUpBox; }
  QComboBox* facingBox() const { return mFacingBox; }
  QComboBox* unitsBox() const { return mUnitsBox; }

  // Pushes the override; a facing left parallel to a new up goes back to Auto in the same
  // step. Returns whether the document changed.
  bool setConvention(ConventionOverride convention);
  // Re-reads the document (its clip, skeleton and override).
  void refresh();

 private:
  void upChosen(int index);
  void facingChosen(int index);
  void unitsChosen(int index);
  // The boxes' items for the override in place, "Auto" naming what was decided.
  void fillBoxes(const QString& decidedUp, const QString& decidedFacing, const QString& decidedUnits,
                 const std::optional<Vec3>& upModel);

  Document* const mDocument;
  QComboBox* const mUpBox;
  QComboBox* const mFacingBox;
  QComboBox* const mUnitsBox;
  QLabel* const mLabel;
};

}  // namespace articula::ui
