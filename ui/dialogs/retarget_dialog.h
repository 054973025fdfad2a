#pragma once
#include <QDialog>
#include <QString>

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QPushButton;

namespace articula::ui {

// What Animation ▸ Retarget… puts on the open character (as `articula-cli retarget`).
struct RetargetRequest {
  QString source;     // the file whose clips are retargeted
  QString sourceMap;  // its role map file; empty: its joint names decide
  bool plantFeet = false;   // the character's feet planted by the foot-skate cleanup
  bool handsReach = false;  // hands by arm IK where the source's are, scaled by the arms
  double frameRate = 0.0;   // of the new clips; 0 keeps the source's
  // frameRate is the open character's: a dialog for another character offers its own.
  bool characterRate = false;
  // A clip's first frame left out where it is a capture's T-pose (leadsWithRestFrame).
  bool skipRestFrame = false;
};

// The Retarget dialog: the source file and, for a source whose names say nothing, its role
// map; planted feet, reaching hands, the frame rate of the new clips and whether a capture's
// T-pose first frame is left out. Its Retarget button
// asks for the retarget (retargetRequested) and stays open: whoever runs it closes the dialog
// on success (accept) or shows why not (showRefusal), so a refused source keeps the choices.
class RetargetDialog : public QDialog {
  Q_OBJECT

 public:
  // `characterFrameRate`: the rate of the character's first clip, offered as a choice
  // (0 when it has none).
  explicit RetargetDialog(double characterFrameRate, QWidget* parent = nullptr);

  RetargetRequest request() const;
  // Fills the fields with an earlier request (the last one of the session), so a retry or
  // the next take of a library needs no retyping.
  void setRequest(const RetargetRequest& request);
  // The one-line reason the last request was refused, under the fields; empty hides it. An
  // edit of the source or its map hides it too (it spoke of the other file).
  void showRefusal(const QString& message);

  QLabel* refusalLabel() const { return mRefusal; }
  QPushButton* retargetButton() const { return mRetargetButton; }

  QLineEdit* sourceEdit() const { return mSource; }
  QLineEdit* sourceMapEdit() const { return mSourceMap; }
  QCheckBox* plantFeetBox() const { return mPlantFeet; }
  QCheckBox* handsReachBox() const { return mHandsReach; }
  QCheckBox* skipRestFrameBox() const { return mSkipRestFrame; }
  QComboBox* rateBox() const { return mRate; }  // source's, character's, or the spin box's
  QDoubleSpinBox* rateSpin() const { return mRateSpin; }

 signals:
  void retargetRequested(const RetargetRequest& request);

 private:
  void updateButtons();

  QLineEdit* const mSource;
  QLineEdit* const mSourceMap;
  QCheckBox* const mPlantFeet;
  QCheckBox* const mHandsReach;
  QCheckBox* const mSkipRestFrame;
  QComboBox* const mRate;
  QDoubleSpinBox* const mRateSpin;
  QLabel* const mRefusal;
  QPushButton* mRetargetButton = nullptr;
};

}  // namespace articula::ui
