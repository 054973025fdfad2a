#pragma once
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/math/types.h"

namespace articula {

// How the segment that *leaves* a key is interpolated (Blender's BezTriple.ipo).
enum class Interpolation : std::uint8_t { Constant, Linear, Bezier };

// How a key's Bézier handles are computed (Blender/Maya tangent types).
enum class HandleType : std::uint8_t {
  Free,         // both handles as the user placed them
  Aligned,      // user-placed, but the two handles stay collinear through the key
  Vector,       // each handle points a third of the way to the neighbouring key
  Auto,         // Catmull-Rom-like smooth tangent from the neighbours
  AutoClamped,  // Auto, but flat at extrema and never overshooting between keys
};

// One key of a scalar curve. Handles are absolute (time, value) points, like Blender's
// BezTriple: `left` before the key in time, `right` after it. Times in seconds.
struct CurveKey {
  double time = 0.0;
  double value = 0.0;
  Interpolation interpolation = Interpolation::Bezier;  // of the segment to the next key
  HandleType leftType = HandleType::AutoClamped;
  HandleType rightType = HandleType::AutoClamped;
  Vec2d left = Vec2d::Zero();   // (time, value), left.x() <= time
  Vec2d right = Vec2d::Zero();  // (time, value), right.x() >= time
};

// Remembers the last segment used, so evaluating at increasing (or nearby) times is O(1)
// amortised: playback and bake walk forward one segment at a time.
struct CurveCursor {
  std::size_t segment = 0;
};

// Editable scalar animation curve (an F-curve). Keys are kept sorted by time with no two
// keys at the same time. Before the first key and after the last the curve is constant.
class Curve {
 public:
  Curve() = default;
  explicit Curve(std::vector<CurveKey> keys);  // sorts, then recomputes handles

  const std::vector<CurveKey>& keys() const { return mKeys; }
  std::size_t size() const { return mKeys.size(); }
  bool empty() const { return mKeys.empty(); }

  // Inserts a key (or replaces the key already at the same time, within 1e-9 s, keeping that
  // key's time) and recomputes the automatic handles. Returns its index.
  std::size_t insertKey(const CurveKey& key);
  // Convenience: a key with the given interpolation and AutoClamped handles.
  std::size_t insertKey(double time, double value, Interpolation interpolation = Interpolation::Bezier);
  void removeKey(std::size_t index);  // an out-of-range index changes nothing
  // Replaces key `index` (moving it in time re-sorts; landing on another key's time replaces
  // that key) and recomputes handles; returns the key's new index. When both handles are
  // Aligned, the one that changed leads and the other turns to line up with it. An
  // out-of-range index changes nothing and returns size().
  std::size_t setKey(std::size_t index, const CurveKey& key);
  // Replaces all keys at once (importers): sorts (stable; of keys within 1e-9 s of each
  // other the last one given wins; non-finite times go last so validate() can name them),
  // keeps explicit Free/Aligned handles as given, recomputes automatic ones.
  void setKeys(std::vector<CurveKey> keys);

  // Recomputes Vector/Auto/AutoClamped handles from the neighbouring keys (Blender's rules,
  // see curve.cpp) and re-aligns Aligned handles (with both Aligned, the right handle turns
  // to line up with the left one). Free and Aligned handles are stored as authored; every
  // handle is clamped when a segment is evaluated (see bezierSegment), so a handle dragged
  // past the neighbouring key still gives a function of time.
  void recalculateHandles();

  // The four control points (time, value) of Bézier segment [keys[i], keys[i+1]] as it is
  // evaluated: handles that point backwards in time collapse onto their key, and when the
  // two handles together span more time than the segment both are scaled toward their keys
  // (direction kept) until they fit (Olive's valid_bezier_control_in, Blender's
  // correct_bezpart). Then x(u) is monotone and "the value at time t" has one answer.
  struct BezierSegment {
    Vec2d p0, p1, p2, p3;
  };
  BezierSegment bezierSegment(std::size_t segment) const;

  // Value at time `t` (seconds). For Bézier segments, solves the cubic x(u) = t for the
  // parameter u (one root, since the handles are clamped) and returns y(u).
  double evaluate(double t) const;
  double evaluate(double t, CurveCursor& cursor) const;

  // Index of the segment [keys[i], keys[i+1]) containing t (clamped to the key range).
  std::size_t findSegment(double t, CurveCursor* cursor = nullptr) const;

  double startTime() const;  // first key time, 0 if empty
  double endTime() const;    // last key time, 0 if empty

 private:
  std::vector<CurveKey> mKeys;
};

// Solves x(u) = t for u in [0, 1] on the cubic Bézier with control abscissae x0..x3
// (x0 < x3). Inner abscissae that would make x(u) non-monotone are clamped first, with the
// same rule as Curve::bezierSegment, so there is exactly one root. Robust for flat and
// steep segments (handles at the key times, nearly linear x); error < 1e-9 in u. t outside
// [x0, x3] clamps to 0 or 1; a zero-length segment (x3 <= x0) gives 0.
double solveBezierParameter(double x0, double x1, double x2, double x3, double t);

// Keys closer than this in time (seconds) are one key: insertKey replaces, setKeys merges.
inline constexpr double kSameKeyTimeSeconds = 1e-9;
inline bool sameKeyTime(double a, double b) { return std::abs(a - b) <= kSameKeyTimeSeconds; }

// Key-time order with NaN after every number, so sorting a broken import is still a strict
// weak ordering and its bad keys end up last, where Clip::validate() names them.
inline bool keyTimeLess(double a, double b) {
  const bool aNan = std::isnan(a);
  const bool bNan = std::isnan(b);
  if (aNan != bNan) return bNan;
  return a < b;
}

// Segment search shared by every keyed track: the index i of [time(i), time(i + 1))
// containing t, clamped to [0, count - 2] (0 when count < 2). Tries the cursor's segment,
// then its successor and predecessor (playback forwards or backwards), else binary search;
// stores the answer in `cursor`. `time(i)` returns key i's time, sorted ascending.
template <typename TimeAt>
std::size_t findSegmentIndex(std::size_t count, double t, std::size_t& cursor, TimeAt time) {
  if (count < 2) {
    cursor = 0;
    return 0;
  }
  const std::size_t last = count - 2;
  auto contains = [&](std::size_t i) { return time(i) <= t && (i == last || t < time(i + 1)); };
  std::size_t c = std::min(cursor, last);
  if (!(t >= time(0))) {
    c = 0;  // before the first key (or NaN)
  } else if (!contains(c)) {
    if (c < last && contains(c + 1)) {
      ++c;
    } else if (c > 0 && contains(c - 1)) {
      --c;
    } else {
      // Binary search for the first key after t; the segment starts at the key before it.
      std::size_t lo = 1;
      std::size_t hi = count;
      while (lo < hi) {
        const std::size_t mid = lo + (hi - lo) / 2;
        if (time(mid) > t) {
          hi = mid;
        } else {
          lo = mid + 1;
        }
      }
      c = std::min(lo - 1, last);
    }
  }
  cursor = c;
  return c;
}

}  // namespace articula
