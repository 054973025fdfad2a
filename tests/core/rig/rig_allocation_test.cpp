// A rig solve allocates nothing: the workspace is sized once by Rig::bind. Counted by
// the replacement global operator new of tests/core/ik/allocation_counter.cpp, kept in its
// own translation unit: inlined into a caller, g++ pairs the replaced operators with the
// standard ones and reports a false -Wmismatched-new-delete (seen at -O1, the sanitizer
// build).
#include <gtest/gtest.h>

#include <new>

#include "core/ik/allocation_counter.h"
#include "core/samples/mannequin.h"
#include "rig_test_util.h"

namespace {
// The probe's pointer escapes here so the compiler cannot elide its allocation.
void* volatile gSink = nullptr;
}  // namespace

namespace articula {
namespace {

TEST(RigAllocation, SolveAllocatesNothing) {
  const Scene scene = makeMannequin();
  const Skeleton& s = scene.skeleton;
  auto def = buildHumanoidRig(s);
  ASSERT_TRUE(def.ok());
  auto rig = Rig::bind(s, *def);
  ASSERT_TRUE(rig.ok());
  auto ground = Ground::mesh({{-5.0f, 0.0f, -5.0f}, {5.0f, 0.02f, -5.0f}, {5.0f, 0.0f, 5.0f}, {-5.0f, -0.02f, 5.0f}},
                             {0, 2, 1, 0, 3, 2});
  ASSERT_TRUE(ground.ok());
  rig->setGround(*ground);
  Clip clip = scene.clips.front();
  clip.curves["ik.left_arm.target.z"] = test::constantCurve(0.3);
  std::vector<Pose> poses;
  for (int f = 0; f < 10; ++f) poses.push_back(test::sampledPose(s, clip, f / 10.0));
  Pose pose = poses.front();
  test::armAllocationCounter();
  bool solved = true;
  for (int f = 0; f < 10; ++f) {
    std::copy(poses[static_cast<std::size_t>(f)].begin(), poses[static_cast<std::size_t>(f)].end(), pose.begin());
    solved = rig->solve(pose, f / 10.0, &clip) && solved;
  }
  EXPECT_EQ(test::disarmAllocationCounter(), 0);
  EXPECT_TRUE(solved);
  EXPECT_TRUE(rig->footReport(true).hit);
  // The counter works.
  test::armAllocationCounter();
  gSink = ::operator new(16);
  ::operator delete(gSink);
  EXPECT_GT(test::disarmAllocationCounter(), 0);
}

}  // namespace
}  // namespace articula
