// Rotation curves an animator can read and edit (issue 35): the curve editor plots the
// Euler angles Properties shows, continuous from sample to sample, and a rotation key dragged
// up or down turns the angle it was grabbed on, as one undo step.
#include <gtest/gtest.h>

#include <QApplication>
#include <QDoubleSpinBox>
#include <QMouseEvent>
#include <QTest>
#include <QUndoStack>

#include <algorithm>
#include <cmath>
#include <numbers>

#include "core/io/import.h"
#include "core/math/euler.h"
#include "ui/curves/curve_edits.h"
#include "ui/curves/curve_view.h"
#include "ui/curves/euler_curve.h"
#include "ui/document/document.h"
#include "ui/widgets/joint_transform_editor.h"
#include "ui_test_support.h"

namespace articula::ui {
namespace {

constexpr double kRadToDeg = 180.0 / std::numbers::pi;

// Distance between two rotations as unit quaternions, either sign.
double quatDistance(const Quat& a, const Quat& b) {
  return std::min((a.coeffs() - b.coeffs()).norm(), (a.coeffs() + b.coeffs()).norm());
}

KeyRef rotationKey(int joint, double time) { return {{KeyChannel::Kind::Rotation, joint, 0, {}}, time}; }

TEST(EulerCurve, StartsNearestNoRotationAndFollowsAFullTurnWithoutJumps) {
  // Two turns about y in quarter turns: the plotted y angle climbs to 720°, never wrapping.
  Clip clip;
  clip.frameRate = 4.0;
  clip.endTime = 2.0;
  RotationTrack track;
  for (int quarter = 0; quarter <= 8; ++quarter) {
    const float angleRad = static_cast<float>(quarter * std::numbers::pi / 2.0);
    track.insertKey({quarter * 0.25, Quat(Eigen::AngleAxisf(angleRad, Vec3::UnitY()))});
  }
  const EulerCurve curve = filteredEulerCurve(clip, track, RotationOrder::XYZ);
  ASSERT_FALSE(curve.times.empty());
  EXPECT_NEAR(curve.anglesRad.front().norm(), 0.0, 1e-6);
  for (std::size_t i = 1; i < curve.anglesRad.size(); ++i)
    ASSERT_LT((curve.anglesRad[i] - curve.anglesRad[i - 1]).cwiseAbs().maxCoeff() * kRadToDeg, 30.0) << i;
  EXPECT_NEAR(curve.anglesRad.back().y() * kRadToDeg, 720.0, 1e-3);
  EXPECT_NEAR(wrappedToHalfTurn(curve.anglesRad.back()).y(), 0.0, 1e-6);
  EXPECT_NEAR(wrappedToHalfTurn(Vec3(-std::numbers::pi_v<float>, 0, 0)).x(), std::numbers::pi_v<float>, 1e-6);
}

TEST(TurnedRotationKeys, RebuildTheKeyFromItsTurnedTripleAndTurnItsControlsWithIt) {
  // Three Bézier keys about a tilted axis, the middle one turned 30° about x in ZYX order.
  Clip clip;
  clip.frameRate = 10.0;
  clip.endTime = 1.0;
  const int joint = 2;
  const Vec3 axis = Vec3(0.3f, 1.0f, 0.2f).normalized();
  std::vector<RotationKey> keys;
  for (int k = 0; k < 3; ++k) {
    RotationKey key{k * 0.5, Quat(Eigen::AngleAxisf(0.8f * static_cast<float>(k), axis)),
                    RotationInterpolation::Bezier};
    key.inControl = key.value * Quat(Eigen::AngleAxisf(-0.1f, Vec3::UnitY()));
    key.outControl = key.value * Quat(Eigen::AngleAxisf(0.1f, Vec3::UnitZ()));
    keys.push_back(key);
  }
  clip.trackFor(joint).rotation.setKeys(keys);
  const std::vector<RotationOrder> orders(3, RotationOrder::ZYX);
  const RotationTrack& before = clip.findTrack(joint)->rotation;
  const EulerCurve curve = filteredEulerCurve(clip, before, RotationOrder::ZYX);
  const auto at = std::lower_bound(curve.times.begin(), curve.times.end(), 0.5);
  Vec3 expectedRad = curve.anglesRad[static_cast<std::size_t>(at - curve.times.begin())];
  expectedRad.x() += static_cast<float>(30.0 / kRadToDeg);

  const KeyChannel channel{KeyChannel::Kind::Rotation, joint, 0, {}};
  const KeyRef middle{channel, 0.5};
  const Clip turned = turnedRotationKeys(clip, std::span<const KeyRef>(&middle, 1), 0, 30.0, orders);
  const RotationTrack& after = turned.findTrack(joint)->rotation;
  ASSERT_EQ(after.size(), 3u);
  EXPECT_LT(quatDistance(after.keys()[1].value, eulerToQuat(expectedRad, RotationOrder::ZYX)), 1e-5);
  EXPECT_GT(quatDistance(after.keys()[1].value, before.keys()[1].value), 0.1);
  // The controls keep their turn relative to the key.
  const auto relative = [](const Quat& key, const Quat& control) { return Quat(key.inverse() * control); };
  EXPECT_LT(quatDistance(relative(after.keys()[1].value, after.keys()[1].inControl),
                         relative(before.keys()[1].value, before.keys()[1].inControl)),
            1e-5);
  EXPECT_LT(quatDistance(relative(after.keys()[1].value, after.keys()[1].outControl),
                         relative(before.keys()[1].value, before.keys()[1].outControl)),
            1e-5);
  for (const std::size_t other : {std::size_t{0}, std::size_t{2}})
    EXPECT_EQ(after.keys()[other].value.coeffs(), before.keys()[other].value.coeffs()) << other;
}

class RotationCurvesTest : public ::testing::Test {
 protected:
  void SetUp() override {
    view.resize(900, 500);
    view.show();
    QApplication::processEvents();
  }

