// The timeline: dope sheet key edits through the real widget (mouse drags, shortcuts),
// each one undo step; clip list edits; auto key; stepping; playback at the clip's rate.
#include <gtest/gtest.h>

#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QTest>
#include <QUndoStack>

#include <algorithm>

#include "core/samples/mannequin.h"
#include "ui/commands/replace_clip_command.h"
#include "ui/commands/rig_set_command.h"
#include "ui/commands/set_joint_transform_command.h"
#include "ui/document/document.h"
#include "ui/timeline/auto_key.h"
#include "ui/timeline/dope_sheet.h"
#include "ui/timeline/key_channel.h"
#include "ui/timeline/playback_controller.h"
#include "ui/timeline/timeline_widget.h"
#include "ui_test_support.h"

namespace articula::ui {
namespace {

class TimelineTest : public ::testing::Test {
 protected:
  void SetUp() override {
    document.replaceScene(makeMannequin(), QString(), QStringLiteral("Mannequin"));
    hips = document.scene().skeleton.findJoint("Hips");
    ASSERT_GE(hips, 0);
    timeline.resize(1000, 320);
    timeline.show();
    QApplication::processEvents();
  }

  DopeSheet& sheet() { return *timeline.dopeSheet(); }

  int rowIndex(const QString& label) const {
    const auto& rows = timeline.dopeSheet()->rows();
    const auto found = std::find_if(rows.begin(), rows.end(), [&](const auto& row) { return row.label == label; });
    return found == rows.end() ? -1 : static_cast<int>(found - rows.begin());
  }

  const Curve& contactLeft() const { return document.currentClip()->curves.at("contact.left_foot"); }

  void drag(QPointF from, QPointF to) {
    QTest::mousePress(&sheet(), Qt::LeftButton, Qt::NoModifier, from.toPoint());
    // Several moves, as a real drag sends: they must still make one undo step.
    for (int step = 1; step <= 5; ++step) {
      const QPointF at = from + (to - from) * (step / 5.0);
      QMouseEvent move(QEvent::MouseMove, at, sheet().mapToGlobal(at), Qt::NoButton, Qt::LeftButton, Qt::NoModifier);
      QApplication::sendEvent(&sheet(), &move);
    }
    QTest::mouseRelease(&sheet(), Qt::LeftButton, Qt::NoModifier, to.toPoint());
  }

