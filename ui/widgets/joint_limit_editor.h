#pragma once
#include <QWidget>

#include "core/rig/joint_limit.h"

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QLabel;

namespace articula::ui {

class Document;
struct ChangeEvent;

// The joint limit (IkHandle::limits) of one joint of the selected handle's chain: the
// selected joint when it is on the chain (the joint box picks another). Kind (free, cone,
// hinge), axis in the joint's parent space, cone half-angles, hinge range, twist limit;
// angles in degrees. Hidden while no handle is selected.
//
// Each edit pushes one EditHandleCommand (spin-box drags merge into one step); a limit the
// solver cannot use (limitProblem: min above max, a negative cone angle, a zero axis, …)
// is never applied: the fields go back to the stored limit and the message line says why.
class JointLimitEditor : public QWidget {
  Q_OBJECT

 public:
  enum AngleField { ConeX, ConeY, HingeMin, HingeMax, TwistMin, TwistMax, AngleFieldCount };

  explicit JointLimitEditor(Document* document, QWidget* parent = nullptr);

  // Chain joint whose limit is shown (skeleton index), -1 when none.
  int joint() const;
  void setJoint(int joint);  // ignored for a joint off the chain
  QComboBox* jointBox() const { return mJointBox; }
  QComboBox* kindBox() const { return mKindBox; }
  QDoubleSpinBox* axisBox(int axis) const { return mAxisBoxes[axis]; }
  QDoubleSpinBox* angleBox(AngleField field) const { return mAngleBoxes[field]; }
  QCheckBox* twistBox() const { return mTwistBox; }
  QLabel* messageLabel() const { return mMessageLabel; }

 signals:
  void problem(const QString& message);

 private:
  void documentChanged(const ChangeEvent& event);
  // followSelection: show the selected joint when it is on the chain (else keep the joint shown).
  void showHandle(bool followSelection);
  void refreshValues();
  // `field`: which control changed, so repeated changes of one spin box merge.
  void edited(int field, bool spinBox);
  void endMerge();
  JointLimit limitWithField(JointLimit limit, int field) const;
  int chainIndex() const;

  Document* const mDocument;
  QLabel* const mTitleLabel;
  QComboBox* const mJointBox;
  QComboBox* const mKindBox;
  QDoubleSpinBox* mAxisBoxes[3] = {};
  QDoubleSpinBox* mAngleBoxes[AngleFieldCount] = {};
  QCheckBox* const mTwistBox;
  QLabel* const mMessageLabel;
  int mHandle = -1;
  int mMergeField = -1;
  bool mMergeUndo = false;
  bool mRefreshing = false;
};

}  // namespace articula::ui