  void open(const std::string& file, const std::string& clipName) {
    auto scene = importScene(test::dataPath(file));
    ASSERT_TRUE(scene) << (scene ? "" : scene.error());
    document.replaceScene(std::move(*scene), QString::fromStdString(file));
    const auto& clips = document.scene().clips;
    const auto found = std::find_if(clips.begin(), clips.end(), [&](const Clip& c) { return c.name == clipName; });
    ASSERT_NE(found, clips.end()) << clipName;
    document.setCurrentClip(static_cast<int>(found - clips.begin()));
  }

  int select(const char* jointName) {
    const int joint = document.scene().skeleton.findJoint(jointName);
    EXPECT_GE(joint, 0) << jointName;
    document.setSelectedJoints({joint});
    view.frameAll();
    return joint;
  }

  // At every key of the joint: the plotted triple rebuilds the key's quaternion, and equals
  // the triple Properties shows at the key's time (in (-180°, 180°]) up to whole turns.
  void expectPlotAgreesWithPropertiesAtEveryKey(const char* jointName) {
    const int joint = select(jointName);
    ASSERT_GE(joint, 0);
    const RotationTrack& rotation = document.currentClip()->findTrack(joint)->rotation;
    ASSERT_GT(rotation.size(), 2u) << jointName;
    const RotationOrder order = properties.rotationOrder();
    double worstRebuild = 0.0;
    double worstTurns = 0.0;
    for (const RotationKey& key : rotation.keys()) {
      Vec3 plottedRad;
      for (int axis = 0; axis < 3; ++axis) {
        const std::optional<double> degrees = view.plottedKeyValue(rotationKey(joint, key.time), axis);
        ASSERT_TRUE(degrees.has_value()) << jointName << " at " << key.time;
        plottedRad[axis] = static_cast<float>(*degrees / kRadToDeg);
      }
      worstRebuild = std::max(worstRebuild, quatDistance(eulerToQuat(plottedRad, order), key.value));
      document.setTime(key.time);
      for (int axis = 0; axis < 3; ++axis) {
        const double shown =
            properties.spinBox(JointTransformEditor::Field(JointTransformEditor::EulerX + axis))->value();
        EXPECT_GT(shown, -180.0);
        EXPECT_LE(shown, 180.0);
        worstTurns = std::max(worstTurns, std::abs(std::remainder(plottedRad[axis] * kRadToDeg - shown, 360.0)));
      }
    }
    EXPECT_LT(worstRebuild, 1e-4) << jointName;
    EXPECT_LT(worstTurns, 2e-3) << jointName << ": Properties shows another triple than the curve editor plots";
  }

  void drag(QPointF from, QPointF to) {
    QWidget* plot = view.plotWidget();
    QTest::mousePress(plot, Qt::LeftButton, Qt::NoModifier, from.toPoint());
    for (int step = 1; step <= 6; ++step) {
      const QPointF at = from + (to - from) * (step / 6.0);
      QMouseEvent move(QEvent::MouseMove, at, plot->mapToGlobal(at), Qt::NoButton, Qt::LeftButton, Qt::NoModifier);
      QApplication::sendEvent(plot, &move);
    }
    QTest::mouseRelease(plot, Qt::LeftButton, Qt::NoModifier, to.toPoint());
  }

