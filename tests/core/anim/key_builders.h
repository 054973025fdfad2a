#pragma once
// Small key constructors shared by the anim tests.
#include "core/anim/tracks.h"

namespace articula {

inline RotationKey rotationKey(double time, const Quat& value, RotationInterpolation interpolation) {
  RotationKey key;
  key.time = time;
  key.value = value;
  key.interpolation = interpolation;
  return key;
}

}  // namespace articula
