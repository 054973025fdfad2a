#include "core/io/collada_limits.h"

#include <algorithm>
#include <fstream>
#include <string_view>
#include <vector>

namespace articula {
namespace {

// Occurrences of the start tag `<name` beginning before `end` in `text` (followed by a blank,
// '>' or '/', so <nodes> is not <node>).
long long countStartTags(std::string_view text, std::string_view tag, std::size_t end) {
  long long count = 0;
  for (std::size_t at = text.find(tag); at < end; at = text.find(tag, at + 1)) {
    const std::size_t after = at + tag.size();
    if (after >= text.size()) break;
    const char c = text[after];
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '>' || c == '/') ++count;
  }
  return count;
}

}  // namespace

std::optional<std::string> colladaRefusal(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  constexpr std::string_view kNode = "<node";
  constexpr std::string_view kChannel = "<channel";
  // Tags beginning in a chunk's last kCarry bytes are counted in the next chunk, which starts
  // with those bytes, so a tag cut by the chunk's end is seen whole and counted once.
  constexpr std::size_t kCarry = kChannel.size() + 1;
  constexpr std::size_t kChunk = std::size_t{1} << 20;
  std::vector<char> buffer(kChunk + kCarry);
  std::size_t kept = 0;
  long long nodes = 0;
  long long channels = 0;
  for (bool more = true; more;) {
    in.read(buffer.data() + kept, static_cast<std::streamsize>(kChunk));
    const std::size_t size = kept + static_cast<std::size_t>(in.gcount());
    more = static_cast<bool>(in);
    const std::string_view text(buffer.data(), size);
    const std::size_t countedEnd = more ? size - std::min(size, kCarry) : size;
    nodes += countStartTags(text, kNode, countedEnd);
    channels += countStartTags(text, kChannel, countedEnd);
    kept = size - countedEnd;
    std::copy(buffer.begin() + static_cast<std::ptrdiff_t>(countedEnd),
              buffer.begin() + static_cast<std::ptrdiff_t>(size), buffer.begin());
  }
  const std::string counted = std::to_string(nodes) + (nodes == 1 ? " node and " : " nodes and ") +
                              std::to_string(channels) + (channels == 1 ? " animation channel" : " animation channels");
  if (channels > 0 && nodes > kMaxAnimatedColladaNodes) {
    return counted + ": Assimp's Collada reader walks every node for each node, and the limit is " +
           std::to_string(kMaxAnimatedColladaNodes) + " nodes in an animated file";
  }
  if (nodes * channels > kMaxColladaChannelNodePairs) {
    return counted + ": Assimp's Collada reader compares every channel with every node, and the limit is " +
           std::to_string(kMaxColladaChannelNodePairs) + " such pairs";
  }
  return std::nullopt;
}

}  // namespace articula
