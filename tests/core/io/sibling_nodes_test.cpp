// Files with many animated sibling nodes, read the way users open them (importScene on a
// file): creating one track per node was quadratic in our readers, and Assimp's Collada
// reader is quadratic in the nodes itself.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "core/io/collada_limits.h"
#include "core/io/import.h"
#include "tools/sibling_nodes.h"

namespace articula {
namespace {

std::string writeTemporary(const std::string& name, const std::string& text) {
  const std::filesystem::path dir = std::filesystem::path(ARTICULA_BINARY_DIR) / "test_io_sibling_nodes_tmp";
  std::filesystem::create_directories(dir);
  const std::string path = (dir / name).string();
  std::ofstream(path, std::ios::binary) << text;
  return path;
}

// Every sibling has its own track with the two translation keys, in node order.
void expectOneTrackPerSibling(const Scene& scene, int siblings) {
  ASSERT_EQ(scene.clips.size(), 1u);
  const Clip& clip = scene.clips.front();
  ASSERT_EQ(clip.tracks.size(), static_cast<std::size_t>(siblings));
  for (const int i : {0, siblings / 2, siblings - 1}) {
    const int joint = scene.skeleton.findJoint("n" + std::to_string(i));
    ASSERT_GE(joint, 0) << i;
    const JointTrack* track = clip.findTrack(joint);
    ASSERT_NE(track, nullptr) << i;
    ASSERT_EQ(track->translation.z.keys().size(), 2u);
    EXPECT_FLOAT_EQ(static_cast<float>(track->translation.z.keys().back().value), 3.0f);
  }
}

// 100,000 took 31 s (each new track searched every track made before it); 50,000 took 8 s.
TEST(SiblingNodes, GltfWithFiftyThousandAnimatedSiblingsIsRead) {
  constexpr int kSiblings = 50'000;
  const Result<Scene> scene = importScene(writeTemporary("siblings.gltf", testing_tools::siblingNodesGltf(kSiblings)));
  ASSERT_TRUE(scene) << scene.error();
  expectOneTrackPerSibling(*scene, kSiblings);
}

TEST(SiblingNodes, ColladaWithTwoThousandAnimatedSiblingsIsRead) {
  constexpr int kSiblings = 2'000;
  const Result<Scene> scene =
      importScene(writeTemporary("siblings.dae", testing_tools::siblingNodesCollada(kSiblings, kSiblings)));
  ASSERT_TRUE(scene) << scene.error();
  expectOneTrackPerSibling(*scene, kSiblings);
}

// 20,000 animated siblings took 21 s inside Assimp; the file (14 MB, counted in 1 MB chunks)
// is refused after one pass over its bytes, with its exact counts (the root and the siblings).
TEST(SiblingNodes, ColladaPastTheChannelNodePairLimitIsRefusedByName) {
  const std::string path = writeTemporary("many_siblings.dae", testing_tools::siblingNodesCollada(20'000, 20'000));
  const Result<Scene> scene = importScene(path);
  ASSERT_FALSE(scene);
  EXPECT_EQ(scene.error(), path +
                               ": 20001 nodes and 20000 animation channels: Assimp's Collada reader compares every "
                               "channel with every node, and the limit is " +
                               std::to_string(kMaxColladaChannelNodePairs) + " such pairs");
}

// Past the node limit an animated file is refused, a still one is Assimp's to read.
TEST(SiblingNodes, ColladaPastTheNodeLimitIsRefusedWhenAnimated) {
  constexpr int kSiblings = static_cast<int>(kMaxAnimatedColladaNodes);
  const std::string animated = writeTemporary("one_animated.dae", testing_tools::siblingNodesCollada(kSiblings, 1));
  EXPECT_EQ(colladaRefusal(animated), std::to_string(kSiblings + 1) +
                                          " nodes and 1 animation channel: Assimp's Collada reader walks every node "
                                          "for each node, and the limit is " +
                                          std::to_string(kMaxAnimatedColladaNodes) + " nodes in an animated file");
  const std::string still = writeTemporary("still.dae", testing_tools::siblingNodesCollada(kSiblings, 0));
  EXPECT_EQ(colladaRefusal(still), std::nullopt);
}

}  // namespace
}  // namespace articula
