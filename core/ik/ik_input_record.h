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
// branch per value: packed SSE2 on x86-64, four 32-bit lanes elsewhere. A comparison runs
// as a Pass, a cursor the caller keeps in registers: the record's own members would be
// reloaded after every block stored, since a packed store may alias anything.
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
  struct alignas(16) Block {
    std::uint32_t lane[4] = {};
  };
#ifdef ARTICULA_IK_RECORD_SSE2
  using Lanes = __m128i;
#else
  using Lanes = Block;
#endif

 public:
  // One comparison that also records, from begin() to finish(): add() per path joint in a
  // fixed order.
  class Pass {
   public:
    // `withRotation`: whether the joint's rotation is part of what the data came from (false
    // for the solved joints, read at every run). It is recorded with the joint, so the same
    // joints with other rotations counting are a change.
    void add(int joint, const Transform& local, bool withRotation) {
      const std::uint32_t tag = (static_cast<std::uint32_t>(joint) << 1) | (withRotation ? 1u : 0u);
      if (mEnd - mSlot < static_cast<std::ptrdiff_t>(kBlocksPerJoint)) *this = mRecord->grown(*this);
      put(withLast(padded3(local.translation), tag));
      if (withRotation) put(load4(local.rotation.coeffs().data()));
      put(padded3(local.scale));
    }

   private:
    friend class IkInputRecord;
    explicit Pass(IkInputRecord& record)
        : mRecord(&record),
          mSlot(record.mBlocks.data()),
          mEnd(record.mBlocks.data() + record.mBlocks.size()) {}

    // Compares a block with the record's next one, gathers the difference and stores it.
    void put(const Lanes& block) {
#ifdef ARTICULA_IK_RECORD_SSE2
      auto* bits = reinterpret_cast<__m128i*>(mSlot->lane);
      mDiff = _mm_or_si128(mDiff, _mm_xor_si128(_mm_load_si128(bits), block));
      _mm_store_si128(bits, block);
#else
      for (int k = 0; k < 4; ++k) {
        mDiff.lane[k] |= mSlot->lane[k] ^ block.lane[k];
        mSlot->lane[k] = block.lane[k];
      }
#endif
      ++mSlot;
    }

    IkInputRecord* mRecord;
    Block* mSlot;  // the next block to compare
    Block* mEnd;   // the end of the record's room
    Lanes mDiff{};  // OR of every block's XOR with the record
  };

  // Room for a path of this many joints, so that recording allocates nothing.
  void reserve(std::size_t pathJoints);
  // Forgets the record: the next comparison reports a change.
  void invalidate() { mValid = false; }

  Pass begin() { return Pass(*this); }
  // The frame's blocks, then true when anything differs from the last valid record (or there
  // is none), which also leaves the record invalid until markValid(). Inline, as add(): a
  // workspace whose inputs did not change runs nothing else of the record.
  bool finish(Pass pass, const Affine& frame) {
    if (pass.mEnd - pass.mSlot < static_cast<std::ptrdiff_t>(kFrameBlocks)) pass = grown(pass);
    // Column-major 4×4: the linear part's columns, then the origin, each with a bottom-row
    // entry after it, which is masked off (Eigen does not promise it for an Affine).
    const float* m = frame.data();
    for (int column = 0; column < 4; ++column) pass.put(masked3(m + 4 * column));
    const auto count = static_cast<std::size_t>(pass.mSlot - mBlocks.data());
    // No valid record, a path of another length than last time, or a block that differs.
    const bool changed = !mValid || count != mCount || anyBit(pass.mDiff);
    mCount = count;
    if (changed) mValid = false;
    return changed;
  }
  // The data derived from the recorded inputs is in place.
  void markValid() { mValid = true; }

 private:
  static constexpr std::size_t kBlocksPerJoint = 3;  // at most: translation and tag, rotation, scale
  static constexpr std::size_t kFrameBlocks = 4;     // the linear part's columns, the origin

  // A Vec3 inside a Transform is followed by four bytes of padding (the rotation is 16-byte
  // aligned, and so is the whole), so a packed read of it stays inside the Transform.
  static_assert(alignof(Quat) == 16 && sizeof(Vec3) == 12 && sizeof(Transform) == 48,
                "IkInputRecord reads a Transform's translation and scale with their padding");

#ifdef ARTICULA_IK_RECORD_SSE2
  // x, y, z and a zero lane, from three floats followed by four readable bytes.
  static Lanes masked3(const float* v) {
    return _mm_and_si128(_mm_loadu_si128(reinterpret_cast<const __m128i*>(v)), _mm_set_epi32(0, -1, -1, -1));
  }
  static Lanes withLast(const Lanes& lanes, std::uint32_t last) {
    return _mm_or_si128(lanes, _mm_slli_si128(_mm_cvtsi32_si128(static_cast<int>(last)), 12));
  }
  static Lanes load4(const float* v) { return _mm_loadu_si128(reinterpret_cast<const __m128i*>(v)); }
  static bool anyBit(const Lanes& v) { return _mm_movemask_epi8(_mm_cmpeq_epi32(v, _mm_setzero_si128())) != 0xFFFF; }
#else
  static Lanes masked3(const float* v) {
    Lanes r;
    std::memcpy(r.lane, v, 3 * sizeof(float));
    return r;
  }
  static Lanes withLast(Lanes lanes, std::uint32_t last) {
    lanes.lane[3] = last;
    return lanes;
  }
  static Lanes load4(const float* v) {
    Lanes r;
    std::memcpy(r.lane, v, 4 * sizeof(float));
    return r;
  }
  static bool anyBit(const Lanes& v) { return (v.lane[0] | v.lane[1] | v.lane[2] | v.lane[3]) != 0; }
#endif
  static Lanes padded3(const Vec3& v) { return masked3(v.data()); }

  // `pass` with more room. Its path is then longer than the record, which finish() reports.
  // The passes go by value, here and to finish(), so that no pass's address escapes the
  // caller's loop and the compiler keeps it in registers.
  Pass grown(Pass pass);

  std::vector<Block> mBlocks;  // the room; the record is its first mCount blocks
  std::size_t mCount = 0;
  bool mValid = false;
};

}  // namespace articula
