#include "core/bake/contact_detection.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <initializer_list>
#include <utility>
#include <vector>

#include "core/io/import.h"
#include "core/rig/humanoid_map.h"
#include "core/rig/humanoid_rig.h"
#include "core/samples/mannequin.h"

namespace articula {
namespace {

// A one-legged "character": hip at 1 m, ankle below it, toe in front. The hip's
// translation is keyed so the foot is planted on frames 0–10 and 21–30 and swings
// (lifted 0.2 m and moving forward) on frames 11–20, at 30 fps.
struct Hopper {
  Scene scene;
  FootJoints foot{"contact.left_foot", -1, -1};

  Hopper() {
    Transform hip;
    hip.translation = Vec3(0, 1.0f, 0);
    const int root = scene.skeleton.addJoint("LeftUpLeg", kNoParent, hip);
    Transform down;
    down.translation = Vec3(0, -0.9f, 0);
    foot.ankle = scene.skeleton.addJoint("LeftFoot", root, down);
    Transform forward;
    forward.translation = Vec3(0, -0.08f, 0.15f);
    foot.toe = scene.skeleton.addJoint("LeftToeBase", foot.ankle, forward);
    Clip clip;
    clip.name = "hop";
    clip.frameRate = 30.0;
    JointTrack& track = clip.trackFor(root);
    std::vector<CurveKey> y, z;
    for (int f = 0; f <= 30; ++f) {
      const bool swing = f >= 11 && f <= 20;
      const double t = f / 30.0;
      const double phase = swing ? (f - 10) / 11.0 : 0.0;
      CurveKey ky{t, 1.0 + (swing ? 0.2 * std::sin(phase * 3.14159265) : 0.0), Interpolation::Linear};
      CurveKey kz{t, f <= 10 ? 0.0 : (f >= 21 ? 0.6 : 0.6 * phase), Interpolation::Linear};
      y.push_back(ky);
      z.push_back(kz);
    }
    track.translation.x.insertKey(0.0, 0.0, Interpolation::Linear);
    track.translation.y.setKeys(y);
    track.translation.z.setKeys(z);
    clip.updateRange();
    scene.clips.push_back(clip);
  }
};

// A foot that is only an ankle at the root, its height keyed per frame (Linear keys at
// 30 fps, model space, Y up) and no horizontal motion: the detection sees exactly `heights`.
struct HeightProfile {
  Scene scene;
  FootJoints foot{"contact.left_foot", -1, -1};

  explicit HeightProfile(const std::vector<double>& heights) {
    foot.ankle = scene.skeleton.addJoint("LeftFoot", kNoParent, Transform{});
    Clip clip;
    clip.name = "profile";
    clip.frameRate = 30.0;
    std::vector<CurveKey> y;
    for (std::size_t f = 0; f < heights.size(); ++f) y.push_back(CurveKey{f / 30.0, heights[f], Interpolation::Linear});
    clip.trackFor(foot.ankle).translation.y.setKeys(y);
    clip.updateRange();
    scene.clips.push_back(clip);
  }

