#pragma once
#include <cstdint>
#include <optional>
#include <string_view>

#include "core/math/types.h"

namespace articula {

// The order in which Euler channels are *written*, as in a
// BVH CHANNELS line ("Zrotation Yrotation Xrotation" is ZYX). The rotation is the product
// in written order, R = R_first * R_second * R_third, each about its parent-space axis after
// the previous ones (BVH and Maya's "rotate order" in reverse naming: Maya xyz == ZYX here).
enum class RotationOrder : std::uint8_t { XYZ, XZY, YXZ, YZX, ZXY, ZYX };

std::string_view toString(RotationOrder order);               // "XYZ", ...
std::optional<RotationOrder> rotationOrderFromString(std::string_view text);

// Angles in radians, indexed by axis (x, y, z), whatever the order.
Quat eulerToQuat(const Vec3& anglesRad, RotationOrder order);
// Inverse of eulerToQuat; the middle angle is in [-π/2, π/2]. At gimbal lock the third
// angle is zero. When `previousRad` is given, each angle is shifted by multiples of 2π
// (and the equivalent flipped solution considered) to stay closest to it, so a sequence
// of frames has no ±360° jumps (the curve editor's discontinuity filter).
Vec3 quatToEuler(const Quat& q, RotationOrder order, const Vec3* previousRad = nullptr);

}  // namespace articula