  Document document;
  PlaybackController playback{&document};
  TimelineWidget timeline{&document, &playback};
  int hips = -1;
};

TEST_F(TimelineTest, RowsShowTheSelectedJointsChannelsAndTheStrideCurves) {
  EXPECT_GE(rowIndex(QStringLiteral("contact.left_foot")), 0);
  EXPECT_LT(rowIndex(QStringLiteral("Hips")), 0);
  document.setSelectedJoints({hips});
  EXPECT_GE(rowIndex(QStringLiteral("Hips")), 0);
  EXPECT_GE(rowIndex(QStringLiteral("Translation")), 0);
  EXPECT_GE(rowIndex(QStringLiteral("Rotation")), 0);
  EXPECT_LT(rowIndex(QStringLiteral("Scale")), 0) << "the walk keys no scale";
  // The summary row holds every channel of the rows below it.
  EXPECT_EQ(sheet().rows().front().channels.size(), 3u + 1u + 2u);
}

// With nothing selected the summary row is the whole clip's: a key of any joint shows in
// it (and can be grabbed there), not only the stride curves' keys.
TEST_F(TimelineTest, WithNothingSelectedTheSummaryRowShowsEveryKeyOfTheClip) {
  ASSERT_TRUE(document.selectedJoints().empty());
  const Clip& clip = *document.currentClip();
  EXPECT_EQ(sheet().rows().front().channels, allKeyedChannels(clip));
  // A hips key at a time no stride curve keys: its diamond is on the summary row.
  const std::vector<double> hipsTimes = keyTimes(clip, {KeyChannel::Kind::Rotation, hips, 0, {}});
  const auto strideTimes = keyTimes(clip, {KeyChannel::Kind::Curve, -1, 0, "contact.left_foot"});
  const auto right = keyTimes(clip, {KeyChannel::Kind::Curve, -1, 0, "contact.right_foot"});
  const auto onlyHips = std::find_if(hipsTimes.begin(), hipsTimes.end(), [&](double t) {
    auto near = [t](double s) { return sameKeyTime(s, t); };
    return std::none_of(strideTimes.begin(), strideTimes.end(), near) && std::none_of(right.begin(), right.end(), near);
  });
  ASSERT_NE(onlyHips, hipsTimes.end());
  const std::vector<KeyRef> hit = sheet().keysAt(sheet().keyPosition(0, *onlyHips));
  EXPECT_TRUE(std::any_of(hit.begin(), hit.end(), [&](const KeyRef& key) { return key.channel.joint == hips; }));
  // A selection narrows it to the selected joint's rows again.
  document.setSelectedJoints({hips});
  EXPECT_EQ(sheet().rows().front().channels.size(), 3u + 1u + 2u);
}

// A handle's animated target and weight are its keys: under the handle while it is
// selected, never mixed into the stride curves.
TEST_F(TimelineTest, TheSelectedHandlesCurvesAreRowsUnderIt) {
  auto rig = BuildHumanoidRigCommand::humanoidRig(document);
  ASSERT_TRUE(rig) << rig.error();
  document.undoStack()->push(new BuildHumanoidRigCommand(&document, std::move(rig).value()));
  const IkHandle& leg = document.activeRig()->handles[1];
  Clip clip = *document.currentClip();
  clip.curves[handleCurveName(leg.name, "target.y")].insertKey(0.2, 0.1, Interpolation::Bezier);
  clip.curves[handleCurveName(leg.name, "target.y")].insertKey(0.6, 0.3, Interpolation::Bezier);
  clip.curves[handleCurveName(leg.name, "weight")].insertKey(0.4, 0.5, Interpolation::Linear);
  clip.curves["ik.no_such_handle.weight"].insertKey(0.4, 1.0, Interpolation::Linear);
  document.undoStack()->push(new ReplaceClipCommand(&document, 0, clip, QStringLiteral("Key handle")));

  const QString legName = QString::fromStdString(leg.name);
  EXPECT_LT(rowIndex(legName), 0);
  EXPECT_LT(rowIndex(QString::fromStdString(handleCurveName(leg.name, "weight"))), 0) << "not among the curves";
  EXPECT_GE(rowIndex(QStringLiteral("ik.no_such_handle.weight")), 0) << "no rig owns it: it stays visible";

  document.setSelectedHandle(1);
  const int handleRow = rowIndex(legName);
  ASSERT_GE(handleRow, 0);
  EXPECT_EQ(sheet().rows()[static_cast<std::size_t>(handleRow)].channels.size(), 2u);
  EXPECT_EQ(rowIndex(QStringLiteral("target.y")), handleRow + 1);
  EXPECT_EQ(rowIndex(QStringLiteral("weight")), handleRow + 2);
  EXPECT_EQ(sheet().keysAt(sheet().keyPosition(handleRow + 1, 0.6)).size(), 1u)
      << "its diamonds are where its keys are";

  document.setSelectedHandle(-1);
  EXPECT_LT(rowIndex(legName), 0);
}

TEST_F(TimelineTest, DraggingADiamondMovesItsKeysByWholeFramesInOneUndoStep) {
  const std::string original = test::serializeDocument(document);
  const int row = rowIndex(QStringLiteral("contact.left_foot"));
  ASSERT_GE(row, 0);
  const CurveKey key = contactLeft().keys()[2];
  const double frame = 1.0 / document.currentClip()->frameRate;
  const QPointF from = sheet().keyPosition(row, key.time);
  // Three and a bit frames to the right: snapped to three.
  const QPointF to = from + QPointF(3.3 * timeline.axis().pixelsPerFrame(), 0.0);
  const int stackBefore = document.undoStack()->count();
  // A click selects the key, a drag on it moves it.
  QTest::mouseClick(&sheet(), Qt::LeftButton, Qt::NoModifier, from.toPoint());
  drag(from, to);
  EXPECT_EQ(document.undoStack()->count(), stackBefore + 1);
  const auto& keys = contactLeft().keys();
  // The grabbed key lands on the whole frame nearest to where the mouse took it.
  const double landed = std::round((key.time + 3.3 * frame) / frame) * frame;
  const bool moved = std::any_of(keys.begin(), keys.end(), [&](const CurveKey& k) {
    return std::abs(k.time - landed) < 1e-9 && k.value == key.value;
  });
  EXPECT_TRUE(moved);
  EXPECT_FALSE(std::any_of(keys.begin(), keys.end(), [&](const CurveKey& k) { return sameKeyTime(k.time, key.time); }));
  ASSERT_EQ(sheet().selectedKeys().size(), 1u);
  EXPECT_NEAR(sheet().selectedKeys().front().time, landed, 1e-9);
  document.undoStack()->undo();
  EXPECT_EQ(test::serializeDocument(document), original);
}

TEST_F(TimelineTest, ASummaryDiamondMovesEveryChannelKeyedAtItsTime) {
  document.setSelectedJoints({hips});
  const Clip before = *document.currentClip();
  const double time = keyTimes(before, {KeyChannel::Kind::Rotation, hips, 0, {}}).at(1);
  const QPointF from = sheet().keyPosition(0, time);
  QTest::mouseClick(&sheet(), Qt::LeftButton, Qt::NoModifier, from.toPoint());
  drag(from, from + QPointF(2.0 * timeline.axis().pixelsPerFrame(), 0.0));
  const double moved = time + 2.0 / before.frameRate;
  for (const KeyChannel& channel : sheet().rows().front().channels) {
    const std::vector<double> beforeTimes = keyTimes(before, channel);
    if (std::none_of(beforeTimes.begin(), beforeTimes.end(), [&](double t) { return sameKeyTime(t, time); })) continue;
    const std::vector<double> after = keyTimes(*document.currentClip(), channel);
    EXPECT_TRUE(std::any_of(after.begin(), after.end(), [&](double t) { return std::abs(t - moved) < 1e-9; }))
        << channelName(channel, document.scene().skeleton);
  }
}

TEST_F(TimelineTest, BoxSelectThenDeleteRemovesTheKeysAndUndoRestoresThem) {
  const std::string original = test::serializeDocument(document);
  const int row = rowIndex(QStringLiteral("contact.right_foot"));
  ASSERT_GE(row, 0);
  const std::size_t keyCount = document.currentClip()->curves.at("contact.right_foot").size();
  // A box over the whole right-foot row (from just inside the time area to the far right).
  const double y = sheet().keyPosition(row, 0.0).y();
  drag(QPointF(DopeSheet::kLabelWidth + 2, y - 6), QPointF(sheet().width() - 2, y + 6));
  EXPECT_EQ(sheet().selectedKeys().size(), keyCount);
  sheet().setFocus();
  QTest::keyClick(&sheet(), Qt::Key_Delete);
  EXPECT_TRUE(document.currentClip()->curves.at("contact.right_foot").empty());
  EXPECT_EQ(contactLeft().size(), document.scene().clips[0].curves.at("contact.left_foot").size());
  document.undoStack()->undo();
  EXPECT_EQ(test::serializeDocument(document), original);
}

TEST_F(TimelineTest, CopyPasteAtTheCurrentFrameIsOneUndoStep) {
  const std::string original = test::serializeDocument(document);
  const KeyChannel channel{KeyChannel::Kind::Curve, -1, 0, "contact.left_foot"};
  const double first = contactLeft().keys()[2].time;
  const double second = contactLeft().keys()[3].time;
  sheet().setSelectedKeys({{channel, first}, {channel, second}});
  sheet().setFocus();
  QTest::keyClick(&sheet(), Qt::Key_C, Qt::ControlModifier);
  document.setFrame(25);
  QTest::keyClick(&sheet(), Qt::Key_V, Qt::ControlModifier);
  const double at = document.time();
  EXPECT_NEAR(contactLeft().evaluate(at), contactLeft().evaluate(first), 1e-9);
  const auto& keys = contactLeft().keys();
  EXPECT_TRUE(std::any_of(keys.begin(), keys.end(),
                          [&](const CurveKey& k) { return std::abs(k.time - (at + second - first)) < 1e-9; }));
  EXPECT_EQ(sheet().selectedKeys().size(), 2u);
  document.undoStack()->undo();
  document.setFrame(0);
  EXPECT_EQ(test::serializeDocument(document), original);
}

TEST_F(TimelineTest, AutoKeyKeysAJointEditAtTheCurrentFrame) {
  document.setFrame(7);
  const int leftArm = document.scene().skeleton.findJoint("LeftArm");
  const std::size_t keysBefore = document.currentClip()->findTrack(leftArm)->rotation.size();
  timeline.autoKeyAction()->setChecked(true);
  ASSERT_TRUE(timeline.autoKey()->isEnabled());
  Transform local = document.localPose()[static_cast<std::size_t>(leftArm)];
  local.rotation = Quat(Eigen::AngleAxisf(0.5f, Vec3::UnitZ())) * local.rotation;
  document.undoStack()->push(
      new SetJointTransformCommand(&document, leftArm, local, SetJointTransformCommand::Channel::Rotate));
  QApplication::processEvents();
  const RotationTrack& rotation = document.currentClip()->findTrack(leftArm)->rotation;
  EXPECT_EQ(rotation.size(), keysBefore + 1);
  EXPECT_TRUE(rotation.evaluate(document.time()).isApprox(local.rotation, 1e-5f));
  EXPECT_TRUE(document.poseOverrides().empty()) << "the edit is now animation";
  // One undo takes back the edit and its key; redo brings both, keyed once.
  document.undoStack()->undo();
  QApplication::processEvents();
  EXPECT_EQ(document.currentClip()->findTrack(leftArm)->rotation.size(), keysBefore);
  EXPECT_TRUE(document.poseOverrides().empty()) << "no unkeyed edit left behind";
  EXPECT_TRUE(document.undoStack()->canRedo());
  document.undoStack()->redo();
  QApplication::processEvents();
  EXPECT_EQ(document.currentClip()->findTrack(leftArm)->rotation.size(), keysBefore + 1);
  EXPECT_TRUE(document.poseOverrides().empty());

  timeline.autoKeyAction()->setChecked(false);
  document.undoStack()->undo();
  document.undoStack()->push(
      new SetJointTransformCommand(&document, leftArm, local, SetJointTransformCommand::Channel::Rotate));
  QApplication::processEvents();
  EXPECT_EQ(document.currentClip()->findTrack(leftArm)->rotation.size(), keysBefore) << "auto key is off";
}

TEST_F(TimelineTest, ClipRenameDuplicateDeleteAreUndoable) {
  const std::string original = test::serializeDocument(document);
  timeline.renameCurrentClip(QStringLiteral("stroll"));
  EXPECT_EQ(document.currentClip()->name, "stroll");
  EXPECT_EQ(timeline.clipSelector()->currentText(), QStringLiteral("stroll"));
  timeline.duplicateCurrentClip();
  ASSERT_EQ(document.scene().clips.size(), 2u);
  EXPECT_EQ(document.currentClipIndex(), 1);
  EXPECT_EQ(document.currentClip()->name, "stroll copy");
  EXPECT_EQ(timeline.clipSelector()->count(), 2);
  timeline.deleteCurrentClip();
  ASSERT_EQ(document.scene().clips.size(), 1u);
  timeline.deleteCurrentClip();
  EXPECT_TRUE(document.scene().clips.empty());
  EXPECT_EQ(document.currentClip(), nullptr);
  EXPECT_FALSE(timeline.playAction()->isEnabled());
  for (int step = 0; step < 4; ++step) document.undoStack()->undo();
  EXPECT_EQ(test::serializeDocument(document), original);
  EXPECT_EQ(timeline.clipSelector()->count(), 1);
}

TEST_F(TimelineTest, StepAndJumpBetweenKeys) {
  timeline.stepForwardAction()->trigger();
  timeline.stepForwardAction()->trigger();
  EXPECT_EQ(document.currentFrame(), 2);
  timeline.stepBackAction()->trigger();
  EXPECT_EQ(document.currentFrame(), 1);
  document.setSelectedJoints({hips});
  // Keys of every row (the summary): the hips' channels and the stride curves.
  std::vector<double> times;
  for (const KeyChannel& channel : sheet().rows().front().channels) {
    const std::vector<double> channelTimes = keyTimes(*document.currentClip(), channel);
    times.insert(times.end(), channelTimes.begin(), channelTimes.end());
  }
  std::sort(times.begin(), times.end());
  times.erase(std::unique(times.begin(), times.end(), sameKeyTime), times.end());
  timeline.nextKeyAction()->trigger();
  EXPECT_NEAR(document.time(), times.at(1), 1e-9);
  timeline.nextKeyAction()->trigger();
  EXPECT_NEAR(document.time(), times.at(2), 1e-9);
  timeline.previousKeyAction()->trigger();
  EXPECT_NEAR(document.time(), times.at(1), 1e-9);
}

TEST_F(TimelineTest, FrameRateAndRangeEditsAreUndoableAndPlaybackFollowsTheRate) {
  const std::string original = test::serializeDocument(document);
  timeline.setCurrentFrameRate(24.0);
  EXPECT_EQ(document.currentClip()->frameRate, 24.0);
  EXPECT_EQ(document.frameCount(), 25);
  timeline.setCurrentLastFrame(48);
  EXPECT_EQ(document.frameCount(), 49);
  EXPECT_NEAR(document.currentClip()->endTime, 2.0, 1e-12);

  test::FakeClock clock;
  playback.setClock(clock.clock());
  playback.play();
  clock.advanceSeconds(0.5);
  playback.advance();
  EXPECT_EQ(document.currentFrame(), 12) << "half a second at 24 fps";
  clock.advanceSeconds(1.0);
  playback.advance();
  EXPECT_EQ(document.currentFrame(), 36);
  playback.pause();

  document.undoStack()->undo();
  document.undoStack()->undo();
  document.setFrame(0);
  EXPECT_EQ(test::serializeDocument(document), original);
}

// Keys moved onto other keys replace them, also where the moved time is not bit-equal to
// the key it lands on (1044/120 + 5/120 is not 1049/120): on CMU 01_01, moving frames
// 1040-1045 by five frames left frame 1049's old key and lost the key from 1044.
TEST(MovedKeys, AMovedKeyReplacesTheKeyItLandsOnAtAnyFrameRate) {
  for (const double rate : {24.0, 30.0, 60.0, 120.0}) {
    Clip clip;
    clip.frameRate = rate;
    std::vector<RotationKey> rotations;
    std::vector<CurveKey> curveKeys;
    for (int f = 1030; f <= 1060; ++f) {
      RotationKey rotation;
      rotation.time = f / rate;
      rotation.value = Quat(Eigen::AngleAxisf(0.01f * static_cast<float>(f - 1030), Vec3::UnitX()));
      rotations.push_back(rotation);
      CurveKey key;
      key.time = f / rate;
      key.value = f;
      curveKeys.push_back(key);
    }
    clip.trackFor(0).rotation.setKeys(rotations);
    clip.curves["contact.left_foot"].setKeys(curveKeys);
    clip.updateRange();
    const KeyChannel rotation{KeyChannel::Kind::Rotation, 0, 0, {}};
    const KeyChannel curve{KeyChannel::Kind::Curve, -1, 0, "contact.left_foot"};
    std::vector<KeyRef> selected;
    for (int f = 1040; f <= 1045; ++f) {
      selected.push_back({rotation, f / rate});
      selected.push_back({curve, f / rate});
    }
    const Clip moved = movedKeys(clip, selected, 5.0 / rate);
    const auto& movedRotations = moved.findTrack(0)->rotation.keys();
    const auto& movedCurve = moved.curves.at("contact.left_foot").keys();
    ASSERT_EQ(movedRotations.size(), rotations.size() - 5) << rate << " fps";
    ASSERT_EQ(movedCurve.size(), curveKeys.size() - 5) << rate << " fps";
    for (int f = 1045; f <= 1050; ++f) {
      const auto at = [&](const auto& keys) {
        return std::find_if(keys.begin(), keys.end(), [&](const auto& k) { return sameKeyTime(k.time, f / rate); });
      };
      const auto r = at(movedRotations);
      const auto c = at(movedCurve);
      ASSERT_NE(r, movedRotations.end()) << f;
      ASSERT_NE(c, movedCurve.end()) << f;
      EXPECT_DOUBLE_EQ(c->value, f - 5) << rate << " fps, frame " << f << ": the moved key, not the old one";
      EXPECT_LT(r->value.angularDistance(rotations[static_cast<std::size_t>(f - 5 - 1030)].value), 1e-5f)
          << rate << " fps, frame " << f;
    }
  }
}

}  // namespace
}  // namespace articula::ui
