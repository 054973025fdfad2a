#pragma once
// Four float lanes for the two-bone solve and FABRIK's rotation recovery: SSE2 where there is
// one, a plain array elsewhere, with the same correctly rounded IEEE operation in every lane
// (no FMA, no reciprocal estimates), so that both forms, and every CPU's clone, write the
// same bits. Vectors carry (x, y, z, 0), quaternions Eigen's coefficient order (x, y, z, w).
// ARTICULA_IK_SCALAR forces the array form, to check that it writes the SSE2 form's bits.
#include <cmath>
#include <cstdint>
#include <cstring>

#if (defined(__SSE2__) || defined(_M_X64)) && !defined(ARTICULA_IK_SCALAR)
#include <emmintrin.h>
#define ARTICULA_IK_SSE2 1
#endif

namespace articula::ik::simd {

#ifdef ARTICULA_IK_SSE2
struct F4 {
  __m128 v;
};
inline F4 operator+(F4 a, F4 b) { return {_mm_add_ps(a.v, b.v)}; }
inline F4 operator-(F4 a, F4 b) { return {_mm_sub_ps(a.v, b.v)}; }
inline F4 operator*(F4 a, F4 b) { return {_mm_mul_ps(a.v, b.v)}; }
inline F4 operator/(F4 a, F4 b) { return {_mm_div_ps(a.v, b.v)}; }
inline F4 operator&(F4 a, F4 b) { return {_mm_and_ps(a.v, b.v)}; }
inline F4 operator^(F4 a, F4 b) { return {_mm_xor_ps(a.v, b.v)}; }
inline F4 sqrt(F4 a) { return {_mm_sqrt_ps(a.v)}; }
inline F4 max(F4 a, F4 b) { return {_mm_max_ps(a.v, b.v)}; }
inline F4 make(float x, float y, float z, float w) { return {_mm_setr_ps(x, y, z, w)}; }
inline F4 splat(float x) { return {_mm_set1_ps(x)}; }
inline F4 load4(const float* p) { return {_mm_loadu_ps(p)}; }
// x, y, z and a zero lane, read without touching the bytes after z, one float at a time: a
// load is forwarded from a store still in flight only when that one store holds all its
// bytes, and a caller's x, y, z (a target set just before a run) may have been stored one
// by one.
inline F4 load3(const float* p) {
  return {_mm_movelh_ps(_mm_unpacklo_ps(_mm_load_ss(p), _mm_load_ss(p + 1)), _mm_load_ss(p + 2))};
}
inline void store4(float* p, F4 a) { _mm_storeu_ps(p, a.v); }
// x, y, z, leaving the bytes after them alone (the next point of a packed Vec3 array).
inline void store3(float* p, F4 a) {
  _mm_storel_pi(reinterpret_cast<__m64*>(p), a.v);
  _mm_store_ss(p + 2, _mm_movehl_ps(a.v, a.v));
}
inline float first(F4 a) { return _mm_cvtss_f32(a.v); }
// Lanes i, j of a, then k, l of b.
template <int i, int j, int k, int l>
F4 shuffle(F4 a, F4 b) {
  return {_mm_shuffle_ps(a.v, b.v, _MM_SHUFFLE(l, k, j, i))};
}
// Comparisons: all ones in the lanes where they hold; movemask packs each lane's top bit.
inline F4 operator<(F4 a, F4 b) { return {_mm_cmplt_ps(a.v, b.v)}; }
inline F4 operator<=(F4 a, F4 b) { return {_mm_cmple_ps(a.v, b.v)}; }
inline F4 operator==(F4 a, F4 b) { return {_mm_cmpeq_ps(a.v, b.v)}; }
inline int movemask(F4 a) { return _mm_movemask_ps(a.v); }
#else
struct F4 {
  float v[4];
};
template <typename Op>
F4 lanes(F4 a, F4 b, Op op) {
  return {{op(a.v[0], b.v[0]), op(a.v[1], b.v[1]), op(a.v[2], b.v[2]), op(a.v[3], b.v[3])}};
}
template <typename Op>
F4 bitLanes(F4 a, F4 b, Op op) {
  std::uint32_t x[4], y[4];
  std::memcpy(x, a.v, sizeof x);
  std::memcpy(y, b.v, sizeof y);
  for (int i = 0; i < 4; ++i) x[i] = op(x[i], y[i]);
  F4 r;
  std::memcpy(r.v, x, sizeof x);
  return r;
}
inline float mask(bool holds) {
  const std::uint32_t bits = holds ? ~0u : 0u;
  float m;
  std::memcpy(&m, &bits, sizeof m);
  return m;
}
inline F4 operator+(F4 a, F4 b) {
  return lanes(a, b, [](float x, float y) { return x + y; });
}
inline F4 operator-(F4 a, F4 b) {
  return lanes(a, b, [](float x, float y) { return x - y; });
}
inline F4 operator*(F4 a, F4 b) {
  return lanes(a, b, [](float x, float y) { return x * y; });
}
inline F4 operator/(F4 a, F4 b) {
  return lanes(a, b, [](float x, float y) { return x / y; });
}
inline F4 operator&(F4 a, F4 b) {
  return bitLanes(a, b, [](std::uint32_t x, std::uint32_t y) { return x & y; });
}
inline F4 operator^(F4 a, F4 b) {
  return bitLanes(a, b, [](std::uint32_t x, std::uint32_t y) { return x ^ y; });
}
inline F4 sqrt(F4 a) { return {{std::sqrt(a.v[0]), std::sqrt(a.v[1]), std::sqrt(a.v[2]), std::sqrt(a.v[3])}}; }
// As maxps: the second operand unless the first is greater.
inline F4 max(F4 a, F4 b) {
  return lanes(a, b, [](float x, float y) { return x > y ? x : y; });
}
inline F4 make(float x, float y, float z, float w) { return {{x, y, z, w}}; }
inline F4 splat(float x) { return {{x, x, x, x}}; }
inline F4 load4(const float* p) { return {{p[0], p[1], p[2], p[3]}}; }
inline F4 load3(const float* p) { return {{p[0], p[1], p[2], 0.0f}}; }
inline void store4(float* p, F4 a) { std::memcpy(p, a.v, sizeof a.v); }
inline void store3(float* p, F4 a) { std::memcpy(p, a.v, 3 * sizeof(float)); }
inline float first(F4 a) { return a.v[0]; }
template <int i, int j, int k, int l>
F4 shuffle(F4 a, F4 b) {
  return {{a.v[i], a.v[j], b.v[k], b.v[l]}};
}
inline F4 operator<(F4 a, F4 b) {
  return lanes(a, b, [](float x, float y) { return mask(x < y); });
}
inline F4 operator<=(F4 a, F4 b) {
  return lanes(a, b, [](float x, float y) { return mask(x <= y); });
}
inline F4 operator==(F4 a, F4 b) {
  return lanes(a, b, [](float x, float y) { return mask(x == y); });
}
inline int movemask(F4 a) {
  int bits = 0;
  for (int i = 0; i < 4; ++i) bits |= (std::signbit(a.v[i]) ? 1 : 0) << i;
  return bits;
}
#endif

template <int i, int j, int k, int l>
F4 swizzle(F4 a) {
  return shuffle<i, j, k, l>(a, a);
}
template <int i>
F4 broadcast(F4 a) {
  return shuffle<i, i, i, i>(a, a);
}
template <int i>
float lane(F4 a) {
  return first(broadcast<i>(a));
}

// x, y, z negated, w kept: a quaternion's conjugate, or a vector (w lane 0) reversed.
inline F4 conjugate(F4 q) { return q ^ make(-0.0f, -0.0f, -0.0f, 0.0f); }

// a × b as (a ⋅ b.yzx − a.yzx ⋅ b).yzx: three shuffles; lane 3 stays 0.
inline F4 cross(F4 a, F4 b) { return swizzle<1, 2, 0, 3>(a * swizzle<1, 2, 0, 3>(b) - swizzle<1, 2, 0, 3>(a) * b); }

// (x + y) + z of m in every lane; lane 3 must be 0.
inline F4 sum3(F4 m) {
  const F4 pairs = m + swizzle<1, 0, 3, 2>(m);  // x + y, y + x, z, z
  return pairs + swizzle<2, 2, 0, 0>(pairs);
}
inline F4 dot3(F4 a, F4 b) { return sum3(a * b); }

// The sums of each vector's four lanes, as (x + z) + (y + w): a's, b's, c's and d's in lanes 0
// to 3.
inline F4 sums(F4 a, F4 b, F4 c, F4 d) {
  const F4 ab = shuffle<0, 1, 0, 1>(a, b) + shuffle<2, 3, 2, 3>(a, b);  // a.x+a.z a.y+a.w b.x+b.z b.y+b.w
  const F4 cd = shuffle<0, 1, 0, 1>(c, d) + shuffle<2, 3, 2, 3>(c, d);
  return shuffle<0, 2, 0, 2>(ab, cd) + shuffle<1, 3, 1, 3>(ab, cd);
}
// The same for two vectors: a's sum in lanes 0 and 2, b's in lanes 1 and 3.
inline F4 sums(F4 a, F4 b) {
  const F4 ab = shuffle<0, 1, 0, 1>(a, b) + shuffle<2, 3, 2, 3>(a, b);
  return shuffle<0, 2, 0, 2>(ab, ab) + shuffle<1, 3, 1, 3>(ab, ab);
}

// The Hamilton product p q, one lane-wise product per component of p with the signs of
// its terms folded into q's shuffled lanes (negation is exact).
inline F4 quatProduct(F4 p, F4 q) {
  const F4 byX = broadcast<0>(p) * (swizzle<3, 2, 1, 0>(q) ^ make(0.0f, -0.0f, 0.0f, -0.0f));  // w −z y −x
  const F4 byY = broadcast<1>(p) * (swizzle<2, 3, 0, 1>(q) ^ make(0.0f, 0.0f, -0.0f, -0.0f));  // z w −x −y
  const F4 byZ = broadcast<2>(p) * (swizzle<1, 0, 3, 2>(q) ^ make(-0.0f, 0.0f, 0.0f, -0.0f));  // −y x w −z
  return broadcast<3>(p) * q + byX + byY + byZ;
}

// q v q* for a non-zero q with |q|² in every lane of norm2: v rotated by q / |q| and scaled by
// |q|², with t = 2 q.xyz × v: |q|² v + w t + q.xyz × t. Lane 3 of the result is |q|² v.w.
inline F4 rotateScaled(F4 q, F4 v, F4 norm2) {
  const F4 c = cross(q, v);
  const F4 t = c + c;
  return norm2 * v + broadcast<3>(q) * t + cross(q, t);
}

}  // namespace articula::ik::simd
