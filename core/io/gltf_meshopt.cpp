#include "core/io/gltf_meshopt.h"

#include <meshoptimizer.h>

namespace articula {

bool meshoptStrideSupported(std::size_t stride) { return stride > 0 && stride % 4 == 0 && stride <= 256; }

std::vector<std::uint8_t> meshoptEncodeAttributes(std::span<const std::uint8_t> bytes, std::size_t stride) {
  const std::size_t count = bytes.size() / stride;
  std::vector<std::uint8_t> encoded(meshopt_encodeVertexBufferBound(count, stride));
  encoded.resize(meshopt_encodeVertexBuffer(encoded.data(), encoded.size(), bytes.data(), count, stride));
  return encoded;
}

}  // namespace articula
