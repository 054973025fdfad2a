#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "core/anim/clip.h"
#include "core/io/import.h"
#include "core/io/scene_info.h"

namespace articula {
namespace {

const std::string kBvhDir = std::string(ARTICULA_TEST_DATA_DIR) + "/bvh/";

std::string readText(const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  std::stringstream ss;
  ss << file.rdbuf();
  return ss.str();
}

// The BVH file read independently of the importer: channel names per joint in file order,
// the header values and the motion lines split into numbers.
struct ReferenceBvh {
  std::vector<std::vector<std::string>> channels;  // per ROOT/JOINT in order of appearance
  int frames = 0;
  double frameTime = 0.0;
  std::vector<std::vector<double>> motion;
};

ReferenceBvh readReference(const std::string& text) {
  ReferenceBvh ref;
  std::istringstream in(text);
  std::string word;
  while (in >> word && word != "MOTION") {
    if (word != "CHANNELS") continue;
    int count = 0;
    in >> count;
    std::vector<std::string> names(static_cast<std::size_t>(count));
    for (auto& n : names) in >> n;
    ref.channels.push_back(names);
  }
  std::string label;
  in >> label >> ref.frames >> label >> label >> ref.frameTime;
  std::string line;
  std::getline(in, line);
  while (std::getline(in, line)) {
    std::istringstream values(line);
    std::vector<double> row;
    for (double v; values >> v;) row.push_back(v);
    if (!row.empty()) ref.motion.push_back(row);
  }
  return ref;
}

// R = R_first R_second R_third in written order, built from Eigen AngleAxis in double.
Quat referenceRotation(const std::vector<std::string>& names, const double* values) {
  Eigen::Quaterniond q = Eigen::Quaterniond::Identity();
  for (std::size_t c = 0; c < names.size(); ++c) {
    if (names[c].find("rotation") == std::string::npos) continue;
    const int axis = names[c][0] - 'X';
    q = q * Eigen::AngleAxisd(values[c] * M_PI / 180.0, Eigen::Vector3d::Unit(axis));
  }
  return q.cast<float>();
}

float rotationDistance(const Quat& a, const Quat& b) { return 1.0f - std::abs(a.normalized().dot(b.normalized())); }

class CmuBvhFiles : public ::testing::TestWithParam<const char*> {};

TEST_P(CmuBvhFiles, ImportsSkeletonChannelsAndMotion) {
  const std::string path = kBvhDir + GetParam();
  const ReferenceBvh ref = readReference(readText(path));
  ASSERT_EQ(ref.channels.size(), 31u);

  const Result<Scene> scene = importBvh(path);
  ASSERT_TRUE(scene) << scene.error();
  const Skeleton& skeleton = scene->skeleton;
  EXPECT_FALSE(skeleton.validate().has_value());
  EXPECT_EQ(skeleton.boneCount(), 31);
  EXPECT_EQ(skeleton.jointCount(), 31 + 7);
  EXPECT_EQ(scene->skeletonCount(), 1);
  EXPECT_EQ(skeleton.name(0), "Hips");
  EXPECT_EQ(skeleton.parent(0), kNoParent);
  ASSERT_EQ(scene->rotationOrders.size(), static_cast<std::size_t>(skeleton.jointCount()));

  // End Sites are tips named after their parent, never joints.
  int tips = 0;
  std::vector<int> jointNodes;
  for (int j = 0; j < skeleton.jointCount(); ++j) {
    if (skeleton.kind(j) == NodeKind::Tip) {
      ++tips;
      ASSERT_NE(skeleton.parent(j), kNoParent);
      EXPECT_EQ(skeleton.name(j), skeleton.name(skeleton.parent(j)) + "_End");
      EXPECT_EQ(skeleton.kind(skeleton.parent(j)), NodeKind::Joint);
    } else {
      EXPECT_EQ(skeleton.kind(j), NodeKind::Joint);
      jointNodes.push_back(j);
    }
  }
  EXPECT_EQ(tips, 7);
  EXPECT_NE(skeleton.findJoint("LeftToeBase_End"), -1);

  // Channel order per joint, as written ("Zrotation Yrotation Xrotation" is ZYX).
  for (std::size_t i = 0; i < jointNodes.size(); ++i) {
    std::string order;
    for (const auto& name : ref.channels[i]) {
      if (name.find("rotation") != std::string::npos) order += name[0];
    }
    EXPECT_EQ(toString(scene->rotationOrders[static_cast<std::size_t>(jointNodes[i])]), order) << skeleton.name(jointNodes[i]);
  }

  ASSERT_EQ(scene->clips.size(), 1u);
  const Clip& clip = scene->clips[0];
  EXPECT_EQ(clip.name, std::filesystem::path(path).stem().string());
  EXPECT_DOUBLE_EQ(clip.frameRate, 120.0);  // Frame Time .0083333 snapped to 120 fps
  ASSERT_EQ(static_cast<int>(ref.motion.size()), ref.frames);
  // Keys sit at frame / 120 from 0; the clip ends on its last frame. Snapping the rate shifts
  // frame n by n × 3.3e-8 s, so against (Frames - 1) × FrameTime it agrees to that.
  EXPECT_DOUBLE_EQ(clip.startTime, 0.0);
  EXPECT_NEAR(clip.duration(), (ref.frames - 1) / 120.0, 1e-9);
  EXPECT_NEAR(clip.duration(), (ref.frames - 1) * ref.frameTime, ref.frames * 4e-8);
  EXPECT_EQ(clip.frameCount(), ref.frames);  // samples from start to end inclusive
  EXPECT_FALSE(clip.validate(skeleton.jointCount()).has_value());

  // Every joint rotates (31 rotation tracks); only the root translates.
  EXPECT_EQ(clip.tracks.size(), 31u);
  for (const JointTrack& track : clip.tracks) {
    EXPECT_EQ(track.rotation.size(), static_cast<std::size_t>(ref.frames)) << skeleton.name(track.joint);
    EXPECT_TRUE(track.scale.empty());
    if (track.joint == 0) {
      EXPECT_EQ(track.translation.x.size(), static_cast<std::size_t>(ref.frames));
      EXPECT_EQ(track.translation.y.size(), static_cast<std::size_t>(ref.frames));
      EXPECT_EQ(track.translation.z.size(), static_cast<std::size_t>(ref.frames));
    } else {
      EXPECT_TRUE(track.translation.empty());
    }
    // Hemisphere-continuous keys.
    const auto& keys = track.rotation.keys();
    for (std::size_t k = 1; k < keys.size(); ++k) EXPECT_GE(keys[k].value.dot(keys[k - 1].value), 0.0f);
  }

  // A sampled pose at a frame is that frame's motion line.
  ClipSampler sampler(&clip);
  for (const int frame : {0, 1, ref.frames / 2, ref.frames - 1}) {
    Pose pose(skeleton.restPose().begin(), skeleton.restPose().end());
    sampler.sample(frame / 120.0, pose);
    const std::vector<double>& line = ref.motion[static_cast<std::size_t>(frame)];
    std::size_t first = 0;
    for (std::size_t i = 0; i < jointNodes.size(); ++i) {
      const int node = jointNodes[i];
      const auto& names = ref.channels[i];
      EXPECT_LT(rotationDistance(pose[static_cast<std::size_t>(node)].rotation, referenceRotation(names, &line[first])), 2e-6f)
          << skeleton.name(node) << " frame " << frame;
      if (i == 0) {
        const Vec3 expected(static_cast<float>(line[0]), static_cast<float>(line[1]), static_cast<float>(line[2]));
        EXPECT_TRUE(pose[0].translation.isApprox(expected, 1e-5f)) << pose[0].translation.transpose();
      } else {
        EXPECT_EQ(pose[static_cast<std::size_t>(node)].translation, skeleton.restLocal(node).translation);
      }
      first += names.size();
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Bvh, CmuBvhFiles,
                         ::testing::Values("cmu-mb-2010/02_01.bvh", "cmu-mb-2010/02_03.bvh", "cmu-mb-2010/09_11.bvh",
                                           "cmu-mb-2008/01_01.bvh"));

TEST(BvhImport, DispatchedByImportScene) {
  const Result<Scene> scene = importScene(kBvhDir + "cmu-mb-2010/02_03.bvh");
  ASSERT_TRUE(scene) << scene.error();
  EXPECT_EQ(scene->skeleton.boneCount(), 31);
  EXPECT_EQ(scene->rotationOrders[0], RotationOrder::ZYX);
}

// A small file exercising channel subsets, per-joint orders and non-root positions.
constexpr const char* kSmall =
    "HIERARCHY\n"
    "ROOT Root\n"
    "{\n"
    "  OFFSET 1 2 3\n"
    "  CHANNELS 6 Xposition Yposition Zposition Yrotation Xrotation Zrotation\n"
    "  JOINT Arm Left\n"
    "  {\n"
    "    OFFSET 0 1 0\n"
    "    CHANNELS 3 Yposition Xrotation Zrotation\n"
    "    End Site\n"
    "    {\n"
    "      OFFSET 0 0.5 0\n"
    "    }\n"
    "  }\n"
    "  JOINT Still {\n"
    "    OFFSET 0 -1 0\n"
    "    CHANNELS 0\n"
    "  }\n"
    "}\n"
    "MOTION\n"
    "Frames: 3\n"
    "Frame Time: 0.04\n"
    "10 20 30 0 0 0  5 90 0\n"
    "11 21 31 0 0 350  6 0 90\n"
    "12 22 32 0 0 10  7 0 0\n";

TEST(BvhImport, ChannelSubsetsOrdersAndPositions) {
  const Result<Scene> scene = importBvhFromText(kSmall, "small.bvh");
  ASSERT_TRUE(scene) << scene.error();
  const Skeleton& s = scene->skeleton;
  ASSERT_EQ(s.jointCount(), 4);
  EXPECT_EQ(s.name(1), "Arm Left");  // names may hold spaces
  EXPECT_EQ(s.name(2), "Arm Left_End");
  EXPECT_EQ(s.kind(2), NodeKind::Tip);
  EXPECT_EQ(s.name(3), "Still");
  EXPECT_EQ(s.parent(3), 0);
  EXPECT_EQ(s.restLocal(0).translation, Vec3(1, 2, 3));
  EXPECT_TRUE(s.restLocal(0).rotation.isApprox(Quat::Identity()));
  EXPECT_EQ(scene->rotationOrders[0], RotationOrder::YXZ);
  EXPECT_EQ(scene->rotationOrders[1], RotationOrder::XZY);  // missing Y appended
  EXPECT_EQ(scene->rotationOrders[3], RotationOrder::XYZ);  // no rotation channel

  ASSERT_EQ(scene->clips.size(), 1u);
  const Clip& clip = scene->clips[0];
  EXPECT_EQ(clip.name, "small");
  EXPECT_DOUBLE_EQ(clip.frameRate, 25.0);
  EXPECT_NEAR(clip.endTime, 0.08, 1e-12);  // 3 frames 0.04 s apart
  EXPECT_EQ(clip.findTrack(3), nullptr);  // no channels, no track

  const JointTrack* arm = clip.findTrack(1);
  ASSERT_NE(arm, nullptr);
  EXPECT_TRUE(arm->translation.x.empty());
  EXPECT_EQ(arm->translation.y.size(), 3u);
  ClipSampler sampler(&clip);
  Pose pose(s.restPose().begin(), s.restPose().end());
  sampler.sample(0.04, pose);
  // Position channels replace the offset on their axis; the other axes keep it.
  EXPECT_TRUE(pose[0].translation.isApprox(Vec3(11, 21, 31)));
  EXPECT_TRUE(pose[1].translation.isApprox(Vec3(0, 6, 0)));
  const Quat expectedArm(Eigen::AngleAxisf(kPi / 2, Vec3::UnitZ()));
  EXPECT_LT(rotationDistance(pose[1].rotation, expectedArm), 1e-6f);

  // 0° → 350° → 10° about z: keys stay in one hemisphere and the middle sample is the
  // short way round (355° = -5°), not through 180°.
  const JointTrack* root = clip.findTrack(0);
  ASSERT_NE(root, nullptr);
  sampler.sample(0.06, pose);
  EXPECT_LT(rotationDistance(pose[0].rotation, Quat(Eigen::AngleAxisf(0.0f, Vec3::UnitZ()))), 1e-5f);
}

TEST(BvhImport, FrameRateKeptWhenNotNearAWholeNumber) {
  std::string text = kSmall;
  text.replace(text.find("0.04"), 4, "0.007");
  const Result<Scene> scene = importBvhFromText(text, "odd.bvh");
  ASSERT_TRUE(scene) << scene.error();
  EXPECT_NEAR(scene->clips[0].frameRate, 1.0 / 0.007, 1e-9);
}

TEST(BvhImport, CrLfAndNoClipWithoutFrames) {
  std::string text = "HIERARCHY\r\nROOT A\r\n{\r\nOFFSET 0 0 0\r\nCHANNELS 1 Xrotation\r\n}\r\nMOTION\r\nFrames: 0\r\nFrame Time: 0.1\r\n";
  const Result<Scene> scene = importBvhFromText(text, "empty_motion.bvh");
  ASSERT_TRUE(scene) << scene.error();
  EXPECT_EQ(scene->skeleton.jointCount(), 1);
  EXPECT_TRUE(scene->clips.empty());
}

void expectError(const std::string& text, const std::string& expected) {
  const Result<Scene> scene = importBvhFromText(text, "walk.bvh");
  ASSERT_FALSE(scene) << "accepted: " << text;
  EXPECT_NE(scene.error().find(expected), std::string::npos) << scene.error();
  EXPECT_EQ(scene.error().rfind("walk.bvh: ", 0), 0u) << scene.error();
}

std::string withLine(int lineIndex, const std::string& replacement) {
  std::istringstream in(kSmall);
  std::string out;
  int i = 0;
  for (std::string line; std::getline(in, line); ++i) out += (i == lineIndex ? replacement : line) + "\n";
  return out;
}

TEST(BvhImportErrors, MissingBraceAfterRoot) {
  expectError("HIERARCHY\nROOT Hips\nOFFSET 0 0 0\n", "line 3: expected '{' after 'ROOT Hips'");
}

TEST(BvhImportErrors, WrongNumberOfValuesOnAMotionLine) {
  expectError(withLine(23, "11 21 31 0 0 350  6 0"), "line 24: frame 1 has 8 values, the HIERARCHY declares 9 channels");
  expectError(withLine(23, "11 21 31 0 0 350  6 0 90 1"), "line 24: frame 1 has 10 values");
}

TEST(BvhImportErrors, NonNumericValue) {
  expectError(withLine(22, "10 20 30 0 0 zero  5 90 0"), "line 23: value 6 of frame 0, 'zero', is not a number");
  expectError(withLine(22, "10 20 30 0 0 nan  5 90 0"), "line 23: value 6 of frame 0, 'nan', is not a number");
  expectError(withLine(3, "  OFFSET 1 2 x"), "line 4: OFFSET of 'ROOT Root': 'x' is not a number");
}

TEST(BvhImportErrors, MissingMotion) {
  const std::string text = std::string(kSmall).substr(0, std::string(kSmall).find("MOTION"));
  expectError(text, "missing MOTION section");
}

TEST(BvhImportErrors, TooFewMotionLines) {
  expectError(withLine(20, "Frames: 5"), "line 25: Frames says 5 but the file holds only 3 motion lines");
}

TEST(BvhImportErrors, UnknownChannelName) {
  expectError(withLine(8, "    CHANNELS 3 Yposition Xrot Zrotation"), "line 9: unknown channel name 'Xrot' in 'JOINT Arm Left'");
  expectError(withLine(8, "    CHANNELS 7 Yposition Xrotation Zrotation"), "line 9: CHANNELS of 'JOINT Arm Left': the count must be 0 to 6");
  expectError(withLine(8, "    CHANNELS 2 Xrotation Xrotation"), "line 9: channel 'Xrotation' appears twice");
}

TEST(BvhImportErrors, UnbalancedBraces) {
  // A missing '}' runs into MOTION inside the root.
  expectError(withLine(17, ""), "line 20: unexpected 'MOTION' inside 'ROOT Root': missing '}' (unbalanced braces)");
  // One '}' too many.
  expectError(withLine(17, "}\n}"), "line 20: unexpected '}' outside any joint (unbalanced braces)");
  // The file ends inside a joint.
  expectError("HIERARCHY\nROOT Hips\n{\nOFFSET 0 0 0\nJOINT A\n{\nOFFSET 0 1 0\n",
              "line 7: unexpected end of file: the '{' of 'JOINT A' (line 5) is never closed (unbalanced braces)");
}

TEST(BvhImportErrors, EmptyFileAndOtherHeaders) {
  expectError("", "walk.bvh: the file is empty");
  expectError("  \n\t\n", "walk.bvh: the file is empty");
  expectError("ROOT Hips\n", "line 1: expected 'HIERARCHY'");
  expectError("HIERARCHY\nMOTION\n", "line 2: MOTION before any ROOT joint");
  expectError(withLine(21, "Frame Time: 0"), "line 22: Frame Time: '0' is not a positive number");
  expectError(withLine(20, "Frames 3"), "line 21: expected 'Frames: <value>'");
  expectError(withLine(9, "    End Site\n    {\n    CHANNELS 1 Xrotation"), "an End Site has no CHANNELS");
}

TEST(BvhImportErrors, MissingFile) {
  const std::string path = kBvhDir + "no_such_file.bvh";
  const Result<Scene> direct = importBvh(path);
  ASSERT_FALSE(direct);
  EXPECT_NE(direct.error().find(path), std::string::npos);
  const Result<Scene> dispatched = importScene(path);
  ASSERT_FALSE(dispatched);
  EXPECT_NE(dispatched.error().find("no_such_file.bvh"), std::string::npos);
}

// Every prefix of a valid file, and a few byte flips, parse or fail cleanly: never crash.
// A ROOT with `siblings` child joints side by side, each with three rotation channels, and
// two frames of motion.
std::string siblingJoints(int siblings) {
  std::string text = "HIERARCHY\nROOT Hips\n{\n OFFSET 0 0 0\n CHANNELS 3 Xposition Yposition Zposition\n";
  for (int j = 0; j < siblings; ++j) {
    text += " JOINT j" + std::to_string(j) + "\n {\n  OFFSET 0 1 0\n  CHANNELS 3 Zrotation Xrotation Yrotation\n }\n";
  }
  text += "}\nMOTION\nFrames: 2\nFrame Time: 0.0333333\n";
  for (int frame = 0; frame < 2; ++frame) {
    text += "0 0 0";
    for (int j = 0; j < siblings; ++j) text += frame == 0 ? " 0 0 0" : " 1 2 3";
    text += "\n";
  }
  return text;
}

// 100,000 sibling joints took 10 s (Clip::trackFor scanned every track for every joint).
TEST(BvhImportLimits, HundredThousandSiblingJointsAreRead) {
  constexpr int kSiblings = 99'999;  // with the root, the limit of 100,000 joints
  const Result<Scene> scene = importBvhFromText(siblingJoints(kSiblings), "siblings.bvh");
  ASSERT_TRUE(scene) << scene.error();
  ASSERT_EQ(scene->clips.size(), 1u);
  EXPECT_EQ(scene->clips[0].tracks.size(), static_cast<std::size_t>(kSiblings + 1));
  const JointTrack* last = scene->clips[0].findTrack(scene->skeleton.findJoint("j99998"));
  ASSERT_NE(last, nullptr);
  EXPECT_EQ(last->rotation.size(), 2u);
}

// A chain of `depth` joints, each the only child of the one above, with one frame of motion.
std::string jointChain(int depth) {
  std::string text = "HIERARCHY\nROOT j0\n{\n OFFSET 0 0 0\n CHANNELS 3 Zrotation Xrotation Yrotation\n";
  for (int j = 1; j < depth; ++j) {
    text += "JOINT j" + std::to_string(j) + "\n{\nOFFSET 0 1 0\nCHANNELS 3 Zrotation Xrotation Yrotation\n";
  }
  for (int j = 0; j < depth; ++j) text += "}\n";
  text += "MOTION\nFrames: 1\nFrame Time: 0.0333333\n";
  for (int j = 0; j < depth; ++j) text += " 0 0 0";
  return text + "\n";
}

// `info` printed a chain of 50,000 joints in 2.5 GB (each line indented by its depth) after
// scanning every node for each node's children; the tree now prints in bounded lines, deep
// ones saying their depth.
TEST(BvhImportLimits, ChainOfTwentyThousandJointsPrintsInBoundedLines) {
  constexpr int kDepth = 20'000;
  const Result<Scene> scene = importBvhFromText(jointChain(kDepth), "chain.bvh");
  ASSERT_TRUE(scene) << scene.error();
  ASSERT_EQ(scene->skeleton.jointCount(), kDepth);
  const std::string text = sceneInfoText(*scene);
  EXPECT_LT(text.size(), static_cast<std::size_t>(kDepth) * 160);
  EXPECT_NE(text.find("\n    j1\n"), std::string::npos);
  EXPECT_NE(text.find("(depth 19999) j19999\n"), std::string::npos);
}

// 10^6 joints ran for more than 300 s; past the limit the file is refused at the joint that
// crosses it, before the motion is read.
TEST(BvhImportLimits, MoreJointsThanTheLimitAreRefusedByName) {
  const Result<Scene> scene = importBvhFromText(siblingJoints(100'000), "siblings.bvh");
  ASSERT_FALSE(scene);
  EXPECT_EQ(scene.error(), "siblings.bvh: line 500001: 'JOINT j99999' is one joint too many: the limit is 100000 joints");
}

TEST(BvhImportErrors, TruncatedAndFlippedInputNeverCrash) {
  const std::string text = kSmall;
  for (std::size_t n = 0; n < text.size(); ++n) {
    const Result<Scene> scene = importBvhFromText(std::string_view(text).substr(0, n), "cut.bvh");
    if (!scene) {
      EXPECT_EQ(scene.error().rfind("cut.bvh: ", 0), 0u) << scene.error();
    }
  }
  const std::string garbage = "{}\0\xff-+.eE:";
  for (std::size_t i = 0; i < text.size(); ++i) {
    std::string mutated = text;
    mutated[i] = garbage[i % garbage.size()];
    const Result<Scene> scene = importBvhFromText(mutated, "flip.bvh");
    if (!scene) {
      EXPECT_EQ(scene.error().rfind("flip.bvh: ", 0), 0u) << scene.error();
    }
  }
}

}  // namespace
}  // namespace articula
