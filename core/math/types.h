#pragma once
// Eigen vocabulary of the engine. Spatial data (positions, rotations, matrices) is single
// precision, like glTF and the GPU; time and scalar curves are double (see anim/curve.h).
#include <Eigen/Core>
#include <Eigen/Geometry>

namespace articula {

using Vec2 = Eigen::Vector2f;
using Vec3 = Eigen::Vector3f;
using Vec4 = Eigen::Vector4f;
using Quat = Eigen::Quaternionf;
using Mat3 = Eigen::Matrix3f;
using Mat4 = Eigen::Matrix4f;
// Model-space joint matrices. Affine (not Isometry) because parents may scale and mirror.
using Affine = Eigen::Affine3f;

using Vec2d = Eigen::Vector2d;
using Vec3d = Eigen::Vector3d;

inline constexpr float kPi = 3.14159265358979323846f;

}  // namespace articula
