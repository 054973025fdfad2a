#pragma once
// A bit-for-bit record of the pose data a solver derived its rigid data from (pinocchio's
// Data kept for a Model), so a workspace re-derives only when that data changed: the joints
// of a path, their translations and scales, the rotations of the joints not being solved,
// and the chain's frame. Used by IkChainWorkspace and TwoBoneIkWorkspace.
//
// The record is a row of four-lane blocks of bits: per joint its translation, its rotation
// when it counts and its scale when it counts, each (x, y, z) block's fourth lane holding
// nothing; then the frame's four columns. A joint's key (its index and what counts of it) is
// kept in its first block's free lane, so a joint whose rotation or scale starts or stops
// counting differs in its first block, before the blocks after it shift. A pass over the
// inputs compares them with a valid record: each block is compared whole and the differences
// are only gathered (OR of XORs, the three-lane blocks apart, masked once at the end; the keys
// in an integer) until the end, so a comparison costs a few instructions per block, no branch
// per value and no store (packed SSE2 on x86-64, four 32-bit lanes elsewhere). The inputs of a
// solver run every frame nearly always match, so the comparing pass is the hot one; only when
// they differ, or there is no valid record, does a pass record them. A pass is a cursor the
// caller keeps in registers: the record's own members would be reloaded after every block
// recorded, since a packed store may alias anything.
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
  // One comparison or recording of a path: add() per path joint in a fixed order. Recording
  // stores the blocks; comparing gathers their differences from the record. Each mode is a
  // type of its own, so that a block costs no branch on it.
  template <bool kRecording>
  class Pass {
   public:
    // `withRotation`, `withScale`: whether the joint's rotation and scale are part of what the
    // data came from (not the solved joints' rotations, read at every run; not the scale of a
    // joint whose scale moves nothing derived). Both are in the joint's key, so the same
    // joints with other values counting are a change.
    void add(int joint, const Transform& local, bool withRotation, bool withScale = true) {
      const std::uint32_t key =
          (static_cast<std::uint32_t>(joint) << 2) | (withRotation ? 1u : 0u) | (withScale ? 2u : 0u);
      if constexpr (!kRecording) mKeys |= mSlot->lane[3] ^ key;
      put<true>(load3(local.translation.data()), key);
      addRest(local, withRotation, withScale);
    }
    // add() without the key, for a caller that passes the same joints, with the same values
    // counting, at every pass on this record (a workspace keyed on one hierarchy and three
    // joints): only the values can differ.
    void addValues(const Transform& local, bool withRotation, bool withScale = true) {
      put<true>(load3(local.translation.data()));
      addRest(local, withRotation, withScale);
    }

   private:
    friend class IkInputRecord;
    explicit Pass(Block* slot) : mSlot(slot) {}

    void addRest(const Transform& local, bool withRotation, bool withScale) {
      if (withRotation) put<false>(load4(local.rotation.coeffs().data()));
      if (withScale) put<true>(load3(local.scale.data()));
    }

    // A block; a three-lane one's fourth lane is not data: recording puts `last` there (a
    // key, or 0), comparing gathers the block apart, its fourth lane to be masked off.
    template <bool kThree>
    void put(const Lanes& block, std::uint32_t last = 0) {
#ifdef ARTICULA_IK_RECORD_SSE2
      auto* bits = reinterpret_cast<__m128i*>(mSlot->lane);
      if constexpr (kRecording) {
        _mm_store_si128(bits, kThree ? withLast(block, last) : block);
      } else {
        Lanes& diff = kThree ? mDiff3 : mDiff;
        diff = _mm_or_si128(diff, _mm_xor_si128(_mm_load_si128(bits), block));
      }
#else
      if constexpr (kRecording) {
        *mSlot = block;
        if (kThree) mSlot->lane[3] = last;
      } else {
        Lanes& diff = kThree ? mDiff3 : mDiff;
        for (int k = 0; k < 4; ++k) diff.lane[k] |= mSlot->lane[k] ^ block.lane[k];
      }
#endif
      ++mSlot;
    }

    Block* mSlot;             // the next block
    Lanes mDiff{};            // comparing: OR of every four-lane block's XOR with the record
    Lanes mDiff3{};           // the same for the three-lane blocks, their fourth lane not yet masked
    std::uint32_t mKeys = 0;  // the same for the keys
  };

  // Room for a path of this many joints, so that recording allocates nothing.
  void reserve(std::size_t pathJoints);
  // Forgets the record: the next pass records.
  void invalidate() { mValid = false; }

  // One pass over the inputs: `addPath(pass)` adds at most `pathJoints` joints, then the
  // frame's blocks follow. True when they differ from the last valid record (or there is
  // none); then they are recorded (`addPath` runs a second time, on a recording pass) and the
  // record stays invalid until markValid(). Inline: a workspace whose inputs did not change
  // runs nothing else of the record. The pass is given by reference to `addPath` only
  // (inlined, it never goes through memory).
  template <typename AddPath>
  bool pass(std::size_t pathJoints, const Affine& frame, AddPath&& addPath) {
    const std::size_t room = pathJoints * kBlocksPerJoint + kFrameBlocks;
    if (mBlocks.size() < room) grow(room);
    if (mValid) {
      Pass<false> comparing(mBlocks.data());
      addPath(comparing);
      // A path of another length than the record's, or a block that differs.
      if (finish(comparing, frame) == mCount && !anyBit(comparing)) return false;
      mValid = false;
    }
    Pass<true> recording(mBlocks.data());
    addPath(recording);
    mCount = finish(recording, frame);
    return true;
  }
  // The data derived from the recorded inputs is in place.
  void markValid() { mValid = true; }

 private:
  static constexpr std::size_t kBlocksPerJoint = 3;  // at most: translation and key, rotation, scale
  static constexpr std::size_t kFrameBlocks = 4;     // the linear part's columns, the origin

  // A Vec3 inside a Transform is followed by four bytes of padding (the rotation is 16-byte
  // aligned, and so is the whole), so a packed read of it stays inside the Transform.
  static_assert(alignof(Quat) == 16 && sizeof(Vec3) == 12 && sizeof(Transform) == 48,
                "IkInputRecord reads a Transform's translation and scale with their padding");