  // Contacts found with explicit thresholds: low below 0.05, still below 0.1 per second.
  std::vector<ContactInterval> contacts(ContactDetectionOptions options) {
    options.heightThreshold = 0.05f;
    options.speedThreshold = 0.1f;
    Clip& clip = scene.clips.front();
    auto result = detectContacts(scene, clip, {foot}, options);
    EXPECT_TRUE(result.ok()) << result.error();
    if (!result.ok()) return {};
    EXPECT_FLOAT_EQ(result->heightThreshold, 0.05f);
    EXPECT_FLOAT_EQ(result->speedThreshold, 0.1f);
    return result->feet.front().foot;
  }
};

// Heights: `frames` frames at `height` for each (frames, height) run.
std::vector<double> runs(std::initializer_list<std::pair<int, double>> list) {
  std::vector<double> heights;
  for (const auto& [frames, height] : list) heights.insert(heights.end(), static_cast<std::size_t>(frames), height);
  return heights;
}

std::vector<std::pair<int, int>> spans(const std::vector<ContactInterval>& contacts) {
  std::vector<std::pair<int, int>> out;
  for (const ContactInterval& c : contacts) out.emplace_back(c.first, c.last);
  return out;
}

using Spans = std::vector<std::pair<int, int>>;

// Planted on the ground, then hovering at 1.2 × the height threshold, then lifted, then
// hovering again, then down: with hysteresis (release 1.5) the hover keeps a planted foot
// planted but does not plant a free one; without (release 1) the contact ends at the hover.
TEST(DetectContacts, HysteresisKeepsAPlantedFootPlanted) {
  HeightProfile profile(runs({{10, 0.0}, {10, 0.06}, {10, 0.2}, {10, 0.06}, {10, 0.0}}));
  ContactDetectionOptions options;
  options.minGapSeconds = 0.0;
  options.release = 1.5f;
  EXPECT_EQ(spans(profile.contacts(options)), (Spans{{0, 19}, {40, 49}}));
  options.release = 1.0f;
  EXPECT_EQ(spans(profile.contacts(options)), (Spans{{0, 9}, {40, 49}}));
}

// A two-frame touch is a contact only when the minimum length allows it; a one-frame lift
// inside a contact is filled only when the minimum gap covers it.
TEST(DetectContacts, MinimumContactAndGapLengths) {
  HeightProfile touch(runs({{10, 0.2}, {2, 0.0}, {18, 0.2}, {10, 0.0}}));
  ContactDetectionOptions options;
  options.minGapSeconds = 0.0;
  options.minContactSeconds = 0.1;  // 3 frames
  EXPECT_EQ(spans(touch.contacts(options)), (Spans{{30, 39}}));
  options.minContactSeconds = 0.05;  // 2 frames
  EXPECT_EQ(spans(touch.contacts(options)), (Spans{{10, 11}, {30, 39}}));

  HeightProfile lift(runs({{10, 0.0}, {1, 0.2}, {9, 0.0}, {10, 0.2}}));
  options.minContactSeconds = 0.0;
  options.minGapSeconds = 0.0;
  EXPECT_EQ(spans(lift.contacts(options)), (Spans{{0, 9}, {11, 19}}));
  options.minGapSeconds = 0.05;  // gaps under 2 frames are filled
  EXPECT_EQ(spans(lift.contacts(options)), (Spans{{0, 19}}));
}

// A foot that slides (horizontal speed above the threshold) on the ground is not planted.
TEST(DetectContacts, SpeedThresholdIsHonoured) {
  HeightProfile profile(runs({{30, 0.0}}));
  Clip& clip = profile.scene.clips.front();
  std::vector<CurveKey> x;
  for (int f = 0; f < 30; ++f) x.push_back(CurveKey{f / 30.0, f < 15 ? 0.0 : (f - 15) * 0.01, Interpolation::Linear});
  clip.trackFor(profile.foot.ankle).translation.x.setKeys(x);  // 0.3 m/s from frame 15
  ContactDetectionOptions options;
  options.minGapSeconds = 0.0;
  options.release = 1.0f;
  const auto contacts = spans(profile.contacts(options));
  ASSERT_EQ(contacts.size(), 1u);
  EXPECT_EQ(contacts[0].first, 0);
  EXPECT_NEAR(contacts[0].second, 14, 1);
}

TEST(DetectContacts, BadOptionsAreNamedAndLeaveTheClipUntouched) {
  HeightProfile profile(runs({{30, 0.0}}));
  Clip& clip = profile.scene.clips.front();
  ContactDetectionOptions options;
  options.release = 0.5f;
  auto result = detectContacts(profile.scene, clip, {profile.foot}, options);
  ASSERT_FALSE(result.ok());
  EXPECT_NE(result.error().find("release"), std::string::npos) << result.error();
  EXPECT_TRUE(clip.curves.empty());
}

TEST(DetectContacts, FindsPlantsAndWritesAnEasedStrideCurve) {
  Hopper h;
  Clip& clip = h.scene.clips.front();
  auto result = detectContacts(h.scene, clip, {h.foot});
  ASSERT_TRUE(result.ok()) << result.error();
  ASSERT_EQ(result->feet.size(), 1u);
  const auto& contacts = result->feet[0].foot;
  ASSERT_EQ(contacts.size(), 2u);
  EXPECT_EQ(contacts[0].first, 0);
  EXPECT_NEAR(contacts[0].last, 10, 1);
  EXPECT_NEAR(contacts[1].first, 21, 1);
  EXPECT_EQ(contacts[1].last, 30);
  ASSERT_TRUE(clip.curves.count("contact.left_foot"));
  const Curve& stride = clip.curves.at("contact.left_foot");
  for (const auto& c : contacts) {
    for (int f = c.first; f <= c.last; ++f) EXPECT_NEAR(stride.evaluate(f / 30.0), 1.0, 1e-9) << f;
  }
  EXPECT_NEAR(stride.evaluate(15 / 30.0), 0.0, 1e-9);
  for (int i = 0; i <= 300; ++i) {
    const double v = stride.evaluate(i / 300.0);
    EXPECT_GE(v, -1e-9);
    EXPECT_LE(v, 1.0 + 1e-9);
  }
}

TEST(DetectContacts, ShortClipFailsAndLeavesTheClipUntouched) {
  Hopper h;
  Clip empty;
  empty.name = "empty";
  auto result = detectContacts(h.scene, empty, {h.foot});
  ASSERT_FALSE(result.ok());
  EXPECT_NE(result.error().find("'empty'"), std::string::npos) << result.error();
  EXPECT_TRUE(empty.curves.empty());
}

TEST(DetectContacts, BadJointIsNamedAndLeavesTheClipUntouched) {
  Hopper h;
  Clip& clip = h.scene.clips.front();
  Curve existing;
  existing.insertKey(0.0, 0.25);
  clip.curves["contact.left_foot"] = existing;
  for (const FootJoints& bad :
       {FootJoints{"contact.left_foot", 42, -1}, FootJoints{"contact.left_foot", h.foot.ankle, 42}}) {
    auto result = detectContacts(h.scene, clip, {h.foot, bad});
    ASSERT_FALSE(result.ok());
    EXPECT_NE(result.error().find("contact.left_foot"), std::string::npos) << result.error();
    EXPECT_NE(result.error().find("42"), std::string::npos) << result.error();
    ASSERT_EQ(clip.curves.size(), 1u);
    EXPECT_EQ(clip.curves.at("contact.left_foot").size(), 1u);
    EXPECT_EQ(clip.curves.at("contact.left_foot").keys()[0].value, 0.25);
  }
}

TEST(DetectContacts, CmuWalkFindsEachStep) {
  auto scene = importScene(std::string(ARTICULA_TEST_DATA_DIR) + "/bvh/cmu-mb-2010/02_01.bvh");
  ASSERT_TRUE(scene.ok()) << scene.error();
  auto feet = humanoidFeet(scene->skeleton);
  ASSERT_TRUE(feet.ok()) << feet.error();
  Clip& clip = scene->clips.front();
  auto result = detectContacts(*scene, clip, *feet);
  ASSERT_TRUE(result.ok()) << result.error();
  // Steps counted by eye: `articula-cli contacts 02_01.bvh --out walk.glb --heights h.csv`
  // dumps each ankle's and toe's model-space height per frame, and
  // `python3 tests/tools/plot_foot_heights.py h.csv plot.png` plots them (one panel per foot,
  // ankle blue, toe red). A contact is a stretch where the ankle or the toe sits flat at the
  // bottom of its curve between two swing peaks. Counted once on that plot (frames at
  // 120 fps, approximate): the left foot is planted over about frames 5-75, 125-205 and
  // 260-343 (the clip ends with its toe still down): 3. The right foot pushes off on its toe
  // over frames 1-12, then is planted over about 60-145 and 195-275: 3. Its heel touches
  // down again only in the last five frames (0.04 s, the toe still in the air), a landing
  // cut off by the end of the clip, not counted. The ground of this capture rises by about
  // 0.8 units (a quarter of a swing's lift) over the walk, so each stance sits a little
  // higher than the previous one; frame 0 is CMU's reference pose, far below the walk.
  constexpr std::size_t kLeftSteps = 3;
  constexpr std::size_t kRightSteps = 3;
  const auto describe = [&](const FootContacts& foot) {
    std::string text = foot.curveName + ":";
    for (const ContactInterval& c : foot.foot)
      text.append(" [" + std::to_string(c.first) + ", " + std::to_string(c.last) + "]");
    return text + " (height threshold " + std::to_string(result->heightThreshold) + ", speed threshold " +
           std::to_string(result->speedThreshold) + ")";
  };
  ASSERT_EQ(result->feet.size(), 2u);
  EXPECT_EQ(result->feet[0].curveName, "contact.left_foot");
  EXPECT_EQ(result->feet[0].foot.size(), kLeftSteps) << describe(result->feet[0]);
  EXPECT_EQ(result->feet[1].foot.size(), kRightSteps) << describe(result->feet[1]);
  // And each contact found lies in its stance seen on the plot (its middle frame inside).
  const std::vector<std::vector<std::pair<int, int>>> seen = {{{5, 75}, {125, 205}, {260, 343}},
                                                              {{1, 12}, {60, 145}, {195, 275}}};
  for (std::size_t f = 0; f < 2; ++f) {
    const auto& found = result->feet[f].foot;
    for (std::size_t c = 0; c < std::min(found.size(), seen[f].size()); ++c) {
      const int middle = (found[c].first + found[c].last) / 2;
      EXPECT_GE(middle, seen[f][c].first) << describe(result->feet[f]);
      EXPECT_LE(middle, seen[f][c].second) << describe(result->feet[f]);
    }
  }
}

// Within each contact of the CMU run 09_11 (a heel that rises about the toe while still
// low), the ankle is held on exactly the frames where it is within the height threshold of
// its floor, whatever its speed, and the toe only where the ankle is not: the ankle's and
// the toe's frames never overlap, and both lie inside the foot's contacts. A held ankle's
// floor is given for every frame.
TEST(DetectContacts, TheAnkleHoldsWhereverItIsLowInAContact) {
  auto scene = importScene(std::string(ARTICULA_TEST_DATA_DIR) + "/bvh/cmu-mb-2010/09_11.bvh");
  ASSERT_TRUE(scene.ok()) << scene.error();
  auto feet = humanoidFeet(scene->skeleton);
  ASSERT_TRUE(feet.ok()) << feet.error();
  Clip& clip = scene->clips.front();
  auto result = detectContacts(*scene, clip, *feet);
  ASSERT_TRUE(result.ok()) << result.error();
  const auto covers = [](const std::vector<ContactInterval>& list, int f) {
    return std::any_of(list.begin(), list.end(), [f](const ContactInterval& c) { return f >= c.first && f <= c.last; });
  };
  for (const FootContacts& foot : result->feet) {
    SCOPED_TRACE(foot.curveName);
    ASSERT_EQ(foot.ankleFloorModel.size(), static_cast<std::size_t>(result->frameCount));
    ASSERT_FALSE(foot.foot.empty());
    int heldWhileRising = 0;
    for (int f = 0; f < result->frameCount; ++f) {
      const auto k = static_cast<std::size_t>(f);
      const bool low = foot.ankleHeightModel[k] - foot.ankleFloorModel[k] < result->heightThreshold;
      const bool inContact = covers(foot.foot, f);
      EXPECT_EQ(covers(foot.ankle, f), inContact && low) << "frame " << f;
      EXPECT_FALSE(covers(foot.ankle, f) && covers(foot.toe, f)) << "frame " << f;
      EXPECT_TRUE(!covers(foot.toe, f) || inContact) << "frame " << f;
      if (covers(foot.ankle, f) && f > 0 && foot.ankleHeightModel[k] > foot.ankleHeightModel[k - 1]) ++heldWhileRising;
    }
    EXPECT_GT(heldWhileRising, 0) << "the heel rises within the low band in every stance of this run";
  }
}

TEST(DetectContacts, MannequinContactsMatchItsAuthoredStrides) {
  Scene scene = makeMannequin();
  auto feet = humanoidFeet(scene.skeleton);
  ASSERT_TRUE(feet.ok()) << feet.error();
  Clip detected = scene.clips.front();
  auto result = detectContacts(scene, detected, *feet);
  ASSERT_TRUE(result.ok()) << result.error();
  const Clip& authored = scene.clips.front();
  for (const char* name : {"contact.left_foot", "contact.right_foot"}) {
    ASSERT_TRUE(authored.curves.count(name)) << name;
    int agree = 0;
    const int frames = authored.frameCount();
    for (int f = 0; f <= frames; ++f) {
      const double t = authored.startTime + f / authored.frameRate;
      agree += (authored.curves.at(name).evaluate(t) > 0.5) == (detected.curves.at(name).evaluate(t) > 0.5);
    }
    EXPECT_GE(agree, static_cast<int>(0.85 * (frames + 1))) << name;
  }
}

}  // namespace
}  // namespace articula

