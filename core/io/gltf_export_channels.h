#pragma once
// Private to core/io: turns editor tracks into glTF animation sampler data (the sampler
// choice and the exactness rules are documented in gltf_export.h).
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "core/anim/curve.h"
#include "core/anim/tracks.h"

namespace articula {

enum class GltfInterpolation : std::uint8_t { Step, Linear, CubicSpline };

// One sampler, ready to copy into a buffer. `times` are strictly increasing, non-negative
// seconds of the file's time line. `values` holds `width` floats per output element, one
// element per key, or three per key for CUBICSPLINE (in-tangent, value, out-tangent; tangents
// per second, as glTF defines them). Empty `times`: the channel has no keys.
struct GltfSamplerData {
  GltfInterpolation interpolation = GltfInterpolation::Linear;
  std::size_t width = 0;
  std::vector<float> times;
  std::vector<float> values;
};

struct GltfChannelSettings {
  // File time = source time + timeOffset (a clip with keys before 0 is shifted to 0).
  double timeOffset = 0.0;
  // Largest error allowed where a segment cannot be written exactly: in the curves' unit
  // for scalar channels, radians for rotations.
  double tolerance = 1e-5;
  // Frame grid (source time) that resampled rotation segments are sampled on before they
  // are refined; frameRate <= 0 disables it.
  double frameStart = 0.0;
  double frameRate = 0.0;
  // Radians (for the joint's lever): a slerp segment that a reader lerping the components
  // (Blender) would play further than this from the slerp is cut by slerp keys between its
  // keys; <= 0: never.
  double componentLerpTolerance = 0.0;
};

// Several curves written as one channel (x/y/z of a translation or scale, or every target of
// a morph-weights track): element e of every key is curves[e] at that time, or fallback[e]
// when curves[e] has no keys. Curves may have different key times and interpolations.
GltfSamplerData encodeCurveChannel(std::span<const Curve* const> curves, std::span<const double> fallback,
                                   const GltfChannelSettings& settings);

// A rotation track, as glTF (x, y, z, w) quaternions.
GltfSamplerData encodeRotationChannel(const RotationTrack& track, const GltfChannelSettings& settings);

// The signed 16-bit integers of a rotation sampler's outputs, glTF's normalised SHORT
// (component = integer / 32767), when every value and tangent is already on that grid: a
// value up to the normalisation every reader applies to a decoded quaternion (within 1e-6),
// a CUBICSPLINE tangent exactly. Empty otherwise: the channel is written as floats, as given.
// A reduced bake rounds its rotation keys to this grid (KeyReductionOptions), so its file
// holds them in half the bytes and decodes to the rotations the bake measured.
std::vector<std::int16_t> rotationOutputsAsShorts(const GltfSamplerData& rotation);

// Largest float not above `seconds`: key times are rounded down so that a key which takes
// effect at a frame time still takes effect at that frame in the file.
float fileTimeBelow(double seconds);

}  // namespace articula
