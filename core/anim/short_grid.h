#pragma once
// glTF's normalised SHORT grid, shared by the bake (which rounds rotation keys onto it) and
// the glTF writer (which stores what lies on it as SHORT, half the bytes of floats).

namespace articula {

// A component c in [-1, 1] is stored as round(c × kShortGridSteps).
inline constexpr double kShortGridSteps = 32767.0;

}  // namespace articula
