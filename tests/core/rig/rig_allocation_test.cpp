// A rig solve allocates nothing: the workspace is sized once by Rig::bind. Counted by
// replacing the global operator new in this test program.
#include <gtest/gtest.h>

#include <atomic>
#include <cstdlib>
#include <new>

#include "core/samples/mannequin.h"
#include "rig_test_util.h"

namespace {
std::atomic<long> gAllocations{0};
// The probe's pointer escapes here so the compiler cannot elide its allocation.
void* volatile gSink = nullptr;
}  // namespace

void* operator new(std::size_t size) {
  ++gAllocations;
  if (void* p = std::malloc(size == 0 ? 1 : size)) return p;
  throw std::bad_alloc();
}
void operator delete(void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }

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
  const long before = gAllocations.load();
  for (int f = 0; f < 10; ++f) {
    std::copy(poses[static_cast<std::size_t>(f)].begin(), poses[static_cast<std::size_t>(f)].end(), pose.begin());
    ASSERT_TRUE(rig->solve(pose, f / 10.0, &clip));
  }
  EXPECT_EQ(gAllocations.load() - before, 0);
  EXPECT_TRUE(rig->footReport(true).hit);
  // The counter works.
  const long probe = gAllocations.load();
  gSink = ::operator new(16);
  ::operator delete(gSink);
  EXPECT_GT(gAllocations.load(), probe);
}

}  // namespace
}  // namespace articula
