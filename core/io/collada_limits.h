#pragma once
#include <optional>
#include <string>

namespace articula {

// Assimp 5.2's Collada reader, building an animation (ColladaLoader::CreateAnimation), looks
// each node up by walking the whole tree and then compares every animation channel with it:
// time grows with nodes x channels (20,000 animated siblings: 20.6 s in Assimp alone, 10,000:
// 5.7 s) and, more slowly, with nodes x nodes (20,000 nodes and 10 channels: 3 s).
// Channel-node pairs allowed: 10,000 animated siblings.
inline constexpr long long kMaxColladaChannelNodePairs = 100'000'000;
// Nodes allowed in an animated file: some 19 s of tree walks for 50,000.
inline constexpr long long kMaxAnimatedColladaNodes = 50'000;

// Counts the <node> and <channel> elements of the Collada file at `path` (one pass over its
// bytes) and returns why it is refused when it is animated and past either limit; nullopt when
// Assimp may read it (or the file cannot be read: Assimp then says why).
std::optional<std::string> colladaRefusal(const std::string& path);

}  // namespace articula