#ifdef ARTICULA_IK_RECORD_SSE2
  // x, y, z and whatever follows them, from three floats followed by four readable bytes.
  static Lanes load3(const float* v) { return _mm_loadu_si128(reinterpret_cast<const __m128i*>(v)); }
  static Lanes load4(const float* v) { return _mm_loadu_si128(reinterpret_cast<const __m128i*>(v)); }
  // x, y, z of `lanes` and `last`.
  static Lanes withLast(const Lanes& lanes, std::uint32_t last) {
    return _mm_or_si128(_mm_and_si128(lanes, _mm_set_epi32(0, -1, -1, -1)),
                        _mm_slli_si128(_mm_cvtsi32_si128(static_cast<int>(last)), 12));
  }
  template <bool kRecording>
  static bool anyBit(const Pass<kRecording>& pass) {
    const Lanes diff = _mm_or_si128(pass.mDiff, _mm_and_si128(pass.mDiff3, _mm_set_epi32(0, -1, -1, -1)));
    return (_mm_movemask_epi8(_mm_cmpeq_epi32(diff, _mm_setzero_si128())) != 0xFFFF) | (pass.mKeys != 0);
  }
#else
  static Lanes load3(const float* v) {
    Lanes r;
    std::memcpy(r.lane, v, 3 * sizeof(float));
    return r;
  }
  static Lanes load4(const float* v) {
    Lanes r;
    std::memcpy(r.lane, v, 4 * sizeof(float));
    return r;
  }
  template <bool kRecording>
  static bool anyBit(const Pass<kRecording>& pass) {
    const Lanes& d = pass.mDiff;
    const Lanes& d3 = pass.mDiff3;
    return ((d.lane[0] | d.lane[1] | d.lane[2] | d.lane[3]) | (d3.lane[0] | d3.lane[1] | d3.lane[2]) | pass.mKeys) != 0;
  }
#endif

  // The frame's blocks after the path's; returns the number of blocks passed.
  template <bool kRecording>
  std::size_t finish(Pass<kRecording>& pass, const Affine& frame) const {
    // Column-major 4×4: the linear part's columns, then the origin, each with a bottom-row
    // entry after it, which is masked off (Eigen does not promise it for an Affine).
    const float* m = frame.data();
    pass.template put<true>(load3(m));
    pass.template put<true>(load3(m + 4));
    pass.template put<true>(load3(m + 8));
    pass.template put<true>(load3(m + 12));
    return static_cast<std::size_t>(pass.mSlot - mBlocks.data());
  }

  // Room for `blocks` blocks, the record kept. Out of line: rare.
  void grow(std::size_t blocks);

  std::vector<Block> mBlocks;  // the room; the record is its first mCount blocks
  std::size_t mCount = 0;
  bool mValid = false;  // the data derived from the record is in place: passes compare
};

}  // namespace articula
