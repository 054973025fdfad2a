#pragma once
// EXT_meshopt_compression for the glTF writer: the bytes of a bufferView of equal-sized
// elements, encoded with meshoptimizer's vertex codec (mode ATTRIBUTES, no filter), which
// three.js and Babylon.js decode back to the same bytes.
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace articula {

// The extension's name, for extensionsUsed / extensionsRequired and the bufferView's entry.
inline constexpr const char* kMeshoptExtension = "EXT_meshopt_compression";

// `bytes` holds bytes.size() / stride elements of `stride` bytes; the codec takes strides
// that are multiples of 4 up to 256 (every animation accessor's element is one).
bool meshoptStrideSupported(std::size_t stride);

// The encoded stream (lossless: decoding gives `bytes` back).
std::vector<std::uint8_t> meshoptEncodeAttributes(std::span<const std::uint8_t> bytes, std::size_t stride);

}  // namespace articula