namespace articula {
namespace {

struct InPlaceCase {
  Scene scene;
  std::vector<FootJoints> feet;
  HumanoidFrame frame;
  Clip* clip = nullptr;
};

// A character, its feet and its own up and forward (the humanoid rig's), and one clip.
InPlaceCase load(const std::string& file, const std::string& clipName) {
  InPlaceCase c;
  auto scene = importScene(std::string(ARTICULA_TEST_DATA_DIR) + file);
  EXPECT_TRUE(scene.ok()) << scene.error();
  if (!scene.ok()) return c;
  c.scene = std::move(*scene);
  auto feet = humanoidFeet(c.scene.skeleton);
  auto map = mapHumanoid(c.scene.skeleton);
  EXPECT_TRUE(feet.ok() && map.ok());
  if (!feet.ok() || !map.ok()) return c;
  c.feet = *feet;
  c.frame = *humanoidFrame(c.scene.skeleton, *map);
  for (Clip& clip : c.scene.clips) {
    if (clip.name == clipName) c.clip = &clip;
  }
  EXPECT_NE(c.clip, nullptr) << clipName;
  return c;
}

// A travelling capture stands on still ground.
TEST(DetectContacts, TravellingCaptureHasNoTreadmill) {
  InPlaceCase c = load("/bvh/cmu-mb-2010/02_01.bvh", "02_01");
  ASSERT_NE(c.clip, nullptr);
  ContactDetectionOptions options;
  options.upModel = c.frame.upModel;
  auto result = detectContacts(c.scene, *c.clip, c.feet, options);
  ASSERT_TRUE(result.ok()) << result.error();
  EXPECT_FALSE(result->inPlace);
  EXPECT_EQ(result->groundVelocityModel, Vec3::Zero());
}

// In-place game cycles, Y-up (RobotExpressive Walking, feet as IK bones) and Z-up in
// decimetres (MakeHuman walk1): the ground runs backward under the character, across its up,
// and every contact found lies in a stance. Stances read from the ankles' heights along the
// up (24 fps): Robot left foot down over frames 0-10, right 12-18; walk1 (14 frames) left
// 7-13 and 0-1 (one stance across the loop), right 0-8 and 13.
TEST(DetectContacts, InPlaceCyclesRunOnATreadmill) {
  using Windows = std::vector<std::pair<int, int>>;
  struct Expected {
    std::string file, clip;
    Windows left, right;
  };
  for (const Expected& e : {Expected{"/gltf/RobotExpressive/RobotExpressive.glb", "Walking", {{0, 10}}, {{12, 18}}},
                            Expected{"/bvh/makehuman/walk1.bvh", "walk1", {{0, 1}, {7, 13}}, {{0, 8}, {13, 13}}}}) {
    SCOPED_TRACE(e.file);
    InPlaceCase c = load(e.file, e.clip);
    ASSERT_NE(c.clip, nullptr);
    ContactDetectionOptions options;
    options.upModel = c.frame.upModel;
    auto result = detectContacts(c.scene, *c.clip, c.feet, options);
    ASSERT_TRUE(result.ok()) << result.error();
    EXPECT_TRUE(result->inPlace);
    const Vec3 ground = result->groundVelocityModel;
    EXPECT_NEAR(ground.dot(c.frame.upModel), 0.0f, 1e-4f * ground.norm());
    EXPECT_LT(ground.dot(c.frame.forwardModel), -0.5f * ground.norm()) << ground.transpose();
    EXPECT_GT(ground.norm(), 0.15f * result->characterHeight);
    for (std::size_t f = 0; f < 2; ++f) {
      const auto& found = result->feet[f].foot;
      const Windows& stances = f == 0 ? e.left : e.right;
      EXPECT_GE(found.size(), 1u) << result->feet[f].curveName;
      for (const ContactInterval& contact : found) {
        const int middle = (contact.first + contact.last) / 2;
        EXPECT_TRUE(std::any_of(stances.begin(), stances.end(),
                                [&](const auto& s) { return middle >= s.first && middle <= s.second; }))
            << result->feet[f].curveName << " [" << contact.first << ", " << contact.last << "]";
      }
    }
  }
}

}  // namespace
}  // namespace articula
