#include "core/skeleton/local_to_model.h"

#include <gtest/gtest.h>

#include <random>

#include "core/frames_of_reference.h"

namespace articula {
namespace {

// A small tree stored breadth-first (siblings' subtrees interleave), the order that makes
// partial updates non-trivial.
//   0 root ─ 1 spine ─ 3 chest ─ 5 head
//          └ 2 hip   ─ 4 knee  ─ 6 foot
Skeleton breadthFirstTree() {
  Skeleton s;
  auto offset = [](float x, float y, float z) {
    Transform t;
    t.translation = Vec3(x, y, z);
    return t;
  };
  s.addJoint("root", kNoParent, offset(0, 1, 0));
  s.addJoint("spine", 0, offset(0, 0.3f, 0));
  s.addJoint("hip", 0, offset(0.1f, -0.1f, 0));
  s.addJoint("chest", 1, offset(0, 0.3f, 0));
  s.addJoint("knee", 2, offset(0, -0.45f, 0));
  s.addJoint("head", 3, offset(0, 0.25f, 0));
  s.addJoint("foot", 4, offset(0, -0.45f, 0.05f));
  return s;
}

Pose randomPose(const Skeleton& s, std::mt19937& rng) {
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  Pose pose(s.restPose().begin(), s.restPose().end());
  for (Transform& t : pose) {
    t.rotation = Quat(1.0f + u(rng), u(rng), u(rng), u(rng)).normalized();
    t.scale = Vec3(1.0f + 0.3f * u(rng), 1.0f + 0.3f * u(rng), 1.0f + 0.3f * u(rng));
  }
  return pose;
}

// Reference: the product of local matrices along the parent line, written out naively.
Mat4 naiveModel(const Skeleton& s, const Pose& pose, int joint, const Affine& root) {
  Mat4 m = Mat4::Identity();
  for (int j = joint; j != kNoParent; j = s.parent(j)) m = pose[static_cast<std::size_t>(j)].toMatrix() * m;
  return root.matrix() * m;
}

TEST(LocalToModelJob, DefaultIsInvalid) {
  LocalToModelJob job;
  EXPECT_FALSE(job.validate());
  EXPECT_FALSE(job.run());
}

TEST(LocalToModelJob, RejectsShortBuffersAndBadFrom) {
  const Skeleton s = breadthFirstTree();
  Pose pose(s.restPose().begin(), s.restPose().end());
  std::vector<Affine> model(3, Affine::Identity());
  LocalToModelJob job;
  job.skeleton = &s;
  job.local = pose;
  job.model = model;
  EXPECT_FALSE(job.validate());
  std::vector<Affine> full(static_cast<std::size_t>(s.jointCount()), Affine::Identity());
  job.model = full;
  job.from = 99;
  EXPECT_FALSE(job.run());
  job.from = kNoParent;
  EXPECT_TRUE(job.run());
}

TEST(LocalToModelJob, MatchesNaiveProductUnderEveryParentFrame) {
  const Skeleton s = breadthFirstTree();
  std::mt19937 rng(5);
  for (const auto& frame : test::framesOfReference()) {
    const Pose pose = randomPose(s, rng);
    std::vector<Affine> model(static_cast<std::size_t>(s.jointCount()), Affine::Identity());
    LocalToModelJob job;
    job.skeleton = &s;
    job.local = pose;
    job.model = model;
    job.root = &frame.parentModel;
    ASSERT_TRUE(job.run());
    for (int j = 0; j < s.jointCount(); ++j) {
      EXPECT_TRUE(
          model[static_cast<std::size_t>(j)].matrix().isApprox(naiveModel(s, pose, j, frame.parentModel), 1e-5f))
          << frame.name << " joint " << s.name(j);
    }
  }
}

TEST(LocalToModelJob, MirroredParentFlipsHandedness) {
  const Skeleton s = breadthFirstTree();
  const Pose pose(s.restPose().begin(), s.restPose().end());
  const Affine mirror(Eigen::Scaling(Vec3(-1, 1, 1)));
  std::vector<Affine> model(static_cast<std::size_t>(s.jointCount()), Affine::Identity());
  LocalToModelJob job{&s, pose, model, &mirror};
  ASSERT_TRUE(job.run());
  EXPECT_NEAR(model[2].translation().x(), -0.1f, 1e-6f);  // hip mirrored to the other side
  EXPECT_LT(model[6].linear().determinant(), 0.0f);
}

TEST(LocalToModelJob, PartialUpdateEqualsFullUpdate) {
  const Skeleton s = breadthFirstTree();
  std::mt19937 rng(9);
  Pose pose = randomPose(s, rng);
  std::vector<Affine> model = localToModel(s, pose);
  // Change the hip; only hip, knee and foot may change, and they must match a full FK.
  pose[2].rotation = Quat(Eigen::AngleAxisf(0.8f, Vec3::UnitX()));
  const std::vector<Affine> before = model;
  LocalToModelJob job{&s, pose, model, nullptr, 2};
  ASSERT_TRUE(job.run());
  const std::vector<Affine> expected = localToModel(s, pose);
  for (int j = 0; j < s.jointCount(); ++j) {
    EXPECT_TRUE(
        model[static_cast<std::size_t>(j)].matrix().isApprox(expected[static_cast<std::size_t>(j)].matrix(), 1e-6f))
        << s.name(j);
  }
  // Joints outside the subtree were not touched at all (bit-identical).
  for (int j : {0, 1, 3, 5}) {
    EXPECT_EQ(model[static_cast<std::size_t>(j)].matrix(), before[static_cast<std::size_t>(j)].matrix()) << s.name(j);
  }
}

TEST(Skeleton, SubtreeListsAJointAndItsDescendantsParentFirst) {
  const Skeleton s = breadthFirstTree();
  EXPECT_EQ(s.subtree(2), (std::vector<int>{2, 4, 6}));
  EXPECT_EQ(s.subtree(1), (std::vector<int>{1, 3, 5}));
  EXPECT_EQ(s.subtree(0), (std::vector<int>{0, 1, 2, 3, 4, 5, 6}));
  EXPECT_EQ(s.subtree(6), (std::vector<int>{6}));
}

// A sub-tree update recomputes exactly the listed joints: its work is the list's length, so
// FK below a joint of a long chain is linear in the joints below it.
TEST(LocalToModelJob, SubtreeUpdateEqualsFullUpdateAndTouchesNothingElse) {
  const Skeleton s = breadthFirstTree();
  std::mt19937 rng(10);
  Pose pose = randomPose(s, rng);
  std::vector<Affine> model = localToModel(s, pose);
  pose[1].rotation = Quat(Eigen::AngleAxisf(-0.6f, Vec3::UnitZ()));
  pose[4].rotation = Quat(Eigen::AngleAxisf(0.3f, Vec3::UnitY()));  // outside: must stay stale
  const std::vector<Affine> before = model;
  const std::vector<int> spine = s.subtree(1);
  LocalToModelJob job;
  job.skeleton = &s;
  job.local = pose;
  job.model = model;
  job.subtree = spine;
  ASSERT_TRUE(job.run());
  const std::vector<Affine> expected = localToModel(s, pose);
  for (const int j : spine) {
    EXPECT_TRUE(
        model[static_cast<std::size_t>(j)].matrix().isApprox(expected[static_cast<std::size_t>(j)].matrix(), 1e-6f))
        << s.name(j);
  }
  for (int j : {0, 2, 4, 6}) {
    EXPECT_EQ(model[static_cast<std::size_t>(j)].matrix(), before[static_cast<std::size_t>(j)].matrix()) << s.name(j);
  }
  const std::vector<int> outOfRange = {1, 7};
  job.subtree = outOfRange;
  EXPECT_FALSE(job.validate());
}

}  // namespace
}  // namespace articula
