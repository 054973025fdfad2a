#pragma once
#include <optional>
#include <string>

namespace articula {

// Assimp 5.2's Collada reader compares every node with every node and with every animation
// channel when it builds an animation (ColladaLoader::CreateAnimation), so an animated file
// with 20,000 sibling nodes takes 21 s inside Assimp and 100,000 take minutes.
inline constexpr long kMaxAnimatedColladaNodes = 10'000;

// Counts the <node> and <channel> elements of the Collada file at `path` (one pass over its
// bytes) and returns why it is refused when it is animated and has more nodes than
// kMaxAnimatedColladaNodes; nullopt when Assimp may read it (or the file cannot be read:
// Assimp then says why).
std::optional<std::string> colladaRefusal(const std::string& path);

}  // namespace articula
