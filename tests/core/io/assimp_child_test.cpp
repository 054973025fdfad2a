// importWithAssimp runs Assimp in a child process: files that abort, overflow the stack or
// allocate without bound in Assimp come back as one error line, and this process lives on.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <atomic>
#include <cstdio>
#include <string>
#include <thread>
#include <vector>

#include "core/io/import.h"
#include "core/io/import_scene_binary.h"

namespace articula {
namespace {

const std::string kDataDir = std::string(ARTICULA_TEST_DATA_DIR) + "/";

// Limits small enough that the runaway files below are stopped within seconds.
AssimpImportLimits smallLimits() {
  AssimpImportLimits limits;
  limits.memoryBytes = std::size_t{48} << 20;
  limits.cpuSeconds = 10;
  limits.wallSeconds = 20;
  return limits;
}

void expectOneLineNamingFile(const Result<Scene>& scene, const std::string& path) {
  ASSERT_FALSE(scene) << path << " was read";
  const std::string& message = scene.error();
  EXPECT_EQ(message.rfind(path + ": ", 0), 0u) << message;
  EXPECT_GT(message.size(), path.size() + 2) << "no reason given";
  EXPECT_LT(message.size(), kMaxImportErrorLength) << message;
  EXPECT_EQ(message.find('\n'), std::string::npos) << message;
}

// float_array count one short of the values an accessor reads: Assimp's ai_assert aborts
// (ColladaLoader.cpp(1743): pos < pData.mValues.size()).
TEST(AssimpChildImport, AbortInAssimpIsAnError) {
  const std::string path = kDataDir + "collada/assimp/box_nested_animation_short_float_array.dae";
  const Result<Scene> scene = importScene(path);
  expectOneLineNamingFile(scene, path);
  EXPECT_NE(scene.error().find("crashed"), std::string::npos) << scene.error();
}

// <node> nested 10,000 deep: Assimp's recursive node reader overflows the stack.
TEST(AssimpChildImport, StackOverflowInAssimpIsAnError) {
  const std::string path = kDataDir + "collada/assimp/box_nested_animation_nodes_10000_deep.dae";
  expectOneLineNamingFile(importScene(path), path);
}

// One animation key value set to 1e38: Assimp's FBX converter allocates until the heap is gone.
// The file's extra suffix keeps it out of the tests that open every asset with default limits;
// Assimp recognises FBX by its signature.
TEST(AssimpChildImport, RunawayAllocationIsStoppedByTheMemoryLimit) {
  const std::string path = kDataDir + "fbx/assimp/huesitos_key_value_1e38.fbx.runaway";
  const Result<Scene> scene = importWithAssimp(path, smallLimits());
  expectOneLineNamingFile(scene, path);
#ifndef __SANITIZE_ADDRESS__
  // Under AddressSanitizer its own allocator meets the limit first and ends the child with
  // its report, which comes back as the generic "stopped on this file".
  EXPECT_NE(scene.error().find("too large"), std::string::npos) << scene.error();
#endif
}

TEST(AssimpChildImport, RunawayImportIsStoppedByTheClock) {
  const std::string path = kDataDir + "fbx/assimp/huesitos_key_value_1e38.fbx.runaway";
  AssimpImportLimits limits;
  limits.wallSeconds = 1;
  const Result<Scene> scene = importWithAssimp(path, limits);
  expectOneLineNamingFile(scene, path);
  EXPECT_NE(scene.error().find("longer than 1 s"), std::string::npos) << scene.error();
}

// A child that waits without using the processor (here on a named pipe nobody writes; in the
// sanitizer build also on a lock another thread held at the fork) is stopped and started
// again, then refused in one line, long before the wall-clock limit.
TEST(AssimpChildImport, AStalledChildIsStoppedWithoutWaitingForTheClock) {
  const std::string path = testing::TempDir() + "articula_stalled_import.dae";
  std::remove(path.c_str());
  ASSERT_EQ(::mkfifo(path.c_str(), 0600), 0);
  AssimpImportLimits limits;
  limits.stuckSeconds = 1;
  limits.stuckAttempts = 2;
  limits.wallSeconds = 120;
  const Result<Scene> scene = importWithAssimp(path, limits);
  std::remove(path.c_str());
  expectOneLineNamingFile(scene, path);
  EXPECT_NE(scene.error().find("stalled"), std::string::npos) << scene.error();
}

// A child that computes is never taken for a stalled one: the runaway file keeps Assimp busy
// past the stall time and is stopped by the clock.
TEST(AssimpChildImport, ABusyChildIsNotStalled) {
  const std::string path = kDataDir + "fbx/assimp/huesitos_key_value_1e38.fbx.runaway";
  AssimpImportLimits limits;
  limits.stuckSeconds = 1;
  limits.wallSeconds = 3;
  const Result<Scene> scene = importWithAssimp(path, limits);
  expectOneLineNamingFile(scene, path);
  EXPECT_NE(scene.error().find("longer than 3 s"), std::string::npos) << scene.error();
}

// The editor imports while other threads allocate (the viewport, background tasks). Beside
// allocating threads about 1 fork in 100 of the sanitizer build inherits its allocator's lock
// held and stalls: each import still reads its file, after a fresh child.
TEST(AssimpChildImport, ImportsBesideAllocatingThreadsAllRead) {
  const std::string path = kDataDir + "collada/assimp/box_nested_animation.dae";
  std::atomic<bool> stop{false};
  std::vector<std::thread> allocators;
  for (int t = 0; t < 2; ++t) {
    allocators.emplace_back([&stop, t] {
      for (std::size_t n = 1; !stop; ++n) {
        std::vector<char> block(1000 + (n * 7919 + static_cast<std::size_t>(t)) % 100000);
        block.front() = 1;
      }
    });
  }
  AssimpImportLimits limits;
  limits.stuckSeconds = 2;
  int read = 0;
  std::string firstError;
  for (int i = 0; i < 40; ++i) {
    const Result<Scene> scene = importWithAssimp(path, limits);
    if (scene) ++read;
    if (!scene && firstError.empty()) firstError = scene.error();
  }
  stop = true;
  for (std::thread& allocator : allocators) allocator.join();
  EXPECT_EQ(read, 40) << firstError;
}

// The scene without its rotation keys, which RotationTrack::setKeys renormalises on the way
// in: the one place where the transport may move a float (by an ulp).
Scene withoutRotationKeys(Scene scene) {
  for (Clip& clip : scene.clips) {
    for (JointTrack& track : clip.tracks) track.rotation = RotationTrack();
  }
  return scene;
}

void expectSameRotationKeys(const Scene& child, const Scene& inProcess) {
  constexpr float kUlps = 1e-6f;
  for (std::size_t c = 0; c < child.clips.size(); ++c) {
    for (std::size_t t = 0; t < child.clips[c].tracks.size(); ++t) {
      const auto& childKeys = child.clips[c].tracks[t].rotation.keys();
      const auto& keys = inProcess.clips[c].tracks[t].rotation.keys();
      ASSERT_EQ(childKeys.size(), keys.size()) << "clip " << c << " track " << t;
      for (std::size_t k = 0; k < keys.size(); ++k) {
        EXPECT_EQ(childKeys[k].time, keys[k].time);
        EXPECT_EQ(childKeys[k].interpolation, keys[k].interpolation);
        EXPECT_LE((childKeys[k].value.coeffs() - keys[k].value.coeffs()).cwiseAbs().maxCoeff(), kUlps);
        EXPECT_LE((childKeys[k].inControl.coeffs() - keys[k].inControl.coeffs()).cwiseAbs().maxCoeff(), kUlps);
        EXPECT_LE((childKeys[k].outControl.coeffs() - keys[k].outControl.coeffs()).cwiseAbs().maxCoeff(), kUlps);
      }
    }
  }
}

// The scene that comes back from the child is the one the in-process reader builds: every
// field bit for bit (the encoding holds every field of Scene), rotation keys to an ulp.
TEST(AssimpChildImport, ChildSceneEqualsInProcessScene) {
  for (const char* file : {"fbx/assimp/huesitos.fbx", "fbx/assimp/animation_with_skeleton.fbx",
                           "collada/assimp/box_nested_animation.dae", "collada/khronos-cts/animation_interpolation_bezier.dae"}) {
    SCOPED_TRACE(file);
    const std::string path = kDataDir + file;
    const Result<Scene> inProcess = importWithAssimpInProcess(path);
    const Result<Scene> child = importWithAssimp(path);
    ASSERT_TRUE(inProcess) << inProcess.error();
    ASSERT_TRUE(child) << child.error();
    EXPECT_GT(child->skeleton.jointCount(), 0);
    EXPECT_TRUE(encodeSceneBinary(withoutRotationKeys(*child)) == encodeSceneBinary(withoutRotationKeys(*inProcess)));
    ASSERT_EQ(child->clips.size(), inProcess->clips.size());
    expectSameRotationKeys(*child, *inProcess);
  }
}

TEST(SceneBinary, CutShortIsAnErrorNotACrash) {
  const Result<Scene> scene = importWithAssimpInProcess(kDataDir + "fbx/assimp/huesitos.fbx");
  ASSERT_TRUE(scene) << scene.error();
  const std::string bytes = encodeSceneBinary(*scene);
  for (std::size_t keep = 0; keep < bytes.size(); keep += 1 + keep / 3) {
    EXPECT_FALSE(decodeSceneBinary(std::string_view(bytes).substr(0, keep))) << keep;
  }
  EXPECT_TRUE(decodeSceneBinary(bytes));
}

TEST(SceneBinary, CorruptedCountIsRefusedBeforeAllocating) {
  const Result<Scene> scene = importWithAssimpInProcess(kDataDir + "fbx/assimp/huesitos.fbx");
  ASSERT_TRUE(scene) << scene.error();
  std::string bytes = encodeSceneBinary(*scene);
  // After the 4-byte magic comes the source path's length: make it absurd.
  bytes[4 + 7] = '\x7f';
  const Result<Scene> decoded = decodeSceneBinary(bytes);
  ASSERT_FALSE(decoded);
  EXPECT_NE(decoded.error().find("corrupted"), std::string::npos) << decoded.error();
}

TEST(ImportErrorLine, LongReasonsAreShortenedToOneLine) {
  const std::string path = "/models/walk.dae";
  const std::string reason = "Collada: unexpected element\n" + std::string(66000, 'x');
  const std::string line = importErrorLine(path, reason);
  EXPECT_EQ(line.rfind(path + ": Collada: unexpected element x", 0), 0u) << line;
  EXPECT_LT(line.size(), kMaxImportErrorLength);
  EXPECT_EQ(line.substr(line.size() - 3), "...");
  EXPECT_EQ(importErrorLine(path, "short"), path + ": short");
}

}  // namespace
}  // namespace articula
