#pragma once
#include <cstdint>
#include <vector>

#include "core/anim/curve.h"
#include "core/math/types.h"

namespace articula {

// Translation or scale: one scalar curve per component (Blender's F-curves). glTF STEP,
// LINEAR and CUBICSPLINE map exactly onto Constant, Linear and Bézier keys (Hermite
// tangents become handles at a third of the segment), so nothing is resampled.
struct Vec3TrackCursor {
  CurveCursor x, y, z;
};

struct Vec3Track {
  Curve x, y, z;

  bool empty() const { return x.empty() && y.empty() && z.empty(); }
  Vec3 evaluate(double t, const Vec3& fallback) const;  // fallback for components with no keys
  Vec3 evaluate(double t, const Vec3& fallback, Vec3TrackCursor& cursor) const;
};

// How a rotation key's segment (to the next key) is interpolated.
enum class RotationInterpolation : std::uint8_t {
  Step,         // hold the key's value
  Slerp,        // spherical linear, shortest arc
  Bezier,       // Bézier on the sphere: De Casteljau of slerps through the key, outControl,
                // next key's inControl, next key (shortest arc at every step)
  CubicSpline,  // glTF CUBICSPLINE: Hermite on the 4 components with tangents scaled by
                // the segment duration, then normalised
};

// A rotation key. For Bezier, `inControl`/`outControl` are control rotations on the
// sphere; for CubicSpline they hold the glTF in/out tangents (as quaternion coefficients,
// per second); otherwise they are unused.
struct RotationKey {
  double time = 0.0;
  Quat value = Quat::Identity();
  RotationInterpolation interpolation = RotationInterpolation::Slerp;
  Quat inControl = Quat::Identity();
  Quat outControl = Quat::Identity();
};

struct RotationCursor {
  std::size_t segment = 0;
};

// Keys sorted by time (same rules as Curve: keys within 1e-9 s are one key, the last given
// wins). Values (and Bezier controls) are stored normalised, each value in the hemisphere of
// its predecessor so slerp follows the shortest arc; Step, Slerp and Bezier also take the
// shortest arc when evaluated. Exception: a key that starts or ends a CubicSpline segment
// keeps the sign it was given, because glTF tangents are authored relative to the stored
// signs of both ends (flipping one end would turn its tangents against it); the spline
// itself is not sign-invariant, so those keys are evaluated exactly as authored.
class RotationTrack {
 public:
  const std::vector<RotationKey>& keys() const { return mKeys; }
  bool empty() const { return mKeys.empty(); }
  std::size_t size() const { return mKeys.size(); }

  std::size_t insertKey(const RotationKey& key);  // replaces a key at the same time
  void removeKey(std::size_t index);
  std::size_t setKey(std::size_t index, const RotationKey& key);
  void setKeys(std::vector<RotationKey> keys);  // sorts and makes hemispheres continuous

  // Identity when empty; constant before the first key and after the last.
  Quat evaluate(double t) const;
  Quat evaluate(double t, RotationCursor& cursor) const;

  double startTime() const;
  double endTime() const;

 private:
  void makeHemispheresContinuous();

  std::vector<RotationKey> mKeys;
};

}  // namespace articula