  Document document;
  CurveView view{&document};
  JointTransformEditor properties{&document};
};

TEST_F(RotationCurvesTest, RobotWavePlotsTheAnglesPropertiesShowsAtEveryKey) {
  open("gltf/RobotExpressive/RobotExpressive.glb", "Wave");
  for (const char* joint : {"UpperArm.R", "LowerArm.R", "Shoulder.R", "Head"})
    expectPlotAgreesWithPropertiesAtEveryKey(joint);
}

TEST_F(RotationCurvesTest, CmuWalkPlotsTheAnglesPropertiesShowsAtEveryKey) {
  open("bvh/cmu-mb-2010/02_01.bvh", "02_01");
  for (const char* joint : {"LeftArm", "RightUpLeg", "Hips"}) expectPlotAgreesWithPropertiesAtEveryKey(joint);
}

// Every key of every clip but the one at (clip, joint, key) is as it was, either sign.
void expectOnlyKeyChanged(const std::vector<Clip>& before, const std::vector<Clip>& after, int clip, int joint,
                          std::size_t key) {
  ASSERT_EQ(before.size(), after.size());
  for (std::size_t c = 0; c < before.size(); ++c) {
    ASSERT_EQ(before[c].tracks.size(), after[c].tracks.size());
    EXPECT_EQ(before[c].curves.size(), after[c].curves.size());
    EXPECT_EQ(before[c].layers.size(), after[c].layers.size());
    for (std::size_t t = 0; t < before[c].tracks.size(); ++t) {
      const JointTrack& was = before[c].tracks[t];
      const JointTrack& now = after[c].tracks[t];
      ASSERT_EQ(was.joint, now.joint);
      ASSERT_EQ(was.rotation.size(), now.rotation.size());
      EXPECT_EQ(was.translation.x.keys().size(), now.translation.x.keys().size());
      for (std::size_t k = 0; k < was.rotation.size(); ++k) {
        const bool edited = static_cast<int>(c) == clip && was.joint == joint && k == key;
        EXPECT_EQ(quatDistance(was.rotation.keys()[k].value, now.rotation.keys()[k].value) == 0.0, !edited)
            << "clip " << c << " joint " << was.joint << " key " << k << " of " << key << ": "
            << quatDistance(was.rotation.keys()[k].value, now.rotation.keys()[k].value);
        EXPECT_EQ(was.rotation.keys()[k].time, now.rotation.keys()[k].time);
      }
    }
  }
}

TEST_F(RotationCurvesTest, DraggingARotationKeyUpTurnsTheGrabbedAngleOfThatKeyAloneAsOneUndoStep) {
  open("gltf/RobotExpressive/RobotExpressive.glb", "Wave");
  const int joint = select("UpperArm.R");
  ASSERT_GE(joint, 0);
  const std::vector<Clip> clipsBefore = document.scene().clips;
  const std::string original = test::serializeDocument(document);
  const int clip = document.currentClipIndex();
  const RotationTrack& rotation = document.currentClip()->findTrack(joint)->rotation;
  const std::size_t index = rotation.size() / 2;
  const KeyRef key = rotationKey(joint, rotation.keys()[index].time);
  const RotationOrder order = properties.rotationOrder();
  Vec3 plottedBeforeDeg;
  for (int axis = 0; axis < 3; ++axis) plottedBeforeDeg[axis] = static_cast<float>(*view.plottedKeyValue(key, axis));

  const int grabbedAxis = 1;
  const QPointF from = view.keyPixel(key, grabbedAxis)->toPoint();
  const double pixelsPerDegree = view.toPixel(key.time, 0.0).y() - view.toPixel(key.time, 1.0).y();
  const double turnDeg = 40.0 / pixelsPerDegree;
  ASSERT_GT(turnDeg, 1.0);
  drag(from, from + QPointF(0.0, -40.0));

  Vec3 expectedRad = plottedBeforeDeg / static_cast<float>(kRadToDeg);
  expectedRad[grabbedAxis] += static_cast<float>(turnDeg / kRadToDeg);
  const RotationTrack& turned = document.currentClip()->findTrack(joint)->rotation;
  ASSERT_EQ(turned.size(), rotation.size());
  EXPECT_LT(quatDistance(turned.keys()[index].value, eulerToQuat(expectedRad, order)), 1e-4);
  for (int axis = 0; axis < 3; ++axis) {
    EXPECT_NEAR(*view.plottedKeyValue(key, axis), plottedBeforeDeg[axis] + (axis == grabbedAxis ? turnDeg : 0.0), 1e-2)
        << "axis " << axis;
  }
  expectOnlyKeyChanged(clipsBefore, document.scene().clips, clip, joint, index);
  const std::string edited = test::serializeDocument(document);

  EXPECT_EQ(document.undoStack()->count(), 1);
  document.undoStack()->undo();
  EXPECT_EQ(test::serializeDocument(document), original);
  document.undoStack()->redo();
  EXPECT_EQ(test::serializeDocument(document), edited);
}

}  // namespace
}  // namespace articula::ui
