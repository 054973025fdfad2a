#pragma once
// A bit-for-bit record of the pose data a solver derived its rigid data from (pinocchio's
// Data kept for a Model), so a workspace re-derives only when that data changed: the joints
// of a path, their translations and scales, the rotations of the joints not being solved,
// and the chain's frame. Used by IkChainWorkspace and TwoBoneIkWorkspace.
//
// The record is a row of four-lane blocks of bits: per joint its translation with the joint
// and whether its rotation counts in the fourth lane, its rotation when it counts, and its
// scale; then the frame's four columns. A joint whose rotation starts or stops counting
// differs in its first block, so the record sees the change before the blocks after it
// shift. Each block is compared and stored whole, and the differences are only gathered
// (OR of XORs) until finish(), so a comparison costs a few instructions per joint and no
// branch per value: packed SSE2 on x86-64, four 32-bit lanes elsewhere.
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

#if defined(__SSE2__) || defined(_M_X64)
#include <emmintrin.h>
#define ARTICULA_IK_RECORD_SSE2 1
#endif

#include "core/math/transform.h"

namespace articula {

class IkInputRecord {
 public:
  // Room for a path of this many joints, so that recording allocates nothing.
  void reserve(std::size_t pathJoints);
  // Forgets the record: the next comparison reports a change.
  void invalidate() { mValid = false; }

  // A comparison that also records: begin(), add() per path joint in a fixed order, then
  // finish() — true when anything differs from the last valid record (or there is none),
  // which also leaves the record invalid until markValid().
  void begin() {
    mChanged = !mValid;
    mCount = 0;
    mDiff = Lanes{};
  }
  // `withRotation`: whether the joint's rotation is part of what the data came from (false
  // for the solved joints, read at every run). It is recorded with the joint, so the same
  // joints with other rotations counting are a change.
  void add(int joint, const Transform& local, bool withRotation) {
    const std::uint32_t tag = (static_cast<std::uint32_t>(joint) << 1) | (withRotation ? 1u : 0u);
    if (withRotation) {
      const Lanes blocks[3] = {load3(local.translation.data(), tag), load4(local.rotation.coeffs().data()),
                               load3(local.scale.data(), 0u)};
      put(blocks);
    } else {
      const Lanes blocks[2] = {load3(local.translation.data(), tag), load3(local.scale.data(), 0u)};
      put(blocks);
    }
  }
  bool finish(const Affine& frame);
  // The data derived from the recorded inputs is in place.
  void markValid() { mValid = true; }

 private:
  static constexpr std::size_t kBlocksPerJoint = 3;  // at most: translation and tag, rotation, scale
  static constexpr std::size_t kFrameBlocks = 4;     // the linear part's columns, the origin

#ifdef ARTICULA_IK_RECORD_SSE2
  using Lanes = __m128i;
  // x, y, z and `last` in the fourth lane, read without touching the bytes after z.
  static Lanes load3(const float* v, std::uint32_t last) {
    std::uint32_t z = 0;
    std::memcpy(&z, v + 2, sizeof z);
    const __m128i xy = _mm_loadl_epi64(reinterpret_cast<const __m128i*>(v));
    const __m128i zLast = _mm_cvtsi64_si128(static_cast<long long>((std::uint64_t{last} << 32) | z));
    return _mm_unpacklo_epi64(xy, zLast);
  }
  static Lanes load4(const float* v) { return _mm_loadu_si128(reinterpret_cast<const __m128i*>(v)); }
  static bool anyBit(Lanes v) { return _mm_movemask_epi8(_mm_cmpeq_epi32(v, _mm_setzero_si128())) != 0xFFFF; }
#else
  struct Lanes {
    std::uint32_t lane[4] = {};
  };
  static Lanes load3(const float* v, std::uint32_t last) {
    Lanes r;
    std::memcpy(r.lane, v, 3 * sizeof(float));
    r.lane[3] = last;
    return r;
  }
  static Lanes load4(const float* v) {
    Lanes r;
    std::memcpy(r.lane, v, 4 * sizeof(float));
    return r;
  }
  static bool anyBit(const Lanes& v) { return (v.lane[0] | v.lane[1] | v.lane[2] | v.lane[3]) != 0; }
#endif

  struct alignas(16) Block {
    std::uint32_t lane[4] = {};
  };

  // Compares N blocks with the record's next N, gathering the differences, and stores them.
  template <std::size_t N>
  void put(const Lanes (&blocks)[N]) {
    if (mCount + N <= mBlocks.size()) {
      Block* slot = mBlocks.data() + mCount;
      // Gathered in a local: the stores into the record could otherwise alias mDiff.
      Lanes diff = mDiff;
      for (std::size_t i = 0; i < N; ++i) {
#ifdef ARTICULA_IK_RECORD_SSE2
        auto* bits = reinterpret_cast<__m128i*>(slot[i].lane);
        diff = _mm_or_si128(diff, _mm_xor_si128(_mm_load_si128(bits), blocks[i]));
        _mm_store_si128(bits, blocks[i]);
#else
        for (int k = 0; k < 4; ++k) {
          diff.lane[k] |= slot[i].lane[k] ^ blocks[i].lane[k];
          slot[i].lane[k] = blocks[i].lane[k];
        }
#endif
      }
      mDiff = diff;
    } else {
      mBlocks.resize(mCount);
      for (const Lanes& lanes : blocks) std::memcpy(mBlocks.emplace_back().lane, &lanes, sizeof(Block));
      mChanged = true;
    }
    mCount += N;
  }

  std::vector<Block> mBlocks;
  std::size_t mCount = 0;  // blocks recorded since begin()
  Lanes mDiff{};           // OR of every block's XOR with the record since begin()
  bool mValid = false;
  bool mChanged = true;
};

}  // namespace articula
